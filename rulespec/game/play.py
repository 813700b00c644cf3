"""Card play rules: the legal cards of a seat, trumps broken, the winner of a trick.

The play constraints narrow a hand in priority order; conflicts and dead ends are
recorded (see ``legal_cards``).  The per-card step of a hand is ``hand.HandState``.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NoReturn

from ..core import cards as C
from ..core.contexts import ARGS
from ..errors import GameError
from ..lang.compiler import NONE
from ..model.ruleset import Ruleset
from .procedure import applicable_constraints

# --------------------------------------------------------------------------- play
@dataclass
class Legal:
    """Legal cards for a seat, with the rules that shaped the set."""
    cards: int
    steps: list[dict] = field(default_factory=list)
    conflicts: list[dict] = field(default_factory=list)
    dead_ends: list[dict] = field(default_factory=list)


def _narrow(rs: Ruleset, args: tuple, names: tuple[str, ...], hand: int, record: Legal | None,
            explain: bool = False) -> int:
    """Apply the play constraints ``names`` in priority order (see ``legal_cards``); ``record`` receives
    conflicts and dead ends, and with ``explain`` the steps applied."""
    allowed = hand
    applied: list[tuple[str, int]] = []   # (rule, cards it permits)
    fns = rs.fn
    for name in names:
        permitted = fns[name](*args) & hand
        if permitted == hand:
            continue
        if permitted == 0:
            if record is not None:
                record.dead_ends.append({**rs.cite(name), "why": "allows none of the cards in this hand"})
            continue
        if allowed & permitted == 0:
            if record is not None:
                clash = [r for r, p in applied if p & permitted == 0] or [r for r, _ in applied]
                record.conflicts.append({"rules": [*clash, name], "cites": [rs.cite(r) for r in [*clash, name]],
                                         "why": f"{name} allows only {' '.join(C.card_names(permitted))}, "
                                                f"which {', '.join(clash)} excludes; {clash[0]} is applied"})
            continue
        allowed &= permitted
        applied.append((name, permitted))
        if explain:
            record.steps.append(rs.step(name, C.card_names(permitted)))
    return allowed


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
    args = ARGS["play"](hand=hand, trick_cards=trick_mask, trick_led_suit=NONE if leading else rs.suit_of[trick[0]],
                        trick_number=number, trick_position=len(trick) + 1, leading=leading, trump_broken=broken,
                        played=played)
    result = Legal(hand)
    result.cards = _narrow(rs, args, applicable_constraints(leading, number == 1), hand, result, explain)
    return result


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


def bad_winner(rs: Ruleset, card: int) -> NoReturn:
    """A ``trick.winner`` rule named a card that is not in the trick."""
    raise GameError(f"rule trick.winner named {C.card_name(card) if card >= 0 else 'no card'}, "
                    "which is not in the trick", "cards", "trick.winner", rs.rules["trick.winner"].cite)


def trick_winner(rs: Ruleset, trick: Sequence[int], number: int = 1, explain: bool = False
                 ) -> tuple[int, list[dict]]:
    """Index (0 = leader) of the card that wins a complete trick, and the trail."""
    mask = 0
    for card in trick:
        mask |= 1 << card
    led = rs.suit_of[trick[0]]
    card = rs.fn["trick.winner"](*ARGS["trick"](trick_cards=mask, trick_led_suit=led, trick_number=number,
                                                trick_lead=trick[0]))
    if card not in trick:
        bad_winner(rs, card)
    steps = []
    if explain:
        steps.append(rs.step("card.suit", C.SUIT_NAMES[led], f"{C.card_name(trick[0])} was led"))
        trumps = [C.card_name(c) for c in trick if rs.suit_of[c] == rs.params["trump.suit"]]
        if trumps:
            steps.append(rs.step("trump.suit", C.SUIT_NAMES[rs.params["trump.suit"]],
                                 f"trumps in the trick: {' '.join(trumps)}"))
        steps.append(rs.step("trick.winner", C.card_name(card)))
    return trick.index(card), steps


def by_seat(trick: Sequence[int], leader: int) -> list[int]:
    """The cards of a complete trick indexed by seat (``trick`` is in play order from ``leader``)."""
    cards = [0] * 4
    for pos, card in enumerate(trick):
        cards[(leader + pos) % 4] = card
    return cards

