"""Turn explored evidence into findings: dead ends, conflicts, dead rules."""
from __future__ import annotations

from dataclasses import dataclass, field

from ...core import cards as C
from ... import game as E
from ...model.ruleset import Ruleset
from ...core.schema import SLOTS
from .states import Event, Evidence, PlayState


@dataclass
class Finding:
    """One problem of a document, with the clauses involved and an example state."""
    kind: str
    phase: str
    rules: list[dict]
    why: str
    count: int
    example: dict
    core: dict | None = None
    minimal: bool = False
    extra: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        out = {"kind": self.kind, "phase": self.phase, "rules": self.rules, "why": self.why,
               "occurrences": self.count, "example": self.example, "example_is_minimal": self.minimal}
        if self.core:
            out["core"] = self.core
        return out


def clause(rs: Ruleset, name: str) -> dict:
    """A rule with its text and citation (inheritance and silence noted)."""
    rule = rs.rules[name]
    info = rs.cite(name)
    info["text"] = rule.text
    if rule.unspecified:
        info["unspecified"] = rule.unspecified
    return info


def _still(rs: Ruleset, ev: Event, hand: int, trick: tuple[int, ...], st: PlayState) -> bool:
    legal = E.legal_cards(rs, hand, trick, st.number, st.broken, st.played)
    keys = {("conflict", tuple(c["rules"])) for c in legal.conflicts}
    keys |= {("dead_end", (d["rule"],)) for d in legal.dead_ends}
    return (ev.kind, ev.rules) in keys


def core(rs: Ruleset, ev: Event) -> dict | None:
    """The smallest hand (and shortest trick) that still shows a play problem:
    cards are dropped one by one while the same clash or dead end remains."""
    st = ev.where
    if not isinstance(st, PlayState):
        return None
    hand, trick = st.hand, st.trick
    for card in list(C.iter_cards(hand)):
        smaller = hand & ~(1 << card)
        if smaller and _still(rs, ev, smaller, trick, st):
            hand = smaller
    while len(trick) > 1 and _still(rs, ev, hand, trick[:-1], st):
        trick = trick[:-1]
    return {"trick_number": st.number, "hand": C.card_names(hand), "trick": [C.card_name(c) for c in trick],
            "trumps_broken": st.broken}


def problems(rs: Ruleset, ev: Evidence) -> list[Finding]:
    """Dead ends and conflicts, most frequent first, each with its best example."""
    out = []
    for key, first in ev.events.items():
        best = ev.minimal.get(key, first)
        out.append(Finding(first.kind, first.phase, [clause(rs, r) for r in first.rules], first.why,
                           ev.counts[key], best.state, core(rs, best), key in ev.minimal))
    return sorted(out, key=lambda f: (f.kind, -f.count))


# --------------------------------------------------------------------------- dead rules
# Used by every hand whatever their value: never reported as dead.
STRUCTURAL = frozenset({"deck.cards", "card.suit", "card.power", "trump.suit", "deal.hand_size",
                        "deal.next_dealer", "deal.first_bidder", "play.first_leader", "trick.winner"})


def _norm(text: str) -> str:
    return " ".join(text.split())


def inert_reason(rs: Ruleset, name: str) -> str | None:
    """Why a rule cannot change anything by design (its neutral value, or a
    feature the variant switches off); None if it could."""
    text = _norm(rs.rules[name].text)
    size = str(rs.params["deal.hand_size"])
    neutral = {"play.lead": "hand", "play.follow": "hand", "play.first_lead": "hand",
               "play.first_trick_trump": "hand", "play.first_trick_suit": "hand",
               "bid.regular_min": "1", "bid.regular_max": size, "bid.team_min": "0", "bid.team_max": size,
               "bid.team_valid": "true", "nil.partner_may_raise": "false", "blind_nil.exchange": "0",
               "nil.exchange": "0", "deal.kitty": "0", "raise.by": "0", "raise.allowed": "false",
               "bonus.last_trick": "0", "game.mercy": "false",
               "renege.mode": "none", "scoring.overtrick_points": "0", "bags.limit": "0"}
    if neutral.get(name) == text:
        return f"neutral value ({text}): restricts nothing by design"
    off = {"blind_bid.": "blind_bid.allowed", "blind_nil.": "blind_nil.allowed", "nil.": "nil.allowed"}
    for prefix, switch in off.items():
        if name.startswith(prefix) and name != switch and _norm(rs.rules[switch].text) == "false":
            return f"{switch} is false, so this rule never applies"
    mode = rs.params["renege.mode"]
    if name == "renege.transfer_tricks" and mode != "transfer" or name == "renege.victim_bags" and mode == "none":
        return f"renege.mode is {mode}, so this rule never applies"
    if name in ("renege.lead", "play.irregular"):
        return "it judges a recorded irregular card; the explored play has only legal cards"
    if name.startswith("bags.") and name != "bags.limit" and rs.params["bags.limit"] == 0:
        return "bags.limit is 0: there is no bag penalty"
    return None


def rule_usage(rs: Ruleset, ev: Evidence) -> tuple[list[dict], list[dict]]:
    """(dead rules, inert rules): rules no explored state triggered, split by
    whether they could have changed an outcome at all."""
    dead, inert = [], []
    for name in rs.rules:
        if name not in SLOTS or name in STRUCTURAL or rs.rules[name].neutral:  # a variant's own constants are used
            continue                        # through rules; a neutral rule is no document's (the game without it)
        if ev.triggers[name]:
            continue
        reason = inert_reason(rs, name)
        (inert if reason else dead).append({**clause(rs, name), "why": reason or "no explored state triggered it"})
    return dead, inert

