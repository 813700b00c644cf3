"""This project's own hand files as records: deals files and ``rulespec simulate --out`` hand records (JSON
Lines, docs/deals-format.md), and a single JSON hand (a ``/v1/score`` body with ``deal`` and ``play``), a
``/v1/game`` body (``{"hands": [...]}``) or a ``/v1/compare`` body (its ``input``).

Each problem names the line and the JSON path inside it (``play[3][2]``).  The play is in the order
played (a flat list, tricks of a card per seat, or ``simulate``'s ``tricks`` with their leaders and winners).
A hand's seats are those its ``deal`` names: N E S W, or at a smaller table the first two or three (N E, N E S),
as ``simulate --out`` writes them; its bids and tricks are by those seats.
"""
from __future__ import annotations

import json
from collections.abc import Iterator, Mapping

from ..core import cards as C
from ..errors import CardError, GameError, RecordError
from ..game import parse_bid
from .model import HandRecord, Limits, Reading, Recorded, RecordProblem, Trick, Where
from .notation import parse_deal

TABLES = {frozenset(C.SEATS[:n]): n for n in (2, 3, 4)}     # the seats a deal object may name


def _join(base: str, key: str) -> str:
    return f"{base}.{key}" if base else key


class _HandReader:
    """One hand object at ``base`` (a JSON path) on line ``line``."""

    def __init__(self, obj, number: int, line: int | None, base: str):
        self.obj, self.number, self.line, self.base = obj, number, line, base
        self.notes: list[str] = []

    def where(self, path: str = "") -> Where:
        return Where(self.line, None, _join(self.base, path) if path else (self.base or None))

    def read(self) -> HandRecord:
        obj = self.obj
        if not isinstance(obj, Mapping) or "deal" not in obj:
            raise RecordError("a hand is a JSON object with at least 'deal'", "")
        hands = self.hands(obj["deal"])
        dealer = self.seat(obj.get("dealer"), "dealer") if obj.get("dealer") is not None else 0
        if obj.get("dealer") is None:
            self.notes.append("no dealer given: N deals (docs/deals-format.md)")
        bids = self.bids(obj["bids"], len(hands)) if obj.get("bids") is not None else None
        if obj.get("exchanges"):
            raise RecordError("cards passed after the bids (a blind-nil exchange, the nil pass) are not replayed "
                              "from a record", "exchanges")
        tricks = self.play(obj, hands)
        variant = obj.get("variant")
        return HandRecord(
            number=self.number, where=self.where(), dealer=dealer, hands=hands, bids=bids, tricks=tricks,
            before=self.before(obj.get("before")), recorded=self.recorded(obj),
            variant=variant if isinstance(variant, str) else None,
            game=str(obj["game"]) if obj.get("game") is not None else None,
            label=str(obj.get("id") or obj.get("label") or ""), notes=tuple(self.notes),
            places={"deal": self.where("deal"), "bids": self.where("bids"), "dealer": self.where("dealer"),
                    "before": self.where("before")})

    def seat(self, value, path: str) -> int:
        try:
            return C.parse_seat(value)
        except CardError as exc:
            raise RecordError(str(exc), path) from None

    def card(self, value, path: str) -> int:
        try:
            return C.parse_card(value)
        except CardError as exc:
            raise RecordError(str(exc), path) from None

    def hands(self, value) -> tuple[int, ...]:
        if isinstance(value, str):
            try:
                _, hands = parse_deal(value, jokers=False)
            except CardError as exc:
                raise RecordError(f"{exc}; a deal with jokers is written as card lists", "deal") from None
            if any(h is None for h in hands):
                raise RecordError("every hand of the deal is needed ('-' is not read here)", "deal")
        elif isinstance(value, Mapping) and frozenset(value) in TABLES:
            hands = [self.seat_cards(value[s], f"deal.{s}") for s in C.SEATS[:len(value)]]
        else:
            raise RecordError("'deal' is a PBN string or an object with the seats N, E, S, W (at a smaller table "
                              "N, E, S or N, E) as card lists", "deal")
        seen = 0
        for seat, hand in enumerate(hands):
            if hand & seen:
                raise RecordError(f"{' '.join(C.card_names(hand & seen))} dealt to {C.SEATS[seat]} and to another seat",
                           f"deal.{C.SEATS[seat]}")
            seen |= hand
        sizes = {h.bit_count() for h in hands}
        if len(sizes) > 1:
            counts = ", ".join(f"{C.SEATS[s]} {h.bit_count()}" for s, h in enumerate(hands))
            raise RecordError(f"the hands are not the same size ({counts})", "deal")
        return tuple(hands)

    def seat_cards(self, value, path: str) -> int:
        if not isinstance(value, list):
            raise RecordError("expected a list of cards such as [\"AS\", \"10H\"]", path)
        mask = 0
        for i, item in enumerate(value):
            card = self.card(item, f"{path}[{i}]")
            if mask >> card & 1:
                raise RecordError(f"{C.card_name(card)} appears twice in the hand", f"{path}[{i}]")
            mask |= 1 << card
        return mask

    def bids(self, value, seats: int) -> tuple:
        names = C.SEATS[:seats]
        if not isinstance(value, Mapping) or set(value) != set(names):
            raise RecordError(f"'bids' is an object with a bid for each of {', '.join(names)} (the deal's seats)",
                              "bids")
        out = []
        for s in names:
            try:
                out.append(parse_bid(value[s], f"bids.{s}"))
            except GameError as exc:
                raise RecordError(exc.message, f"bids.{s}") from None
        return tuple(out)

    def play(self, obj: Mapping, hands: tuple[int, ...]) -> tuple[Trick, ...] | None:
        if obj.get("play") is not None:
            key, (tricks, paths) = "play", self.tricks_of(obj["play"], len(hands))
        elif isinstance(obj.get("tricks"), list):
            key, (tricks, paths) = "tricks", self.simulated(obj["tricks"])
        else:
            return None
        if obj.get("bids") is None:
            raise RecordError("a play needs the bids too", "bids")
        self.check_cards(tricks, paths, hands, key)
        return tricks

    def tricks_of(self, play, seats: int) -> tuple[tuple[Trick, ...], list[str]]:
        """A flat list of cards in play order, or a list of tricks (a card per seat each)."""
        if not isinstance(play, list):
            raise RecordError("expected the cards played, in order: a list, or a list of tricks", "play")
        nested = bool(play) and all(isinstance(t, list) for t in play)
        if nested:
            for i, t in enumerate(play[:-1]):
                if len(t) != seats:
                    raise RecordError(f"trick {i + 1} has {len(t)} cards; a trick has {seats}", f"play[{i}]")
            items = [(c, f"play[{i}][{j}]") for i, t in enumerate(play) for j, c in enumerate(t)]
        else:
            items = [(c, f"play[{i}]") for i, c in enumerate(play)]
        cards = [self.card(c, p) for c, p in items]
        tricks = tuple(Trick(tuple(cards[k:k + seats]), None,
                             self.where(f"play[{k // seats}]" if nested else f"play[{k}]"))
                       for k in range(0, len(cards), seats))
        return tricks, [p for _, p in items]

    def simulated(self, tricks: list) -> tuple[tuple[Trick, ...], list[str]]:
        """``rulespec simulate``'s tricks: leader, cards from the leader, winner."""
        out, paths = [], []
        for i, t in enumerate(tricks):
            path = f"tricks[{i}]"
            if not isinstance(t, Mapping) or not isinstance(t.get("cards"), list):
                raise RecordError("'tricks' is a list of {\"leader\", \"cards\", \"winner\"} objects", path)
            cards = tuple(self.card(c, f"{path}.cards[{j}]") for j, c in enumerate(t["cards"]))
            paths += [f"{path}.cards[{j}]" for j in range(len(cards))]
            leader = self.seat(t["leader"], f"{path}.leader") if t.get("leader") is not None else None
            winner = self.seat(t["winner"], f"{path}.winner") if t.get("winner") is not None else None
            out.append(Trick(cards, leader, self.where(path), winner))
        return tuple(out), paths

    def check_cards(self, tricks: tuple[Trick, ...], paths: list[str], hands: tuple[int, ...], key: str) -> None:
        """Every card played was dealt and is played once; the play covers every trick, a card per seat each."""
        dealt, seen, seats = 0, {}, len(hands)
        for hand in hands:
            dealt |= hand
        cards = [c for t in tricks for c in t.cards]
        for card, path in zip(cards, paths):
            if not dealt >> card & 1:
                raise RecordError(f"{C.card_name(card)} is played but was not dealt", path)
            if card in seen:
                raise RecordError(f"{C.card_name(card)} is played twice (also at {seen[card]})", path)
            seen[card] = path
        size = hands[0].bit_count()
        if len(cards) < seats * size or any(len(t.cards) != seats for t in tricks):
            raise RecordError(f"the play is cut short: it stops after {len(cards)} cards "
                              f"({len(cards) // seats} complete tricks of {size})", key)
        if len(cards) > seats * size:
            raise RecordError(f"the play has {len(cards)} cards; a hand of {size} tricks at {seats} seats has "
                              f"{seats * size}", key)

    def before(self, value) -> tuple[tuple[int, int], tuple[int, int]] | None:
        if value is None:
            return None
        try:
            teams = [value.get(t) or {} for t in _sides(value)]
            scores = tuple(_whole(t.get("score", 0)) for t in teams)
            bags = tuple(_whole(t.get("bags", 0)) for t in teams)
        except (AttributeError, TypeError, ValueError):
            raise RecordError("'before' is {\"NS\": {\"score\", \"bags\"}, \"EW\": {...}}", "before") from None
        return scores, bags

    def recorded(self, obj: Mapping) -> Recorded | None:
        totals, score = obj.get("totals"), obj.get("score")
        if not isinstance(totals, Mapping) and not isinstance(score, Mapping):
            return None
        try:
            return Recorded(totals=_pair(totals, "score"), bags=_pair(totals, "bags"), points=_pair(score, "points"),
                            bags_added=_pair(score, "bags_added"), where=self.where("totals"))
        except (AttributeError, TypeError, ValueError):
            raise RecordError("'totals' and 'score' are {\"NS\": {...}, \"EW\": {...}} of whole numbers",
                              "totals") from None


