"""The array back end: the lowered form's functions on numpy arrays, one row per hand, every row at one step.

Each function of the form is written for many hands at once (``ArrayModule``): a value the same for every
row (a parameter annotated ``Same``, a loop's counter, a constant, what is made of them only) stays a Python
value and an ``if`` on it stays an ``if``; every other value is an array with a row per hand, and an ``if``
on one is a mask (each assignment in it keeps the old value where the mask is false, ``np.where``; a
block that calls anything is skipped when no row takes it).  An array of the form is stored with the hands
as its last axis: ``x[i]`` for an ``i`` the same in every row is a row of values, one per hand; for an ``i``
that differs by row it is read and written at flat positions (``_get``, ``_set``); a card table stays one
table.  A loop must run alike for every
row.  A ``@distinct`` function is worked out once per distinct row of the arguments it reads.  Each rule is
its array function (``vector.vector_rules``), given only the context values it reads.  ``fail`` raises
when any row fails.

Bad constructs (a loop over values that differ by row, a return inside a masked block) are refused with
``ProcedureError`` when the module is made, never run.
"""
from __future__ import annotations

import ast
import collections
import functools
import hashlib
import itertools
import threading
from collections.abc import Callable
from types import CodeType

import numpy as np

from ..core import derived
from ..core.schema import BID_KINDS, CONTEXTS
from ..errors import DeadEndError, GameError, ProcedureError
from ..model.ruleset import Ruleset, per_ruleset
from ..procedure import lang
from ..procedure.form import Lowering, Target, asked_of, form, read_names
from .vector import vector_rules

_TABLES = frozenset({"_SUIT", "_SM", "_POW", "_PLACE", "_KIND_NAME"})


def rule_global(name: str) -> str:
    return "V_" + name.replace(".", "__")


class _Rules:
    """The array target's rules: a call of the rule's array function with the context values it reads."""

    def __init__(self, rs: Ruleset):
        self.rs = rs

    def expr(self, rs: Ruleset, name: str, context: str, args: list[ast.expr]) -> ast.expr:
        reads = rs.rules[name].names
        given = [arg if dotted in reads else ast.Constant(0) for dotted, arg in zip(CONTEXTS[context], args)]
        return ast.Call(ast.Name(rule_global(name), ast.Load()), given, [])


def _kind_name(value: ast.expr) -> ast.expr:
    return ast.Subscript(ast.Name("_KIND_NAME", ast.Load()), value, ast.Load())


