"""PBN 2.1 (Portable Bridge Notation) records with the Spades reading of its sections.

Read: the Deal (no jokers: PBN has none), Dealer, Auction (a call is a Spades bid: a number of tricks,
``Nil``, ``BlindNil``, ``Blind7``; bridge calls are refused) and Play (cards suit first in columns from
the Play seat), annotations skipped (suffixes, notes ``=1=``, NAGs ``$1``), ``*`` ending a section, the
irregularity marks ``^R`` (revoke) and ``^L`` (lead out of turn) kept with their card.  Contract,
Declarer and Result are bridge's and are not read.  Written: the 15 tags of PBN's mandatory set in their
order (those bridge gives a meaning Spades lacks left empty), then the supplemental tags sorted.
"""
from __future__ import annotations

from collections.abc import Iterable

from ..errors import CardError, RecordError
from .layout import hand_sections, read_tagged, tag
from .model import HandRecord, Limits, Reading
from .table import PBN

_MANDATORY_BEFORE_DEAL = ("Event", "Site", "Date", "Board", "West", "North", "East", "South")
_AFTER_DEAL = ("Scoring", "Declarer", "Contract", "Result")
_NOT_SUPPLEMENTAL = frozenset({*_MANDATORY_BEFORE_DEAL, *_AFTER_DEAL, "Dealer", "Deal", "Vulnerable",
                               "Auction", "Play", "Note"})


def read_pbn(text: str, limits: Limits) -> Reading:
    return read_tagged(text, PBN, limits)


def write_pbn(records: Iterable[HandRecord], first_bidders: dict[int, int] | None = None) -> str:
    """PBN text of ``records`` (tricks in play order with leaders); a hand with jokers is refused."""
    games = []
    for index, record in enumerate(records, 1):
        meta = dict(record.meta)
        defaults = {"Event": record.label or "spades-rulespec record", "Site": "", "Date": "?",
                    "Board": str(index), "West": "", "North": "", "East": "", "South": ""}
        lines = [tag(name, meta.get(name, defaults[name])) for name in _MANDATORY_BEFORE_DEAL]
        try:
            sections = hand_sections(record, jokers=False,
                                     first_bidder=(first_bidders or {}).get(record.number))
        except CardError as exc:
            raise RecordError(f"hand {index}: {exc}", "deal") from None
        dealer_deal, rest = sections[:2], sections[2:]
        lines += [dealer_deal[0], tag("Vulnerable", ""), dealer_deal[1]]
        lines += [tag(name, "") for name in _AFTER_DEAL]
        supplemental = {k: v for k, v in meta.items() if k not in _NOT_SUPPLEMENTAL}
        if record.variant:
            supplemental["Variant"] = record.variant
        lines += [tag(name, supplemental[name]) for name in sorted(supplemental)]
        games.append("\n".join(lines + rest))
    return "\n\n".join(games) + "\n"
