"""Compile a variant (with its ``extends`` chain) into an executable Ruleset.

Order of compilation: parameter rules (constants, in dependency order), the
deck, the per-card tables (suit for following, power), then every other rule
as a Python callable over its context (see ``schema.CONTEXTS``).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable

from ..core import cards as C
from ..lang.compiler import NONE, CompileError, compile_tree, parse, referenced_names
from ..errors import Problem, RulesFileError, RulespecError, did_you_mean
from ..core.schema import ANY, SLOTS, Slot
from .variants import RuleDef, VariantSpec, find_variant, read_variant_file, read_variant_text, resolve_chain

_STATIC = ("deck.cards", "card.suit", "card.power")


@dataclass
class Rule:
    """A compiled rule with everything an explanation needs."""
    name: str
    slot: Slot
    text: str
    cite: str | None
    origin: str               # variant that wrote this rule
    origin_doc: str
    note: str | None
    unspecified: str | None
    choices: list | None
    fn: Callable | None       # None for parameters (see ``value``)
    value: object = None      # constant value of a parameter rule
    source: str = ""          # generated Python (for `rulespec show --python`)
    is_param: bool = False
    names: frozenset[str] = frozenset()  # dotted names the rule text mentions

    def citation(self, variant_id: str, variant_doc: str) -> dict:
        """How this rule's authority reads from the point of view of ``variant_id``."""
        info: dict = {"rule": self.name, "cite": self.cite}
        notes = []
        if self.unspecified:
            notes.append(f"not stated in {self.origin_doc}: {self.unspecified}")
        if self.origin != variant_id:
            info["inherited_from"] = self.origin
            if self.origin_doc != variant_doc:
                notes.append(f"not stated in {variant_doc or variant_id}; inherited from {self.origin}")
        if notes:
            info["note"] = "; ".join(notes)
        return info


class Ruleset:
    """An executable variant: rules, parameters and precomputed card tables."""

    def __init__(self, spec: VariantSpec, chain: list[VariantSpec], rules: dict[str, Rule], tables: dict):
        self.id = spec.id
        self.title = spec.title
        self.doc = spec.doc
        self.spec = spec
        self.chain = [s.id for s in chain]
        self.specs = list(chain)       # the variant files, root first (for ablation: see ablation.py)
        order = {name: i for i, name in enumerate(SLOTS)}
        self.rules = dict(sorted(rules.items(), key=lambda item: order.get(item[0], len(order))))
        self.params = {name: r.value for name, r in rules.items() if r.is_param or r.slot.context == "param"}
        self.deck: int = tables["deck"]
        self.suit_of: tuple[int, ...] = tables["_SUIT"]
        self.power: tuple[int, ...] = tables["_POW"]
        self.suit_masks: tuple[int, ...] = tables["_SM"]
        self.fn = {name: r.fn for name, r in rules.items() if r.fn is not None}
        # the rules that read the hand (not checked when the cards are unknown)
        self.hand_rules: frozenset[str] = frozenset(name for name, r in rules.items() if "hand" in r.names)
        self._cites: dict[str, dict] = {}   # rules never change: each citation record is built once
        self._deciding: dict[str, tuple[str, ...]] = {}

    def __repr__(self) -> str:
        return f"<Ruleset {self.id} ({len(self.rules)} rules)>"

    def cite(self, name: str) -> dict:
        """The citation record of one rule, inheritance and silence noted (a fresh copy: callers add to it)."""
        record = self._cites.get(name)
        if record is None:
            record = self._cites[name] = self.rules[name].citation(self.id, self.doc)
        return dict(record)

    def deciding(self, name: str) -> tuple[str, ...]:
        """The parameter rules whose value decides rule ``name`` and whose citation its own does not
        cover (e.g. a house's ``game.target`` under an inherited ``game.target_reached``)."""
        found = self._deciding.get(name)
        if found is None:
            rule = self.rules[name]
            found = self._deciding[name] = tuple(
                other for other in self.rules
                if other in rule.names and other != name and other in self.params
                and (self.rules[other].cite, self.rules[other].origin) != (rule.cite, rule.origin))
        return found

    def step(self, name: str, value, why: str = "") -> dict:
        """One line of an explanation trail; ``decided_by`` cites the other rules whose value decided it."""
        info = self.cite(name)
        info["value"] = value
        if why:
            info["why"] = why
        deciding = self.deciding(name)
        if deciding:
            info["decided_by"] = [self.cite(other) for other in deciding]
        return info


