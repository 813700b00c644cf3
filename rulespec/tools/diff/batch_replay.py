"""Replay many transcripts under one variant at once, on the vector back end (``fast.batch_hand.BatchHand``).

``replay.replay`` stays the reference.  This computes the same stage values
(``Outcome.sig``) and the rule behind the first forbidden bid or card for a
whole batch of transcripts with numpy; notes and situations, which only the
report's examples need, are built when asked for (``Outcome.note``, and
``Outcome.full`` by the scalar replay).  A transcript this cannot take (a play of another length
than the variant's hands, a trick winner outside the trick, an error in a
rule) is replayed by the scalar path instead.
"""
from __future__ import annotations

import itertools
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...core import cards as C
from ...core.schema import PLAY_CONSTRAINTS
from ...errors import RulespecError
from ...fast.array_hand import tables_digest
from ...fast.batch_hand import BID_RULES, KIND_CODE, BatchHand, HandRules
from ...game.steps import steps_of
from ...model.ruleset import Ruleset
from .replay import DEALT, Outcome, Transcript, first_leader_rule, play_signature, replay

# the rules that can forbid a card: a card outside the pack, the play constraints, then (the first card played
# by another seat than the first leader) the rule that names the first leader
CARD_RULES = ("deck.cards", *PLAY_CONSTRAINTS, "play.first_leader", "play.first_leader_by")


@dataclass
class _Batch:
    """Transcripts as arrays, one row each."""
    ts: list[Transcript]
    dealer: np.ndarray      # (N,)
    dealt: np.ndarray       # (N, 4) masks
    kind: np.ndarray        # (N, 4) bid kind codes (hand.KIND_CODE)
    num: np.ndarray         # (N, 4)
    seats: np.ndarray       # (N, P) who played each card
    cards: np.ndarray       # (N, P)
    scores: np.ndarray      # (N, 2) before the hand
    bags: np.ndarray        # (N, 2)
    hands_played: np.ndarray

    @classmethod
    def of(cls, ts: list[Transcript]) -> _Batch:
        """The transcripts (all with plays of one length) as arrays."""
        n = len(ts)
        chain = itertools.chain.from_iterable
        plays = np.frombuffer(bytes(chain(chain(t.plays for t in ts))), dtype=np.uint8)
        plays = plays.reshape(n, -1, 2).astype(np.int64)
        head = np.array([(t.dealer, t.hands_played, *t.dealt, *t.before[0], *t.before[1]) for t in ts],
                        dtype=np.int64).reshape(n, 10)
        bids = np.array([(KIND_CODE[b.kind], b.n) for t in ts for b in t.bids], dtype=np.int64).reshape(n, 4, 2)
        return cls(ts, head[:, 0], head[:, 2:6], bids[:, :, 0], bids[:, :, 1], plays[:, :, 0], plays[:, :, 1],
                   head[:, 6:8], head[:, 8:10], head[:, 1])


@dataclass
class _Play:
    """Card play of every row under one set of play rules: the hand (winners, tricks per seat, the last
    trick, winners outside the trick) and the first forbidden card."""
    hand: BatchHand
    bad_step: np.ndarray    # index into the play of the first forbidden card, -1 if none
    bad_rule: np.ndarray    # index into CARD_RULES, -1 for none found


