"""The Python loop's passes over a lowered function written as Python (``python.loop_source``).

What the other back ends' compilers do for themselves, done here on the syntax tree, each pass keeping what
the function computes: loops over the card ids a mask holds run over its bits (``set_bits``); copies back into
the caller's variables coalesced (``coalesced``); a loop's first iteration peeled where the body tests for
it (``peeled``); short loops written out (``unrolled``); constants folded, branches that cannot be taken
dropped (``folded``); copies within a block made once (``copies``); a value stored and overwritten before
it is read not stored (``overwritten``).  ``optimized`` runs them in that order.
"""
from __future__ import annotations

import ast
import collections
import copy
import operator
from collections.abc import Callable, Sequence
from typing import TypeVar

N = TypeVar("N", bound=ast.AST)


def optimized(node: ast.FunctionDef) -> ast.FunctionDef:
    """``node`` through every pass, in order."""
    return overwritten(copies(folded(unrolled(peeled(coalesced(set_bits(node)))))))


def set_bits(node: N) -> N:
    """``node`` with its loops over a mask's card ids run over the mask's bits (``_SetBits``)."""
    return _SetBits().visit(node)


class _SetBits(ast.NodeTransformer):
    """``for x in range(N): if m >> x & 1 == 1: ...`` (or ``== 0``) as a loop over the set (or clear) bits of
    ``m`` below bit N, lowest first: the same values of ``x`` in the same order, without the ids that fail the
    test (the form's loops over the pack's card ids, which Python would otherwise run through one by one).
    Only where the loop body is that one test, ``m`` reads nothing the body assigns, and ``x`` is read
    nowhere else in the function."""

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        self.reads = [sub.id for sub in ast.walk(node) if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load)]
        self.count = 0
        self.generic_visit(node)
        return node

    def visit_For(self, node: ast.For) -> ast.stmt | list[ast.stmt]:
        self.generic_visit(node)
        found = _bit_test(node)
        if found is None:
            return node
        var, mask, limit, want, body = found
        assigned = {sub.id for stmt in body for sub in ast.walk(stmt)
                    if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store)}
        inside = [sub.id for sub in ast.walk(node) if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load)]
        if ({n.id for n in ast.walk(mask) if isinstance(n, ast.Name)} & (assigned | {var})
                or self.reads.count(var) != inside.count(var)):
            return node
        self.count += 1
        left = f"_bits{self.count}"
        bits = ast.unparse(mask) if want else f"~({ast.unparse(mask)})"
        loop = ast.parse(f"{left} = ({bits}) & {hex((1 << limit) - 1)}\nwhile {left}:\n"
                         f"    {var} = ({left} & -{left}).bit_length() - 1\n    {left} &= {left} - 1\n").body
        loop[1].body.extend(body)      # type: ignore[attr-defined]
        return loop


def _bit_test(node: ast.For) -> tuple[str, ast.expr, int, bool, list[ast.stmt]] | None:
    """(x, m, N, whether the bit is wanted set, the test's body) of ``for x in range(N): if m >> x & 1 == b:``."""
    loop = _range_loop(node)
    if loop is None:
        return None
    var, limit, test = loop
    bit = _bit_of(test.test, var)
    return None if bit is None else (var, bit[0], limit, bit[1], test.body)


def _range_loop(node: ast.For) -> tuple[str, int, ast.If] | None:
    """(x, N, the test) of ``for x in range(N):`` (N a constant of at most 64) whose body is one test, no else."""
    target, it = node.target, node.iter
    if not (isinstance(target, ast.Name) and isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
            and it.func.id == "range" and len(it.args) == 1 and not node.orelse and len(node.body) == 1):
        return None
    limit, test = it.args[0], node.body[0]
    if not (isinstance(limit, ast.Constant) and isinstance(limit.value, int) and 0 < limit.value <= 64
            and isinstance(test, ast.If) and not test.orelse):
        return None
    return target.id, limit.value, test


