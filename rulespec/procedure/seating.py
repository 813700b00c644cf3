"""The lowered form: the table -- how many seats (rule ``table.seats``: 2, 3 or 4, numbered clockwise from 0)
and who scores together (rule ``table.sides``: partners, seat ``s`` with ``s + 2`` on four seats, or each
player alone).  Every phase asks these helpers rather than counting to four: both rules are parameters, so
each back end gets constants and the four-seat partnership game lowers to the code it had before.

A side is a partnership (0: N and S, 1: E and W) or, alone, a player (its seat).
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
    """How many sides score (two partnerships, or one per player)."""
    return 2 if rule("table.sides") == "partners" else rule("table.seats")


@inline
def next_seat(seat, steps):
    """The seat ``steps`` places clockwise (to the left) of ``seat``."""
    return (seat + steps) % rule("table.seats")


@inline
def side_of(seat):
    """The side ``seat`` scores for."""
    return seat % 2 if rule("table.sides") == "partners" else seat


@inline
def partner_of(seat):
    """``seat``'s partner (``NONE``: each player alone)."""
    return (seat + 2) % 4 if rule("table.sides") == "partners" else NONE


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
    """The other side whose score is compared with ``side``'s: the other partnership, or alone the leader among
    the other players (the first of them clockwise on equal scores)."""
    other = 1 - side if rule("table.sides") == "partners" else (side + 1) % rule("table.seats")
    for k in range(2, 2 if rule("table.sides") == "partners" else rule("table.seats")):
        candidate = (side + k) % rule("table.seats")
        if scores[candidate] > scores[other]:
            other = candidate
    return other


@inline
def trick_places():
    """The places in a trick from the last to the first (one card per seat)."""
    return (3, 2, 1, 0) if rule("table.seats") == 4 else ((2, 1, 0) if rule("table.seats") == 3 else (1, 0))
