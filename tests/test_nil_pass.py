"""The nil pass (issue 30, ``nil.exchange``): who passes, how many cards, the hands after it, its answers."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec import game as E
from rulespec.app.disputes import answer
from rulespec.core import cards as C
from rulespec.errors import InputError
from rulespec.fast.batch import BatchEngine
from rulespec.game.policies import RandomPolicy, SensiblePolicy
from rulespec.model.ruleset import load_ruleset, ruleset_from_text

NIL_PASS = load_ruleset("nil-pass")


def _state(rs, bids: str) -> E.HandState:
    state = E.HandState(rs, E.deal_for("pass", 0, rs), 0)
    for text in bids.split():
        state.bid(E.parse_bid(text))
    return state


@pytest.mark.parametrize("bids, seats", [    # bids in order from the first bidder, E (dealer N)
    ("3 nil 4 3", [2]),                 # S's nil beside N's 3
    ("nil 3 nil 3", []),                # two nil bidders in one partnership pass nothing
    ("3 4 3 4", []),
    ("nil nil 4 3", [1, 2]),            # E's nil beside W's 4, S's beside N's 3, in seat order
])
def test_the_seats_that_pass_and_how_many_cards(bids, seats):
    state = _state(NIL_PASS, bids)
    assert state.exchange_seats() == seats
    assert all(state.exchange_count(seat) == 2 for seat in seats)
    assert _state(load_ruleset("standard"), bids).exchange_seats() == []


def test_a_blind_nil_exchanges_first_then_the_nil_pass():
    rs = ruleset_from_text("id: both-passes\nextends: nil-pass\nrules:\n  blind_nil.allowed: true @ house §x\n"
                           "  blind_nil.exchange: 1 @ house §x\n  nil.exchange: 4 @ house §x\n")
    state = _state(rs, "nil blind_nil 3 4")         # E nil beside W's 3, S blind nil beside N's 4
    assert [str(b) for b in state.bids] == ["4", "nil", "blind nil", "3"]
    assert state.exchange_seats() == [2, 1]
    assert [state.exchange_count(seat) for seat in (2, 1)] == [1, 4]


class _Counting(RandomPolicy):
    def __init__(self, rng):
        super().__init__(rng)
        self.passes = []

    def bid(self, rs, seat, legal, hand):
        nil = [b for b in legal if b.kind == E.NIL]
        return nil[0] if nil and seat % 2 == 0 and self.rng.random() < 0.7 else super().bid(rs, seat, legal, hand)

    def exchange(self, rs, seat, hand, count):
        cards = super().exchange(rs, seat, hand, count)
        self.passes.append((seat, count, len(cards)))
        return cards


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 3))
def test_cards_are_conserved_through_the_pass_and_each_trick_has_one_winner(seed, dealer):
    deal = E.deal_for(seed, 0, NIL_PASS)
    policy = _Counting(random.Random(seed))
    record = E.play_hand(NIL_PASS, deal, dealer, policy)
    assert all(count == taken == 2 for _, count, taken in policy.passes)
    assert len(policy.passes) == 2 * len(record["exchanges"])
    held = {seat: set(C.card_names(deal[k])) for k, seat in enumerate(C.SEATS[:4])}
    for ex in record["exchanges"]:                   # the hands after the passes
        seat = ex["from"]
        partner = C.SEATS[C.partner_of(C.SEATS.index(seat))]
        assert set(ex["gave"]) <= held[seat] and set(ex["received"]) <= held[partner]
        held[seat] = held[seat] - set(ex["gave"]) | set(ex["received"])
        held[partner] = held[partner] - set(ex["received"]) | set(ex["gave"])
    played = {seat: set() for seat in C.SEATS[:4]}
    for trick in record["tricks"]:
        assert len(trick["cards"]) == 4 and trick["winner"] in C.SEATS
        leader = C.SEATS.index(trick["leader"])
        for k, card in enumerate(trick["cards"]):
            played[C.SEATS[(leader + k) % 4]].add(card)
    assert played == held                            # every card played by the seat that held it after the pass
    assert sum(len(cards) for cards in played.values()) == 52
    assert sum(record["tricks_per_seat"].values()) == 13


def test_the_batch_engine_passes_as_the_scalar_steps_do():
    engine = BatchEngine(NIL_PASS)
    result = engine.play(200, seed=3, policy="random")
    passing = 0
    for row in range(len(result)):
        kinds = result.bid_kind[row]
        for seat in range(4):
            nil_beside_number = kinds[seat] == 1 and kinds[(seat + 2) % 4] == 0
            assert (result.gave[row, seat] != 0) == nil_beside_number
            if nil_beside_number:
                passing += 1
                assert int(result.gave[row, seat]).bit_count() == 2 == int(result.received[row, seat]).bit_count()
                partner = (seat + 2) % 4
                assert result.gave[row, seat] & result.deals[row, seat] == result.gave[row, seat]
                assert result.received[row, seat] & result.deals[row, partner] == result.received[row, seat]
    assert passing > 0


def test_the_sensible_players_play_nil_pass_hands():
    rs = NIL_PASS
    records = [E.play_hand(rs, E.deal_for("sensible", i, rs), 0, SensiblePolicy(random.Random(i)))
               for i in range(40)]
    assert any(r["exchanges"] for r in records)


@pytest.mark.parametrize("exchanges, field", [
    ({"from": "N"}, "exchanges"),
    ([{"from": "N", "gave": ["QH", "KD"], "received": ["4C", "5C"], "why": 1}], "exchanges[0].why"),
    ([{"from": "N", "gave": ["QH", "KD"], "received": ["4C", "5C"]}, {"from": "N", "gave": [], "received": []}],
     "exchanges[1].from"),
    ([{"from": "X", "gave": [], "received": []}], "exchanges[0].from"),
    ([{"from": "N", "gave": ["QH", "AS"], "received": ["4C", "5C"]}], "exchanges[0].gave"),
])
def test_a_bad_exchange_is_refused_at_its_field(exchanges, field):
    body = {"variant": "nil-pass", "dealer": "N", "bids": {"N": "nil", "E": 2, "S": 13, "W": 1},
            "deal": {"N": "3C 9C 10C 2D 9D JD KD 3H 5H 7H 8H QH 2S", "E": "2C QC KC AC 6D 7D 8D 10D 2H 6H JH 5S 6S",
                     "S": "4C 5C 7C AD KH AH 7S 8S 9S 10S QS KS AS", "W": "6C 8C JC 3D 4D 5D QD 4H 9H 10H 3S 4S JS"},
            "exchanges": exchanges, "play": [["AC", "7C", "6C", "10C"]]}
    body["deal"] = {seat: cards.split() for seat, cards in body["deal"].items()}
    with pytest.raises(InputError) as err:
        answer("score", body)
    assert err.value.field == field


def test_exchanges_without_a_deal_are_refused():
    with pytest.raises(InputError) as err:
        answer("score", {"variant": "nil-pass", "bids": {"N": "nil", "E": 3, "S": 4, "W": 3},
                         "tricks": {"N": 0, "E": 4, "S": 5, "W": 4}, "exchanges": []})
    assert err.value.field == "exchanges"
