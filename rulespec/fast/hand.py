"""The hand procedure on arrays: one row per hand, every row at the same step (lockstep).

The array twin of the scalar ``HandState``, with the same step names: ``bid`` (with the
queries ``legal_bids`` and ``bid_refusals``), ``raise_bid``, ``exchange``, ``legal``,
``play``, ``finish_trick`` and ``score``.  Two drivers walk it: ``BatchEngine.play``
(simulation: a policy chooses among the legal options) and the differential tester's batch
replay (recorded bids and cards: it asks which rule refuses each bid and forbids each card,
and lets hands replayed under different rulesets share rule values through a ``StepMemo``).
Rule arguments are built by name (``core.contexts``).
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from dataclasses import dataclass

import numpy as np

from ..core.contexts import ARGS, pick
from ..core.schema import BID_KINDS, PLAY_CONSTRAINTS
from ..errors import GameError
from ..game import BLIND, BLIND_NIL, NIL, REGULAR, applicable_constraints, bid_candidates
from ..lang.compiler import NONE
from ..model.ruleset import Ruleset
from .vector import vector_rules

KIND_CODE = {REGULAR: 0, NIL: 1, BLIND_NIL: 2, BLIND: 3}
KIND_NAME = np.array(BID_KINDS)          # code -> the name the rules see ('pending': not bid yet)
PENDING = BID_KINDS.index("pending")

# the rules that can refuse a bid, in the order engine.bid_refusals consults them
BID_RULES = ("bid.regular_min", "bid.regular_max", "nil.allowed", "blind_nil.allowed", "blind_bid.allowed",
             "bid.team_min", "bid.team_max", "bid.team_valid")
_MIN, _MAX, _NIL, _BNIL, _BLIND, _TMIN, _TMAX, _TVALID = range(len(BID_RULES))
_OWN_RULES = ((KIND_CODE[NIL], "nil.allowed", _NIL), (KIND_CODE[BLIND_NIL], "blind_nil.allowed", _BNIL))

# Choosers: a policy's answer to "which of these options?" (one row per hand)
BidChooser = Callable[[np.ndarray, np.ndarray], np.ndarray]     # (options (N, K) bool, seat) -> column
CardChooser = Callable[[np.ndarray, int], np.ndarray]           # (masks, count) -> chosen cards as masks
_RULE_KEYS: dict[tuple, int] = {}     # what a rule depends on -> its number (HandRules.key)
_SITUATIONS = tuple((leading, first) for leading in (True, False) for first in (True, False))
# per situation's applicable constraints (and -1 last): their indices in PLAY_CONSTRAINTS
_CONSTRAINT_INDEX = {names: np.array([PLAY_CONSTRAINTS.index(name) for name in names] + [-1], dtype=np.int64)
                     for names in {applicable_constraints(*case) for case in _SITUATIONS}}


def narrow(hand: np.ndarray, permitted: list[np.ndarray], card_bit: np.ndarray | None = None
           ) -> tuple[np.ndarray, np.ndarray | None]:
    """Array ``engine._narrow``: each constraint's permitted cards (already ``& hand``), in priority
    order, narrow the legal set unless they allow the whole hand, none of it, or none of what the
    earlier ones left (the same conflict resolution).  Returns the legal sets and, given ``card_bit``,
    the position in ``permitted`` of the first applied constraint that excludes that card (-1: none)."""
    if card_bit is None and permitted:     # the first narrows unless it allows none of the hand (or all)
        allowed, permitted = np.where(permitted[0] != 0, permitted[0], hand), permitted[1:]
    else:
        allowed = hand
    first = None if card_bit is None else np.full(len(hand), -1, dtype=np.int64)
    for k, allows in enumerate(permitted):
        joint = allowed & allows
        apply = (allows != hand) & (allows != 0) & (joint != 0)
        if card_bit is not None:
            first = np.where((first < 0) & apply & ((allows & card_bit) == 0), k, first)
        allowed = np.where(apply, joint, allowed)
    return allowed, first


def team_bid_facts(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> dict[str, np.ndarray]:
    """The partnership's bids in the ``team_bid`` context, by name, for each row's pair of bids ``a``, ``b``
    (kind codes, numbers)."""
    (kind_a, n_a), (kind_b, n_b) = a, b

    def count(code: int) -> np.ndarray:
        return (kind_a == code).astype(np.int64) + (kind_b == code)
    regular = KIND_CODE[REGULAR]
    return {"team_regular_sum": np.where(kind_a == regular, n_a, 0) + np.where(kind_b == regular, n_b, 0),
            "team_regular_count": count(regular), "team_nil_count": count(KIND_CODE[NIL]),
            "team_blind_nil_count": count(KIND_CODE[BLIND_NIL]), "team_blind_count": count(KIND_CODE[BLIND])}


class HandRules:
    """A ruleset's array rules and the tables the hand procedure needs (built once per ruleset)."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.fn = vector_rules(rs)
        self.params = rs.params
        self.size: int = rs.params["deal.hand_size"]
        self.suit_of = np.asarray(rs.suit_of, dtype=np.int64)
        self.candidates = bid_candidates(rs)
        self.cand_kind = np.array([KIND_CODE[b.kind] for b in self.candidates])
        self.cand_n = np.array([b.n for b in self.candidates])
        self._keys: dict[str, int] = {}
        self.breaks_key, self.winner_key = self.key("trump.breaks"), self.key("trick.winner")
        # per situation (leading, first trick): the constraints that apply and their keys
        self.constraints = {case: (names, tuple(map(self.key, names)))
                            for case, names in ((c, applicable_constraints(*c)) for c in _SITUATIONS)}

    def key(self, name: str) -> int:
        """What rule ``name``'s array function depends on, as a number: rules with equal keys (in any
        ruleset) compute the same."""
        found = self._keys.get(name)
        if found is None:
            rule = self.rs.rules[name]
            params = tuple(sorted((p, repr(self.rs.params[p])) for p in rule.names if p in self.rs.params))
            depends = (rule.slot.context, " ".join(rule.text.split()), params, self.rs.deck, self.rs.suit_of,
                       self.rs.power)
            found = self._keys[name] = _RULE_KEYS.setdefault(depends, len(_RULE_KEYS))
        return found


