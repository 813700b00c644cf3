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
from typing import Any, TypeVar, cast

from ..core import cards as C
from ..core.contexts import ARGS
from ..lang.compiler import NONE, compile_tree, parse, referenced_names
from ..errors import BudgetExceeded, CompileError, Problem, RulesFileError, RulespecError, did_you_mean
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
    value: Any = None         # constant value of a parameter rule, of the Python type its slot's type names
    source: str = ""          # generated Python (for `rulespec show --python`)
    is_param: bool = False
    names: frozenset[str] = frozenset()  # dotted names the rule text mentions
    neutral: bool = False     # set by no variant of the chain: the slot's neutral value (``Slot.neutral``)

    def citation(self, variant_id: str, variant_doc: str) -> dict:
        """How this rule's authority reads from the point of view of ``variant_id``."""
        if self.neutral:
            return {"rule": self.name, "cite": None,
                    "note": f"set by no variant: its neutral value ({self.text}), the game without this rule"}
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
        self.sent = False              # sent with a request (``compile_spec``): nothing derived from it is kept on disk
        order = {name: i for i, name in enumerate(SLOTS)}
        self.rules = dict(sorted(rules.items(), key=lambda item: order.get(item[0], len(order))))
        self.params = {name: r.value for name, r in rules.items() if r.is_param or r.slot.context == "param"}
        self.deck: int = tables["deck"]
        self.suit_of: tuple[int, ...] = tables["_SUIT"]
        self.places: tuple[int, ...] = tables["_PLACE"]
        self.power: tuple[int, ...] = tables["_POW"]
        self.suit_masks: tuple[int, ...] = tables["_SM"]
        self.fn = {name: r.fn for name, r in rules.items() if r.fn is not None}
        # the rules that read the hand (not checked when the cards are unknown)
        self.hand_rules: frozenset[str] = frozenset(name for name, r in rules.items() if "hand" in r.names)
        self._cites: dict[str, dict] = {}   # rules never change: each citation record is built once
        self._deciding: dict[str, tuple[str, ...]] = {}
        self.made: dict[Callable, object] = {}   # what ``per_ruleset`` worked out from it, by builder

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
    return Problem(exc.message, rule.file, line, col, rule.name, rule.shown_line(spec_texts.get(rule.origin), line),
                   exc.hint)


def _problem_rule(rule: RuleDef, spec_texts: dict[str, VariantSpec], message: str,
                  suggestion: str | None = None) -> Problem:
    return Problem(message, rule.file, rule.line, rule.column, rule.name,
                   rule.shown_line(spec_texts.get(rule.origin), rule.line), suggestion)


