"""Hypothesis properties of the table options of document 005 (issue 30, half A): the joker packs keep every
card and give each trick one winner by their ranking; the bids of a no-thirteen hand never total 13; the
holder of the two of clubs leads under club-two-leads; the highest bidder leads under a high_bid house rule."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec import game as E
from rulespec.core import cards as C
from rulespec.game.policies import RandomPolicy
from rulespec.model.ruleset import load_ruleset, ruleset_from_text

PACKS = ("jokers-ace", "jokers-deuce-ace")
SEEDS = st.integers(0, 2**32)


def _played(rs, seed: int, dealer: int) -> tuple[list[int], dict]:
    deal = E.deal_for(seed, 0, rs)
    return deal, E.play_hand(rs, deal, dealer, RandomPolicy(random.Random(seed)))


def _expected_winner(rs, cards: list[int]) -> int:
    """The place in the trick of its winning card: the highest trump, else the highest of the suit led."""
    trump = [k for k, c in enumerate(cards) if rs.suit_of[c] == C.SPADES]
    pool = trump or [k for k, c in enumerate(cards) if rs.suit_of[c] == rs.suit_of[cards[0]]]
    best = max(rs.power[cards[k]] for k in pool)
    winners = [k for k in pool if rs.power[cards[k]] == best]
    assert len(winners) == 1                      # one card of the highest power: one winner
    return winners[0]


@pytest.mark.parametrize("variant", PACKS)
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, dealer=st.integers(0, 3))
def test_a_joker_pack_keeps_every_card_and_each_trick_has_one_winner(variant, seed, dealer):
    rs = load_ruleset(variant)
    deal, record = _played(rs, seed, dealer)
    assert rs.deck & C.JOKERS == C.JOKERS and rs.deck.bit_count() == 52
    union = 0
    for hand in deal:
        assert hand.bit_count() == 13 and union & hand == 0
        union |= hand
    assert union == rs.deck                        # the pack dealt, every card once
    played = [C.parse_card(c) for t in record["tricks"] for c in t["cards"]]
    assert sorted(played) == sorted(C.card_list(rs.deck))
    for trick in record["tricks"]:
        cards = [C.parse_card(c) for c in trick["cards"]]
        place = _expected_winner(rs, cards)
        assert trick["winner"] == C.SEATS[(C.SEATS.index(trick["leader"]) + place) % 4]


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, dealer=st.integers(0, 3))
def test_the_bids_of_a_no_thirteen_hand_never_total_13(seed, dealer):
    """Every hand can be bid (no seat is left without a bid), and the bids never total 13 but where the last
    bidder's nil stands beside its partner's 13 (005/no-thirteen/no-way-out: no number fits there)."""
    rs = load_ruleset("no-thirteen")
    _, record = _played(rs, seed, dealer)
    bids = [E.parse_bid(b) for b in record["bids"].values()]
    if sum(b.n for b in bids if b.kind in (E.REGULAR, E.BLIND)) == 13:
        last = (rs.fn["deal.first_bidder"](dealer) + 3) % 4
        assert bids[last].kind == E.NIL and bids[(last + 2) % 4] == E.Bid(E.REGULAR, 13), record["bids"]


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, dealer=st.integers(0, 3))
def test_the_holder_of_the_two_of_clubs_leads_the_first_trick(seed, dealer):
    rs = load_ruleset("club-two-leads")
    deal, record = _played(rs, seed, dealer)
    holder = next(s for s in range(4) if deal[s] >> C.parse_card("2C") & 1)
    assert record["tricks"][0]["leader"] == C.SEATS[holder] and record["tricks"][0]["cards"][0]


HIGH_BID = ruleset_from_text("""\
id: high-bid-leads
source: {doc: house, title: the highest bidder leads}
extends: standard
rules:
  play.first_leader_by: high_bid @ house §Lead
""", "<high-bid>")


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, dealer=st.integers(0, 3))
def test_the_highest_bidder_leads_the_first_trick_the_first_of_equal_bids(seed, dealer):
    _, record = _played(HIGH_BID, seed, dealer)
    first = E.seat_rule(HIGH_BID, "deal.first_bidder", dealer)
    order = [(first + k) % 4 for k in range(4)]
    named = {s: (b.n if b.kind in (E.REGULAR, E.BLIND) else 0)
             for s, b in ((C.SEATS.index(k), E.parse_bid(v)) for k, v in record["bids"].items())}
    top = max(named.values())
    assert record["tricks"][0]["leader"] == C.SEATS[next(s for s in order if named[s] == top)]
