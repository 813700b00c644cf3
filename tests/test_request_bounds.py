"""Issue 28: every request's work, depth and answer bounded by design (items 2, 3, 5, 6 and 7).

Bounds are asserted by design (the allowance trips, the work is refused before it starts, the cache holds
what it may), not by the wall clock."""
from __future__ import annotations

import gc
import json
import random
import tracemalloc

import pytest

from rulespec.model import ablation

from rulespec.app import answers as A
from rulespec.app import disputes as D
from rulespec.app.disputes import answer, compare
from rulespec.app.claims import allowance
from rulespec.app.repeats import LONG_TEXT_CHARS
from rulespec.game.scoring import LINE_STEPS
from rulespec.errors import BudgetExceeded, CompileError, InputError, SearchBudgetError
from rulespec.lang import compiler
from rulespec.lang import limits as L
from rulespec.model.ruleset import compile_spec, load_ruleset
from rulespec.model.variants import read_variant_text
from service.app import create_app
from solve_helpers import hands_body, random_position
from test_api import problem

HAND = {"bids": {"N": 4, "E": 3, "S": "nil", "W": 4}, "tricks": {"N": 5, "E": 3, "S": 1, "W": 4}}
SCORE = {"variant": "standard", **HAND}
ENDLESS = {"game.target_reached": "false", "game.mercy": "false"}
DEEP = {"a sum of 500 ones": ("nil.made", "+".join(["1"] * 500), "500 levels deep (499 of them '+')"),
        "1,999 minus signs": ("nil.made", "-" * 1999 + "1", "2000 levels deep (1999 of them minus signs)"),
        "490 nested not": ("nil.allowed", "not " * 490 + "true", "491 levels deep (490 of them 'not')")}


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


# --------------------------------------------------------------------------- item 5: deep expressions
@pytest.mark.parametrize("name", DEEP)
def test_deep_expressions_are_refused_before_any_recursive_walk(name):
    rule, text, words = DEEP[name]
    assert len(text) <= compiler.MAX_RULE_CHARS
    with pytest.raises(CompileError) as info:
        compiler.parse(text)
    assert words in info.value.message and f"at most {compiler.MAX_DEPTH}" in info.value.message
    assert info.value.hint


@pytest.mark.parametrize("name", DEEP)
def test_deep_expressions_inline_are_located_422s(client, name):
    rule, text, words = DEEP[name]
    body = problem(client.post("/v1/score", json={**SCORE, "variant": {"extends": "standard",
                                                                        "rules": {rule: text}}}),
                   422, "variant-problems", f"variant.rules.{rule}")
    (found,) = body["problems"]
    assert words in found["message"] and found["rule"] == rule and found["line"] == 1 and found["column"] >= 1


@pytest.mark.parametrize("name", DEEP)
def test_deep_expressions_in_yaml_say_what_is_too_deep(client, name):
    rule, text, words = DEEP[name]
    yaml_text = f"id: deep\nextends: standard\nsource: {{doc: house}}\nrules:\n  {rule}: '{text} @ house §X'\n"
    body = problem(client.post("/v1/score", json={**SCORE, "variant": {"yaml": yaml_text}}), 422,
                   "variant-problems", "variant.yaml")
    assert words in body["detail"] and "YAML nests" not in body["detail"]
    assert body["problems"][0]["line"] == 5
    body = problem(client.post("/v1/variants/check", data=yaml_text, content_type="text/yaml"), 422,
                   "variant-problems", "yaml")
    assert words in body["problems"][0]["message"] and body["problems"][0]["rule"] == rule


def test_the_deepest_bundled_rule_is_within_the_depth_limit():
    for vid in ("standard", "tournament", "jokers-deuces", "pirates", "classic"):
        assert load_ruleset(vid).rules      # compiles: no bundled rule is refused as too deep


# --------------------------------------------------------------------------- item 6: caches bounded by bytes
def _unique_rule(i: int) -> str:
    """A distinct rule text of about 1,900 characters (a tree of about 1,000 nodes and tokens), wide not deep."""
    return "max(" + ", ".join(f"team.contract * {i % 97 + 1} + team.tricks * {k}" for k in range(48)) + ")"


