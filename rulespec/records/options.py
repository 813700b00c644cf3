"""Trickster's table options (a PTN record's ``GameOptionsJson``) as a variant: the one place that maps them.

Each option the platform's records carry is mapped, where today's rule slots can express it, onto rules
of an inline house variant extending a bundled one; every other option is listed as not mapped, with the
reason.  The meaning of each value is read from the records themselves: Trickster's ``Event`` tag spells
the options out in words ("Joker-Joker-Deuce-Deuce to 500, −10x bid if set, min bid 4, ..."), and only the
values seen there are mapped (docs/records.md has the table and its sources).  The full mapping is the
work of the "rules real tables play" issue; it extends ``MAPPERS`` here.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

VARIANT_ID = "trickster"
_VARIATIONS = {3: "jokers-deuces"}        # 3: "Joker-Joker-Deuce-Deuce" in the Event of a record that names it


@dataclass(frozen=True)
class OptionReading:
    """One option: whether it is mapped, the rules it sets (rule -> DSL text) and what it means or why not."""
    option: str
    value: object
    mapped: bool
    why: str
    rules: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"option": self.option, "value": self.value, "mapped": self.mapped, "why": self.why,
                "rules": dict(self.rules)}


@dataclass(frozen=True)
class OptionsMapping:
    """The variant a record's options choose: ``spec`` is an inline house variant (``answers``' form)."""
    base: str
    spec: dict
    options: tuple[OptionReading, ...]

    @property
    def unmapped(self) -> list[OptionReading]:
        return [o for o in self.options if not o.mapped]

    def as_dict(self) -> dict:
        return {"base": self.base, "variant": self.spec, "options": [o.as_dict() for o in self.options]}


def _cite(option: str) -> str:
    return f"house §Trickster option {option}"


def _rule(option: str, value: object, note: str) -> dict:
    return {"value": value, "cite": _cite(option), "note": note}


def _done(option: str, value: object, why: str, **rules) -> OptionReading:
    return OptionReading(option, value, True, why, {k.replace("__", "."): _rule(option, v, why)
                                                     for k, v in rules.items()})


def _not(option: str, value: object, why: str) -> OptionReading:
    return OptionReading(option, value, False, why)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _variation(value: object) -> OptionReading:
    if value in _VARIATIONS:
        return OptionReading("variation", value, True, f"the pack and card ranking of {_VARIATIONS[value]} "
                             "(Joker-Joker-Deuce-Deuce: both jokers, 2♦ and 2♠ top the spades)")
    return _not("variation", value, "no bundled variant has this pack and ranking (Joker-Joker-Ace and the "
                "others come with the 'rules real tables play' issue); standard's 52-card pack is used")


def _game_over(value: object) -> OptionReading:
    if _whole(value) and 0 < value <= 100_000:
        return _done("gameOverScore", value, f"the game ends at {value} points", game__target=value)
    return _not("gameOverScore", value, "not a positive whole number of points")


def _min_bid(value: object) -> OptionReading:
    if _whole(value) and 0 <= value <= 13:
        return _done("minBid", value, f"a side bids at least {value} tricks together (a record with min bid 4 "
                     "has a seat bidding 1 beside a partner's 4)", bid__team_min=value)
    return _not("minBid", value, "not a number of tricks")


def _fail_bid(value: object) -> OptionReading:
    if value == 1:
        return _done("failBidScoring", value, "a set side loses 10 points per trick bid (\"−10x bid if set\")",
                     scoring__set="-10 * team.contract")
    return _not("failBidScoring", value, "only value 1 (−10× the bid when set) is attested in a record")


def _ten_for_200(value: object) -> OptionReading:
    if value is True:
        return _done("tenForTwoHundred", value, "a side that bids 10 and makes it scores 200 (\"10-for-200\"); "
                     "a set bid of 10 and bids over 10 are not described and keep the base's scores",
                     scoring__made="if team.contract == 10 then 200 else 10 * team.contract")
    if value is False:
        return OptionReading("tenForTwoHundred", value, True, "no 10-for-200 bonus: the base's scores")
    return _not("tenForTwoHundred", value, "expected true or false")


def _nil_or_zero(value: object) -> OptionReading:
    if value == 1:
        return OptionReading("nilOrZero", value, False, "\"no Nil\": no nil or blind nil is allowed (mapped), but "
                             "a bid of 0 is an ordinary contract of zero there, which no rule slot can express "
                             "yet: a 0 bid is read as nil and refused",
                             {"nil.allowed": _rule("nilOrZero", False, "no Nil"),
                              "blind_nil.allowed": _rule("nilOrZero", False, "no Nil")})
    return _not("nilOrZero", value, "only value 1 (\"no Nil\") is attested in a record")


def _blind_bids(value: object) -> OptionReading:
    if value == 4:
        return _done("blindNonNilBids", value, "a side may bid blind 6 or more when losing by 250 (\"Blind 6+ if "
                     "losing by 250\"); how a blind bid scores is not described: the base's blind scores",
                     blind_bid__allowed="bid.n >= 6 and opponents.score - team.score >= 250")
    return _not("blindNonNilBids", value, "only value 4 (\"Blind 6+ if losing by 250\") is attested in a record")


def _bags_penalty(value: object) -> OptionReading:
    if value is False:
        return _done("tenBagsPenalty", value, "no penalty for bags (\"no bags\")", bags__limit=0)
    if value is True:
        return OptionReading("tenBagsPenalty", value, True, "ten bags cost 100: the base's bag rule")
    return _not("tenBagsPenalty", value, "expected true or false")


def _lead_spades(value: object) -> OptionReading:
    if value == 2:
        return _done("leadSpades", value, "spades may be led at any time (\"lead ♠ anytime\")", play__lead="hand")
    return _not("leadSpades", value, "only value 2 (\"lead ♠ anytime\") is attested in a record")


def _mercy(value: object) -> OptionReading:
    if value == 1:
        return _done("mercyRule", value, "the game also ends when a side falls to −200 (\"to 350/−200\")",
                     game__mercy="low.score <= -200")
    return _not("mercyRule", value, "only value 1 (a floor of −200) is attested in a record")


def _no_rule(why: str) -> Callable[[object], OptionReading]:
    def reading(value: object) -> OptionReading:
        return OptionReading("", value, value in (False, 0, None), why)
    return reading


MAPPERS: dict[str, Callable[[object], OptionReading]] = {
    "variation": _variation, "gameOverScore": _game_over, "minBid": _min_bid, "failBidScoring": _fail_bid,
    "tenForTwoHundred": _ten_for_200, "nilOrZero": _nil_or_zero, "blindNonNilBids": _blind_bids,
    "tenBagsPenalty": _bags_penalty, "leadSpades": _lead_spades, "mercyRule": _mercy,
    "firstHandBidsItself": _no_rule("\"1st hand bids itself\": no rule slot says how the first hand of a game "
                                    "is bid (issue 30)"),
    "nilPass": _no_rule("cards passed between an ordinary nil bidder and partner: no rule slot yet (issue 30)"),
    "noWatching": lambda value: OptionReading("noWatching", value, True, "who may watch the table: not a rule of "
                                              "play"),
}


def map_options(options: Mapping) -> OptionsMapping:
    """The inline variant a record's ``GameOptionsJson`` chooses, and what became of each option."""
    readings = []
    for name, value in options.items():
        mapper = MAPPERS.get(name)
        if mapper is None:
            readings.append(_not(name, value, "an option this mapping does not know"))
            continue
        reading = mapper(value)
        readings.append(OptionReading(name, value, reading.mapped, reading.why, reading.rules))
    base = _VARIATIONS.get(options.get("variation"), "standard")
    rules = {rule: value for reading in readings for rule, value in reading.rules.items()}
    spec = {"id": VARIANT_ID, "title": "Trickster's table options (GameOptionsJson)", "extends": base,
            "rules": rules}
    return OptionsMapping(base, spec, tuple(readings))
