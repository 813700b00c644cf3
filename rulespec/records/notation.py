"""The card notation PBN and PTN share: hands as suit groups, deals, cards written suit first, Spades bids.

A hand is its spades, hearts, diamonds and clubs separated by dots (``AKQ.JT9.8765.432``), ranks
``AKQJT98765432`` (``10`` is read as ``T``); PTN adds a fifth group for jokers, ``H`` the big (high)
joker and ``L`` the little one.  A deal is ``<first seat>:`` then four hands clockwise from it, ``-`` for
a hand not given.  In a play line a card is written suit first (``SA``, ``HT``), jokers ``JH`` and
``JL``.  The facts and their sources are in docs/records.md.
"""
from __future__ import annotations

from ..core import cards as C
from ..errors import CardError, GameError
from ..game import BLIND, BLIND_NIL, NIL, Bid, parse_bid

GROUP_SUITS = (C.SPADES, C.HEARTS, C.DIAMONDS, C.CLUBS)
RANK_CHARS = "AKQJT98765432"
_RANKS = {ch: rank for ch, rank in zip(RANK_CHARS, range(14, 1, -1))}
_SUIT_CHARS = {"S": C.SPADES, "H": C.HEARTS, "D": C.DIAMONDS, "C": C.CLUBS}
JOKER_CHARS = {"H": C.BIG_JOKER, "L": C.LITTLE_JOKER}
_JOKER_TOKENS = {"JH": C.BIG_JOKER, "JL": C.LITTLE_JOKER}


def parse_hand(text: str, jokers: bool) -> int:
    """The card mask of one hand's suit groups (``AKQ.JT9.8765.432``, with jokers ``….HL``)."""
    groups = text.split(".")
    if len(groups) == 5 and not jokers:
        raise CardError(f"hand {text!r} has a fifth suit group (jokers); PBN has no jokers: a record with jokers "
                        "is PTN")
    if len(groups) not in ((4, 5) if jokers else (4,)):
        want = "4 suit groups (spades.hearts.diamonds.clubs)" + (", and a fifth for jokers" if jokers else "")
        raise CardError(f"hand {text!r} has {len(groups)} group(s); a hand has {want}")
    mask = 0
    for index, group in enumerate(groups):
        for card in _group_cards(group.upper().replace("10", "T"), index, text):
            if mask >> card & 1:
                raise CardError(f"hand {text!r} names {C.card_name(card)} twice")
            mask |= 1 << card
    return mask


def _group_cards(group: str, index: int, hand: str) -> list[int]:
    if index == 4:
        bad = [ch for ch in group if ch not in JOKER_CHARS]
        if bad:
            raise CardError(f"hand {hand!r}: {bad[0]!r} is not a joker (H: big, L: little)")
        return [JOKER_CHARS[ch] for ch in group]
    bad = [ch for ch in group if ch not in _RANKS]
    if bad:
        raise CardError(f"hand {hand!r}: {bad[0]!r} is not a rank (AKQJT98765432)")
    return [C.make_card(GROUP_SUITS[index], _RANKS[ch]) for ch in group]


def format_hand(mask: int, jokers: bool) -> str:
    """One hand as suit groups, ranks from the ace down; a fifth group for jokers where ``jokers``."""
    groups = []
    for suit in GROUP_SUITS:
        groups.append("".join(ch for ch in RANK_CHARS if mask >> C.make_card(suit, _RANKS[ch]) & 1))
    if mask & C.JOKERS:
        if not jokers:
            raise CardError("PBN has no jokers: write this hand as PTN")
        groups.append("".join(ch for ch, card in JOKER_CHARS.items() if mask >> card & 1))
    return ".".join(groups)


def parse_deal(text: str, jokers: bool) -> tuple[int, list[int | None]]:
    """``"N:h1 h2 h3 h4"`` -> (the first seat, the hands by seat; None for a hand given as ``-``)."""
    head, colon, rest = text.strip().partition(":")
    if not colon or head.strip().upper() not in C.SEATS[:4]:
        raise CardError(f"a deal starts with the first hand's seat and a colon (e.g. 'N:AKQ.…'), got {text[:12]!r}")
    first = C.SEATS.index(head.strip().upper())
    parts = rest.split()
    if len(parts) != 4:
        raise CardError(f"the deal has {len(parts)} hand(s); this project plays four seats"
                        if parts else "the deal lists no hand")
    hands: list[int | None] = [None] * 4
    for offset, part in enumerate(parts):
        hands[(first + offset) % 4] = None if part == "-" else parse_hand(part, jokers)
    return first, hands


def format_deal(hands: tuple[int, ...] | list[int], first: int, jokers: bool) -> str:
    """The deal tag's value: ``first:`` then the hands clockwise from it."""
    return f"{C.SEATS[first]}:" + " ".join(format_hand(hands[(first + k) % 4], jokers) for k in range(4))


def parse_card_token(token: str) -> int:
    """A card of a play line, suit first (``SA``, ``HT``, ``s10``), jokers ``JH`` and ``JL``."""
    raw = token.upper()
    if raw in _JOKER_TOKENS:
        return _JOKER_TOKENS[raw]
    suit, rank = raw[:1], raw[1:].replace("10", "T")
    if suit in _SUIT_CHARS and rank in _RANKS:
        return C.make_card(_SUIT_CHARS[suit], _RANKS[rank])
    raise CardError(f"not a card: {token!r} (a play line writes the suit first: SA, HT, D2; jokers JH and JL)")


def card_token(card: int) -> str:
    """A card as a play line writes it."""
    if card == C.BIG_JOKER:
        return "JH"
    if card == C.LITTLE_JOKER:
        return "JL"
    rank = C.natural_rank(card)
    return "SHDC"[GROUP_SUITS.index(C.natural_suit(card))] + RANK_CHARS[14 - rank]


def parse_bid_token(token: str) -> Bid:
    """A Spades bid of an auction line: a number, ``Nil``, ``BlindNil``, ``Blind7`` (any case)."""
    try:
        return parse_bid(token)
    except GameError as exc:
        raise CardError(f"{exc.message} (an auction line writes 4, Nil, BlindNil or Blind7)") from None


def bid_token(bid: Bid) -> str:
    """A bid as an auction line writes it (one token: no spaces)."""
    if bid.kind == NIL:
        return "Nil"
    if bid.kind == BLIND_NIL:
        return "BlindNil"
    if bid.kind == BLIND:
        return f"Blind{bid.n}"
    return str(bid.n)