def _bit_of(test: ast.expr, var: str) -> tuple[ast.expr, bool] | None:
    """(m, whether the bit is wanted set) of the test ``m >> var & 1 == b`` (b 0 or 1)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value in (0, 1)):
        return None
    bit = test.left
    if not (isinstance(bit, ast.BinOp) and isinstance(bit.op, ast.BitAnd) and isinstance(bit.right, ast.Constant)
            and bit.right.value == 1 and isinstance(bit.left, ast.BinOp) and isinstance(bit.left.op, ast.RShift)
            and isinstance(bit.left.right, ast.Name) and bit.left.right.id == var):
        return None
    return bit.left.left, test.comparators[0].value == 1


def coalesced(node: ast.FunctionDef) -> ast.FunctionDef:
    """``t = E`` ... ``v = t`` in one block as ``v = E`` with ``t`` read as ``v`` in between, where nothing in
    between reads or gives ``v`` a value and nothing outside reads ``t`` or gives it one: the copies a function
    written into its caller leaves of the caller's variables (the Python loop's; the other back ends' compilers
    do this themselves)."""
    while _coalesce_one(node, node):
        pass
    return node


def _counts(nodes: Sequence[ast.AST]) -> tuple[collections.Counter, collections.Counter]:
    reads: collections.Counter = collections.Counter()
    stores: collections.Counter = collections.Counter()
    for top in nodes:
        for sub in ast.walk(top):
            if isinstance(sub, ast.Name):
                (reads if isinstance(sub.ctx, ast.Load) else stores)[sub.id] += 1
    return reads, stores


def _copy_of(stmt: ast.stmt) -> tuple[str, str] | None:
    """(v, t) of ``v = t``."""
    if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Name)):
        return stmt.targets[0].id, stmt.value.id
    return None


def _coalesce_one(function: ast.FunctionDef, block_owner: ast.AST) -> bool:
    """One such rewrite in ``block_owner``'s blocks (or a block nested in them); whether one was made."""
    for field in ("body", "orelse"):
        body = getattr(block_owner, field, None)
        if isinstance(body, list) and any(_coalesce_at(function, body, i) for i in range(len(body))):
            return True
    return False


def _coalesce_at(function: ast.FunctionDef, body: list[ast.stmt], i: int) -> bool:
    """The rewrite of ``body[i]`` (a ``t = E``, with its ``v = t`` later in ``body``), or one in the blocks of
    ``body[i]``; whether one was made."""
    stmt = body[i]
    temp = _temporary(stmt)
    if temp is None or not isinstance(stmt, ast.Assign):     # (the second for the type checker)
        return _coalesce_one(function, stmt)
    copies = ((j, _copy_of(body[j])) for j in range(i + 1, len(body)))
    found = next(((j, copy[0]) for j, copy in copies if copy is not None and copy[1] == temp), None)
    if found is None or not _coalescible(function, body[i + 1:found[0]], found[1], temp):
        return False
    j, var = found
    for name in (sub for top in body[i + 1:j] for sub in ast.walk(top)):
        if isinstance(name, ast.Name) and name.id == temp:
            name.id = var
    del body[j]
    _retarget(body, i, stmt, var)
    return True


def _retarget(body: list[ast.stmt], i: int, stmt: ast.Assign, var: str) -> None:
    """``body[i]`` (``stmt``) assigning ``var`` (dropped where that would be ``v = v``)."""
    if isinstance(stmt.value, ast.Name) and stmt.value.id == var:
        del body[i]
    else:
        stmt.targets[0] = ast.Name(var, ast.Store())


def _temporary(stmt: ast.stmt) -> str | None:
    """``t`` of ``t = E`` where ``t`` is one of the lowering's own names (a leading underscore)."""
    if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id.startswith("_")):
        return stmt.targets[0].id
    return None


def _coalescible(function: ast.FunctionDef, between: list[ast.stmt], var: str, temp: str) -> bool:
    """Whether nothing in ``between`` reads or gives a value to ``var``, and nothing of ``function`` outside
    it reads ``temp`` (but the copy back) or gives it one (but its first value)."""
    all_reads, all_stores = _counts([function])
    reads, stores = _counts(between)
    return not (reads[var] or stores[var]) and all_reads[temp] == reads[temp] + 1 \
        and all_stores[temp] == stores[temp] + 1




