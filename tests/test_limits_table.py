"""docs/api.md's Limits table, row by row: each stated value is the one the code enforces, and a request just past
it is refused (issue 28).  A row without a check here, or a check without its row, fails the test."""
from __future__ import annotations

import gc
import inspect
import json
import random
from pathlib import Path

import pytest
from gunicorn.config import Config

from rulespec.app import answers as A
from rulespec.app import disputes as D
from rulespec.app import claims, repeats, review
from rulespec.core.schema import SLOTS
from rulespec.errors import BudgetExceeded, CompileError, GameError, RulesFileError
from rulespec.game import deal_for, parse_bid, play_hand
from rulespec.game.policies import RandomPolicy
from rulespec.game.scoring import LINE_STEPS
from rulespec.lang import compiler, limits as L
from rulespec.model.ruleset import Ruleset, compile_spec, load_ruleset
from rulespec.model.variants import MAX_FILE_BYTES, read_variant_text
from rulespec.records import REQUEST_LIMITS, Limits
from service import app as service_app, bodies, catalog, diffrun, serving, worker
from service.app import create_app
from test_api import problem

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"
HAND = {"bids": {"N": 4, "E": 3, "S": "nil", "W": 4}, "tricks": {"N": 5, "E": 3, "S": 1, "W": 4}}
SCORE = {"variant": "standard", **HAND}
HEAD = "id: t\nextends: standard\nsource: {doc: house}\n"


def rows() -> dict[str, str]:
    """The Limits table: limit -> its value, as docs/api.md states them."""
    text = DOC.read_text(encoding="utf-8").split("## Limits", 1)[1].split("\n## ", 1)[0]
    out = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 3 and cells[0] not in ("limit", "---"):
            out[cells[0]] = cells[1]
    return out


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def _rules_problem(text: str) -> str:
    with pytest.raises(RulesFileError) as info:
        compile_spec(read_variant_text(HEAD + text, "t.yaml"))
    return info.value.problems[0].message


def check_body(value, client):
    assert "256 KiB" in value and service_app.DEFAULTS["MAX_CONTENT_LENGTH"] == 256 * 1024
    problem(client.post("/v1/score", data=b" " * (256 * 1024 + 1), content_type="application/json"), 413,
            "payload-too-large")


def check_arrival(value, client):
    assert "10 s" in value and worker.READ_SECONDS == 10
    assert worker.request_state(b"POST /v1/score HTTP/1.1\r\nContent-Length: 10\r\n\r\nab") == worker.MORE
    answer = worker.problem(408, "request-timeout", "late")
    assert answer.startswith(b"HTTP/1.1 408 ") and b"application/problem+json" in answer


def check_request_line(value, client):
    config = Config()
    for name, setting in vars(serving).items():
        if name in config.settings:
            config.set(name, setting)
    limits = (config.limit_request_line, config.limit_request_fields, config.limit_request_field_size)
    assert limits == (4094, 100, 8190)
    assert "4,094" in value and "100 fields of 8,190" in value


def check_nesting(value, client):
    assert value == f"{bodies.MAX_DEPTH} levels"
    problem(client.post("/v1/score", data="[" * 33 + "]" * 33, content_type="application/json"), 400, "invalid-json")


def check_fields(value, client):
    problem(client.post("/v1/trick", json={"variant": "standard", "leader": "N", "cards": ["AH", "2S", "KH", "3H"],
                                           "nuber": 2}), 422, "invalid-input", "nuber")


def check_variants(value, client):
    assert value == str(D.MAX_VARIANTS) == "8"
    problem(client.post("/v1/compare", json={"variants": ["standard"] * 9, "input": HAND}), 422, "invalid-input",
            "variants")


def check_inline_rules(value, client):
    assert value.startswith(f"{A.MAX_INLINE_RULES} in")
    rules = {f"my.p{i}": i for i in range(A.MAX_INLINE_RULES + 1)}
    problem(client.post("/v1/score", json={**SCORE, "variant": {"extends": "standard", "params": rules}}), 422,
            "invalid-input", "variant.params")


