"""Card notation and the bit-mask card model.

A card is an int id: ``suit * 13 + (rank - 2)`` for the 52 suited cards
(clubs 0, diamonds 1, hearts 2, spades 3; ranks 2..14 with ace 14), and 52/53
for the little and big joker.  A set of cards is a plain int bit mask
(``1 << id`` per card).  Which cards are in the deck, which suit a card
follows and how cards rank are *rules* of a variant, not of this module:
this module only names the 54 card identities and parses/prints them.
"""
from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..errors import CardError

CLUBS, DIAMONDS, HEARTS, SPADES, NO_SUIT = 0, 1, 2, 3, 4
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades", "joker")
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_LETTERS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
                10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
LITTLE_JOKER, BIG_JOKER = 52, 53
NUM_CARDS = 54
ALL_CARDS = (1 << NUM_CARDS) - 1
JOKERS = (1 << LITTLE_JOKER) | (1 << BIG_JOKER)

SEATS = "NESWXY"          # clockwise; the seat to a player's left plays next (five and six seats go on past W)
TEAMS = ("NS", "EW")
MAX_SEATS = 6             # arrays by seat or by side keep this many places


@dataclass(frozen=True)
class Table:
    """Who sits at a variant's table (rules ``table.seats`` and ``table.sides``): seats ``0 .. seats - 1``
    clockwise, named by the first letters of ``SEATS`` (two: N E; three: N E S; four: N E S W; five: N E S W X;
    six: N E S W X Y -- the letters past W are no compass points, the seats go on round the table), and the sides
    that score: the partnerships of opposite seats (four seats: NS and EW; six: NW, EX and SY), or each player
    alone (a side is then a seat, named by its letter)."""
    seats: int = 4
    partners: bool = True

    @property
    def seat_names(self) -> str:
        return SEATS[:self.seats]

    @property
    def sides(self) -> int:
        return self.seats // 2 if self.partners else self.seats

    @property
    def places(self) -> int:
        """How many places an array by seat keeps: at least four (the lowered form's ``seating.places``)."""
        return max(4, self.seats)

    @property
    def side_names(self) -> tuple[str, ...]:
        if not self.partners:
            return tuple(self.seat_names)
        return tuple(SEATS[side] + SEATS[side + self.seats // 2] for side in range(self.sides))

    def padded(self, values) -> tuple:
        """Values by side (scores, bags) with a 0 for each side they leave out (a default of two)."""
        values = tuple(values)
        return values + (0,) * (self.sides - len(values)) if len(values) < self.sides else values

    def side_of(self, seat: int) -> int:
        return seat % (self.seats // 2) if self.partners else seat

    def members(self, side: int) -> tuple[int, ...]:
        """The seats of ``side``."""
        return (side, side + self.seats // 2) if self.partners else (side,)

    def partner(self, seat: int) -> int | None:
        """The seat opposite ``seat`` (``None``: each player alone)."""
        return self.opposite(seat) if self.partners else None

    def opposite(self, seat: int) -> int:
        """The seat half the table away from ``seat``: its partner, where the seats play in partnerships."""
        return (seat + self.seats // 2) % self.seats

    def left(self, seat: int, steps: int = 1) -> int:
        return (seat + steps) % self.seats

    def rival(self, scores, side: int) -> int:
        """The side ``side``'s score is compared with: the other partnership where there are two, or the leader
        among the other sides (the first of them clockwise on equal scores)."""
        if self.partners and self.sides == 2:
            return 1 - side
        others = [(side + k) % self.sides for k in range(1, self.sides)]
        return max(others, key=lambda other: (scores[other], -others.index(other)))


FOUR = Table()


def table_of(params) -> Table:
    """The table of a ruleset's parameters (``Ruleset.params``)."""
    seats, sides = params.get("table.seats", 4), params.get("table.sides", "partners")
    return FOUR if seats == 4 and sides == "partners" else _table(seats, sides == "partners")


@functools.lru_cache(maxsize=None)
def _table(seats: int, partners: bool) -> Table:
    return Table(seats, partners)


def make_card(suit: int, rank: int) -> int:
    """Card id of ``rank`` (2..14) in ``suit`` (0..3)."""
    return suit * 13 + rank - 2


def natural_suit(card: int) -> int:
    """The printed suit of a card; jokers have ``NO_SUIT``."""
    return NO_SUIT if card >= LITTLE_JOKER else card // 13


def natural_rank(card: int) -> int:
    """Printed rank: 2..14 (ace 14); little joker 15, big joker 16."""
    if card == LITTLE_JOKER:
        return 15
    if card == BIG_JOKER:
        return 16
    return card % 13 + 2


def _name(card: int) -> str:
    if card == LITTLE_JOKER:
        return "LJ"
    if card == BIG_JOKER:
        return "BJ"
    return RANK_LETTERS[natural_rank(card)] + SUIT_LETTERS[natural_suit(card)]


NAMES = tuple(_name(card) for card in range(NUM_CARDS))


def card_name(card: int) -> str:
    """Canonical name: rank then suit letter (``10H``, ``AS``), ``LJ``/``BJ``."""
    return NAMES[card]


_JOKER_NAMES = {"LJ": LITTLE_JOKER, "SJ": LITTLE_JOKER, "BJ": BIG_JOKER, "HJ": BIG_JOKER}
_RANK_PARSE = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
               "10": 10, "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
_SUIT_PARSE = {"C": CLUBS, "D": DIAMONDS, "H": HEARTS, "S": SPADES,
               "♣": CLUBS, "♦": DIAMONDS, "♥": HEARTS, "♠": SPADES,
               "♧": CLUBS, "♢": DIAMONDS, "♡": HEARTS, "♤": SPADES}


_CARD_IDS = {name: card for card, name in enumerate(NAMES)}


def parse_card(text: str) -> int:
    """Parse a card leniently: ``AS``, ``as``, ``10S``, ``TS``, ``A♠``, ``♠A``, ``BJ``."""
    if not isinstance(text, str):
        raise CardError(f"a card must be a string such as 'AS' or '10H', not {text!r}")
    card = _CARD_IDS.get(text)                      # a canonical name: one lookup
    if card is not None:
        return card
    raw = text.strip().upper()
    if raw in _JOKER_NAMES:
        return _JOKER_NAMES[raw]
    if len(raw) >= 2:
        for rank_part, suit_part in ((raw[:-1], raw[-1]), (raw[1:], raw[0])):
            if rank_part in _RANK_PARSE and suit_part in _SUIT_PARSE:
                return make_card(_SUIT_PARSE[suit_part], _RANK_PARSE[rank_part])
    raise CardError(
        f"not a card: {text!r} (write rank then suit, e.g. 'AS', '10H' or 'TH', 'Q♦'; jokers 'BJ' and 'LJ')")


def parse_cards(items: Iterable[str] | str) -> list[int]:
    """Parse a list of cards, or one string of cards separated by spaces/commas."""
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    return [parse_card(item) for item in items]


def mask_of(cards: Iterable[int]) -> int:
    """Bit mask of card ids."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


# the card ids of every 8-bit chunk of a mask, precomputed
_CHUNKS = tuple(tuple(bit for bit in range(8) if byte >> bit & 1) for byte in range(256))
_CHUNK_AT = tuple(tuple(tuple(base + bit for bit in chunk) for chunk in _CHUNKS) for base in range(0, 56, 8))


def card_list(mask: int) -> list[int]:
    """Card ids in a mask, lowest id first (table-driven, 8 bits at a time)."""
    out: list[int] = []
    for table in _CHUNK_AT:
        if not mask:
            break
        out.extend(table[mask & 0xFF])
        mask >>= 8
    return out


def iter_cards(mask: int) -> Iterator[int]:
    """Card ids in a mask, lowest id first."""
    return iter(card_list(mask))


def card_names(mask: int) -> list[str]:
    """Canonical names of the cards in a mask, by suit then rank."""
    return [NAMES[card] for card in card_list(mask)]


def left_of(seat: int) -> int:
    """The seat to a player's left, who plays next (clockwise)."""
    return (seat + 1) % 4


def partner_of(seat: int) -> int:
    return (seat + 2) % 4


def right_of(seat: int) -> int:
    return (seat + 3) % 4


def team_of(seat: int) -> int:
    """0 for N/S, 1 for E/W."""
    return seat % 2


_SEAT_NAMES = {"N": 0, "E": 1, "S": 2, "W": 3, "X": 4, "Y": 5, "NORTH": 0, "EAST": 1, "SOUTH": 2, "WEST": 3}


def parse_seat(text: str, seats: int = 4) -> int:
    """``N``/``E``/``S``/``W`` (or the full word), ``X``/``Y``, in any case and with spaces around, to 0..5 (a
    table of ``seats`` seats has the first ``seats`` of them)."""
    if isinstance(text, str):
        seat = _SEAT_NAMES.get(text)                      # as usually written: one lookup
        if seat is None:
            seat = _SEAT_NAMES.get(text.strip().upper())
        if seat is not None and seat < seats:
            return seat
    raise CardError(f"not a seat: {text!r} (use {', '.join(SEATS[:seats - 1])} or {SEATS[seats - 1]})")