# --------------------------------------------------------------------------- the first iteration peeled
def peeled(node: N) -> N:
    """``for x in range(a, b):`` whose body begins ``f = x == a`` (and assigns neither again, nor breaks or
    continues) as that first iteration with ``x`` the constant ``a`` and ``f`` True, then the loop from ``a + 1``
    with ``f`` False (the form's loop over a trick's places, whose lead is played apart): the same statements
    run in the same order, ``folded`` then drops the branches each copy cannot take."""
    return _Peel().visit(node)


class _Peel(ast.NodeTransformer):
    def __init__(self) -> None:
        self.flags: set[str] = set()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        """The function peeled, and a flag it no longer reads not given its constants (the copies' ``f = True``,
        ``f = False``)."""
        self.flags = set()
        self.generic_visit(node)
        reads, _ = _counts([node])
        unread = {flag for flag in self.flags if not reads[flag]}
        for block in _blocks(node):
            block[:] = [stmt for stmt in block if not (_stored_name(stmt) in unread and isinstance(
                stmt.value, ast.Constant))] or [ast.Pass()]          # type: ignore[attr-defined]
        return node

    def visit_For(self, node: ast.For) -> ast.stmt | list[ast.stmt]:
        self.generic_visit(node)
        found = _first_test(node)
        if found is None:
            return node
        var, first, last, flag = found
        self.flags.add(flag)
        head: list[ast.stmt] = [ast.Assign([ast.Name(var, ast.Store())], ast.Constant(first))]
        head += _specialised(node.body, {var: first, flag: True})
        if first + 1 == last:
            return head
        rest = ast.For(ast.Name(var, ast.Store()), _range(first + 1, last), _specialised(node.body, {flag: False}),
                       [])
        return [*head, rest]


def _range(first: int, last: int) -> ast.Call:
    return ast.Call(ast.Name("range", ast.Load()), [ast.Constant(first), ast.Constant(last)], [])


def _first_test(node: ast.For) -> tuple[str, int, int, str] | None:
    """(x, a, b, f) of ``for x in range(a, b): f = x == a; ...`` where the body stores neither ``x`` nor ``f``
    again, reads ``f``, and neither breaks nor continues."""
    bounds = _range_bounds(node)
    if bounds is None:
        return None
    var, first, last = bounds
    test = node.body[0]
    if not (first < last and isinstance(test, ast.Assign) and len(test.targets) == 1
            and isinstance(test.targets[0], ast.Name) and ast.dump(test.value) == ast.dump(
                ast.Compare(ast.Name(var, ast.Load()), [ast.Eq()], [ast.Constant(first)]))):
        return None
    flag = test.targets[0].id
    reads, stores = _counts(node.body)
    if stores[var] or stores[flag] != 1 or not reads[flag] or _jumps(node.body):
        return None
    return var, first, last, flag


def _range_bounds(node: ast.For) -> tuple[str, int, int] | None:
    """(x, a, b) of ``for x in range(a, b):`` (constants), no else."""
    it = node.iter
    bounds = it.args if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" else []
    if not (isinstance(node.target, ast.Name) and len(bounds) == 2 and not node.orelse
            and all(isinstance(b, ast.Constant) and type(b.value) is int for b in bounds)):
        return None
    return node.target.id, bounds[0].value, bounds[1].value      # type: ignore[attr-defined]


def _jumps(body: list[ast.stmt]) -> bool:
    """Whether ``body`` breaks or continues anywhere."""
    return any(isinstance(sub, (ast.Break, ast.Continue)) for top in body for sub in ast.walk(top))


def _specialised(body: list[ast.stmt], values: dict[str, int | bool]) -> list[ast.stmt]:
    """A copy of ``body`` (``f = x == a`` first) with the names ``values`` gives read as those constants, ``f``
    assigned its value."""
    (flag,) = (name for name, value in values.items() if type(value) is bool)
    out: list[ast.stmt] = [ast.Assign([ast.Name(flag, ast.Store())], ast.Constant(values[flag]))]
    out += [_Constants(values).visit(copy.deepcopy(stmt)) for stmt in body[1:]]
    return out


class _Constants(ast.NodeTransformer):
    def __init__(self, values: dict[str, int | bool]):
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if isinstance(node.ctx, ast.Load) and node.id in self.values:
            return ast.Constant(self.values[node.id])
        return node


