"""Replay many transcripts under one variant at once, on the vector back end.

``replay.replay`` stays the reference.  This computes the same stage values
(``Outcome.sig``) and the rule behind the first forbidden bid or card for a
whole batch of transcripts with numpy; notes and situations, which only the
report's examples need, are filled in by the scalar replay when asked for
(``Outcome.full``).  A transcript this cannot take (a play of another length
than the variant's hands, a trick winner outside the trick, an error in a
rule) is replayed by the scalar path instead.
"""
from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np

from .. import cards as C
from ..batch import _KIND_CODE, _KIND_NAME, PENDING, BatchEngine
from ..compiler import NONE
from ..engine import _APPLICABLE
from ..errors import RulespecError
from ..ruleset import Ruleset
from ..schema import PLAY_CONSTRAINTS
from .replay import Outcome, Transcript, play_signature, replay

# the rules that can refuse a bid, in the order engine.bid_refusals consults them
BID_RULES = ("bid.regular_min", "bid.regular_max", "nil.allowed", "blind_nil.allowed", "blind_bid.allowed",
             "bid.team_min", "bid.team_max", "bid.team_valid")
_MIN, _MAX, _NIL, _BNIL, _BLIND, _TMIN, _TMAX, _TVALID = range(len(BID_RULES))
# the rules that can forbid a card: a card outside the pack, then the play constraints
CARD_RULES = ("deck.cards", *PLAY_CONSTRAINTS)
_CARD_RULE = {name: i for i, name in enumerate(CARD_RULES)}


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

        def ints(values, shape) -> np.ndarray:
            return np.fromiter(values, dtype=np.int64, count=int(np.prod(shape))).reshape(shape)
        chain = itertools.chain.from_iterable
        plays = ints(chain(chain(t.plays for t in ts)), (n, len(ts[0].plays), 2))
        bids = [b for t in ts for b in t.bids]
        return cls(ts, ints((t.dealer for t in ts), (n,)), ints(chain(t.dealt for t in ts), (n, 4)),
                   ints((_KIND_CODE[b.kind] for b in bids), (n, 4)), ints((b.n for b in bids), (n, 4)),
                   plays[:, :, 0], plays[:, :, 1],
                   ints(chain(t.before[0] for t in ts), (n, 2)), ints(chain(t.before[1] for t in ts), (n, 2)),
                   ints((t.hands_played for t in ts), (n,)))

    def take(self, rows: np.ndarray) -> _Batch:
        return _Batch([self.ts[r] for r in rows], self.dealer[rows], self.dealt[rows], self.kind[rows],
                      self.num[rows], self.seats[rows], self.cards[rows], self.scores[rows], self.bags[rows],
                      self.hands_played[rows])


@dataclass
class _Play:
    """Card play of every row: first forbidden card, winners, tricks per seat, the last trick."""
    bad_step: np.ndarray    # index into the play of the first forbidden card, -1 if none
    bad_rule: np.ndarray    # index into CARD_RULES, -1 for none found
    winners: np.ndarray     # (N, tricks) seats
    won: np.ndarray         # (N, 4)
    last_winner: np.ndarray
    last_cards: np.ndarray  # (N, 4) by seat
    broken: np.ndarray      # rows whose trick winner was not in the trick (scalar replay reports it)


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
    def play(self, b: _Batch) -> _Play:
        fn, n = self.fn, len(b.ts)
        rows = np.arange(n)
        suit_of = self.engine.suit_of
        bits = np.left_shift(1, b.cards)
        hands = np.stack([np.bitwise_or.reduce(np.where(b.seats == s, bits, 0), axis=1) for s in range(4)], axis=1)
        broken = np.zeros(n, dtype=bool)
        played = np.zeros(n, dtype=np.int64)
        bad_step = np.full(n, -1, dtype=np.int64)
        bad_rule = np.full(n, -1, dtype=np.int64)
        tricks = b.cards.shape[1] // 4
        winners = np.zeros((n, tricks), dtype=np.int64)
        won = np.zeros((n, 4), dtype=np.int64)
        outside = np.zeros(n, dtype=bool)
        in_deck = ((self.rs.deck >> b.cards) & 1).astype(bool)
        last_cards = np.zeros((n, 4), dtype=np.int64)
        last_winner = np.zeros(n, dtype=np.int64)
        for number in range(1, tricks + 1):
            start = (number - 1) * 4
            trick_mask = np.zeros(n, dtype=np.int64)
            led = np.full(n, NONE, dtype=np.int64)
            for pos in range(4):
                step = start + pos
                seat, card, bit = b.seats[:, step], b.cards[:, step], bits[:, step]
                hand = hands[rows, seat]
                legal, why = self._legal(hand, trick_mask, led, number, pos + 1, broken, played, bit)
                new = (bad_step < 0) & ((legal & bit) == 0)
                if new.any():
                    bad_step = np.where(new, step, bad_step)
                    bad_rule = np.where(new, np.where(in_deck[:, step], why, _CARD_RULE["deck.cards"]), bad_rule)
                broken |= np.asarray(fn["trump.breaks"](card, hand, pos == 0, led, number), dtype=bool)
                hands[rows, seat] = hand & ~bit
                played |= bit
                trick_mask |= bit
                if pos == 0:
                    led = suit_of[card]
            group = b.cards[:, start:start + 4]
            win_card = np.broadcast_to(fn["trick.winner"](trick_mask, led, number, group[:, 0]), (n,))
            hit = group == win_card[:, None]
            outside |= ~hit.any(axis=1)
            winner = b.seats[rows, start + np.argmax(hit, axis=1)]
            winners[:, number - 1] = winner
            won[rows, winner] += 1
            if number == tricks:
                leader = b.seats[:, start]
                for pos in range(4):
                    last_cards[rows, (leader + pos) % 4] = group[:, pos]
                last_winner = winner
        return _Play(bad_step, bad_rule, winners, won, last_winner, last_cards, outside)

    def _legal(self, hand, trick_mask, led, number, position, broken, played, bit):
        """batch._legal, and the first applied constraint that excludes ``bit`` (index into CARD_RULES)."""
        leading = position == 1
        args = (hand, trick_mask, led, number, position, leading, broken, played)
        allowed = hand
        why = np.full(len(hand), -1, dtype=np.int64)
        for name in _APPLICABLE[(leading, number == 1)]:
            permitted = np.asarray(self.fn[name](*args)) & hand
            joint = allowed & permitted
            apply = (permitted != hand) & (permitted != 0) & (joint != 0)
            why = np.where((why < 0) & apply & ((permitted & bit) == 0), _CARD_RULE[name], why)
            allowed = np.where(apply, joint, allowed)
        return allowed, why

    @staticmethod
    def recorded(b: _Batch) -> _Play:
        """The play as recorded, for transcripts recorded under these play rules."""
        n = len(b.ts)
        won = np.array([t.won for t in b.ts], dtype=np.int64)
        winners = np.array([[C.SEATS.index(w) for w in t.winners] for t in b.ts], dtype=np.int64)
        last_winner = np.array([t.last[0] for t in b.ts], dtype=np.int64)
        last_cards = np.array([t.last[1] for t in b.ts], dtype=np.int64)
        none = np.full(n, -1, dtype=np.int64)
        return _Play(none, none, winners, won, last_winner, last_cards, np.zeros(n, dtype=bool))

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


