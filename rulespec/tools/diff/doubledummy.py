"""The differential tester's double-dummy stage (``rulespec diff --double-dummy N``).

For each of N seeded deals, K cards of each seat (``--dd-cards``; chosen by the seed) are played
from trick 1 (so first-trick rules apply; trumps unbroken) with each variant's own first
leader, and solved double dummy (``solve.search``): the tricks the side on lead takes
with best play (where each plays alone, the leader alone against everyone else).  Per pair
of variants: how often the counts differ and by how much,
each difference attributed by single-rule swaps (``model.ablation.with_rule_from``) as
the other stages are: the rules whose swap alone gives variant A variant B's count
share it (``attribution.shares``).
"""
from __future__ import annotations

import random

from ...core import cards as C
from ...errors import RulespecError
from ...game.bids import seat_rule
from ...model.ablation import differing_rules, with_rule_from
from ...model.ruleset import Ruleset, load_ruleset
from ...solve.native import searcher
from ...solve.search import Goal, Position
from .attribution import shares
from .deals import seeded_deal
from .stats import summary

DEFAULT_CARDS = 5
COMPILED_FROM = 6      # cards a seat above which a ruleset's search is worth compiling (seconds, once)


def position(rs: Ruleset, seed: str, index: int, cards: int) -> Position:
    """Deal ``index`` of ``seed`` from ``rs``'s pack, each hand cut to ``cards`` of its cards (chosen by the
    same seed and index), at trick 1 with ``rs``'s first leader."""
    deal = seeded_deal(seed, index, rs)
    pick = random.Random(f"{seed}#{index}")
    short = [C.mask_of(pick.sample(C.card_list(hand), cards)) for hand in deal.hands]
    live = 0
    for hand in short:
        live |= hand
    return Position(short, seat_rule(rs, "play.first_leader", deal.dealer), [], 1, False, rs.deck & ~live)


def lead_side_tricks(rs: Ruleset, seed: str, index: int, cards: int) -> int:
    """The tricks the side on lead takes from the short deal with best play by both sides."""
    pos = position(rs, seed, index, cards)
    table = C.table_of(rs.params)
    side = sum(1 << seat for seat in table.members(table.side_of(pos.leader)))
    return searcher(rs, pos, Goal(side, side), compiled=cards > COMPILED_FROM).value()


def _credit(a: Ruleset, b: Ruleset, rules: list[str], deal: tuple[str, int, int], target: int
            ) -> dict[str, float]:
    """The rules whose swap alone into ``a`` gives ``b``'s count ``target``."""
    fixers = []
    for rule in rules:
        try:
            swapped = with_rule_from(a, b, rule)
            if lead_side_tricks(swapped, *deal) == target:
                fixers.append(rule)
        except RulespecError:      # the rule does not fit the other variant's rules on its own
            continue
    return shares(fixers)


def run(rulesets: list[Ruleset], seed: str, deals: int, cards: int = DEFAULT_CARDS) -> dict:
    """The stage's section of the report: per pair, disagreements, deltas (B − A) and attribution."""
    results = [[lead_side_tricks(rs, seed, index, cards) for index in range(deals)] for rs in rulesets]
    pairs = []
    for i in range(len(rulesets)):
        for j in range(i + 1, len(rulesets)):
            pairs.append(_pair(rulesets, i, j, results, seed, cards))
    return {"deals": deals, "cards": cards, "seed": seed, "pairs": pairs}


def _pair(rulesets: list[Ruleset], i: int, j: int, results: list[list[int]], seed: str, cards: int) -> dict:
    a, b = rulesets[i], rulesets[j]
    rules = differing_rules(a, b)
    deltas, credit, first = [], {}, None
    for index, (x, y) in enumerate(zip(results[i], results[j])):
        if x == y:
            continue
        deltas.append(y - x)
        for rule, share in _credit(a, b, rules, (seed, index, cards), y).items():
            credit[rule] = credit.get(rule, 0.0) + share
        if first is None:
            first = {"deal": f"{seed}#{index}", a.id: x, b.id: y}
    n = len(results[i])
    return {"variants": [a.id, b.id], "count": len(deltas), "rate": round(len(deltas) / n, 4) if n else 0.0,
            "delta": summary(deltas) if deltas else None,
            "attribution": sorted(({"rule": r, "count": round(c, 2), "share": round(c / len(deltas), 4)}
                                   for r, c in credit.items()), key=lambda row: (-row["share"], row["rule"])),
            "first": first}


def attach(report: dict, refs: tuple[str, ...], seed: str, deals: int, cards: int) -> None:
    """Add the stage to ``report`` (as ``double_dummy``) when ``deals`` asks for it."""
    if deals:
        report["double_dummy"] = run([load_ruleset(ref) for ref in refs], seed, deals, cards)


def markdown(section: dict) -> list[str]:
    """The stage as Markdown lines."""
    out = ["## Double-dummy results", "",
           f"{section['deals']} deals (seed `{section['seed']}`): {section['cards']} cards of each hand, "
           "played from trick 1 with each variant's first leader, solved double dummy; the count is the "
           "tricks the side on lead takes with best play by both sides.", "",
           "| pair | differ | mean B − A | rules responsible |", "|---|---|---|---|"]
    for p in section["pairs"]:
        mean = "—" if p["delta"] is None else f"{p['delta']['mean']:+.2f}"
        rules = ", ".join(f"{r['rule']} ({r['share']:.0%})" for r in p["attribution"]) or "—"
        out.append(f"| {p['variants'][0]} vs {p['variants'][1]} | {p['count']} ({p['rate']:.1%}) | {mean} | "
                   f"{rules} |")
    return out + [""]
