"""Hostile requests against the production server (issue 28): the slowest request, the largest answer, and
``/healthz`` and ``/v1/score`` under slow clients (a byte a second in the headers or the body).

``python -m bench.hostile [--slow N ...] [--skip-heavy] [--option=--worker-class=X ...]`` serves the app
as ``make serve`` does (``service.local.gunicorn``, its options after ``make serve``'s settings), sends
each heavy request alone and times it, then measures each endpoint's p99 over ``--requests`` requests from
4 client threads (each a new connection) with 0 and N slow clients holding connections open.  Prints one
JSON document.  Traffic goes to the loopback address only, and every loop is bounded in count and time.
"""
from __future__ import annotations

import argparse
import http.client
import json
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

from service.local import ROOT, free_port, gunicorn

HAND = {"bids": {"N": 4, "E": 3, "S": "nil", "W": 4}, "tricks": {"N": 5, "E": 3, "S": 1, "W": 4}}
SCORE = {"variant": "standard", **HAND}
ENDLESS = {"game.target_reached": "false", "game.mercy": "false"}   # 500 hands are never cut short
# 19 rules a house rule can change, each to a value that differs per variant (k = 1..7)
CHANGED = {"scoring.made": "{m} * team.contract", "scoring.set": "-{m} * team.contract",
           "scoring.overtrick_points": "{k}", "nil.made": "{n}", "nil.failed": "-{n}", "blind_nil.made": "2 * {n}",
           "blind_nil.failed": "-2 * {n}", "bags.penalty": "-{n}", "bags.limit": "{b}", "bags.carry": "false",
           "bonus.last_trick": "{k}", "bid.regular_min": "1", "bid.regular_max": "13", "nil.tricks_count": "false",
           "nil.tricks_bags": "false", "blind_nil.allowed": "true", "renege.victim_bags": "false",
           "deal.next_dealer": "right_of(dealer)", "scoring.bags": "team.overtricks + 0"}


CITED = {"scoring.made": "10 * team.contract", "scoring.set": "-10 * team.contract", "nil.made": "100",
         "nil.failed": "-100", "nil.tricks_count": "true", "nil.tricks_bags": "nil.tricks_count"}


def house(k: int, cite: str | None = None) -> dict:
    """An inline house rule that changes ``CHANGED``'s 19 rules (k > 0) or none (k = 0)."""
    rules: dict = dict(ENDLESS)
    if k:
        values = {"m": 10 + k, "n": 100 + k, "k": k, "b": 10 + k}
        rules.update({name: text.format(**values) for name, text in CHANGED.items()})
    if cite is not None:     # on the rules that give a line in every hand's trail
        rules.update({name: {"value": rules.get(name, value), "cite": cite} for name, value in CITED.items()})
    return {"extends": "standard", "rules": rules}


def played_hand() -> dict:
    """A whole hand of 'standard' as a score request's fields (deal, dealer, bids and play), each seat playing its
    lowest legal card."""
    from rulespec import game as G
    from rulespec.core import cards as C
    from rulespec.model.ruleset import load_ruleset
    rs = load_ruleset("standard")
    hands = G.deal_for("bench-hostile", 0, rs)
    state, play = G.HandState(rs, hands, 0), []
    while not state.over:
        card = next(C.iter_cards(state.legal()))
        state.play(card)
        play.append(C.card_name(card))
        if len(state.trick) == 4:
            state.finish_trick()
    return {"dealer": "N", "bids": {s: 3 for s in "NESW"},
            "deal": {"NESW"[s]: C.card_names(hands[s]) for s in range(4)}, "play": play}


