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
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core import cards as C
from ..lang.compiler import NONE
from ..game import BLIND, BLIND_NIL, NIL, REGULAR, applicable_constraints, bid_candidates
from ..errors import DeadEndError
from ..model.ruleset import Ruleset
from .vector import vector_rules

_KIND_CODE = {REGULAR: 0, NIL: 1, BLIND_NIL: 2, BLIND: 3}


@functools.lru_cache(maxsize=1)
def _select_table() -> tuple[np.ndarray, np.ndarray]:
    """For every 16-bit chunk: its popcount, and the position of its k-th set bit."""
    chunks = np.arange(1 << 16, dtype=np.int64)
    bits = ((chunks[:, None] >> np.arange(16)) & 1).astype(bool)
    counts = bits.sum(axis=1)
    order = np.argsort(~bits, axis=1, kind="stable").astype(np.int8)   # set-bit positions first, ascending
    return counts, order


def select_bit(masks: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Id of the k-th (0-based, lowest first) set bit of each mask."""
    counts, order = _select_table()
    out = np.full(len(masks), -1, dtype=np.int64)
    k = k.copy()
    todo = np.ones(len(masks), dtype=bool)
    for base in range(0, C.NUM_CARDS, 16):
        chunk = (masks >> base) & 0xFFFF
        here = todo & (k < counts[chunk])
        out[here] = base + order[chunk[here], k[here]]
        k -= np.where(todo & ~here, counts[chunk], 0)
        todo &= ~here
    return out


def narrow(hand: np.ndarray, permitted: Sequence[np.ndarray], card_bit: np.ndarray | None = None
           ) -> tuple[np.ndarray, np.ndarray | None]:
    """Vector ``engine._narrow``: each constraint's permitted cards (already ``& hand``), in priority
    order, narrow the legal set unless they allow the whole hand, none of it, or none of what the
    earlier ones left (the same conflict resolution).  Returns the legal sets and, given ``card_bit``,
    the position in ``permitted`` of the first applied constraint that excludes that card (-1: none)."""
    allowed = hand
    first = None if card_bit is None else np.full(len(hand), -1, dtype=np.int64)
    for k, allows in enumerate(permitted):
        joint = allowed & allows
        apply = (allows != hand) & (allows != 0) & (joint != 0)
        if card_bit is not None:
            first = np.where((first < 0) & apply & ((allows & card_bit) == 0), k, first)
        allowed = np.where(apply, joint, allowed)
    return allowed, first


def hash_key(dealt, step):
    """The 'hashed' policy's key for a decision: the seat's dealt (or current) cards and a step number.
    Works on ints and on int64 arrays alike."""
    return dealt % 9973 + 7 * step
_KIND_NAME = np.array(["regular", "nil", "blind_nil", "blind", "pending"])
PENDING = 4


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

    def __len__(self) -> int:
        return len(self.points)


class BatchEngine:
    """A ruleset's array rules plus the lockstep hand loop."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.fn = vector_rules(rs)
        self.size = rs.params["deal.hand_size"]
        self.suit_of = np.asarray(rs.suit_of, dtype=np.int64)
        self.deck = np.asarray(C.card_list(rs.deck), dtype=np.int64)
        self.candidates = bid_candidates(rs)
        self.cand_kind = np.array([_KIND_CODE[b.kind] for b in self.candidates])
        self.cand_n = np.array([b.n for b in self.candidates])

    # ------------------------------------------------------------------ deal
    def deal(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """``count`` random deals as an (N, 4) array of masks."""
        order = np.argsort(rng.random((count, len(self.deck))), axis=1)
        cards = self.deck[order][:, : 4 * self.size].reshape(count, 4, self.size)
        return np.bitwise_or.reduce(np.left_shift(1, cards), axis=2)

    # ------------------------------------------------------------------ choices
    @staticmethod
    def _k(count: np.ndarray, policy: str, rng: np.random.Generator, key) -> np.ndarray:
        """Which of ``count`` ordered options to take: 0, ``key % count``, or uniform."""
        if policy == "lowest":
            return np.zeros(len(count), dtype=np.int64)
        if policy == "hashed":
            return key % np.maximum(count, 1)
        return (rng.random(len(count)) * count).astype(np.int64)

    def _choose(self, valid: np.ndarray, policy: str, rng: np.random.Generator, key=None) -> np.ndarray:
        """Index of the chosen True of each row."""
        k = self._k(valid.sum(axis=1), policy, rng, key)
        return np.argmax(np.cumsum(valid, axis=1) == (k + 1)[:, None], axis=1)

    def _choose_card(self, legal: np.ndarray, policy: str, rng: np.random.Generator, key=None) -> np.ndarray:
        """The chosen card of each legal mask (cards ordered by id)."""
        return select_bit(legal, self._k(np.bitwise_count(legal).astype(np.int64), policy, rng, key))

    # ------------------------------------------------------------------ bids
    def _team_ok(self, kinds: np.ndarray, ns: np.ndarray, scores, bags, team: int, skip_min: np.ndarray) -> np.ndarray:
        """Vector ``engine.team_refusals(...) == []`` for pairs given as (N, 2) kinds and numbers."""
        regular = kinds == 0
        total = np.where(regular, ns, 0).sum(axis=1)
        args = (total, regular.sum(axis=1), (kinds == 1).sum(axis=1), (kinds == 2).sum(axis=1),
                (kinds == 3).sum(axis=1), scores[team], bags[team], scores[1 - team], bags[1 - team])
        fn = self.fn
        contract = fn["bid.team_contract"](*args)
        low, high = fn["bid.team_min"](*args), fn["bid.team_max"](*args)
        has_regular = regular.any(axis=1)
        ok = ~has_regular | (((contract >= low) | skip_min) & (contract <= high))
        blind = kinds == 3
        blind_mismatch = blind.any(axis=1) & ~(blind.all(axis=1) & (ns[:, 0] == ns[:, 1]))
        return ok & np.asarray(fn["bid.team_valid"](*args), dtype=bool) & ~blind_mismatch

    def _bid_round(self, hands, dealer, scores, bags, policy, rng):
        n = len(hands)
        rows = np.arange(n)
        kind = np.full((n, 4), PENDING)
        num = np.zeros((n, 4), dtype=np.int64)
        first = np.broadcast_to(self.fn["deal.first_bidder"](dealer), (n,))
        may_raise = bool(self.rs.params["nil.partner_may_raise"])
        K = len(self.candidates)
        for k in range(4):
            seat = (first + k) % 4
            partner = (seat + 2) % 4
            team = seat % 2
            pkind, pn = kind[rows, partner], num[rows, partner]
            my = [np.where(team == 0, scores[0], scores[1]), np.where(team == 0, bags[0], bags[1]),
                  np.where(team == 0, scores[1], scores[0]), np.where(team == 0, bags[1], bags[0])]
            head = (hands[rows, seat], seat, dealer, (seat - first) % 4 + 1, _KIND_NAME[pkind], pn)
            args = head + (0,) + tuple(my)
            fn = self.fn
            low = np.broadcast_to(fn["bid.regular_min"](*args), (n,))
            high = np.broadcast_to(fn["bid.regular_max"](*args), (n,))
            valid = np.zeros((n, K), dtype=bool)
            for j, cand in enumerate(self.candidates):
                if cand.kind == REGULAR:
                    valid[:, j] = (low <= cand.n) & (cand.n <= np.minimum(high, self.size))
                elif cand.kind == NIL:
                    valid[:, j] = fn["nil.allowed"](*args)
                elif cand.kind == BLIND_NIL:
                    valid[:, j] = fn["blind_nil.allowed"](*args)
                else:
                    valid[:, j] = fn["blind_bid.allowed"](*head, cand.n, *my)
            has_partner = pkind != PENDING
            if has_partner.any():
                team_scores = (np.where(team == 0, scores[0], scores[1]), np.where(team == 0, scores[1], scores[0]))
                team_bags = (np.where(team == 0, bags[0], bags[1]), np.where(team == 0, bags[1], bags[0]))
                for j, cand in enumerate(self.candidates):
                    pair_k = np.stack([pkind, np.full(n, _KIND_CODE[cand.kind])], axis=1)
                    pair_n = np.stack([pn, np.full(n, cand.n)], axis=1)
                    skip = may_raise & cand.is_nil & (pkind == 0)
                    ok = self._team_ok(pair_k, pair_n, team_scores, team_bags, 0, np.full(n, skip))
                    valid[:, j] &= np.where(has_partner, ok, True)
                blind_partner = pkind == 3
                if blind_partner.any():
                    same = (self.cand_kind == 3)[None, :] & (self.cand_n[None, :] == pn[:, None])
                    valid = np.where(blind_partner[:, None], same, valid)
            if not valid.any(axis=1).all():
                bad = int(np.argmin(valid.any(axis=1)))
                raise DeadEndError(f"{C.SEATS[int(seat[bad] if np.ndim(seat) else seat)]} has no legal bid "
                                   f"(hand {bad} of the batch)", "bids")
            choice = self._choose(valid, policy, rng, hash_key(hands[rows, seat], 13 + self.size))
            kind[rows, seat] = self.cand_kind[choice]
            num[rows, seat] = self.cand_n[choice]
            if may_raise:
                self._raise(kind, num, rows, seat, partner, scores, bags, policy, rng, hands)
        return kind, num

    def _raise(self, kind, num, rows, seat, partner, scores, bags, policy, rng, hands):
        """A nil bidder's partner who bid a regular number before may raise it (engine.play_hand)."""
        mine, theirs = kind[rows, seat], kind[rows, partner]
        eligible = ((mine == 1) | (mine == 2)) & (theirs == 0)
        if not eligible.any():
            return
        team = seat % 2
        team_scores = (np.where(team == 0, scores[0], scores[1]), np.where(team == 0, scores[1], scores[0]))
        team_bags = (np.where(team == 0, bags[0], bags[1]), np.where(team == 0, bags[1], bags[0]))
        current = num[rows, partner]
        options = np.zeros((len(rows), self.size + 1), dtype=bool)
        for value in range(1, self.size + 1):
            pair_k = np.stack([np.zeros(len(rows), dtype=np.int64), mine], axis=1)
            pair_n = np.stack([np.full(len(rows), value), num[rows, seat]], axis=1)
            ok = self._team_ok(pair_k, pair_n, team_scores, team_bags, 0, np.zeros(len(rows), dtype=bool))
            options[:, value] = ok & (value >= current)
        has = eligible & options.any(axis=1)
        choice = self._choose(options, policy, rng, hash_key(hands[rows, partner], 14 + self.size))
        num[rows, partner] = np.where(has, choice, current)

    # ------------------------------------------------------------------ play
    def _exchange(self, hands, kind, policy, rng):
        count = self.rs.params["blind_nil.exchange"]
        if not count:
            return
        rows = np.arange(len(hands))
        for seat in range(4):
            active = kind[:, seat] == 2
            if not active.any():
                continue
            partner = (seat + 2) % 4
            give = self._pick_cards(hands[:, seat], count, policy, rng)
            back = self._pick_cards(hands[:, partner], count, policy, rng)
            give, back = np.where(active, give, 0), np.where(active, back, 0)
            hands[rows, seat] = (hands[:, seat] & ~give) | back
            hands[rows, partner] = (hands[:, partner] & ~back) | give

    def _pick_cards(self, masks, count, policy, rng):
        """``count`` cards of each mask: random, or the lowest for the deterministic policies."""
        out = np.zeros(len(masks), dtype=np.int64)
        left = masks.copy()
        for _ in range(count):
            card = self._choose_card(left, "random" if policy == "random" else "lowest", rng)
            bit = np.left_shift(1, card)
            out |= bit
            left &= ~bit
        return out

    def _legal(self, hand, trick_mask, led, number, position, broken, played) -> np.ndarray:
        """The legal cards of each hand (the play constraints of the situation, by ``narrow``)."""
        leading = position == 1
        args = (hand, trick_mask, led, number, position, leading, broken, played)
        return narrow(hand, [np.asarray(self.fn[name](*args)) & hand
                             for name in applicable_constraints(leading, number == 1)])[0]

    def play(self, count: int, seed: int = 0, policy: str = "random", dealer: int = 0,
             deals: np.ndarray | None = None) -> BatchResult:
        """Deal (or take ``deals``), bid, exchange, play and score ``count`` hands from 0-0."""
        rng = np.random.default_rng(seed)
        hands = self.deal(rng, count) if deals is None else np.array(deals, dtype=np.int64)
        dealt = hands.copy()
        n = len(hands)
        rows = np.arange(n)
        zeros = np.zeros(n, dtype=np.int64)
        scores, bags = (zeros, zeros), (zeros, zeros)
        dealer_arr = np.full(n, dealer, dtype=np.int64)
        kind, num = self._bid_round(hands, dealer_arr, scores, bags, policy, rng)
        self._exchange(hands, kind, policy, rng)
        leader = np.broadcast_to(self.fn["play.first_leader"](dealer_arr), (n,)).copy()
        broken = np.zeros(n, dtype=bool)
        played = zeros.copy()
        tricks = np.zeros((n, 4), dtype=np.int64)
        fn = self.fn
        last_cards = np.zeros((n, 4), dtype=np.int64)
        last_winner = zeros.copy()
        for number in range(1, self.size + 1):
            trick_mask = zeros.copy()
            led = np.full(n, NONE, dtype=np.int64)
            cards = np.zeros((n, 4), dtype=np.int64)
            for pos in range(4):
                seat = (leader + pos) % 4
                hand = hands[rows, seat]
                legal = self._legal(hand, trick_mask, led, number, pos + 1, broken, played)
                card = self._choose_card(legal, policy, rng, hash_key(dealt[rows, seat], number))
                broken |= np.asarray(fn["trump.breaks"](card, hand, pos == 0, led, number), dtype=bool)
                bit = np.left_shift(1, card)
                hands[rows, seat] = hand & ~bit
                played |= bit
                trick_mask |= bit
                cards[:, pos] = card
                if pos == 0:
                    led = self.suit_of[card]
            win_card = fn["trick.winner"](trick_mask, led, number, cards[:, 0])
            win_pos = np.argmax(cards == np.asarray(win_card)[:, None], axis=1)
            winner = (leader + win_pos) % 4
            tricks[rows, winner] += 1
            if number == self.size:
                for pos in range(4):
                    last_cards[rows, (leader + pos) % 4] = cards[:, pos]
                last_winner = winner
            leader = winner
        points, bags_added, bags_after = self._score(kind, num, tricks, last_winner, last_cards)
        return BatchResult(kind, num, tricks, points, bags_added, bags_after, dealt)

    # ------------------------------------------------------------------ score
    def _score(self, kind, num, tricks, last_winner, last_cards, scores=None, bags=None):
        """Vector ``engine._score_team`` for hands with no renege; ``scores`` and ``bags`` before the
        hand are (N, 2) arrays by team (default 0-0 and no bags)."""
        n = len(kind)
        fn, params = self.fn, self.rs.params
        points = np.zeros((n, 2), dtype=np.int64)
        added = np.zeros((n, 2), dtype=np.int64)
        bags_after = np.zeros((n, 2), dtype=np.int64)
        zeros = np.zeros((n, 2), dtype=np.int64)
        scores = zeros if scores is None else scores
        bags = zeros if bags is None else bags
        for team in (0, 1):
            before = (scores[:, team], bags[:, team], scores[:, 1 - team], bags[:, 1 - team])
            seats = (team, team + 2)
            pk, pn = kind[:, seats], num[:, seats]
            regular = pk == 0
            blind = (pk == 3).any(axis=1)
            is_nil = (pk == 1) | (pk == 2)
            has_contract = blind | regular.any(axis=1)
            bid_args = (np.where(regular, pn, 0).sum(axis=1), regular.sum(axis=1), (pk == 1).sum(axis=1),
                        (pk == 2).sum(axis=1), (pk == 3).sum(axis=1), *before)
            contract = np.where(blind, pn[:, 0], np.where(regular.any(axis=1), fn["bid.team_contract"](*bid_args), 0))
            t = tricks[:, seats]
            regular_tricks = np.where(is_nil, 0, t).sum(axis=1)
            nil_tricks = np.where(is_nil, t, 0).sum(axis=1)
            won = regular_tricks + (nil_tricks if params["nil.tricks_count"] else 0)
            made = has_contract & (won >= contract)
            counts_over = made | ~has_contract      # beyond a contract of 0 where both partners bid nil
            beyond = regular_tricks + (nil_tricks if params["nil.tricks_bags"] else 0) - contract
            over = np.where(counts_over, np.maximum(0, beyond), 0)
            nil_made = (is_nil & (t == 0)).sum(axis=1)
            base = (*before, contract, blind, regular_tricks + nil_tricks, regular_tricks, nil_tricks,
                    won, made, over, is_nil.sum(axis=1), nil_made)
            contract_points = np.where(blind, np.where(made, fn["blind_bid.made"](*base), fn["blind_bid.set"](*base)),
                                       np.where(made, fn["scoring.made"](*base), fn["scoring.set"](*base)))
            total = np.where(has_contract, contract_points, 0)
            total = total + np.where(over > 0, fn["scoring.overtrick_points"](*base) * over, 0)
            for i in range(2):
                blind_nil = pk[:, i] == 2
                ok = t[:, i] == 0
                extra = (t[:, i], blind_nil)
                value = np.where(blind_nil,
                                 np.where(ok, fn["blind_nil.made"](*base, *extra), fn["blind_nil.failed"](*base, *extra)),
                                 np.where(ok, fn["nil.made"](*base, *extra), fn["nil.failed"](*base, *extra)))
                total = total + np.where(is_nil[:, i], value, 0)
            team_cards = np.left_shift(1, last_cards[:, team]) | np.left_shift(1, last_cards[:, team + 2])
            win_card = last_cards[np.arange(n), last_winner]
            nil_cards = sum(np.where(is_nil[:, i], np.left_shift(1, last_cards[:, seats[i]]), 0) for i in range(2))
            total = total + fn["bonus.last_trick"](*base, last_winner % 2 == team, win_card, team_cards, nil_cards)
            bags_added = np.where(counts_over, fn["scoring.bags"](*base), 0)
            total_bags = bags[:, team] + bags_added
            limit = params["bags.limit"]
            if limit > 0:
                hits = total_bags // limit if params["bags.carry"] else (total_bags >= limit).astype(np.int64)
                total = total + hits * params["bags.penalty"]
                total_bags = total_bags - hits * limit if params["bags.carry"] else np.where(hits > 0, 0, total_bags)
            points[:, team] = total
            added[:, team] = bags_added
            bags_after[:, team] = total_bags
        return points, added, bags_after