class _Vectorize:
    """One lowered function written for arrays (see the module's text)."""

    def __init__(self, node: ast.FunctionDef, same: frozenset[str], functions: frozenset[str]):
        self.node, self.functions = node, functions
        self.params = [a.arg for a in node.args.args]
        self.arrays = {n.value.id for n in ast.walk(node) if isinstance(n, ast.Subscript)
                       and isinstance(n.value, ast.Name) and n.value.id not in _TABLES}
        self.perrow = (set(self.params) - set(same)) | self.arrays
        stores = collections.Counter(n.id for n in ast.walk(node) if isinstance(n, ast.Name)
                                     and isinstance(n.ctx, ast.Store))
        self._once = {name for name, count in stores.items() if count == 1} - set(self.params)
        self._analyse()
        self.defined: set[str] = set(self.params)
        self._masks = itertools.count(1)

    # ----------------------------------------------------------------- which values differ by row
    def _analyse(self) -> None:
        while True:
            before = len(self.perrow)
            self._mark(self.node.body, False)
            if len(self.perrow) == before:
                return

    def _mark(self, body: list[ast.stmt], masked: bool) -> None:
        """The names ``body`` gives a value that may differ by row (``masked``: it runs for some rows only)."""
        for stmt in body:
            if isinstance(stmt, ast.If):
                inner = masked or not self.same(stmt.test)
                self._mark(stmt.body, inner)
                self._mark(stmt.orelse, inner)
            elif isinstance(stmt, ast.For):
                if not self.same(stmt.iter):
                    self.perrow.add(stmt.target.id)
                self._mark(stmt.body, masked)
            elif isinstance(stmt, (ast.Assign, ast.AugAssign)):
                self._mark_assign(stmt, masked)

    def _mark_assign(self, stmt: ast.Assign | ast.AugAssign, masked: bool) -> None:
        """(A name given its only value, one for every row, stays one value where only some rows reach it: it is
        given in every row, see ``if_``.)"""
        for target in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]):
            once = isinstance(target, ast.Name) and target.id in self._once
            if masked and not once or not self.same(stmt.value) or isinstance(target, ast.Tuple):
                self.perrow.update(t.id for t in ast.walk(target) if isinstance(t, ast.Name)
                                   and isinstance(t.ctx, ast.Store))

    def same(self, node: ast.expr) -> bool:
        """Whether ``node`` has one value for every row."""
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and sub.id in self.perrow:
                return False
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and (
                    sub.func.id in self.functions or sub.func.id.startswith("choose_") or sub.func.id == "zeros"):
                return False
        return True

    # ----------------------------------------------------------------- writing it
    def run(self) -> ast.FunctionDef:
        node = self.node
        node.body = self.block(node.body, None) or [ast.Pass()]
        node.args.args.insert(0, ast.arg("_R"))
        return ast.fix_missing_locations(node)

    def block(self, body: list[ast.stmt], mask: str | None) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            out.extend(self.stmt(stmt, mask))
        return out

    def stmt(self, stmt: ast.stmt, mask: str | None) -> list[ast.stmt]:
        """A statement in array terms, under ``mask`` (the name of the rows it runs for; None: every row)."""
        if isinstance(stmt, ast.AugAssign):
            stmt = ast.Assign([stmt.target], ast.BinOp(_as_load(stmt.target), stmt.op, stmt.value))
        if isinstance(stmt, ast.Assign):
            return self.assign(stmt.targets[0], self.expr(stmt.value), mask)
        if isinstance(stmt, ast.If):
            return self.if_(stmt, mask)
        if isinstance(stmt, ast.For):
            return self._for(stmt, mask)
        if isinstance(stmt, ast.Return):
            if mask is not None:
                raise ProcedureError(f"{self.node.name}: a return where only some hands are")
            return [ast.Return(self.expr(stmt.value))]
        if isinstance(stmt, ast.Expr):
            return self._call_stmt(stmt, mask)
        if isinstance(stmt, ast.Pass):
            return []
        raise ProcedureError(f"{self.node.name}: {type(stmt).__name__} has no array form")

    def _for(self, stmt: ast.For, mask: str | None) -> list[ast.stmt]:
        if not self.same(stmt.iter):
            raise ProcedureError(f"{self.node.name}: a loop over values that differ from hand to hand")
        self.defined.add(stmt.target.id)
        return [ast.For(stmt.target, self.expr(stmt.iter), self.block(stmt.body, mask) or [ast.Pass()], [])]

    def _call_stmt(self, stmt: ast.Expr, mask: str | None) -> list[ast.stmt]:
        """A call for its effect: ``fail`` for the rows of ``mask``; any other only where every row is."""
        if isinstance(stmt.value, ast.Call) and _called(stmt.value) == "fail":
            args = [ast.Name(mask, ast.Load()) if mask else ast.Constant(True), *map(self.expr, stmt.value.args)]
            return [ast.Expr(ast.Call(ast.Name("_fail", ast.Load()), args, []))]
        if mask is not None:
            raise ProcedureError(f"{self.node.name}: a call for its effect where only some hands are")
        return [ast.Expr(self.expr(stmt.value))]

    def assign(self, target: ast.expr, value: ast.expr, mask: str | None) -> list[ast.stmt]:
        if isinstance(target, ast.Tuple):
            if mask is None and not any(self.row_index(t) for t in target.elts):
                self.defined.update(t.id for t in target.elts if isinstance(t, ast.Name))
                return [ast.Assign([ast.Tuple([self.store(t) for t in target.elts], ast.Store())], value)]
            held = f"_t{next(self._masks)}"
            out: list[ast.stmt] = [ast.Assign([ast.Name(held, ast.Store())], value)]
            for i, element in enumerate(target.elts):
                part = ast.Subscript(ast.Name(held, ast.Load()), ast.Constant(i), ast.Load())
                out.extend(self.assign(element, part, mask))
            return out
        if isinstance(target, ast.Name):
            if mask is not None and target.id in self.defined:
                value = _call("_where", ast.Name(mask, ast.Load()), value, ast.Name(target.id, ast.Load()))
            self.defined.add(target.id)
            return [ast.Assign([ast.Name(target.id, ast.Store())], value)]
        row_index = self.row_index(target)
        if row_index is not None:                 # x[rows, i] = v: put by flat offsets
            base, index = row_index
            if mask is not None:
                value = _call("_where", ast.Name(mask, ast.Load()), value, self.expr(target))
            return [ast.Expr(_call("_set", base, ast.Name("_R", ast.Load()), value, *index))]
        stored = self.store(target)
        if mask is not None:
            value = _call("_where", ast.Name(mask, ast.Load()), value, _as_load(stored))
        return [ast.Assign([stored], value)]

    def if_(self, stmt: ast.If, mask: str | None) -> list[ast.stmt]:
        test = self.expr(stmt.test)
        if self.same(stmt.test):
            return [ast.If(test, self.block(stmt.body, mask) or [ast.Pass()], self.block(stmt.orelse, mask))]
        out: list[ast.stmt] = []
        if stmt.orelse:       # the test once, before the body changes what it reads (the else takes the other rows)
            held = f"_m{next(self._masks)}"
            out.append(ast.Assign([ast.Name(held, ast.Store())], test))
            test = ast.Name(held, ast.Load())
        for branch, cond in ((stmt.body, test), (stmt.orelse, _call("_not", test))):
            if not branch:
                continue
            name = f"_m{next(self._masks)}"
            value = _call("_and", ast.Name(mask, ast.Load()), cond) if mask else cond
            out.append(ast.Assign([ast.Name(name, ast.Store())], value))
            first = _stored(branch) - self.defined
            inner = self.block(branch, name) or [ast.Pass()]
            if first or not _calls(branch):     # a name first given here is given in every row; a block of
                out.extend(inner)                # plain arithmetic costs less than asking whether to skip it
            else:
                out.append(ast.If(_call("_any", ast.Name(name, ast.Load())), inner, []))
        return out

    def store(self, target: ast.expr) -> ast.expr:
        """An assignment's target in array terms (see ``subscript``)."""
        if isinstance(target, ast.Subscript):
            return self.subscript(target, ast.Store())
        return target

    def subscript(self, node: ast.Subscript, ctx) -> ast.expr:
        base = node.value
        index = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if isinstance(base, ast.Name) and base.id in _TABLES:
            return ast.Subscript(base, self.expr(node.slice), ctx)
        if all(self.same(i) for i in index):      # (the rows are the last axis: x[i] is a row of values)
            return ast.Subscript(self.expr(base), self.expr(node.slice), ctx)
        return _call("_get", self.expr(base), ast.Name("_R", ast.Load()), *map(self.expr, index))

    def row_index(self, node: ast.expr) -> tuple[ast.expr, list[ast.expr]] | None:
        """An array with a row per hand indexed by values that differ by row: its array and index."""
        if not isinstance(node, ast.Subscript) or isinstance(node.value, ast.Name) and node.value.id in _TABLES:
            return None
        index = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if all(self.same(i) for i in index):
            return None
        return self.expr(node.value), [self.expr(i) for i in index]

    def expr(self, node: ast.expr) -> ast.expr:
        """An expression in array terms: an operation on values that differ by row as a numpy function."""
        if isinstance(node, ast.Subscript):
            return self.subscript(node, ast.Load())
        if isinstance(node, ast.Call):
            return self.call(node)
        writer = self._EXPRESSIONS.get(type(node))
        return writer(self, node) if writer else node

    def _bool_op(self, node: ast.BoolOp) -> ast.expr:
        values = [self.expr(v) for v in node.values]
        if all(self.same(v) for v in node.values):
            return ast.BoolOp(node.op, values)
        name = "_and" if isinstance(node.op, ast.And) else "_or"
        result = values[0]
        for value in values[1:]:
            result = _call(name, result, value)
        return result

    def _unary_op(self, node: ast.UnaryOp) -> ast.expr:
        operand = self.expr(node.operand)
        if isinstance(node.op, ast.Not) and not self.same(node.operand):
            return _call("_not", operand)
        return ast.UnaryOp(node.op, operand)

    def _if_exp(self, node: ast.IfExp) -> ast.expr:
        parts = [self.expr(node.test), self.expr(node.body), self.expr(node.orelse)]
        return ast.IfExp(*parts) if self.same(node.test) else _call("_where", *parts)

    def _bin_op(self, node: ast.BinOp) -> ast.expr:
        if isinstance(node.op, (ast.Mod, ast.FloorDiv)) and not self.same(node) \
                and isinstance(node.right, ast.Constant) and type(node.right.value) is int and node.right.value > 0:
            return _by_constant(self.expr(node.left), node.op, node.right.value)
        return ast.BinOp(self.expr(node.left), node.op, self.expr(node.right))

    def _compare(self, node: ast.Compare) -> ast.expr:
        return ast.Compare(self.expr(node.left), list(node.ops), [self.expr(c) for c in node.comparators])

    def _tuple(self, node: ast.Tuple) -> ast.expr:
        return ast.Tuple([self.expr(e) for e in node.elts], node.ctx)

    _EXPRESSIONS: dict[type, Callable[[_Vectorize, ast.expr], ast.expr]] = {
        ast.BoolOp: _bool_op, ast.UnaryOp: _unary_op, ast.IfExp: _if_exp, ast.BinOp: _bin_op,
        ast.Compare: _compare, ast.Tuple: _tuple}

    def call(self, node: ast.Call) -> ast.expr:
        name = _called(node)
        args = [self.expr(a) for a in node.args]
        if name in ("min", "max"):
            if all(self.same(a) for a in node.args):
                return ast.Call(node.func, args, [])
            return _call("_" + name, *args)
        if name == "zeros":
            return _call("_zeros", ast.Name("_R", ast.Load()), *args)
        if name == "popcount":
            return _call("_cnt", *args)
        if name in self.functions or name.startswith("choose_"):
            callee = name if name in self.functions else "_" + name
            return _call(callee, ast.Name("_R", ast.Load()), *args)
        return ast.Call(node.func, args, [])


