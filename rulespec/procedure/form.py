"""Reading the lowered form and lowering one of its functions for a ruleset and a back end.

The form is the Python text of this package's procedure modules (``MODULES``), read with ``ast`` and
checked against the subset every back end can take (``_STATEMENTS``, ``_EXPRESSIONS``).  Lowering a
function, per ruleset and back end, does in order:

1. write each ``@inline`` function into its callers (its literal arguments put in its body first, its
   names made unique, its statements before the caller's statement, its result in place of the call);
2. fill the holes: ``rule("x.y")`` becomes the back end's expression of the rule over the variables named
   after its context's names (a parameter rule becomes its constant), ``reads(...)`` a constant, a module
   constant its value;
3. drop the notes (unless the back end explains) and the ``Note`` parameters with them;
4. fold constants: ``if`` on a constant keeps one branch, so a parameter that switches a step off leaves
   no code behind.

Each back end then writes the function its own way (``procedure.python``, ``fast.native_hand``,
``fast.array_hand``).
"""
from __future__ import annotations

import ast
import functools
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeGuard

from ..core import derived
from ..core.contexts import param_name
from ..core.schema import CONTEXTS, SLOTS
from ..errors import ProcedureError
from ..model.ruleset import Rule, Ruleset

MODULES = ("seating", "card_play", "bidding", "scoring", "whole_hand", "players")
_HERE = Path(__file__).parent
# what a procedure function may be made of (every back end can write these)
_STATEMENTS = (ast.Assign, ast.AugAssign, ast.If, ast.For, ast.Return, ast.Expr, ast.Pass)
_EXPRESSIONS = (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Call,
                ast.Subscript, ast.Tuple, ast.keyword, ast.Load, ast.Store, ast.operator, ast.unaryop, ast.boolop,
                ast.cmpop)
BUILTINS = frozenset({"range", "min", "max"})
HOLES = frozenset({"rule", "reads", "permits_hand", "note", "fail", "zeros", "popcount", "suit_of", "power_of",
                   "suit_cards", "place_of"})
CHOICES = frozenset({"choose_bid", "choose_raise", "choose_cards", "choose_discard", "choose_keep", "choose_card"})


@dataclass(frozen=True)
class Function:
    """One function of the lowered form."""
    name: str
    module: str
    node: ast.FunctionDef
    params: tuple[str, ...]
    notes: frozenset[str]        # parameters only explanations use
    same: frozenset[str]         # parameters the same for every hand of an array
    inline: bool
    distinct: bool

    def where(self, node: ast.AST | None = None) -> str:
        line = getattr(node, "lineno", self.node.lineno)
        return f"procedure/{self.module}.py:{line} ({self.name})"


@dataclass(frozen=True)
class Form:
    """The whole lowered form: its functions and constants by name."""
    functions: dict[str, Function]
    constants: dict[str, object]
    sources: dict[str, str]


def copy_tree(node):
    """A copy of an ast (several times quicker than ``copy.deepcopy``: no memo, nodes rebuilt field by field)."""
    if isinstance(node, list):
        return [copy_tree(item) for item in node]
    if not isinstance(node, ast.AST) or isinstance(node, (ast.expr_context, ast.operator, ast.unaryop, ast.boolop,
                                                          ast.cmpop)):
        return node
    new = node.__class__.__new__(node.__class__)
    for field in node._fields:
        setattr(new, field, copy_tree(getattr(node, field, None)))
    for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
        if hasattr(node, attr):
            setattr(new, attr, getattr(node, attr))
    return new


def _annotation(arg: ast.arg) -> str | None:
    return arg.annotation.id if isinstance(arg.annotation, ast.Name) else None


def _called(call: ast.Call) -> str | None:
    """The name of the function ``call`` calls (None: not a plain name)."""
    return call.func.id if isinstance(call.func, ast.Name) else None


def _decorators(node: ast.FunctionDef) -> set[str]:
    return {d.id for d in node.decorator_list if isinstance(d, ast.Name)}


def _read_module(name: str, functions: dict[str, Function], constants: dict[str, object]) -> str:
    text = (_HERE / f"{name}.py").read_text(encoding="utf-8")
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef):
            params = tuple(a.arg for a in node.args.args)
            decorators = _decorators(node)
            functions[node.name] = Function(
                node.name, name, node, params, frozenset(a.arg for a in node.args.args if _annotation(a) == "Note"),
                frozenset(a.arg for a in node.args.args if _annotation(a) == "Same"), "inline" in decorators,
                "distinct" in decorators)
        elif isinstance(node, ast.Assign):
            _read_constants(node, constants)
    return text