def test_compiled_rule_texts_are_bounded_by_bytes(monkeypatch):
    """Many unique rule texts keep at most the cache's bytes (its estimate checked against tracemalloc), not
    a fixed number of entries (4,096 of about 0.5 MB each, before)."""
    bound = 2 * 1024 * 1024
    monkeypatch.setattr(compiler, "_CACHE", compiler.TextCache(bound), raising=False)
    base = load_ruleset("standard")
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(24):
            spec = read_variant_text(f"id: t{i}\nextends: standard\nsource: {{doc: house}}\nrules:\n"
                                     f"  scoring.made: '{_unique_rule(i)} @ house §S'\n", "<test>")
            assert compile_spec(spec).rules["scoring.made"].text.startswith("max(team.contract")
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    unique = [text for text in compiler._CACHE.entries if text.startswith("max(team.contract")]
    assert compiler._CACHE.bytes <= bound and 0 < len(unique) < 24
    assert kept <= 1.5 * bound, f"{kept / 2 ** 20:.1f} MiB kept for a bound of {bound / 2 ** 20:.0f} MiB"
    assert base.rules["scoring.made"].fn is not None       # rulesets compiled before still work


def test_a_requests_variant_is_not_kept_after_the_request(client):
    """A house rule sent with a request is compiled for it alone: once answered, nothing derived from it (its
    steps, its search functions, ...) keeps it alive.  (The steps' ``fail`` names its ruleset, and a weakly
    keyed cache whose value names its key keeps both: every inline variant stayed, about 70 KB a request.)"""
    from rulespec.game.steps import steps_of
    from rulespec.model.ruleset import Ruleset

    def alive() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, Ruleset) and o.sent)
    variant = {"extends": "standard", "rules": {"nil.made": "75 @ house §Nil", "bonus.last_trick": "1"}}
    played = A.inline_variant(variant, "variant")
    assert steps_of(played).score_team is not None and played.sent
    del played
    before = alive()
    for body in ({**SCORE, "variant": variant}, {**SCORE, "variant": {"yaml": "id: once\nextends: standard\n"
                                                                       "source: {doc: house}\n"}}):
        for _ in range(5):
            assert client.post("/v1/score", json=body).status_code == 200
    assert client.post("/v1/solve", json={"variant": variant, "leader": "N", "broken": True, "hands": {
        "N": ["AS"], "E": ["2H"], "S": ["3H"], "W": ["4H"]}}).status_code == 200
    assert alive() <= before


def test_request_yaml_is_not_kept_after_the_request(client):
    from rulespec.model.variants import _read_variant_text
    size = _read_variant_text.cache_info().currsize
    text = "id: once\nextends: standard\nsource: {doc: house}\nrules:\n  nil.made: 75 @ house §Nil\n"
    assert client.post("/v1/score", json={**SCORE, "variant": {"yaml": text}}).status_code == 200
    assert client.post("/v1/variants/check", data=text, content_type="text/yaml").status_code == 200
    assert _read_variant_text.cache_info().currsize == size


# --------------------------------------------------------------------------- item 2: one allowance per request
def test_plain_arithmetic_is_charged_to_the_allowance():
    """A rule of plain arithmetic (no comprehension) draws on the allowance each time it is evaluated."""
    rs = load_ruleset("standard")
    with L.budget(steps=10 ** 9) as left:
        answer("score", SCORE)
    assert 10 ** 9 - left.steps > 20      # before: 0 (only comprehensions and highest/lowest were charged)
    with L.budget(steps=5):
        with pytest.raises(BudgetExceeded, match="steps"):
            answer("game", {"variant": "standard", "hands": [HAND] * 3})
    assert rs.fn["scoring.made"] is not None


