"""Replay many transcripts under one variant at once, on the vector back end.

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
from ...fast.batch import _KIND_CODE, _KIND_NAME, PENDING, BatchEngine, narrow
from ...lang.compiler import NONE
from ...game import applicable_constraints
from ...errors import RulespecError
from ...model.ruleset import Ruleset
from ...core.schema import PLAY_CONSTRAINTS
from .replay import Outcome, Transcript, play_signature, replay

# the rules that can refuse a bid, in the order engine.bid_refusals consults them
BID_RULES = ("bid.regular_min", "bid.regular_max", "nil.allowed", "blind_nil.allowed", "blind_bid.allowed",
             "bid.team_min", "bid.team_max", "bid.team_valid")
_MIN, _MAX, _NIL, _BNIL, _BLIND, _TMIN, _TMAX, _TVALID = range(len(BID_RULES))
# the rules that can forbid a card: a card outside the pack, then the play constraints
CARD_RULES = ("deck.cards", *PLAY_CONSTRAINTS)
_CARD_RULE = {name: i for i, name in enumerate(CARD_RULES)}
# the play constraints of each situation (leading, first trick)
_SITUATIONS = {(lead, first): applicable_constraints(lead, first) for lead in (True, False) for first in (True, False)}


@dataclass
class _Batch:
    """Transcripts as arrays, one row each."""
    ts: list[Transcript]
    dealer: np.ndarray      # (N,)
    dealt: np.ndarray       # (N, 4) masks
    kind: np.ndarray        # (N, 4) bid kind codes (batch._KIND_CODE)
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
        bids = np.array([(_KIND_CODE[b.kind], b.n) for t in ts for b in t.bids], dtype=np.int64).reshape(n, 4, 2)
        return cls(ts, head[:, 0], head[:, 2:6], bids[:, :, 0], bids[:, :, 1], plays[:, :, 0], plays[:, :, 1],
                   head[:, 6:8], head[:, 8:10], head[:, 1])


@dataclass
class _Play:
    """Card play of every row: first forbidden card, winners, tricks per seat, the last trick."""
    bad_step: np.ndarray    # index into the play of the first forbidden card, -1 if none
    bad_rule: np.ndarray    # index into CARD_RULES, -1 for none found
    winners: np.ndarray     # (N, tricks) seats
    won: np.ndarray         # (N, 4)
    last_winner: np.ndarray
    last_cards: np.ndarray  # (N, 4) by seat
    winner_outside: np.ndarray  # rows where trick.winner named a card not in the trick (scalar replay)


def _team_values(values: np.ndarray, team: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(team's, opponents') column of an (N, 2) array, the team given per row."""
    rows = np.arange(len(values))
    return values[rows, team], values[rows, 1 - team]