# --------------------------------------------------------------------------- short loops unrolled
UNROLL = 6              # iterations at most of a loop written out
UNROLL_NODES = 3000     # and syntax nodes at most in all its copies


def unrolled(node: N) -> N:
    """``for x in range(a, b):`` or ``for x in (c, d, ...):`` over at most ``UNROLL`` constants, whose body
    neither stores ``x`` nor breaks or continues, as one copy of the body per value with ``x`` that constant,
    then ``x`` assigned the last (the places of a trick, the seats of a table: ``folded`` then works out what
    each copy's constant gives)."""
    return _Unroll().visit(node)


class _Unroll(ast.NodeTransformer):
    def visit_For(self, node: ast.For) -> ast.stmt | list[ast.stmt]:
        self.generic_visit(node)
        values = _constant_values(node.iter)
        if not (values and len(values) <= UNROLL and isinstance(node.target, ast.Name) and not node.orelse):
            return node
        var = node.target.id
        reads, stores = _counts(node.body)
        size = sum(1 for top in node.body for _ in ast.walk(top))
        if stores[var] or size * len(values) > UNROLL_NODES or _jumps(node.body):
            return node
        out: list[ast.stmt] = []
        for value in values:
            out += [_Constants({var: value}).visit(copy.deepcopy(stmt)) for stmt in node.body]
        return [*out, ast.Assign([ast.Name(var, ast.Store())], ast.Constant(values[-1]))]


def _constant_values(it: ast.expr) -> list[int] | None:
    """The integers a loop over ``range(a, b)`` (or ``range(b)``) or a tuple of integer constants runs through."""
    if isinstance(it, ast.Tuple):
        return [e.value for e in it.elts] if all(_constant(e) for e in it.elts) else None  # type: ignore[attr-defined]
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and not it.keywords \
            and 1 <= len(it.args) <= 2 and all(_constant(a) for a in it.args):
        bounds = [a.value for a in it.args]             # type: ignore[attr-defined]
        return list(range(*bounds))
    return None


# --------------------------------------------------------------------------- constants folded
_BINARY: dict[type, Callable[[object, object], object]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod, ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_, ast.BitXor: operator.xor}
_COMPARE: dict[type, Callable[[int, int], bool]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
    ast.GtE: operator.ge}


def folded(node: N) -> N:
    """``node`` with the operations on constants worked out (integers of at most 64 bits, comparisons, ``not``,
    ``and``/``or`` where a constant decides or changes nothing) and a test on a constant replaced by the branch
    it takes (a block left empty holds ``pass``)."""
    return _Filled().visit(_Fold().visit(node))


def _constant(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) in (int, bool)


class _Fold(ast.NodeTransformer):
    def __init__(self) -> None:
        self.truths: frozenset[str] = frozenset()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        self.truths = _truth_names(node)
        self.generic_visit(node)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        apply = _BINARY.get(type(node.op))
        if apply is None or not (_constant(node.left) and _constant(node.right)):
            return node
        try:
            value = apply(node.left.value, node.right.value)    # type: ignore[attr-defined]
        except (ArithmeticError, ValueError):
            return node
        return ast.Constant(value) if isinstance(value, int) and value.bit_length() <= 64 else node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            node.operand = _as_test(node.operand)
            if _constant(node.operand):
                return ast.Constant(not node.operand.value)     # type: ignore[attr-defined]
        elif isinstance(node.op, ast.USub) and _constant(node.operand):
            return ast.Constant(-node.operand.value)            # type: ignore[attr-defined]
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        operands = [node.left, *node.comparators]
        if not (all(_constant(o) for o in operands) and all(type(op) in _COMPARE for op in node.ops)):
            return node
        values = [o.value for o in operands]                    # type: ignore[attr-defined]
        return ast.Constant(all(_COMPARE[type(op)](a, b) for op, a, b in zip(node.ops, values, values[1:])))

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        self.generic_visit(node)
        return _bool_op(node, self.truths)

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        self.generic_visit(node)
        node.test = _as_test(node.test)
        if _constant(node.test):
            return node.body if node.test.value else node.orelse     # type: ignore[attr-defined]
        return node

    def visit_If(self, node: ast.If) -> ast.stmt | list[ast.stmt]:
        self.generic_visit(node)
        node.test = _as_test(node.test)
        if _constant(node.test):
            return node.body if node.test.value else node.orelse     # type: ignore[attr-defined]
        return node


