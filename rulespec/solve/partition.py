"""Transposition entries on the relevant cards only (partition search), where the rules allow it.

A bound found by searching a position at a trick boundary depends on fewer cards than the whole
position.  In a ruleset shown to play follow-suit, trump-wins tricks after the first
(``quick.Shape``) whose trump-breaking rule reads no rank (``rank_free_breaks``), swap the cards of
each suit *below the lowest card that mattered* for any others of that suit, keeping each seat's
count of them: every legal set maps to the mapped legal set (they read only suits, counts and
membership), trumps break alike, and every trick the search played is won by the same card (the
winner is the highest trump, or the highest of the suit led, and it is a card that mattered, above
every card swapped).  So the search's proof holds for every position that agrees on the cards that
mattered (who holds each, in order of power) and on each seat's number of cards of each suit.

The cards that matter in a subtree (``Search``'s ``rel``): every card that won a trick in it, the
cards the entries it hit relied on (mapped to the position they were hit in), and the whole suits a
sure-trick bound it used reads.  An entry records, for each suit, its cards down to the lowest card
that mattered (as the seats that hold them, highest first: rank-normalised), with each seat's
length in every suit, the leader and whether trumps are broken.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ..model.ruleset import Ruleset
from ..procedure.python import inline_text

# the nodes a rank-free trump-breaking rule may have: suits, identities, membership, no order
_RANK_FREE = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.Invert, ast.Compare,
              ast.Eq, ast.NotEq, ast.Name, ast.Load, ast.Subscript, ast.Constant, ast.BinOp, ast.BitAnd,
              ast.BitOr)
_ORDERED_TABLES = frozenset({"_POW", "_RANK", "_NSUIT", "_hi", "_lo", "_iter"})


def rank_free_breaks(rs: Ruleset) -> bool:
    """Whether ``rs``'s ``{trump.breaks}`` reads only suits, identities and membership (no rank,
    no power, no highest or lowest): then it answers alike for cards swapped within a suit."""
    tree = ast.parse(inline_text(rs, "trump.breaks", ("card", "hand", "leading", "led", "number")), mode="eval")
    return all(isinstance(node, _RANK_FREE) and not (isinstance(node, ast.Name) and node.id in _ORDERED_TABLES)
               for node in ast.walk(tree))


@dataclass(frozen=True)
class SuitView:
    """One suit's live cards at a position: each seat's length (4 bits a seat), the cards highest
    first, and for each k the top-k cards as the seats holding them (``codes[k]``) and as a mask."""
    lengths: int
    cards: tuple[int, ...]
    codes: tuple[int, ...]
    tops: tuple[int, ...]
    depths: dict[int, int] = field(default_factory=dict, compare=False)    # ``depth``'s answers

    @staticmethod
    def of(order: tuple[int, ...], parts: tuple[int, int, int, int]) -> SuitView:
        """The view of the seats' cards ``parts`` of a suit whose cards are ``order`` (highest first)."""
        cards, codes, tops = [], [1], [0]
        for card in order:
            for seat in range(4):
                if parts[seat] >> card & 1:
                    cards.append(card)
                    codes.append(codes[-1] << 2 | seat)
                    tops.append(tops[-1] | 1 << card)
                    break
        lengths = sum(parts[seat].bit_count() << 4 * seat for seat in range(4))
        return SuitView(lengths, tuple(cards), tuple(codes), tuple(tops))

    def depth(self, rel: int) -> int:
        """How many of the suit's cards, from the top, reach down to the lowest card in ``rel``."""
        rel &= self.tops[-1]
        depth = self.depths.get(rel)
        if depth is None:
            depth = self.depths[rel] = next((k for k in range(len(self.cards), 0, -1)
                                             if rel >> self.cards[k - 1] & 1), 0)
        return depth


class Table:
    """Lower and upper bounds keyed on the cards that mattered (see the module's text).

    A bucket (leader, broken, every seat's suit lengths) lists the depth vectors its entries use; a
    look-up tries each, most recent first."""

    def __init__(self, orders: tuple[tuple[int, ...], ...]):
        self.orders = orders
        self.views: dict[tuple[int, int, int, int], SuitView] = {}
        self.depths: dict[tuple, list[tuple[int, int, int, int]]] = {}
        self.entries: dict[tuple, list[int]] = {}      # key -> [low, high]

    def view(self, hands: list[int], masks: tuple[int, ...]) -> tuple[SuitView, ...]:
        """Each suit's view of ``hands``."""
        out = []
        for suit, mask in enumerate(masks):
            parts = (hands[0] & mask, hands[1] & mask, hands[2] & mask, hands[3] & mask)
            view = self.views.get(parts)
            if view is None:
                view = self.views[parts] = SuitView.of(self.orders[suit], parts)
            out.append(view)
        return tuple(out)

    @staticmethod
    def bucket(leader: int, broken: bool, views: tuple[SuitView, ...]) -> tuple:
        return (leader, broken, views[0].lengths, views[1].lengths, views[2].lengths, views[3].lengths)

    def look(self, bucket: tuple, views: tuple[SuitView, ...], need: int) -> tuple[bool | None, int]:
        """Whether an entry decides ``need`` (True: reached, False: not, None: none does) and the cards
        it relied on."""
        a, b, c, d = views
        for da, db, dc, dd in self.depths.get(bucket, ()):
            entry = self.entries.get((bucket, a.codes[da], b.codes[db], c.codes[dc], d.codes[dd]))
            if entry is not None and (entry[0] >= need or entry[1] < need):
                return entry[0] >= need, a.tops[da] | b.tops[db] | c.tops[dc] | d.tops[dd]
        return None, 0

    def store(self, bucket: tuple, views: tuple[SuitView, ...], rel: int, low: int, high: int) -> None:
        """Narrow to [low, high] the entry of the position's cards that ``rel`` marks as mattering."""
        depths = (views[0].depth(rel), views[1].depth(rel), views[2].depth(rel), views[3].depth(rel))
        key = (bucket, *(view.codes[k] for view, k in zip(views, depths)))
        entry = self.entries.get(key)
        if entry is None:
            self.entries[key] = [low, high]
            known = self.depths.setdefault(bucket, [])
            if depths in known:
                known.remove(depths)
            known.insert(0, depths)
        else:
            entry[0], entry[1] = max(entry[0], low), min(entry[1], high)
