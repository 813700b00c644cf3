"""Card play rules: the legal cards of a seat and the winner of a trick, with their explanations.

The card play itself is the lowered form's (``procedure.card_play``, as ``steps``): the play
constraints narrow a hand in priority order, conflicts and dead ends noted (see ``legal_cards``).
The per-card step of a hand is ``hand.HandState``.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..core import cards as C
from ..core.schema import PLAY_CONSTRAINTS
from ..lang.compiler import NONE
from ..model.ruleset import Ruleset, load_ruleset
from ..procedure.form import rules_asked
from .steps import steps_of

# --------------------------------------------------------------------------- play
@dataclass
class Legal:
    """Legal cards for a seat, with the rules that shaped the set."""
    cards: int
    steps: list[dict] = field(default_factory=list)
    conflicts: list[dict] = field(default_factory=list)
    dead_ends: list[dict] = field(default_factory=list)


class _LegalNotes:
    """The explanation of a legal set from the card play's notes: each constraint applied (with
    ``explain``), the conflicts and the dead ends met."""

    def __init__(self, rs: Ruleset, record: Legal, explain: bool):
        self.rs, self.record, self.explain = rs, record, explain
        self.applied: list[tuple[str, int]] = []     # (rule, cards it permits)

    def note(self, kind: str, name: str, permitted: int = 0) -> None:
        rs, record = self.rs, self.record
        if kind == "dead_end":
            record.dead_ends.append({**rs.cite(name), "why": "allows none of the cards in this hand"})
        elif kind == "conflict":
            clash = [r for r, p in self.applied if p & permitted == 0] or [r for r, _ in self.applied]
            record.conflicts.append({"rules": [*clash, name], "cites": [rs.cite(r) for r in [*clash, name]],
                                     "why": f"{name} allows only {' '.join(C.card_names(permitted))}, "
                                            f"which {', '.join(clash)} excludes; {clash[0]} is applied"})
        else:
            self.applied.append((name, permitted))
            if self.explain:
                record.steps.append(rs.step(name, C.card_names(permitted)))


def legal_cards(rs: Ruleset, hand: int, trick: Sequence[int], number: int, broken: bool,
                played: int = 0, explain: bool = False) -> Legal:
    """Cards ``hand`` may play to ``trick`` (cards so far, leader first) of trick ``number``.

    Each applicable play constraint narrows the set in priority order.  A
    constraint that would leave no card although an earlier one left some is a
    *conflict* (the document gives no priority; the earlier rule is applied);
    one that allows no card of the hand at all is a *dead end*.  Conflicts and
    dead ends are always recorded; ``explain`` adds the steps applied.
    """
    leading = not trick
    trick_mask = 0
    for card in trick:
        trick_mask |= 1 << card
    result = Legal(hand)
    result.cards = steps_of(rs).legal__x(_LegalNotes(rs, result, explain), hand, trick_mask,
                                         NONE if leading else rs.suit_of[trick[0]], number, len(trick) + 1, leading,
                                         broken, played)
    return result


def applicable_constraints(leading: bool, first_trick: bool) -> tuple[str, ...]:
    """The play constraints that apply to a seat leading or following, on the first trick or later, in
    priority order: the ones the lowered form's ``legal`` asks in that situation."""
    return _applicable(leading, first_trick)


@functools.lru_cache(maxsize=None)
def _applicable(leading: bool, first_trick: bool) -> tuple[str, ...]:
    situation: dict[str, object] = {"leading": leading, "trick_number": 1 if first_trick else 2}
    asked = rules_asked(load_ruleset("standard"), "legal", situation)
    return tuple(name for name in asked if name in PLAY_CONSTRAINTS)


# what each kind of irregular card is, by the play rule it breaks first
IRREGULAR_KINDS = {
    "renounce": "failing to follow suit while able",
    "trump_lead": "leading a trump before trumps are broken",
    "first_trick": "breaking a rule of the first trick",
    "other": "breaking a play rule",
}


def irregularity(rs: Ruleset, legal: Legal, card: int, leading: bool) -> dict | None:
    """What is irregular about playing ``card`` (None: it is legal): its kind, the play rule it breaks
    (the first in priority order, from ``legal``'s steps), whether it is a renege, and the ruling, with
    the rules that decide it: a renege's penalty, or ``play.irregular`` (the card is refused or stands)."""
    if (legal.cards >> card) & 1:
        return None
    name = C.card_name(card)
    broken = next((step["rule"] for step in legal.steps if name not in step["value"]), None)
    kind = _irregular_kind(rs, broken, card, leading)
    renege = kind == "renounce" or (kind == "trump_lead" and bool(rs.params["renege.lead"]))
    mode = rs.params["renege.mode"]
    if renege and mode != "none":
        ruling, by = "renege", (["renege.lead"] if kind == "trump_lead" else []) + ["renege.mode"]
    elif renege:
        ruling, by = "refused", ["renege.mode"]
    else:
        ruling, by = rs.params["play.irregular"], ["play.irregular"]
    return {"card": name, "kind": kind, "what": IRREGULAR_KINDS[kind],
            "broken": rs.cite(broken) if broken else None, "renege": renege, "ruling": ruling,
            "decided_by": [rs.cite(rule) for rule in by]}


def _irregular_kind(rs: Ruleset, broken: str | None, card: int, leading: bool) -> str:
    if broken == "play.follow":
        return "renounce"
    if broken == "play.lead" and leading and rs.suit_of[card] == rs.params["trump.suit"]:
        return "trump_lead"
    if broken is not None and broken.startswith("play.first"):
        return "first_trick"
    return "other"


def trick_winner(rs: Ruleset, trick: Sequence[int], number: int = 1, explain: bool = False
                 ) -> tuple[int, list[dict]]:
    """Index (0 = leader) of the card that wins a complete trick, and the trail."""
    mask = 0
    for card in trick:
        mask |= 1 << card
    led = rs.suit_of[trick[0]]
    card = trick[steps_of(rs).trick_winner(list(trick), list(range(max(4, len(trick)))), mask, led, number)]
    steps = []
    if explain:
        steps.append(rs.step("card.suit", C.SUIT_NAMES[led], f"{C.card_name(trick[0])} was led"))
        trumps = [C.card_name(c) for c in trick if rs.suit_of[c] == rs.params["trump.suit"]]
        if trumps:
            steps.append(rs.step("trump.suit", C.SUIT_NAMES[rs.params["trump.suit"]],
                                 f"trumps in the trick: {' '.join(trumps)}"))
        steps.append(rs.step("trick.winner", C.card_name(card)))
    return trick.index(card), steps


def by_seat(trick: Sequence[int], leader: int, seats: int = 4) -> list[int]:
    """The cards of a complete trick indexed by seat (``trick`` is in play order from ``leader``; the places of a
    table's missing seats are 0)."""
    cards = [0] * max(4, seats)
    for pos, card in enumerate(trick):
        cards[(leader + pos) % seats] = card
    return cards

