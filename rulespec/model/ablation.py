"""Single-rule swaps between two compiled variants (ablation).

``differing_rules(a, b)`` lists the rule slots whose effective definition
differs (text, or the value of a variant parameter the text names);
``with_rule_from(a, b, rule)`` compiles ``a`` with that one rule as ``b``
defines it (``with_rules_from``: several rules at once).  The differential tester
attributes discrepancies with these, and ``disputes.compare`` names the rules that
make two rulings differ with ``rules_behind``.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from itertools import combinations

from ..errors import BudgetExceeded, RulespecError
from ..lang.compiler import parse, referenced_names
from .ruleset import Ruleset, compile_chain, neutral_def, per_ruleset
from ..core.schema import SLOTS
from .variants import RuleDef, VariantSpec


def merged_defs(chain: list[VariantSpec]) -> dict[str, RuleDef]:
    """Every rule and parameter definition in force at the end of a chain."""
    merged: dict[str, RuleDef] = {}
    for spec in chain:
        merged.update(spec.params)
        merged.update(spec.rules)
    return merged


def own_params(rs: Ruleset, name: str) -> set[str]:
    """Variant parameters (not rule slots) a rule names, directly or through other parameters."""
    found: set[str] = set()
    todo = [name]
    while todo:
        text = rs.rules[todo.pop()].text
        for ref in referenced_names(parse(text).children[0]):
            if ref in rs.rules and ref not in SLOTS and ref not in found:
                found.add(ref)
                todo.append(ref)
    return found


def differing_rules(a: Ruleset, b: Ruleset) -> list[str]:
    """Rule slots whose behaviour may differ between ``a`` and ``b``, in schema order."""
    ka, kb = _slot_keys(a), _slot_keys(b)
    return [name for name in SLOTS if ka[name] != kb[name]]


@per_ruleset
def _slot_keys(rs: Ruleset) -> dict[str, tuple]:
    """Per rule slot, what decides its behaviour: a parameter's value; else the rule's text (white space
    folded), the variant parameters it names (``own_params``) and their values."""
    keys: dict[str, tuple] = {}
    for name in SLOTS:
        rule = rs.rules[name]
        if rule.is_param or rule.slot.context == "param":
            keys[name] = ("param", rs.params[name])
        else:
            keys[name] = (" ".join(rule.text.split()), tuple((p, rs.params[p]) for p in sorted(own_params(rs, name))))
    return keys


_PREFIX = "swapped"


def _rename(text: str, names: set[str]) -> str:
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?<![\w.]){re.escape(name)}(?![\w.])", f"{_PREFIX}.{name}", text)
    return text


def with_rule_from(a: Ruleset, b: Ruleset, rule: str) -> Ruleset:
    """Variant ``a`` with ``rule`` as variant ``b`` defines it (and ``b``'s parameters that rule names,
    renamed so that ``a``'s other rules keep ``a``'s)."""
    return with_rules_from(a, b, (rule,))


def with_rules_from(a: Ruleset, b: Ruleset, rules: tuple[str, ...]) -> Ruleset:
    """Variant ``a`` with each of ``rules`` as variant ``b`` defines it (``with_rule_from`` for several)."""
    defs_b = merged_defs(b.specs)
    for rule in rules:
        if rule not in defs_b and b.rules[rule].neutral:     # set by no variant of b: its neutral value
            defs_b[rule] = neutral_def(rule, b.specs[0].id)
    params = set().union(*(own_params(b, rule) for rule in rules))
    overlay_id = f"{_PREFIX}-{'+'.join(rules).replace('.', '-')}"
    overlay = VariantSpec(id=overlay_id, title=f"A with {', '.join(rules)} from B", source={"doc": "ablation"},
                          extends=None, notes="", file="<ablation>")
    for rule in rules:
        overlay.rules[rule] = replace(defs_b[rule], text=_rename(defs_b[rule].text, params), origin=overlay_id)
    for name in params:
        overlay.params[f"{_PREFIX}.{name}"] = replace(defs_b[name], name=f"{_PREFIX}.{name}",
                                                      text=_rename(defs_b[name].text, params), origin=overlay_id)
    return compile_chain([*a.specs, overlay])


# An answer flattened to field -> value, or None when the swapped rules do not fit together.
Trial = Callable[[Ruleset, Ruleset], "Mapping[str, object] | None"]


@dataclass
class Cause:
    """A rule behind a difference: the differing fields its change moves, and the rules it moves them
    with when it moves them only together with another (empty when it does alone)."""
    rule: str
    changes: set[str] = field(default_factory=set)
    together: set[str] = field(default_factory=set)


def rules_behind(a: Ruleset, b: Ruleset, answers: tuple[Mapping, Mapping], fields: set[str], trial: Trial,
                 max_rules: int, max_pairs: int) -> list[Cause]:
    """Each differing rule whose change moves one of ``fields`` (where ``a``'s and ``b``'s answers differ),
    in schema order.

    A rule moves a field when swapping it from ``b`` into ``a`` changes ``a``'s value there, or (tried
    only when that moves none) swapping it from ``a`` into ``b`` changes ``b``'s; ``trial(swapped, like)``
    answers under the swapped ruleset (``like``: the variant it stands for).  For fields no single swap
    moves, the pairs of the rules not named yet are swapped together into ``a`` (at most ``max_pairs``
    pairs), and each pair that moves one of them is named, each rule with the other."""
    candidates = differing_rules(a, b)[:max_rules]
    causes: dict[str, Cause] = {}
    for rule in candidates:
        found = (_moved(_try(trial, a, b, (rule,)), answers[0], fields)
                 or _moved(_try(trial, b, a, (rule,)), answers[1], fields))
        if found:
            causes[rule] = Cause(rule, found)
    left = fields - {f for cause in causes.values() for f in cause.changes}
    pairs = combinations([r for r in candidates if r not in causes], 2) if left else ()
    for _, pair in zip(range(max_pairs), pairs):
        found = _moved(_try(trial, a, b, pair), answers[0], left)
        for rule, other in (pair, pair[::-1]) if found else ():
            cause = causes.setdefault(rule, Cause(rule))
            cause.changes |= found
            cause.together.add(other)
    return [causes[rule] for rule in candidates if rule in causes]


def _try(trial: Trial, a: Ruleset, b: Ruleset, rules: tuple[str, ...]) -> Mapping | None:
    """``trial`` under ``a`` with ``rules`` from ``b``; None when they do not compile into ``a``."""
    try:
        swapped = with_rules_from(a, b, rules)
    except BudgetExceeded:       # a spent allowance says nothing about the rules: the request fails
        raise
    except RulespecError:
        return None
    return trial(swapped, a)


def _moved(trial: Mapping | None, answer: Mapping, fields: set[str]) -> set[str]:
    return set() if trial is None else {path for path in fields if trial.get(path) != answer.get(path)}
