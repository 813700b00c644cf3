"""The double-dummy search, claims and nil analysis at tables without partners (issue 30): two, three and four
seats each alone.  The search against plain minimax over ``HandState`` (the claimer alone against everyone, a
nil bidder alone against everyone), its line, the compiled search's fallback, and the answers over the API."""
from __future__ import annotations

import random

import pytest

from rulespec.app.answers import inline_variant
from rulespec.app.disputes import answer
from rulespec.core import cards as C
from rulespec.errors import InputError, NativeRuleError
from rulespec.game.hand import HandState
from rulespec.model.ruleset import Ruleset, load_ruleset
from rulespec.solve.native import native_module, searcher
from rulespec.solve.search import Goal, Position, Search, rules_for
from service.app import create_app
from solve_helpers import (at_position, goals_of, hands_body, house_variant, minimax, NO_FOLLOWING,
                           random_position, searched_ids)

ALONE = searched_ids(four=False)      # the bundled tables other than four in partnerships (cut-throat, solo, ...)


def two_seats(rules: dict | None = None, size: int = 13) -> Ruleset:
    """Standard for two players each alone (``size`` cards each, the rest of the pack out of play)."""
    return house_variant({"table.seats": 2, "table.sides": "alone", "game.winner": "high.side", **(rules or {})},
                         size, "two-alone")


def _tables() -> list[Ruleset]:
    return [*(load_ruleset(vid) for vid in ALONE), two_seats(),
            house_variant({"table.seats": 3, "table.sides": "alone", "game.winner": "high.side", **NO_FOLLOWING},
                          13, "three-no-following")]


def test_the_bundled_tables_without_partners_are_searched():
    assert sorted(ALONE) == ["cutthroat", "five-handed", "six-handed", "solo", "two-player"]
    for rs in _tables():
        table = C.table_of(rs.params)
        assert (not table.partners or table.seats == 6) and table.seats in (2, 3, 4, 5, 6), rs.id
        rules = rules_for(rs)
        assert rules.shape is None and not rules.partition, rs.id      # argued for partnerships of four only


@pytest.mark.parametrize("rs", _tables(), ids=lambda rs: rs.id)
def test_search_equals_minimax(rs):
    """Random end positions of one to four tricks (mid-trick or not, trumps broken or not): a seat's tricks
    claimed alone, and a nil bidder's tricks with everyone else giving it tricks, as plain minimax finds them."""
    rng = random.Random(rs.id)
    most = 4 if C.table_of(rs.params).seats <= 4 else 2      # (plain minimax of six hands of four cards is slow)
    for k in range(30):
        pos = random_position(rs, rng, rng.randint(1, most))
        assert len(pos.hands) == C.table_of(rs.params).seats
        for goal in goals_of(rs, rng):
            value = Search(rs, pos, goal).value()
            assert value == minimax(at_position(rs, pos), goal), (rs.id, k, goal, pos)


def test_first_trick_rules_at_three_seats():
    """Cut-throat's first trick (standard's: no spade led, none played unless void) in three-card hands."""
    rs = inline_variant({"extends": "cutthroat", "id": "cutthroat-three", "rules": {"deal.hand_size": 3}}, "variant")
    rng = random.Random(8)
    for _ in range(20):
        pos = random_position(rs, rng, 3)
        assert pos.number == 1
        for goal in goals_of(rs, rng):
            assert Search(rs, pos, goal).value() == minimax(at_position(rs, pos), goal)


def _replayed_tricks(rs: Ruleset, pos: Position, goal: Goal, steps) -> int:
    state = at_position(rs, pos)
    taken = 0
    for step in steps:
        assert state.to_play == step.seat and state.legal() >> step.card & 1
        state.play(step.card)
        if len(state.trick) == len(state.hands):
            winner = state.finish_trick()
            assert winner == step.winner
            taken += goal.counted >> winner & 1
    assert state.over
    return taken


@pytest.mark.parametrize("rs", _tables()[:3], ids=lambda rs: rs.id)
def test_line_keeps_the_value(rs):
    """The principal line is legal play to the hand's end, and the counted seat takes the value along it."""
    rng = random.Random(f"line {rs.id}")
    for _ in range(10):
        pos = random_position(rs, rng, rng.randint(2, 4))
        for goal in goals_of(rs, rng):
            search = Search(rs, pos, goal)
            value = search.value()
            assert _replayed_tricks(rs, pos, goal, search.line(value)) == value
            assert search.hands[:len(pos.hands)] == pos.hands      # the line leaves the position as it was


