"""Rule expressions in numba's typed subset, for the compiled scalar engine (``fast.compiled``).

A rule's checked compiled source (``Rule.source``) is inlined as ``game.fused`` does (its
arguments renamed to the generated code's variables), then rewritten where numba's nopython
mode needs another spelling of the same value: a bid kind is its index in ``schema.BID_KINDS``
(the batch engine's codes; 'pending' 4) instead of its name, ``_min``/``_max`` of a tuple are nested
two-argument calls, ``x in (1, 2)`` is a chain of ``==``, and each ``count``/``any``/``all``
over a set of cards (a generator expression) becomes a helper function looping over the set's
cards, its free variables passed as arguments.  Every node of the result is then checked against
a fixed list of shapes; a rule with anything else is refused with ``NativeRuleError`` naming it,
never run another way.  ``HELPERS`` is numba source of the helpers the expressions call.

numba does not check bounds: a table is indexed by a card (0-53, or ``NONE``, -1) or a suit (0-3, or
``NONE``: ``_SM``'s last entry, as in Python), which the compiler's types guarantee.
"""
from __future__ import annotations

import ast
from ..core.schema import BID_KINDS
from ..errors import NativeRuleError
from ..model.ruleset import Ruleset
from ..procedure.python import inline_rule

TABLES = ("_RANK", "_NSUIT", "_SUIT", "_POW", "_SM", "_PLACE")
CALLS = frozenset({"_cnt", "_hi", "_lo", "_abs", "_div", "_mod", "_bit", "_min2", "_max2"})
MAX_CONSTANT = 1 << 31     # larger literals could overflow 64-bit arithmetic where Python's ints do not
_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Mod, ast.BitOr, ast.BitAnd, ast.RShift, ast.LShift,
              ast.Not, ast.USub, ast.UAdd, ast.Invert, ast.And, ast.Or,
              ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Load)
_NODES = (ast.Expression, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare, ast.IfExp, ast.Call, ast.Name,
          ast.Constant, ast.Subscript) + _OPERATORS
_AGGREGATES = {"_sum": "count", "_any": "any", "_all": "all"}

# the highest (``_hi``) or lowest (``_lo``) card of a set by power
_EXTREME = '''@numba.njit(cache=True, no_cpython_wrapper=True)
def {name}(mask):
    best, best_p = NONE, {start}
    while mask:
        card = trailing_zeros(mask)
        mask &= mask - 1
        if _POW[card] {better} best_p:
            best, best_p = card, _POW[card]
    return best
'''
# the helpers every generated module has (``_tz``: the lowest card of a non-empty set; ``_POW``,
# ``_BELOW``, ``_ABOVE`` and ``NONE`` are the module's tables and constants)
HELPERS = '''
@numba.njit(cache=True, no_cpython_wrapper=True)
def _tz(mask):
    return trailing_zeros(mask)


@numba.njit(cache=True, no_cpython_wrapper=True)
def _cnt(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


''' + _EXTREME.format(name='_hi', start='_BELOW', better='>') + '\n\n' \
    + _EXTREME.format(name='_lo', start='_ABOVE', better='<') + '''

@numba.njit(cache=True, no_cpython_wrapper=True)
def _bit(card):
    return 0 if card < 0 else 1 << card


@numba.njit(cache=True, no_cpython_wrapper=True)
def _abs(x):
    return -x if x < 0 else x


@numba.njit(cache=True, no_cpython_wrapper=True)
def _min2(a, b):
    return a if a <= b else b


@numba.njit(cache=True, no_cpython_wrapper=True)
def _max2(a, b):
    return a if a >= b else b


@numba.njit(cache=True, no_cpython_wrapper=True)
def _div(a, b):
    if b == 0:
        raise RulespecError("division by zero in a rule")
    return a // b


@numba.njit(cache=True, no_cpython_wrapper=True)
def _mod(a, b):
    if b == 0:
        raise RulespecError("modulo by zero in a rule")
    return a % b
'''

# one ``count``/``any``/``all`` over a set of cards: {name}, {params}, {cards}, {cond}, {var}
_LOOP = '''
@numba.njit(cache=True, no_cpython_wrapper=True)
def {name}({params}):
    left = {cards}
    found = 0
    while left:
        {var} = trailing_zeros(left)
        left &= left - 1
{step}    return {result}
'''
_STEPS = {"count": ("        if {cond}:\n            found += 1\n", "found"),
          "any": ("        if {cond}:\n            return True\n", "False"),
          "all": ("        if not ({cond}):\n            return False\n", "True")}