def heavy_requests() -> dict[str, tuple[str, dict]]:
    """The issue's heavy and amplifying requests, by name: (path, body)."""
    long_cite = "house §" + "x" * 3993          # 4,000 characters: the longest citation allowed
    cited = [house(k, long_cite) for k in range(8)]
    return {
        "compare game, 8 inline variants x 500 hands, 19 differing rules":
            ("/v1/compare", {"kind": "game", "variants": [house(k) for k in range(8)],
                             "input": {"hands": [HAND] * 500}}),
        "compare game, 4,000-character cites":
            ("/v1/compare", {"kind": "game", "variants": cited, "input": {"hands": [HAND] * 300}}),
        "game, 500 hands (64 KB)": ("/v1/game", {"variant": house(0), "hands": [HAND] * 500}),
        "diff, 200 deals x 8 variants":
            ("/v1/diff", {"variants": ["standard", "classic", "tournament", "pirates", "house", "suicide", "whiz",
                                       "jokers-deuces"], "deals": 200}),
        "score, a sum of 500 ones": ("/v1/score", {**SCORE, "variant": {"extends": "standard", "rules": {
            "nil.made": "+".join(["1"] * 500)}}}),
        "score, 1,999 minus signs": ("/v1/score", {**SCORE, "variant": {"extends": "standard", "rules": {
            "nil.made": "-" * 1999 + "1"}}}),
        "score, 490 nested not": ("/v1/score", {**SCORE, "variant": {"extends": "standard", "rules": {
            "nil.allowed": "not " * 490 + "true"}}}),
        "score, 999,999,999 bags (a bags.penalty line for each penalty)": ("/v1/score", {**SCORE, "variant": {
            "extends": "standard", "rules": {"scoring.bags": "999999999"}}}),
    }


def _request(host: str, port: int, method: str, path: str, body: bytes | None, timeout: float = 300.0
             ) -> tuple[int, int, float]:
    """(status, answer bytes, seconds) of one request on a new connection."""
    start = time.monotonic()
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
        resp = conn.getresponse()
        size = len(resp.read())
        return resp.status, size, time.monotonic() - start
    finally:
        conn.close()


def measure_heavy(host: str, port: int) -> list[dict]:
    out = []
    for name, (path, body) in heavy_requests().items():
        data = json.dumps(body).encode()
        try:
            status, size, took = _request(host, port, "POST", path, data)
        except OSError as exc:
            out.append({"request": name, "error": str(exc)})
            continue
        out.append({"request": name, "request_bytes": len(data), "status": status, "answer_bytes": size,
                    "seconds": round(took, 3)})
        print(json.dumps(out[-1]), flush=True)
    return out


