"""The card play of a hand as one generated function per ruleset (for simulation speed).

The play constraints, ``trump.breaks`` and ``trick.winner`` are inlined from
their checked compiled sources (``Rule.source``) into a fixed template: each
rule's return expression is parsed with ``ast``, its arguments renamed to the
template's locals, and unparsed.  The result runs in the same restricted
environment as the rules themselves (``make_env``: card tables and helpers,
empty ``__builtins__``).  It plays exactly as ``engine.legal_mask`` /
``engine.trick_winner`` would: a constraint narrows the legal set only when it
leaves some card of it (``_narrow``'s conflicts and dead ends are skipped).
"""
from __future__ import annotations

import ast
import re
import weakref
from collections.abc import Callable

from ..lang.compiler import NONE, make_env
from ..model.ruleset import Ruleset
from ..core.schema import CONTEXTS

# the template's local for each context name, in argument order
_LOCALS = {
    "play": ("hand", "trick_mask", "led", "number", "position", "leading", "broken", "played"),
    "break": ("card", "hand", "leading", "led", "number"),
    "trick": ("trick_mask", "led", "number", "lead"),
}
_TABLES = ("_RANK", "_NSUIT", "_SUIT", "_POW", "_SM")
_ENV_NAMES = frozenset(make_env(dict.fromkeys(_TABLES))) - {"__builtins__"}
_LOCAL_NAME = re.compile(r"^v\d+$")   # a comprehension's variable

PlayCards = Callable[..., tuple[list[int], list[tuple[int, int]], list[int]]]
_CACHE: weakref.WeakKeyDictionary[Ruleset, PlayCards] = weakref.WeakKeyDictionary()


class _Rename(ast.NodeTransformer):
    def __init__(self, mapping: dict[str, str]):
        self.mapping = mapping

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id in self.mapping:
            return ast.copy_location(ast.Name(self.mapping[node.id], node.ctx), node)
        return node


def inline(rs: Ruleset, name: str, context: str) -> str:
    """Rule ``name``'s expression with its arguments renamed to the template's locals of ``context``."""
    rule = rs.rules[name]
    if rule.slot.context != context:
        raise ValueError(f"rule {name} is of the {rule.slot.context} context, not {context}")
    module = ast.parse(rule.source)
    (func,) = module.body
    if not (isinstance(func, ast.FunctionDef) and len(func.body) == 1 and isinstance(func.body[0], ast.Return)):
        raise ValueError(f"rule {name}: not a compiled rule")
    params = [arg.arg for arg in func.args.args]
    if len(params) != len(CONTEXTS[context]):
        raise ValueError(f"rule {name}: {len(params)} arguments for the {context} context")
    for node in ast.walk(func.body[0]):
        if isinstance(node, ast.Attribute):
            raise ValueError(f"rule {name}: unexpected attribute {node.attr!r} in its compiled source")
        if isinstance(node, ast.Name) and not (node.id in params or node.id in _ENV_NAMES
                                               or _LOCAL_NAME.match(node.id)):
            raise ValueError(f"rule {name}: unexpected name {node.id!r} in its compiled source")
    renamed = _Rename(dict(zip(params, _LOCALS[context]))).visit(func.body[0].value)
    return ast.unparse(renamed)


def _narrowing(rs: Ruleset, leading: bool, first: bool, indent: str) -> list[str]:
    """The play constraints of one situation, in priority order, each applied only if it leaves a card."""
    from .engine import _APPLICABLE   # (the engine imports this module)
    lines = []
    for name in _APPLICABLE[(leading, first)]:
        lines += [f"{indent}narrowed = allowed & ({inline(rs, name, 'play')})",
                  f"{indent}if narrowed:",
                  f"{indent}    allowed = narrowed"]
    return lines or [f"{indent}pass"]


def _turn(rs: Ruleset, leading: bool, indent: str) -> list[str]:
    """One seat's play: legal set, the policy's choice, trumps broken, the card leaves the hand."""
    return [
        f"{indent}hand = hands[seat]",
        f"{indent}allowed = hand",
        f"{indent}if number == 1:",
        *_narrowing(rs, leading, True, indent + "    "),
        f"{indent}else:",
        *_narrowing(rs, leading, False, indent + "    "),
        f"{indent}card = choose(rs, seat, allowed, trick, hand)",
        f"{indent}if not broken and ({inline(rs, 'trump.breaks', 'break')}):",
        f"{indent}    broken = True",
        f"{indent}bit = 1 << card",
        f"{indent}hands[seat] = hand & ~bit",
        f"{indent}played |= bit",
        f"{indent}trick_mask |= bit",
        f"{indent}trick.append(card)",
        f"{indent}plays.append((seat, card))",
    ]


def source(rs: Ruleset) -> str:
    """The generated card-play function of ``rs``."""
    return "\n".join([
        "def play_cards(hands, leader, size, choose, rs, bad_winner):",
        "    broken = False",
        "    played = 0",
        "    won = [0, 0, 0, 0]",
        "    plays = []",
        "    winners = []",
        "    number = 0",
        "    while number < size:   # (no builtins here: no range)",
        "        number += 1",
        "        trick = []",
        "        trick_mask = 0",
        f"        led = {NONE}",
        "        leading = True",
        "        position = 1",
        "        seat = leader",
        *_turn(rs, True, "        "),
        "        led = _SUIT[card]",
        "        leading = False",
        "        for position in (2, 3, 4):",
        "            seat = (leader + position - 1) % 4",
        *_turn(rs, False, "            "),
        "        lead = trick[0]",
        f"        win = {inline(rs, 'trick.winner', 'trick')}",
        "        if win not in trick:",
        "            bad_winner(rs, win)",
        "        leader = (leader + trick.index(win)) % 4",
        "        won[leader] += 1",
        "        winners.append(leader)",
        "    return won, plays, winners",
        "",
    ])


def play_cards(rs: Ruleset) -> PlayCards:
    """``rs``'s card-play function, generated once per ruleset:
    ``play_cards(hands, leader, size, choose, rs, bad_winner) -> (tricks won by seat, (seat, card) plays,
    trick winners)``; ``hands`` is updated in place, ``choose`` is a policy's ``play`` and
    ``bad_winner(rs, card)`` raises for a winner that is not in the trick."""
    fn = _CACHE.get(rs)
    if fn is None:
        rule_env = rs.fn["trick.winner"].__globals__   # the card tables every play rule was compiled with
        env = make_env({name: rule_env[name] for name in _TABLES})
        exec(compile(source(rs), f"<play {rs.id}>", "exec"), env)  # noqa: S102 - template + checked rule sources
        fn = _CACHE[rs] = env["play_cards"]
    return fn
