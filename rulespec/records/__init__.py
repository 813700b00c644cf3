"""Game records: hands a platform or this project recorded, read from and written to files.

``read_records(text, fmt)`` reads Trickster's PTN, PBN 2.1, or this project's JSON hand files (deals
files, ``rulespec simulate --out``, a ``/v1/score`` body) into a ``Reading``: the complete hands and a
located problem (line, tag or JSON path, what is wrong) for every record that is cut short or
inconsistent.  A PBN or PTN hand's tricks are put in play order under a variant with
``order.in_play_order``.  ``write_pbn`` and ``write_ptn`` write hands back.  ``options`` maps
Trickster's table options onto a bundled variant.  Formats and their sources: docs/records.md.
"""
from __future__ import annotations

import re

from ..errors import RecordFileError
from .fromgame import hand_of_state
from .jsonrec import read_json
from .model import FILE_LIMITS, REQUEST_LIMITS, HandRecord, Limits, Reading, RecordProblem, Trick, Where
from .pbn import read_pbn, write_pbn
from .ptn import read_ptn, write_ptn

FORMATS = ("ptn", "pbn", "json")
_READERS = {"ptn": read_ptn, "pbn": read_pbn, "json": read_json}
_SUFFIXES = {".ptn": "ptn", ".pbn": "pbn", ".json": "json", ".jsonl": "json"}


def format_of(text: str, name: str = "") -> str:
    """The format of a record: from the file name's suffix, else from its text (JSON starts with ``{`` or
    ``[``; Trickster's own tags, or a fifth suit group of jokers, make it PTN; other tag pairs PBN)."""
    for suffix, fmt in _SUFFIXES.items():
        if name.lower().endswith(suffix):
            return fmt
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(("%", "#")))
    if re.match(r"\s*(\{|\[\s*[\[{\]])", body):
        return "json"
    if any(key in text for key in ("[GameOptionsJson", "[GameScores", "[GameCode")):
        return "ptn"
    return "ptn" if _has_joker_group(text) else "pbn"


def _has_joker_group(text: str) -> bool:
    for line in text.splitlines():
        if line.lstrip().startswith("[Deal "):
            hands = line.split('"')[1].partition(":")[2].split() if line.count('"') >= 2 else []
            if any(h.count(".") == 4 for h in hands):
                return True
    return False


def read_records(data: str | bytes, fmt: str | None = None, name: str = "",
                 limits: Limits = FILE_LIMITS) -> Reading:
    """Every hand of a record file (``fmt``: ptn, pbn or json; None: told by ``name`` or the text).
    A file over ``limits.bytes``, not UTF-8 text or of an unknown format is refused (``RecordFileError``);
    hands past ``limits.hands`` are refused with a problem."""
    size = len(data.encode("utf-8") if isinstance(data, str) else data)
    if size > limits.bytes:
        raise RecordFileError(f"the record is {size:,} bytes; the limit is {limits.bytes:,}", name or None)
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RecordFileError(f"the record is not UTF-8 text (byte {exc.start})", name or None) from None
    text = data.removeprefix("\ufeff")
    fmt = format_of(text, name) if fmt is None else fmt
    if fmt not in _READERS:
        raise RecordFileError(f"unknown record format {fmt!r} (one of: {', '.join(FORMATS)})", name or None)
    return _READERS[fmt](text, limits)


__all__ = ["FILE_LIMITS", "FORMATS", "REQUEST_LIMITS", "HandRecord", "Limits", "Reading", "RecordProblem", "Trick",
           "Where", "format_of", "hand_of_state", "read_records", "write_pbn", "write_ptn"]