class SlowClients:
    """``count`` connections that each send a request one byte a second (half in the headers, half in the
    body); every connection is closed on leaving, and none lives past ``limit`` seconds."""

    def __init__(self, host: str, port: int, count: int, limit: float = 120.0):
        body = json.dumps(SCORE).encode()
        head = (f"POST /v1/score HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n").encode()
        self.host, self.port, self.count, self.limit = host, port, count, limit
        self.plans = [(b"", head + body) if i % 2 == 0 else (head, body) for i in range(count)]
        self.socks: list[tuple[socket.socket, bytes]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.closed_by_server = 0

    def __enter__(self):
        for prefix, dribble in self.plans:
            sock = socket.create_connection((self.host, self.port), timeout=5)
            if prefix:
                sock.sendall(prefix)
            self.socks.append((sock, dribble))
        self.thread.start()
        time.sleep(2.0)      # let every one of them reach the server and send its first bytes
        return self

    def run(self) -> None:
        """Each second, one more byte on every connection; one the server closed is opened again (as an
        attacker would), its request started over."""
        start = time.monotonic()
        sent = [0] * len(self.socks)
        while not self.stop.is_set() and time.monotonic() - start < self.limit:
            for i, (sock, dribble) in enumerate(self.socks):
                if sent[i] >= len(dribble) - 1:     # never the last byte: the request stays incomplete
                    continue
                try:
                    sock.send(dribble[sent[i]:sent[i] + 1])
                    sent[i] += 1
                except OSError:
                    self.closed_by_server += 1
                    sock.close()
                    try:
                        again = socket.create_connection((self.host, self.port), timeout=5)
                        prefix = self.plans[i][0]
                        if prefix:
                            again.sendall(prefix)
                        self.socks[i], sent[i] = (again, dribble), 0
                    except OSError:
                        pass
            self.stop.wait(1.0)

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join()
        for sock, _ in self.socks:
            sock.close()


def latencies(host: str, port: int, path: str, body: bytes | None, requests: int, threads: int = 4,
              limit: float = 40.0) -> dict:
    """p50/p99/max (ms) of ``requests`` requests from ``threads`` client threads, each on a new connection
    (5 s timeout each: a request that gets no answer counts as a failure; none starts after ``limit`` s)."""
    times: list[float] = []
    failures: list[str] = []
    per = requests // threads
    stop = time.monotonic() + limit

    def work() -> None:
        for _ in range(per):
            if time.monotonic() > stop:
                failures.append("not sent (time limit)")
                continue
            try:
                status, _, took = _request(host, port, "POST" if body else "GET", path, body, timeout=5.0)
                times.append(took)
                if status != 200:
                    failures.append(str(status))
            except OSError as exc:
                failures.append(type(exc).__name__)
    pool = [threading.Thread(target=work) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    times.sort()
    if not times:
        return {"answered": 0, "failures": len(failures)}
    return {"answered": len(times), "failures": len(failures),
            "p50_ms": round(statistics.median(times) * 1000, 2),
            "p99_ms": round(times[min(len(times) - 1, int(0.99 * len(times)))] * 1000, 2),
            "max_ms": round(times[-1] * 1000, 2)}


def measure_slow(host: str, port: int, counts: list[int], requests: int) -> list[dict]:
    out = []
    score = json.dumps(SCORE).encode()
    for count in counts:
        with SlowClients(host, port, count) as slow:
            row = {"slow_clients": count, "healthz": latencies(host, port, "/healthz", None, requests),
                   "score": latencies(host, port, "/v1/score", score, requests)}
            row["slow_closed_by_server"] = slow.closed_by_server
        out.append(row)
        print(json.dumps(row), flush=True)
    return out


@contextmanager
def waitress(threads: int) -> Iterator[str]:
    """The app under waitress (a candidate measured beside gunicorn: one process, ``threads`` threads, its
    channels buffering each request before a thread takes it); yields the base URL once it answers."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "waitress", f"--listen=127.0.0.1:{port}", f"--threads={threads}",
                             "--call", "service.app:create_app"], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=15)


# a rule that is cheap to compile and heavy to evaluate for every card played: a game of it runs until the
# request's allowance stops it (5 s, or its steps)
HEAVY_FOLLOW = ("if count(c in hand where count(d in played | hand where d.rank > c.rank) >= 0) >= 0 then "
                "(if hand.has(trick.led_suit) then hand & trick.led_suit else hand) else hand")


def measure_busy(host: str, port: int, counts: list[int], requests: int, hand: dict) -> list[dict]:
    """/healthz and /v1/score latencies while ``count`` requests that use their whole allowance run."""
    heavy = json.dumps({"variant": {"extends": "standard", "rules": {"play.follow": HEAVY_FOLLOW, **ENDLESS}},
                        "hands": [hand] * 300}).encode()
    score = json.dumps(SCORE).encode()
    out = []
    for count in counts:
        busy = [threading.Thread(target=_request, args=(host, port, "POST", "/v1/game", heavy)) for _ in range(count)]
        for t in busy:
            t.start()
        time.sleep(0.5)
        row = {"busy_requests": count, "healthz": latencies(host, port, "/healthz", None, requests, limit=4.0),
               "score": latencies(host, port, "/v1/score", score, requests, limit=4.0)}
        for t in busy:
            t.join()
        out.append(row)
        print(json.dumps(row), flush=True)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slow", type=int, nargs="*", default=[0, 50, 100])
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--skip-heavy", action="store_true")
    parser.add_argument("--skip-slow", action="store_true")
    parser.add_argument("--busy", type=int, nargs="*", default=[], help="also measure under N heavy requests")
    parser.add_argument("--option", action="append", default=[], help="a gunicorn option, e.g. --option=--threads=8")
    parser.add_argument("--waitress", type=int, metavar="THREADS", help="serve with waitress (one process) instead")
    args = parser.parse_args(argv)
    result: dict = {"options": args.option, "waitress": args.waitress}
    with (waitress(args.waitress) if args.waitress else gunicorn(options=args.option, timeout=60)) as base:
        host, port = base.removeprefix("http://").split(":")
        _request(host, int(port), "POST", "/v1/score", json.dumps(SCORE).encode())   # warm both workers
        _request(host, int(port), "POST", "/v1/score", json.dumps(SCORE).encode())
        if not args.skip_heavy:
            result["heavy"] = measure_heavy(host, int(port))
        if not args.skip_slow:
            result["slow"] = measure_slow(host, int(port), args.slow, args.requests)
        if args.busy:
            result["busy"] = measure_busy(host, int(port), args.busy, args.requests, played_hand())
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
