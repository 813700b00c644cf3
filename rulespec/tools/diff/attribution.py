"""Which rule makes two variants disagree: swap single rules and re-run (ablation).

The swaps themselves are ``rulespec.model.ablation`` (``differing_rules``,
``with_rule_from``).  A discrepancy on a stage is attributed to the rules whose
swap alone makes A agree with B on that stage; when several do each gets an
equal share.  When none does, the rules whose swap alone changes A's answer
share it; when no single swap changes anything it is an interaction of rules.
"""
from __future__ import annotations

INTERACTION = "(interaction of rules)"


def shares(fixers: list[str]) -> dict[str, float]:
    """Credit for one discrepancy: equal shares among the single rules that account for it."""
    if not fixers:
        return {INTERACTION: 1.0}
    return {rule: 1 / len(fixers) for rule in fixers}