def _read_constants(node: ast.Assign, constants: dict[str, object]) -> None:
    """A module's constants: a number, a text or a tuple of them, or names unpacked from ``range(n)``
    (other module-level names, such as ``lang``'s tables of messages, are Python's, not the form's)."""
    (target,) = node.targets
    if isinstance(target, ast.Name) and target.id.isupper() and not target.id.startswith("_"):
        try:
            constants[target.id] = ast.literal_eval(node.value)
        except ValueError:
            pass
    elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Call) and _called(node.value) == "range":
        for i, element in enumerate(target.elts):
            if isinstance(element, ast.Name):
                constants[element.id] = i


@functools.lru_cache(maxsize=1)
def form() -> Form:
    """The lowered form, read and checked once (per process, and on disk for the package's code:
    ``core.derived``)."""
    return derived.kept("form", "", _read_form, fmt="pickle")


def _read_form() -> Form:
    functions: dict[str, Function] = {}
    constants: dict[str, object] = {}
    sources = {"lang": _read_module("lang", {}, constants)}
    for name in MODULES:
        sources[name] = _read_module(name, functions, constants)
    for fn in functions.values():
        _check(fn, functions, constants)
    return Form(functions, constants, sources)


def _check(fn: Function, functions: dict[str, Function], constants: dict[str, object]) -> None:
    """Refuse a construct outside the subset, a name that is nothing, a ``return`` before the end."""
    known = set(fn.params) | set(functions) | set(constants) | BUILTINS | HOLES | CHOICES | _assigned(fn.node)
    for node in ast.walk(ast.Module(fn.node.body, [])):
        if isinstance(node, ast.stmt) and not isinstance(node, _STATEMENTS):
            raise ProcedureError(f"{fn.where(node)}: a {type(node).__name__} statement is not in the lowered form")
        if isinstance(node, ast.expr) and not isinstance(node, _EXPRESSIONS):
            raise ProcedureError(f"{fn.where(node)}: {ast.unparse(node)} is not in the lowered form")
        if isinstance(node, ast.Name) and node.id not in known and not node.id.startswith("_"):
            raise ProcedureError(f"{fn.where(node)}: '{node.id}' is not defined")
    returns = [node for node in ast.walk(ast.Module(fn.node.body, [])) if isinstance(node, ast.Return)]
    if returns and (len(returns) > 1 or fn.node.body[-1] is not returns[0]):
        raise ProcedureError(f"{fn.where(returns[0])}: a function of the lowered form returns once, at its end")


def _assigned(node: ast.AST) -> set[str]:
    """The names a function assigns (its locals)."""
    out = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            out.add(sub.id)
    return out


# --------------------------------------------------------------------------- lowering
# (rs, rule, context, argument values); rs is None in a lowering made for every ruleset (``Target.fold`` false)
RuleExpr = Callable[[Ruleset | None, str, str, list[ast.expr]], ast.expr]
ALL = frozenset({"*"})        # an inline policy: every function written into its callers


@dataclass
class Target:
    """What a back end makes of the holes: a rule's expression over its arguments, whether notes stay, which
    functions are written into their callers (``inline``: the ``@inline`` ones; ``ALL`` minus ``external``)."""
    rule: RuleExpr
    explains: bool = False
    kind_arg: Callable[[ast.expr], ast.expr] = lambda value: value    # a bid kind code as the rules see it
    inline: frozenset[str] = frozenset()          # ALL, or nothing beyond the marked ones
    external: frozenset[str] = frozenset()        # with ALL: the functions still called
    fold: bool = True        # parameters as constants, folded; else as names (``param_global``): the same
                             # code for every ruleset


