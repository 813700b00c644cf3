"""What a game record holds once read: hands, each with its deal, bids and play, and the problems found.

A file is read into a ``Reading``: the complete ``HandRecord``s it holds and a ``RecordProblem`` for
every record (or part of one) that could not be read, located by line and tag (PBN, PTN) or by line
and JSON path (this project's JSON lines).  Seats are 0..3 (N E S W), cards are ids (``core.cards``).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..game import Bid

MAX_FILE_BYTES = 8 * 1024 * 1024     # a record file read by the command line
MAX_FILE_HANDS = 20_000              # hands read from one file (the rest are refused, located)
MAX_REQUEST_BYTES = 192 * 1024       # a record sent to POST /v1/audit or /v1/review
MAX_REQUEST_HANDS = 100              # hands of a record sent to the API


@dataclass(frozen=True)
class Limits:
    """The most bytes and hands one reading takes."""
    bytes: int = MAX_FILE_BYTES
    hands: int = MAX_FILE_HANDS


FILE_LIMITS = Limits()
REQUEST_LIMITS = Limits(MAX_REQUEST_BYTES, MAX_REQUEST_HANDS)


@dataclass(frozen=True)
class Where:
    """A place in a record file: the line (1-based), the tag of the section it is in (PBN/PTN) or the
    JSON path inside that line (JSON records)."""
    line: int | None = None
    tag: str | None = None
    path: str | None = None

    def text(self) -> str:
        parts = [f"line {self.line}" if self.line is not None else ""]
        if self.tag:
            parts.append(f"[{self.tag}]")
        if self.path:
            parts.append(self.path)
        return " ".join(p for p in parts if p) or "the record"


@dataclass(frozen=True)
class RecordProblem:
    """Why a record (``record``: its 1-based place in the file) or a part of it could not be read."""
    message: str
    where: Where = Where()
    record: int | None = None

    def as_dict(self) -> dict:
        out: dict = {"message": self.message}
        if self.record is not None:
            out["record"] = self.record
        for key in ("line", "tag", "path"):
            value = getattr(self.where, key)
            if value is not None:
                out[key] = value
        return out

    def format(self, file: str = "") -> str:
        """``file:12: [Play]: message`` (``line 12 [Play]: message`` without a file name)."""
        w = self.where
        if w.line is not None:
            at = f"{file}:{w.line}" if file else f"line {w.line}"
        else:
            at = file
        head = " ".join(x for x in (at, f"[{w.tag}]" if w.tag else "", w.path or "") if x)
        return f"{head}: {self.message}" if head else self.message


@dataclass(frozen=True)
class Trick:
    """One trick: the cards in play order from ``leader`` (None where the record does not say who led)."""
    cards: tuple[int, ...]
    leader: int | None = None
    where: Where = Where()
    winner: int | None = None        # the winner the record gives, where it gives one


@dataclass(frozen=True)
class Row:
    """A play line of PBN or PTN: the cards by column, column k being the seat k places clockwise from
    the Play tag's seat (None: ``-``, no card given), and the irregularity marks written before a card."""
    cards: tuple[int | None, ...]
    where: Where
    marks: tuple[tuple[int, str], ...] = ()      # (column, mark): ^R revoke, ^L lead out of turn


@dataclass(frozen=True)
class Recorded:
    """What the record says the platform scored: totals after the hand and, where given, the hand's points
    and bags, by team (NS, EW)."""
    totals: tuple[int, int] | None = None
    bags: tuple[int, int] | None = None
    points: tuple[int, int] | None = None
    bags_added: tuple[int, int] | None = None
    where: Where = Where()


@dataclass(frozen=True)
class HandRecord:
    """One hand of a record.  ``tricks`` is the play in order; a PBN or PTN record holds ``rows`` until
    they are put in play order under a ruleset (``records.order``), which needs the trick winners."""
    number: int                                   # 1-based place in the file
    where: Where                                  # where the record starts
    dealer: int
    hands: tuple[int, ...]                        # as dealt, by seat (four, or a JSON hand's two or three)
    bids: tuple[Bid, ...] | None = None           # by seat
    tricks: tuple[Trick, ...] | None = None
    rows: tuple[Row, ...] | None = None
    play_seat: int | None = None                  # the seat of the rows' first column (the first leader)
    before: tuple[tuple[int, int], tuple[int, int]] | None = None   # (scores, bags) by team, as recorded
    recorded: Recorded | None = None
    options: dict | None = None                   # Trickster's GameOptionsJson
    variant: str | None = None                    # the variant the record says it was played under
    game: str | None = None                       # which game of the file it belongs to, where it says
    label: str = ""
    notes: tuple[str, ...] = ()                   # readings the reader made (e.g. the dealer from the Deal tag)
    places: dict = field(default_factory=dict, compare=False)   # part ("deal", "bids.N", "dealer") -> Where
    meta: dict = field(default_factory=dict, compare=False)     # other tags (Event, players, dates)

    @property
    def size(self) -> int:
        return self.hands[0].bit_count()

    @property
    def played(self) -> bool:
        return self.tricks is not None or self.rows is not None

    def place(self, part: str) -> Where:
        """Where a part of the record is written (``deal.W``, ``bids.N``, ``play[3][1]``): the closest place
        the reader kept, else the record's start."""
        if part.startswith("play[") and self.tricks is not None:
            index = int(part[5:part.index("]")]) if part[5:part.index("]")].isdigit() else -1
            if 0 <= index < len(self.tricks) and self.tricks[index].where.line is not None:
                return self.tricks[index].where
        while part:
            if part in self.places:
                return self.places[part]
            part = part.rpartition(".")[0]
        return self.where

    def with_tricks(self, tricks: tuple[Trick, ...]) -> HandRecord:
        return replace(self, tricks=tricks)


@dataclass
class Reading:
    """A record file read: its format, the complete hands and every problem met."""
    format: str
    hands: list[HandRecord] = field(default_factory=list)
    problems: list[RecordProblem] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"format": self.format, "hands": len(self.hands), "problems": [p.as_dict() for p in self.problems]}
