"""Capture many API answers to compare two versions of the code: ``python -m devtools.capture OUT.jsonl``.

The requests are made from a fixed seed (every dispute kind under every bundled variant, random
hands, replays of simulated hands with irregular cards, comparisons, inline house rules, a few
positions to solve, bad requests), sent to the app in process, and written one JSON line each:
the request, the status and the answer.  Two captures of the same requests are compared with
``diff`` (or ``python -m devtools.capture --compare A B``, which names the first requests that
differ).  A refactor that changes no answer leaves the capture byte-identical.
"""
from __future__ import annotations

import argparse
import json
import logging
import random
import sys
from collections.abc import Iterator

from rulespec.core import cards as C
from rulespec.game.engine import deal_cards, play_hand, shuffled
from rulespec.game.policies import RandomPolicy
from rulespec.model.ruleset import load_ruleset
from rulespec.model.variants import bundled_ids

PER_KIND = 40      # random requests per kind and variant
BIDS = [*range(0, 8), *range(1, 6), "nil", "nil", "blind nil", "blind 7", "blind 8", 12]


def _seats(rng: random.Random, values: list) -> dict:
    return {seat: rng.choice(values) for seat in C.SEATS}


def _tricks(rng: random.Random, size: int) -> dict:
    cuts = sorted(rng.randint(0, size) for _ in range(3))
    counts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], size - cuts[2]]
    return dict(zip(C.SEATS, counts))


def _before(rng: random.Random) -> dict:
    return {team: {"score": rng.randint(-300, 520), "bags": rng.randint(0, 12)} for team in C.TEAMS}


def _score(rng: random.Random, vid: str) -> dict:
    rs = load_ruleset(vid)
    bids = _seats(rng, BIDS if rng.random() < 0.4 else [*range(1, 6), "nil"])
    body = {"variant": vid, "bids": bids, "tricks": _tricks(rng, rs.params["deal.hand_size"])}
    if rng.random() < 0.5:
        body["before"] = _before(rng)
    if rng.random() < 0.2:
        body["events"] = [{"type": "renege", "seat": rng.choice(C.SEATS)}]
    return body


def _replayed(rng: random.Random, vid: str) -> dict:
    """A simulated hand sent as deal and play, now and then with two cards swapped (an irregular card)."""
    rs = load_ruleset(vid)
    stock = shuffled(rs, rng) if rs.params["deal.draw"] else None       # (the hands drawn from it: deal.draw)
    record = play_hand(rs, deal_cards(rs, rng), 0, RandomPolicy(rng), stock=stock)
    play = [card for trick in record["tricks"] for card in trick["cards"]]
    if rng.random() < 0.4:
        i, j = sorted(rng.sample(range(len(play)), 2))
        play[i], play[j] = play[j], play[i]
    kitty = {"kitty": record["kitty"]["cards"], "discards": record["kitty"]["discarded"]} if "kitty" in record else {}
    return {"variant": vid, "deal": record["deal"], "bids": record["bids"], "play": play, "dealer": "N", **kitty}


def _trick(rng: random.Random, vid: str) -> dict:
    rs = load_ruleset(vid)
    cards = rng.sample(C.card_names(rs.deck), 4)
    return {"variant": vid, "leader": rng.choice(C.SEATS), "cards": cards, "number": rng.randint(1, 13)}


def _legal(rng: random.Random, vid: str) -> dict:
    rs = load_ruleset(vid)
    names = C.card_names(rs.deck)
    rng.shuffle(names)
    size = rs.params["deal.hand_size"]
    number = rng.randint(1, size)
    body = {"variant": vid, "hand": names[:size + 1 - number], "number": number, "broken": rng.random() < 0.5}
    if rng.random() < 0.6:
        body["trick"] = names[13:13 + rng.randint(1, 3)]
    if rng.random() < 0.3:
        body["card"] = names[0]
    return body


def _bid(rng: random.Random, vid: str) -> dict:
    body = {"variant": vid, "seat": rng.choice(C.SEATS), "bid": rng.choice(BIDS)}
    if rng.random() < 0.5:
        body["partner"] = rng.choice(BIDS)
    if rng.random() < 0.5:
        body["before"] = _before(rng)
    if rng.random() < 0.3:
        body["hand"] = rng.sample(C.card_names(load_ruleset(vid).deck), 13)
    return body