class _Expander:
    """The form's functions with their inline calls written in, for one inline policy; the same for every
    ruleset (each ``rule("x.y")`` made explicit first: its context's variables as arguments)."""

    def __init__(self, inline: frozenset[str], external: frozenset[str]):
        self.form, self.inline, self.external = form(), inline, external
        self._done: dict[str, ast.FunctionDef] = {}
        self._known: dict[str, tuple[list[str], tuple[str, ...]]] = {}     # name -> (callees, rules read)
        self._counter = itertools.count(1)

    def inlines(self, name: str) -> bool:
        if name not in self.form.functions:
            return False
        if self.inline == ALL:
            return name not in self.external
        return self.form.functions[name].inline

    def is_expression(self, name: str) -> bool:
        """Whether function ``name`` is one ``return`` of an expression (and takes only names or constants)."""
        body = [stmt for stmt in self.form.functions[name].node.body
                if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant))]     # (its docstring)
        return len(body) == 1 and isinstance(body[0], ast.Return)

    def function(self, name: str) -> ast.FunctionDef:
        """Function ``name`` expanded (shared: copy before changing it); the same for every ruleset, so kept on
        disk between processes too (``core.derived``)."""
        if name not in self._done:
            self._done[name] = derived.kept("expanded", self._key(name), lambda: self._expanded(name), fmt="pickle")
        return self._done[name]

    def _key(self, name: str) -> str:
        """What function ``name``'s expansion (and its facts) are kept on disk under: the inline policy and it."""
        return f"{sorted(self.inline)}|{sorted(self.external)}|{name}"

    def callees(self, name: str) -> list[str]:
        """The functions ``name`` calls once expanded, in ``ast.walk``'s order, without repeats."""
        return self._facts(name)[0]

    def reads_of(self, name: str) -> tuple[str, ...]:
        """The rules function ``name`` names once expanded (its holes, ``rule`` and ``reads``), sorted: what
        its lowering for a ruleset reads of that ruleset besides the pack."""
        return self._facts(name)[1]

    def _facts(self, name: str) -> tuple[list[str], tuple[str, ...]]:
        """``callees`` and ``reads_of`` of ``name``: kept on disk like the expansion they are read from, so a
        process that finds its lowerings kept need not read the expansions."""
        if name not in self._known:
            callees, reads = derived.kept("expanded-facts", self._key(name), lambda: self._facts_of(name))
            self._known[name] = (list(callees), tuple(reads))
        return self._known[name]

    def _facts_of(self, name: str) -> tuple[list[str], list[str]]:
        callees: dict[str, None] = {}
        reads: set[str] = set()
        functions = self.form.functions
        for node in ast.walk(self.function(name)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                if node.func.id in functions:
                    callees.setdefault(node.func.id)
                elif node.func.id in ("rule", "reads", "permits_hand") and node.args \
                        and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                    reads.add(node.args[0].value)
        return list(callees), sorted(reads)

    def _expanded(self, name: str) -> ast.FunctionDef:
        """Function ``name`` with its calls of inline functions written in, their variables numbered from 1 in
        each function (so a function's text never depends on which were expanded before it)."""
        fn = self.form.functions[name]
        self._counter = itertools.count(1)
        node = copy_tree(fn.node)
        node.decorator_list = []
        node.body = self._expand(fn, [_Explicit(fn).visit(stmt) for stmt in node.body])
        return ast.fix_missing_locations(node)

    def _expand(self, fn: Function, body: list[ast.stmt]) -> list[ast.stmt]:
        """``body`` with every call of an inline function written in."""
        out: list[ast.stmt] = []
        for stmt in body:
            for field in ("body", "orelse"):
                if isinstance(stmt, (ast.If, ast.For)):
                    setattr(stmt, field, self._expand(fn, getattr(stmt, field)))
            before: list[ast.stmt] = []
            stmt = _Calls(self, fn, before).visit(stmt)
            out.extend(before)
            if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):   # a call written in
                out.append(stmt)
        return out

    def inlined(self, caller: Function, call: ast.Call, before: list[ast.stmt], in_place: bool = False) -> ast.expr:
        """The statements of inline function ``call.func`` into ``before`` (as the caller's); its result.

        Literal arguments are put in the body first (a rule's name may be one) and its rules made explicit;
        then each name of the callee is replaced at once: a parameter that the body never assigns by its
        argument when that is a name (``in_place``: any argument, the function being one expression), every
        other by a name of its own."""
        callee = self.form.functions[_called(call) or ""]
        if len(call.args) != len(callee.params) or call.keywords:
            raise ProcedureError(f"{caller.where(call)}: {callee.name} takes {len(callee.params)} arguments")
        node = copy_tree(callee.node)
        literal: dict[str, ast.expr] = {p: a for p, a in zip(callee.params, call.args) if isinstance(a, ast.Constant)}
        node = _Substitute(literal).visit(node)
        assigned = _assigned(ast.Module(node.body, []))
        body = self._expand(callee, [_Explicit(callee).visit(stmt) for stmt in node.body])
        tag = f"_{callee.name}{next(self._counter)}_"
        values: dict[str, ast.expr] = {}
        bound: list[ast.stmt] = []
        for param, arg in zip(callee.params, call.args):
            if param in literal:
                continue
            if (isinstance(arg, ast.Name) or in_place) and param not in assigned:
                values[param] = arg
            else:
                values[param] = ast.Name(tag + param, ast.Load())
                bound.append(ast.Assign([ast.Name(tag + param, ast.Store())], arg))
        for name in _assigned(ast.Module(body, [])) - set(values):
            values[name] = ast.Name(tag + name, ast.Load())
        body = [_Substitute(values, stores=True).visit(stmt) for stmt in body]
        result = _pop_result(body)
        before.extend(bound + body)
        return result


def _pop_result(body: list[ast.stmt]) -> ast.expr:
    """The value of ``body``'s final ``return``, taken off it (the constant None where there is none)."""
    last = body[-1] if body else None
    if not isinstance(last, ast.Return):
        return ast.Constant(None)
    body.pop()
    return last.value or ast.Constant(None)


@functools.lru_cache(maxsize=None)
def expander(inline: frozenset[str], external: frozenset[str]) -> _Expander:
    """The (process-wide) expander of one inline policy."""
    return _Expander(inline, external)


# holes read from a card table
_CARD_TABLES = {"suit_of": "_SUIT", "power_of": "_POW", "suit_cards": "_SM", "place_of": "_PLACE"}


