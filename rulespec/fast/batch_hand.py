"""The hand procedure on arrays: one row per hand, every row at the same step (lockstep).

The array twin of the scalar ``HandState``, with the same step names: ``bid`` (with the queries
``legal_bids`` and ``bid_refusals``), ``raise_bid``, ``exchange``, ``legal``, ``play``, ``finish_trick``
and ``score``.  Each step is a call of the lowered form's function from the array back end
(``array_hand``); this class only keeps the state between the calls.  The differential tester's
batch replay walks it with recorded bids and cards (it asks which rule refuses each bid and forbids each
card); ``batch.BatchEngine`` plays whole hands with ``array_hand``'s ``whole_hand`` directly.
"""
from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from ..core import cards as C
from ..core.schema import BID_KINDS
from ..errors import GameError
from ..game import bid_candidates
from ..game.steps import KIND_CODE
from ..lang.compiler import NONE
from ..model.ruleset import Ruleset
from ..procedure.bidding import BID_RULES
from ..procedure.lang import K_PENDING
from .array_hand import ArrayModule, array_module

__all__ = ["BID_RULES", "KIND_CODE", "BatchHand", "HandRules", "PENDING"]
PENDING = K_PENDING
KIND_NAME = np.array(BID_KINDS)          # code -> the name the rules see ('pending': not bid yet)

BidChooser = Callable[[np.ndarray, np.ndarray], np.ndarray]     # (options (N, K) bool, seat) -> column
CardChooser = Callable[[np.ndarray, int], np.ndarray]           # (masks, count) -> chosen cards as masks