class BatchReplayer:
    """One variant's array rules, replaying batches of transcripts."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.rules = HandRules(rs)
        self.size = self.rules.size
        self.sig = play_signature(rs)
        # the lowered form's exchange_count of every (bid kind, partner's bid kind)
        codes = range(len(KIND_CODE) + 1)
        self.passes = np.array([[steps_of(rs).exchange_count(k, pk) for pk in codes] for k in codes], dtype=np.int64)

    def hand(self, b: _Batch) -> BatchHand:
        """The rows' hands as dealt, before the bids."""
        return BatchHand(self.rules, b.dealt.copy(), b.dealer, b.scores, b.bags)

    def first_leader(self, h: BatchHand, b: _Batch) -> np.ndarray:
        """Each row's first leader under the variant, its bids made (``h``), from the cards as play begins."""
        if self.rs.params["play.first_leader_by"] == "seat":
            return np.broadcast_to(h.leader, (len(b.ts),))
        bits = np.left_shift(1, b.cards)
        held = np.stack([np.bitwise_or.reduce(np.where(b.seats == s, bits, 0), axis=1) for s in range(4)])
        found = self.rules.module.first_leader(h.rows, held, h._kind, h._num, h.dealer)
        return np.broadcast_to(found, (len(b.ts),))

    # ------------------------------------------------------------------ score and game
    def score(self, h: BatchHand, p: _Play, hands_played: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Hand points and bags after, by team, of the bid hand ``h`` with the card play ``p``; whether the
        game is over and the winning team (-1: none)."""
        h.adopt_play(p.hand)
        points, _, bags_after = h.score()
        after = h.scores + points
        n = len(after)
        failed = ((h.contract > 0) & ~h.made).astype(np.int64)    # (a transcript is one hand: its own sets only)
        _, _, winner = self.rules.module.game_end(np.arange(n), np.ascontiguousarray(after.T),
                                                  np.ascontiguousarray(bags_after.T), hands_played,
                                                  *(np.ascontiguousarray(a.T) for a in (h.contract, h.made, failed,
                                                                                       failed)))
        winner = np.broadcast_to(winner, (n,))
        return points, bags_after, winner >= 0, winner


_REPLAYERS: weakref.WeakKeyDictionary[Ruleset, BatchReplayer | None] = weakref.WeakKeyDictionary()


def replayers_for(rss: Sequence[Ruleset]) -> list[BatchReplayer | None]:
    """A batch replayer per variant (built once per ruleset); None for one whose rules the vector back
    end cannot take."""
    out: list[BatchReplayer | None] = []
    for rs in rss:
        if rs not in _REPLAYERS and (C.table_of(rs.params) is not C.FOUR or rs.params["deal.draw"]):
            _REPLAYERS[rs] = None          # (the batch replay's arrays are the four-seat partnership game's, dealt)
        if rs not in _REPLAYERS:
            try:
                _REPLAYERS[rs] = BatchReplayer(rs)
            except RulespecError:
                _REPLAYERS[rs] = None
        out.append(_REPLAYERS[rs])
    return out


def bid_all(rps: Sequence[BatchReplayer], b: _Batch
            ) -> dict[BatchReplayer, tuple[BatchHand, np.ndarray, np.ndarray] | RulespecError]:
    """Each replayer's hands with the rows' recorded bids made, and per row the first seat (in bidding order)
    whose bid its rules refuse and the refusing rule (index into BID_RULES, -1 where every bid stands); or the
    error its rules raised.  A turn's facts about the bidder are worked out once for the variants that see the
    same (``BatchHand.turn_key``): every variant makes the recorded bids."""
    n, turns, rows = len(b.ts), 4, np.arange(len(b.ts))
    hands = {rp: rp.hand(b) for rp in rps}
    keys = {rp: h.turn_key("bid_refusal") for rp, h in hands.items()}
    rules = {rp: np.empty((turns, n), dtype=np.int64) for rp in rps}
    seats = {rp: np.empty((turns, n), dtype=np.int64) for rp in rps}
    out: dict[BatchReplayer, tuple[BatchHand, np.ndarray, np.ndarray] | RulespecError] = {}
    for turn in range(turns):
        shared: dict[tuple, tuple] = {}
        for rp, h in hands.items():
            if rp in out:
                continue
            if keys[rp] not in shared:       # (the key holds the bidding order: one bidder, one recorded bid)
                seat = h.bidder()
                shared[keys[rp]] = h.turn_facts("bid_refusal"), seat, b.kind[rows, seat], b.num[rows, seat]
            facts, seat, kind, num = shared[keys[rp]]
            try:
                rules[rp][turn] = h.bid_refusals(kind, num, facts)
            except RulespecError as e:      # (that variant's rows go to the scalar replay)
                out[rp] = e
            seats[rp][turn] = seat
            h.bid(kind, num)
    for rp, h in hands.items():
        if rp not in out:
            refused = rules[rp] >= 0
            first = refused.argmax(axis=0)
            found = refused[first, rows]
            out[rp] = (h, np.where(found, seats[rp][first, rows], -1), np.where(found, rules[rp][first, rows], -1))
    return out


def play_all(rps: Sequence[BatchReplayer], b: _Batch) -> dict[tuple, _Play]:
    """The card play of every row under each distinct set of play rules among ``rps`` (by play
    signature), in one pass: one ``BatchHand`` per set."""
    groups = list({rp.sig: rp for rp in rps}.values())
    n, tricks = len(b.ts), b.cards.shape[1] // 4
    # by step, then row (each step's seats, cards and bits contiguous)
    seats, cards = np.ascontiguousarray(b.seats.T), np.ascontiguousarray(b.cards.T)
    bits = np.left_shift(1, cards)
    hands = np.stack([np.bitwise_or.reduce(np.where(seats == s, bits, 0), axis=0) for s in range(4)], axis=1)
    plays = [_Play(BatchHand(rp.rules, hands.copy(), b.dealer, leader=seats[0]),
                   np.full(n, -1, dtype=np.int64), np.full(n, -1, dtype=np.int64)) for rp in groups]
    clean = [np.ones(n, dtype=bool) for _ in groups]        # the rows with no forbidden card yet, by set
    outside = [_outside_pack(rp.rs.deck, cards) for rp in groups]
    winner_keys = [f"{rp.rs.rules['trick.winner'].source}|{tables_digest(rp.rs)}" for rp in groups]
    for number in range(1, tricks + 1):
        for step in range(4 * number - 4, 4 * number):
            seat, bit = seats[step], bits[step]
            hand = plays[0].hand.hand_of(seat)     # (the same in every set: each plays the recorded cards)
            for p, ok, out in zip(plays, clean, outside):
                _check_card(p, ok, step, seat, bit, None if out is None else out[step], hand)
            for p in plays:
                p.hand.play(cards[step], seat, hand)
        _finish_trick(plays, winner_keys, seats[4 * number] if number < tricks else None)
    return {rp.sig: p for rp, p in zip(groups, plays)}


def _finish_trick(plays: list[_Play], winner_keys: list[str], leader: np.ndarray | None) -> None:
    """Each set's trick taken (``leader``: the recorded next leader), its winner place worked out once for the sets
    with one winner rule and pack (``winner_keys``): they see one trick."""
    places: dict[str, np.ndarray] = {}
    for p, key in zip(plays, winner_keys):
        if key not in places:
            places[key] = p.hand.winner_place()
        p.hand.finish_trick(leader, places[key])


def _outside_pack(deck: int, cards: np.ndarray) -> np.ndarray | None:
    """(steps, N) whether each card played is outside the pack ``deck``; None where every one is in it."""
    outside = ((deck >> cards) & 1) == 0
    return outside if outside.any() else None


def _check_card(p: _Play, clean: np.ndarray, step: int, seat: np.ndarray, bit: np.ndarray,
                outside: np.ndarray | None, hand: np.ndarray) -> None:
    """Note in ``p`` the rows whose card at ``step`` (from ``hand``) is the first one forbidden, and the rule that
    forbids it (asked only where a row has one: most cards of a transcript are legal under each variant);
    ``clean``: the rows with none forbidden before, updated; ``outside``: whether each card is outside the pack
    (None: none is)."""
    allowed, _ = p.hand.legal(seat, hand=hand)
    new = (allowed & bit) == 0
    if outside is not None:
        new |= outside                          # a card outside the pack is never legal
    new &= clean
    if new.any():
        _, first = p.hand.legal(seat, bit, hand)
        clean &= ~new
        p.bad_step[new] = step
        in_deck = ~outside if outside is not None else True
        p.bad_rule[new] = np.where(in_deck, np.where(first >= 0, first + 1, -1), 0)[new]


class Replays:
    """Every transcript of a batch under every variant.

    For the rows the vector path took (``exact[w]``), the stage values are arrays
    (``keys[w][stage]``: equal keys, equal ``Outcome.sig`` values) and the
    forbidding rules indices (``rule[w]``); ``outcome(k, w)`` builds the
    ``Outcome`` of any row when it is needed."""

    def __init__(self, rss: Sequence[Ruleset], replayers: Sequence[BatchReplayer | None], ts: Sequence[Transcript]):
        self.rss, self.ts = rss, ts
        n = len(ts)
        self.exact: list[np.ndarray] = []
        self.keys: list[dict[str, np.ndarray]] = []
        self.rule: list[dict[str, np.ndarray]] = []
        self._out: dict[tuple[int, int], Outcome] = {}
        self._exact_pair: dict[tuple[int, int], np.ndarray] = {}
        self._differing: dict[tuple[str, int, int], np.ndarray | None] = {}
        batches: dict[int, tuple[np.ndarray, _Batch, dict, dict]] = {}   # by number of plays: rows, arrays, plays, bids
        lengths = np.fromiter((len(t.plays) for t in ts), dtype=np.int64, count=n)
        for w, (rs, rp) in enumerate(zip(rss, replayers)):
            length = 4 * rp.size if rp is not None else 0
            fast = np.flatnonzero(lengths == length) if length else np.zeros(0, dtype=np.int64)
            exact = np.zeros(n, dtype=bool)
            keys = {stage: np.full(n, -2, dtype=np.int64) for stage in ("bid", "legal", "game")}
            keys.update(trick=np.zeros((n, length // 4), dtype=np.int64), score=np.zeros((n, 2), dtype=np.int64),
                        bags=np.zeros((n, 2), dtype=np.int64), exchange=np.zeros((n, 4), dtype=np.int64),
                        kitty=np.full(n, rs.params["deal.kitty"], dtype=np.int64),
                        draw=np.zeros(n, dtype=np.int64))     # (a variant the batch replays deals its hands)
            rule = {"bid": np.full(n, -1, dtype=np.int64), "legal": np.full(n, -1, dtype=np.int64)}
            if len(fast):
                try:
                    if length not in batches:
                        b = _Batch.of([ts[k] for k in fast])
                        same = [p for p in replayers if p is not None and 4 * p.size == length]
                        batches[length] = (fast, b, play_all(same, b), bid_all(same, b))
                    self._fill(rp, *batches[length], exact, keys, rule)
                except RulespecError:   # the scalar replay records the error in each outcome
                    exact[:] = False
            self.exact.append(exact)
            self.keys.append(keys)
            self.rule.append(rule)
            for k in np.flatnonzero(~exact).tolist():
                self._out[(k, w)] = replay(rs, ts[k])

    @staticmethod
    def _fill(rp: BatchReplayer, rows: np.ndarray, b: _Batch, plays: dict, bids: dict, exact, keys, rule) -> None:
        found = bids[rp]
        if isinstance(found, RulespecError):
            raise found
        h, seat, bid_rule = found
        p = plays[rp.sig]
        out_of_turn = rp.first_leader(h, b) != b.seats[:, 0]      # the first card comes first: step 0
        points, bags, over, winner = rp.score(h, p, b.hands_played)
        keys["bid"][rows], rule["bid"][rows] = seat, bid_rule
        keys["exchange"][rows] = rp.passes[b.kind, b.kind[:, [2, 3, 0, 1]]]
        keys["legal"][rows] = np.where(out_of_turn, 0, p.bad_step)
        rule["legal"][rows] = np.where(out_of_turn, CARD_RULES.index(first_leader_rule(rp.rs)), p.bad_rule)
        keys["trick"][rows], keys["score"][rows], keys["bags"][rows] = p.hand.winners, points, bags
        keys["game"][rows] = np.where(over, winner, -1)
        exact[rows] = ~p.hand.outside

    def outcome(self, k: int, w: int) -> Outcome:
        """What variant ``w`` makes of transcript ``k``."""
        out = self._out.get((k, w))
        if out is None:
            out = self._out[(k, w)] = self._build(k, w)
        return out

    def _build(self, k: int, w: int) -> Outcome:
        t, keys, rule = self.ts[k], self.keys[w], self.rule[w]
        o = Outcome(source=(self.rss[w], t))
        seat, step = int(keys["bid"][k]), int(keys["legal"][k])
        o.sig["draw"] = DEALT
        o.sig["kitty"] = int(keys["kitty"][k])
        o.sig["bid"] = None if seat < 0 else (seat, str(t.bids[seat]))
        if seat >= 0:
            o.rules["bid"] = BID_RULES[rule["bid"][k]]
        o.sig["exchange"] = tuple((C.SEATS[s], c) for s, c in enumerate(keys["exchange"][k].tolist()) if c)
        o.sig["legal"] = None if step < 0 else (step // 4 + 1, *t.plays[step])
        if step >= 0:
            o.rules["legal"] = CARD_RULES[rule["legal"][k]] if rule["legal"][k] >= 0 else None
        o.sig["trick"] = tuple(map(C.SEATS.__getitem__, keys["trick"][k].tolist()))
        o.sig["score"] = tuple(keys["score"][k].tolist())
        o.sig["bags"] = tuple(keys["bags"][k].tolist())
        winner = int(keys["game"][k])
        o.sig["game"] = (True, C.TEAMS[winner]) if winner >= 0 else (False, None)
        return o

    def differs(self, stage: str, i: int, j: int, rows: np.ndarray) -> np.ndarray | None:
        """Whether variants ``i`` and ``j`` disagree on ``stage`` for each of ``rows``; None unless the vector
        path took every one of them under both (worked out for every row once per pair and stage)."""
        if (i, j) not in self._exact_pair:
            self._exact_pair[(i, j)] = self.exact[i] & self.exact[j]
        if not self._exact_pair[(i, j)][rows].all():
            return None
        key = (stage, i, j)
        if key not in self._differing:
            a, b = self.keys[i][stage], self.keys[j][stage]
            d = None if a.shape != b.shape else a != b
            self._differing[key] = d.any(axis=1) if d is not None and d.ndim > 1 else d
        found = self._differing[key]
        return None if found is None else found[rows]