def test_each_score_line_is_charged_to_the_allowance(client):
    """A score line is work the request asks for, whatever rule wrote it: a house rule's ``scoring.bags`` of
    100,000 writes a ``bags.penalty`` line for each of 10,000 penalties (10,000,000 took 12 s and a 1 GB
    answer before it was refused as too large; 999,999,999 ran the worker out of memory), and each line now
    draws on the allowance, so the request stops at its steps or its clock as it goes."""
    variant = {"extends": "standard", "rules": {"scoring.bags": "100000"}}
    with L.budget(steps=200_000):
        with pytest.raises(BudgetExceeded, match="steps"):
            answer("score", {**SCORE, "variant": variant})
    small = create_app({"RULE_STEPS": 200_000}).test_client()
    problem(small.post("/v1/score", json={**SCORE, "variant": variant}), 422, "work-limit", "variant")
    endless = {"extends": "standard", "rules": ENDLESS}      # the largest game a request may ask for still fits
    assert client.post("/v1/game", json={"variant": endless, "hands": [HAND] * 500}).status_code == 200
    with L.budget(steps=10 ** 9) as left:
        answer("score", SCORE)
    lines = sum(len(team["lines"]) for team in answer("score", SCORE)["teams"].values())
    assert 10 ** 9 - left.steps < 2_000 and lines * LINE_STEPS < 400     # an ordinary hand's lines cost little


def test_parsing_a_new_rule_text_is_charged_too():
    """Parsing many long texts takes seconds before any rule is evaluated: each new text charges its length
    (and the clock is read), a text parsed before nothing."""
    text = " + ".join(["team.contract"] * 30) + " + 17"
    with L.budget(steps=len(text) - 1):
        with pytest.raises(BudgetExceeded, match="steps"):
            compiler.parse(text)
    compiler.parse(text)
    with L.budget(steps=1) as left:
        compiler.parse(text)
    assert left.steps == 1


def test_one_allowance_for_every_variant_of_a_request():
    one = {"variant": {"extends": "standard", "rules": ENDLESS}, "hands": [HAND] * 100}
    with L.budget(steps=10 ** 9) as left:
        answer("game", one)
    used = 10 ** 9 - left.steps
    with L.budget(steps=int(used * 1.5)):
        answer("game", one)                         # one variant fits
        with pytest.raises(BudgetExceeded):         # two do not: the allowance is the request's, not per variant
            compare({"kind": "game", "variants": [one["variant"], one["variant"]], "input": {"hands": one["hands"]}})


def test_the_clock_is_read_as_the_steps_are_spent():
    """The deadline holds by design: read at the first charge and every CLOCK_EVERY steps after."""
    with L.budget(seconds=0.0):
        with pytest.raises(BudgetExceeded, match="too long"):
            answer("score", SCORE)
    allowance_ = L.Allowance(10 ** 6, float("inf"), 10 ** 6, 1.0)
    allowance_.check()
    assert allowance_.clock_at == 10 ** 6 - L.CLOCK_EVERY


def test_a_comparison_that_could_score_too_many_hands_is_refused_before_it_starts(client, monkeypatch):
    changed = ("nil.made", "nil.failed", "blind_nil.made", "blind_nil.failed", "scoring.overtrick_points",
               "bags.penalty", "bonus.last_trick", "bags.limit")      # 8 rules differ from the first variant's
    variants = [{"extends": "standard",
                 "rules": {**ENDLESS, **{rule: str(k * 3 + i) for i, rule in enumerate(changed)}}} for k in range(8)]
    scored = []
    monkeypatch.setitem(A.KINDS, "score", lambda rs, req: scored.append(1) or A.answer_score(rs, req))
    with pytest.raises(BudgetExceeded) as info:
        compare({"kind": "game", "variants": variants, "input": {"hands": [HAND] * 500}})
    # each of 7 variants: 8 differing rules swapped both ways, then min(32, 28) pairs: 44 swaps of 500 hands
    assert info.value.field == "input.hands" and "could score 158,000 hands" in str(info.value)
    assert not scored                          # refused before any hand is scored
    body = problem(client.post("/v1/game", json={"variants": variants, "hands": [HAND] * 500}), 422, "work-limit",
                   "hands")
    assert f"at most {D.MAX_SCORED_HANDS:,}" in body["detail"]
    assert compare({"kind": "game", "variants": variants[:2], "input": {"hands": [HAND] * 20}})["differences"]


