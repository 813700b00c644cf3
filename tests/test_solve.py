"""The double-dummy solver: against DDS (bridge play, spades trumps), against plain minimax under every
bundled variant, its properties (claims, lines), and its answers over the CLI and the API."""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec.app.answers import inline_variant

from rulespec.app.disputes import answer
from rulespec.app.claims import allowance
from rulespec.cli import main
from rulespec.core import cards as C
from rulespec.errors import InputError, SearchBudgetError
from rulespec.game.hand import HandState
from rulespec.model.ruleset import load_ruleset
from rulespec.solve.search import Goal, Search
from rulespec.solve.symmetry import equivariant
from service.app import create_app
from solve_helpers import (BRIDGE_SPADES, NS, at_position, dds_tricks, hands_body, minimax, random_position,
                           searched_ids)

VARIANTS = searched_ids()      # (the search plays four partnership seats only)


def test_bridge_play_equals_dds():
    """Trick counts from random positions (3 to 7 tricks, random leader) equal DDS's."""
    pytest.importorskip("endplay")
    rs = load_ruleset(BRIDGE_SPADES)
    rng = random.Random(17)
    checked = 0
    while checked < 40:
        pos = random_position(rs, rng, rng.randint(3, 7))
        if pos.trick:
            continue
        assert Search(rs, pos, NS).value() == dds_tricks(pos), pos
        checked += 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_solver_equals_minimax(variant):
    """For each bundled variant: positions of up to three tricks (trumps broken or not, mid-trick or
    not), N/S's tricks and one seat's tricks, as plain minimax over HandState finds them."""
    rs = load_ruleset(variant)
    rng = random.Random(variant)
    for k in range(40):
        pos = random_position(rs, rng, rng.randint(1, 3))
        pos.broken = pos.broken and k < 25      # the last 15: trumps unbroken
        for goal in (NS, Goal.of_team(1, 1 << rng.randrange(4))):
            assert Search(rs, pos, goal).value() == minimax(at_position(rs, pos), goal), (variant, k, goal, pos)


@pytest.mark.parametrize("variant", ["tournament", "pirates", "standard"])
def test_first_trick_positions_equal_minimax(variant):
    """The first trick's own rules (lowest club, no trumps, no spade lead) in three-card hands."""
    rs = inline_variant({"extends": variant, "rules": {"deal.hand_size": 3}}, "variant")
    rng = random.Random(5)
    for _ in range(25):
        pos = random_position(rs, rng, 3)
        assert pos.number == 1
        assert Search(rs, pos, NS).value() == minimax(at_position(rs, pos), NS)


def test_symmetry_refuses_rules_that_name_cards(house):
    rs = house("""
        id: names-a-card
        title: t
        source: {doc: house, title: t}
        extends: standard
        rules:
          play.first_lead: {value: "hand - {2C}", cite: house §1}
        """)
    assert not equivariant(rs)
    assert equivariant(load_ruleset("standard"))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), tricks=st.integers(1, 4), variant=st.sampled_from(VARIANTS),
       side=st.sampled_from(C.TEAMS), k=st.integers(0, 4))
def test_claim_holds_iff_solved_at_least_k(seed, tricks, variant, side, k):
    rs = load_ruleset(variant)
    pos = random_position(rs, random.Random(seed), tricks)
    body = hands_body(variant, pos)
    solved = answer("solve", body)["tricks"][side]
    k = min(k, pos.hands[pos.leader].bit_count() + (1 if pos.trick else 0))
    claim = answer("claim", {**body, "claim": {"side": side, "tricks": k}})
    assert claim["holds"] == (solved >= k)
    assert claim["best"] == solved


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), tricks=st.integers(1, 5), variant=st.sampled_from(VARIANTS))
def test_replaying_the_line_gives_the_solved_count(seed, tricks, variant):
    """Each card of the principal line is legal when played through HandState, and the line's tricks
    for N/S are the solved count."""
    rs = load_ruleset(variant)
    pos = random_position(rs, random.Random(seed), tricks)
    result = answer("solve", hands_body(variant, pos))
    state, ns = at_position(rs, pos), 0
    for trick in result["line"]:
        for play in trick["cards"]:
            card = C.parse_card(play["card"])
            assert C.SEATS[state.to_play] == play["seat"] and state.legal() >> card & 1
            state.play(card)
        winner = state.finish_trick()
        assert C.SEATS[winner] == trick["winner"]
        ns += winner % 2 == 0
    assert state.over and ns == result["tricks"]["NS"]


ENDING = {"variant": "standard", "leader": "N", "broken": True,
          "hands": {"N": ["AS", "KH", "2C"], "E": ["QS", "AH", "3C"], "S": ["2S", "QH", "4C"],
                    "W": ["3S", "JH", "5C"]}}


def test_claim_fails_with_the_beating_defence():
    result = answer("claim", {**ENDING, "claim": {"side": "NS", "tricks": 2}})
    assert not result["holds"] and result["best"] == 1
    assert [t["winner"] for t in result["line"]] == ["N", "E", "W"]


def test_nil_answer():
    result = answer("nil", {**ENDING, "nil": "S"})
    assert result["makes"] and result["forced_tricks"] == 0
    west = answer("nil", {**ENDING, "nil": "W"})
    assert not west["makes"] and west["forced_tricks"] == 1


def _short(extends: str) -> dict:
    return {"extends": extends, "id": f"{extends}-2", "rules": {"deal.hand_size": 2}}


