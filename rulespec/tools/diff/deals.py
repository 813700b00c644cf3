"""Deals to replay: generated from a seed, or read from a JSON Lines file.

A deal is the four hands (card masks, seat 0..3 = N E S W), the dealer and,
optionally, fixed bids, the full card play and the scores before the hand.
The file format is described in ``docs/deals-format.md``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ...core import cards as C
from ...game import Bid, deal_and_stock_for, parse_bid
from ...errors import DealFileError, RulespecError
from ...model.ruleset import Ruleset

_PBN_SUITS = (C.SPADES, C.HEARTS, C.DIAMONDS, C.CLUBS)
_PBN_RANKS = {"A": 14, "K": 13, "Q": 12, "J": 11, "T": 10, "10": 10,
              **{str(n): n for n in range(2, 10)}}


@dataclass(frozen=True)
class Deal:
    """One deal; ``bids``/``play``/``before`` are None when not fixed."""
    index: int
    hands: tuple[int, int, int, int]
    dealer: int = 0
    bids: tuple[Bid, ...] | None = None
    play: tuple[int, ...] | None = None           # card ids in play order
    before: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))  # (scores, bags) by team
    label: str = ""
    stock: tuple[int, ...] | None = None          # the pack in the deal's order: drawn from where deal.draw


def seeded_deal(seed: str, index: int, rs: Ruleset) -> Deal:
    """Deal ``index`` of ``seed`` from ``rs``'s pack (same pack, same cards; the hands drawn from the same stock
    where a variant draws them); dealers rotate."""
    hands, stock = deal_and_stock_for(seed, index, rs)
    return Deal(index, tuple(hands), dealer=index % rs.params["table.seats"], label=f"{seed}#{index}",
                stock=tuple(stock))


def parse_pbn(text: str) -> tuple[int, int, int, int]:
    """``"N:AKQ.JT9.8765.432 …"``: first seat named, then clockwise; suits S.H.D.C."""
    text = text.strip()
    if len(text) < 2 or text[1] != ":" or text[0].upper() not in C.SEATS[:4]:
        raise DealFileError(f"a PBN deal starts with the first seat and a colon (e.g. 'N:AKQ.…'), got {text[:12]!r}")
    first = C.SEATS.index(text[0].upper())
    parts = text[2:].split()
    if len(parts) != 4:
        raise DealFileError(f"a PBN deal has 4 hands separated by spaces, found {len(parts)}")
    hands = [0, 0, 0, 0]
    for offset, part in enumerate(parts):
        suits = part.split(".")
        if len(suits) != 4:
            raise DealFileError(f"PBN hand {part!r} needs 4 suits separated by dots (spades.hearts.diamonds.clubs)")
        mask = 0
        for suit, ranks in zip(_PBN_SUITS, suits):
            for rank in ranks.upper().replace("10", "T"):
                if rank not in _PBN_RANKS:
                    raise DealFileError(f"PBN hand {part!r}: {rank!r} is not a rank (AKQJT98765432)")
                mask |= 1 << C.make_card(suit, _PBN_RANKS[rank])
        hands[(first + offset) % 4] = mask
    return _checked(hands)


def _checked(hands: list[int]) -> tuple[int, int, int, int]:
    seen = 0
    for seat, hand in enumerate(hands):
        if hand & seen:
            raise DealFileError(f"{C.SEATS[seat]} holds {' '.join(C.card_names(hand & seen))}, "
                                "already dealt to another seat")
        seen |= hand
    return tuple(hands)


def _parse_hands(value) -> tuple[int, int, int, int]:
    if isinstance(value, str):
        return parse_pbn(value)
    if isinstance(value, dict) and set(value) == set(C.SEATS[:4]):
        return _checked([C.mask_of(C.parse_cards(value[s])) for s in C.SEATS[:4]])
    raise DealFileError("'deal' is a PBN string or an object with the seats N, E, S, W as card lists")


def _parse_before(value) -> tuple[tuple[int, int], tuple[int, int]]:
    if value is None:
        return ((0, 0), (0, 0))
    try:
        teams = [value.get(t) or {} for t in C.TEAMS]
        return (tuple(int(t.get("score", 0)) for t in teams), tuple(int(t.get("bags", 0)) for t in teams))
    except (AttributeError, TypeError, ValueError):
        raise DealFileError("'before' is {NS: {score, bags}, EW: {score, bags}}") from None


def parse_deal(obj: dict, index: int) -> Deal:
    """One JSON object of a deals file."""
    if not isinstance(obj, dict) or "deal" not in obj:
        raise DealFileError("each line is a JSON object with at least 'deal'")
    hands = _parse_hands(obj["deal"])
    dealer = C.parse_seat(obj.get("dealer", "N"))
    bids = _parse_bids(obj["bids"]) if obj.get("bids") is not None else None
    play = _parse_play(obj, hands, bids)
    return Deal(index, hands, dealer, bids, play, _parse_before(obj.get("before")), str(obj.get("id", "")))


def _parse_bids(raw) -> tuple[Bid, ...]:
    if not isinstance(raw, dict) or set(raw) != set(C.SEATS[:4]):
        raise DealFileError("'bids' is an object with a bid for each of N, E, S, W")
    return tuple(parse_bid(raw[s], f"bids.{s}") for s in C.SEATS[:4])


def _parse_play(obj: dict, hands: tuple[int, int, int, int], bids: tuple[Bid, ...] | None) -> tuple[int, ...] | None:
    """The cards in play order, from 'play' (cards, or tricks of cards) or from the 'tricks' of a
    `rulespec simulate` hand record; None when the deal has neither."""
    raw = obj.get("play")
    if raw is None and isinstance(obj.get("tricks"), list):   # a hand record of `rulespec simulate`
        if not all(isinstance(t, dict) and isinstance(t.get("cards"), list) for t in obj["tricks"]):
            raise DealFileError("'tricks' is a list of {\"leader\", \"cards\", \"winner\"} objects")
        raw = [t["cards"] for t in obj["tricks"]]
    if raw is None:
        return None
    if bids is None:
        raise DealFileError("'play' needs 'bids' too")
    flat = [c for trick in raw for c in (trick if isinstance(trick, list) else [trick])]
    play = tuple(C.parse_cards(flat))
    dealt = hands[0] | hands[1] | hands[2] | hands[3]
    if C.mask_of(play) != dealt or len(play) != dealt.bit_count():
        raise DealFileError("'play' must list every dealt card exactly once, in the order played")
    return play


def read_deals(path: str | Path) -> list[Deal]:
    """All deals of a JSON Lines file (blank lines and lines starting with # are skipped)."""
    deals = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise DealFileError(f"cannot read deals file {path}: {exc.strerror}", str(path)) from None
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            deals.append(parse_deal(json.loads(line), len(deals)))
        except json.JSONDecodeError as exc:
            raise DealFileError(f"{path}:{number}: not JSON: {exc.msg}", str(path), number) from None
        except RulespecError as exc:
            raise DealFileError(f"{path}:{number}: {exc}", str(path), number) from None
    if not deals:
        raise DealFileError(f"{path}: no deals", str(path))
    return deals
