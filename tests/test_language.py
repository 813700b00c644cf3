"""Every construct of the rules language, compiled and evaluated through both back ends, with its value.

The constructs to cover are read from the language itself: every alias and rule of
``rules.lark``, every comparison operator of its ``COMP_OP`` terminal, every function
the compiler knows (``_FUNCS``), every card attribute (``_CARD_ATTRS``) and every
method of a card set.  ``test_every_construct_has_a_case`` parses the cases below
and fails when any construct is used by none of them, so a new construct needs a case.
"""
from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

import numpy as np
import pytest
from lark import Token, Tree

from rulespec.core import cards as C
from rulespec.core.contexts import ARGS, param_name
from rulespec.core.schema import CONTEXTS, SLOTS
from rulespec.errors import RulespecError
from rulespec.fast.vector import vector_rules
from rulespec.lang import compiler
from rulespec.model.ruleset import ruleset_from_text


def mask(text: str) -> int:
    return C.mask_of(C.parse_cards(text))


def card(text: str) -> int:
    return C.parse_card(text)


# the context values each case starts from (by context name), per rule slot used
DEFAULTS: dict[str, dict[str, object]] = {
    "scoring.made": {"team.score": 120, "team.bags": 3, "opponents.score": -40, "opponents.bags": 7,
                     "team.contract": 5, "team.blind": False, "team.tricks": 7, "team.regular_tricks": 6,
                     "team.nil_tricks": 1, "team.won": 6, "team.made": True, "team.overtricks": 1,
                     "team.nil_count": 1, "team.nil_made": 0},
    "nil.allowed": {"hand": mask("AS KS 2H 5D 9C"), "seat": 1, "dealer": 0, "position": 1, "partner.kind": "pending",
                    "partner.n": 0, "bid.n": 0, "team.score": 100, "team.bags": 2, "opponents.score": 300,
                    "opponents.bags": 4},
    "play.lead": {"hand": mask("AS 4S 2H KH 9C"), "trick.cards": mask("3H 7H"), "trick.led_suit": C.HEARTS,
                  "trick.number": 4, "trick.position": 3, "leading": False, "trump_broken": False,
                  "played": mask("3H 7H 2C 3C 4C 5C")},
    "trick.winner": {"trick.cards": mask("2D 9D KD AS"), "trick.led_suit": C.DIAMONDS, "trick.number": 5,
                     "trick.lead": card("9D")},
    "deal.next_dealer": {"dealer": 3},
    "game.winner": {"ns.score": 510, "ns.bags": 2, "ew.score": 480, "ew.bags": 9, "high.score": 510,
                    "low.score": 480, "lead": 30, "hands": 11, "ns.contract": 7, "ew.contract": 6, "ns.made": True,
                    "ew.made": False, "ns.sets": 0, "ew.sets": 2, "ns.sets_in_a_row": 0, "ew.sets_in_a_row": 1,
                    "high.side": 0},
}


@dataclass
class Case:
    slot: str
    text: str
    expected: object                      # a value, or an exception class the evaluation raises
    inputs: dict = field(default_factory=dict)   # context values changed from DEFAULTS[slot]


INT, BOOL, CARDS, CARD, SEAT, TEAM = "scoring.made", "nil.allowed", "play.lead", "trick.winner", "deal.next_dealer", \
    "game.winner"

