"""Put a record's play in the order it was played, which takes a variant's trick winners.

PBN and PTN write each trick as a row of cards in fixed columns, column k the seat k places clockwise
from the Play tag's seat, not in the order played: the first trick is led by that seat and each later
one by the winner of the trick before, so the order of the cards follows from who won each trick.
JSON records are in play order already; those without leaders get them the same way.  Which variant
decides the winners is the caller's choice (the rules the record was played under, where it says).
"""
from __future__ import annotations

from ..core import cards as C
from ..errors import RecordError, RulespecError
from ..game import HandState, seat_rule, trick_winner
from ..model.ruleset import Ruleset
from .model import HandRecord, RecordProblem, Trick


def _winner(rs: Ruleset, cards: tuple[int, ...], number: int) -> int:
    return trick_winner(rs, list(cards), number)[0]


def in_play_order(record: HandRecord, rs: Ruleset) -> tuple[HandRecord | None, RecordProblem | None]:
    """``record`` with its tricks in play order and each trick's leader, under ``rs``'s trick winners, or
    the problem that stops it (a card outside ``rs``'s pack, a winner rule that fails)."""
    try:
        if record.rows is not None:
            return record.with_tricks(_from_rows(record, rs)), None
        if record.tricks is not None and any(t.leader is None for t in record.tricks):
            return record.with_tricks(_with_leaders(record, rs)), None
    except RulespecError as exc:
        return None, RecordProblem(f"the play cannot be put in order under '{rs.id}': {exc}",
                                   record.place("play"), record.number)
    return record, None


def _from_rows(record: HandRecord, rs: Ruleset) -> tuple[Trick, ...]:
    seat, leader, out = record.play_seat, record.play_seat, []
    for number, row in enumerate(record.rows, 1):
        start = (leader - seat) % 4
        cards = tuple(row.cards[(start + k) % 4] for k in range(4))
        _in_pack(rs, cards)
        out.append(Trick(cards, leader, row.where))
        leader = (leader + _winner(rs, cards, number)) % 4
    return tuple(out)


def _first_leader(record: HandRecord, rs: Ruleset) -> int:
    """Who leads the first trick under ``rs``: its seat rule, or where it depends on the bids or on who holds
    a card (``play.first_leader_by``), the hand's own first leader from the record's deal and bids."""
    if rs.params["play.first_leader_by"] == "seat" or record.bids is None:
        return seat_rule(rs, "play.first_leader", record.dealer)
    state = HandState(rs, list(record.hands), record.dealer)
    state.set_bids(record.bids)
    return state.leader


def _with_leaders(record: HandRecord, rs: Ruleset) -> tuple[Trick, ...]:
    leader, out = _first_leader(record, rs), []
    for number, trick in enumerate(record.tricks, 1):
        given = trick.leader if trick.leader is not None else leader
        _in_pack(rs, trick.cards)
        out.append(Trick(trick.cards, given, trick.where, trick.winner))
        leader = (given + _winner(rs, trick.cards, number)) % len(record.hands)
    return tuple(out)


def _in_pack(rs: Ruleset, cards: tuple[int, ...]) -> None:
    outside = [C.card_name(c) for c in cards if not rs.deck >> c & 1]
    if outside:
        raise RecordError(f"{', '.join(outside)} not in the pack of '{rs.id}'")