def _bool_op(node: ast.BoolOp, truths: frozenset[str]) -> ast.expr:
    """``node`` without the constants that change nothing (a false one before the last of an ``or``, a true one
    of an ``and``; the last one too where every other is a truth value) and what follows a constant that
    decides it (the constant alone where what comes before it is truth values that call nothing); ``truths``:
    the variables that only ever hold True or False."""
    deciding = isinstance(node.op, ast.Or)
    kept: list[ast.expr] = []
    for i, value in enumerate(node.values):
        if _constant(value):
            truth = all(_truth_value(k, truths) for k in kept)
            if bool(value.value) == deciding:           # type: ignore[attr-defined]
                if truth and not any(isinstance(sub, ast.Call) for k in kept for sub in ast.walk(k)):
                    return value
                kept.append(value)
                break
            if i < len(node.values) - 1 or (kept and truth):
                continue
        kept.append(value)
    return kept[0] if len(kept) == 1 else ast.BoolOp(node.op, kept)


def _truth_value(node: ast.expr, truths: frozenset[str] = frozenset()) -> bool:
    """Whether ``node`` is True or False whatever it reads (a comparison, a ``not``, a variable of ``truths``,
    such values joined)."""
    if isinstance(node, ast.Constant):
        return type(node.value) is bool
    if isinstance(node, ast.Name):
        return node.id in truths
    if isinstance(node, ast.BoolOp):
        return all(_truth_value(v, truths) for v in node.values)
    return isinstance(node, ast.Compare) or isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)


def _truth_names(function: ast.FunctionDef) -> frozenset[str]:
    """The variables of ``function`` that only ever hold True or False: every store of one is ``x = E`` with
    ``E`` a truth value (given the others), none a parameter."""
    assigned = _assigned(function)
    names = set(assigned)
    while True:
        kept = {name for name in names if all(_truth_value(v, frozenset(names)) for v in assigned[name])}
        if kept == names:
            return frozenset(names)
        names = kept


def _assigned(function: ast.FunctionDef) -> dict[str, list[ast.expr]]:
    """The values given to each variable of ``function`` that is only ever given one by ``x = E`` (not a
    parameter, a loop's variable, an augmented or unpacking assignment)."""
    params = {a.arg for a in function.args.args}
    assigned: dict[str, list[ast.expr]] = collections.defaultdict(list)
    for sub in ast.walk(function):
        if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and isinstance(sub.targets[0], ast.Name):
            assigned[sub.targets[0].id].append(sub.value)
    _, stores = _counts([function])
    return {name: values for name, values in assigned.items() if len(values) == stores[name] and name not in params}


def _as_test(node: ast.expr) -> ast.expr:
    """``node`` as a test (only whether it is true counts): a last constant that changes nothing dropped."""
    if isinstance(node, ast.BoolOp) and len(node.values) > 1 and _constant(node.values[-1]) \
            and bool(node.values[-1].value) != isinstance(node.op, ast.Or):     # type: ignore[attr-defined]
        return node.values[0] if len(node.values) == 2 else ast.BoolOp(node.op, node.values[:-1])
    return node


class _Filled(ast.NodeTransformer):
    """Every block a statement needs (a body) holding at least ``pass``."""

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        if isinstance(node, (ast.FunctionDef, ast.For, ast.While, ast.If)) and not node.body:
            node.body = [ast.Pass()]
        return node


# --------------------------------------------------------------------------- copies within a block
def copies(node: N) -> N:
    """In each block: ``t = v`` ... ``v = t`` with neither stored in between drops the copy back (it changes
    nothing); ``t = E`` ... ``v = t`` with neither read nor stored in between becomes ``v = E`` ... ``t = v`` (the
    value goes where it is wanted; ``overwritten`` then drops ``t = v`` where nothing reads it)."""
    for block in _blocks(node):
        _block_copies(block)
    return node