def _whole(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(value)
    return value


def _sides(value: Mapping) -> tuple[str, ...]:
    """The sides an object of scores is keyed by: the partnerships NS and EW, or, where each plays alone, the
    players' seats (N E, N E S, N E S W: as many as it names)."""
    if any(t in value for t in C.TEAMS):
        return C.TEAMS
    return next((seats for seats in (C.SEATS[:n] for n in (4, 3, 2)) if all(s in value for s in seats)), C.TEAMS)


def _pair(value, key: str) -> tuple[int, ...] | None:
    """Each side's ``key`` of an object of scores by side (None where a side lacks it)."""
    if not isinstance(value, Mapping):
        return None
    sides = _sides(value)
    if any(not isinstance(value.get(t), Mapping) or key not in value[t] for t in sides):
        return None
    return tuple(_whole(value[t][key]) for t in sides)


def _document_hands(doc, base: str = "") -> Iterator[tuple[object, str]]:
    """The hand objects of one JSON document, each with its path: a list of hands, a game's ``hands``, a compare
    request's ``input``, or a diff report example's ``request`` (its body)."""
    if isinstance(doc, list):
        yield from ((item, f"{base}[{i}]") for i, item in enumerate(doc))
    elif isinstance(doc, Mapping) and isinstance(doc.get("hands"), list):
        yield from ((item, f"{base}hands[{i}]") for i, item in enumerate(doc["hands"]))
    elif isinstance(doc, Mapping) and isinstance(doc.get("input"), Mapping):
        yield doc["input"], f"{base}input"
    elif isinstance(doc, Mapping) and isinstance(doc.get("request"), Mapping) \
            and isinstance(doc["request"].get("body"), Mapping):
        yield from _document_hands(doc["request"]["body"], f"{base}request.body.")
    else:
        yield doc, base


def read_json(text: str, limits: Limits) -> Reading:
    """The hands of a JSON Lines file, or of one JSON document (a hand, ``{"hands": [...]}``, a list)."""
    reading = Reading("json")
    stripped = text.strip()
    try:
        doc = json.loads(stripped) if stripped.startswith(("{", "[")) and "\n{" not in stripped else None
    except (ValueError, RecursionError):
        doc = None
    if doc is not None:
        line = 1 if stripped.count("\n") == 0 else None
        items = [(obj, line, path, None) for obj, path in _document_hands(doc)]
    else:
        items = list(_lines(text))
    for number, (obj, line, path, error) in enumerate(items, 1):
        if len(reading.hands) >= limits.hands:
            reading.problems.append(RecordProblem(f"more than {limits.hands} hands: the rest are not read",
                                                  Where(line, None, path or None), number))
            break
        if error is not None:
            reading.problems.append(RecordProblem(error, Where(line), number))
            continue
        reader = _HandReader(obj, number, line, path)
        try:
            reading.hands.append(reader.read())
        except RecordError as bad:
            reading.problems.append(RecordProblem(bad.message, reader.where(bad.path), number))
    return reading


def _lines(text: str) -> Iterator[tuple[object, int, str, str | None]]:
    """Each JSON line: (the object, its line, no path, None), or (None, line, "", why it is not JSON)."""
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            yield json.loads(line), number, "", None
        except (ValueError, RecursionError) as exc:
            yield None, number, "", f"not JSON: {getattr(exc, 'msg', exc)}"
