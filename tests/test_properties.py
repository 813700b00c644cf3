"""Hypothesis properties of simulated hands."""
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec.core import cards as C
from rulespec import game as E
from rulespec.game.policies import RandomPolicy
from rulespec.model.ruleset import load_ruleset
import random

RS = load_ruleset("standard")


class CheckingPolicy(RandomPolicy):
    """Random play that records whether each chosen card was in the legal set."""

    def __init__(self, rng):
        super().__init__(rng)
        self.plays = 0

    def play(self, rs, seat, legal, trick, hand):
        card = super().play(rs, seat, legal, trick, hand)
        assert (legal >> card) & 1 and (hand >> card) & 1 and legal & ~hand == 0
        self.plays += 1
        return card


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 3))
def test_simulated_hand_invariants(seed, dealer):
    deal = E.deal_for(seed, 0, RS)
    assert sum(h.bit_count() for h in deal) == 52
    union = 0
    for h in deal:
        assert union & h == 0
        union |= h
    assert union == RS.deck
    policy = CheckingPolicy(random.Random(seed))
    record = E.play_hand(RS, deal, dealer, policy)
    assert policy.plays == 52
    assert sum(record["tricks_per_seat"].values()) == 13
    assert len(record["tricks"]) == 13
    played = [c for t in record["tricks"] for c in t["cards"]]
    assert len(set(played)) == 52
    for trick in record["tricks"]:
        assert trick["winner"] in "NESW" and len(trick["cards"]) == 4


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_score_deltas_deterministic_for_a_seed(seed):
    first = [r["score"] for r in E.simulate(RS, 2, seed=seed)]
    second = [r["score"] for r in E.simulate(RS, 2, seed=seed)]
    assert first == second


@settings(max_examples=30, deadline=None)
@given(hand=st.sets(st.integers(0, 51), min_size=1, max_size=13), led=st.integers(0, 51),
       broken=st.booleans(), number=st.integers(1, 13))
def test_legal_set_is_a_nonempty_subset_of_the_hand(hand, led, broken, number):
    mask = C.mask_of(hand) & ~(1 << led)
    if not mask:
        return
    for trick in ([], [led]):
        legal = E.legal_cards(RS, mask, trick, number, broken).cards
        assert legal and legal & ~mask == 0


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), seat=st.integers(0, 3), dealer=st.integers(0, 3),
       partner_bid=st.sampled_from([None, "3", "nil", "blind nil", "blind 7", "1", "9"]),
       ns=st.integers(-400, 600), ew=st.integers(-400, 600))
def test_legal_bids_equals_rule_by_rule_refusals(seed, seat, dealer, partner_bid, ns, ew):
    hand = E.deal_for(seed, 0, RS)[seat]
    bids = [None] * 4
    if partner_bid is not None:
        bids[C.partner_of(seat)] = E.parse_bid(partner_bid)
    fast = E.legal_bids(RS, seat, hand, dealer, bids, (ns, ew), (0, 0))
    if partner_bid and partner_bid.startswith("blind ") and partner_bid != "blind nil":
        assert fast == [bids[C.partner_of(seat)]]
        return
    slow = [b for b in E.bid_candidates(RS)
            if not E.bid_refusals(RS, seat, b, hand=hand, dealer=dealer, bids=bids, scores=(ns, ew), bags=(0, 0))]
    assert fast == slow
