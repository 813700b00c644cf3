"""Trickster's table options (a PTN record's ``GameOptionsJson``) as a variant: the one place that maps them.

Each option the platform's records carry is mapped, where today's rule slots can express it, onto rules
of an inline house variant extending a bundled one; every other option is listed as not mapped, with the
reason.  The meaning of each value is read from the records themselves: Trickster's ``Event`` tag spells
the options out in words ("Joker-Joker-Deuce-Deuce to 500, −10x bid if set, min bid 4, ..."), and only the
values seen there are mapped (docs/records.md has the table and its sources).  The full mapping is the
work of the "rules real tables play" issue; it extends ``MAPPERS`` here.  ``read_options`` reads such an
object from a file and ``variant_text`` writes the mapping as a variant file (``rulespec import-options``).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..errors import FileError

VARIANT_ID = "trickster"
# the packs by their number in the Event of a record that names them: 1 "Joker-Joker-Ace" (issue 231),
# 3 "Joker-Joker-Deuce-Deuce" (issue 335)
_VARIATIONS = {1: "jokers-ace", 3: "jokers-deuces"}
_PACKS = {1: "Joker-Joker-Ace: both jokers top the spades, above the ace",
          3: "Joker-Joker-Deuce-Deuce: both jokers, 2♦ and 2♠ top the spades"}
MAX_OPTIONS_BYTES = 64 * 1024


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
    if _whole(value) and value in _VARIATIONS:
        return OptionReading("variation", value, True, f"the pack and card ranking of {_VARIATIONS[value]} "
                             f"({_PACKS[value]})")
    return _not("variation", value, "no record attests which pack this number is (1 is Joker-Joker-Ace, 3 "
                "Joker-Joker-Deuce-Deuce); standard's 52-card pack is used")


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
        return _done("nilOrZero", value, "\"no Nil\": no nil or blind nil; a bid of no tricks is an ordinary "
                     "contract of zero, written 'zero' (as zero-not-nil)", nil__allowed=False,
                     blind_nil__allowed=False, bid__zero=True)
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


def _nil_pass(value: object) -> OptionReading:
    if value == 0:
        return OptionReading("nilPass", value, True, "no cards passed for a nil: the base's")
    if _whole(value) and value in (1, 2, 4):
        return _done("nilPass", value, f"an ordinary nil bidder whose partner bid a number passes the partner "
                     f"{value} card{'s' if value > 1 else ''} and takes as many back after the bids (as nil-pass, "
                     "005 §Nil pass)", nil__exchange=value)
    return _not("nilPass", value, "only 0, 1, 2 or 4 cards are offered (SpadesBot.cs, TestSpadesBot.cs)")


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
    "nilPass": _nil_pass,
    "tenBonus": lambda value: _not("tenBonus", value, "no record attests what its values mean (tenForTwoHundred "
                                   "is the 10-for-200 option)"),
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


def read_options(path: str) -> dict:
    """A Trickster ``GameOptionsJson`` object from the file at ``path`` (``FileError`` saying what is wrong:
    unreadable, too large, not JSON, not an object)."""
    try:
        data = Path(path).read_bytes()[:MAX_OPTIONS_BYTES + 1]
    except OSError as exc:
        raise FileError(f"{path}: cannot read the options: {exc.strerror}", path) from None
    if len(data) > MAX_OPTIONS_BYTES:
        raise FileError(f"{path}: more than {MAX_OPTIONS_BYTES // 1024} KiB; a GameOptionsJson object is a few "
                        "hundred bytes", path)
    try:
        options = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise FileError(f"{path}: not UTF-8 text", path) from None
    except json.JSONDecodeError as exc:
        raise FileError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}", path, exc.lineno) from None
    if not isinstance(options, dict):
        raise FileError(f"{path}: expected a JSON object of Trickster's options (GameOptionsJson), such as "
                        '{"variation": 1, "gameOverScore": 350}', path)
    return options


def _shown(value: object) -> str:
    """An option's value as one line of a comment."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _name(option: str) -> str:
    """An option's name as one line of a comment (a name that is not a plain word is quoted)."""
    return option if option.isascii() and option.isidentifier() else _shown(option)


def variant_text(mapping: OptionsMapping, source: str) -> str:
    """The mapping as a variant file: each mapped option's rules under a comment saying what it means, each
    option not mapped as a comment saying why (the file is valid YAML, a variant extending ``mapping.base``)."""
    spec = mapping.spec
    head = {key: spec[key] for key in ("id", "title", "extends")}
    lines = [f"# Trickster's table options from {_shown(source)}, as a variant (rulespec import-options).",
             "# Each mapped option is a comment above its rules; the options not mapped are listed at the end.",
             yaml.safe_dump(head, allow_unicode=True, sort_keys=False).rstrip(),
             "source: {doc: house, title: \"Trickster's table options (GameOptionsJson)\"}",
             "rules:" if any(o.rules for o in mapping.options if o.mapped) else "rules: {}"]
    for o in mapping.options:
        if o.mapped:
            lines.append(f"  # {_name(o.option)} = {_shown(o.value)}: {o.why}")
            if o.rules:
                body = yaml.safe_dump(o.rules, allow_unicode=True, sort_keys=False, width=110)
                lines += ["  " + line for line in body.rstrip().splitlines()]
    unmapped = mapping.unmapped
    if unmapped:
        lines.append("# not mapped (the base's rules stand for these):")
        lines += [f"#   {_name(o.option)} = {_shown(o.value)}: {o.why}" for o in unmapped]
    return "\n".join(lines) + "\n"
