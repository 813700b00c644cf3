"""The card play of a whole hand as one generated function per ruleset (for simulation speed).

The loop is made of the hand procedure's own templates (``procedure``: the
legal set, a card played, a trick settled), with the play constraints,
``trump.breaks`` and ``trick.winner`` inlined from their checked compiled
sources (``Rule.source``): each rule's return expression is parsed with
``ast``, its arguments renamed to the procedure's variables by context name,
and unparsed.  The result runs in the same restricted environment as the rules
themselves (``make_env``: card tables and helpers, empty ``__builtins__``), so
it plays exactly as ``HandState``'s steps do.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence

from ..core.schema import CONTEXTS
from ..lang.compiler import NONE, make_env
from ..model.ruleset import Ruleset, per_ruleset
from .procedure import (FINISH_TRICK, PLAY_CARD, START_TRICK, RuleSource, context_values, fill, indent,
                        legal_source)
_TABLES = ("_RANK", "_NSUIT", "_SUIT", "_POW", "_SM")
_ENV_NAMES = frozenset(make_env(dict.fromkeys(_TABLES))) - {"__builtins__"}
_LOCAL_NAME = re.compile(r"^v\d+$")   # a comprehension's variable

PlayCards = Callable[..., tuple[list[int], list[tuple[int, int]], list[int]]]

# a policy's choice, called once per card
CHOOSE = "card = choose(rs, seat, allowed, trick, hand)\n"
# ``policies.RandomPolicy.play`` written out (``choose`` is its generator's ``random``): the k-th legal
# card, lowest id first, for k = int(random() * count) -- the same draw, so the same cards
CHOOSE_RANDOM = """\
k = _INT(choose() * allowed.bit_count())
while k:
    allowed &= allowed - 1
    k -= 1
card = (allowed & -allowed).bit_length() - 1
"""


class _Rename(ast.NodeTransformer):
    def __init__(self, mapping: dict[str, str]):
        self.mapping = mapping

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id in self.mapping:
            return ast.copy_location(ast.Name(self.mapping[node.id], node.ctx), node)
        return node


def inline(rs: Ruleset, name: str, context: str, values: Sequence[str] | None = None) -> str:
    """Rule ``name``'s expression with its arguments renamed to the procedure's variables of ``context``
    (a ``procedure.RuleSource``), or to ``values`` (one variable per context name, in the schema's order)."""
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
    renamed = _Rename(dict(zip(params, context_values(context) if values is None else values))).visit(
        func.body[0].value)
    return ast.unparse(renamed)


def _turn(rs: Ruleset, leading: bool, choice: str, rule_source: RuleSource) -> str:
    """One seat's turn (``position`` and ``leading`` set): its legal set, the policy's ``choice``, the
    card played (``procedure.PLAY_CARD``)."""
    return "".join([
        "seat = (leader + position - 1) % 4\n",
        "hand = hands[seat]\n",
        legal_source(rs, rule_source, leading),
        choice,
        fill(PLAY_CARD, rs, rule_source),
    ])


def trick_loop(rs: Ruleset, choice: str, rule_source: RuleSource = inline) -> str:
    """The loop over the tricks (from ``number`` 0 to ``size``): the procedure's templates, each card picked
    by ``choice``, each rule's value from ``rule_source`` (``inline``: the rule's own expression)."""
    trick = "".join([
        "number += 1\n",
        START_TRICK,
        "position = 1\n",
        "leading = True\n",
        _turn(rs, True, choice, rule_source),
        "leading = False\n",
        "for position in (2, 3, 4):\n",
        indent(_turn(rs, False, choice, rule_source)),
        fill(FINISH_TRICK, rs, rule_source),
    ])
    return "while number < size:   # (no builtins here: no range)\n" + indent(trick)


def source(rs: Ruleset, choice: str = CHOOSE) -> str:
    """The generated card-play function of ``rs``: the procedure's templates in a loop over the tricks,
    each card picked by ``choice`` (``CHOOSE``, a call of the policy, or ``CHOOSE_RANDOM``)."""
    return "".join([
        "def play_cards(hands, leader, size, choose, rs, bad_winner):\n",
        "    broken = False\n",
        "    played = 0\n",
        "    won = [0, 0, 0, 0]\n",
        "    plays = []\n",
        "    winners = []\n",
        "    number = 0\n",
        indent(trick_loop(rs, choice), "    "),
        "    return won, plays, winners\n",
    ])


def _generate(rs: Ruleset, choice: str) -> PlayCards:
    rule_env = rs.fn["trick.winner"].__globals__   # the card tables every play rule was compiled with
    env = make_env({name: rule_env[name] for name in _TABLES})
    env["NONE"], env["_INT"] = NONE, int
    exec(compile(source(rs, choice), f"<play {rs.id}>", "exec"), env)  # noqa: S102 - template + checked rule sources
    return env["play_cards"]


@per_ruleset
def play_cards(rs: Ruleset) -> PlayCards:
    """``rs``'s card-play function, generated once per ruleset:
    ``play_cards(hands, leader, size, choose, rs, bad_winner) -> (tricks won by seat, (seat, card) plays,
    trick winners)``; ``hands`` is updated in place, ``choose`` is a policy's ``play`` and
    ``bad_winner(rs, card)`` raises for a winner that is not in the trick."""
    return _generate(rs, CHOOSE)


@per_ruleset
def play_cards_random(rs: Ruleset) -> PlayCards:
    """``play_cards`` with ``RandomPolicy``'s choice written into the loop: ``choose`` is the policy's
    generator's ``random`` (the same draws and cards as ``play_cards`` with ``RandomPolicy.play``)."""
    return _generate(rs, CHOOSE_RANDOM)
