"""A request's fields read and checked, for every kind of answer (``answers``, ``claims``, ``compare``):
each value parsed or refused with an ``InputError`` whose ``field`` is its path (``bids.N``, ``play[12]``)."""
from __future__ import annotations

from collections.abc import Callable, Mapping

from .. import game as E
from ..core import cards as C
from ..errors import CardError, GameError, InputError, did_you_mean
from ..model.ruleset import Ruleset


def obj(req, field: str) -> Mapping:
    if not isinstance(req, Mapping):
        raise InputError("expected a JSON object", field or "body")
    return req


def get(req: Mapping, key: str, field: str, required: bool = True, default=None):
    if key not in req or req[key] is None:
        if required:
            raise InputError("this field is required", join(field, key))
        return default
    return req[key]


def present(req: Mapping) -> dict:
    """The request's fields that are given: a null field is one left out (but a null variant is refused)."""
    return {key: value for key, value in req.items() if value is not None or key in ("variant", "variants")}


def join(field: str, key: str) -> str:
    return f"{field}.{key}" if field else key


def whole(value, field: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"expected a whole number, got {value!r}", field)
    if low is not None and value < low or high is not None and value > high:
        raise InputError(f"must be between {low} and {high}, got {value}", field)
    return value


def seat_of(value, field: str, table: C.Table = C.FOUR) -> int:
    """A seat of ``table`` (N, E, S, W; three seats: N, E, S; two: N, E)."""
    try:
        return C.parse_seat(value, table.seats)
    except CardError as exc:
        raise InputError(str(exc), field) from None


def card_of(value, field: str, rs: Ruleset | None = None) -> int:
    try:
        card = C.parse_card(value)
    except CardError as exc:
        raise InputError(str(exc), field) from None
    if rs is not None and not (rs.deck >> card) & 1:
        raise InputError(f"{C.card_name(card)} is not in the pack of variant '{rs.id}'", field)
    return card


def cards_of(value, field: str, rs: Ruleset | None = None, seen: dict | None = None) -> list[int]:
    if not isinstance(value, list):
        raise InputError("expected a list of cards such as [\"AS\", \"10H\"]", field)
    seen = {} if seen is None else seen
    out = []
    for i, item in enumerate(value):
        card = card_of(item, f"{field}[{i}]", rs)
        if card in seen:
            raise InputError(f"{C.card_name(card)} appears twice (also at {seen[card]})", f"{field}[{i}]")
        seen[card] = f"{field}[{i}]"
        out.append(card)
    return out


def per_seat_some(value, field: str, parse: Callable[[object, str], object], table: C.Table = C.FOUR) -> list:
    """The entries of an object keyed by the seats of ``table``, parsed (None for a seat it leaves out)."""
    if not isinstance(value, Mapping):
        raise InputError(f"expected an object keyed by seat ({', '.join(table.seat_names)})", field)
    out: list = [None] * table.seats
    for key, item in value.items():
        out[seat_of(key, f"{field}.{key}", table)] = parse(item, f"{field}.{key}")
    return out


def per_seat(value, field: str, parse: Callable[[object, str], object], table: C.Table = C.FOUR) -> list:
    """One value per seat of ``table`` (every seat given, no other)."""
    if not isinstance(value, Mapping):
        raise InputError(f"expected an object with one entry per seat: {', '.join(table.seat_names)}", field)
    out = [None] * table.seats
    for key, item in value.items():
        path = f"{field}.{key}"
        seat = seat_of(key, path, table)
        out[seat] = parse(item, path)
    missing = [C.SEATS[s] for s in range(table.seats) if out[s] is None]
    if missing:
        raise InputError(f"missing seat(s): {', '.join(missing)}", field)
    return out


def team_of(value: object, field: str, table: C.Table = C.FOUR) -> int:
    """A side named by its letters: NS or EW, or where each plays alone a player's seat."""
    names = table.side_names
    if isinstance(value, str) and value.strip().upper() in names:
        return names.index(value.strip().upper())
    raise InputError(f"expected a side, {' or '.join((', '.join(names[:-1]), names[-1]))}, got {value!r}", field)


def hands_of(value: object, field: str, rs: Ruleset, seen: dict[int, str]) -> list[int]:
    """Each seat's cards (``{"N": [...], ...}``, every seat given) as masks, each card once in ``seen``."""
    return per_seat(value, field, lambda item, path: C.mask_of(cards_of(item, path, rs, seen)),
                    C.table_of(rs.params))


DRAW_KEYS = ("stock", "kept")


def is_drawn(value: object) -> bool:
    """Whether a request's ``deal`` is given as a draw (``{"stock": [...], "kept": [...]}``), not by seat."""
    return isinstance(value, Mapping) and any(key in value for key in DRAW_KEYS)


