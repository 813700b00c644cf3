"""The card-by-card review of a game record: the double-dummy value before and after each card, the cards that
cost a trick (checked here by asking /v1/solve about each position named, and the position after the card
played and after the card that keeps it), a nil or the contract, and the search budget respected."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.app.claims import allowance, answer_nil, answer_solve
from rulespec.app.review import answer_review
from rulespec.cli import main
from rulespec.core import cards as C
from rulespec.errors import InputError
from rulespec.game import deal_for, play_hand
from rulespec.game.policies import RandomPolicy
from rulespec.model.ruleset import load_ruleset

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "records"
RENEGE = (EXAMPLES / "renege.pbn").read_text(encoding="utf-8")
JOKERS = (EXAMPLES / "jokers-deuces.ptn").read_text(encoding="utf-8")


def _after(position: dict, card: str) -> dict | None:
    """The position once ``card`` is played, where it does not end the trick (else None)."""
    if len(position["trick"]) == 3:
        return None
    seat = C.SEATS[(C.SEATS.index(position["leader"]) + len(position["trick"])) % 4]
    if card not in position["hands"][seat]:
        return None
    hands = {s: [c for c in cards if c != card] for s, cards in position["hands"].items()}
    return {**position, "hands": hands, "trick": [*position["trick"], card]}


def _side_tricks(rs, position: dict, side: str, won: dict) -> int:
    return won[side] + answer_solve(rs, position)["tricks"][side]


@pytest.fixture(scope="module")
def reviewed():
    with allowance(None, None, compiles=True):
        return answer_review({"record": RENEGE, "variant": "three-trick-renege"})


def test_every_card_is_valued_and_no_card_gains_its_side_a_trick(reviewed):
    (hand,) = reviewed["hands"]
    assert hand["complete"] and hand["reviewed_from"] == 1 and len(hand["cards"]) == 52
    for before, after in zip(hand["cards"], hand["cards"][1:]):
        assert before["ns_after"] == after["ns_before"]
    for card in hand["cards"]:    # best play keeps the value: no card can do better than the position's value
        gain = card["ns_after"] - card["ns_before"]
        assert gain <= 0 if card["seat"] in "NS" else gain >= 0, card
    costly = {(f["trick"], f["seat"], f["card"]) for f in hand["costly"]}
    dropped = {(c["trick"], c["seat"], c["card"]) for c in hand["cards"]
               if (c["ns_after"] < c["ns_before"]) == (c["seat"] in "NS") and c["ns_after"] != c["ns_before"]}
    assert costly == dropped and costly


def test_each_costly_card_is_what_the_solver_says(reviewed):
    rs = load_ruleset("three-trick-renege")
    checked = 0
    for found in reviewed["hands"][0]["costly"]:
        position, side, won = found["position"], found["side"], found["won"]
        assert position["variant"] == "three-trick-renege"
        assert _side_tricks(rs, position, side, won) == found["before"]
        assert found["text"].startswith(f"{found['seat']}'s ") and f"at trick {found['trick']} gave up" in found["text"]
        played, kept = _after(position, found["card"]), _after(position, found["keeps"])
        if played is not None and kept is not None:
            assert _side_tricks(rs, played, side, won) == found["after"] == found["before"] - found["cost"]
            assert _side_tricks(rs, kept, side, won) == found["before"]
            checked += 1
    assert checked >= 3


def test_the_contract_and_the_set_are_named(reviewed):
    texts = [f["text"] for f in reviewed["hands"][0]["costly"]]
    assert any("and the contract (EW bid 5)" in t for t in texts)
    assert any("and the set (EW can now make their 5)" in t for t in texts)


def test_a_spent_budget_reviews_the_last_cards_only():
    with allowance(400, None, compiles=True):
        hand = answer_review({"record": RENEGE, "variant": "three-trick-renege"})["hands"][0]
    assert not hand["complete"] and hand["reviewed_from"] > 1 and "budget" in hand
    assert all(c["trick"] >= hand["reviewed_from"] for c in hand["cards"])
    asked = answer_review({"record": RENEGE, "variant": "three-trick-renege", "budget": {"nodes": 50}})["hands"][0]
    assert not asked["complete"] and asked["cards"]


def test_a_refused_card_ends_the_review_before_it():
    with allowance(None, None, compiles=True):
        hand = answer_review({"record": RENEGE})["hands"][0]
    assert hand["stopped"]["rule"] == "play.follow" and hand["stopped"]["line"] == 25
    assert hand["complete"] and (hand["cards"][-1]["trick"], hand["cards"][-1]["seat"]) == (5, "N")


def test_the_record_s_own_options_are_searched_as_their_bundled_variant():
    with allowance(None, None, compiles=True):
        got = answer_review({"record": JOKERS, "hands": [2]})
    (hand,) = got["hands"]
    assert hand["hand"] == 2 and hand["variant"] == "trickster" and hand["complete"]
    assert all(f["position"]["variant"]["extends"] == "jokers-deuces" for f in hand["costly"])


def _nil_record() -> str:
    """A hand the engine played (random players) in which East's nil could still be kept at trick 4, and was set."""
    rs = load_ruleset("standard")
    hand = play_hand(rs, deal_for("nil", 74, rs), 0, RandomPolicy(random.Random(74)))
    assert hand["bids"]["E"] == "nil" and hand["tricks_per_seat"]["E"] > 0
    return json.dumps({k: v for k, v in hand.items() if not k.startswith("_")})


def test_the_card_that_cost_a_nil_is_named():
    with allowance(None, None, compiles=True):
        hand = answer_review({"record": _nil_record(), "variant": "standard"})["hands"][0]
    lost = [n for n in hand["nils"] if "cost the nil" in n["text"]]
    assert [n["text"] for n in lost] == ["E's A♥ at trick 4 cost the nil of E"]
    (judged,) = [n for n in hand["nils"] if "judged_from" in n]     # the first positions are beyond NIL_NODES
    assert 1 < judged["judged_from"] <= 4
    rs = load_ruleset("standard")
    for found in lost:
        assert answer_nil(rs, {**found["position"], "nil": found["nil"]})["makes"]
        after = _after(found["position"], found["card"])
        if after is not None:
            assert not answer_nil(rs, {**after, "nil": found["nil"]})["makes"]


@pytest.mark.parametrize("req, field", [({"record": RENEGE, "hands": [0]}, "hands"),
                                        ({"record": RENEGE, "hands": "1"}, "hands"),
                                        ({"record": RENEGE, "budget": {"nodes": 5, "depth": 2}}, "budget"),
                                        ({"record": RENEGE, "budget": {"nodes": 0}}, "budget.nodes")])
def test_bad_review_requests_name_their_field(req, field):
    with pytest.raises(InputError) as caught, allowance():
        answer_review(req)
    assert caught.value.field == field


def test_the_command_line_review():
    result = CliRunner().invoke(main, ["review", str(EXAMPLES / "renege.pbn"), "--variant", "three-trick-renege"])
    assert result.exit_code == 0, result.output
    assert "reviewed every card" in result.output
    assert "gave up 2 tricks and the contract (EW bid 5)" in result.output
    short = CliRunner().invoke(main, ["review", str(EXAMPLES / "renege.pbn"), "--nodes", "300", "--variant",
                                      "three-trick-renege"])
    assert "the search budget ran out" in short.output