def _flat_offsets(x: np.ndarray, rows: np.ndarray, index: tuple) -> np.ndarray:
    """The flat positions of ``x[*index, rows]`` in ``x`` (C-ordered, the rows its last axis)."""
    offsets = rows
    for k, i in enumerate(index):
        step = x.strides[k] // x.itemsize
        if isinstance(i, np.ndarray) and i.dtype != np.int64:     # (a small type would overflow)
            i = i.astype(np.int64)
        offsets = offsets + (i if step == 1 else i * step)
    return offsets


def _get(x: np.ndarray, rows: np.ndarray, *index) -> np.ndarray:
    """``x[*index, rows]`` for an index that differs by row, one value per row (by flat positions)."""
    if not x.flags.c_contiguous:
        return x[(*index, rows)]
    return np.take(x.reshape(-1), _flat_offsets(x, rows, index))


def _set(x: np.ndarray, rows: np.ndarray, value, *index) -> None:
    """``x[*index, rows] = value``."""
    if not x.flags.c_contiguous:
        x[(*index, rows)] = value
    else:
        np.put(x.reshape(-1), _flat_offsets(x, rows, index), value)


def _by_constant(left: ast.expr, op: ast.operator, divisor: int) -> ast.expr:
    """``left % divisor`` or ``left // divisor`` without numpy's integer division (several times slower than the
    rest of a step): a mask or a shift for a power of two (the same floor semantics for negative values in two's
    complement), else ``left - (left // divisor) * divisor``."""
    if divisor & (divisor - 1) == 0:
        if isinstance(op, ast.Mod):
            return ast.BinOp(left, ast.BitAnd(), ast.Constant(divisor - 1))
        return ast.BinOp(left, ast.RShift(), ast.Constant(divisor.bit_length() - 1))
    if isinstance(op, ast.FloorDiv):
        return ast.BinOp(left, op, ast.Constant(divisor))
    quotient = ast.BinOp(left, ast.FloorDiv(), ast.Constant(divisor))
    return ast.BinOp(left, ast.Sub(), ast.BinOp(quotient, ast.Mult(), ast.Constant(divisor)))