def check_rule_text(value, client):
    assert value == f"{compiler.MAX_RULE_CHARS} characters"
    with pytest.raises(CompileError, match="limit is 2000"):
        compiler.parse("1" + " " * compiler.MAX_RULE_CHARS)


def check_depth(value, client):
    assert value.startswith(f"{compiler.MAX_DEPTH} levels")
    compiler.parse("-" * (compiler.MAX_DEPTH - 1) + "1")         # 40 levels: 39 signs and the number
    with pytest.raises(CompileError, match="nests 41 levels"):
        compiler.parse("-" * compiler.MAX_DEPTH + "1")
    with pytest.raises(CompileError, match="nests 41 levels"):
        compiler.parse("+".join(["1"] * 41))                     # "a sum of 41 numbers is too deep"


def check_yaml(value, client):
    assert "256 KiB" in value and MAX_FILE_BYTES == 256 * 1024 and "every rule slot plus 64" in value
    assert catalog.MAX_CHECK_RULES == len(SLOTS) + 64
    with pytest.raises(catalog.ApiProblem, match="larger than 256 KiB"):      # (over HTTP the body's 413 comes first)
        catalog.check_house_rule(HEAD + "notes: " + "x" * MAX_FILE_BYTES)
    rules = "".join(f"  my.p{i}: {i} @ house §P\n" for i in range(catalog.MAX_CHECK_RULES + 1))
    problem(client.post("/v1/variants/check", data=HEAD + "params:\n" + rules, content_type="text/yaml"), 422,
            "variant-problems")


def check_record(value, client):
    assert "192 KiB and 100 hands" in value and REQUEST_LIMITS == Limits(192 * 1024, 100)
    problem(client.post("/v1/audit", json={"record": "x" * (192 * 1024 + 1)}), 422, "invalid-input", "record")
    pbn = (Path(__file__).parents[1] / "examples" / "records" / "renege.pbn").read_text(encoding="utf-8")
    answer = client.post("/v1/audit", json={"record": "\n".join([pbn] * 101)}).get_json()
    assert len(answer["hands"]) == 100
    assert [p["record"] for p in answer["record"]["problems"] if "more than 100 hands" in p["message"]] == [101]


def check_nil_search(value, client, monkeypatch):
    """Every nil search the review asks is held to ``NIL_NODES``, whatever the request's own budget."""
    assert value.startswith("1,000,000 nodes a position") and review.NIL_NODES == 1_000_000
    asked = []

    def fake_nil(rs, req):
        asked.append(req["budget"]["nodes"])
        return {"nodes": 1, "forced_tricks": 0}
    monkeypatch.setattr(review, "answer_nil", fake_nil)
    rs = load_ruleset("standard")
    hand = play_hand(rs, deal_for("nil", 74, rs), 0, RandomPolicy(random.Random(74)))
    record = json.dumps({k: v for k, v in hand.items() if not k.startswith("_")})
    client.post("/v1/review", json={"record": record, "variant": "standard", "budget": {"nodes": 5_000_000}})
    assert asked and max(asked) == review.NIL_NODES


def check_game_hands(value, client):
    assert value == "500"
    problem(client.post("/v1/game", json={"variant": "standard", "hands": [HAND] * 501}), 422, "invalid-input", "hands")