class _Explicit(ast.NodeTransformer):
    """``rule("x.y")`` as ``rule("x.y", v1, v2, ...)``: the variables of its context's names, as named where
    it is written (so that writing the function into another keeps them its own); ``suit_of(c)`` as the
    ruleset's table ``_SUIT[c]`` (``power_of``, ``suit_cards``, ``place_of``: ``_POW``, ``_SM``, ``_PLACE``)."""

    def __init__(self, fn: Function):
        self.fn = fn

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)         # (in place)
        table = _CARD_TABLES.get(node.func.id) if isinstance(node.func, ast.Name) else None
        if table and len(node.args) == 1:
            return ast.copy_location(ast.Subscript(ast.Name(table, ast.Load()), node.args[0], ast.Load()), node)
        if isinstance(node.func, ast.Name) and node.func.id == "rule" and len(node.args) == 1:
            name = _literal_text(self.fn, node, "rule")
            if name not in SLOTS:
                raise ProcedureError(f"{self.fn.where(node)}: '{name}' is not a rule of the schema")
            node.args += [ast.Name(param_name(dotted), ast.Load()) for dotted in CONTEXTS[SLOTS[name].context]]
        return node


class Lowering:
    """The lowered functions of one ruleset for one back end (each worked out once)."""

    def __init__(self, rs: Ruleset | None, target: Target):
        self.rs, self.target, self.form = rs, target, form()      # (no ruleset: ``Target.fold`` false)
        self.expander = expander(target.inline, target.external)
        self._done: dict[tuple, ast.FunctionDef] = {}
        self.reads_used: set[tuple[str, str]] = set()    # the ``reads`` left as names (``Target.fold`` false)

    @property
    def folded(self) -> Ruleset:
        """The ruleset whose values the lowering folds in (``Target.fold``)."""
        if self.rs is None:
            raise ProcedureError("a lowering made for every ruleset (no ruleset) cannot fold a rule's value in")
        return self.rs

    def function(self, name: str, values: dict[str, object] | None = None) -> ast.FunctionDef:
        """Function ``name`` lowered (a copy the caller may change); with ``values``, those parameters are
        constants (and gone from its parameters), the branches they rule out folded away."""
        key = (name, tuple(sorted((values or {}).items())))
        if key not in self._done:
            self._done[key] = self._lower(name, values or {})
        return copy_tree(self._done[key])

    def _lower(self, name: str, values: dict[str, object]) -> ast.FunctionDef:
        fn = self.form.functions[name]
        node = copy_tree(self.expander.function(name))
        body = node.body
        if values:
            constants: dict[str, ast.expr] = {k: _constant(v) for k, v in values.items()}
            body = _Substitute(constants).visit(ast.Module(body, [])).body
            node.args.args = [a for a in node.args.args if a.arg not in values]
        body = [_Holes(self, fn).visit(stmt) for stmt in body]
        if not self.target.explains:
            body = _drop_notes(body, fn.notes, self.form.functions)
            node.args.args = [a for a in node.args.args if a.arg not in fn.notes]
        node.body = _propagate(_fold_block(body), {a.arg for a in node.args.args}) or [ast.Pass()]
        for arg in node.args.args:
            arg.annotation = None
        node.returns = None
        return node         # (no locations filled in: every back end writes it out as text)

    def callees(self, name: str) -> list[str]:
        """The functions ``name`` calls once expanded (inline ones written in), in call order, without repeats."""
        return self.expander.callees(name)

    def reads_of(self, name: str) -> tuple[str, ...]:
        """The rules function ``name`` reads (its own holes and those of the functions written into it)."""
        return self.expander.reads_of(name)

    def reachable(self, entries: tuple[str, ...]) -> list[str]:
        """``entries`` and every function they call, callees first."""
        order: list[str] = []

        def visit(name: str) -> None:
            if name in order:
                return
            for callee in self.callees(name):
                visit(callee)
            order.append(name)
        for entry in entries:
            visit(entry)
        return order

    def rule_expr(self, fn: Function, call: ast.Call) -> ast.expr:
        """``rule("x.y", ...)``: a parameter's constant, or the back end's expression over the arguments."""
        name = _literal_text(fn, call, "rule")
        context = SLOTS[name].context
        if context == "param":
            if self.target.fold:
                return ast.Constant(self.folded.params[name])
            return ast.Name(param_global(name), ast.Load())
        kinds = CONTEXTS[context].values()
        args = [self.target.kind_arg(value) if kind == "bid kind" else value
                for value, kind in zip(call.args[1:], kinds)]
        return self.target.rule(self.rs, name, context, args)

    def reads(self, fn: Function, call: ast.Call) -> ast.expr:
        name = _literal_text(fn, call, "reads")
        context_name = _literal_text(fn, call, "reads", 1)
        if not self.target.fold:
            self.reads_used.add((name, context_name))
            return ast.Name(reads_global(name, context_name), ast.Load())
        return ast.Constant(context_name in self.folded.rules[name].names)

    def permits_hand(self, fn: Function, call: ast.Call) -> ast.expr:
        """``permits_hand("x.y")``: whether the play constraint's text is ``hand`` (false in code made for every
        ruleset: the narrowing it guards is then done, to the same effect)."""
        name = _literal_text(fn, call, "permits_hand")
        if SLOTS[name].context != "play":
            raise ProcedureError(f"{fn.where(call)}: permits_hand() takes a play constraint, not {name}")
        return ast.Constant(self.target.fold and asked_of(self.folded.rules[name])[1])