def replayers_for(rss: Sequence[Ruleset]) -> list[BatchReplayer | None]:
    """A batch replayer per variant; None for one whose rules the vector back end cannot take."""
    out: list[BatchReplayer | None] = []
    for rs in rss:
        try:
            out.append(BatchReplayer(rs))
        except RulespecError:
            out.append(None)
    return out


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
        batches: dict[int, tuple[np.ndarray, _Batch]] = {}   # rows by number of plays, as arrays
        plays: dict[tuple, _Play] = {}                       # card play by (play signature, number of plays)
        for w, (rs, rp) in enumerate(zip(rss, replayers)):
            length = 4 * rp.size if rp is not None else 0
            fast = np.array([k for k, t in enumerate(ts) if length and len(t.plays) == length], dtype=np.int64)
            exact = np.zeros(n, dtype=bool)
            keys = {stage: np.full(n, -2, dtype=np.int64) for stage in ("bid", "legal", "game")}
            keys.update(trick=np.zeros((n, length // 4), dtype=np.int64), score=np.zeros((n, 2), dtype=np.int64),
                        bags=np.zeros((n, 2), dtype=np.int64))
            rule = {"bid": np.full(n, -1, dtype=np.int64), "legal": np.full(n, -1, dtype=np.int64)}
            if len(fast):
                if length not in batches:
                    batches[length] = (fast, _Batch.of([ts[k] for k in fast]))
                try:
                    self._fill(rp, *batches[length], plays, exact, keys, rule)
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
        key = (rp.sig, b.cards.shape[1])
        p = plays.get(key)
        if p is None:
            p = plays[key] = _merge(rp, b, np.array([t.won is not None and t.play_sig == rp.sig for t in b.ts]))
        points, bags, over, winner = rp.score(b, p)
        keys["bid"][rows], rule["bid"][rows] = seat, bid_rule
        keys["legal"][rows], rule["legal"][rows] = p.bad_step, p.bad_rule
        keys["trick"][rows], keys["score"][rows], keys["bags"][rows] = p.winners, points, bags
        keys["game"][rows] = np.where(over, winner, -1)
        exact[rows] = ~p.broken      # a winner outside the trick: the scalar replay reports it

    def outcome(self, k: int, w: int) -> Outcome:
        """What variant ``w`` makes of transcript ``k``."""
        out = self._out.get((k, w))
        if out is None:
            out = self._out[(k, w)] = self._build(k, w)
        return out

    def _build(self, k: int, w: int) -> Outcome:
        t, keys, rule = self.ts[k], self.keys[w], self.rule[w]
        o = Outcome(source=functools.partial(replay, self.rss[w], t))
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


def _merge(rp: BatchReplayer, b: _Batch, recorded: np.ndarray) -> _Play:
    """The recorded play where it stands (recorded under these play rules), replayed elsewhere."""
    if recorded.all():
        return rp.recorded(b)
    if not recorded.any():
        return rp.play(b)
    mine, other = np.flatnonzero(recorded), np.flatnonzero(~recorded)
    kept, replayed = rp.recorded(b.take(mine)), rp.play(b.take(other))
    columns = []
    for field in fields(_Play):
        column = getattr(replayed, field.name)
        whole = np.empty((len(b.ts), *column.shape[1:]), dtype=column.dtype)
        whole[mine], whole[other] = getattr(kept, field.name), column
        columns.append(whole)
    return _Play(*columns)