def _called(node: ast.Call) -> str:
    return node.func.id if isinstance(node.func, ast.Name) else ""


def _call(name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(ast.Name(name, ast.Load()), list(args), [])


def _as_load(node: ast.expr) -> ast.expr:
    if isinstance(node, ast.Subscript):
        return ast.Subscript(node.value, node.slice, ast.Load())
    if isinstance(node, ast.Name):
        return ast.Name(node.id, ast.Load())
    return node


def _calls(body: list[ast.stmt]) -> bool:
    """Whether a block calls anything (a rule, a function, a player's choice): worth skipping when no row is in it."""
    return any(isinstance(n, ast.Call) for n in ast.walk(ast.Module(body, [])))


def _stored(body: list[ast.stmt]) -> set[str]:
    return {n.id for n in ast.walk(ast.Module(body, [])) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _written(node: ast.FunctionDef) -> set[str]:
    """The parameters a function writes into (``x[i] = ...``)."""
    return {n.value.id for n in ast.walk(node) if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store)
            and isinstance(n.value, ast.Name)}


# --------------------------------------------------------------------------- the helpers
def distinct_rows(columns: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The first row of each distinct combination of ``columns`` and, per row, its combination's number (the
    columns as digits of one key where their ranges allow it, else numbered one by one)."""
    n = len(columns[0]) if columns else 0
    key = np.zeros(n, dtype=np.int64)
    span = 1
    for column in columns:
        column = column.astype(np.int64, copy=False)
        low, high = int(column.min(initial=0)), int(column.max(initial=0))
        width = high - low + 1
        if span * width < 1 << 62:
            key = key + (column - low) * span
            span *= width
        else:       # renumber the key so far, then add the column's codes
            _, key = np.unique(key, return_inverse=True)
            _, codes = np.unique(column, return_inverse=True)
            span = int(key.max(initial=0)) + 1
            key = key + codes.reshape(-1) * span
            span *= int(codes.max(initial=0)) + 1
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


MEMO_ROWS = 256        # a call with more distinct rows than this is worked out without the memo
MEMO_LIMIT = 4096      # rows a distinct function remembers (then it forgets them all and starts again)


def _once_per_distinct_row(rows_fn: Callable, live: tuple[int, ...], written: tuple[int, ...]) -> Callable:
    """``rows_fn`` worked out once per distinct row of its ``live`` arguments (``written``: the arrays it fills),
    each row's answer remembered from call to call (the function is pure: ``@distinct``) while a call has few
    distinct rows."""
    memo: dict[tuple, tuple] = {}

    def call(_R, *args):
        n = len(_R)
        varied = [i for i in live if np.ndim(args[i]) > 0 and n > 1 and (args[i] != args[i][..., :1]).any()]
        if not varied:
            first, inverse = np.zeros(min(n, 1), dtype=np.int64), np.zeros(n, dtype=np.int64)
        else:
            first, inverse = distinct_rows([c for i in varied for c in np.asarray(args[i]).reshape(-1, n)])
        if len(first) == n:
            return rows_fn(_R, *args)
        if len(first) > MEMO_ROWS:
            return _per_distinct(rows_fn, args, live, written, first, inverse)
        answers = _remembered(memo, rows_fn, args, live, written, first)
        for i in written:
            args[i][...] = np.stack([a[0][written.index(i)] for a in answers], axis=-1)[..., inverse]
        result = answers[0][1]
        if isinstance(result, tuple):
            return tuple(np.asarray([a[1][k] for a in answers])[inverse] for k in range(len(result)))
        return np.asarray([a[1] for a in answers])[inverse]
    return call


def _remembered(memo: dict[tuple, tuple], rows_fn: Callable, args: tuple, live: tuple[int, ...],
                written: tuple[int, ...], first: np.ndarray) -> list[tuple]:
    """Each distinct row's answer (the rows ``first`` picks): (what it writes in each ``written`` array, its
    result: one value per row), from ``memo`` or worked out for the rows not in it (and remembered)."""
    keys = [tuple(_row_value(args[i], j) for i in live) for j in first.tolist()]
    found = {k: memo.get(key) for k, key in enumerate(keys)}      # (read once: another thread may clear it)
    missing = [k for k, answer in found.items() if answer is None]
    if missing:
        answers = _answers(rows_fn, _rows_of(args, live, written, first[missing]), written, len(missing))
        if len(memo) + len(missing) > MEMO_LIMIT:
            memo.clear()
        for k, answer in zip(missing, answers):
            found[k] = memo[keys[k]] = answer
    return [found[k] for k in range(len(keys))]


def _answers(rows_fn: Callable, sub: list, written: tuple[int, ...], count: int) -> list[tuple]:
    """``rows_fn`` on ``count`` rows (their arguments ``sub``): each row's (what it wrote, its result)."""
    result = rows_fn(np.arange(count), *sub)
    results = result if isinstance(result, tuple) else (result,)
    if any(np.ndim(r) > 1 for r in results):
        raise ProcedureError("a @distinct function gives one value per row")
    out = []
    for m in range(count):
        values = tuple(_row_value(r, m) for r in results)
        out.append((tuple(sub[i][..., m].copy() for i in written), values if isinstance(result, tuple) else values[0]))
    return out