def check_scored_hands(value, client):
    assert value.startswith(f"{D.MAX_SCORED_HANDS:,}:") and f"at most {D.MAX_ABLATIONS} per variant" in value
    assert f"at most {D.MAX_PAIRS} pairs" in value
    def rules(k: int) -> dict:        # 19 rules that differ from the first variant's (k = 1, 2)
        numbers = {"nil.made": 100 + k, "nil.failed": -100 - k, "blind_nil.made": 200 + k, "blind_nil.failed": -200 - k,
                   "scoring.overtrick_points": k, "bags.penalty": -100 - k, "bonus.last_trick": k, "bags.limit": 10 + k,
                   "scoring.made": f"{10 + k} * team.contract", "scoring.set": f"-{10 + k} * team.contract",
                   "game.target": 500 + k, "bid.regular_max": 13 - k}
        others = {"nil.tricks_count": "false", "bags.carry": "false", "blind_nil.allowed": "true",
                  "renege.victim_bags": "false", "deal.next_dealer": "right_of(dealer)",
                  "deal.first_bidder": "right_of(dealer)", "play.first_leader": "right_of(dealer)"}
        return {**numbers, **(others if k else {})}
    variants = [{"extends": "standard", "rules": rules(k)} for k in range(3)]    # 500 x (3 + 2 x (2 x 19 + 32))
    with pytest.raises(BudgetExceeded) as info:
        D.compare({"kind": "game", "variants": variants, "input": {"hands": [HAND] * 500}})
    worst = int(str(info.value).split("could score ", 1)[1].split(" hands")[0].replace(",", ""))
    assert D.MAX_SCORED_HANDS < worst <= 500 * (3 + 2 * (2 * 20 + D.MAX_PAIRS))
    D.compare({"kind": "game", "variants": variants[:2], "input": {"hands": [HAND] * 5}})     # 5 x (2 + 72): fine


def check_search(value, client):
    assert f"{claims.API_NODES:,} nodes and {claims.API_SECONDS:g} s" in value
    with claims.allowance():
        budget = claims._request_budget({"budget": {"nodes": 10 ** 9, "seconds": 1000}})
    assert budget.nodes == claims.API_NODES and budget.seconds <= claims.API_SECONDS


def check_diff(value, client):
    limit, deals = service_app.DEFAULTS["DIFF_TIME_LIMIT"], service_app.DEFAULTS["DIFF_MAX_DEALS"]
    assert f"≤ {deals} deals" in value and f"≤ {limit:g} s" in value
    assert f"within {limit * (1 - diffrun.REPORT_SHARE):g} s" in value
    problem(client.post("/v1/diff", json={"variants": ["standard", "classic"], "deals": deals + 1}), 422,
            "invalid-input", "deals")
    problem(client.post("/v1/diff", json={"variants": ["standard", "classic"], "time_limit": limit + 1}), 422,
            "invalid-input", "time_limit")


def check_rule_work(value, client):
    assert f"nest at most {L.MAX_COMPREHENSION_DEPTH} deep" in value and f"{L.MAX_RULE_STEPS:,} steps" in value
    nested = "true"
    for i in range(3):
        nested = f"count(v{i} in all_cards where {nested}) > 0"
    assert "nested 3 deep" in _rules_problem(f"rules:\n  nil.allowed: {nested} @ house §N\n")


def check_numbers(value, client):
    assert f"{L.MAX_LITERAL_DIGITS} digits" in value and len(str(L.MAX_RULE_INT)) - 1 == 30
    assert "at most 9 digits" in _rules_problem("rules:\n  nil.made: 1234567890 @ house §N\n")


def check_evaluation(value, client):
    steps, seconds = service_app.DEFAULTS["RULE_STEPS"], service_app.DEFAULTS["RULE_SECONDS"]
    assert f"{steps:,} steps and {seconds:g} s" in value and f"{claims.API_SECONDS:g} s for the double-dummy" in value
    small = create_app({"RULE_STEPS": 30}).test_client()
    problem(small.post("/v1/game", json={"variant": "standard", "hands": [HAND] * 3}), 422, "work-limit", "variant")
    assert f"each score line written {LINE_STEPS}" in value
    lines = create_app({"RULE_STEPS": 200_000}).test_client()        # 10,000 bags.penalty lines
    problem(lines.post("/v1/score", json={**SCORE, "variant": {"extends": "standard", "rules": {
        "scoring.bags": "100000"}}}), 422, "work-limit", "variant")


