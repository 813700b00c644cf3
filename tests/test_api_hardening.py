"""Issue 19 over HTTP: the attacks against a real server (gunicorn, as `make serve` runs it) while
/healthz is timed, and the contract fixes with the test client."""
from __future__ import annotations

import http.client
import json
import socket
import threading
import time

import pytest

from rulespec.lang import limits as L
from rulespec.errors import RulesFileError
from rulespec.model.variants import read_variant_text, resolve_chain
from service.app import create_app
from serve_helpers import served
from test_api import problem
from api_requests import SCORE, TRICK, played_hand
from test_api_server import call

NESTED = "if " + "count(c in all_cards where " * 6 + "true" + ") > 0" * 6 + " then all_cards else all_cards"
NESTED_YAML = f"id: x\nextends: standard\nrules:\n  deck.cards: {NESTED} @ house §D\n"
BOMB = ("id: x\nextends: standard\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(f"{n}: &{n} [" + ", ".join([f"*{p}"] * 10) + "]\n" for p, n in zip("abcde", "bcdef"))
        + "source: *f\n")
# allowed at compile time (two levels) but heavy when a long game evaluates it for every card played
HEAVY_FOLLOW = ("if count(c in hand where count(d in played | hand where d.rank > c.rank) >= 0) >= 0 then "
                "(if hand.has(trick.led_suit) then hand & trick.led_suit else hand) else hand")


def test_attack_payloads_are_small():
    assert len(NESTED_YAML) < 400 and len(BOMB) < 450


@pytest.fixture(scope="module")
def server():
    with served(workers=2, threads=1) as base:
        yield base


class HealthWatch:
    """Polls /healthz from a thread while attacks run (and at least ``MIN_POLLS`` times); keeps every time."""
    MIN_POLLS = 6

    def __init__(self, base: str):
        self.base, self.times, self.failures = base, [], []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run)

    def run(self) -> None:
        while not self.stop.is_set():
            start = time.monotonic()
            status, _, body = call(self.base, "GET", "/healthz")
            self.times.append(time.monotonic() - start)
            if (status, body) != (200, {"status": "ok"}):
                self.failures.append((status, body))
            time.sleep(0.02)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        deadline = time.monotonic() + 10
        while len(self.times) < self.MIN_POLLS and time.monotonic() < deadline:   # attacks refused fast still
            time.sleep(0.01)                                                       # get a few polls measured
        self.stop.set()
        self.thread.join()


def _attacks(base: str) -> list[tuple[int, str, dict]]:
    return [
        call(base, "POST", "/v1/variants/check", NESTED_YAML.encode(), "text/yaml"),
        call(base, "POST", "/v1/score", {**SCORE, "variant": {"extends": "standard", "rules": {"deck.cards": NESTED}}}),
        call(base, "POST", "/v1/variants/check", BOMB.encode(), "text/yaml"),
        call(base, "POST", "/v1/score", {**SCORE, "variant": {"yaml": BOMB}}),
    ]