def _game(rng: random.Random, vid: str) -> dict:
    rs = load_ruleset(vid)
    hands = [{"bids": _seats(rng, [*range(1, 6), "nil"]), "tricks": _tricks(rng, rs.params["deal.hand_size"])}
             for _ in range(rng.randint(1, 4))]
    return {"variant": vid, "hands": hands}


MAKERS = {"score": _score, "trick": _trick, "legal": _legal, "bid": _bid, "game": _game}


def requests(seed: str = "capture") -> Iterator[tuple[str, dict]]:
    """(path, body) of every captured request, always the same for a seed."""
    rng = random.Random(seed)
    ids = bundled_ids()
    for vid in ids:
        for kind, make in MAKERS.items():
            for _ in range(PER_KIND):
                yield f"/v1/{kind}", make(rng, vid)
        for _ in range(PER_KIND // 2):
            yield "/v1/score", _replayed(rng, vid)
    for _ in range(PER_KIND * 4):
        pair = rng.sample(ids, rng.randint(2, 3))
        kind = rng.choice(list(MAKERS))
        body = MAKERS[kind](rng, pair[0])
        body.pop("variant")
        yield "/v1/compare", {"variants": pair, "kind": kind, "input": body}
    house = [{"extends": "standard", "rules": {"nil.made": 75, "nil.failed": -75}},
             {"extends": "classic", "rules": {"game.target": 300, "bags.limit": 5}},
             {"extends": "house", "rules": {"scoring.overtrick_points": 0}}]
    for variant in house:
        for kind, make in MAKERS.items():
            for _ in range(PER_KIND // 4):
                body = make(rng, "standard")
                body["variant"] = variant
                yield f"/v1/{kind}", body
    ending = {"N": ["AS", "KH", "2C"], "E": ["QS", "AH", "3C"], "S": ["2S", "QH", "4C"], "W": ["3S", "JH", "5C"]}
    for vid in ("standard", "classic", "tournament"):
        base = {"variant": vid, "leader": "N", "broken": True, "hands": ending}
        yield "/v1/solve", base
        yield "/v1/claim", {**base, "claim": {"side": "NS", "tricks": 2}}
        yield "/v1/nil", {**base, "nil": "S"}
    for body in ({}, {"variant": "nosuch"}, {"variant": "standard", "bids": "x"}, [1, 2],
                 {"variant": "standard", "leader": "Q", "cards": []}):
        for kind in MAKERS:
            yield f"/v1/{kind}", body


def _without_nodes(value):
    """An answer without the searches' node counts: they depend on which search answered (the compiled one
    once it is ready, the Python one before), which is by design, never on the rules."""
    if isinstance(value, dict):
        return {k: _without_nodes(v) for k, v in value.items() if k != "nodes"}
    if isinstance(value, list):
        return [_without_nodes(v) for v in value]
    return value


def capture(out, seed: str) -> int:
    from service.app import create_app
    logging.disable(logging.ERROR)       # a 500's traceback is in the capture's status, not on the terminal
    client = create_app().test_client()
    count = 0
    for path, body in requests(seed):
        response = client.post(path, json=body)
        record = {"path": path, "request": body, "status": response.status_code,
                  "answer": _without_nodes(response.get_json())}
        out.write(json.dumps(record, sort_keys=True, ensure_ascii=False) + "\n")
        count += 1
    return count


def compare(a: str, b: str, most: int = 5) -> int:
    """The number of answers that differ between two captures (the first few printed)."""
    differ = 0
    with open(a, encoding="utf-8") as fa, open(b, encoding="utf-8") as fb:
        for number, (la, lb) in enumerate(zip(fa, fb), 1):
            if la != lb:
                differ += 1
                if differ <= most:
                    record = json.loads(la)
                    print(f"answer {number} differs: {record['path']} {json.dumps(record['request'])[:200]}")
    return differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="the capture to write (JSON lines); with --compare, the first capture")
    parser.add_argument("other", nargs="?", help="with --compare: the second capture")
    parser.add_argument("--seed", default="capture")
    parser.add_argument("--compare", action="store_true", help="compare two captures instead")
    args = parser.parse_args()
    if args.compare:
        differ = compare(args.out, args.other)
        print(f"{differ} answers differ")
        sys.exit(1 if differ else 0)
    with open(args.out, "w", encoding="utf-8") as out:
        print(f"{capture(out, args.seed)} answers captured")


if __name__ == "__main__":
    main()