def _natural_tables() -> dict:
    """The natural rank and suit of every card: they stand in while a static card rule is broken."""
    return {"_RANK": tuple(C.natural_rank(c) for c in range(C.NUM_CARDS)),
            "_NSUIT": tuple(NONE if c >= C.LITTLE_JOKER else c // 13 for c in range(C.NUM_CARDS))}


def _card_tables(deck: int, suit_rule, power_rule, natural: dict) -> dict:
    """The suit (for following), power and suit masks of the cards in ``deck``, and each card's place in its
    suit (how many of the pack's cards of its suit beat it)."""
    suit_of = [NONE] * C.NUM_CARDS
    power = [0] * C.NUM_CARDS
    for card in C.iter_cards(deck):
        args = ARGS["card"](card=card, all_cards=C.ALL_CARDS, jokers=C.JOKERS)
        suit_of[card] = suit_rule.fn(*args) if suit_rule else natural["_NSUIT"][card]
        power[card] = power_rule.fn(*args) if power_rule else natural["_RANK"][card]
    masks = [0, 0, 0, 0, 0]
    for card in C.iter_cards(deck):
        if 0 <= suit_of[card] <= 3:
            masks[suit_of[card]] |= 1 << card
    place = [sum(1 for other in C.iter_cards(masks[suit_of[card]]) if power[other] > power[card])
             if 0 <= suit_of[card] <= 3 else 0 for card in range(C.NUM_CARDS)]
    return {**natural, "_SUIT": tuple(suit_of), "_POW": tuple(power), "_SM": tuple(masks), "_PLACE": tuple(place)}


NEUTRAL_FILE = "<schema>"      # where a rule no variant sets comes from: its slot's neutral value


def neutral_def(name: str, origin: str) -> RuleDef:
    """Slot ``name``'s neutral value as the rule of a chain (rooted at ``origin``) that sets no value for it."""
    text = SLOTS[name].neutral
    assert text is not None, name       # (check_complete asks only the slots that have one)
    return RuleDef(name=name, text=text, cite=None, origin=origin, file=NEUTRAL_FILE, line=1, column=1, written=text)


class _ChainCompiler:
    """One compilation of a root-first chain of variant specs, in named steps: merge the chain's
    rules, parse them, evaluate the parameters, build the deck and card tables, compile the rest.

    A rule that fails (or names a parameter that failed) is reported once and skipped; the
    others are still checked, so that one run reports every problem."""

    def __init__(self, chain: list[VariantSpec]):
        self.chain = chain
        self.by_id = {s.id: s for s in chain}
        self.problems: list[Problem] = [p for spec in chain for p in spec.problems]
        self.merged: dict[str, RuleDef] = {}
        self.param_names: set[str] = set()
        self.trees: dict = {}
        self.rules: dict[str, Rule] = {}
        self.failed: set[str] = set()
        self.param_slots: list[str] = []
        # parameter: (type, value); the value's Python type is the one its type names (checked on compiling)
        self.values: dict[str, tuple[str, Any]] = {}
        self.visiting: list[str] = []                      # parameters being evaluated, outermost first

    def compile(self) -> Ruleset:
        for spec in self.chain:
            self.merge_params(spec)
            self.merge_rules(spec)
        self.check_complete()
        self.parse()
        self.failed = set(self.merged) - set(self.trees)
        self.param_slots = [n for n in self.merged if n in self.param_names or SLOTS[n].context == "param"]
        for name in self.param_slots:       # 1. parameters, in dependency order
            self.evaluate(name)
        tables, deck = self.card_tables()   # 2. deck and card tables
        self.check_table()
        self.check_hand_size(deck)
        self.check_kitty(deck, tables["_SUIT"])
        self.check_draw(deck)
        for name in self.merged:            # 3. every other rule
            if name not in self.rules and name not in _STATIC and name in self.trees:
                self.compile_rule(name, tables)
        if self.problems:
            raise RulesFileError(self.problems)
        return Ruleset(self.chain[-1], self.chain, self.rules, {**tables, "deck": deck})

    # ----------------------------------------------------------------- merging and parsing
    def merge_params(self, spec: VariantSpec) -> None:
        for name, rule in spec.params.items():
            if name in SLOTS:
                self.problems.append(_problem_rule(rule, self.by_id, f"'{name}' is a rule of the game; "
                                                   "set it under 'rules:', not 'params:'"))
                continue
            self.param_names.add(name)
            self.merged[name] = rule

    def merge_rules(self, spec: VariantSpec) -> None:
        for name, rule in spec.rules.items():
            if name not in SLOTS and name not in self.param_names:
                self.problems.append(self.unknown_rule(name, rule))
                continue
            self.merged[name] = rule

    def unknown_rule(self, name: str, rule: RuleDef) -> Problem:
        """A rule name that is no slot and no parameter, located at the name (did you mean …)."""
        hint = did_you_mean(name, [*SLOTS, *self.param_names])
        line, col = (rule.name_line, rule.name_column) if rule.name_line else (rule.line, rule.column)
        return Problem(f"unknown rule '{name}': it overrides nothing", rule.file, line, col, name,
                       rule.shown_line(self.by_id.get(rule.origin), line),
                       f"did you mean '{hint}'?" if hint else "see `rulespec rules` for the rule names")

    def check_complete(self) -> None:
        """Every slot is set: by the chain, else by its neutral value (``Slot.neutral``), else it is a problem."""
        leaf = self.chain[-1]
        root = self.chain[0]
        for name, slot in SLOTS.items():
            if name not in self.merged and slot.neutral is not None:
                self.merged[name] = neutral_def(name, root.id)
        missing = [name for name in SLOTS if name not in self.merged]
        if missing and not leaf.extends_refused:     # else the rules come from the base 'extends' fails to name
            self.problems.append(Problem(f"variant '{leaf.id}' leaves rules undefined: {', '.join(missing)} "
                                         f"(a base variant must define every rule; or add 'extends:')",
                                         leaf.file, 1, 1))

    def parse(self) -> None:
        for name, rule in self.merged.items():
            try:
                self.trees[name] = parse(rule.text)
            except CompileError as exc:
                self.problems.append(_problem_at(rule, self.by_id, exc))

    # ----------------------------------------------------------------- compiling
    def names_in(self, name: str) -> frozenset[str]:
        return referenced_names(self.trees[name].children[0])

    def blocked(self, name: str) -> bool:
        return bool(self.names_in(name) & self.failed)

    def fail(self, name: str, problem: Problem) -> None:
        self.problems.append(problem)
        self.failed.add(name)

    def make_rule(self, name: str, compiled, value=None, is_const: bool = False) -> Rule:
        rd = self.merged[name]
        slot = SLOTS.get(name) or Slot(name, compiled.type, "param", "variant parameter")
        return Rule(name=name, slot=slot, text=rd.text, cite=rd.cite, origin=rd.origin,
                    origin_doc=self.by_id[rd.origin].doc, note=rd.note, unspecified=rd.unspecified,
                    choices=rd.choices, fn=None if is_const else compiled.fn,
                    value=value, source=compiled.source, is_param=rd.is_param,
                    names=frozenset(self.names_in(name)), neutral=rd.file == NEUTRAL_FILE)

    def evaluate(self, name: str) -> None:
        """Evaluate parameter ``name`` after the parameters it names."""
        if name in self.values or name in self.failed:
            return
        if name in self.visiting:
            cycle = " -> ".join(self.visiting[self.visiting.index(name):] + [name])
            self.fail(name, _problem_rule(self.merged[name], self.by_id,
                                          f"parameters refer to each other in a cycle: {cycle}"))
            return
        self.visiting.append(name)
        for ref in self.names_in(name) & set(self.param_slots):
            if ref != name:
                self.evaluate(ref)
        self.visiting.pop()
        if name in self.failed or self.blocked(name):
            self.failed.add(name)
            return
        self.evaluate_constant(name)

    def evaluate_constant(self, name: str) -> None:
        slot = SLOTS.get(name) or Slot(name, ANY, "param", "variant parameter")
        try:
            compiled = compile_tree(self.trees[name].children[0], slot, self.values, {})
            value = compiled.fn()
        except CompileError as exc:
            self.fail(name, _problem_at(self.merged[name], self.by_id, exc))
            return
        except BudgetExceeded:        # the request's allowance, not this rule's problem
            raise
        except RulespecError as exc:  # a runtime error in a constant rule (e.g. division by zero)
            self.fail(name, _problem_rule(self.merged[name], self.by_id, f"cannot evaluate: {exc}"))
            return
        self.values[name] = (compiled.type, value)
        self.rules[name] = self.make_rule(name, compiled, value, is_const=True)

    def compile_rule(self, name: str, tables: dict, static_card: bool = False):
        if name in self.failed or self.blocked(name):
            self.failed.add(name)
            return None
        try:
            compiled = compile_tree(self.trees[name].children[0], SLOTS[name], self.values, tables, static_card)
        except CompileError as exc:
            self.fail(name, _problem_at(self.merged[name], self.by_id, exc))
            return None
        self.rules[name] = self.make_rule(name, compiled)
        return compiled

    def static_rule(self, name: str, natural: dict, static_card: bool = False):
        return self.compile_rule(name, natural, static_card) if name in self.merged else None

    def card_tables(self) -> tuple[dict, int]:
        """The card tables and the deck (natural tables stand in while a static rule is broken)."""
        natural = _natural_tables()
        deck_rule = self.static_rule("deck.cards", natural)
        suit_rule = self.static_rule("card.suit", natural, static_card=True)
        power_rule = self.static_rule("card.power", natural, static_card=True)
        deck = (deck_rule.fn(*ARGS["deck"](all_cards=C.ALL_CARDS, jokers=C.JOKERS)) if deck_rule
                else C.ALL_CARDS & ~C.JOKERS)
        return _card_tables(deck, suit_rule, power_rule, natural), deck

    def _value(self, name: str, default):
        return self.values[name][1] if name in self.values else default

    def check_table(self) -> None:
        """The table's seats and sides agree (partners sit opposite: four or six seats), and what the rules name
        exists at it."""
        seats, sides = self._value("table.seats", 4), self._value("table.sides", "partners")
        if seats not in (2, 3, 4, 5, 6):
            self.problems.append(_problem_rule(self.merged["table.seats"], self.by_id,
                                               f"a table has 2 to 6 seats, not {seats}"))
        elif sides == "partners" and seats not in (4, 6):
            at = "table.sides" if self.merged["table.sides"].file != NEUTRAL_FILE else "table.seats"
            self.problems.append(_problem_rule(self.merged[at], self.by_id,
                                               f"partnerships of two sit opposite each other, at four or six "
                                               f"seats, not {seats}", "set table.sides: alone"))
        if sides == "partners" and seats == 4:
            return
        if self._value("renege.mode", "none") == "transfer":
            self.problems.append(_problem_rule(self.merged["renege.mode"], self.by_id,
                                               "a transfer renege moves tricks to the other side, and with "
                                               f"{'three partnerships' if sides == 'partners' else 'each player alone'}"
                                               " there is no one other side", "use renege.mode: forfeit or none"))
        for name in ("game.target_reached", "game.mercy", "game.winner"):
            named = sorted(n for n in self.names_in(name) if n.startswith(("ns.", "ew."))) \
                if name in self.trees else []
            if named:
                self.fail(name, _problem_rule(self.merged[name], self.by_id,
                                              f"{name} names {', '.join(named)}, the scores of the partnerships "
                                              f"NS and EW, and this table has none", "use high.score, low.score, "
                                              "lead and high.side"))

    def check_hand_size(self, deck: int) -> None:
        if "deal.hand_size" in self.values:
            hand_size = self.values["deal.hand_size"][1]
            seats = self._value("table.seats", 4)
            if hand_size < 1 or seats * hand_size > deck.bit_count():
                self.problems.append(_problem_rule(self.merged["deal.hand_size"], self.by_id,
                                                   f"cannot deal {hand_size} cards to each of {seats} players "
                                                   f"from a pack of {deck.bit_count()}"))

    def check_kitty(self, deck: int, suit_of: tuple[int, ...]) -> None:
        """A kitty (``deal.kitty``) is exactly the pack's cards left after the deal, each of them in a suit (the
        lowered form finds it from the pack's suits)."""
        kitty = self.values.get("deal.kitty", (None, 0))[1]
        if not kitty or "deal.kitty" not in self.merged or "deal.hand_size" not in self.values:
            return
        hand_size = self.values["deal.hand_size"][1]
        left = deck.bit_count() - 4 * hand_size
        if kitty != left:
            self.problems.append(_problem_rule(self.merged["deal.kitty"], self.by_id,
                                               f"a pack of {deck.bit_count()} cards dealt {hand_size} to each of 4 "
                                               f"players leaves {left} for a kitty, not {kitty}"))
        suitless = [C.NAMES[c] for c in C.iter_cards(deck) if not 0 <= suit_of[c] <= 3]
        if suitless:
            self.problems.append(_problem_rule(self.merged["deal.kitty"], self.by_id,
                                               f"a pack with a kitty needs every card in a suit (rule card.suit): "
                                               f"{', '.join(suitless)} have none"))

    def check_draw(self, deck: int) -> None:
        """A drawn deal (``deal.draw``) takes two cards of the stock for each card a player keeps: the pack holds
        at least twice the cards the players hold, and no kitty is left over for the dealer."""
        if not self.values.get("deal.draw", (None, False))[1] or "deal.hand_size" not in self.values:
            return
        hand_size, seats = self.values["deal.hand_size"][1], self._value("table.seats", 4)
        if 2 * seats * hand_size > deck.bit_count():
            self.problems.append(_problem_rule(self.merged["deal.draw"], self.by_id,
                                               f"{seats} players drawing {hand_size} cards each take "
                                               f"{2 * seats * hand_size} cards of the stock (one kept, one "
                                               f"discarded a turn); the pack has {deck.bit_count()}"))
        if self.values.get("deal.kitty", (None, 0))[1]:
            self.problems.append(_problem_rule(self.merged["deal.draw"], self.by_id,
                                               "the hands are drawn from the stock (deal.draw), so no kitty is "
                                               "left over for the dealer: deal.kitty must be 0"))


def compile_chain(chain: list[VariantSpec]) -> Ruleset:
    """Merge a root-first chain of variant specs and compile it."""
    return _ChainCompiler(chain).compile()


def compile_spec(spec: VariantSpec, bundled_only: bool = False) -> Ruleset:
    """Compile a variant with its ``extends`` chain (``bundled_only``: a variant sent with a request,
    which may extend bundled variants only, never a path, and whose derived code is not kept on disk)."""
    rs = compile_chain(resolve_chain(spec, bundled_only))
    rs.sent = bundled_only
    return rs


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


T = TypeVar("T")


def per_ruleset(build: Callable[[Ruleset], T]) -> Callable[[Ruleset], T]:
    """``build(rs)`` worked out once per ruleset and kept while the ruleset lives (rules never change):
    for what is generated or memoised from a ruleset's rules.  Kept on the ruleset itself (``Ruleset.made``),
    so what it holds may name its ruleset (the steps' ``fail`` does) and both go together: a weakly keyed
    cache whose value names its key keeps the key for ever."""
    @functools.wraps(build)
    def get(rs: Ruleset) -> T:
        found = rs.made.get(build)
        if found is None:
            found = rs.made[build] = build(rs)
        return cast(T, found)
    return get