def test_a_spent_allowance_in_a_rule_swap_fails_the_request_not_the_swap(monkeypatch):
    """Before, the swap's error was taken for a rule that does not fit (``except RulespecError: continue``) and
    the comparison answered without the rules that cause its difference."""
    swap = ablation.with_rules_from

    def spend_then_swap(base, other, rules):
        L.current().steps = -1          # the allowance is spent by the time this swap is tried
        return swap(base, other, rules)
    monkeypatch.setattr(ablation, "with_rules_from", spend_then_swap)
    with L.budget(steps=10 ** 9):
        with pytest.raises(BudgetExceeded):
            compare({"variants": ["standard", "classic"], "input": {**HAND}})


def test_a_spent_allowance_while_compiling_is_no_problem_of_the_rules():
    text = ("id: p\nextends: standard\nsource: {doc: house}\nparams:\n  my.p: 5 @ house §P\nrules:\n"
            "  nil.made: my.p * 20 @ house §N\n")
    with L.budget(steps=0):
        with pytest.raises(BudgetExceeded):
            compile_spec(read_variant_text(text, "<test>"))


# --------------------------------------------------------------------------- item 7: search budget, unknown fields
def test_a_search_that_runs_out_of_time_reports_the_search_budget(monkeypatch):
    """The request's clock running out inside a search is its search budget spent (field: budget), not a
    rules problem (field: variant): here a rule with a comprehension charges the allowance inside the search,
    and the request's deadline passes as the search starts."""
    from rulespec.app import claims
    rs = load_ruleset("standard")
    body = hands_body("standard", random_position(rs, random.Random(3), 6))
    body["variant"] = {"extends": "standard", "rules": {
        "play.follow": "if count(c in hand where c.suit == trick.led_suit) > 0 then hand & trick.led_suit else hand"}}
    found = claims.searcher

    def late(*args, **kwargs):
        left = L.current()
        left.deadline, left.clock_at = 0.0, left.steps      # passed, and read at the next charge
        return found(*args, **kwargs)
    monkeypatch.setattr(claims, "searcher", late)
    with L.budget(), allowance():
        with pytest.raises(SearchBudgetError) as info:
            answer("solve", body)
    assert info.value.field == "budget" and "search budget" in info.value.message


def test_a_search_request_has_one_clock_the_searchs(client):
    """Over HTTP a double-dummy request's rules and search share one deadline, the search's: a small
    ``RULE_SECONDS`` does not cut a search short as a rules problem."""
    app = create_app({"RULE_SECONDS": 0.0})
    rs = load_ruleset("standard")
    body = hands_body("standard", random_position(rs, random.Random(5), 4))
    resp = app.test_client().post("/v1/solve", json=body)
    assert resp.status_code == 200, resp.get_json()


REQUESTS = {"trick": {"variant": "standard", "leader": "N", "cards": ["AH", "2S", "KH", "3H"]},
            "legal": {"variant": "standard", "hand": ["AH", "2S", "KH", "3C"], "trick": ["5H"], "number": 10},
            "bid": {"variant": "standard", "seat": "N", "bid": 3},
            "score": SCORE, "game": {"variant": "standard", "hands": [HAND]},
            "solve": {"variant": "standard", "leader": "N", "broken": True,
                      "hands": {"N": ["AS"], "E": ["2H"], "S": ["3H"], "W": ["4H"]}}}
REQUESTS["claim"] = {**REQUESTS["solve"], "claim": {"side": "NS", "tricks": 1}}
REQUESTS["nil"] = {**REQUESTS["solve"], "nil": "E"}


@pytest.mark.parametrize("kind", REQUESTS)
def test_an_unknown_field_is_a_422_on_every_endpoint(client, kind):
    assert client.post(f"/v1/{kind}", json=REQUESTS[kind]).status_code == 200
    body = problem(client.post(f"/v1/{kind}", json={**REQUESTS[kind], "tricsk": 1}), 422, "invalid-input", "tricsk")
    assert "unknown field 'tricsk'" in body["detail"]
    side = {k: v for k, v in REQUESTS[kind].items() if k != "variant"}
    problem(client.post("/v1/compare", json={"variants": ["standard"], "kind": kind, "input": {**side, "x": 1}}),
            422, "invalid-input", "input.x")
    problem(client.post(f"/v1/{kind}", json={**side, "variants": ["standard"], "x": 1}), 422, "invalid-input", "x")


