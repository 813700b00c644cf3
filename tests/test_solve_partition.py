"""Entries on the relevant cards only (``solve.partition``): taken only where the rules are shown to
allow them, and every entry the search stores holds for every position it matches (checked against
plain minimax and DDS on positions built from the entry: the cards below the ones that mattered dealt
afresh among the seats that held them)."""
from __future__ import annotations

import random

import pytest

from rulespec.core import cards as C
from rulespec.model.ruleset import load_ruleset
from rulespec.model.variants import bundled_ids
from rulespec.solve.partition import Table, rank_free_breaks
from rulespec.solve.search import Goal, Position, Search, rules_for
from solve_helpers import (agrees_with_minimax, at_position, BRIDGE_SPADES, dds_tricks, EW, house_variant, minimax,
                           NO_FOLLOWING, NS, random_position)




TOP_TRUMP_BREAKS = {"trump.breaks": "card.suit == trump.suit and card == highest(hand & trump.suit)"}


def test_taken_only_where_shown_sound():
    """Every bundled variant of four partnership seats; no other table (its sure tricks are not argued)."""
    for variant in bundled_ids():
        rs = load_ruleset(variant)
        assert rules_for(rs).partition is (C.table_of(rs.params) is C.FOUR), variant
    assert rules_for(load_ruleset(BRIDGE_SPADES)).partition
    top_trump = house_variant(TOP_TRUMP_BREAKS)
    assert not rank_free_breaks(top_trump) and not rules_for(top_trump).partition
    assert not rules_for(house_variant(NO_FOLLOWING)).partition


@pytest.mark.parametrize("rules", [TOP_TRUMP_BREAKS, NO_FOLLOWING], ids=["top-trump-breaks", "no-following"])
def test_solver_equals_minimax_where_refused(rules):
    agrees_with_minimax(house_variant(rules, size=3), seed=4, positions=25, tricks=(2, 3))


def _stored(rs, pos: Position, goal: Goal, monkeypatch) -> list[tuple]:
    """Every entry the search for ``pos`` stores: (views, leader, broken, cards that mattered, low, high)."""
    entries: list[tuple] = []
    store = Table.store

    def spy(table, bucket, views, rel, low, high):
        entries.append((views, bucket[0], bucket[1], rel, low, high))
        store(table, bucket, views, rel, low, high)
    with monkeypatch.context() as patch:
        patch.setattr(Table, "store", spy)
        Search(rs, pos, goal).value()
    return entries


def _matching(rs, entry: tuple, rng: random.Random) -> tuple[Position, bool]:
    """A position the entry matches: per suit, the cards down to the lowest that mattered stay with their
    holders; the suit's cards below are dealt afresh among the seats that held them (same lengths).  And
    whether it differs from the position the entry was stored for."""
    views, leader, broken, rel = entry[:4]
    hands, changed = [0, 0, 0, 0], False
    for view in views:
        seats = [view.codes[k] & 3 for k in range(1, len(view.cards) + 1)]    # the holders, highest first
        depth = view.depth(rel)
        low = seats[depth:]
        rng.shuffle(low)
        changed = changed or low != seats[depth:]
        for card, seat in zip(view.cards, seats[:depth] + low):
            hands[seat] |= 1 << card
    size = hands[leader].bit_count()
    live = hands[0] | hands[1] | hands[2] | hands[3]
    return Position(hands, leader, [], rs.params["deal.hand_size"] - size + 1, broken, rs.deck & ~live), changed


@pytest.mark.parametrize("variant", ["standard", "tournament", "bridge"])
def test_entries_hold_for_matching_positions_minimax(variant, monkeypatch):
    """Positions of three tricks, for a side and for one seat: each stored bound holds for positions
    the entry matches, by plain minimax."""
    rs = load_ruleset(BRIDGE_SPADES if variant == "bridge" else variant)
    rng = random.Random(variant)
    checked = reshuffled = 0
    for k in range(30):
        pos = random_position(rs, rng, 3)
        pos.broken = pos.broken and k % 3 != 0
        for goal in (NS, EW, Goal.of_team(k % 2, 1 << rng.randrange(4))):
            for entry in _stored(rs, pos, goal, monkeypatch):
                for _ in range(2):
                    other, changed = _matching(rs, entry, rng)
                    value = minimax(at_position(rs, other), goal)
                    assert entry[4] <= value <= entry[5], (variant, goal, pos, other, entry[3:], value)
                    checked += 1
                    reshuffled += changed
    assert checked > 200 and reshuffled > 50     # the entries are many, and most match other positions


def test_entries_hold_for_matching_positions_dds(monkeypatch):
    """Bridge deals of five to seven cards: each stored N/S bound holds for positions the entry
    matches, by DDS."""
    pytest.importorskip("endplay")
    rs = load_ruleset(BRIDGE_SPADES)
    rng = random.Random(6)
    checked = reshuffled = 0
    for _ in range(22):
        pos = random_position(rs, rng, rng.randint(5, 7))
        if pos.trick:
            continue
        entries = _stored(rs, pos, NS, monkeypatch)
        for entry in rng.sample(entries, min(len(entries), 40)):
            other, changed = _matching(rs, entry, rng)
            value = dds_tricks(other)
            assert entry[4] <= value <= entry[5], (pos, other, entry[3:], value)
            checked += 1
            reshuffled += changed
    assert checked > 200 and reshuffled > 50