def test_a_goal_must_fit_the_table():
    rs = load_ruleset("cutthroat")
    pos = random_position(rs, random.Random(1), 2)
    for goal in (Goal(0, 1), Goal(0b111, 1), Goal(0b1000, 1)):
        with pytest.raises(ValueError):
            Search(rs, pos, goal)
    with pytest.raises(ValueError, match="partnership"):
        Search(load_ruleset("standard"), random_position(load_ruleset("standard"), random.Random(1), 2), Goal(1, 1))


def test_no_compiled_search_at_other_tables_the_python_one_answers():
    """``native.searcher`` falls back to the Python search (as for rules numba cannot express), never a crash."""
    rs = load_ruleset("cutthroat")
    with pytest.raises(NativeRuleError, match="table.sides"):
        native_module(rs)
    pos = random_position(rs, random.Random(2), 3)
    search = searcher(rs, pos, Goal(1, 1), compile_now=True)
    assert type(search) is Search
    assert search.value() == minimax(at_position(rs, pos), Goal(1, 1))


# --------------------------------------------------------------------------- the answers
# N must lead the 2H (spades unbroken); S wins it with the AH or lets E's 5H win it; the AS wins the last trick
ENDING = {"variant": "cutthroat", "leader": "N", "hands": {"N": ["AS", "2H"], "E": ["KS", "5H"], "S": ["AH", "3H"]}}


def test_solve_answers_per_seat():
    """Each seat's count is its own best against the other two (they need not sum to the tricks left)."""
    got = answer("solve", ENDING)
    assert got["tricks"] == {"N": 1, "E": 0, "S": 1} and got["tricks_left"] == 2
    assert "alone" in got["why"] and "partner" not in got["why"]
    assert got["to_play"] == "N" and len(got["line"]) == 2
    rs = load_ruleset("cutthroat")
    hands = [C.mask_of([C.parse_card(c) for c in ENDING["hands"][s]]) for s in "NES"]
    pos = Position(hands, 0, [], 16, False, rs.deck & ~C.mask_of([c for h in hands for c in C.card_list(h)]))
    for seat, tricks in enumerate((1, 0, 1)):
        assert minimax(at_position(rs, pos), Goal(1 << seat, 1 << seat)) == tricks


def test_solve_answers_match_minimax_on_random_positions():
    rs = load_ruleset("solo")
    rng = random.Random(11)
    for _ in range(5):
        pos = random_position(rs, rng, rng.randint(1, 3))
        got = answer("solve", hands_body("solo", pos))
        for seat, name in enumerate("NESW"):
            assert got["tricks"][name] == minimax(at_position(rs, pos), Goal(1 << seat, 1 << seat))


def test_claim_is_the_claimer_against_everyone():
    held = answer("claim", {**ENDING, "claim": {"side": "S", "tricks": 1}})
    assert held["holds"] and held["best"] == 1 and held["claim"] == {"side": "S", "tricks": 1}
    assert "S, playing alone, takes at least 1" in held["why"] and "by N and E" in held["why"]
    beaten = answer("claim", {**ENDING, "claim": {"side": "E", "tricks": 1}})     # S takes the 2H
    assert not beaten["holds"] and beaten["best"] == 0
    assert "against best defence by N and S, E alone takes only 0" in beaten["why"]
    assert [c["card"] for c in beaten["line"][0]["cards"]] == ["2H", "5H", "AH"]
    for got in (held, beaten):
        assert "partner" not in got["why"]


def test_nil_is_the_bidder_against_everyone():
    made = answer("nil", {**ENDING, "nil": "S"})        # S ducks with the 3H, and drops the AH under the AS
    assert made["makes"] and "S, playing alone, takes no trick against any defence by N and E" in made["why"]
    forced = answer("nil", {**ENDING, "nil": "E"})       # S ducks: E's 5H wins the first trick
    assert not forced["makes"] and forced["forced_tricks"] == 1
    assert forced["why"].startswith("N and S, defending together, force E to take 1")
    two = two_seats(size=1)
    body = {"leader": "N", "hands": {"N": ["AS"], "E": ["2S"]}, "nil": "E"}
    from rulespec.app.claims import answer_nil
    assert answer_nil(two, body)["why"].startswith("E, playing alone, takes no trick against any defence by N")
    assert answer_nil(two, {**body, "nil": "N"})["why"] == "E forces N to take 1 trick(s); the line shows how"