CASES = [
    # numbers, names and arithmetic
    Case(INT, "7", 7),
    Case(INT, "team.contract", 5),
    Case(INT, "team.contract + 2", 7),
    Case(INT, "team.won - team.contract", 1),
    Case(INT, "team.contract * 10", 50),
    Case(INT, "team.score / 50", 2),
    Case(INT, "opponents.score / 30", -2),                  # floor division
    Case(INT, "team.score / (team.contract - 5)", RulespecError),
    Case(INT, "team.score % 7", 1),
    Case(INT, "opponents.score % 30", 20),                  # the sign of the divisor
    Case(INT, "team.score % (team.won - 6)", RulespecError),
    Case(INT, "-team.contract", -5),
    Case(INT, "if team.made then 10 * team.contract else -10 * team.contract", 50),
    Case(INT, "if team.made then 10 * team.contract else -10 * team.contract", -50, {"team.made": False}),
    Case(INT, "min(team.won, team.contract, 4)", 4),
    Case(INT, "max(team.won, team.contract)", 6),
    Case(INT, "max([1, 9, 3])", 9),
    Case(INT, "min([4, 2, 8])", 2),
    Case(INT, "abs(opponents.score)", 40),
    Case(INT, "abs(team.score)", 120),
    Case(INT, "count({AS, KS, 2H})", 3),
    Case(INT, "count(cards(spades))", 13),
    Case(INT, "count(c in {AS, KS, QS, 2H} where c.suit == spades)", 3),
    Case(INT, "count(c in {AS, KS, QS, 2H} where c.rank < 13)", 2),
    Case(INT, "highest({2S, 9S, 4S}).rank", 9),
    Case(INT, "lowest({AS, 3S, JS}).power", 3),
    Case(INT, "if highest({AH}).natural_suit == hearts then 1 else 0", 1),
    Case(INT, "if team.contract in [4, 5, 6] then 1 else 0", 1),
    Case(INT, "if team.contract in [1, 2] then 1 else 0", 0),
    Case(INT, "if team.contract not in [1, 2] then 1 else 0", 1),
    Case(INT, "if true then 1 else 0", 1),
    Case(INT, "if false then 1 else 0", 0),
    Case(INT, "team.contract @ house §A citation", 5),
    Case(INT, "team.nil_count * 100 + team.nil_made", 100),
    # comparisons and logic
    Case(BOOL, "seat == left_of(dealer)", True),
    Case(BOOL, "dealer != right_of(seat)", False),
    Case(BOOL, "team.score < opponents.score", True),
    Case(BOOL, "team.score > opponents.score", False),
    Case(BOOL, "position <= 1", True),
    Case(BOOL, "team.bags >= 3", False),
    Case(BOOL, "position == 1 and team.bags == 2", True),
    Case(BOOL, "position == 1 and team.bags == 3", False),
    Case(BOOL, "position == 2 or team.bags == 2", True),
    Case(BOOL, "position == 2 or team.bags == 3", False),
    Case(BOOL, "not (position == 1)", False),
    Case(BOOL, "partner.kind == pending", True),
    Case(BOOL, "partner.kind == nil", True, {"partner.kind": "nil"}),
    Case(BOOL, "true", True),
    Case(BOOL, "false", False),
    Case(BOOL, "any(c in hand where c.rank == 14)", True),
    Case(BOOL, "any(c in hand where c.rank == 13 and c.suit == hearts)", False),
    Case(BOOL, "all(c in hand where c.suit == spades)", False),
    Case(BOOL, "all(c in hand & spades where c.rank > 10)", True),
    Case(BOOL, "hand.has(hearts)", True),
    Case(BOOL, "hand.has(♥)", False, {"hand": mask("AS KS")}),
    Case(BOOL, "hand.only(spades)", False),
    Case(BOOL, "hand.only(spades)", True, {"hand": mask("AS KS")}),
    Case(BOOL, "hand == hand & spades", False),          # a set equals only itself, not a part of it
    Case(BOOL, "hand & spades != hand", True),
    Case(BOOL, "hand & spades == {AS, KS}", True),
    Case(BOOL, "hand & spades < hand", True),
    Case(BOOL, "hand.count(spades) == 2", True),
    Case(BOOL, "AS in hand", True),
    Case(BOOL, "QS in hand", False),
    Case(BOOL, "QS not in hand", True),
    Case(BOOL, "team.bags in [1, 2]", True),
    Case(BOOL, "bid.n + partner.n <= 13", True),
    # sets of cards
    Case(CARDS, "hand & trick.led_suit", mask("2H KH")),
    Case(CARDS, "hand & hearts", mask("2H KH")),
    Case(CARDS, "hand | {AD}", mask("AS 4S 2H KH 9C AD")),
    Case(CARDS, "{AS, 9C}", mask("AS 9C")),
    Case(CARDS, "{}", 0),
    Case(CARDS, "{lowest(hand & clubs)}", mask("2C"), {"hand": mask("2C 5C KH")}),    # 2C is card 0
    Case(CARDS, "hand - spades", mask("2H KH 9C")),
    Case(CARDS, "if trump_broken or leading then hand else hand - spades", mask("2H KH 9C")),
    Case(CARDS, "if trump_broken or leading then hand else hand - spades", mask("AS 4S 2H KH 9C"),
         {"trump_broken": True}),
    Case(CARDS, "if trick.number == 4 and trick.position == 3 then played & clubs else hand", mask("2C 3C 4C 5C")),
    Case(CARDS, "if trick.cards.has(7H) then hand & ♠ else hand", mask("AS 4S")),
    Case(CARDS, "cards(highest(hand & spades))", mask("AS")),
    Case(CARDS, "cards(clubs) & played", mask("2C 3C 4C 5C")),
    # single cards
    Case(CARD, "highest(trick.cards & trick.led_suit)", card("KD")),
    Case(CARD, "lowest(trick.cards & trick.led_suit)", card("2D")),
    Case(CARD, "AS", card("AS")),
    Case(CARD, "10D", card("10D"), {"trick.cards": mask("10D 2D 3D 4D")}),
    Case(CARD, "none", compiler.NONE),
    Case(CARD, "if trick.cards.has(trick.lead) then trick.lead else none", card("9D")),
    Case(CARD, "highest(trick.cards & trick.led_suit)", card("KD"), {"trick.number": 1}),
    # seats and teams
    Case(SEAT, "left_of(dealer)", 0),
    Case(SEAT, "right_of(dealer)", 2),
    Case(SEAT, "partner_of(dealer)", 1),
    Case(SEAT, "dealer", 3),
    Case(TEAM, "if ns.score > ew.score then NS else EW", 0),
    Case(TEAM, "if ns.score > ew.score then NS else EW", 1, {"ns.score": 400}),
    Case(TEAM, "if lead == 0 then none else if ns.score > ew.score then NS else EW", compiler.NONE, {"lead": 0}),
]