def test_first_trick_rules_change_a_claim():
    """With two-card hands the position is the first trick: tournament's lowest-club rule makes N lead
    the 2C, and the claim of both tricks that holds under standard fails; compare names the rule."""
    body = {"hands": {"N": ["AC", "2C"], "E": ["3C", "KD"], "S": ["4D", "5D"], "W": ["KC", "6D"]},
            "leader": "N", "claim": {"side": "NS", "tricks": 2},
            "variants": [_short("standard"), _short("tournament")]}
    result = answer("claim", body)
    assert result["rulings"]["standard-2"]["holds"] and not result["rulings"]["tournament-2"]["holds"]
    assert result["rulings"]["tournament-2"]["line"][0]["cards"][0]["card"] == "2C"
    assert "play.first_trick_suit" in [r["rule"] for r in result["differences"][0]["rules"]]


def test_position_from_deal_and_play():
    """A deal and 11 tricks of play: the solved position is the replayed one."""
    rs = load_ruleset("standard")
    cards = C.card_list(rs.deck)
    random.Random(2).shuffle(cards)
    hands = [C.mask_of(cards[13 * s:13 * s + 13]) for s in range(4)]
    state = HandState(rs, hands, 3)
    play = []
    while state.number < 12:
        card = C.card_list(state.legal())[0]
        play.append(C.card_name(card))
        state.play(card)
        if len(state.trick) == 4:
            state.finish_trick()
    deal = {C.SEATS[s]: C.card_names(hands[s]) for s in range(4)}
    result = answer("solve", {"variant": "standard", "deal": deal, "dealer": "W", "play": play})
    expected = minimax(state, NS)
    assert result["tricks_left"] == 2 and result["tricks"]["NS"] == expected
    assert result["to_play"] == C.SEATS[state.to_play]


@pytest.mark.parametrize("body, field", [
    ({"hands": {"N": ["AS"], "E": ["KS"], "S": ["QS"]}, "leader": "N"}, "hands"),
    ({"hands": {"N": ["AS"], "E": ["KS"], "S": ["QS"], "W": ["ZZ"]}, "leader": "N"}, "hands.W[0]"),
    ({"hands": {"N": ["AS"], "E": ["KS"], "S": ["QS"], "W": ["AS"]}, "leader": "N"}, "hands.W[0]"),
    ({"hands": {"N": ["AS", "2C"], "E": ["KS"], "S": ["QS"], "W": ["JS"]}, "leader": "N"}, "hands.E"),
    ({"hands": {"N": ["AS"], "E": ["KS"], "S": ["QS"], "W": ["JS"]}}, "leader"),
    ({"hands": {"N": ["AS"], "E": ["KS"], "S": ["QS"], "W": ["JS"]}, "leader": "N", "budget": {"nodes": 0}},
     "budget.nodes"),
    ({"deal": {"N": []}, "dealer": "N"}, "deal"),
])
def test_bad_positions_name_the_field(body, field):
    with pytest.raises(InputError) as info:
        answer("solve", {"variant": "standard", **body})
    assert info.value.field == field


def test_claim_fields():
    with pytest.raises(InputError) as info:
        answer("claim", {**ENDING, "claim": {"side": "XY", "tricks": 1}})
    assert info.value.field == "claim.side"
    with pytest.raises(InputError) as info:
        answer("claim", {**ENDING, "claim": {"side": "NS", "tricks": 4}})
    assert info.value.field == "claim.tricks"


def test_budget_spent_is_an_error_only_when_limited():
    rs = load_ruleset("standard")
    pos = random_position(rs, random.Random(4), 5)
    body = hands_body("standard", pos)
    with pytest.raises(SearchBudgetError):
        answer("solve", {**body, "budget": {"nodes": 10}})
    with allowance(10, None):
        with pytest.raises(SearchBudgetError):
            answer("solve", body)
    assert sum(answer("solve", body)["tricks"].values()) == 5


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def test_budget_spent_under_one_variant_fails_the_whole_comparison():
    """A spent budget is not a ruling: side by side it fails the request instead of becoming a difference."""
    body = {**{k: v for k, v in ENDING.items() if k != "variant"}, "claim": {"side": "NS", "tricks": 2},
            "variants": ["standard", "tournament"]}
    with allowance(60, None):      # enough for one variant's claim, not for both
        with pytest.raises(SearchBudgetError):
            answer("claim", body)
    assert answer("claim", body)["agree"]


def test_api_claim_and_budget_problem(client):
    resp = client.post("/v1/claim", json={**ENDING, "claim": {"side": "NS", "tricks": 1}})
    assert resp.status_code == 200 and resp.get_json()["holds"]
    resp = client.post("/v1/solve", json={**ENDING, "budget": {"nodes": 3}})
    assert resp.status_code == 422 and resp.mimetype == "application/problem+json"
    body = resp.get_json()
    assert body["type"] == "/api#problem-search-budget" and body["field"] == "budget" and body["search"]["nodes"]
    resp = client.post("/v1/nil", json={**ENDING, "nil": "Q"})
    assert resp.status_code == 422 and resp.get_json()["field"] == "nil"


def test_cli_budget_only_when_asked(tmp_path):
    path = tmp_path / "ending.json"
    path.write_text(json.dumps(ENDING))
    ok = CliRunner().invoke(main, ["solve", str(path)])
    assert ok.exit_code == 0 and json.loads(ok.output)["tricks"] == {"NS": 1, "EW": 2}
    spent = CliRunner().invoke(main, ["solve", "--nodes", "2", str(path)])
    assert spent.exit_code == 2 and "budget" in spent.output