def _problem_at(rule: RuleDef, spec_texts: dict[str, VariantSpec], exc: CompileError) -> Problem:
    line, col = rule.position(exc.line, exc.column)
    spec = spec_texts.get(rule.origin)
    src = spec.source_line(line) if spec else None
    hint = f"did you mean '{exc.suggestion}'?" if exc.suggestion else None
    return Problem(exc.message, rule.file, line, col, rule.name, src, hint)


def _problem_rule(rule: RuleDef, spec_texts: dict[str, VariantSpec], message: str,
                  suggestion: str | None = None) -> Problem:
    spec = spec_texts.get(rule.origin)
    return Problem(message, rule.file, rule.line, rule.column, rule.name,
                   spec.source_line(rule.line) if spec else None, suggestion)


def compile_chain(chain: list[VariantSpec]) -> Ruleset:
    """Merge a root-first chain of variant specs and compile it."""
    leaf = chain[-1]
    by_id = {s.id: s for s in chain}
    problems: list[Problem] = [p for spec in chain for p in spec.problems]
    merged: dict[str, RuleDef] = {}
    param_names: set[str] = set()
    for spec in chain:
        for name, rule in spec.params.items():
            if name in SLOTS:
                problems.append(_problem_rule(rule, by_id, f"'{name}' is a rule of the game; "
                                              "set it under 'rules:', not 'params:'"))
                continue
            param_names.add(name)
            merged[name] = rule
        for name, rule in spec.rules.items():
            if name not in SLOTS and name not in param_names:
                hint = did_you_mean(name, [*SLOTS, *param_names])
                problems.append(_problem_rule(
                    rule, by_id, f"unknown rule '{name}': it overrides nothing",
                    f"did you mean '{hint}'?" if hint else "see `rulespec rules` for the rule names"))
                continue
            merged[name] = rule
    missing = [name for name in SLOTS if name not in merged]
    if missing:
        problems.append(Problem(f"variant '{leaf.id}' leaves rules undefined: {', '.join(missing)} "
                                f"(a base variant must define every rule; or add 'extends:')", leaf.file, 1, 1))
    trees = {}
    for name, rule in merged.items():
        try:
            trees[name] = parse(rule.text)
        except CompileError as exc:
            problems.append(_problem_at(rule, by_id, exc))

    rules: dict[str, Rule] = {}

    def make_rule(name: str, compiled, value=None, is_const: bool = False) -> Rule:
        rd = merged[name]
        slot = SLOTS.get(name) or Slot(name, compiled.type, "param", "variant parameter")
        return Rule(name=name, slot=slot, text=rd.text, cite=rd.cite, origin=rd.origin,
                    origin_doc=by_id[rd.origin].doc, note=rd.note, unspecified=rd.unspecified,
                    choices=rd.choices, fn=None if is_const else compiled.fn,
                    value=value, source=compiled.source, is_param=rd.is_param,
                    names=frozenset(referenced_names(trees[name].children[0])))

    # A rule that failed (or names a parameter that failed) is reported once and
    # skipped; the others are still checked so that one run reports every problem.
    failed: set[str] = set(merged) - set(trees)
    param_slots = [n for n in merged if n in param_names or SLOTS[n].context == "param"]

    def blocked(name: str) -> bool:
        return bool(referenced_names(trees[name].children[0]) & failed)

    # 1. parameters, in dependency order
    values: dict[str, tuple[str, object]] = {}
    visiting: list[str] = []

    def evaluate(name: str) -> None:
        if name in values or name in failed:
            return
        if name in visiting:
            cycle = " -> ".join(visiting[visiting.index(name):] + [name])
            problems.append(_problem_rule(merged[name], by_id, f"parameters refer to each other in a cycle: {cycle}"))
            failed.add(name)
            return
        visiting.append(name)
        for ref in referenced_names(trees[name].children[0]) & set(param_slots):
            if ref != name:
                evaluate(ref)
        visiting.pop()
        if name in failed or blocked(name):
            failed.add(name)
            return
        slot = SLOTS.get(name) or Slot(name, ANY, "param", "variant parameter")
        try:
            compiled = compile_tree(trees[name].children[0], slot, values, {})
            value = compiled.fn()
        except CompileError as exc:
            problems.append(_problem_at(merged[name], by_id, exc))
            failed.add(name)
            return
        except RulespecError as exc:  # a runtime error in a constant rule (e.g. division by zero)
            problems.append(_problem_rule(merged[name], by_id, f"cannot evaluate: {exc}"))
            failed.add(name)
            return
        values[name] = (compiled.type, value)
        rules[name] = make_rule(name, compiled, value, is_const=True)

    for name in param_slots:
        evaluate(name)

    def compile_rule(name: str, tables: dict, static_card: bool = False):
        if name in failed or blocked(name):
            failed.add(name)
            return None
        try:
            compiled = compile_tree(trees[name].children[0], SLOTS[name], values, tables, static_card)
        except CompileError as exc:
            problems.append(_problem_at(merged[name], by_id, exc))
            failed.add(name)
            return None
        rules[name] = make_rule(name, compiled)
        return compiled

    # 2. deck and card tables (natural ones stand in while a static rule is broken)
    natural = {"_RANK": tuple(C.natural_rank(c) for c in range(C.NUM_CARDS)),
               "_NSUIT": tuple(NONE if c >= C.LITTLE_JOKER else c // 13 for c in range(C.NUM_CARDS))}
    deck_rule = compile_rule("deck.cards", natural) if "deck.cards" in merged else None
    suit_rule = compile_rule("card.suit", natural, static_card=True) if "card.suit" in merged else None
    power_rule = compile_rule("card.power", natural, static_card=True) if "card.power" in merged else None
    deck = deck_rule.fn(C.ALL_CARDS, C.JOKERS) if deck_rule else C.ALL_CARDS & ~C.JOKERS
    suit_of = [NONE] * C.NUM_CARDS
    power = [0] * C.NUM_CARDS
    for card in C.iter_cards(deck):
        suit_of[card] = suit_rule.fn(card, C.ALL_CARDS, C.JOKERS) if suit_rule else natural["_NSUIT"][card]
        power[card] = power_rule.fn(card, C.ALL_CARDS, C.JOKERS) if power_rule else natural["_RANK"][card]
    masks = [0, 0, 0, 0, 0]
    for card in C.iter_cards(deck):
        if 0 <= suit_of[card] <= 3:
            masks[suit_of[card]] |= 1 << card
    if "deal.hand_size" in values:
        hand_size = values["deal.hand_size"][1]
        if hand_size < 1 or 4 * hand_size > deck.bit_count():
            problems.append(_problem_rule(merged["deal.hand_size"], by_id,
                                          f"cannot deal {hand_size} cards to each of 4 players from "
                                          f"a pack of {deck.bit_count()}"))
    tables = {**natural, "_SUIT": tuple(suit_of), "_POW": tuple(power), "_SM": tuple(masks)}

    # 3. every other rule
    for name in merged:
        if name not in rules and name not in _STATIC and name in trees:
            compile_rule(name, tables)
    if problems:
        raise RulesFileError(problems)
    return Ruleset(leaf, chain, rules, {**tables, "deck": deck})


def compile_spec(spec: VariantSpec) -> Ruleset:
    return compile_chain(resolve_chain(spec))


@functools.lru_cache(maxsize=64)
def _bundled(ref: str) -> Ruleset:
    return compile_spec(find_variant(ref))


def load_ruleset(ref: str | Path) -> Ruleset:
    """A ruleset by bundled id (cached: bundled variants are immutable) or by file path."""
    ref = str(ref)
    if ref.endswith((".yaml", ".yml")) or "/" in ref:
        return compile_spec(read_variant_file(ref))
    return _bundled(ref)


def ruleset_from_text(text: str, file: str = "<string>") -> Ruleset:
    return compile_spec(read_variant_text(text, file))