def test_attacks_are_refused_while_healthz_answers_promptly(server):
    results: list = []
    start = time.monotonic()
    with HealthWatch(server) as watch:
        threads = [threading.Thread(target=lambda: [results.extend(_attacks(server)) for _ in range(5)])
                   for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
    assert time.monotonic() - start < 30 and len(results) == 4 * 5 * 4
    for status, ctype, body in results:
        assert (status, ctype) == (422, "application/problem+json"), body
    nested_check, nested_inline, bomb_check, bomb_inline = results[:4]
    assert nested_check[2]["problems"][0]["rule"] == "deck.cards" and "nested" in nested_check[2]["detail"]
    assert nested_inline[2]["field"] == "variant.rules.deck.cards"
    assert "aliases" in bomb_check[2]["detail"] and bomb_inline[2]["field"] == "variant.yaml"
    assert not watch.failures and len(watch.times) > 5 and max(watch.times) < 1.0, max(watch.times)


def test_heavy_rules_stop_at_the_request_budget(server):
    request, _, _ = played_hand()
    hand = {k: v for k, v in request.items() if k != "variant"}
    variant = {"extends": "standard", "rules": {"play.follow": HEAVY_FOLLOW, "game.target_reached": "false",
                                                "game.mercy": "false"}}
    short = call(server, "POST", "/v1/game", {"variant": variant, "hands": [hand] * 2})
    assert short[0] == 200, short
    with HealthWatch(server) as watch:
        start = time.monotonic()
        status, ctype, body = call(server, "POST", "/v1/game", {"variant": variant, "hands": [hand] * 300})
        took = time.monotonic() - start
    assert (status, ctype, body["type"]) == (422, "application/problem+json", "/api#problem-work-limit"), body
    assert took < L.REQUEST_SECONDS + 3
    assert not watch.failures and max(watch.times) < 1.0, max(watch.times)


def test_chunked_body_over_the_limit_is_413(server):
    host, port = server.removeprefix("http://").split(":")
    body = json.dumps(SCORE).encode() + b" " * (300 * 1024)
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.request("POST", "/v1/score", body=iter([body[i:i + 65536] for i in range(0, len(body), 65536)]),
                 headers={"Content-Type": "application/json"}, encode_chunked=True)
    resp = conn.getresponse()
    assert resp.status == 413 and resp.headers.get_content_type() == "application/problem+json"
    conn.close()
    status, _, _ = call(server, "POST", "/v1/score", SCORE)
    assert status == 200


# --------------------------------------------------------------------------- test client
@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def test_variant_and_variants_together_refused(client):
    problem(client.post("/v1/score", json={**SCORE, "variants": ["standard", "classic"]}), 422, "invalid-input",
            "variants")


def test_whole_floats_are_integers_as_json_schema_says(client):
    resp = client.post("/v1/trick", json={**TRICK, "number": 1.0})
    assert resp.status_code == 200 and resp.get_json()["winner"]
    problem(client.post("/v1/trick", json={**TRICK, "number": 1.5}), 422, "invalid-input", "number")


def test_duplicate_json_keys_refused(client):
    body = problem(client.post("/v1/trick", data='{"variant": "standard", "variant": "classic"}',
                               content_type="application/json"), 400, "invalid-json", "body")
    assert "'variant' appears twice" in body["detail"]


def test_missing_field_with_variants_is_a_422_not_a_ruling(client):
    problem(client.post("/v1/trick", json={"leader": "N", "variants": ["standard", "classic"]}), 422,
            "invalid-input", "cards")
    problem(client.post("/v1/compare", json={"variants": ["standard"], "kind": "trick", "input": {"leader": "N"}}),
            422, "invalid-input", "input.cards")
    body = problem(client.post("/v1/trick", json={**{k: v for k, v in TRICK.items() if k != "variant"},
                                                  "variants": ["standard"], "number": 99}), 422, "invalid-input")
    assert body["field"] == "number"
    ok = client.post("/v1/trick", json={"leader": "N", "cards": ["AH", "KH", "QH", "BJ"],
                                        "variants": ["standard", "jokers-deuces"]})
    assert ok.status_code == 200 and "error" in ok.get_json()["rulings"]["standard"]


def test_compare_names_a_variant_that_gives_no_ruling(client):
    """A difference between a ruling and a variant's error (a card not in its pack) is phrased, not a 500."""
    body = client.post("/v1/compare", json={"variants": ["standard", "jokers-deuces"], "kind": "legal",
                                            "input": {"hand": ["2H"], "trick": [], "number": 13}})
    assert body.status_code == 200
    (difference,) = body.get_json()["differences"]
    assert difference["sentences"][0].startswith("Under standard (001) you may play 2♥; jokers-deuces (003) gives "
                                                 "no ruling (2H is not in the pack of variant 'jokers-deuces')")
    # with the erring variant first, its error is no rule's doing but the pack's (the swapped-in rules' own
    # variant name in the error text does not count as a change)
    first = client.post("/v1/compare", json={"variants": ["jokers-deuces", "standard"], "kind": "legal",
                                             "input": {"hand": ["2H"], "trick": [], "number": 13}}).get_json()
    assert [rule["rule"] for rule in first["differences"][0]["rules"]] == ["deck.cards"]
    both = client.post("/v1/trick", json={"leader": "N", "cards": ["AH", "KH", "2H", "BJ"],
                                          "variants": ["standard", "jokers-deuces"]}).get_json()
    assert all(sentence.startswith("standard (001) gives no ruling (BJ is not in the pack of variant 'standard'), "
                                   "nor does jokers-deuces (003) (2H is not")
               for sentence in both["differences"][0]["sentences"])


def test_check_endpoint_methods(client):
    resp = client.open("/v1/variants/check", method="OPTIONS")
    assert set(resp.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}
    problem(client.get("/v1/variants/check"), 405, "method-not-allowed")
    assert client.get("/v1/variants/classic").status_code == 200


def test_no_server_paths_in_problems(client):
    body = problem(client.post("/v1/variants/check", data="id: classic\nextends: classic\n", content_type="text/yaml"),
                   422, "variant-problems")
    assert "id of a bundled variant" in body["detail"] and "/" not in json.dumps(body["problems"])
    with pytest.raises(RulesFileError) as info:
        resolve_chain(read_variant_text("id: classic\nextends: classic\n", "<request>"))
    assert "the bundled variant 'classic'" in str(info.value) and "/" not in str(info.value)


@pytest.mark.parametrize("path, bid", [("/v1/bid", "5" * 5000), ("/v1/score", "blind " + "5" * 5000),
                                       ("/v1/game", "5" * 5000)])
def test_huge_bids_are_422(client, path, bid):
    if path == "/v1/bid":
        req = {"variant": "standard", "seat": "N", "bid": bid}
    else:
        req = {**SCORE, "bids": {**SCORE["bids"], "N": bid}}
        if path == "/v1/game":
            req = {"variant": "standard", "hands": [{k: v for k, v in req.items() if k != "variant"}]}
    body = problem(client.post(path, json=req), 422, "invalid-input")
    assert body["field"].endswith("bid") or body["field"].endswith("bids.N")


@pytest.mark.parametrize("text", ["count(c in spades where true)", "highest({AS})", "AS.power",
                                  "99999999 * 99999999 * 99999999 * 99999999"])
def test_bad_params_are_problems_not_500s(client, text):
    req = {**SCORE, "variant": {"extends": "standard", "params": {"my.p": text}}}
    body = problem(client.post("/v1/score", json=req), 422, "variant-problems", "variant.params.my.p")
    assert body["problems"][0]["column"] >= 1


def test_long_variant_ids_are_clear_errors(client):
    problem(client.post("/v1/score", json={**SCORE, "variant": "a" * 300}), 422, "invalid-input", "variant")
    problem(client.post("/v1/score", json={**SCORE, "variant": {"extends": "a" * 300}}), 422, "invalid-input",
            "variant.extends")
    problem(client.post("/v1/variants/check", data=f"id: x\nextends: {'a' * 300}\n", content_type="text/yaml"),
            422, "variant-problems")
    body = problem(client.get("/v1/variants/" + "a" * 300), 404, "unknown-variant")
    assert len(body["detail"]) < 400 and "(300 characters)" in body["detail"]


def test_work_limit_is_a_problem(client):
    app = create_app({"RULE_STEPS": 50})
    request, _, _ = played_hand()
    variant = {"extends": "standard", "rules": {"play.follow": HEAVY_FOLLOW}}
    body = problem(app.test_client().post("/v1/score", json={**request, "variant": variant}), 422, "work-limit",
                   "variant")
    assert "steps" in body["detail"]
    assert client.post("/v1/score", json={**request, "variant": variant}).status_code == 200


def test_inline_yaml_and_field_paths_over_http(client):
    text = "id: our-table\nextends: suicide\nsource: {doc: house}\nrules:\n  nil.made: 75 @ house §Nil\n"
    hand = {k: v for k, v in SCORE.items() if k != "variant"}
    resp = client.post("/v1/compare", json={"variants": ["suicide", {"yaml": text}, {"extends": "suicide"}],
                                            "input": hand})
    assert resp.status_code == 200 and list(resp.get_json()["rulings"]) == ["suicide", "our-table", "inline-2"]
    body = problem(client.post("/v1/score", json={**SCORE, "variant": {"extends": "standard",
                                                                       "rules": {"nil.made": "75 @ hous §Nil"}}}),
                   422, "variant-problems", "variant.rules.nil.made")
    assert (body["problems"][0]["line"], body["problems"][0]["column"]) == (1, 6)


def test_null_is_a_field_left_out_but_other_falsy_values_are_checked(client):
    assert client.post("/v1/trick", json={**TRICK, "number": None}).status_code == 200
    assert client.post("/v1/score", json={**SCORE, "before": None, "events": None}).status_code == 200
    problem(client.post("/v1/bid", json={"variant": "standard", "seat": "N", "bid": 3, "before": False}), 422,
            "invalid-input", "before")
    problem(client.post("/v1/score", json={**SCORE, "events": 0}), 422, "invalid-input", "events")
    problem(client.post("/v1/bid", json={"variant": "standard", "seat": "N", "bid": 3, "variants": None}), 422,
            "invalid-input", "variants")


def test_inline_lists_are_bounded_as_documented(client):
    rules = {"params": {"my.list": list(range(65))}}
    problem(client.post("/v1/score", json={**SCORE, "variant": {"extends": "standard", **rules}}), 422,
            "invalid-input", "variant.params.my.list")


# --------------------------------------------------------------------------- issue 28: every string field attacked
ATTACKS = {
    "line separators": "\u2028extends: /proc/self/status\u2029id: x\u0085rules: {}",
    "a deep expression": "-" * 1999 + "1",
    "amplification": "x" * 4000,
}
INLINE = {"extends": "standard", "id": "our-table", "title": "Our table", "notes": "our notes",
          "rules": {"nil.made": {"value": "75", "cite": "house §Nil", "note": "a note"}, "game.target": "300"}}


def _string_paths(value, path=()) -> list[tuple]:
    """The path of every string in a JSON document (dictionary keys and list indices)."""
    if isinstance(value, str):
        return [path]
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    return [found for key, item in items for found in _string_paths(item, (*path, key))]


def _replaced(value, path: tuple, new):
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replaced(value[path[0]], path[1:], new)
    return copy


def _attacked_requests() -> list[tuple[str, dict, tuple]]:
    from service.examples import EXAMPLES, HOUSE_YAML
    bodies = [(ex.path, ex.body) for ex in EXAMPLES if isinstance(ex.body, dict)]
    bodies += [("/v1/variants/check", {"yaml": HOUSE_YAML})]
    bodies += [(path, {**body, "variant": INLINE}) for path, body in bodies if "variant" in body]
    bodies += [("/v1/score", {**dict(bodies)["/v1/score"], "variant": {"yaml": HOUSE_YAML}})]
    return [(path, body, where) for path, body in bodies for where in _string_paths(body)]


ATTACKED = _attacked_requests()


def test_every_string_field_of_every_endpoint_is_attacked():
    """(The list below covers each endpoint that takes a body, its inline house rule's fields, its YAML.)"""
    paths = {path for path, _, _ in ATTACKED}
    assert paths == {"/v1/variants/check", "/v1/trick", "/v1/legal", "/v1/bid", "/v1/score", "/v1/game",
                     "/v1/compare", "/v1/solve", "/v1/claim", "/v1/nil", "/v1/diff", "/v1/audit", "/v1/review"}
    assert len(ATTACKED) > 100


@pytest.mark.parametrize("attack", ATTACKS)
def test_attacks_in_every_string_field(client, attack):
    """A line separator never adds a key (nor names a file), a deep expression is a problem, and no answer
    grows with the attacker's text beyond one copy of it: never a 500, always JSON."""
    for path, body, where in ATTACKED:
        value = ATTACKS[attack]
        original = body
        for key in where:
            original = original[key]
        sent = _replaced(body, where, original + value if attack == "line separators" else value)
        resp = client.post(path, json=sent)
        label = f"{path} {'.'.join(map(str, where))}"
        assert resp.status_code < 500 and resp.mimetype in ("application/json", "application/problem+json"), label
        text = resp.get_data(as_text=True)
        assert "VmRSS" not in text and "State:" not in text, label     # nothing of the file it names
        assert text.count(ATTACKS["amplification"]) <= 1 and len(text) < 200_000, (label, len(text))


def test_slow_bodies_to_every_endpoint_cost_no_thread(server):
    """More slow clients than the server has threads, sending a request to every endpoint a byte at a time
    (half still in their headers): /healthz and /v1/score answer as they do alone."""
    host, port = server.removeprefix("http://").split(":")
    paths = sorted({path for path, _, _ in ATTACKED})
    slow = []
    for path in paths * 2:
        body = json.dumps(next(b for p, b, _ in ATTACKED if p == path)).encode()
        head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        sock = socket.create_connection((host, int(port)), timeout=5)
        sock.sendall(head.encode() + (b"\r\n" + body[:5] if len(slow) % 2 else b""))    # a header or body begun
        slow.append(sock)
    try:
        time.sleep(1.0)
        for sock in slow:
            sock.send(b" " if slow.index(sock) % 2 else b"X")      # one more byte each, as a slow client sends
        start = time.monotonic()
        assert call(server, "GET", "/healthz")[:2] == (200, "application/json")
        assert call(server, "POST", "/v1/score", SCORE)[0] == 200
        assert time.monotonic() - start < 5
    finally:
        for sock in slow:
            sock.close()


def _exchange(server: str, data: bytes) -> bytes:
    """Everything the server sends back, until it closes the connection, to ``data`` sent on a new one."""
    host, port = server.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(data)
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    return reply


def _raw(server: str, data: bytes) -> tuple[int, str, dict]:
    head, _, body = _exchange(server, data).partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers.get("content-type", ""), json.loads(body)


@pytest.mark.parametrize("data, status, slug", [
    (b"GARBAGE\r\n\r\n", 400, "bad-request"),
    (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri-too-long"),
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(150)) + b"\r\n", 431,
     "header-fields-too-large"),
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n", 400, "bad-request"),
])
def test_the_servers_own_errors_are_problems(server, data, status, slug):
    got, ctype, body = _raw(server, data)
    assert (got, ctype) == (status, "application/problem+json")
    assert body["type"] == f"/api#problem-{slug}" and body["status"] == status and body["detail"]


def test_pipelined_chunked_and_continued_requests_still_work(server):
    two = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    assert _exchange(server, two).count(b"HTTP/1.1 200 OK") == 2
    host, port = server.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    body = json.dumps(SCORE).encode()
    conn.request("POST", "/v1/score", body=iter([body[:10], body[10:]]), encode_chunked=True,
                 headers={"Content-Type": "application/json", "Expect": "100-continue"})
    assert conn.getresponse().status == 200
    conn.close()