def asked_of(rule: Rule) -> tuple[tuple[str, ...], bool]:
    """What the form's holes ask of a rule that is not a parameter, besides what the back end makes of its
    expression: the context names it reads (``reads``) and, for a play constraint, whether it is written as
    ``hand`` (``permits_hand``)."""
    return tuple(sorted(rule.names)), rule.slot.context == "play" and rule.text.strip() == "hand"


def param_global(name: str) -> str:
    """The name of a parameter rule's value in code made for every ruleset (``Target.fold`` false)."""
    return "P_" + name.replace(".", "__")


def reads_global(name: str, context_name: str) -> str:
    """The name of ``reads(name, context_name)`` in code made for every ruleset."""
    return f"READS_{name.replace('.', '__')}__{context_name.replace('.', '__')}"


def _literal_text(fn: Function, call: ast.Call, what: str, index: int = 0) -> str:
    """Argument ``index`` of ``call``: a text written out (a rule's name; ``reads``' context name)."""
    arg = call.args[index] if len(call.args) > index else None
    if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
        raise ProcedureError(f"{fn.where(call)}: {what}() takes a {'rule' if index == 0 else 'context'}'s name "
                             f"as written text")
    return arg.value


class _Calls(ast.NodeTransformer):
    """Inline calls of one statement written before it (a call in a lazy place is refused)."""

    def __init__(self, expander: _Expander, fn: Function, before: list[ast.stmt]):
        self.expander, self.fn, self.before = expander, fn, before

    def visit_If(self, node: ast.If) -> ast.If:
        node.test = self.visit(node.test)
        return node

    def visit_For(self, node: ast.For) -> ast.For:
        node.iter = self.visit(node.iter)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.BoolOp:
        self._lazy(node)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.IfExp:
        self._lazy(node)
        return node

    def _lazy(self, node: ast.expr) -> None:
        """In a lazy place (``and``, ``or``, if-else) only an inline function that is one expression is written
        in (where it stands, evaluated as lazily as the call was)."""
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and self._is_inline(sub.func.id) \
                    and not self.expander.is_expression(sub.func.id):
                raise ProcedureError(f"{self.fn.where(sub)}: an inline call in a lazy place (and, or, if-else)")
        _ExpressionCalls(self.expander, self.fn).visit(node)

    def _is_inline(self, name: str) -> bool:
        return self.expander.inlines(name)

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)         # (in place)
        if isinstance(node.func, ast.Name) and self._is_inline(node.func.id):
            return self.expander.inlined(self.fn, node, self.before)
        return node


class _ExpressionCalls(ast.NodeTransformer):
    """Calls of inline functions that are one expression, written in where they stand."""

    def __init__(self, expander: _Expander, fn: Function):
        self.expander, self.fn = expander, fn

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)         # (in place)
        if isinstance(node.func, ast.Name) and self.expander.inlines(node.func.id) \
                and self.expander.is_expression(node.func.id):
            before: list[ast.stmt] = []
            result = self.expander.inlined(self.fn, node, before, in_place=True)
            if before:
                raise ProcedureError(f"{self.fn.where(node)}: {node.func.id} cannot be written in where it stands")
            return result
        return node


class _Substitute(ast.NodeTransformer):
    """Names replaced at once by expressions (``stores``: assigned ones too, by the name they stand for)."""

    def __init__(self, values: dict[str, ast.expr], stores: bool = False):
        self.values, self.stores = values, stores

    def visit_Name(self, node: ast.Name) -> ast.expr:
        value = self.values.get(node.id)
        if value is None:
            return node
        if isinstance(node.ctx, ast.Load):
            return ast.copy_location(copy_tree(value), node)
        if self.stores and isinstance(value, ast.Name):
            return ast.copy_location(ast.Name(value.id, node.ctx), node)
        return node