class NativeRules:
    """The rule expressions of one generated module, and the loop helpers they need (``helpers``)."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.helpers: list[str] = []
        self._loops: dict[str, str] = {}     # a loop's source (named "{name}") -> its helper's name

    def expr(self, rs: Ruleset, name: str, context: str, args: list[ast.expr]) -> ast.expr:
        """Rule ``name``'s expression over ``args`` (one per name of ``context``), in numba's subset (the
        lowered form's ``Target.rule``)."""
        tree = ast.Expression(inline_rule(rs, name, context, args))
        tree = _Rewrite(self, name).visit(tree)
        ast.fix_missing_locations(tree)
        self.check(name, tree)
        return tree.body

    def check(self, name: str, tree: ast.AST) -> None:
        """Refuse a rewritten expression with any node outside the shapes numba is given."""
        for node in ast.walk(tree):
            why = self.unsupported(node)
            if why:
                self.refuse(name, why)

    def unsupported(self, node: ast.AST) -> str | None:
        """Why ``node`` is not one of the shapes the native code is made of (None: it is)."""
        if not isinstance(node, _NODES):
            shown = ast.unparse(node) if isinstance(node, ast.expr) else type(node).__name__
            return f"{shown} has no native equivalent"
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and not node.keywords and (
                node.func.id in CALLS or node.func.id in self._loops.values())):
            return f"the call {ast.unparse(node)} has no native equivalent"
        if isinstance(node, ast.Subscript) and not (isinstance(node.value, ast.Name) and node.value.id in TABLES):
            return f"{ast.unparse(node)} is not a card table lookup"
        if isinstance(node, ast.Constant) and type(node.value) not in (int, bool):
            return f"the value {node.value!r} has no native equivalent"
        if isinstance(node, ast.Constant) and abs(int(node.value)) >= MAX_CONSTANT:
            return f"the number {node.value} is too large for 64-bit native arithmetic"
        return None

    def refuse(self, name: str, why: str) -> None:
        raise NativeRuleError(self.rs.id, name, why)

    def loop(self, kind: str, var: str, cards: str, cond: str) -> str:
        """A call of the helper that runs aggregate ``kind`` (count, any, all) of ``cond`` over the cards
        ``var`` of ``cards`` (expressions already rewritten), defined once per module."""
        step, result = _STEPS[kind]
        free = sorted({node.id for text in (cards, cond) for node in ast.walk(ast.parse(text, mode="eval"))
                       if isinstance(node, ast.Name) and not node.id.startswith("_") and node.id != var})
        text = _LOOP.format(name="{name}", params=", ".join(free), cards=cards, var=var,
                            step=step.format(cond=cond), result=result)
        helper = self._loops.get(text)
        if helper is None:
            helper = self._loops[text] = f"_each{len(self._loops)}"
            self.helpers.append(text.replace("{name}", helper, 1))
        return f"{helper}({', '.join(free)})"


class _Rewrite(ast.NodeTransformer):
    """The numba spellings of one rule's expression (see the module's doc)."""

    def __init__(self, rules: NativeRules, name: str):
        self.rules, self.name = rules, name

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, str):
            if node.value not in BID_KINDS:
                self.rules.refuse(self.name, f"the text value {node.value!r} has no native equivalent")
            return ast.copy_location(ast.Constant(BID_KINDS.index(node.value)), node)
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        node = self.generic_visit(node)
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            items = node.comparators[0]
            if not isinstance(items, ast.Tuple):
                self.rules.refuse(self.name, f"'in' over {ast.unparse(items)} has no native equivalent")
            tests = [ast.Compare(node.left, [ast.Eq()], [item]) for item in items.elts]
            found = (ast.BoolOp(ast.Or(), tests) if len(tests) > 1 else tests[0] if tests
                     else ast.Constant(False))
            return ast.UnaryOp(ast.Not(), found) if isinstance(node.ops[0], ast.NotIn) else found
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        func = node.func.id if isinstance(node.func, ast.Name) else ""
        if func in _AGGREGATES and len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp):
            return self.aggregate(_AGGREGATES[func], node.args[0])
        node = self.generic_visit(node)
        if func in ("_min", "_max") and len(node.args) == 1 and isinstance(node.args[0], ast.Tuple) \
                and node.args[0].elts:
            items = node.args[0].elts
            nested = items[-1]
            for item in reversed(items[:-1]):
                nested = ast.Call(ast.Name(func + "2", ast.Load()), [item, nested], [])
            return nested
        return node

    def aggregate(self, kind: str, gen: ast.GeneratorExp) -> ast.AST:
        (loop,) = gen.generators
        source = loop.iter
        if not (isinstance(loop.target, ast.Name) and isinstance(source, ast.Call) and isinstance(source.func, ast.Name)
                and source.func.id == "_iter" and len(source.args) == 1):
            self.rules.refuse(self.name, f"the loop {ast.unparse(gen)} has no native equivalent")
        if kind == "count":
            if not (isinstance(gen.elt, ast.Constant) and gen.elt.value == 1 and len(loop.ifs) == 1):
                self.rules.refuse(self.name, f"the count {ast.unparse(gen)} has no native equivalent")
            cond = loop.ifs[0]
        else:
            if loop.ifs:
                self.rules.refuse(self.name, f"the loop {ast.unparse(gen)} has no native equivalent")
            cond = gen.elt
        cards, test = (self.visit(ast.Expression(part)) for part in (source.args[0], cond))
        for part in (cards, test):
            ast.fix_missing_locations(part)
            self.rules.check(self.name, part)
        call = self.rules.loop(kind, loop.target.id, ast.unparse(cards.body), ast.unparse(test.body))
        return ast.parse(call, mode="eval").body

