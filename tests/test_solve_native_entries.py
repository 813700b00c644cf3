"""Every relevant-card entry the compiled search leaves in its table holds, by plain minimax, for
positions it matches — decoded from the table's arrays (``native_arrays``: a bucket of the leader, the
broken flag and every seat's length in every suit; per suit the holders of its top cards down to the
lowest that mattered), the suits' cards chosen afresh (the key is rank-normalised) and the cards below
the ones that mattered dealt afresh among the seats that hold them.  The compiled twin of
``test_solve_partition``'s check: a bound that relies on cards it does not mark fails it."""
from __future__ import annotations

import random

import pytest

from rulespec.model.ruleset import Ruleset, load_ruleset
from rulespec.solve import native_arrays as S
from rulespec.solve.native import NativeSearch, native_module, searcher
from rulespec.solve.search import Position
from rulespec.solve.symmetry import suit_orders
from solve_helpers import BRIDGE_SPADES, EW, NS, at_position, minimax, random_position


def _entries(search: NativeSearch) -> list[dict]:
    """The relevant-card entries in the search's table, decoded."""
    out = []
    generation = int(search.st[S.ST_GEN])
    for e in range(search.tk.shape[0]):
        k0, k1, k2, k3, bounds = (int(v) for v in search.tk[e])
        if bounds >> S.GEN_SHIFT != generation or not k0 & S.PARTITION_KEY:
            continue
        holders = []
        for code in (k2 & 0xFFFFFFFF, k2 >> 32, k3 & 0xFFFFFFFF, k3 >> 32):
            depth = (code.bit_length() - 1) // 2        # the holders follow a leading 1, two bits each
            holders.append([code >> 2 * (depth - 1 - i) & 3 for i in range(depth)])
        out.append({"lengths": [[(k0 if suit < 2 else k1) >> (16 * suit + 4 * seat) & 15 for seat in range(4)]
                                for suit in range(4)],
                    "leader": k0 >> 32 & 3, "broken": bool(k0 >> 34 & 1), "holders": holders,
                    "low": bounds & 255, "high": bounds >> 8 & 255})
    return out


def _matching(rs: Ruleset, entry: dict, rng: random.Random) -> Position:
    """A position the entry matches: per suit, cards of the suit (any, in their order of power) with the
    top ones held as the entry says and the rest dealt at random to fill each seat's length."""
    hands = [0, 0, 0, 0]
    for suit, order in enumerate(suit_orders(rs)):
        lengths, top = entry["lengths"][suit], entry["holders"][suit]
        cards = sorted(rng.sample(order, sum(lengths)), key=order.index)
        rest = [seat for seat in range(4) for _ in range(lengths[seat] - top.count(seat))]
        assert len(rest) + len(top) == len(cards), entry       # the decoding agrees with itself
        rng.shuffle(rest)
        for card, seat in zip(cards, top + rest):
            hands[seat] |= 1 << card
    live = hands[0] | hands[1] | hands[2] | hands[3]
    left = hands[entry["leader"]].bit_count()
    return Position(hands, entry["leader"], [], rs.params["deal.hand_size"] - left + 1, entry["broken"],
                    rs.deck & ~live)


@pytest.mark.parametrize("variant", ["standard", "tournament", "bridge"])
def test_compiled_entries_hold_for_matching_positions(variant):
    rs = load_ruleset(BRIDGE_SPADES if variant == "bridge" else variant)
    native_module(rs)
    rng = random.Random(variant)
    checked = 0
    for k in range(20):
        pos = random_position(rs, rng, 4)
        pos.broken = pos.broken and k % 3 != 0
        for goal in (NS, EW):
            search = searcher(rs, pos, goal)
            assert isinstance(search, NativeSearch)
            search.value()
            entries = _entries(search)
            for entry in rng.sample(entries, min(len(entries), 8)):
                other = _matching(rs, entry, rng)
                value = minimax(at_position(rs, other), goal)
                assert entry["low"] <= value <= entry["high"], (variant, goal, pos, other, entry, value)
                checked += 1
    assert checked > 150