def _block_copies(block: list[ast.stmt]) -> None:
    facts = [_Facts(stmt) for stmt in block]
    drop: set[int] = set()
    for i, own in enumerate(facts):
        if own.target is None or i in drop:
            continue
        for j in range(i + 1, len(block)):
            later = facts[j]
            if later.target is not None and later.source == own.target and own.target not in later.stores:
                _copied(block, facts, i, j, drop)
                break
            if own.target in later.stores or (later.target is not None and later.target == own.source):
                break
            if later.leaves:
                break
    block[:] = [stmt for k, stmt in enumerate(block) if k not in drop]


def _copied(block: list[ast.stmt], facts: list[_Facts], i: int, j: int, drop: set[int]) -> None:
    """``block[i]`` is ``t = ...``, ``block[j]`` ``v = t``: the copy back dropped, or the value moved to ``v``."""
    own, later = facts[i], facts[j]
    between = facts[i + 1:j]
    temp, target = own.target, later.target
    if temp is None or target is None:
        return
    if own.source is not None and own.source == target and not any(target in f.stores for f in between):
        drop.add(j)                                     # t = v ... v = t
    elif _overwritten_after(facts, j, temp) and not any(
            name in f.stores or name in f.reads for f in between for name in (temp, target)):
        first, copy_back = block[i], block[j]
        first.targets = [ast.Name(target, ast.Store())]           # type: ignore[attr-defined]
        copy_back.value = ast.Name(target, ast.Load())            # type: ignore[attr-defined]
        copy_back.targets = [ast.Name(temp, ast.Store())]         # type: ignore[attr-defined]
        facts[i], facts[j] = _Facts(first), _Facts(copy_back)


# --------------------------------------------------------------------------- stores overwritten at once
def overwritten(node: N) -> N:
    """``x = E`` (``E`` calling nothing) that a later ``x = F`` of the same block overwrites before anything reads
    ``x`` (``F`` included) or leaves the block, not stored; ``x = x`` dropped."""
    for block in _blocks(node):
        while True:
            facts = [_Facts(stmt) for stmt in block]
            kept = [stmt for i, stmt in enumerate(block) if not _dead(facts, i)] or [ast.Pass()]
            if len(kept) == len(block):
                break
            block[:] = kept
    return node


def _blocks(node: ast.AST) -> list[list[ast.stmt]]:
    """Every block of statements in ``node`` that holds one (a body, an else), outer ones first."""
    return [block for sub in ast.walk(node) for block in (getattr(sub, "body", None), getattr(sub, "orelse", None))
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt)]


class _Facts:
    """What a statement of a block stores at its top (``x = E``), reads, and whether it may leave the block."""

    def __init__(self, stmt: ast.stmt):
        self.target = _stored_name(stmt)
        value = stmt.value if isinstance(stmt, ast.Assign) else None
        self.pure = value is not None and not any(isinstance(sub, ast.Call) for sub in ast.walk(value))
        self.source = value.id if isinstance(value, ast.Name) else None     # (of a copy ``x = y``)
        self.copy = self.source is not None and self.source == self.target
        self.reads = {sub.id for sub in ast.walk(stmt) if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load)}
        self.stores = {sub.id for sub in ast.walk(stmt) if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store)}
        self.leaves = any(isinstance(sub, (ast.Break, ast.Continue, ast.Return, ast.Raise)) for sub in ast.walk(stmt))


def _dead(facts: list[_Facts], i: int) -> bool:
    """Whether statement ``i`` stores a value nothing reads (or is ``x = x``)."""
    own = facts[i]
    if own.target is None or not own.pure:
        return False
    return own.copy or _overwritten_after(facts, i, own.target)


def _overwritten_after(facts: list[_Facts], i: int, name: str) -> bool:
    """Whether a statement after ``i`` of the block stores ``name`` (``name = E``) before any reads it or leaves."""
    for later in facts[i + 1:]:
        if name in later.reads or later.leaves:
            return False
        if later.target == name:
            return True
    return False


def _stored_name(stmt: ast.stmt | None) -> str | None:
    """``x`` of ``x = E``."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    return None
