"""The card play of a hand, written once as Python templates over the procedure's variables.

``{rule}`` in a template marks where that rule's value is used.  ``generate`` fills the
holes in one of two ways from the same text: with calls of the compiled rules (the
step functions of ``hand.HandState``) or with the rules' own expressions inlined
(``fused``: one loop over a whole hand, for simulation speed).  A change to how a
card is played or a trick is settled is made here and reaches every path that plays.

The procedure's variables: ``hands`` (mask per seat), ``seat``, ``hand`` (the seat's
cards before it plays), ``card``, ``trick`` (cards so far, leader first),
``trick_mask``, ``led`` (suit led, ``NONE`` before the lead), ``number`` (trick
number from 1), ``position`` (1-4 in the trick), ``leading``, ``broken``,
``played`` (every card played so far), ``plays`` ((seat, card) in order: the
winner of a trick is the seat that played the winning card), ``leader``, ``won``
(tricks per seat), ``winners`` (seat per trick).
"""
from __future__ import annotations

import re
from collections.abc import Callable

from ..core.schema import CONTEXTS, PLAY_CONSTRAINTS
from ..model.ruleset import Ruleset

# the procedure's variable that holds each context name's value (the one place each is computed)
LOCALS: dict[str, dict[str, str]] = {
    "play": {"hand": "hand", "trick.cards": "trick_mask", "trick.led_suit": "led", "trick.number": "number",
             "trick.position": "position", "leading": "leading", "trump_broken": "broken", "played": "played"},
    "break": {"card": "card", "hand": "hand", "leading": "leading", "trick.led_suit": "led",
              "trick.number": "number"},
    "trick": {"trick.cards": "trick_mask", "trick.led_suit": "led", "trick.number": "number",
              "trick.lead": "lead"},
}

START_TRICK = """\
trick = []
trick_mask = 0
led = NONE
"""

# one play constraint: it narrows the legal set only when it leaves some card of it
# (``play.legal_cards`` applies the same rule and records the conflicts and dead ends it skips)
NARROW = """\
narrowed = allowed & ({rule})
if narrowed:
    allowed = narrowed
"""

PLAY_CARD = """\
if not broken and ({trump.breaks}):
    broken = True
bit = 1 << card
hands[seat] = hand & ~bit
played |= bit
trick_mask |= bit
trick.append(card)
plays.append((seat, card))
if leading:
    led = _SUIT[card]
"""

FINISH_TRICK = """\
lead = trick[0]
win = {trick.winner}
if win not in trick:
    bad_winner(rs, win)
leader = plays[trick.index(win) - 4][0]
won[leader] += 1
winners.append(leader)
"""

_HOLE = re.compile(r"\{([a-z_]+\.[a-z_]+|rule)\}")


def applicable_constraints(leading: bool, first_trick: bool) -> tuple[str, ...]:
    """The play constraints that apply to a seat leading or following, on the first trick or later,
    in priority order."""
    return _APPLICABLE[(leading, first_trick)]


def _applicable(leading: bool, first_trick: bool) -> tuple[str, ...]:
    names = []
    for name in PLAY_CONSTRAINTS:
        if name == "play.lead" and not leading or name == "play.follow" and leading:
            continue
        if name == "play.first_lead" and not (leading and first_trick):
            continue
        if name.startswith("play.first_trick") and not first_trick:
            continue
        names.append(name)
    return tuple(names)


_APPLICABLE = {(lead, first): _applicable(lead, first) for lead in (True, False) for first in (True, False)}

RuleSource = Callable[[Ruleset, str, str], str]   # (ruleset, rule name, context) -> a Python expression


def context_values(context: str) -> list[str]:
    """The procedure's variables that make a rule's arguments, in the schema's order, by name."""
    return [LOCALS[context][name] for name in CONTEXTS[context]]


def fill(template: str, rs: Ruleset, rule_source: RuleSource, rule: str | None = None) -> str:
    """``template`` with each ``{rule name}`` (``{rule}``: ``rule``) replaced by ``rule_source``'s expression."""
    def hole(match: re.Match) -> str:
        name = rule if match.group(1) == "rule" else match.group(1)
        return rule_source(rs, name, rs.rules[name].slot.context)
    return _HOLE.sub(hole, template)


def narrowing(rs: Ruleset, rule_source: RuleSource, leading: bool, first_trick: bool) -> str:
    """The legal set of a seat (``allowed``, from ``hand``) in one situation."""
    steps = [fill(NARROW, rs, rule_source, name) for name in applicable_constraints(leading, first_trick)]
    return "allowed = hand\n" + "".join(steps)


def legal_source(rs: Ruleset, rule_source: RuleSource, leading: bool | None = None) -> str:
    """The legal set for a seat whose situation is known when ``leading`` is given, else read at run time."""
    def by_trick(lead: bool) -> str:
        return ("if number == 1:\n" + indent(narrowing(rs, rule_source, lead, True))
                + "else:\n" + indent(narrowing(rs, rule_source, lead, False)))
    if leading is not None:
        return by_trick(leading)
    return "if leading:\n" + indent(by_trick(True)) + "else:\n" + indent(by_trick(False))


def indent(text: str, by: str = "    ") -> str:
    return "".join(by + line if line.strip() else line for line in text.splitlines(keepends=True))