@pytest.mark.parametrize("body, field", [
    ({**ENDING, "hands": {"N": ["AS", "2H"], "E": ["KS", "AH"]}}, "hands"),                  # S missing
    ({**ENDING, "hands": {**ENDING["hands"], "W": []}}, "hands.W"),                          # no W at three seats
    ({**ENDING, "leader": "W"}, "leader"),
    ({**ENDING, "claim": {"side": "NS", "tricks": 1}}, "claim.side"),
    ({**ENDING, "nil": "W"}, "nil"),
    ({**ENDING, "trick": ["QS", "JS", "10S"]}, "trick"),                                    # a trick of three
])
def test_fields_by_the_tables_seats(body, field):
    kind = "claim" if "claim" in body else "nil" if "nil" in body else "solve"
    with pytest.raises(InputError) as caught:
        answer(kind, body)
    assert caught.value.field == field, caught.value.message


def test_over_the_api_with_a_deal_and_play():
    """A cut-throat deal and its first trick: the API's answers by seat, and a refused seat a 422 naming it."""
    client = create_app().test_client()
    rs = load_ruleset("cutthroat")
    cards = C.card_list(rs.deck)
    random.Random(3).shuffle(cards)
    deal = {s: C.card_names(C.mask_of(cards[k * 17:(k + 1) * 17])) for k, s in enumerate("NES")}
    state = HandState(rs, [C.mask_of(cards[k * 17:(k + 1) * 17]) for k in range(3)], 2)
    play = []
    while len(play) < 3 * 13:            # thirteen tricks played, four left
        card = C.card_list(state.legal())[0]
        play.append(C.card_name(card))
        state.play(card)
        if len(state.trick) == 3:
            state.finish_trick()
    body = {"variant": "cutthroat", "deal": deal, "dealer": "S", "play": play}
    resp = client.post("/v1/solve", json=body)
    assert resp.status_code == 200, resp.get_data(as_text=True)
    got = resp.get_json()
    assert set(got["tricks"]) == {"N", "E", "S"} and got["tricks_left"] == 4
    pos = Position(list(state.hands), state.leader, [], state.number, state.broken, state.played)
    for seat, name in enumerate("NES"):
        assert got["tricks"][name] == minimax(at_position(rs, pos), Goal(1 << seat, 1 << seat))
    resp = client.post("/v1/claim", json={**body, "claim": {"side": "EW", "tricks": 1}})
    assert resp.status_code == 422 and resp.get_json()["field"] == "claim.side"
    resp = client.post("/v1/nil", json={**body, "deal": {**deal, "W": []}, "nil": "N"})
    assert resp.status_code == 422 and resp.get_json()["field"] == "deal.W"


def test_the_diffs_double_dummy_stage_at_three_seats():
    """``diff --double-dummy``: the leader's tricks, alone against the other two."""
    from rulespec.tools.diff import doubledummy
    rs = load_ruleset("cutthroat")
    for index in range(3):
        pos = doubledummy.position(rs, "7", index, 3)
        seat = 1 << pos.leader
        assert doubledummy.lead_side_tricks(rs, "7", index, 3) == minimax(at_position(rs, pos), Goal(seat, seat))


def test_answers_and_requests_match_the_documented_schemas():
    """/openapi.json documents the requests and answers at a table of three (hands by seat, a seat's claim)."""
    import jsonschema_rs
    client = create_app().test_client()
    spec = client.get("/openapi.json").get_json()

    def conforms(name: str, body: dict) -> None:
        schema = {"$ref": f"#/components/schemas/{name}", "components": spec["components"]}
        jsonschema_rs.Draft202012Validator(schema).validate(body)
    for kind, extra in (("solve", {}), ("claim", {"claim": {"side": "S", "tricks": 1}}), ("nil", {"nil": "E"})):
        body = {**ENDING, **extra}
        conforms(f"{kind.title()}Request", body)
        resp = client.post(f"/v1/{kind}", json=body)
        assert resp.status_code == 200, resp.get_data(as_text=True)
        conforms(f"{kind.title()}Answer", resp.get_json())