class StepMemo:
    """Rule values shared by hands that replay the same cards under different rulesets: a value is
    computed once per key (the rule's ``HandRules.key``, what else it depends on, and the step)."""

    def __init__(self) -> None:
        self.values: dict[Hashable, object] = {}

    def get(self, key: Hashable, compute: Callable[[], object]):
        """The value stored under ``key``, computed by ``compute`` the first time."""
        if key not in self.values:
            self.values[key] = compute()
        return self.values[key]

    def clear(self) -> None:
        """Forget every value (between tricks)."""
        self.values.clear()


@dataclass
class _BidTurn:
    """The next bidder's situation: bid-context facts by name and the regular range they allow."""
    facts: dict
    low: np.ndarray
    high: np.ndarray
    partner_kind: np.ndarray
    partner_n: np.ndarray


class BatchHand:
    """One hand per row, from the bids to the score.  ``hands`` (N, 4) masks are updated in place;
    ``scores`` and ``bags`` (N, 2) are the teams' totals before the hand (default 0-0); ``leader`` the
    first leader when not the rules' (a replay's recorded one); ``memo`` shares rule values with other
    hands that play the same cards."""

    def __init__(self, rules: HandRules, hands: np.ndarray, dealer: np.ndarray,
                 scores: np.ndarray | None = None, bags: np.ndarray | None = None,
                 leader: np.ndarray | None = None, memo: StepMemo | None = None):
        n = len(hands)
        self.rules, self.fn, self.memo = rules, rules.fn, memo
        self.n, self.rows = n, np.arange(n)
        self.hands = np.ascontiguousarray(hands)
        self._flat, self._at = self.hands.reshape(-1), 4 * self.rows     # (row, seat) is _flat[_at + seat]
        self.dealer = np.broadcast_to(dealer, (n,))
        self.scores = np.zeros((n, 2), dtype=np.int64) if scores is None else scores
        self.bags = np.zeros((n, 2), dtype=np.int64) if bags is None else bags
        # bidding
        self.kind = np.full((n, 4), PENDING)
        self.num = np.zeros((n, 4), dtype=np.int64)
        self.turn = 0
        # card play
        if leader is not None:            # (else the first_leader rule's, when first asked)
            self.leader = leader
        self.broken = np.zeros(n, dtype=bool)
        self.played = np.zeros(n, dtype=np.int64)
        self.number, self.pos = 1, 0
        # the trick so far (trick_mask, led and played are replaced, never updated in place: hands that
        # play the same cards share them)
        self._no_cards, self._no_suit = np.zeros(n, dtype=np.int64), np.full(n, NONE, dtype=np.int64)
        self.trick_mask, self.led = self._no_cards, self._no_suit
        self.cards = np.zeros((4, n), dtype=np.int64)      # by position in the trick, then row
        self.seats = np.zeros((4, n), dtype=np.int64)
        self.won = np.zeros((n, 4), dtype=np.int64)
        self.winners = np.zeros((n, rules.size), dtype=np.int64)
        self.plays = np.zeros((n, rules.size, 4), dtype=np.int8)     # each trick's cards from its leader on
        self.leaders = np.zeros((n, rules.size), dtype=np.int8)
        self.gave = np.zeros((n, 4), dtype=np.int64)                 # blind-nil exchange: cards given by seat
        self.received = np.zeros((n, 4), dtype=np.int64)
        self.outside = np.zeros(n, dtype=bool)      # trick.winner named a card not in the trick
        self.last_winner = np.zeros(n, dtype=np.int64)
        self.last_cards = np.zeros((n, 4), dtype=np.int64)

    @functools.cached_property
    def leader(self) -> np.ndarray:
        """The seat that leads the trick (first: rule ``play.first_leader``; replaced, never updated in place)."""
        return np.broadcast_to(self.fn["play.first_leader"](*ARGS["seating"](dealer=self.dealer)), (self.n,))

    @functools.cached_property
    def first_bidder(self) -> np.ndarray:
        """The seat that bids first (rule ``deal.first_bidder``)."""
        return np.broadcast_to(self.fn["deal.first_bidder"](*ARGS["seating"](dealer=self.dealer)), (self.n,))

    # ------------------------------------------------------------------ bids
    def bidder(self) -> np.ndarray:
        """The seat that bids next."""
        return (self.first_bidder + self.turn) % 4

    def _team_basics(self, team: np.ndarray) -> dict:
        first = team == 0
        (score_0, score_1), (bags_0, bags_1) = self.scores.T, self.bags.T
        return {"team_score": np.where(first, score_0, score_1), "team_bags": np.where(first, bags_0, bags_1),
                "opponents_score": np.where(first, score_1, score_0), "opponents_bags": np.where(first, bags_1, bags_0)}

    def _bid_turn(self, bid_n) -> _BidTurn:
        seat = self.bidder()
        partner = (seat + 2) % 4
        at = self._at + partner
        pk, pn = self.kind.reshape(-1)[at], self.num.reshape(-1)[at]
        facts = {"hand": self._flat[self._at + seat], "seat": seat, "dealer": self.dealer,
                 "position": self.turn + 1, "partner_kind": KIND_NAME[pk], "partner_n": pn, "bid_n": bid_n,
                 **self._team_basics(seat % 2)}
        args = ARGS["bid"](**facts)
        low = np.broadcast_to(self.fn["bid.regular_min"](*args), (self.n,))
        high = np.broadcast_to(self.fn["bid.regular_max"](*args), (self.n,))
        return _BidTurn(facts, low, high, pk, pn)

    def _own_refusal(self, turn: _BidTurn, kind: np.ndarray, n: np.ndarray) -> np.ndarray:
        """The first of the bidder's own rules that refuses bid (kind, n) (index into BID_RULES, -1: none)."""
        regular = kind == KIND_CODE[REGULAR]
        rule = np.where(regular & (n < turn.low), _MIN, np.where(regular & (n > turn.high), _MAX, -1))
        for code, name, index in _OWN_RULES:
            mine = kind == code
            if mine.any():
                refused = mine & ~np.asarray(self.fn[name](*ARGS["bid"](**turn.facts)), dtype=bool)
                rule = np.where((rule < 0) & refused, index, rule)
        blind = kind == KIND_CODE[BLIND]
        if blind.any():
            allowed = self.fn["blind_bid.allowed"](*ARGS["bid"](**{**turn.facts, "bid_n": n}))
            rule = np.where((rule < 0) & blind & ~np.asarray(allowed, dtype=bool), _BLIND, rule)
        return rule

    def _team_refusal(self, a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray], basics: dict,
                      skip_min: np.ndarray) -> np.ndarray:
        """The first refusal of ``engine.team_refusals`` for each row's pair of bids ``a``, ``b`` (kind
        codes, numbers) (index into BID_RULES, -1: none)."""
        args = ARGS["team_bid"](**team_bid_facts(a, b), **basics)
        fn = self.fn
        (kind_a, n_a), (kind_b, n_b) = a, b
        has_regular = (kind_a == KIND_CODE[REGULAR]) | (kind_b == KIND_CODE[REGULAR])
        contract = fn["bid.team_contract"](*args)
        low, high = fn["bid.team_min"](*args), fn["bid.team_max"](*args)
        valid = np.asarray(fn["bid.team_valid"](*args), dtype=bool)
        blind_a, blind_b = kind_a == KIND_CODE[BLIND], kind_b == KIND_CODE[BLIND]
        mismatch = (blind_a | blind_b) & ~(blind_a & blind_b & (n_a == n_b))
        rule = np.where(~valid, _TVALID, -1)
        rule = np.where(has_regular & (contract > high), _TMAX, rule)
        rule = np.where(has_regular & (contract < low) & ~skip_min, _TMIN, rule)
        return np.where(mismatch, _BLIND, rule)

    def _pair_refusal(self, turn: _BidTurn, kind: np.ndarray, n: np.ndarray) -> np.ndarray:
        """``_team_refusal`` of the partner's bid with bid (kind, n), the nil bidder's minimum skipped
        where the partner may raise."""
        may_raise = bool(self.rules.params["nil.partner_may_raise"])
        skip_min = may_raise & ((kind == KIND_CODE[NIL]) | (kind == KIND_CODE[BLIND_NIL])) & (
            turn.partner_kind == KIND_CODE[REGULAR])
        basics = {key: turn.facts[key] for key in ("team_score", "team_bags", "opponents_score", "opponents_bags")}
        return self._team_refusal((turn.partner_kind, turn.partner_n), (kind, n), basics, skip_min)

    def bid_refusals(self, kind: np.ndarray, n: np.ndarray) -> np.ndarray:
        """Array ``engine.bid_refusals``: the first rule that refuses the next bidder's bid (kind code, n)
        (index into BID_RULES, -1 where the bid stands)."""
        turn = self._bid_turn(n)
        rule = self._own_refusal(turn, kind, n)
        has_partner = turn.partner_kind != PENDING
        if has_partner.any():
            rule = np.where((rule < 0) & has_partner, self._pair_refusal(turn, kind, n), rule)
        return rule

    def legal_bids(self) -> np.ndarray:
        """Array ``engine.legal_bids``: (N, K) whether the next bidder may make each of
        ``HandRules.candidates``."""
        rules = self.rules
        turn = self._bid_turn(0)
        valid = self._own_ok(turn)
        has_partner = turn.partner_kind != PENDING
        if has_partner.any():
            valid &= ~has_partner[:, None] | self._pair_ok(turn)
        blind_partner = turn.partner_kind == KIND_CODE[BLIND]       # a blind team bid is the partnership's
        if blind_partner.any():
            same = (rules.cand_kind == KIND_CODE[BLIND])[None, :] & (rules.cand_n[None, :] == turn.partner_n[:, None])
            valid = np.where(blind_partner[:, None], same, valid)
        return valid

    def _own_ok(self, turn: _BidTurn) -> np.ndarray:
        """(N, K) whether the bidder's own rules allow each candidate (``_own_refusal`` of every candidate,
        each rule evaluated once per turn, or once per candidate when it reads the bid's number); a value
        the same in every row is applied to a column at once."""
        rules = self.rules
        kinds, nums = rules.cand_kind, rules.cand_n
        regular = kinds == KIND_CODE[REGULAR]
        low, high = turn.low, turn.high
        if (low == low[0]).all() and (high == high[0]).all():
            ok = np.repeat((~regular | ((nums >= low[0]) & (nums <= high[0])))[None, :], self.n, axis=0)
        else:
            ok = ~regular[None, :] | ((nums[None, :] >= low[:, None]) & (nums[None, :] <= high[:, None]))
        for code, name in ((KIND_CODE[NIL], "nil.allowed"), (KIND_CODE[BLIND_NIL], "blind_nil.allowed"),
                           (KIND_CODE[BLIND], "blind_bid.allowed")):
            columns = np.flatnonzero(kinds == code)
            reads_n = "bid.n" in self.rules.rs.rules[name].names
            for group in ([[j] for j in columns] if reads_n else [columns] if len(columns) else []):
                allowed = np.asarray(self.fn[name](*ARGS["bid"](**{**turn.facts, "bid_n": nums[group[0]]})), dtype=bool)
                if allowed.all() or not allowed.any():
                    ok[:, group] &= bool(allowed.all())
                else:
                    ok[:, group] &= allowed[:, None]
        return ok

    def _pair_ok(self, turn: _BidTurn) -> np.ndarray:
        """(N, K) whether the team rules allow each candidate beside the partner's bid (``_pair_refusal``),
        evaluated once per distinct situation (the partner's bid, the scores and bags) and candidate."""
        rules, k = self.rules, len(self.rules.candidates)
        basics = [turn.facts[key] for key in ("team_score", "team_bags", "opponents_score", "opponents_bags")]
        columns = [turn.partner_kind, turn.partner_n, *(np.broadcast_to(b, (self.n,)) for b in basics)]
        if all((c == c[0]).all() for c in columns[2:]):
            _, first, where = np.unique(columns[0] * (1 << 32) + columns[1], return_index=True,
                                        return_inverse=True)
        else:
            _, first, where = np.unique(np.stack(columns, axis=1), axis=0, return_index=True, return_inverse=True)
        situations = _BidTurn({key: np.repeat(np.broadcast_to(turn.facts[key], (self.n,))[first], k)
                               for key in ("team_score", "team_bags", "opponents_score", "opponents_bags")},
                              turn.low, turn.high, np.repeat(turn.partner_kind[first], k),
                              np.repeat(turn.partner_n[first], k))
        count = len(first)
        refused = self._pair_refusal(situations, np.tile(rules.cand_kind, count), np.tile(rules.cand_n, count))
        return (refused < 0).reshape(count, k)[where.reshape(-1)]

    def bid(self, kind: np.ndarray, n: np.ndarray) -> None:
        """The next bidder bids (kind code, n)."""
        at = self._at + self.bidder()
        self.kind.reshape(-1)[at] = kind
        self.num.reshape(-1)[at] = n
        self.turn += 1

    def raise_options(self) -> tuple[np.ndarray, np.ndarray]:
        """For the partner of the seat that bid last: whether a nil bid lets them raise their regular
        bid, and (N, size + 1) which values they may raise it to (their bid or more)."""
        rows, size = self.rows, self.rules.size
        seat = (self.first_bidder + self.turn - 1) % 4
        partner = (seat + 2) % 4
        mine, theirs = self.kind[rows, seat], self.kind[rows, partner]
        eligible = ((mine == KIND_CODE[NIL]) | (mine == KIND_CODE[BLIND_NIL])) & (theirs == KIND_CODE[REGULAR])
        options = np.zeros((self.n, size + 1), dtype=bool)
        if not eligible.any():
            return eligible, options
        basics = self._team_basics(seat % 2)
        current = self.num[rows, partner]
        no_skip = np.zeros(self.n, dtype=bool)
        regular, bid_n = np.full(self.n, KIND_CODE[REGULAR]), self.num[rows, seat]
        for value in range(1, size + 1):
            ok = self._team_refusal((regular, np.full(self.n, value)), (mine, bid_n), basics, no_skip) < 0
            options[:, value] = ok & (value >= current)
        return eligible, options

    def raise_bid(self, choose: BidChooser) -> None:
        """A nil bidder's partner who bid a regular number before may raise it (``nil.partner_may_raise``)."""
        eligible, options = self.raise_options()
        if not eligible.any():
            return
        partner = (self.first_bidder + self.turn + 1) % 4
        current = self.num[self.rows, partner]
        has = eligible & options.any(axis=1)
        self.num[self.rows, partner] = np.where(has, choose(options, partner), current)

    def exchange(self, choose: CardChooser) -> None:
        """The blind-nil exchange: each blind-nil bidder gives ``blind_nil.exchange`` cards to the partner
        and gets as many back (chosen from the hands before the swap), seat by seat (recorded in ``gave`` and
        ``received``)."""
        count = self.rules.params["blind_nil.exchange"]
        if not count:
            return
        hands, rows = self.hands, self.rows
        for seat in range(4):
            active = self.kind[:, seat] == KIND_CODE[BLIND_NIL]
            if not active.any():
                continue
            partner = (seat + 2) % 4
            give = choose(hands[:, seat], count)
            back = choose(hands[:, partner], count)
            give, back = np.where(active, give, 0), np.where(active, back, 0)
            self.gave[:, seat], self.received[:, seat] = give, back
            hands[rows, seat] = (hands[:, seat] & ~give) | back
            hands[rows, partner] = (hands[:, partner] & ~back) | give

    # ------------------------------------------------------------------ card play
    def to_play(self) -> np.ndarray:
        """The seat whose turn it is (the leader's turn order)."""
        return (self.leader + self.pos) & 3

    def _shared(self, key: tuple, compute: Callable[[], object]):
        """``compute()``, or with a memo the value shared by every hand (of those playing the same cards)
        whose ``key`` (what the value depends on besides the cards) is equal at this step."""
        if self.memo is None:
            return compute()
        return self.memo.get((*key, self.number, self.pos), compute)

    def _holding(self, seat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Where ``seat``'s hand is in ``_flat``, and the cards it holds."""
        def locate() -> tuple[np.ndarray, np.ndarray]:
            at = self._at + seat
            return at, self._flat[at]
        return self._shared(("hand",), locate)

    def legal(self, seat: np.ndarray | None = None, card_bit: np.ndarray | None = None
              ) -> tuple[np.ndarray, np.ndarray | None]:
        """Array ``engine.legal_mask`` for ``seat`` (default: whose turn it is).  Given ``card_bit``, also
        the first applied play constraint that excludes that card (index into PLAY_CONSTRAINTS, -1: none)."""
        hand = self._holding(self.to_play() if seat is None else seat)[1]
        leading = self.pos == 0
        names, keys = self.rules.constraints[(leading, self.number == 1)]
        args = ARGS["play"](hand=hand, trick_cards=self.trick_mask, trick_led_suit=self.led,
                            trick_number=self.number, trick_position=self.pos + 1, leading=leading,
                            trump_broken=self.broken, played=self.played)
        broken_by = self.rules.breaks_key          # trumps broken alike: by equal rules

        def evaluate() -> tuple[np.ndarray, np.ndarray | None]:
            permitted = [self._shared(("play", key, broken_by),
                                      lambda name=name: np.asarray(self.fn[name](*args)) & hand)
                         for name, key in zip(names, keys)]
            allowed, first = narrow(hand, permitted, card_bit)
            return allowed, None if first is None else _CONSTRAINT_INDEX[names][first]
        return self._shared(("legal", keys, broken_by, card_bit is None), evaluate)

    def play(self, card: np.ndarray, seat: np.ndarray | None = None) -> None:
        """``seat`` (default: whose turn it is) plays ``card``: trumps may break, the card leaves the hand
        and joins the trick (and ``plays``)."""
        seat = self.to_play() if seat is None else seat
        at, hand = self._holding(seat)
        leading = self.pos == 0
        args = ARGS["break"](card=card, hand=hand, leading=leading, trick_led_suit=self.led, trick_number=self.number)
        self.broken |= self._shared(("break", self.rules.breaks_key),
                                    lambda: np.asarray(self.fn["trump.breaks"](*args), dtype=bool))
        # the cards after the play (shared by hands playing the same cards: never updated in place)
        left, self.played, self.trick_mask = self._shared(("move",), lambda: self._move(hand, card))
        self._flat[at] = left
        self.cards[self.pos] = card
        self.plays[:, self.number - 1, self.pos] = card
        self.seats[self.pos] = seat
        if leading:
            self.led = self.rules.suit_of[card]
        self.pos += 1

    def _move(self, hand: np.ndarray, card: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The hand without ``card``, and the cards played and the trick with it."""
        bit = np.left_shift(1, card)
        return hand & ~bit, self.played | bit, self.trick_mask | bit

    def finish_trick(self, leader: np.ndarray | None = None) -> np.ndarray:
        """Array ``engine.trick_winner`` on the complete trick: the winner takes it and leads next (or
        ``leader``, a replay's recorded next leader).  Returns the winning seats."""
        rows = self.rows
        winner, outside = self._shared(("winner", self.rules.winner_key), self._trick_winner)
        self.outside |= outside
        self.won.reshape(-1)[self._at + winner] += 1
        self.winners[:, self.number - 1] = winner
        self.leaders[:, self.number - 1] = self.seats[0]
        if self.number == self.rules.size:
            for pos in range(4):
                self.last_cards[rows, self.seats[pos]] = self.cards[pos]
            self.last_winner = winner
        self.leader = winner if leader is None else leader
        self.number, self.pos = self.number + 1, 0
        self.trick_mask, self.led = self._no_cards, self._no_suit
        return winner

    def adopt_play(self, other: BatchHand) -> None:
        """Take the card play of ``other`` (the same rows played under equal play rules): tricks won per
        seat and per trick, the cards and leaders of every trick, and the last trick."""
        self.won, self.winners, self.outside = other.won, other.winners, other.outside
        self.plays, self.leaders = other.plays, other.leaders
        self.last_winner, self.last_cards = other.last_winner, other.last_cards

    def _trick_winner(self) -> tuple[np.ndarray, np.ndarray]:
        """The seat whose card rule ``trick.winner`` names, and whether that card is outside the trick."""
        args = ARGS["trick"](trick_cards=self.trick_mask, trick_led_suit=self.led, trick_number=self.number,
                             trick_lead=self.cards[0])
        win_card = self.fn["trick.winner"](*args)
        winner = np.full(self.n, -1, dtype=np.int64)
        for pos in range(3, -1, -1):        # the first position that holds the card
            winner = np.where(self.cards[pos] == win_card, self.seats[pos], winner)
        outside = winner < 0
        return np.where(outside, self.seats[0], winner), outside

    # ------------------------------------------------------------------ score
    def score(self, reneges: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Array ``engine.score_hand`` with the last trick: hand points, bags added and bags after, (N, 2)
        by team.  ``reneges`` (N, R) are the seats that reneged, in order (-1: none)."""
        size = self.rules.size
        if (self.won.sum(axis=1) != size).any():
            raise GameError(f"tricks add up to {int(self.won.sum(axis=1)[0])}, not {size}", "tricks")
        adjust, offenders = self._reneges(reneges)
        forfeit = (self.rules.params["renege.mode"] == "forfeit") & offenders.any(axis=1)
        points, added, after = (np.zeros((self.n, 2), dtype=np.int64) for _ in range(3))
        for team in (0, 1):
            points[:, team], added[:, team], after[:, team] = self._score_team(
                team, adjust[:, team], forfeit & offenders[:, team], forfeit & ~offenders[:, team])
        return points, added, after

    def _reneges(self, reneges: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Tricks moved to or from each team (transfer mode, in renege order) and which teams reneged."""
        n, params = self.n, self.rules.params
        adjust = np.zeros((n, 2), dtype=np.int64)
        offenders = np.zeros((n, 2), dtype=bool)
        if reneges is None or not (reneges >= 0).any():
            return adjust, offenders
        mode = params["renege.mode"]
        if mode == "none":
            raise GameError("this variant defines no renege penalty; an illegal play is simply not allowed",
                            "events", "renege.mode", self.rules.rs.rules["renege.mode"].cite)
        for seat in reneges.T:
            off = seat % 2
            offenders[self.rows, off] |= seat >= 0
            if mode == "transfer":
                team_tricks = self.won[self.rows, off] + self.won[self.rows, off + 2] + adjust[self.rows, off]
                moved = np.where(seat >= 0, np.minimum(params["renege.transfer_tricks"], team_tricks), 0)
                adjust[self.rows, off] -= moved
                adjust[self.rows, 1 - off] += moved
        if mode == "forfeit" and offenders.all(axis=1).any():
            raise GameError("both partnerships reneged; the variant's forfeit rule covers one offending side",
                            "events", "renege.mode", self.rules.rs.rules["renege.mode"].cite)
        return adjust, offenders

    def _team_facts(self, team: int, adjust: np.ndarray, offender: np.ndarray, victim: np.ndarray) -> dict:
        """The team-hand context by name, plus the pair's bids and tricks (``kinds``, ``ns``, ``tricks``)."""
        seats = (team, team + 2)
        kinds, ns, tricks = self.kind[:, seats], self.num[:, seats], self.won[:, seats]
        regular, is_nil = kinds == KIND_CODE[REGULAR], (kinds == KIND_CODE[NIL]) | (kinds == KIND_CODE[BLIND_NIL])
        blind_at = kinds == KIND_CODE[BLIND]
        blind = blind_at.any(axis=1)
        basics = self._team_basics(np.full(self.n, team))
        pair_contract = self.fn["bid.team_contract"](*ARGS["team_bid"](
            **team_bid_facts((kinds[:, 0], ns[:, 0]), (kinds[:, 1], ns[:, 1])), **basics))
        contract = np.where(blind, np.where(blind_at[:, 0], ns[:, 0], ns[:, 1]),
                            np.where(regular.any(axis=1), pair_contract, 0))
        regular_tricks = np.where(is_nil, 0, tricks).sum(axis=1)
        nil_tricks = np.where(is_nil, tricks, 0).sum(axis=1)
        won = regular_tricks + (nil_tricks if self.rules.params["nil.tricks_count"] else 0) + adjust
        has_contract = blind | regular.any(axis=1)
        made = np.where(offender, False, np.where(victim, has_contract, has_contract & (won >= contract)))
        # overtricks: beyond the contract made, or beyond a contract of 0 where both partners bid nil
        counts = made | ~(has_contract | offender)
        beyond = regular_tricks + (nil_tricks if self.rules.params["nil.tricks_bags"] else 0) + adjust - contract
        nil_made = (is_nil & (tricks == 0)).sum(axis=1) * ~offender
        return {**basics, "team_contract": contract, "team_blind": blind, "team_tricks": regular_tricks + nil_tricks,
                "team_regular_tricks": regular_tricks, "team_nil_tricks": nil_tricks, "team_won": won,
                "team_made": made, "team_overtricks": np.where(counts, np.maximum(0, beyond), 0),
                "team_nil_count": is_nil.sum(axis=1), "team_nil_made": nil_made,
                "kinds": kinds, "tricks": tricks, "is_nil": is_nil, "has_contract": has_contract,
                "counts_overtricks": counts}

    def _contract_points(self, facts: dict) -> np.ndarray:
        """Points for the contract (made or set, regular or blind) and the overtricks."""
        fn, args = self.fn, pick("team_hand", facts)
        made, blind, over = facts["team_made"], facts["team_blind"], facts["team_overtricks"]
        value = np.where(blind, np.where(made, fn["blind_bid.made"](*args), fn["blind_bid.set"](*args)),
                         np.where(made, fn["scoring.made"](*args), fn["scoring.set"](*args)))
        total = np.where(facts["has_contract"], value, 0)
        return total + np.where(over > 0, fn["scoring.overtrick_points"](*args) * over, 0)

    def _nil_points(self, facts: dict, offender: np.ndarray) -> np.ndarray:
        """Points for each nil and blind-nil bid of the pair (a forfeit: the offenders fail; a victim's nil is
        judged on its tricks)."""
        fn, total = self.fn, 0
        for i in range(2):
            blind_nil = facts["kinds"][:, i] == KIND_CODE[BLIND_NIL]
            taken = facts["tricks"][:, i]
            ok = (taken == 0) & ~offender
            args = pick("nil_hand", {**facts, "player_tricks": taken, "player_blind": blind_nil})
            value = np.where(blind_nil, np.where(ok, fn["blind_nil.made"](*args), fn["blind_nil.failed"](*args)),
                             np.where(ok, fn["nil.made"](*args), fn["nil.failed"](*args)))
            total = total + np.where(facts["is_nil"][:, i], value, 0)
        return total

    def _last_trick_bonus(self, team: int, facts: dict) -> np.ndarray:
        """Rule ``bonus.last_trick`` for the pair."""
        cards, nil = self.last_cards, facts["is_nil"]
        bits = [np.left_shift(1, cards[:, seat]) for seat in (team, team + 2)]
        return self.fn["bonus.last_trick"](*pick("bonus_hand", {
            **facts, "last_trick_won": self.last_winner % 2 == team,
            "last_trick_winning_card": cards[self.rows, self.last_winner], "last_trick_team_cards": bits[0] | bits[1],
            "last_trick_nil_cards": np.where(nil[:, 0], bits[0], 0) + np.where(nil[:, 1], bits[1], 0)}))

    def _bags(self, team: int, facts: dict, victim: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Bags added, the bag penalty points, and the bags after the hand."""
        params = self.rules.params
        added = np.where(facts["counts_overtricks"], self.fn["scoring.bags"](*pick("team_hand", facts)), 0)
        if not params["renege.victim_bags"]:
            added = np.where(victim, 0, added)
        total = self.bags[:, team] + added
        limit = params["bags.limit"]
        if limit <= 0:
            return added, np.zeros(self.n, dtype=np.int64), total
        if params["bags.carry"]:
            hits = np.where(total >= limit, total // limit, 0)
            return added, hits * params["bags.penalty"], total - hits * limit
        hit = total >= limit
        return added, np.where(hit, params["bags.penalty"], 0), np.where(hit, 0, total)

    def _score_team(self, team: int, adjust: np.ndarray, offender: np.ndarray, victim: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One team's hand points, bags added and bags after (``engine._score_team``)."""
        facts = self._team_facts(team, adjust, offender, victim)
        points = self._contract_points(facts) + self._nil_points(facts, offender)
        points = points + self._last_trick_bonus(team, facts)
        added, penalty, bags_after = self._bags(team, facts, victim | (adjust > 0))
        return points + penalty, added, bags_after