def _rows_of(args: tuple, live: tuple[int, ...], written: tuple[int, ...], rows: np.ndarray) -> list:
    """The arguments for ``rows`` only: the live arrays' columns, the written arrays new and empty."""
    sub = list(args)
    for i in live:
        if np.ndim(args[i]) > 0:
            sub[i] = np.asarray(args[i])[..., rows]
    for i in written:
        sub[i] = np.zeros((*args[i].shape[:-1], len(rows)), dtype=args[i].dtype)
    return sub


def _row_value(value, row: int):
    """Row ``row`` of an argument or result (a scalar is every row's), as plain values for a key."""
    if np.ndim(value) == 0:
        return value.item() if isinstance(value, np.generic) else value
    column = np.asarray(value)[..., row]
    return column.item() if column.ndim == 0 else tuple(column.reshape(-1).tolist())


def _per_distinct(rows_fn: Callable, args: tuple, live: tuple[int, ...], written: tuple[int, ...],
                  first: np.ndarray, inverse: np.ndarray):
    """``rows_fn`` on the distinct rows ``first`` only, its answers spread to every row by ``inverse``."""
    sub = _rows_of(args, live, written, first)
    result = rows_fn(np.arange(len(first)), *sub)
    for i in written:
        args[i][...] = sub[i][..., inverse]
    if isinstance(result, tuple):
        return tuple(r[inverse] if np.ndim(r) else r for r in result)
    return result[inverse] if np.ndim(result) else result


