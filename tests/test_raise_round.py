"""The raise round once every seat has bid (issue 30, ``raise.by``, ``raise.allowed``): who may raise and by
how much, the scalar step, every engine's hands, the answers; without it, the game as it was."""
import random

import pytest

from rulespec import game as E
from rulespec.app.disputes import answer
from rulespec.errors import InputError
from rulespec.fast.batch import BatchEngine
from rulespec.fast.native_hand import source as native_source
from rulespec.game.policies import RandomPolicy
from rulespec.model.ruleset import load_ruleset, ruleset_from_text
from slot_probes import native_hands

RAISE_ONE = load_ruleset("raise-one")
NIL_PARTNER = ruleset_from_text("id: nil-partner-raises\nextends: standard\nrules:\n  raise.by: 2 @ house §r\n"
                                "  raise.allowed: partner.kind == nil @ house §r\n", "<house>")


def _bid_all(rs, bids: str) -> E.HandState:
    state = E.HandState(rs, E.deal_for("raise", 0, rs), 0)        # (dealer N: E bids first)
    for text in bids.split():
        state.bid(E.parse_bid(text))
    return state


@pytest.mark.parametrize("rs, bids, seat, raises", [
    (RAISE_ONE, "3 nil 4 3", 1, ["3", "4"]),            # E's 3: itself or one more
    (RAISE_ONE, "3 nil 4 3", 2, []),                    # S's nil stays a nil
    (RAISE_ONE, "3 1 4 12", 0, []),                     # N's 12 beside S's 1: 13 at most for the side
    (NIL_PARTNER, "3 nil 4 3", 0, ["3", "4", "5"]),     # N beside S's nil: up to two more
    (NIL_PARTNER, "3 nil 4 3", 1, []),                  # E beside W's 4: no raise
    (load_ruleset("standard"), "3 nil 4 3", 0, []),
])
def test_who_may_raise_and_to_what(rs, bids, seat, raises):
    state = _bid_all(rs, bids)
    assert [str(b) for b in state.round_raise_options(seat)] == raises


def test_no_raise_round_before_every_seat_has_bid():
    state = _bid_all(RAISE_ONE, "3 4")
    assert state.round_raise_options(1) == []


def test_without_a_raise_round_the_engines_call_nothing_for_it():
    for policy in ("random", "sensible"):      # (the function is written, as everything whole_hand may reach)
        assert "= round_raise_options(" not in native_source(load_ruleset("standard"), policy)
        assert "= round_raise_options(" in native_source(RAISE_ONE, policy)


@pytest.mark.parametrize("engine", ["scalar", "array", "compiled"])
def test_every_engine_raises_by_one_at_most_and_sometimes(engine):
    openings, finals = [], []
    if engine == "scalar":
        for i in range(30):
            record = E.play_hand(RAISE_ONE, E.deal_for("r", i, RAISE_ONE), i % 4, RandomPolicy(random.Random(i)),
                                 record=False)
            finals.append([b.n for b in record["_bids"]])
        openings = None
    else:
        result = BatchEngine(RAISE_ONE).play(40, seed=2) if engine == "array" else native_hands(RAISE_ONE, 20, 2)
        openings, finals = result.opening.tolist(), result.bid_n.tolist()
        kinds = result.bid_kind.tolist()
        for opening, final, kind in zip(openings, finals, kinds):
            for seat in range(4):
                assert final[seat] - opening[seat] in ((0, 1) if kind[seat] == 0 else (0,)), (opening, final)
        assert any(o != f for o, f in zip(openings, finals))
    assert all(0 <= n <= 13 for bids in finals for n in bids)


def test_a_score_takes_the_raised_bids_and_refuses_others():
    base = {"variant": "raise-one", "bids": {"N": 3, "E": 4, "S": 4, "W": 2},
            "tricks": {"N": 4, "E": 5, "S": 4, "W": 0}}
    out = answer("score", {**base, "raises": {"S": 5}})
    assert out["bids"]["S"] == "5" and out["teams"]["NS"]["points"] == 80
    for raises, field in (({"S": 6}, "raises.S"), ({"S": 4}, "raises.S"), ({"S": "nil"}, "raises.S"),
                          ([5], "raises")):
        with pytest.raises(InputError) as err:
            answer("score", {**base, "raises": raises})
        assert err.value.field == field
    with pytest.raises(InputError) as err:
        answer("score", {**base, "variant": "standard", "raises": {"S": 5}})
    assert err.value.field == "raises" and err.value.rule == "raise.by"


def test_a_bid_answer_says_whether_it_may_be_raised_only_where_there_is_a_round():
    asked = {"seat": "S", "bid": 4, "bids": {"N": "nil", "E": 3, "W": 3}}
    assert "raise" not in answer("bid", {"variant": "standard", **asked})
    got = answer("bid", {"variant": "raise-one", **asked})["raise"]
    assert got["allowed"] and got["to"] == ["5"] and got["rule"] == "raise.allowed"
    assert not answer("bid", {"variant": "raise-one", **{**asked, "bid": "nil"}})["raise"]["allowed"]