class _Holes(ast.NodeTransformer):
    """``rule``, ``reads`` and the module constants filled in."""

    def __init__(self, lowering: Lowering, fn: Function):
        self.lowering, self.fn = lowering, fn

    def visit_Call(self, node: ast.Call) -> ast.expr:
        func = node.func.id if isinstance(node.func, ast.Name) else None
        if func == "rule":
            return ast.copy_location(self.lowering.rule_expr(self.fn, node), node)
        if func == "reads":
            return ast.copy_location(self.lowering.reads(self.fn, node), node)
        if func == "permits_hand":
            return ast.copy_location(self.lowering.permits_hand(self.fn, node), node)
        if func == "note":        # its first argument (the kind) stays text
            node.args[1:] = [self.visit(a) for a in node.args[1:]]
            node.keywords = [self.visit(k) for k in node.keywords]
            return node
        self.generic_visit(node)
        return node

    def visit_Name(self, node: ast.Name) -> ast.expr:
        constants = self.lowering.form.constants
        if isinstance(node.ctx, ast.Load) and node.id in constants and node.id not in self.fn.params:
            return ast.copy_location(_constant(constants[node.id]), node)
        return node


def _is_note(stmt: ast.stmt) -> bool:
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "note")


def _drop_notes(body: list[ast.stmt], notes: frozenset[str], functions: dict[str, Function]) -> list[ast.stmt]:
    """``body`` without its notes, the ``Note`` arguments of calls, and blocks left empty."""
    noted = {name: fn for name, fn in functions.items() if fn.notes and not fn.inline}
    out = []
    for stmt in body:
        if _is_note(stmt) or not _drop_block_notes(stmt, notes, functions):
            continue
        if noted:
            _drop_note_arguments(stmt, noted)
        out.append(stmt)
    return out


def _drop_block_notes(stmt: ast.stmt, notes: frozenset[str], functions: dict[str, Function]) -> bool:
    """An ``if`` or ``for`` without its notes; whether anything of it is left."""
    if not isinstance(stmt, (ast.If, ast.For)):
        return True
    stmt.body = _drop_notes(stmt.body, notes, functions)
    stmt.orelse = _drop_notes(stmt.orelse, notes, functions)
    left = bool(stmt.body or stmt.orelse)
    stmt.body = stmt.body or [ast.Pass()]
    return left


def _drop_note_arguments(stmt: ast.stmt, noted: dict[str, Function]) -> None:
    """The ``Note`` arguments of ``stmt``'s calls of the functions in ``noted`` left out."""
    for node in ast.walk(stmt):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in noted:
            callee = noted[node.func.id]
            node.args = [a for p, a in zip(callee.params, node.args) if p not in callee.notes]


# --------------------------------------------------------------------------- constant folding
_COMPARE = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
            ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}
_BINARY = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.BitAnd: lambda a, b: a & b, ast.BitOr: lambda a, b: a | b,
           ast.FloorDiv: lambda a, b: a // b if b else None, ast.Mod: lambda a, b: a % b if b else None}


class _Fold(ast.NodeTransformer):
    """Expressions of constants worked out (comparisons, ``and``/``or``/``not``, ``x if c else y``)."""

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)         # (in place)
        if len(node.ops) == 1 and type(node.ops[0]) in _COMPARE and _const(node.left) and _const(node.comparators[0]):
            return ast.Constant(_COMPARE[type(node.ops[0])](node.left.value, node.comparators[0].value))
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)         # (in place)
        if type(node.op) in _BINARY and _const(node.left) and _const(node.right) \
                and all(type(v.value) in (int, bool) for v in (node.left, node.right)):
            value = _BINARY[type(node.op)](node.left.value, node.right.value)
            return node if value is None else ast.Constant(value)    # (no division by zero worked out)
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        self.generic_visit(node)         # (in place)
        if isinstance(node.op, ast.Not) and _const(node.operand):
            return ast.Constant(not node.operand.value)
        if isinstance(node.op, ast.USub) and _const(node.operand) and type(node.operand.value) is int:
            return ast.Constant(-node.operand.value)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        self.generic_visit(node)         # (in place)
        is_and = isinstance(node.op, ast.And)
        kept = []
        for value in node.values:
            if _const(value) and type(value.value) is bool:
                if value.value != is_and:          # False in an 'and', True in an 'or' decides it
                    return ast.Constant(value.value)
                continue                            # True in an 'and', False in an 'or' changes nothing
            kept.append(value)
        if not kept:
            return ast.Constant(is_and)
        return kept[0] if len(kept) == 1 else ast.BoolOp(node.op, kept)

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        self.generic_visit(node)         # (in place)
        if _const(node.test):
            return node.body if node.test.value else node.orelse
        return node


def _constant(value: object) -> ast.Constant:
    """A value of the form (a number, a text, a tuple of them) as a constant of the code."""
    return ast.Constant(value)  # type: ignore[arg-type]  # a tuple of constants is one too; the stubs name scalars


def _const(node: ast.expr) -> TypeGuard[ast.Constant]:
    return isinstance(node, ast.Constant) and node.value is not None


def _fold_block(body: list[ast.stmt]) -> list[ast.stmt]:
    """``body`` folded: an ``if`` on a constant is its taken branch, one with nothing left in either branch is
    gone (its test reads values, it changes none), a loop over nothing is gone."""
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.If):
            out.extend(_fold_if(stmt))
        elif isinstance(stmt, ast.For):
            out.extend(_fold_for(stmt))
        elif not isinstance(stmt, ast.Pass):
            out.append(_Fold().visit(stmt))
    return out