def _fail_for(rs: Ruleset) -> Callable:
    def fail(mask, code: int, value) -> None:
        if not np.any(mask):
            return
        if code == lang.BAD_WINNER:
            raise GameError(lang.FAILURES[code], "cards", "trick.winner", rs.rules["trick.winner"].cite)
        if code == lang.NO_BID:
            raise DeadEndError(lang.FAILURES[code], "bids")
        raise GameError(lang.FAILURES[code], "events", "renege.mode", rs.rules["renege.mode"].cite)
    return fail


def _env(rs: Ruleset) -> dict:
    return {"__builtins__": {"range": range, "min": min, "max": max, "len": len},
            "_where": np.where, "_and": np.logical_and, "_or": np.logical_or, "_not": np.logical_not,
            "_min": np.minimum, "_max": np.maximum, "_any": np.any,
            "_cnt": lambda mask: np.bitwise_count(np.asarray(mask, dtype=np.int64)).astype(np.int64),
            "_zeros": lambda rows, n: np.zeros((n, len(rows)), dtype=np.int64),
            "_fail": _fail_for(rs), "_KIND_NAME": np.array(BID_KINDS), "_get": _get, "_set": _set,
            "_SUIT": np.asarray(rs.suit_of, dtype=np.int64), "_SM": np.asarray(rs.suit_masks, dtype=np.int64),
            "_POW": np.asarray(rs.power, dtype=np.int64), "_PLACE": np.asarray(rs.places, dtype=np.int64)}


