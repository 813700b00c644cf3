"""Which rule makes two variants disagree: swap single rules and re-run (ablation).

``differing_rules(a, b)`` lists the rule slots whose effective definition
differs (text, or the value of a variant parameter the text names).
``swapped(ref_a, ref_b, rule)`` compiles variant A with that one rule taken
from B (with B's parameters it names, renamed so A's other rules keep A's).
A discrepancy on a stage is attributed to the rules whose swap alone makes A
agree with B on that stage; when several do each gets an equal share.  When
none does, the rules whose swap alone changes A's answer share it; when no
single swap changes anything it is an interaction of rules.
"""
from __future__ import annotations

import re
from dataclasses import replace

from ..compiler import parse, referenced_names
from ..ruleset import Ruleset, compile_chain
from ..schema import SLOTS
from ..variants import RuleDef, VariantSpec, find_variant, resolve_chain

INTERACTION = "(interaction of rules)"


def chain_of(ref: str) -> list[VariantSpec]:
    return resolve_chain(find_variant(ref))


def merged_defs(chain: list[VariantSpec]) -> dict[str, RuleDef]:
    """Every rule and parameter definition in force at the end of a chain."""
    merged: dict[str, RuleDef] = {}
    for spec in chain:
        merged.update(spec.params)
        merged.update(spec.rules)
    return merged


def _own_params(rs: Ruleset, name: str) -> set[str]:
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
    out = []
    for name in SLOTS:
        ra, rb = a.rules[name], b.rules[name]
        if ra.is_param or ra.slot.context == "param":
            if a.params[name] != b.params[name]:
                out.append(name)
            continue
        if " ".join(ra.text.split()) != " ".join(rb.text.split()):
            out.append(name)
            continue
        pa, pb = _own_params(a, name), _own_params(b, name)
        if pa != pb or any(a.params[p] != b.params[p] for p in pa):
            out.append(name)
    return out


_PREFIX = "swapped"


def _rename(text: str, names: set[str]) -> str:
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?<![\w.]){re.escape(name)}(?![\w.])", f"{_PREFIX}.{name}", text)
    return text


def swapped(ref_a: str, ref_b: str, rule: str, b: Ruleset) -> Ruleset:
    """Variant ``ref_a`` with ``rule`` as variant ``ref_b`` (compiled as ``b``) defines it."""
    defs_b = merged_defs(chain_of(ref_b))
    params = _own_params(b, rule)
    overlay_id = f"{_PREFIX}-{rule.replace('.', '-')}"
    overlay = VariantSpec(id=overlay_id, title=f"A with {rule} from B", source={"doc": "ablation"},
                          extends=None, notes="", file="<ablation>")
    overlay.rules[rule] = replace(defs_b[rule], text=_rename(defs_b[rule].text, params), origin=overlay_id)
    for name in params:
        overlay.params[f"{_PREFIX}.{name}"] = replace(defs_b[name], name=f"{_PREFIX}.{name}",
                                                      text=_rename(defs_b[name].text, params), origin=overlay_id)
    return compile_chain([*chain_of(ref_a), overlay])


def shares(fixers: list[str]) -> dict[str, float]:
    """Credit for one discrepancy: equal shares among the single rules that account for it."""
    if not fixers:
        return {INTERACTION: 1.0}
    return {rule: 1 / len(fixers) for rule in fixers}
