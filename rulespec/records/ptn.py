"""Trickster's PTN records (the PBN layout as TricksterCards' platform exports a Spades hand).

Read as PBN is, and besides: jokers (a fifth suit group ``HL`` in a Deal hand; ``JH``, ``JL`` in a play
line), ``GameCode`` (a record of another game is refused), ``GameOptionsJson`` (the table's options, as
JSON) and ``GameScores`` (each seat's game score after the hand, from the named seat clockwise: ``S:`` is
South, West, North, East).  Several records to a file.  Written the same way, the options and scores
included where the hand has them, and ``Variant`` naming the variant that played a hand of this project.
"""
from __future__ import annotations

import json
from collections.abc import Iterable

from ..core import cards as C
from .layout import hand_sections, read_tagged, tag
from .model import HandRecord, Limits, Reading
from .table import PTN

_WRITTEN = frozenset({"Event", "GameCode", "GameOptionsJson", "GameScores", "Variant", "Dealer", "Deal",
                      "Auction", "Play"})


def read_ptn(text: str, limits: Limits) -> Reading:
    return read_tagged(text, PTN, limits)


def game_scores(totals: tuple[int, int]) -> str:
    """``GameScores``' value: from South clockwise (South, West, North, East), as Trickster writes it."""
    order = [C.SEATS.index(s) for s in "SWNE"]
    return "S:" + " ".join(str(totals[seat % 2]) for seat in order)


def write_ptn(records: Iterable[HandRecord], first_bidders: dict[int, int] | None = None) -> str:
    """PTN text of ``records`` (tricks in play order with leaders)."""
    games = []
    for record in records:
        lines = [tag("Event", record.meta.get("Event") or record.label or "spades-rulespec record"),
                 tag("GameCode", "Spades")]
        if record.options is not None:
            lines.append(tag("GameOptionsJson", json.dumps(record.options, separators=(",", ":"))))
        if record.recorded is not None and record.recorded.totals is not None:
            lines.append(tag("GameScores", game_scores(record.recorded.totals)))
        lines += [tag(name, value) for name, value in record.meta.items() if name not in _WRITTEN]
        if record.variant:
            lines.append(tag("Variant", record.variant))
        lines += hand_sections(record, jokers=True, first_bidder=(first_bidders or {}).get(record.number))
        games.append("\n".join(lines))
    return "\n\n".join(games) + "\n"