# --------------------------------------------------------------------------- the module
ENTRIES = ("whole_hand", "bid_refusal", "legal_bids", "raise_options", "round_raise_options", "may_raise", "exchange",
           "legal", "forbidding", "legal_forbidding", "play_card", "trick_winner", "winner_place", "renege_transfers",
           "score_team", "game_end", "first_leader", "sensible_bid", "sensible_raise", "sensible_cards",
           "sensible_discard", "sensible_keep", "sensible_card")


class ArrayModule:
    """The array functions of one ruleset (``ENTRIES`` and what they call), each taking the row numbers first;
    a function that makes the players' decisions (itself or through what it calls) takes the choosers it
    needs last (``_choose_card``, ...), and passes them on.  Each entry is lowered when it is first used (with
    what it calls), so that a simulation lowers the whole hand and not the steps a replay uses."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self._env = _env(rs)
        self._env.update({rule_global(name): fn for name, fn in vector_rules(rs).items()})
        self._lock = threading.Lock()
        self._digest = _digest(rs)        # (what a lowering of it is kept on disk under)
        self._tables = tables_digest(rs)     # (what every function's lowering reads of the pack)
        self.choosers: dict[str, list[str]] = {}     # the chooser parameters of each function lowered, in order
        self.unread: dict[str, frozenset[str]] = {}  # the parameters each function lowered never reads
        self._sources: list[str] = []

    # (the form is read, and a lowering made, only where an entry is not found lowered on disk)
    @functools.cached_property
    def _lowering(self) -> Lowering:
        return Lowering(self.rs, Target(_Rules(self.rs).expr, kind_arg=_kind_name))

    @functools.cached_property
    def _names(self) -> frozenset[str]:
        return frozenset(form().functions)

    @functools.cached_property
    def _same(self) -> dict[str, frozenset[str]]:
        return {name: fn.same for name, fn in form().functions.items()}

    @functools.cached_property
    def _distinct(self) -> frozenset[str]:
        return frozenset(name for name, fn in form().functions.items() if fn.distinct)

    def __getattr__(self, name: str) -> Callable:
        """Entry ``name``, lowered now if it is not yet (only the entries are looked up here)."""
        if name not in ENTRIES:
            raise AttributeError(name)
        self.lower((name,))
        return self.__dict__[name]

    @property
    def source(self) -> str:
        """The Python of every entry and what they call (all lowered for it)."""
        self.lower(ENTRIES)
        return "\n\n".join(self._sources) + "\n"

    def lower(self, entries: tuple[str, ...]) -> None:
        """Lower ``entries`` and what they call (those not lowered yet) into the module: worked out once per
        ruleset and kept on disk (``core.derived``: under the package's digest and the ruleset's, ``_digest``),
        but for a ruleset sent with a request (a service's disk is not filled by what clients send)."""
        with self._lock:
            if all(name in self.choosers for name in entries):
                return
            key = f"{self._digest}|{','.join(entries)}|{sorted(self.choosers.items())}"
            names, source, code, choices, distinct, unread = derived.kept(
                "arrays", key, lambda: self._lowered_text(entries), keep=not self.rs.sent)
            env = self._env
            exec(code, env)  # noqa: S102 - the lowered form calling the checked rules (``_lowered_text``)
            for name in names:
                if name in distinct:
                    live, written = distinct[name]
                    env[name] = _once_per_distinct_row(env[name + "__rows"], tuple(live), tuple(written))
                self.__dict__[name] = env[name]
            self._sources.append(source.rstrip("\n"))
            self.choosers.update(choices)
            self.unread.update((name, frozenset(params)) for name, params in unread.items())

    def _lowered_text(self, entries: tuple[str, ...]) -> tuple[list[str], str, CodeType, dict[str, list[str]],
                                                              dict[str, tuple[list, list]], dict[str, list[str]]]:
        """``entries`` and the functions they call not lowered yet, as array Python: their names (callees
        first), the source and its code, the choosers each needs, for each distinct function the positions
        of its parameters that make a row distinct and of those it fills, and the parameters each never reads
        (a caller need not work them out)."""
        names = [name for name in self._lowering.reachable(entries) if name not in self.choosers]
        parsed = ast.parse("\n\n".join(self._vectorized(name) for name in names)).body
        nodes = {name: node for name, node in zip(names, parsed) if isinstance(node, ast.FunctionDef)}
        choices = _choosers(nodes, names, self.choosers)
        distinct: dict[str, tuple[list, list]] = {}
        unread: dict[str, list[str]] = {}
        for name, node in nodes.items():
            _pass_choosers(node, choices)
            unread[name] = _unread(node)
            if name in self._distinct:
                node.name = name + "__rows"
                params = [a.arg for a in node.args.args][1:]        # (after the row numbers)
                written = _written(node)      # (arrays it fills: not part of what makes a row distinct)
                live = read_names(node.body) - written
                distinct[name] = ([i for i, p in enumerate(params) if p in live],
                                  [i for i, p in enumerate(params) if p in written])
        source = "\n\n".join(ast.unparse(nodes[name]) for name in names) + "\n"
        code = compile(source, "<arrays>", "exec")       # (the same code serves every ruleset of one digest)
        return names, source, code, {name: choices[name] for name in names}, distinct, unread

    def _vectorized(self, name: str) -> str:
        """Function ``name`` lowered and written for arrays, as text: kept on disk under the rules it reads (its
        own and those of what is written into it), so a ruleset that differs from a known one in a rule lowers
        again only the functions that read it."""
        key = f"{name}|{self._tables}|{_reads_digest(self.rs, self._lowering.reads_of(name))}"
        return derived.kept("array-function", key, lambda: ast.unparse(
            _Vectorize(self._lowering.function(name), self._same[name], self._names).run()), keep=not self.rs.sent)


def _unread(node: ast.FunctionDef) -> list[str]:
    """The parameters function ``node`` never reads."""
    return sorted({a.arg for a in node.args.args} - read_names(node.body))


def tables_digest(rs: Ruleset) -> str:
    """A digest of the pack and its card tables."""
    return hashlib.sha256(repr((rs.deck, rs.suit_of, rs.power, rs.suit_masks)).encode()).hexdigest()


def _reads_digest(rs: Ruleset, names: tuple[str, ...]) -> str:
    """A digest of what an array lowering reads of rules ``names``: a parameter's value (folded in); of any other
    rule what the form asks of it (``form.asked_of``: the context names it reads, which its call is also made
    of, ``_Rules``), not its text -- its array function is bound per ruleset -- so a house rule that changes a
    rule's value without the names it reads lowers nothing again."""
    digest = hashlib.sha256()
    for name in names:
        rule = rs.rules.get(name)
        read = None if rule is None else repr(rs.params[name]) if rule.slot.context == "param" else repr(asked_of(rule))
        digest.update(f"\0{name}\0{read}".encode())
    return digest.hexdigest()


def _digest(rs: Ruleset) -> str:
    """What the lowering of ``rs`` reads of it: what ``_reads_digest`` takes of every rule, the pack and its card
    tables."""
    return f"{tables_digest(rs)}|{_reads_digest(rs, tuple(rs.rules))}"


def _choosers(nodes: dict[str, ast.FunctionDef], order: list[str], known: dict[str, list[str]]) -> dict[str, list[str]]:
    """The choosers each function needs, itself or through its callees (``order``: callees first; ``known``:
    those of functions lowered before)."""
    needs: dict[str, list[str]] = dict(known)
    for name in order:
        found: set[str] = set()
        for sub in ast.walk(nodes[name]):
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name):
                if sub.func.id.startswith("_choose_"):
                    found.add(sub.func.id)
                found.update(needs.get(sub.func.id, ()))
        needs[name] = sorted(found)
    return needs


def _pass_choosers(node: ast.FunctionDef, needs: dict[str, list[str]]) -> None:
    """The choosers ``node`` needs as its last parameters, and passed to each callee that needs them."""
    node.args.args.extend(ast.arg(name) for name in needs[node.name])
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and needs.get(sub.func.id):
            sub.args.extend(ast.Name(name, ast.Load()) for name in needs[sub.func.id])


array_module: Callable[[Ruleset], ArrayModule] = per_ruleset(ArrayModule)
