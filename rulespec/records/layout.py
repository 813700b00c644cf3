"""PBN and PTN files as a whole: their records read one by one, and hands written as tag pairs.

Reading: each record (``tags.split_games``) is read on its own (``table.read_game``), so one that is cut
short or inconsistent is refused with its problems while the others are kept.  Writing: a hand with its
tricks in play order, each with its leader, becomes a Deal from the dealer, an Auction from the first
bidder and a Play from the first leader, the cards of each trick in fixed columns (the Play seat first).
"""
from __future__ import annotations

from ..core import cards as C
from ..errors import RecordError
from .model import HandRecord, Limits, Reading, RecordProblem, Where
from .notation import bid_token, card_token, format_deal
from .table import Dialect, read_game
from .tags import split_games


def read_tagged(text: str, dialect: Dialect, limits: Limits) -> Reading:
    """Every record of a PBN or PTN text: the complete hands, and the problems of the others."""
    reading = Reading(dialect.name)
    for game in split_games(text, pbn=dialect.name == "pbn"):
        if len(reading.hands) >= limits.hands:
            reading.problems.append(RecordProblem(f"more than {limits.hands} hands: the rest are not read",
                                                  Where(game.line), game.number))
            break
        record, problems = read_game(game, dialect)
        if record is not None:
            reading.hands.append(record)
        reading.problems += problems
    return reading


def quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def tag(name: str, value: str) -> str:
    return f"[{name} {quoted(value)}]"


def play_rows(record: HandRecord) -> tuple[int, list[str]]:
    """The first leader and the play lines: each trick's cards in columns from the first leader's seat."""
    tricks = record.tricks or ()
    if any(t.leader is None for t in tricks):
        raise RecordError("the tricks need their leaders to be written as play lines (put the play in order "
                          "under a variant first)", "play")
    first = tricks[0].leader if tricks else (record.dealer + 1) % 4
    lines = []
    for trick in tricks:
        by_seat = {(trick.leader + k) % 4: card for k, card in enumerate(trick.cards)}
        lines.append(" ".join(card_token(by_seat[(first + k) % 4]) for k in range(4)))
    return first, lines


def hand_sections(record: HandRecord, jokers: bool, first_bidder: int | None = None) -> list[str]:
    """The Deal, Auction and Play of a hand: the deal from the dealer, the bids from ``first_bidder`` (by
    default the dealer's left), the play from the first leader."""
    lines = [tag("Dealer", C.SEATS[record.dealer]), tag("Deal", format_deal(record.hands, record.dealer, jokers))]
    if record.bids is not None:
        bidder = (record.dealer + 1) % 4 if first_bidder is None else first_bidder
        lines += [tag("Auction", C.SEATS[bidder]), " ".join(bid_token(record.bids[(bidder + k) % 4])
                                                            for k in range(4))]
    if record.tricks:
        first, rows = play_rows(record)
        lines += [tag("Play", C.SEATS[first]), *rows]
    return lines
