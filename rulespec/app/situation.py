"""The compact command-line syntax of a hand: ``--bids N=3,E=nil,S=4,W=2``,
``--tricks N=4,E=0,S=5,W=4`` (or ``4,0,5,4`` in seat order N E S W) and
``--before NS=120/8,EW=0/0`` (score/bags).  Seats and teams are
case-insensitive, ``:`` works like ``=``, spaces like commas."""
from __future__ import annotations

import re
from collections.abc import Callable

from ..core import cards as C
from ..game import parse_bid
from ..errors import CardError, GameError, SituationError, did_you_mean

_SPLIT = re.compile(r"\s*[,;]\s*|\s+(?=[A-Za-z]+\s*[=:])")
_EXAMPLES = {"--bids": "N=3,E=nil,S=4,W=2", "--tricks": "N=4,E=0,S=5,W=4", "--before": "NS=120/8,EW=0/0"}


def _error(option: str, message: str) -> SituationError:
    """The error for ``option``'s value, with an example of a good one."""
    return SituationError(option, message, _EXAMPLES[option])


def _items(option: str, text: str) -> list[str]:
    items = [item for item in _SPLIT.split(text.strip()) if item]
    if len(items) == 1 and not re.search(r"[=:]", items[0]):
        items = items[0].split()
    if not items:
        raise _error(option, "is empty")
    return items


def _pairs(option: str, text: str, keys: tuple[str, ...], key_of: Callable[[str], str]) -> dict[str, str]:
    """``K=V`` items to {key: value}; bare values are taken in ``keys`` order."""
    items = _items(option, text)
    bare = [item for item in items if not re.search(r"[=:]", item)]
    if bare and len(bare) < len(items):
        raise _error(option, f"mix of 'seat=value' and bare values ({', '.join(bare)})")
    if bare:
        if len(bare) != len(keys):
            raise _error(option, f"{len(bare)} value(s) given; without names give {len(keys)}, "
                                         f"in the order {' '.join(keys)}")
        return dict(zip(keys, bare))
    out: dict[str, str] = {}
    for item in items:
        name, value = (part.strip() for part in re.split(r"\s*[=:]\s*", item, maxsplit=1))
        key = key_of(name)
        if key in out:
            raise _error(option, f"{key} is given twice")
        if not value:
            raise _error(option, f"'{item}' has no value")
        out[key] = value
    missing = [k for k in keys if k not in out]
    if missing:
        raise _error(option, f"missing {', '.join(missing)} (give all of {', '.join(keys)})")
    return {k: out[k] for k in keys}


def _seat_key(option: str, table: C.Table = C.FOUR) -> Callable[[str], str]:
    def key_of(name: str) -> str:
        try:
            return C.SEATS[C.parse_seat(name, table.seats)]
        except CardError:
            raise _error(option, f"'{name}' is not a seat (seats are {', '.join(table.seat_names)})") from None
    return key_of


def _team_key(name: str, table: C.Table = C.FOUR) -> str:
    key = name.strip().upper().replace("/", "").replace("-", "")
    if key in ("SN", "WE") and table.partners:
        key = key[::-1]
    if key not in table.side_names:
        raise _error("--before", f"'{name}' is not a team (teams are NS and EW)" if table.partners else
                     f"'{name}' is not a player (each plays alone: {', '.join(table.side_names)})")
    return key


def parse_bids(text: str, table: C.Table = C.FOUR) -> dict[str, str | int]:
    """``N=3,E=nil,S=4,W=2`` -> {"N": 3, "E": "nil", ...} (validated as bids; ``table``: the seats named)."""
    out: dict[str, str | int] = {}
    for seat, value in _pairs("--bids", text, tuple(table.seat_names), _seat_key("--bids", table)).items():
        try:
            parse_bid(value)
        except GameError:
            hint = did_you_mean(value.lower(), ("nil", "blind nil"))
            raise _error("--bids", f"{seat}={value}: not a bid"
                                 + (f"; did you mean '{hint}'?" if hint else
                                    " (a number, nil, 'blind nil' or 'blind N')")) from None
        out[seat] = int(value) if value.isdigit() else value
    return out


def parse_tricks(text: str, table: C.Table = C.FOUR) -> dict[str, int]:
    """``N=4,E=0,S=5,W=4`` or ``4,0,5,4`` -> {"N": 4, ...}."""
    out = {}
    for seat, value in _pairs("--tricks", text, tuple(table.seat_names), _seat_key("--tricks", table)).items():
        if not value.isdigit():
            raise _error("--tricks", f"{seat}={value}: a trick count is a whole number")
        out[seat] = int(value)
    return out


def parse_before(text: str, table: C.Table = C.FOUR) -> dict[str, dict[str, int]]:
    """``NS=120/8,EW=0`` -> {"NS": {"score": 120, "bags": 8}, "EW": {"score": 0, "bags": 0}}."""
    items = _items("--before", text)
    out: dict[str, dict[str, int]] = {}
    for item in items:
        if not re.search(r"[=:]", item):
            raise _error("--before", f"'{item}' needs a team: NS=score/bags or EW=score/bags")
        name, value = (part.strip() for part in re.split(r"\s*[=:]\s*", item, maxsplit=1))
        team = _team_key(name, table)
        if team in out:
            raise _error("--before", f"{team} is given twice")
        match = re.fullmatch(r"(-?\d+)(?:\s*/\s*(\d+))?", value)
        if not match:
            raise _error("--before", f"{team}={value}: write score/bags as whole numbers")
        out[team] = {"score": int(match.group(1)), "bags": int(match.group(2) or 0)}
    return out
