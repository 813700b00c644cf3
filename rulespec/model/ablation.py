"""Single-rule swaps between two compiled variants (ablation).

``differing_rules(a, b)`` lists the rule slots whose effective definition
differs (text, or the value of a variant parameter the text names);
``with_rule_from(a, b, rule)`` compiles ``a`` with that one rule as ``b``
defines it.  The differential tester attributes discrepancies with these, and
``answers.compare`` uses them to name the rules that make two rulings differ.
"""
from __future__ import annotations

import re
from dataclasses import replace

from ..lang.compiler import parse, referenced_names
from .ruleset import Ruleset, compile_chain
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
        pa, pb = own_params(a, name), own_params(b, name)
        if pa != pb or any(a.params[p] != b.params[p] for p in pa):
            out.append(name)
    return out


_PREFIX = "swapped"


def _rename(text: str, names: set[str]) -> str:
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?<![\w.]){re.escape(name)}(?![\w.])", f"{_PREFIX}.{name}", text)
    return text


def with_rule_from(a: Ruleset, b: Ruleset, rule: str) -> Ruleset:
    """Variant ``a`` with ``rule`` as variant ``b`` defines it (and ``b``'s parameters that rule names,
    renamed so that ``a``'s other rules keep ``a``'s)."""
    defs_b = merged_defs(b.specs)
    params = own_params(b, rule)
    overlay_id = f"{_PREFIX}-{rule.replace('.', '-')}"
    overlay = VariantSpec(id=overlay_id, title=f"A with {rule} from B", source={"doc": "ablation"},
                          extends=None, notes="", file="<ablation>")
    overlay.rules[rule] = replace(defs_b[rule], text=_rename(defs_b[rule].text, params), origin=overlay_id)
    for name in params:
        overlay.params[f"{_PREFIX}.{name}"] = replace(defs_b[name], name=f"{_PREFIX}.{name}",
                                                      text=_rename(defs_b[name].text, params), origin=overlay_id)
    return compile_chain([*a.specs, overlay])
