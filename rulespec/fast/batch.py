"""Play many hands in lockstep with the vector back end.

Same rules and the same order of decisions as ``engine.play_hand`` (bids from
the first bidder round the table, a nil partner's raise, the blind-nil
exchange, legal cards by the play constraints in priority order, trump
breaking, trick winner, hand score), evaluated on arrays: one element per
hand.  Choices are made by a policy over the legal options: ``random``
(uniform, from a numpy generator), ``sensible`` (the lowered form's player,
``procedure.players``), or deterministic ones that tests replay in
the scalar engine hand by hand: ``lowest`` (the first legal bid, the lowest
legal card) and ``hashed`` (option ``hash_key(...) % count`` of the ordered
options, varied by the seat's dealt cards and the hand's progress).
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..core import cards as C
from ..errors import GameError
from ..model.ruleset import Ruleset
from .array_hand import array_module


@functools.lru_cache(maxsize=1)
def _select_table() -> np.ndarray:
    """For every 16-bit value v and k < 16: the position of v's k-th set bit, at ``16 * v + k`` (flat)."""
    values = np.arange(1 << 16, dtype=np.int64)
    bits = ((values[:, None] >> np.arange(16)) & 1).astype(bool)
    return np.argsort(~bits, axis=1, kind="stable").astype(np.int8).reshape(-1)   # set bits first, ascending


