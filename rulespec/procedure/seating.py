"""The lowered form: the table -- how many seats (rule ``table.seats``: 2 to 6, numbered clockwise from 0)
and who scores together (rule ``table.sides``: partners, each seat with the seat opposite -- ``s`` and
``s + seats / 2``, so ``s + 2`` at four seats and ``s + 3`` at six --, or each player alone).  Every phase asks
these helpers rather than counting to four: both rules are parameters, so each back end gets constants and the
four-seat partnership game lowers to the code it had before.

A side is a partnership (its lower seat: at four seats 0 for N and S, 1 for E and W; at six 0, 1 and 2) or,
alone, a player (its seat).
"""
from __future__ import annotations

from .lang import K_PENDING, NONE, inline, rule


@inline
def partnered():
    """Whether the seats play in partnerships of two (else each player alone)."""
    return rule("table.sides") == "partners"


@inline
def seat_count():
    """How many players sit at the table."""
    return rule("table.seats")


@inline
def side_count():
    """How many sides score (a partnership per pair of opposite seats, or one per player)."""
    return rule("table.seats") // 2 if rule("table.sides") == "partners" else rule("table.seats")


@inline
def next_seat(seat, steps):
    """The seat ``steps`` places clockwise (to the left) of ``seat``."""
    return (seat + steps) % rule("table.seats")


@inline
def side_of(seat):
    """The side ``seat`` scores for."""
    return seat % (rule("table.seats") // 2) if rule("table.sides") == "partners" else seat


@inline
def partner_of(seat):
    """``seat``'s partner, the seat opposite (``NONE``: each player alone)."""
    return (seat + rule("table.seats") // 2) % rule("table.seats") if rule("table.sides") == "partners" else NONE


@inline
def second_member(side):
    """A partnership's other seat (its first is the side's number); alone, the player's own seat."""
    return side + rule("table.seats") // 2 if rule("table.sides") == "partners" else side


@inline
def partner_bid_kind(kind, partner):
    """The kind of the bid of ``partner`` (a seat's partner: ``K_PENDING`` where each plays alone, or not yet)."""
    return kind[partner] if rule("table.sides") == "partners" else K_PENDING


@inline
def partner_value(values, partner):
    """The value of ``partner`` (a seat's partner) in a table by seat (0 where each plays alone)."""
    return values[partner] if rule("table.sides") == "partners" else 0


@inline
def rival(scores, side):
    """The other side whose score is compared with ``side``'s: the other partnership where there are two sides
    of partners, else the leader among the other sides (the first of them clockwise on equal scores)."""
    two = rule("table.sides") == "partners" and rule("table.seats") == 4
    sides = rule("table.seats") // 2 if rule("table.sides") == "partners" else rule("table.seats")
    other = 1 - side if two else (side + 1) % sides
    for k in range(2, 2 if two else sides):
        candidate = (side + k) % sides
        if scores[candidate] > scores[other]:
            other = candidate
    return other


@inline
def trick_places():
    """The places in a trick from the last to the first (one card per seat)."""
    return (3, 2, 1, 0) if rule("table.seats") == 4 else (
        (2, 1, 0) if rule("table.seats") == 3 else (
            (1, 0) if rule("table.seats") == 2 else (
                (4, 3, 2, 1, 0) if rule("table.seats") == 5 else (5, 4, 3, 2, 1, 0))))


@inline
def places():
    """How many places an array by seat keeps (at least four: the four-seat game's arrays as they were)."""
    return 4 if rule("table.seats") <= 4 else rule("table.seats")