_RULES_FILE = """\
id: language-case
source: {doc: house, title: one rule under test}
extends: standard
rules:
  %s: %s
"""


def _variant_text(case: Case) -> str:
    text = case.text if " @ " in case.text else f"{case.text} @ house §test"
    return textwrap.dedent(_RULES_FILE) % (case.slot, f"'{text}'")


def _inputs(case: Case) -> dict:
    values = {**DEFAULTS[case.slot], **case.inputs}
    context = SLOTS[case.slot].context
    assert set(values) == set(CONTEXTS[context]), case.slot
    return {param_name(name): value for name, value in values.items()}


def _evaluate(fn, context: str, values: dict):
    return fn(*ARGS[context](**values))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.slot}: {c.text}")
def test_scalar_back_end(case: Case):
    rs = ruleset_from_text(_variant_text(case))
    context = SLOTS[case.slot].context
    if isinstance(case.expected, type):
        with pytest.raises(case.expected):
            _evaluate(rs.fn[case.slot], context, _inputs(case))
        return
    value = _evaluate(rs.fn[case.slot], context, _inputs(case))
    assert value == case.expected and type(value) is not type(None)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.slot}: {c.text}")
def test_array_back_end(case: Case):
    rs = ruleset_from_text(_variant_text(case))
    context = SLOTS[case.slot].context
    values = {k: np.array([v, v]) for k, v in _inputs(case).items()}    # two rows of the same situation
    fn = vector_rules(rs)[case.slot]
    if isinstance(case.expected, type):
        with pytest.raises(case.expected):
            _evaluate(fn, context, values)
        return
    out = np.broadcast_to(np.asarray(_evaluate(fn, context, values)), (2,))
    assert out.tolist() == [case.expected, case.expected]


# --------------------------------------------------------------------------- what must be covered
def _required() -> set[str]:
    """Every construct of the language, read from the grammar and the compiler."""
    rules = compiler.parser().rules
    aliases = {str(r.alias) for r in rules if r.alias}
    kept = {r.origin.name for r in rules if not r.options.expand1 and not str(r.origin.name).startswith("_")
            and not r.alias}
    kept = {str(name) for name in kept if not name.startswith("__")} - {"start"}
    comp_op = next(t for t in compiler.parser().terminals if t.name == "COMP_OP")
    ops = set(re.findall(r"[=!<>]=?", comp_op.pattern.value.replace("\\", "")))
    return (aliases | kept | {f"op {op}" for op in ops} | {f"fn {f}" for f in compiler._FUNCS}
            | {f"attr {a}" for a in compiler._CARD_ATTRS} | {f"method {m}" for m in ("has", "count", "only")})


def _used(tree: Tree) -> set[str]:
    used = set()
    for node in tree.iter_subtrees():
        used.add(str(node.data))
        if node.data == "compare":
            used.add(f"op {node.children[1]}")
        if node.data == "call":
            callee = node.children[0]
            if callee.data == "name":
                used.add(f"fn {callee.children[0]}")
            elif callee.data == "attr":
                used.add(f"method {callee.children[1]}")
        if node.data == "attr" and isinstance(node.children[1], Token):
            used.add(f"attr {node.children[1]}")
    return used


def test_every_construct_has_a_case():
    used = set().union(*(_used(compiler.parse(case.text)) for case in CASES))
    missing = _required() - used
    assert not missing, f"constructs of the language without a case in {__name__}: {sorted(missing)}"


def test_the_required_set_is_read_from_the_language():
    required = _required()
    assert {"ifelse", "where_args", "cardset", "citation", "op ==", "op <", "fn partner_of", "attr power",
            "method only"} <= required
    assert len([r for r in required if r.startswith("op ")]) == 6