def select_bit(masks: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Id of the k-th (0-based, lowest first) set bit of each mask (``k`` below the mask's popcount; any
    id otherwise): the 16-bit lane that holds it from the popcounts of the lower 16, 32 and 48 bits, then
    a table of 16-bit values."""
    below = [np.bitwise_count(masks & ((1 << bits) - 1)) for bits in (16, 32, 48)]
    past = [k >= count for count in below]
    before = np.where(past[2], below[2], np.where(past[1], below[1], np.where(past[0], below[0], 0)))
    shift = (past[0].view(np.int8) + past[1].view(np.int8) + past[2].view(np.int8)) << 4
    return np.add(shift, _select_table()[((masks >> shift) & 0xFFFF) * 16 + ((k - before) & 15)], dtype=np.int64)


Key = Callable[[], np.ndarray] | None     # the 'hashed' policy's keys, computed only for that policy


def hash_key(dealt, step):
    """The 'hashed' policy's key for a decision: the seat's dealt (or current) cards and a step number.
    Works on ints and on int64 arrays alike."""
    return dealt % 9973 + 7 * step


@dataclass
class BatchResult:
    """Per-hand outcomes, one row per hand."""
    bid_kind: np.ndarray      # (N, P) codes: 0 regular, 1 nil, 2 blind nil, 3 blind team bid (P = Table.places,
    bid_n: np.ndarray         # (N, P)  at least 4: a table of fewer seats leaves the last ones pending, no tricks)
    tricks: np.ndarray        # (N, P) tricks won per seat
    points: np.ndarray        # (N, sides) hand points per side (two partnerships, or one per player alone)
    bags_added: np.ndarray    # (N, sides)
    bags: np.ndarray          # (N, sides) bags after the hand (penalties applied)
    deals: np.ndarray         # (N, seats) dealt hands as masks
    dealer: np.ndarray        # (N,) the dealer's seat
    plays: np.ndarray         # (N, size, P) card ids of each trick in play order, from its leader
    leaders: np.ndarray       # (N, size) the seat that led each trick
    winners: np.ndarray       # (N, size) the seat that won each trick
    gave: np.ndarray          # (N, P) blind-nil exchange: the cards each seat gave (masks; 0 none)
    received: np.ndarray      # (N, P) the cards each such seat got back
    kitty: np.ndarray         # (N, 2) the kitty (deal.kitty): the cards the dealer took, the cards it discarded
    opening: np.ndarray       # (N, P) each seat's bid number as bid, before any raise (a nil's partner, the round)
    stock: np.ndarray         # (N, pack) where the hands are drawn (deal.draw): the stock, top card first (else (N, 0))
    drawn: np.ndarray         # (N, seats * size) each draw's choice: 1 the top card kept, 0 the next (else (N, 0))

    def __len__(self) -> int:
        return len(self.points)


def draw_widths(rs: Ruleset) -> tuple[int, int]:
    """The columns of a result's ``stock`` and ``drawn``: the pack's cards and the draws where the hands are drawn
    (``deal.draw``), else none."""
    if not rs.params["deal.draw"]:
        return 0, 0
    return rs.deck.bit_count(), rs.params["table.seats"] * rs.params["deal.hand_size"]


class BatchEngine:
    """A ruleset's array functions (``array_hand``), and its ``whole_hand`` played for many hands at once by
    a policy's choices."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.module = array_module(rs)
        self.size: int = rs.params["deal.hand_size"]
        self.table = C.table_of(rs.params)
        self.deck = np.asarray(C.card_list(rs.deck), dtype=np.int64)

    # ------------------------------------------------------------------ deal
    def deal(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """``count`` random deals as an (N, seats) array of masks."""
        return self.dealt(self.shuffled(rng, count))

    def shuffled(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """``count`` random orders of the pack, (N, pack) card ids: the deal's order, the stock where the hands
        are drawn."""
        return self.deck[np.argsort(rng.random((count, len(self.deck))), axis=1)]

    def dealt(self, packs: np.ndarray) -> np.ndarray:
        """The deal of each order of the pack ``packs``: (N, seats) masks, ``deal.hand_size`` cards each in turn."""
        seats, count = self.table.seats, len(packs)
        cards = packs[:, : seats * self.size].reshape(count, seats, self.size)
        return np.bitwise_or.reduce(np.left_shift(1, cards), axis=2)

    # ------------------------------------------------------------------ choices
    @staticmethod
    def _k(count: np.ndarray, policy: str, rng: np.random.Generator, key: Key) -> np.ndarray:
        """Which of ``count`` ordered options to take: 0, ``key() % count``, or uniform."""
        if policy == "lowest":
            return np.zeros(len(count), dtype=np.int64)
        if policy == "hashed":
            return key() % np.maximum(count, 1)
        return (rng.random(len(count)) * count).astype(np.int64)

    def _choose(self, options: np.ndarray, policy: str, rng: np.random.Generator, key: Key = None) -> np.ndarray:
        """Index of the chosen option of each row (-1 where there is none): ``options`` (K, N), nonzero where an
        option is open, as the bits of one mask per row, chosen as a card is (at most 2 * 13 + 3 bids: a pack of
        54 cards deals 13 at most)."""
        shifts = np.arange(len(options), dtype=np.int64)[:, None]
        masks = np.bitwise_or.reduce((options != 0) << shifts, axis=0)
        return np.where(masks != 0, self._choose_card(masks, policy, rng, key), -1)

    def _choose_card(self, legal: np.ndarray, policy: str, rng: np.random.Generator, key: Key = None) -> np.ndarray:
        """The chosen card of each legal mask (cards ordered by id)."""
        return select_bit(legal, self._k(np.bitwise_count(legal), policy, rng, key))

    def _pick_cards(self, masks: np.ndarray, count: int, policy: str, rng: np.random.Generator) -> np.ndarray:
        """``count`` cards of each mask: random, or the lowest for the deterministic policies."""
        out = np.zeros(len(masks), dtype=np.int64)
        left = masks.copy()
        for _ in range(count):
            card = self._choose_card(left, "random" if policy == "random" else "lowest", rng)
            bit = np.left_shift(1, card)
            out |= bit
            left &= ~bit
        return out

    def _choosers(self, policy: str, rng: np.random.Generator, dealt: np.ndarray) -> dict[str, Callable]:
        """The players' decisions of ``whole_hand`` under ``policy`` (``hashed``: keyed by the seat's cards;
        ``sensible``: the lowered form's player, ``procedure.players``, as array functions)."""
        size = self.size
        if policy == "sensible":
            m = self.module
            return {"_choose_bid": m.sensible_bid, "_choose_raise": m.sensible_raise,
                    "_choose_cards": m.sensible_cards, "_choose_discard": m.sensible_discard,
                    "_choose_keep": m.sensible_keep, "_choose_card": m.sensible_card}

        def bid(rows, seat, options, count, hand, *known):
            return self._choose(options, policy, rng, lambda: hash_key(hand, 13 + size))

        def raise_(rows, seat, options, count, hand):
            return self._choose(options, policy, rng, lambda: hash_key(hand, 14 + size))

        def cards(rows, seat, hand, count, kind):
            return self._pick_cards(np.broadcast_to(hand, (len(rows),)).copy(), count, policy, rng)

        def discard(rows, seat, hand, count):
            return self._pick_cards(np.broadcast_to(hand, (len(rows),)).copy(), count, policy, rng)

        def keep(rows, seat, card, hand, turn):
            return self._k(np.full(len(rows), 2), policy, rng, lambda: hash_key(hand, turn))

        def card(rows, seat, allowed, trick, position, hand, number, *known):
            return self._choose_card(allowed, policy, rng, lambda: hash_key(dealt[seat, rows], number))
        return {"_choose_bid": bid, "_choose_raise": raise_, "_choose_cards": cards, "_choose_discard": discard,
                "_choose_keep": keep, "_choose_card": card}

    # ------------------------------------------------------------------ the hand
    def play(self, count: int, seed: int = 0, policy: str = "random", dealer: int = 0,
             deals: np.ndarray | None = None) -> BatchResult:
        """Deal (or take ``deals``), bid, exchange, play and score ``count`` hands from 0-0."""
        rng = np.random.default_rng(seed)
        stock_width, turns = draw_widths(self.rs)
        if deals is None:
            packs = self.shuffled(rng, count)
            dealt = self.dealt(packs)
        elif stock_width:
            raise GameError(f"variant '{self.rs.id}' draws its hands from the stock (deal.draw): it plays from a "
                            "shuffled pack, not from given deals", "deals", "deal.draw",
                            self.rs.rules["deal.draw"].cite)
        else:
            dealt = np.array(deals, dtype=np.int64)
            packs = np.zeros((len(dealt), 0), dtype=np.int64)
        n, size, sides, places = len(dealt), self.size, self.table.sides, self.table.places
        hands = np.zeros((C.MAX_SEATS, n), dtype=np.int64)   # (the array functions keep the hands on the last axis)
        hands[:dealt.shape[1]] = dealt.T

        def zeros(*shape: int, dtype=np.int64) -> np.ndarray:
            return np.zeros((*shape, n), dtype=dtype)
        kind, num, opening, won = zeros(places), zeros(places), zeros(places), zeros(places)
        points, bags_added, bags_after = zeros(sides), zeros(sides), zeros(sides)
        plays, leaders = zeros(size, places, dtype=np.int8), zeros(size, dtype=np.int8)
        winners, gave, received, kitty = zeros(size), zeros(places), zeros(places), zeros(2)
        stock, drawn, drawn_hands = packs[:, :stock_width].T.copy(), zeros(turns), hands.copy()
        choosers = self._choosers(policy, rng, drawn_hands)     # (the hands as dealt, or once drawn)
        self.module.whole_hand(np.arange(n), hands, np.full(n, dealer, dtype=np.int64), zeros(sides), zeros(sides),
                               kind, num,
                               opening, won, points, bags_added, bags_after, plays, leaders, winners, gave, received,
                               kitty, stock, drawn, drawn_hands, zeros(2 * size + 3), zeros(size + 1),
                               *(choosers[name] for name in self.module.choosers["whole_hand"]))
        if stock_width:
            dealt = drawn_hands[:self.table.seats].T
        # (the arrays keep the rows on their last axis: each result is a view with the rows first, not a copy)
        return BatchResult(*(np.moveaxis(a, -1, 0) for a in (kind, num, won, points, bags_added, bags_after)), dealt,
                           np.full(n, dealer, dtype=np.int64),
                           *(np.moveaxis(a, -1, 0) for a in (plays, leaders, winners, gave, received, kitty, opening,
                                                             stock, drawn)))