def _fold_if(stmt: ast.If) -> list[ast.stmt]:
    """An ``if`` folded: its taken branch where its test is a constant, nothing where both branches are empty."""
    stmt.test = _Fold().visit(stmt.test)
    if _const(stmt.test):
        return _fold_block(stmt.body if stmt.test.value else stmt.orelse)
    stmt.body, stmt.orelse = _fold_block(stmt.body), _fold_block(stmt.orelse)
    if not stmt.body and not stmt.orelse:
        return []
    if not stmt.body:
        stmt.test, stmt.body, stmt.orelse = ast.UnaryOp(ast.Not(), stmt.test), stmt.orelse, []
    return [stmt]


def _fold_for(stmt: ast.For) -> list[ast.stmt]:
    """A loop folded: gone where it runs over a constant empty range."""
    stmt.iter = _Fold().visit(stmt.iter)
    stmt.body = _fold_block(stmt.body) or [ast.Pass()]
    args = stmt.iter.args if isinstance(stmt.iter, ast.Call) and _called(stmt.iter) == "range" else None
    values = [a.value for a in args if _const(a) and isinstance(a.value, int)] if args is not None else []
    empty = args is not None and len(values) == len(args) and not range(*values)
    return [] if empty else [stmt]


class _Recording(Target):
    """A target that puts a mark of each rule in its place (a name, so nothing folds it away; a parameter
    left as its name too)."""

    def __init__(self) -> None:
        super().__init__(lambda rs, name, context, args: ast.Name("_rule_" + name.replace(".", "__"), ast.Load()),
                         fold=False)


def rules_asked(rs: Ruleset, name: str, values: dict[str, object]) -> tuple[str, ...]:
    """The rules function ``name`` asks, in the order written, when its parameters ``values`` have those
    values (the branches they rule out left out): e.g. the play constraints of a seat leading a trick."""
    marks = [n for n in names_in(Lowering(rs, _Recording()).function(name, values)) if n.startswith(("_rule_", "P_"))]
    return tuple(dict.fromkeys(mark.split("_", 2)[-1].replace("__", ".") if mark.startswith("_rule_")
                               else mark[2:].replace("__", ".") for mark in marks))


def renamed(node: ast.FunctionDef, names: dict[str, str]) -> ast.FunctionDef:
    """A lowered function with its parameters (and every use of them) renamed by ``names``."""
    node = _Substitute({old: ast.Name(new, ast.Load()) for old, new in names.items()}, stores=True).visit(node)
    for arg in node.args.args:
        arg.arg = names.get(arg.arg, arg.arg)
    return node


def _propagate(body: list[ast.stmt], params: set[str]) -> list[ast.stmt]:
    """Copies and constants put in place (forward, branch by branch), then the assignments no one reads
    dropped: what writing functions into their callers leaves behind; folded again."""
    body = _drop_overwritten(_Forward().block(_split_tuples(body), {}))
    for _ in range(4):          # (each round drops what only the dropped assignments read)
        dropped: list[ast.stmt] = []
        body = _drop_dead(body, read_names(body) | params, dropped)
        if not dropped:
            break
    return _fold_block(body)


def _split_tuples(body: list[ast.stmt]) -> list[ast.stmt]:
    """``a, b = (x, y)`` as ``a = x`` and ``b = y`` where no target is read on the right."""
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, (ast.If, ast.For)):
            stmt.body, stmt.orelse = _split_tuples(stmt.body), _split_tuples(stmt.orelse)
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Tuple)
                and isinstance(stmt.value, ast.Tuple) and len(stmt.value.elts) == len(stmt.targets[0].elts)):
            targets = stmt.targets[0].elts
            stored = {t.id for t in targets if isinstance(t, ast.Name)}
            if all(isinstance(t, ast.Name) for t in targets) and not stored & set(names_in(stmt.value)):
                out.extend(ast.Assign([t], v) for t, v in zip(targets, stmt.value.elts))
                continue
        out.append(stmt)
    return out


def _targets(target: ast.expr) -> set[str]:
    """The names an assignment's target gives a value (a subscript's array keeps its binding)."""
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, ast.Tuple):
        return set().union(*(_targets(t) for t in target.elts))
    return set()