def drawn_deal(value: Mapping, field: str, rs: Ruleset, dealer: int) -> list[int]:
    """The hands drawn (``deal.draw``) from a deal given as ``{"stock": cards, "kept": booleans}``: the stock
    the whole pack, top card first, each card once; ``kept`` each turn's choice in order (true: the drawer
    kept the top card, false: the next)."""
    cite = rs.rules["deal.draw"].cite
    if not rs.params["deal.draw"]:
        raise InputError(f"variant '{rs.id}' deals its hands, it does not draw them from a stock: give the deal "
                         "as each seat's cards", join(field, "stock" if "stock" in value else "kept"), "deal.draw",
                         cite)
    for key in value:
        if key not in DRAW_KEYS:
            raise InputError(f"a drawn deal is {{\"stock\": [...], \"kept\": [...]}}, not '{str(key)[:40]}' besides",
                             join(field, str(key)[:100]), "deal.draw", cite)
    stock = cards_of(get(value, "stock", field), join(field, "stock"), rs)
    pack = rs.deck.bit_count()
    if len(stock) != pack:
        missing = C.card_names(rs.deck & ~C.mask_of(stock))
        raise InputError(f"the stock is the whole pack of {pack} cards in order; {len(stock)} given (missing: "
                         f"{', '.join(missing[:8])}{', …' if len(missing) > 8 else ''})", join(field, "stock"),
                         "deal.draw", cite)
    kept = get(value, "kept", field)
    turns = rs.params["table.seats"] * rs.params["deal.hand_size"]
    if not isinstance(kept, list):
        raise InputError(f"expected a list of {turns} choices, true (the top card kept) or false (the next)",
                         join(field, "kept"), "deal.draw", cite)
    for i, choice in enumerate(kept):
        if not isinstance(choice, bool):
            raise InputError(f"expected true (the top card kept) or false (the next), got {choice!r}",
                             f"{join(field, 'kept')}[{i}]", "deal.draw", cite)
    if len(kept) != turns:
        raise InputError(f"the draw takes {turns} turns ({rs.params['table.seats']} players drawing "
                         f"{rs.params['deal.hand_size']} cards each), one choice a turn; {len(kept)} given",
                         join(field, "kept"), "deal.draw", cite)
    return E.drawn_hands(rs, stock, dealer, kept)


def scores_before(req: Mapping, table: C.Table = C.FOUR) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each side's score and bags before the hand (``before``: by side, NS and EW or each player alone)."""
    before = req.get("before", {})      # (null fields were dropped: see _present)
    names = table.side_names
    if not isinstance(before, Mapping):
        raise InputError(f"expected {{\"{names[0]}\": {{\"score\": …, \"bags\": …}}, \"{names[1]}\": {{…}}}}",
                         "before")
    scores, bags = [0] * table.sides, [0] * table.sides
    for key, item in before.items():
        if key not in names:
            raise InputError(f"unknown team '{key}' (teams are NS and EW)" if table.partners else
                             f"unknown player '{key}' (each plays alone: {', '.join(names[:-1])} and {names[-1]})",
                             f"before.{key}")
        item = obj(item, f"before.{key}")
        for sub in item:
            if sub not in ("score", "bags"):
                raise InputError(f"unknown key '{sub}' (use score and bags)", f"before.{key}.{sub}")
        t = names.index(key)
        scores[t] = whole(item.get("score", 0), f"before.{key}.score", -100_000, 100_000)
        bags[t] = whole(item.get("bags", 0), f"before.{key}.bags", 0, 1000)
    return tuple(scores), tuple(bags)


# the usual bids parsed once (bids are immutable); anything else goes through parse_bid
_COMMON_BIDS: dict[int | str, E.Bid] = {value: E.parse_bid(value)
                                        for value in (*range(14), *map(str, range(14)), "nil", "blind nil")}


def bid_of(value, field: str) -> E.Bid:
    if type(value) is int or type(value) is str:     # exact types: True == 1 but is not a bid
        bid = _COMMON_BIDS.get(value)
        if bid is not None:
            return bid
    try:
        return E.parse_bid(value, field)
    except GameError as exc:
        raise InputError(exc.message, field) from None


def known_fields(req: Mapping, allowed: tuple[str, ...], field: str, what: str) -> None:
    """Refuse a field ``what`` does not read (it would be ignored without a word)."""
    for key in req:
        if key not in allowed:
            hint = did_you_mean(str(key), allowed)
            raise InputError(f"unknown field '{str(key)[:40]}'" + (f"; did you mean '{hint}'?" if hint else
                                                                   f" ({what} takes: {', '.join(allowed)})"),
                             join(field, str(key)[:100]))