@pytest.mark.parametrize("path, body, field", [
    ("/v1/compare", {"variants": ["standard"], "input": HAND, "kinds": "score"}, "kinds"),
    ("/v1/compare", {"variants": ["standard"], "input": {**HAND, "variant": "classic"}}, "input.variant"),
    ("/v1/game", {"variant": "standard", "hands": [{**HAND, "trick": 1}]}, "hands[0].trick"),
    ("/v1/game", {"variant": "standard", "hands": [{**HAND, "before": {"NS": {"score": 5}}}]}, "hands[0].before"),
    ("/v1/diff", {"variants": ["standard", "classic"], "deal": 3}, "deal"),
    ("/v1/variants/check", {"yaml": "id: x\nextends: standard\n", "id": "x"}, "id"),
])
def test_unknown_fields_elsewhere_are_422s(client, path, body, field):
    problem(client.post(path, json=body), 422, "invalid-input", field)


# --------------------------------------------------------------------------- item 3: answers bounded in size
def test_long_texts_are_given_once_per_answer(client):
    cite = "house §" + "x" * (L.MAX_NOTE_CHARS - 7)
    variants = [{"extends": "standard", "rules": {**ENDLESS, "nil.made": {"value": 100 + k, "cite": cite},
                                                  "scoring.made": {"value": "10 * team.contract", "cite": cite}}}
                for k in range(8)]
    req = {"kind": "game", "variants": variants, "input": {"hands": [HAND] * 30}}
    resp = client.post("/v1/compare", json=req)
    assert resp.status_code == 200
    text = resp.get_data(as_text=True)
    assert text.count(cite) == 1 and len(text) < 1_500_000      # 8 x 30 hands x 2 lines of 4,000 characters once
    ruling = resp.get_json()["rulings"]["inline-1"]["sheet"][0]["lines"]
    line = next(item for item in ruling if item["rule"] == "scoring.made")
    assert line["cite"].startswith(cite[:60] + "… (the 4,000-character text in full at rulings.inline-0.")
    single = client.post("/v1/game", json={"variant": variants[0], "hands": [HAND] * 30}).get_data(as_text=True)
    assert single.count(cite) == 1
    short = client.post("/v1/game", json={"variant": "standard", "hands": [HAND] * 3}).get_json()
    assert all(len(v) <= LONG_TEXT_CHARS for v in A.values_of(short, "cite"))


def test_an_answer_too_large_is_a_clear_422():
    app = create_app({"MAX_ANSWER_BYTES": 20_000})
    client_ = app.test_client()
    assert client_.post("/v1/game", json={"variant": "standard", "hands": [HAND] * 2}).status_code == 200
    for path in ("/v1/game", "/v1/compare"):     # the fast path and Flask's
        endless = {"extends": "standard", "rules": ENDLESS}
        body = {"variant": endless, "hands": [HAND] * 40} if path == "/v1/game" else \
            {"kind": "game", "variants": [endless], "input": {"hands": [HAND] * 40}}
        found = problem(client_.post(path, json=body), 422, "answer-too-large")
        assert "more than the 20,000" in found["detail"]
    assert json.loads(client_.post("/v1/score", json=SCORE).get_data())["variant"] == "standard"


def test_inline_cite_problems_are_located_in_the_rule_text(client):
    body = problem(client.post("/v1/score", json={**SCORE, "variant": {"extends": "standard",
                                                                       "rules": {"nil.made": "75 @ hous §Nil"}}}),
                   422, "variant-problems", "variant.rules.nil.made")
    assert (body["problems"][0]["line"], body["problems"][0]["column"]) == (1, 6)
    with pytest.raises(InputError) as info:
        answer("score", {**SCORE, "variant": {"extends": "standard", "rules": {"nil.made": {"value": 5,
                                                                                           "cite": "x §N"}}}})
    assert info.value.details["problems"][0]["column"] == 1