class HandRules:
    """A ruleset's array functions and the candidates' codes (made once per ruleset)."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.module: ArrayModule = array_module(rs)
        self.params = rs.params
        self.size: int = rs.params["deal.hand_size"]
        self.table = C.table_of(rs.params)
        self.candidates = bid_candidates(rs)
        self.cand_kind = np.array([KIND_CODE[b.kind] for b in self.candidates])
        self.cand_n = np.array([b.n for b in self.candidates])


def _rows_last(value) -> np.ndarray:
    """An (N, ...) array as the array functions keep it, the hands on the last axis (a transpose: a tenth of
    ``np.moveaxis``'s cost on the small arrays of a step)."""
    value = np.asarray(value)
    return np.ascontiguousarray(value.transpose((*range(1, value.ndim), 0)))


def _filled(shape: tuple[int, ...], value: int) -> np.ndarray:
    """``np.full(shape, value)`` of int64 (at a third of its cost)."""
    out = np.empty(shape, dtype=np.int64)
    out.fill(value)
    return out


class _ByRow:
    """A state array kept with the hands on its last axis, shown (and set) with a row per hand."""

    def __set_name__(self, owner, name: str) -> None:
        self.name = "_" + name

    def __get__(self, obj, owner=None) -> np.ndarray:
        value = getattr(obj, self.name)
        return value.transpose((value.ndim - 1, *range(value.ndim - 1)))

    def __set__(self, obj, value) -> None:
        setattr(obj, self.name, _rows_last(value))


# the bids so far as rule bid.table_valid sees them (``BatchHand._table``): the array functions' parameter names
_TABLE_FACTS = frozenset({"bids_made", "bids_total", "opponents_bids", "opponents_tricks"})


class BatchHand:
    """One hand per row, from the bids to the score.  ``hands`` (N, 4) masks are updated in place;
    ``scores`` and ``bags`` (N, 2) are the teams' totals before the hand (default 0-0); ``leader`` the
    first leader when not the rules' (a replay's recorded one).  The state arrays are kept as the array
    functions take them (the hands on the last axis) and shown with a row per hand."""

    hands, scores, bags, kind, num, won = _ByRow(), _ByRow(), _ByRow(), _ByRow(), _ByRow(), _ByRow()
    winners, plays, leaders, gave, received, last_cards = _ByRow(), _ByRow(), _ByRow(), _ByRow(), _ByRow(), _ByRow()

    def __init__(self, rules: HandRules, hands: np.ndarray, dealer: np.ndarray,
                 scores: np.ndarray | None = None, bags: np.ndarray | None = None,
                 leader: np.ndarray | None = None):
        n, table = len(hands), rules.table
        self.rules, self.fn, self.table = rules, rules.module, table
        self.n, self.rows = n, np.arange(n)
        places, sides, size = table.places, table.sides, rules.size   # (by seat: at least four, as the form's)
        # the state arrays made in the layout kept (the hands last), not moved there
        self.hands = _padded(hands, C.MAX_SEATS)
        self.dealer = _per_row(np.asarray(dealer, dtype=np.int64), n)
        self._scores = np.zeros((sides, n), dtype=np.int64) if scores is None else _rows_last(_padded(scores, sides))
        self._bags = np.zeros((sides, n), dtype=np.int64) if bags is None else _rows_last(_padded(bags, sides))
        # bidding
        self._kind = _filled((places, n), PENDING)
        self._num = np.zeros((places, n), dtype=np.int64)
        self.turn = 0
        # card play
        if leader is not None:            # (else the first_leader rule's, when first asked)
            self.leader = leader
        self.broken = np.zeros(n, dtype=bool)
        self.played = np.zeros(n, dtype=np.int64)
        self.number, self.pos = 1, 0
        self.trick_mask, self.led = np.zeros(n, dtype=np.int64), _filled((n,), NONE)
        self.cards = np.zeros((places, n), dtype=np.int64)      # by position in the trick, then row
        self.seats = np.zeros((places, n), dtype=np.int64)
        self._won = np.zeros((places, n), dtype=np.int64)
        self._winners = np.zeros((size, n), dtype=np.int64)
        self._plays = np.zeros((size, places, n), dtype=np.int8)     # each trick's cards from its leader on
        self._leaders = np.zeros((size, n), dtype=np.int8)
        self._gave = np.zeros((places, n), dtype=np.int64)           # blind-nil exchange: cards given by seat
        self._received = np.zeros((places, n), dtype=np.int64)
        self.outside = np.zeros(n, dtype=bool)      # trick.winner named a card not in the trick
        self.last_winner = np.zeros(n, dtype=np.int64)
        self._last_cards = np.zeros((places, n), dtype=np.int64)
        self.contract = np.zeros((n, sides), dtype=np.int64)    # by side, once scored: the contract,
        self.made = np.zeros((n, sides), dtype=bool)              # whether made

    def _seating(self, rule: str) -> np.ndarray:
        return _per_row(seat_rule(self.rules.rs, rule, self.dealer), self.n)

    @functools.cached_property
    def leader(self) -> np.ndarray:
        """The seat that leads the trick (first: the lowered form's ``first_leader``, asked once the bids are in;
        replaced, never updated in place)."""
        if self.rules.params["play.first_leader_by"] == "seat":
            return self._seating("play.first_leader")
        return _per_row(self.fn.first_leader(self.rows, self._hands, self._kind, self._num, self.dealer), self.n)

    @functools.cached_property
    def first_bidder(self) -> np.ndarray:
        """The seat that bids first (rule ``deal.first_bidder``)."""
        return self._seating("deal.first_bidder")

    # ------------------------------------------------------------------ bids
    def bidder(self) -> np.ndarray:
        """The seat that bids next."""
        return self._bidders[self.turn % self.table.seats]

    @functools.cached_property
    def _bidders(self) -> np.ndarray:
        """(seats, N) the seat that bids at each turn of the bidding."""
        return (self.first_bidder + np.arange(self.table.seats)[:, None]) % self.table.seats

    def _rival(self, side: np.ndarray) -> np.ndarray:
        """Each row's side whose score is compared with ``side``'s (``Table.rival``: the other partnership where
        there are two, else the leader among the other sides, the first of them clockwise on equal scores)."""
        scores, rows, sides = self._scores, self.rows, self.table.sides
        if self.table.partners and sides == 2:
            return 1 - side
        rival = (side + 1) % sides
        for k in range(2, sides):
            other = (side + k) % sides
            rival = np.where(scores[other, rows] > scores[rival, rows], other, rival)
        return rival

    def turn_facts(self, entry: str) -> tuple:
        """The next bidder's hand, seat, dealer, place in the bidding, partner's bid, the totals and the bids so
        far (``_table``; zeros where array function ``entry`` reads none of them)."""
        rows, seat = self.rows, self.bidder()
        table = (0, 0, 0, 0) if _TABLE_FACTS <= self.fn.unread[entry] else self._table(seat)
        if self.table.partners:
            half = self.table.seats // 2
            team, partner = seat % half, (seat + half) % self.table.seats
            rival = self._rival(team)
            return (self._hands[seat, rows], seat, self.dealer, self.turn + 1, self._kind[partner, rows],
                    self._num[partner, rows], self._scores[team, rows], self._bags[team, rows],
                    self._scores[rival, rows], self._bags[rival, rows], *table)
        rival = self._rival(seat)
        return (self._hands[seat, rows], seat, self.dealer, self.turn + 1, _filled((self.n,), PENDING),
                np.zeros(self.n, dtype=np.int64), self._scores[seat, rows], self._bags[seat, rows],
                self._scores[rival, rows], self._bags[rival, rows], *table)

    def _table(self, seat: np.ndarray) -> tuple[np.ndarray, ...]:
        """The bids so far as rule ``bid.table_valid`` sees them from each row's ``seat`` (``bidding.table_of``):
        how many, the tricks they name, how many of the other side's and their tricks."""
        kind = self._kind
        made = kind != PENDING
        named = np.where((kind == KIND_CODE["regular"]) | (kind == KIND_CODE["blind"]), self._num, 0)
        places = np.arange(self.table.places)[:, None]
        others = places != seat
        half = self.table.seats // 2
        side = places % half if self.table.partners else places
        opponents = (side != (seat % half if self.table.partners else seat)) & (places < self.table.seats)
        return ((made & others).sum(axis=0), (named * others).sum(axis=0), (made & opponents).sum(axis=0),
                (named * opponents).sum(axis=0))

    def bid_refusals(self, kind: np.ndarray, n: np.ndarray, facts: tuple | None = None) -> np.ndarray:
        """The first rule that refuses the next bidder's bid (kind code, n) (index into BID_RULES, -1 where the
        bid stands).  ``facts``: the turn's facts (``turn_facts``), when the caller has them."""
        refusal = self.fn.bid_refusal     # (looked up first: lowered on first use, ``unread`` then known)
        return _per_row(refusal(self.rows, kind, n, *(facts or self.turn_facts("bid_refusal")), True), self.n)

    def turn_key(self, entry: str) -> tuple:
        """A key equal for two hands of these rows whose array function ``entry`` is given the same facts about
        the next bidder (``turn_facts``) once they have made the same bids: the same table and bidding order, and
        ``entry`` reading the bids so far or not alike."""
        getattr(self.fn, entry)           # (lowered on first use, ``unread`` then known)
        return self.table, self._bidders.tobytes(), _TABLE_FACTS <= self.fn.unread[entry]

    def legal_bids(self) -> np.ndarray:
        """(N, K) whether the next bidder may make each of ``HandRules.candidates``."""
        options = np.zeros((len(self.rules.candidates), self.n), dtype=np.int64)
        legal = self.fn.legal_bids
        legal(self.rows, options, *self.turn_facts("legal_bids"))
        return options.T != 0

    def bid(self, kind: np.ndarray, n: np.ndarray) -> None:
        """The next bidder bids (kind code, n)."""
        seat = self.bidder()
        self._kind[seat, self.rows] = kind
        self._num[seat, self.rows] = n
        self.turn += 1

    def raise_options(self) -> tuple[np.ndarray, np.ndarray]:
        """For the partner of the seat that bid last: whether a nil bid lets them raise their regular bid, and
        (N, size + 1) which values they may raise it to (their bid or more)."""
        rows, size = self.rows, self.rules.size
        if not self.table.partners:
            return np.zeros(self.n, dtype=bool), np.zeros((self.n, size + 1), dtype=bool)
        seats, half = self.table.seats, self.table.seats // 2
        seat = (self.first_bidder + self.turn - 1) % seats
        partner, team = (seat + half) % seats, seat % half
        rival = self._rival(team)
        mine, theirs = self._kind[seat, rows], self._kind[partner, rows]
        eligible = _per_row(self.fn.may_raise(rows, mine, theirs), self.n)
        options = np.zeros((size + 1, self.n), dtype=np.int64)
        if eligible.any():
            self.fn.raise_options(rows, options, self._num[partner, rows], mine, self._scores[team, rows],
                                  self._bags[team, rows], self._scores[rival, rows], self._bags[rival, rows])
        return eligible, (options.T != 0) & eligible[:, None]

    def raise_bid(self, choose: BidChooser) -> None:
        """A nil bidder's partner who bid a regular number before may raise it (``nil.partner_may_raise``)."""
        eligible, options = self.raise_options()
        if not eligible.any():
            return
        partner = (self.first_bidder + self.turn - 1 + self.table.seats // 2) % self.table.seats
        current = self._num[partner, self.rows]
        has = eligible & options.any(axis=1)
        self._num[partner, self.rows] = np.where(has, choose(options, partner), current)

    def exchange(self, choose: CardChooser) -> None:
        """The blind-nil exchange: each blind-nil bidder gives ``blind_nil.exchange`` cards to the partner and
        gets as many back (chosen from the hands before the swap), seat by seat."""
        def cards(rows, seat, hand, count, kind):
            return choose(_per_row(hand, self.n), count)
        chosen = {"_choose_cards": cards}
        self.fn.exchange(self.rows, self._hands, self._kind, self._gave, self._received,
                         *(chosen[name] for name in self.fn.choosers["exchange"]))

    # ------------------------------------------------------------------ card play
    def to_play(self) -> np.ndarray:
        """The seat whose turn it is (the leader's turn order)."""
        return (self.leader + self.pos) % self.table.seats

    def _situation(self) -> tuple:
        return self.trick_mask, self.led, self.number, self.pos + 1, self.pos == 0, self.broken, self.played

    def hand_of(self, seat: np.ndarray) -> np.ndarray:
        """Each row's cards in the hand of its ``seat``."""
        return self._hands[seat, self.rows]

    def legal(self, seat: np.ndarray | None = None, card_bit: np.ndarray | None = None,
              hand: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
        """The legal cards of ``seat`` (default: whose turn it is; ``hand``: its cards, when the caller has
        them).  Given ``card_bit``, also the first applied play constraint that excludes that card (index into
        PLAY_CONSTRAINTS, -1: none)."""
        if hand is None:
            hand = self.hand_of(self.to_play() if seat is None else seat)
        if card_bit is None:
            return _per_row(self.fn.legal(self.rows, hand, *self._situation()), self.n), None
        card = np.bitwise_count(np.asarray(card_bit, dtype=np.int64) - 1).astype(np.int64)   # the bit's card id
        allowed, first = self.fn.legal_forbidding(self.rows, hand, card, *self._situation())
        return _per_row(allowed, self.n), _per_row(first, self.n)

    def play(self, card: np.ndarray, seat: np.ndarray | None = None, hand: np.ndarray | None = None) -> None:
        """``seat`` (default: whose turn it is; ``hand``: its cards, when the caller has them) plays ``card``:
        trumps may break, the card leaves the hand and joins the trick (and ``plays``)."""
        seat = self.to_play() if seat is None else seat
        broken, played, trick_mask, led = self.fn.play_card(
            self.rows, self._hands, seat, self.hand_of(seat) if hand is None else hand, card, self.cards, self.seats,
            *self._situation())
        n = self.n
        self.broken, self.played = _per_row(broken, n), _per_row(played, n)
        self.trick_mask, self.led = _per_row(trick_mask, n), _per_row(led, n)
        self._plays[self.number - 1, self.pos] = card
        self.pos += 1

    def winner_place(self) -> np.ndarray:
        """Where in the complete trick the card rule ``trick.winner`` names is (-1: not in the trick)."""
        return _per_row(self.fn.winner_place(self.rows, self.cards, self.trick_mask, self.led, self.number), self.n)

    def finish_trick(self, leader: np.ndarray | None = None, place: np.ndarray | None = None) -> np.ndarray:
        """The winner of the complete trick takes it and leads next (or ``leader``, a replay's recorded next
        leader; ``place``: ``winner_place``, when the caller has it).  Returns the winning seats."""
        rows = self.rows
        place = self.winner_place() if place is None else place
        outside = place < 0            # the rule named a card not in the trick: the leader takes it here
        self.outside |= outside
        winner = self.seats[np.where(outside, 0, place), rows]
        self._won[winner, rows] += 1
        self._winners[self.number - 1] = winner
        self._leaders[self.number - 1] = self.seats[0]
        if self.number == self.rules.size:
            for pos in range(self.table.seats):
                self._last_cards[self.seats[pos], rows] = self.cards[pos]
            self.last_winner = winner
        self.leader = winner if leader is None else leader
        self.number, self.pos = self.number + 1, 0
        self.trick_mask, self.led = np.zeros(self.n, dtype=np.int64), _filled((self.n,), NONE)
        return winner

    def adopt_play(self, other: BatchHand) -> None:
        """Take the card play of ``other`` (the same rows played under equal play rules): tricks won per
        seat and per trick, the cards and leaders of every trick, and the last trick."""
        self._won, self._winners, self.outside = other._won, other._winners, other.outside
        self._plays, self._leaders = other._plays, other._leaders
        self.last_winner, self._last_cards = other.last_winner, other._last_cards

    # ------------------------------------------------------------------ score
    def score(self, reneges: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Hand points, bags added and bags after, (N, sides) by side.  ``reneges`` (N, R) are the seats that
        reneged, in order (-1: none)."""
        size, n, rows, sides = self.rules.size, self.n, self.rows, self.table.sides
        if (self._won.sum(axis=0) != size).any():
            raise GameError(f"tricks add up to {int(self._won.sum(axis=0)[0])}, not {size}", "tricks")
        adjust, offenders = np.zeros((sides, n), dtype=np.int64), np.zeros((sides, n), dtype=np.int64)
        forfeit = np.zeros(n, dtype=bool)
        if reneges is not None and (reneges >= 0).any():
            forfeit = _per_row(self.fn.renege_transfers(rows, self._won, _rows_last(reneges),
                                                               reneges.shape[1], adjust, offenders), n)
        offenders = offenders != 0
        points, added, after = (np.zeros((n, sides), dtype=np.int64) for _ in range(3))
        for team in range(sides):
            p, a, b, c, m = self.fn.score_team(rows, team, self._kind, self._num, self._won, self._scores,
                                               self._bags, adjust[team], forfeit & offenders[team],
                                               forfeit & ~offenders[team], True, self.last_winner, self._last_cards)
            points[:, team], added[:, team], after[:, team] = p, a, b
            self.contract[:, team], self.made[:, team] = c, m
        return points, added, after


def _padded(values, width: int) -> np.ndarray:
    """(N, k) values with zero columns added up to ``width`` (a table's seats or sides in arrays of four)."""
    values = np.asarray(values, dtype=np.int64)
    if values.ndim == 2 and values.shape[1] < width:
        values = np.concatenate([values, np.zeros((len(values), width - values.shape[1]), dtype=np.int64)], axis=1)
    return values


def seat_rule(rs: Ruleset, rule: str, dealer: np.ndarray) -> np.ndarray:
    """A seating rule (``deal.first_bidder``, ``play.first_leader``) for each row's dealer (one of its seats)."""
    by_dealer = np.array([rs.fn[rule](d) for d in range(rs.params["table.seats"])], dtype=np.int64)
    return by_dealer[np.asarray(dealer, dtype=np.int64)]


def _per_row(value, n: int) -> np.ndarray:
    """``value`` (an array function's result: one value per row, or one for every row) with one value per row:
    the array itself where it already is one (``np.broadcast_to`` costs as much as the step on a few rows)."""
    if type(value) is np.ndarray and value.shape == (n,):
        return value
    return np.broadcast_to(value, (n,))
