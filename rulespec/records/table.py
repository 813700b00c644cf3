"""One PBN or PTN record (its tags and sections) read into a ``HandRecord``, or the problems that stop it.

What is read: ``Deal`` (and ``Dealer``; without it the Deal's first seat deals), ``Auction`` (Spades bids
clockwise from the tag's seat, ``-`` for a seat passed over), ``Play`` (the cards in columns, column k
being the seat k places clockwise from the tag's seat, four cards to a trick), and in PTN
``GameOptionsJson``, ``GameScores`` and ``GameCode``; ``Variant`` names the variant that played a hand
this project wrote.  Every other tag is kept as it stands (``meta``).  A record is refused, with the
line and tag of each problem, when it is cut short (a hand, the auction or the play stops early) or
inconsistent (a card dealt or played twice, a card its seat does not hold, a row no lead order fits).
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from ..core import cards as C
from ..errors import CardError
from .model import HandRecord, Recorded, RecordProblem, Row, Where
from .notation import parse_bid_token, parse_card_token, parse_deal
from .tags import Game, Tag

_SUFFIXES = frozenset({"!", "?", "!!", "??", "!?", "?!"})
_BRIDGE_CALLS = frozenset({"PASS", "AP", "X", "XX"})
_END = ("*", "+")


@dataclass(frozen=True)
class Dialect:
    name: str
    jokers: bool         # a fifth suit group and JH/JL in play lines
    trickster: bool      # GameOptionsJson, GameScores, GameCode


PBN = Dialect("pbn", jokers=False, trickster=False)
PTN = Dialect("ptn", jokers=True, trickster=True)


def _annotation(token: str) -> bool:
    """A PBN annotation after a call or card: a suffix, a note reference (=1=) or a NAG ($12)."""
    return (token in _SUFFIXES or (len(token) > 2 and token[0] == token[-1] == "=" and token[1:-1].isdigit())
            or (token[:1] == "$" and token[1:].isdigit()))


def section_tokens(tag: Tag) -> list[tuple[int, str]]:
    """The tokens of a section, annotations dropped, an irregularity mark (``^R``) split from its card."""
    out = []
    for line, text in tag.data:
        for token in text.split():
            if token.startswith("^") and len(token) > 2:
                out += [(line, token[:2]), (line, token[2:])]
            elif not _annotation(token):
                out.append((line, token))
    return out


class GameReader:
    """Reads one game; ``problems`` says why it was refused."""

    def __init__(self, game: Game, dialect: Dialect):
        self.game, self.dialect = game, dialect
        self.problems: list[RecordProblem] = list(game.problems)
        self.notes: list[str] = []
        self.places: dict[str, Where] = {}

    def fail(self, message: str, tag: Tag | None, line: int | None = None) -> None:
        where = Where(line if line is not None else (tag.line if tag else self.game.line), tag.name if tag else None)
        self.problems.append(RecordProblem(message, where, self.game.number))

    # ------------------------------------------------------------------ the deal
    def deal(self) -> tuple[int, list[int | None]] | None:
        tag = self.game.get("Deal")
        if tag is None:
            self.fail("the record has no Deal tag", None)
            return None
        self.places["deal"] = Where(tag.line, "Deal")
        try:
            first, hands = parse_deal(tag.value, self.dialect.jokers)
        except CardError as exc:
            self.fail(str(exc), tag)
            return None
        seen = 0
        for seat, hand in enumerate(hands):
            if hand is not None and hand & seen:
                self.fail(f"{' '.join(C.card_names(hand & seen))} dealt to {C.SEATS[seat]} and to another seat", tag)
            seen |= hand or 0
        sizes = {C.SEATS[s]: h.bit_count() for s, h in enumerate(hands) if h is not None}
        if len(set(sizes.values())) > 1:
            most = max(set(sizes.values()), key=list(sizes.values()).count)
            odd = ", ".join(f"{s} holds {n}" for s, n in sizes.items() if n != most)
            self.fail(f"the hands are not the same size: {odd}, the others {most} cards", tag)
        return first, hands

    def dealer(self, first: int) -> int:
        tag = self.game.get("Dealer")
        if tag is None:
            self.notes.append(f"no Dealer tag: {C.SEATS[first]}, the Deal's first seat, is taken as the dealer")
            return first
        self.places["dealer"] = Where(tag.line, "Dealer")
        try:
            return C.parse_seat(tag.value)
        except CardError as exc:
            self.fail(str(exc), tag)
            return first

    def section(self, name: str, part: str, what: str) -> tuple[Tag, int] | None:
        """The section tag ``name`` and the seat its value names (``what``: that seat's part), if it is given."""
        tag = self.game.get(name)
        if tag is None:
            return None
        self.places[part] = Where(tag.line, name)
        try:
            return tag, C.parse_seat(tag.value)
        except CardError as exc:
            self.fail(f"the {name} tag names {what}: {exc}", tag)
            return None

    # ------------------------------------------------------------------ the auction
    def bids(self) -> tuple | None:
        found = self.section("Auction", "bids", "the first bidder")
        if found is None:
            return None
        tag, seat = found
        bids: list = [None] * 4
        for step, (line, token) in enumerate(t for t in section_tokens(tag) if t[1] not in _END):
            if step >= 4:
                self.fail(f"more than four bids ({token!r} is the fifth)", tag, line)
                return None
            at = (seat + step) % 4
            self.places[f"bids.{C.SEATS[at]}"] = Where(line, "Auction")
            if token != "-":
                bids[at] = self.bid(token, tag, line)
        missing = [C.SEATS[s] for s in range(4) if bids[s] is None]
        if missing:
            self.fail(f"the auction is cut short: no bid for {', '.join(missing)}", tag,
                      tag.data[-1][0] if tag.data else tag.line)
            return None
        return tuple(bids)

    def bid(self, token: str, tag: Tag, line: int):
        if token.upper() in _BRIDGE_CALLS or token[:1].isdigit() and token[-1:].upper() in "SHDCT" \
                and not token.isdigit():
            self.fail(f"{token!r} is a bridge call; a Spades auction bids a number of tricks, Nil, BlindNil "
                      "or Blind<n>", tag, line)
            return None
        try:
            return parse_bid_token(token)
        except CardError as exc:
            self.fail(str(exc), tag, line)
            return None

    # ------------------------------------------------------------------ the play
    def rows(self) -> tuple[tuple[Row, ...], int] | None:
        found = self.section("Play", "play", "the first leader")
        if found is None:
            return None
        tag, seat = found
        rows, cards, marks, line = [], [], [], tag.line
        for at, token in section_tokens(tag):
            if token in _END:
                break
            if cards and at != line and self.dialect.trickster:     # a PTN play line holds one trick
                self.fail(f"trick {len(rows) + 1} has {len(cards)} card(s); a PTN play line is one trick of 4 "
                          "('-' for a card not played)", tag, line)
                return tuple(rows), seat
            if token.startswith("^"):
                marks.append((len(cards), token[1:]))
                continue
            if not cards:
                line = at
            cards.append(self.card(token, tag, at))
            if len(cards) == 4:
                rows.append(Row(tuple(cards), Where(line, "Play"), tuple(marks)))
                cards, marks = [], []
        if cards and any(c is not None for c in cards):
            self.fail(f"the play stops in the middle of trick {len(rows) + 1}: {len(cards)} of its 4 cards",
                      tag, line)
        return tuple(rows), seat

    def card(self, token: str, tag: Tag, line: int) -> int | None:
        if token == "-":
            return None
        try:
            card = parse_card_token(token)
        except CardError as exc:
            self.fail(str(exc), tag, line)
            return None
        if card in (C.BIG_JOKER, C.LITTLE_JOKER) and not self.dialect.jokers:
            self.fail(f"{token}: PBN has no jokers; a record with jokers is PTN", tag, line)
            return None
        return card

    # ------------------------------------------------------------------ Trickster's tags
    def options(self) -> dict | None:
        tag = self.game.get("GameOptionsJson")
        if tag is None or not self.dialect.trickster:
            return None
        self.places["options"] = Where(tag.line, "GameOptionsJson")
        try:
            value = json.loads(tag.value)
        except (ValueError, RecursionError) as exc:
            self.fail(f"the options are not JSON: {exc}", tag)
            return None
        if not isinstance(value, dict):
            self.fail("the options are a JSON object of option names and values", tag)
            return None
        return value

    def scores(self) -> Recorded | None:
        tag = self.game.get("GameScores")
        if tag is None or not self.dialect.trickster:
            return None
        head, colon, rest = tag.value.partition(":")
        try:
            first = C.parse_seat(head)
            values = [int(v) for v in rest.split()]
        except (CardError, ValueError):
            self.fail(f"GameScores is the first seat, a colon and four scores clockwise from it, got "
                      f"{tag.value[:40]!r}", tag)
            return None
        if not colon or len(values) != 4:
            self.fail(f"GameScores gives {len(values)} score(s); a four-seat game has 4", tag)
            return None
        by_seat = {(first + k) % 4: v for k, v in enumerate(values)}
        for team in (0, 1):
            if by_seat[team] != by_seat[team + 2]:
                self.fail(f"GameScores gives {C.SEATS[team]} {by_seat[team]} but {C.SEATS[team + 2]} "
                          f"{by_seat[team + 2]}; partners share one score", tag)
                return None
        return Recorded(totals=(by_seat[0], by_seat[1]), where=Where(tag.line, "GameScores"))

    def game_code(self) -> None:
        tag = self.game.get("GameCode")
        if tag is not None and self.dialect.trickster and tag.value.strip().lower() != "spades":
            self.fail(f"this is a record of {tag.value!r}, not of Spades", tag)


def check_rows(reader: GameReader, hands: list[int | None], rows: tuple[Row, ...], seat: int) -> list[int | None]:
    """Each row's cards against its columns' hands: a card dealt to another seat, played twice or not
    given; a seat whose hand is ``-`` is given the cards of its column.  Returns the hands."""
    hands = list(hands)
    for k in range(4):
        owner = (seat + k) % 4
        if hands[owner] is None and rows and all(r.cards[k] is not None for r in rows):
            hands[owner] = C.mask_of(r.cards[k] for r in rows)
            reader.notes.append(f"{C.SEATS[owner]}'s hand is not given: it is the cards of its play column")
    tag = reader.game.get("Play")
    left = list(hands)
    for number, row in enumerate(rows, 1):
        if any(c is None for c in row.cards):
            reader.fail(f"trick {number} has a card not given ('-'); every seat plays to every trick", tag,
                        row.where.line)
            return hands
        if not _fits(reader, left, row, seat, number, tag):
            return hands
        for k, card in enumerate(row.cards):
            left[(seat + k) % 4] &= ~(1 << card)
    return hands


def _fits(reader: GameReader, left: list[int | None], row: Row, seat: int, number: int, tag: Tag) -> bool:
    """Whether each card of ``row`` is still held by its column's seat; if not, say why, and whether the row
    would fit read another way (rows list the cards from the Play seat's column, not in the order played)."""
    def holds(rotation: int) -> bool:
        return all(left[(seat + k + rotation) % 4] is None or left[(seat + k + rotation) % 4] >> c & 1
                   for k, c in enumerate(row.cards))
    if holds(0):
        return True
    k, card = next((k, c) for k, c in enumerate(row.cards)
                   if left[(seat + k) % 4] is not None and not left[(seat + k) % 4] >> c & 1)
    owner = (seat + k) % 4
    gone = [s for s in range(4) if left[s] is not None and left[s] >> card & 1]
    if not gone:
        why = f"{C.card_name(card)} is played twice or was never dealt"
    else:
        why = f"{C.card_name(card)} is in column {k + 1} ({C.SEATS[owner]}), but {C.SEATS[gone[0]]} holds it"
    other = next((r for r in (1, 2, 3) if holds(r)), None)
    if other is None:
        reader.fail(f"trick {number}: {why}; no lead order fits the row", tag, row.where.line)
    else:
        reader.fail(f"trick {number}: {why}; the row fits if its first card is {C.SEATS[(seat + other) % 4]}'s: "
                    f"a play line lists the cards from the Play seat ({C.SEATS[seat]}) clockwise, not in the "
                    "order played", tag, row.where.line)
    return False


def _play_checked(reader: GameReader, hands: list[int | None], rows: tuple[Row, ...], seat: int) -> list[int | None]:
    """The rows against the hands (``check_rows``), and the play's length against the hands' size."""
    hands = check_rows(reader, hands, rows, seat)
    tag = reader.game.get("Play")
    size = max((h.bit_count() for h in hands if h is not None), default=0)
    if len(rows) < size and not reader.problems:
        reader.fail(f"the play is cut short: it stops after trick {len(rows)} of {size}", tag,
                    rows[-1].where.line if rows else tag.line)
    elif len(rows) > size:
        reader.fail(f"the play has {len(rows)} tricks; each seat holds {size} cards", tag, rows[size].where.line)
    return hands


def read_game(game: Game, dialect: Dialect) -> tuple[HandRecord | None, list[RecordProblem]]:
    """The hand a game records, or None and the problems that stop it."""
    reader = GameReader(game, dialect)
    reader.game_code()
    dealt = reader.deal()
    if dealt is None:
        return None, reader.problems
    first, hands = dealt
    dealer = reader.dealer(first)
    bids = reader.bids()
    played = reader.rows()
    rows, seat = played if played is not None else (None, None)
    if rows is not None:
        hands = _play_checked(reader, hands, rows, seat)
    for s, hand in enumerate(hands):
        if hand is None:
            reader.fail(f"{C.SEATS[s]}'s hand is not given ('-') and the play does not show it", game.get("Deal"))
    options, recorded = reader.options(), reader.scores()
    if reader.problems:
        return None, reader.problems
    meta = {t.name: t.value for t in game.tags if t.name not in ("Deal", "Dealer", "Auction", "Play")}
    variant = game.get("Variant")
    return HandRecord(number=game.number, where=Where(game.line), dealer=dealer, hands=tuple(hands), bids=bids,
                      rows=rows, play_seat=seat, recorded=recorded, options=options,
                      variant=variant.value.strip() if variant else None,
                      label=meta.get("Event", "") or meta.get("Board", ""), notes=tuple(reader.notes),
                      places=reader.places, meta=meta), []