def check_scores(value, client):
    assert "10^15" in value and L.MAX_CONTEXT_INT == 10 ** 15
    variant = {"extends": "standard", "rules": {"scoring.made": "999999999 * 999999999 * 999"}}
    problem(client.post("/v1/score", json={**SCORE, "variant": variant}), 422, "rule-refusal", "variant")


def check_bids(value, client):
    assert "99 tricks" in value
    with pytest.raises(GameError, match="at most 99"):
        parse_bid(100)


def check_variant_yaml(value, client):
    assert f"`id` ≤ {L.MAX_ID_CHARS}" in value and f"≤ {L.MAX_NOTE_CHARS}" in value
    assert f"`choices` ≤ {L.MAX_CHOICES}" in value
    assert "aliases" in _rules_problem("a: &a 1\nnotes: *a\n")
    assert "given twice" in _rules_problem("title: a\ntitle: b\n")
    with pytest.raises(RulesFileError, match="at most 64"):
        compile_spec(read_variant_text("id: " + "a" * 65 + "\nextends: standard\n", "t.yaml"))


def check_answer(value, client):
    assert "8 MiB" in value and service_app.MAX_ANSWER_BYTES == 8 * 1024 * 1024
    assert f"longer than {repeats.LONG_TEXT_CHARS} characters" in value and f"first {repeats.SHOWN_CHARS}" in value
    small = create_app({"MAX_ANSWER_BYTES": 1000}).test_client()
    problem(small.post("/v1/score", json=SCORE), 422, "answer-too-large")
    assert len(json.dumps(client.post("/v1/score", json=SCORE).get_json())) < service_app.MAX_ANSWER_BYTES


def check_text_cache(value, client):
    assert "64 MiB" in value and L.MAX_TEXT_CACHE_BYTES == 64 * 1024 * 1024
    assert compiler._CACHE.max_bytes == L.MAX_TEXT_CACHE_BYTES
    assert "not kept after its request" in value
    def sent() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, Ruleset) and o.sent)
    before = sent()
    variant = {"extends": "standard", "rules": {"nil.made": "75 @ house §Nil"}}
    for _ in range(3):
        assert client.post("/v1/score", json={**SCORE, "variant": variant}).status_code == 200
    assert sent() <= before


CHECKS = {
    "request body": check_body, "request arrival": check_arrival, "request line, headers": check_request_line,
    "JSON nesting": check_nesting, "fields": check_fields, "variants per request": check_variants,
    "inline rules": check_inline_rules, "rule text": check_rule_text, "expression depth": check_depth,
    "house-rule YAML": check_yaml, "hands per game request": check_game_hands,
    "hands a comparison may score": check_scored_hands,
    "double-dummy search per request (`/v1/solve`, `/v1/claim`, `/v1/nil`, and `/v1/compare` of those kinds)":
        check_search,
    "`/v1/diff`": check_diff, "a rule's work": check_rule_work, "numbers in rules": check_numbers,
    "rule evaluation per request": check_evaluation, "scores and bags": check_scores, "bids": check_bids,
    "a record sent to `/v1/audit`, `/v1/review`": check_record, "`/v1/review`: one nil search": check_nil_search,
    "variant YAML": check_variant_yaml, "answer": check_answer, "rule texts kept compiled per worker": check_text_cache,
}


def test_every_row_has_a_check_and_every_check_a_row():
    assert set(rows()) == set(CHECKS)


@pytest.mark.parametrize("limit", CHECKS)
def test_the_stated_bound_holds(limit, client, monkeypatch):
    check = CHECKS[limit]
    extra = {"monkeypatch": monkeypatch} if "monkeypatch" in inspect.signature(check).parameters else {}
    check(rows()[limit], client, **extra)