class BatchReplayer:
    """One variant's vector rules, replaying batches of transcripts."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.engine = BatchEngine(rs)
        self.fn = self.engine.fn
        self.size = rs.params["deal.hand_size"]
        self.sig = play_signature(rs)
        self._keys: dict[str, tuple] = {}

    # ------------------------------------------------------------------ bids
    def bids(self, b: _Batch) -> tuple[np.ndarray, np.ndarray]:
        """Per row: the first seat (in bidding order) whose bid the rules refuse, and the refusing
        rule (index into BID_RULES); -1 where every bid stands."""
        fn, n = self.fn, len(b.ts)
        rows = np.arange(n)
        first = np.broadcast_to(fn["deal.first_bidder"](b.dealer), (n,))
        may_raise = bool(self.rs.params["nil.partner_may_raise"])
        refused_seat = np.full(n, -1, dtype=np.int64)
        refused_rule = np.full(n, -1, dtype=np.int64)
        for k in range(4):
            seat = (first + k) % 4
            team = seat % 2
            (my_score, their_score), (my_bags, their_bags) = _team_values(b.scores, team), _team_values(b.bags, team)
            my = (my_score, my_bags, their_score, their_bags)
            bk, bn = b.kind[rows, seat], b.num[rows, seat]
            if k >= 2:       # the partner bid two turns earlier
                pk, pn = b.kind[rows, (seat + 2) % 4], b.num[rows, (seat + 2) % 4]
            else:
                pk, pn = np.full(n, PENDING), np.zeros(n, dtype=np.int64)
            args = (b.dealt[rows, seat], seat, b.dealer, k + 1, _KIND_NAME[pk], pn, bn, *my)
            low, high = fn["bid.regular_min"](*args), fn["bid.regular_max"](*args)
            regular = bk == 0
            rule = np.where(regular & (bn < low), _MIN, np.where(regular & (bn > high), _MAX, -1))
            for code, name, index in ((1, "nil.allowed", _NIL), (2, "blind_nil.allowed", _BNIL),
                                      (3, "blind_bid.allowed", _BLIND)):
                mine = bk == code
                if mine.any():
                    refused = mine & ~np.asarray(fn[name](*args), dtype=bool)
                    rule = np.where((rule < 0) & refused, index, rule)
            if k >= 2:
                skip_min = may_raise & ((bk == 1) | (bk == 2)) & (pk == 0)
                team_rule = self._team_rule(np.stack([pk, bk], axis=1), np.stack([pn, bn], axis=1), my, skip_min)
                rule = np.where(rule < 0, team_rule, rule)
            new = (refused_seat < 0) & (rule >= 0)
            refused_seat = np.where(new, seat, refused_seat)
            refused_rule = np.where(new, rule, refused_rule)
        return refused_seat, refused_rule

    def _team_rule(self, kinds: np.ndarray, ns: np.ndarray, my: tuple, skip_min: np.ndarray) -> np.ndarray:
        """The first refusal of engine.team_refusals for each row's pair of bids (-1: none)."""
        fn = self.fn
        regular = kinds == 0
        blind = kinds == 3
        args = (np.where(regular, ns, 0).sum(axis=1), regular.sum(axis=1), (kinds == 1).sum(axis=1),
                (kinds == 2).sum(axis=1), blind.sum(axis=1), *my)
        has_regular = regular.any(axis=1)
        contract = fn["bid.team_contract"](*args)
        low, high = fn["bid.team_min"](*args), fn["bid.team_max"](*args)
        valid = np.asarray(fn["bid.team_valid"](*args), dtype=bool)
        mismatch = blind.any(axis=1) & ~(blind.all(axis=1) & (ns[:, 0] == ns[:, 1]))
        rule = np.where(~valid, _TVALID, -1)
        rule = np.where(has_regular & (contract > high), _TMAX, rule)
        rule = np.where(has_regular & (contract < low) & ~skip_min, _TMIN, rule)
        return np.where(mismatch, _BLIND, rule)

    # ------------------------------------------------------------------ card play
    def key(self, name: str) -> tuple:
        """What rule ``name``'s array function depends on: rules with equal keys compute the same."""
        found = self._keys.get(name)
        if found is None:
            rule = self.rs.rules[name]
            params = tuple(sorted((p, repr(self.rs.params[p])) for p in rule.names if p in self.rs.params))
            found = self._keys[name] = (rule.slot.context, " ".join(rule.text.split()), params,
                                        self.rs.deck, self.rs.suit_of, self.rs.power)
        return found

    # ------------------------------------------------------------------ score and game
    def score(self, b: _Batch, p: _Play) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Hand points and bags after, by team; whether the game is over and the winning team (-1: none)."""
        points, _, bags_after = self.engine._score(b.kind, b.num, p.won, p.last_winner, p.last_cards,
                                                   b.scores, b.bags)
        after = b.scores + points
        high, low = after.max(axis=1), after.min(axis=1)
        args = (after[:, 0], bags_after[:, 0], after[:, 1], bags_after[:, 1], high, low, high - low, b.hands_played)
        n = len(after)
        ends = (np.broadcast_to(np.asarray(self.fn["game.target_reached"](*args), dtype=bool), (n,))
                | np.broadcast_to(np.asarray(self.fn["game.mercy"](*args), dtype=bool), (n,)))
        winner = np.where(ends, np.broadcast_to(self.fn["game.winner"](*args), (n,)), -1)
        return points, bags_after, winner >= 0, winner


_REPLAYERS: weakref.WeakKeyDictionary[Ruleset, BatchReplayer | None] = weakref.WeakKeyDictionary()


def replayers_for(rss: Sequence[Ruleset]) -> list[BatchReplayer | None]:
    """A batch replayer per variant (built once per ruleset); None for one whose rules the vector back
    end cannot take."""
    out: list[BatchReplayer | None] = []
    for rs in rss:
        if rs not in _REPLAYERS:
            try:
                _REPLAYERS[rs] = BatchReplayer(rs)
            except RulespecError:
                _REPLAYERS[rs] = None
        out.append(_REPLAYERS[rs])
    return out


def play_all(rps: Sequence[BatchReplayer], b: _Batch) -> dict[tuple, _Play]:
    """The card play of every row under each distinct set of play rules among ``rps`` (by play
    signature), in one pass: what depends only on the cards is computed once per step, and each
    distinct rule (by ``BatchReplayer.key``) once per step and trump-breaking state."""
    groups = list({rp.sig: rp for rp in rps}.values())
    n, tricks = len(b.ts), b.cards.shape[1] // 4
    rows = np.arange(n)
    bits = np.left_shift(1, b.cards)
    hands = np.stack([np.bitwise_or.reduce(np.where(b.seats == s, bits, 0), axis=1) for s in range(4)], axis=1)
    in_deck = [((rp.rs.deck >> b.cards) & 1).astype(bool) for rp in groups]
    breaks = [rp.key("trump.breaks") for rp in groups]
    broken = {key: np.zeros(n, dtype=bool) for key in breaks}
    played = np.zeros(n, dtype=np.int64)
    out = [_Play(np.full(n, -1, dtype=np.int64), np.full(n, -1, dtype=np.int64),
                 np.zeros((n, tricks), dtype=np.int64), np.zeros((n, 4), dtype=np.int64),
                 np.zeros(n, dtype=np.int64), np.zeros((n, 4), dtype=np.int64), np.zeros(n, dtype=bool))
           for _ in groups]
    suits = {rp.rs.suit_of: rp.engine.suit_of for rp in groups}      # the led suit depends on card.suit
    # per group and situation (leading, first trick): the constraints' keys, in priority order
    keyed = [{case: tuple((rp.key(name), breaks[g]) for name in names) for case, names in _SITUATIONS.items()}
             for g, rp in enumerate(groups)]
    for number in range(1, tricks + 1):
        start = (number - 1) * 4
        trick_mask = np.zeros(n, dtype=np.int64)
        led = {suit_of: np.full(n, NONE, dtype=np.int64) for suit_of in suits}
        for pos in range(4):
            step = start + pos
            seat, card, bit = b.seats[:, step], b.cards[:, step], bits[:, step]
            hand = hands[rows, seat]
            case = (pos == 0, number == 1)
            names = _SITUATIONS[case]
            permitted: dict[tuple, np.ndarray] = {}
            narrowed: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
            for g, rp in enumerate(groups):
                keys = keyed[g][case]
                if keys not in narrowed:
                    args = (hand, trick_mask, led[rp.rs.suit_of], number, pos + 1, pos == 0, broken[breaks[g]],
                            played)
                    for name, key in zip(names, keys):
                        if key not in permitted:
                            permitted[key] = np.asarray(rp.fn[name](*args)) & hand
                    narrowed[keys] = _narrow(hand, bit, names, [permitted[key] for key in keys])
                forbidden, why = narrowed[keys]
                forbidden = forbidden | ~in_deck[g][:, step]     # a card outside the pack is never legal
                p = out[g]
                new = (p.bad_step < 0) & forbidden
                if new.any():
                    p.bad_step[new] = step
                    p.bad_rule[new] = np.where(in_deck[g][:, step], why, _CARD_RULE["deck.cards"])[new]
            done: set[tuple] = set()
            for g, rp in enumerate(groups):
                if breaks[g] not in done:
                    done.add(breaks[g])
                    broken[breaks[g]] |= np.asarray(
                        rp.fn["trump.breaks"](card, hand, pos == 0, led[rp.rs.suit_of], number), dtype=bool)
            hands[rows, seat] = hand & ~bit
            played |= bit
            trick_mask |= bit
            if pos == 0:
                led = {suit_of: table[card] for suit_of, table in suits.items()}
        group = b.cards[:, start:start + 4]
        winners: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        for g, rp in enumerate(groups):
            key = rp.key("trick.winner")
            if key not in winners:
                win_card = np.broadcast_to(
                    rp.fn["trick.winner"](trick_mask, led[rp.rs.suit_of], number, group[:, 0]), (n,))
                hit = group == win_card[:, None]
                winners[key] = (b.seats[rows, start + np.argmax(hit, axis=1)], ~hit.any(axis=1))
            winner, outside = winners[key]
            p = out[g]
            p.winner_outside |= outside
            p.winners[:, number - 1] = winner
            p.won[rows, winner] += 1
            if number == tricks:
                leader = b.seats[:, start]
                for k in range(4):
                    p.last_cards[rows, (leader + k) % 4] = group[:, k]
                p.last_winner[:] = winner
    return {rp.sig: p for rp, p in zip(groups, out)}


def _narrow(hand: np.ndarray, bit: np.ndarray, names: Sequence[str], permitted: list[np.ndarray]
            ) -> tuple[np.ndarray, np.ndarray]:
    """Whether ``bit`` is forbidden by the evaluated constraints ``names``, and the first applied
    constraint that excludes it (index into CARD_RULES, -1: none)."""
    allowed, first = narrow(hand, permitted, bit)
    indices = np.array([_CARD_RULE[name] for name in names] + [-1], dtype=np.int64)   # first == -1: none
    return (allowed & bit) == 0, indices[first]


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
        batches: dict[int, tuple[np.ndarray, _Batch, dict]] = {}   # by number of plays: rows, arrays, plays
        lengths = np.fromiter((len(t.plays) for t in ts), dtype=np.int64, count=n)
        for w, (rs, rp) in enumerate(zip(rss, replayers)):
            length = 4 * rp.size if rp is not None else 0
            fast = np.flatnonzero(lengths == length) if length else np.zeros(0, dtype=np.int64)
            exact = np.zeros(n, dtype=bool)
            keys = {stage: np.full(n, -2, dtype=np.int64) for stage in ("bid", "legal", "game")}
            keys.update(trick=np.zeros((n, length // 4), dtype=np.int64), score=np.zeros((n, 2), dtype=np.int64),
                        bags=np.zeros((n, 2), dtype=np.int64))
            rule = {"bid": np.full(n, -1, dtype=np.int64), "legal": np.full(n, -1, dtype=np.int64)}
            if len(fast):
                try:
                    if length not in batches:
                        b = _Batch.of([ts[k] for k in fast])
                        same = [p for p in replayers if p is not None and 4 * p.size == length]
                        batches[length] = (fast, b, play_all(same, b))
                    self._fill(rp, *batches[length], exact, keys, rule)
                except RulespecError:   # the scalar replay records the error in each outcome
                    exact[:] = False
            self.exact.append(exact)
            self.keys.append(keys)
            self.rule.append(rule)
            for k in np.flatnonzero(~exact).tolist():
                self._out[(k, w)] = replay(rs, ts[k])

    @staticmethod
    def _fill(rp: BatchReplayer, rows: np.ndarray, b: _Batch, plays: dict, exact, keys, rule) -> None:
        seat, bid_rule = rp.bids(b)
        p = plays[rp.sig]
        points, bags, over, winner = rp.score(b, p)
        keys["bid"][rows], rule["bid"][rows] = seat, bid_rule
        keys["legal"][rows], rule["legal"][rows] = p.bad_step, p.bad_rule
        keys["trick"][rows], keys["score"][rows], keys["bags"][rows] = p.winners, points, bags
        keys["game"][rows] = np.where(over, winner, -1)
        exact[rows] = ~p.winner_outside

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
        o.sig["bid"] = None if seat < 0 else (seat, str(t.bids[seat]))
        if seat >= 0:
            o.rules["bid"] = BID_RULES[rule["bid"][k]]
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
        path took every one of them under both."""
        if not (self.exact[i][rows].all() and self.exact[j][rows].all()):
            return None
        a, b = self.keys[i][stage], self.keys[j][stage]
        if a.shape != b.shape:
            return None
        d = a[rows] != b[rows]
        return d.any(axis=1) if d.ndim > 1 else d
