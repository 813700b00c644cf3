"""When cards may be treated as interchangeable in a search, judged from the variant's own rules.

Two cards of one suit (``card.suit``) that are adjacent in power among the cards still
in play are interchangeable when every card-play rule reaches cards only through suit
masks (``_SM``), a card's suit (``_SUIT``), counts, and ``highest``/``lowest`` of a set
within one suit: swapping them then maps every rule's answer to the swapped answer.
``equivariant`` checks exactly that on the rules' compiled sources; where it fails the
solver treats every card as distinct.
"""
from __future__ import annotations

import ast

from ..core.schema import CONTEXTS, PLAY_CONSTRAINTS
from ..model.ruleset import Ruleset

CARD_RULES = (*PLAY_CONSTRAINTS, "trump.breaks", "trick.winner")
_SAFE_CALLS = frozenset({"_cnt", "_bit"})     # functions of a set or card that commute with a swap in one suit
_RANKED = frozenset({"_hi", "_lo"})            # safe only on a set within one suit
_CARD_VALUES = frozenset({"card", "trick.lead"})   # context values that are one card
_TABLES_ACROSS_SUITS = frozenset({"_POW", "_RANK", "_NSUIT", "_iter"})   # powers compared across suits, printed ranks


def _suit_masked(node: ast.expr) -> bool:
    """``x & _SM[...]`` (or ``_SM[...] & x``): a set within one suit."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd)):
        return False
    return any(isinstance(side, ast.Subscript) and isinstance(side.value, ast.Name) and side.value.id == "_SM"
               for side in (node.left, node.right))


def _harmless_constant(node: ast.AST, parents: dict[ast.AST, ast.AST], cards: set[str]) -> bool:
    """An integer constant that names no card: a suit (``_SM[3]``) or a number compared with a count,
    a suit or an empty set (never with a card)."""
    parent = parents.get(node)
    if isinstance(parent, ast.Subscript) and isinstance(parent.value, ast.Name) and parent.value.id == "_SM":
        return True
    if isinstance(parent, ast.Compare):
        return not any(isinstance(side, ast.Name) and side.id in cards
                       or isinstance(side, ast.Call) and isinstance(side.func, ast.Name) and side.func.id in _RANKED
                       for side in (parent.left, *parent.comparators))
    return False


def _call_ok(node: ast.Call) -> bool:
    """A call of a helper that commutes with the swap: a count, a card's bit, or a ranking within a suit."""
    name = node.func.id if isinstance(node.func, ast.Name) else ""
    if name in _RANKED:
        return len(node.args) == 1 and _suit_masked(node.args[0])
    return name in _SAFE_CALLS


def _node_ok(node: ast.AST, parents: dict[ast.AST, ast.AST], played: set[str], cards: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id not in played and node.id not in _TABLES_ACROSS_SUITS
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return _harmless_constant(node, parents, cards)
    if isinstance(node, ast.Call):
        return _call_ok(node)
    return not isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp, ast.Lambda))


def _rule_ok(source: str, context: str) -> bool:
    """Whether one compiled rule reaches cards only in ways that commute with the swap."""
    func = ast.parse(source).body[0]
    params = [arg.arg for arg in func.args.args]
    played = {param for param, name in zip(params, CONTEXTS[context]) if name == "played"}
    cards = {param for param, name in zip(params, CONTEXTS[context]) if name in _CARD_VALUES}
    parents = {child: node for node in ast.walk(func) for child in ast.iter_child_nodes(node)}
    return all(_node_ok(node, parents, played, cards) for node in ast.walk(func.body[0]))


def equivariant(rs: Ruleset) -> bool:
    """Whether ``rs``'s card-play rules commute with swapping two same-suit cards adjacent in power
    (no two cards of a suit share a power, and every rule passes ``_rule_ok``)."""
    for order in suit_orders(rs):
        if len({rs.power[c] for c in order}) != len(order):
            return False
    return all(_rule_ok(rs.rules[name].source, rs.rules[name].slot.context) for name in CARD_RULES)


def suit_orders(rs: Ruleset) -> tuple[tuple[int, ...], ...]:
    """Each suit's cards in ``rs``'s pack, highest power first (``card.suit``, ``card.power``)."""
    orders = []
    for suit in range(4):
        cards = [c for c in range(len(rs.power)) if rs.deck >> c & 1 and rs.suit_of[c] == suit]
        orders.append(tuple(sorted(cards, key=lambda c: (-rs.power[c], c))))
    return tuple(orders)
