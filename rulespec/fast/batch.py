"""Play many hands in lockstep with the vector back end.

Same rules and the same order of decisions as ``engine.play_hand`` (bids from
the first bidder round the table, a nil partner's raise, the blind-nil
exchange, legal cards by the play constraints in priority order, trump
breaking, trick winner, hand score), evaluated on arrays: one element per
hand.  Choices are made by a policy over the legal options: ``random``
(uniform, from a numpy generator), or deterministic ones that tests replay in
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
from ..errors import DeadEndError
from ..model.ruleset import Ruleset
from .hand import BatchHand, HandRules


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
    bid_kind: np.ndarray      # (N, 4) codes: 0 regular, 1 nil, 2 blind nil, 3 blind team bid
    bid_n: np.ndarray         # (N, 4)
    tricks: np.ndarray        # (N, 4) tricks won per seat
    points: np.ndarray        # (N, 2) hand points per team
    bags_added: np.ndarray    # (N, 2)
    bags: np.ndarray          # (N, 2) bags after the hand (penalties applied)
    deals: np.ndarray         # (N, 4) dealt hands as masks
    dealer: np.ndarray        # (N,) the dealer's seat
    plays: np.ndarray         # (N, size, 4) card ids of each trick in play order, from its leader
    leaders: np.ndarray       # (N, size) the seat that led each trick
    winners: np.ndarray       # (N, size) the seat that won each trick
    gave: np.ndarray          # (N, 4) blind-nil exchange: the cards each seat gave (masks; 0 none)
    received: np.ndarray      # (N, 4) the cards each such seat got back

    def __len__(self) -> int:
        return len(self.points)


class BatchEngine:
    """A ruleset's array rules, and ``BatchHand`` driven by a policy for many hands at once."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.rules = HandRules(rs)
        self.size = self.rules.size
        self.deck = np.asarray(C.card_list(rs.deck), dtype=np.int64)

    # ------------------------------------------------------------------ deal
    def deal(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """``count`` random deals as an (N, 4) array of masks."""
        order = np.argsort(rng.random((count, len(self.deck))), axis=1)
        cards = self.deck[order][:, : 4 * self.size].reshape(count, 4, self.size)
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

    def _choose(self, valid: np.ndarray, policy: str, rng: np.random.Generator, key: Key = None) -> np.ndarray:
        """Index of the chosen True of each row (-1 where there is none): the options as the bits of a
        mask, chosen as a card is (at most 2 * 13 + 2 bids: a pack of 54 cards deals 13 at most)."""
        masks = np.zeros((len(valid), 8), dtype=np.uint8)
        packed = np.packbits(valid, axis=1, bitorder="little")
        masks[:, :packed.shape[1]] = packed
        masks = masks.view("<i8").reshape(-1)
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

    # ------------------------------------------------------------------ the hand
    def _bids(self, h: BatchHand, policy: str, rng: np.random.Generator) -> None:
        """Four bids round the table, each followed by the nil partner's raise where the rules allow it."""
        rules, rows = self.rules, h.rows
        raise_key = 14 + self.size

        def choose_raise(options: np.ndarray, seat: np.ndarray) -> np.ndarray:
            return self._choose(options, policy, rng, lambda: hash_key(h.hands[rows, seat], raise_key))
        for _ in range(4):
            seat = h.bidder()
            choice = self._choose(h.legal_bids(), policy, rng, lambda: hash_key(h.hands[rows, seat], 13 + self.size))
            if (choice < 0).any():
                bad = int(np.argmin(choice))
                raise DeadEndError(f"{C.SEATS[int(seat[bad])]} has no legal bid (hand {bad} of the batch)", "bids")
            h.bid(rules.cand_kind[choice], rules.cand_n[choice])
            if rules.params["nil.partner_may_raise"]:
                h.raise_bid(choose_raise)

    def play(self, count: int, seed: int = 0, policy: str = "random", dealer: int = 0,
             deals: np.ndarray | None = None) -> BatchResult:
        """Deal (or take ``deals``), bid, exchange, play and score ``count`` hands from 0-0."""
        rng = np.random.default_rng(seed)
        hands = self.deal(rng, count) if deals is None else np.array(deals, dtype=np.int64)
        dealt = hands.copy()
        h = BatchHand(self.rules, hands, np.full(len(hands), dealer, dtype=np.int64))
        self._bids(h, policy, rng)
        h.exchange(lambda masks, k: self._pick_cards(masks, k, policy, rng))
        for number in range(1, self.size + 1):
            for _ in range(4):
                seat = h.to_play()
                legal = h.legal(seat)[0]
                h.play(self._choose_card(legal, policy, rng, lambda: hash_key(dealt[h.rows, seat], number)), seat)
            h.finish_trick()
        points, bags_added, bags_after = h.score()
        return BatchResult(h.kind, h.num, h.won, points, bags_added, bags_after, dealt, np.asarray(h.dealer),
                           h.plays, h.leaders, h.winners, h.gave, h.received)