class _Forward:
    """Forward propagation of the values of variables that hold a constant or a copy of a name."""

    def block(self, body: list[ast.stmt], known: dict[str, ast.expr]) -> list[ast.stmt]:
        out = []
        for stmt in body:
            out.append(self.stmt(stmt, known))
        return out

    def stmt(self, stmt: ast.stmt, known: dict[str, ast.expr]) -> ast.stmt:
        if isinstance(stmt, ast.If):
            return self._if(stmt, known)
        if isinstance(stmt, ast.For):
            return self._for(stmt, known)
        for field in ("value", "test"):
            if getattr(stmt, field, None) is not None:
                setattr(stmt, field, self.expr(getattr(stmt, field), known))
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            self._forget(known, {stmt.target.id})
        elif isinstance(stmt, ast.Assign):
            self._assign(stmt, known)
        return stmt

    def _if(self, stmt: ast.If, known: dict[str, ast.expr]) -> ast.stmt:
        """Both branches from what is known before; after, what both leave the same."""
        stmt.test = self.expr(stmt.test, known)
        then, other = dict(known), dict(known)
        stmt.body, stmt.orelse = self.block(stmt.body, then), self.block(stmt.orelse, other)
        known.clear()
        known.update({k: v for k, v in then.items() if k in other and ast.dump(other[k]) == ast.dump(v)})
        return stmt

    def _for(self, stmt: ast.For, known: dict[str, ast.expr]) -> ast.stmt:
        """The body from what no pass of the loop changes."""
        stmt.iter = self.expr(stmt.iter, known)
        changed = _assigned(stmt)
        self._forget(known, changed)
        stmt.body = self.block(stmt.body, dict(known))
        self._forget(known, changed)
        return stmt

    def _assign(self, stmt: ast.Assign, known: dict[str, ast.expr]) -> None:
        """What the assignment's target held is forgotten; a constant or a copy of a name is known after it."""
        for target in stmt.targets:
            if isinstance(target, ast.Subscript):
                target.value = self.expr(target.value, known)
                target.slice = self.expr(target.slice, known)
        (target,) = stmt.targets
        self._forget(known, _targets(target))
        if isinstance(target, ast.Name) and (_const(stmt.value) or isinstance(stmt.value, ast.Name)) \
                and not (isinstance(stmt.value, ast.Name) and stmt.value.id == target.id):
            known[target.id] = stmt.value

    @staticmethod
    def _forget(known: dict[str, ast.expr], names: set[str]) -> None:
        if not known or not names:
            return
        for name in list(known):
            value = known[name]
            if name in names or isinstance(value, ast.Name) and value.id in names:
                del known[name]

    @staticmethod
    def expr(node: ast.expr, known: dict[str, ast.expr]) -> ast.expr:
        return _Fold().visit(_Substitute(known).visit(node)) if known else node


_PURE = (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Tuple, ast.Load,
         ast.operator, ast.unaryop, ast.boolop, ast.cmpop, ast.Subscript)


def _drop_dead(body: list[ast.stmt], read: set[str], dropped: list[ast.stmt]) -> list[ast.stmt]:
    """``body`` without the assignments of names no one reads whose values compute nothing but arithmetic
    (put in ``dropped``)."""
    out = []
    for stmt in body:
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and stmt.targets[0].id not in read and all(isinstance(n, _PURE) for n in ast.walk(stmt.value))):
            dropped.append(stmt)
            continue
        if isinstance(stmt, (ast.If, ast.For)):
            stmt.body = _drop_dead(stmt.body, read, dropped) or [ast.Pass()]
            stmt.orelse = _drop_dead(stmt.orelse, read, dropped)
        out.append(stmt)
    return out


def _drop_overwritten(body: list[ast.stmt]) -> list[ast.stmt]:
    """``body`` (and each block in it) without the arithmetic assignments whose value no statement reads before
    a later assignment of the same name in the same block replaces it: a parameter's copy that the function
    written in gives a new value before reading it.  (Backwards through the block: ``replaced`` holds the names
    given a new value further on before anything reads them.)"""
    for stmt in body:
        if isinstance(stmt, (ast.If, ast.For)):
            stmt.body, stmt.orelse = _drop_overwritten(stmt.body) or [ast.Pass()], _drop_overwritten(stmt.orelse)
    replaced: set[str] = set()
    kept: list[ast.stmt] = []
    for stmt in reversed(body):
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and stmt.targets[0].id in replaced and all(isinstance(n, _PURE) for n in ast.walk(stmt.value))):
            continue
        given = set().union(*(_targets(t) for t in stmt.targets)) if isinstance(stmt, ast.Assign) else set()
        read = read_names([stmt]) | (_targets(stmt.target) if isinstance(stmt, ast.AugAssign) else set())
        replaced = (replaced | given) - read
        kept.append(stmt)
    return kept[::-1]


def names_in(node: ast.AST) -> Iterator[str]:
    """Every name read in ``node`` (in ``ast.walk``'s order)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
            yield sub.id


def read_names(body: list[ast.stmt]) -> set[str]:
    """The names read in ``body`` (``names_in`` as a set, by a walk without ``ast.walk``'s generators: the
    lowering asks it of every function several times)."""
    out: set[str] = set()
    stack: list = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                out.add(node.id)
            continue
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                stack.extend(item for item in value if isinstance(item, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append(value)
    return out
