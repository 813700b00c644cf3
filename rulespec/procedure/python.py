"""The Python back ends of the lowered form.

* ``steps``: the scalar steps ``game`` drives (``HandState``, the answers): each rule a call of its
  compiled function; with ``explain``, every function also as ``NAME__x(_x, ...)``, whose notes go to the
  recorder ``_x`` (``_x.note(kind, *values, **facts)``).
* ``loop``: the whole-hand loop (``game.engine``): the rules' checked expressions inlined (``inline_rule``)
  and every function of the form written into its entry, the players' decisions the given callables.

Both run with empty ``__builtins__``: the card tables, ``range``, ``min``, ``max`` and a few helpers are
all the generated code can reach.  Arrays are lists (``x[i, j]`` is ``x[i][j]``).
"""
from __future__ import annotations

import ast
import functools
import hashlib
import re
import types
from collections.abc import Callable, Mapping, Sequence

from ..core import derived
from ..core.schema import BID_KINDS, CONTEXTS, SLOTS
from ..errors import ProcedureError
from ..lang.compiler import NONE, make_env
from ..model.ruleset import Ruleset
from .form import ALL, CHOICES, Lowering, Target, param_global, reads_global, renamed
from .loop_passes import optimized

_TABLES = ("_RANK", "_NSUIT", "_SUIT", "_POW", "_SM", "_PLACE")
_ENV_NAMES = frozenset(make_env(dict.fromkeys(_TABLES))) - {"__builtins__"}
_LOCAL_NAME = re.compile(r"^v\d+$")   # a comprehension's variable in a compiled rule
_BUILTINS = {"range": range, "min": min, "max": max}


def rule_global(name: str) -> str:
    """The generated code's name for a compiled rule."""
    return "R_" + name.replace(".", "__")


def _kind_name(value: ast.expr) -> ast.expr:
    """A bid kind code as the compiled rules see it: its name (``schema.BID_KINDS``)."""
    return ast.Subscript(ast.Name("_KIND_NAME", ast.Load()), value, ast.Load())


def call_rule(rs: Ruleset | None, name: str, context: str, args: list[ast.expr]) -> ast.expr:
    """A call of the compiled rule ``name`` with its context's values."""
    return ast.Call(ast.Name(rule_global(name), ast.Load()), args, [])


class _Rename(ast.NodeTransformer):
    def __init__(self, values: Mapping[str, ast.expr]):
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id in self.values:
            return ast.copy_location(ast.parse(ast.unparse(self.values[node.id]), mode="eval").body, node)
        return node


def inline_rule(rs: Ruleset, name: str, context: str, args: Sequence[ast.expr | str]) -> ast.expr:
    """Rule ``name``'s checked compiled expression with its arguments replaced by ``args`` (one per context
    name, in the schema's order: expressions, or variable names).  Anything in the compiled source but its
    arguments, the rules' helpers and tables, and comprehension variables is refused."""
    rule = rs.rules[name]
    if rule.slot.context != context:
        raise ValueError(f"rule {name} is of the {rule.slot.context} context, not {context}")
    (func,) = ast.parse(rule.source).body
    ret = func.body[0] if isinstance(func, ast.FunctionDef) and len(func.body) == 1 else None
    if not (isinstance(func, ast.FunctionDef) and isinstance(ret, ast.Return) and ret.value is not None):
        raise ValueError(f"rule {name}: not a compiled rule")
    params = [arg.arg for arg in func.args.args]
    if len(params) != len(CONTEXTS[context]) or len(args) != len(params):
        raise ValueError(f"rule {name}: {len(params)} arguments for the {context} context")
    _check_compiled(name, ret, params)
    values = {p: (ast.Name(a, ast.Load()) if isinstance(a, str) else a) for p, a in zip(params, args)}
    return _Rename(values).visit(ret.value)


def _check_compiled(name: str, body: ast.stmt, params: list[str]) -> None:
    """Rule ``name``'s compiled source names only its parameters, the rules' helpers and tables, and
    comprehension variables (else ``ValueError``)."""
    for node in ast.walk(body):
        if isinstance(node, ast.Attribute):
            raise ValueError(f"rule {name}: unexpected attribute {node.attr!r} in its compiled source")
        if isinstance(node, ast.Name) and not (node.id in params or node.id in _ENV_NAMES
                                               or _LOCAL_NAME.match(node.id)):
            raise ValueError(f"rule {name}: unexpected name {node.id!r} in its compiled source")


def inline_text(rs: Ruleset, name: str, names: Sequence[str]) -> str:
    """``inline_rule`` over variables ``names``, as text (the solver reads the rules' shapes from it)."""
    return ast.unparse(inline_rule(rs, name, rs.rules[name].slot.context, names))


class _Write(ast.NodeTransformer):
    """A lowered function as Python: lists for arrays, the helpers' names, the explained calls."""

    def __init__(self, explained: bool, functions: frozenset[str]):
        self.explained, self.functions = explained, functions

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        self.generic_visit(node)         # (in place)
        if isinstance(node.slice, ast.Tuple) and node.slice.elts:       # x[i, j] -> x[i][j]
            inner = node.value
            for index in node.slice.elts[:-1]:
                inner = ast.Subscript(inner, index, ast.Load())
            return ast.Subscript(inner, node.slice.elts[-1], node.ctx)
        return node

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)         # (in place)
        if not isinstance(node.func, ast.Name):
            return node
        name = node.func.id
        if name == "zeros":
            return ast.BinOp(ast.List([ast.Constant(0)], ast.Load()), ast.Mult(), node.args[0])
        if name == "popcount":
            return ast.Call(ast.Name("_cnt", ast.Load()), node.args, [])
        if name == "fail":
            return ast.Call(ast.Name("_fail", ast.Load()), node.args, [])
        if name == "note":
            return ast.Call(ast.Attribute(ast.Name("_x", ast.Load()), "note", ast.Load()), node.args, node.keywords)
        if name in CHOICES:
            return ast.Call(ast.Name("_" + name, ast.Load()), node.args, [])
        if self.explained and name in self.functions:
            return ast.Call(ast.Name(name + "__x", ast.Load()), [ast.Name("_x", ast.Load()), *node.args], [])
        return node


def _source(lowering: Lowering, names: Sequence[str], explained: bool) -> str:
    functions = frozenset(lowering.form.functions)
    out = []
    for name in names:
        node = _Write(explained, functions).visit(lowering.function(name))
        if explained:
            node.name = name + "__x"
            node.args.args.insert(0, ast.arg("_x"))
        out.append(ast.unparse(ast.fix_missing_locations(node)))
    return "\n\n\n".join(out) + "\n"


def _tables(rs: Ruleset) -> dict:
    rule_env = rs.fn["trick.winner"].__globals__    # the card tables every rule was compiled with
    return {name: rule_env[name] for name in _TABLES}


@functools.lru_cache(maxsize=None)
def steps_code(entries: tuple[str, ...], explain: bool) -> tuple[types.CodeType, frozenset[tuple[str, str]]]:
    """The steps module (``steps_source``) compiled once (per process, and on disk for the package's code:
    ``core.derived``), and the ``reads`` it leaves as names."""
    def make() -> tuple[types.CodeType, frozenset[tuple[str, str]]]:
        text, reads = steps_source(entries, explain)
        return compile(text, "<steps>", "exec"), reads
    return derived.kept("steps", f"{entries}|{explain}", make)


def steps_source(entries: tuple[str, ...], explain: bool) -> tuple[str, frozenset[tuple[str, str]]]:
    """The steps module: ``entries`` and what they call, each rule a call of its compiled function, each
    parameter and ``reads`` a name (the same code for every ruleset; with ``explain``, the explained twins
    too); and the ``reads`` it names."""
    plain = Lowering(None, Target(call_rule, kind_arg=_kind_name, fold=False))
    text = _source(plain, plain.reachable(entries), False)
    reads = set(plain.reads_used)
    if explain:
        explained = Lowering(None, Target(call_rule, explains=True, kind_arg=_kind_name, fold=False))
        text += "\n\n" + _source(explained, explained.reachable(entries), True)
        reads |= explained.reads_used
    return text, frozenset(reads)


def _env(rs: Ruleset, fail: Callable) -> dict:
    env = make_env(_tables(rs))
    env["__builtins__"] = dict(_BUILTINS)
    env.update(NONE=NONE, _KIND_NAME=BID_KINDS, _fail=fail, _cnt=int.bit_count, _int=int)
    return env


def steps(rs: Ruleset, entries: tuple[str, ...], fail: Callable, explain: bool = True) -> dict[str, Callable]:
    """The generated steps of ``rs`` by name (``NAME__x``: explained); ``fail(code, value)`` raises."""
    env = _env(rs, fail)
    env.update({rule_global(name): fn for name, fn in rs.fn.items()})
    env.update({param_global(name): rs.params[name] for name in SLOTS if SLOTS[name].context == "param"})
    code, reads = steps_code(entries, explain)
    env.update({reads_global(name, context_name): context_name in rs.rules[name].names
                for name, context_name in reads})
    exec(code, env)  # noqa: S102 - the lowered form, calling the compiled rules
    return {name: value for name, value in env.items()      # (the functions the module defined)
            if isinstance(value, types.FunctionType) and value.__code__.co_filename == code.co_filename}


def _inline(rs: Ruleset | None, name: str, context: str, args: list[ast.expr]) -> ast.expr:
    if rs is None:
        raise ProcedureError(f"rule {name}: inlining a rule's expression needs its ruleset")
    return inline_rule(rs, name, context, args)


def _inline_all(rs: Ruleset, external: frozenset[str] = frozenset()) -> Lowering:
    """A lowering that writes every function of the form into its caller (but ``external`` ones), the rules'
    expressions inlined."""
    return Lowering(rs, Target(_inline, kind_arg=_kind_name, inline=ALL, external=external))


def inlined_function(rs: Ruleset, name: str, names: Mapping[str, str] | None = None,
                     values: Mapping[str, object] | None = None, function: str | None = None) -> str:
    """Function ``name`` of the form with the rules' expressions inlined, as Python source: parameters in
    ``values`` made constants, the others renamed by ``names``, the function called ``function``."""
    lowering = _inline_all(rs)
    node = renamed(lowering.function(name, dict(values or {})), dict(names or {}))
    node = _Write(False, frozenset(lowering.form.functions)).visit(node)
    node.name = function or name
    return ast.unparse(ast.fix_missing_locations(node)) + "\n"


def inlined_body(rs: Ruleset, name: str, names: Mapping[str, str], result: str) -> str:
    """``inlined_function``'s body as statements, its result assigned to ``result`` (for a template that
    writes the function's work in place)."""
    lowering = _inline_all(rs)
    node = _Write(False, frozenset(lowering.form.functions)).visit(renamed(lowering.function(name), dict(names)))
    body = node.body
    last = body[-1] if body else None
    if isinstance(last, ast.Return) and last.value is not None:
        body[-1] = ast.Assign([ast.Name(result, ast.Store())], last.value)
    return ast.unparse(ast.fix_missing_locations(ast.Module(body, []))) + "\n"


def inlined_expr(rs: Ruleset, name: str, names: Mapping[str, str]) -> str:
    """The result of a function of the form that is one expression (``breaks``, ``winner_card``), inlined."""
    lowering = _inline_all(rs)
    node = renamed(lowering.function(name), dict(names))
    ret = node.body[0] if len(node.body) == 1 else None
    if not (isinstance(ret, ast.Return) and ret.value is not None):
        raise ValueError(f"{name} is not one expression once lowered")
    return ast.unparse(ret.value)


# The random player's card (``game.policies.RandomPolicy.play``: the k-th legal card, lowest id first, for
# k = int(random() * count)), written in where the loop would call ``_choose_card``: the same draw, no call.
_RANDOM_CARD = """\
_a = {allowed}
_k = _int(_random() * _cnt(_a))
while _k:
    _a &= _a - 1
    _k -= 1
{card} = (_a & -_a).bit_length() - 1
"""


class _RandomCard(ast.NodeTransformer):
    """``card = _choose_card(seat, allowed, ...)`` as ``_RANDOM_CARD`` over ``allowed``."""

    def visit_Assign(self, node: ast.Assign) -> ast.stmt | list[ast.stmt]:
        call = node.value
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "_choose_card"):
            return node
        (target,) = node.targets
        return ast.parse(_RANDOM_CARD.format(allowed=ast.unparse(call.args[1]), card=ast.unparse(target))).body


CARDS = ("chosen", "random", "sensible")    # who picks the loop's cards (``loop_source``)


def loop_source(rs: Ruleset, entry: str, external: frozenset[str] = frozenset(), card: str = "chosen") -> str:
    """The whole-hand loop's function ``entry`` of ``rs``: every function it calls written in (but
    ``external``), every rule's checked expression inlined; each decision of the players it makes is a
    parameter of its own, after the form's (``_choose_card``, ...).  ``card`` says who picks the cards: a
    ``_choose_card`` parameter (``chosen``); the random player's draw written in (``random``: from a parameter
    ``_random``, its generator's ``random``); or the lowered form's sensible player (``sensible``: its
    ``sensible_card``, its rules inlined as the loop's, written before the loop and called by it).  The text
    (lowered, then ``loop_passes.optimized``) is kept on disk under what it is made of (``_loop_key``)."""
    if card not in CARDS:
        raise ValueError(f"unknown card player {card!r} (one of {', '.join(CARDS)})")
    return derived.kept("loop", _loop_key(rs, entry, external, card),
                        lambda: _loop_text(rs, entry, external, card), keep=not rs.sent)


def _loop_key(rs: Ruleset, entry: str, external: frozenset[str], card: str) -> str:
    """What a loop's text is made of besides the package's code: the entry, its player and external functions,
    every rule's compiled source and the parameters (the text kept on disk under it, ``core.derived``)."""
    digest = hashlib.sha256(f"{entry}|{card}|{sorted(external)}|{sorted(rs.params.items())!r}".encode())
    for name in sorted(rs.rules):
        digest.update(f"\0{name}\0{rs.rules[name].source}".encode())
    return digest.hexdigest()


def _loop_text(rs: Ruleset, entry: str, external: frozenset[str], card: str) -> str:
    lowering = _inline_all(rs, external)
    write = _Write(False, frozenset(lowering.form.functions))
    node = optimized(write.visit(lowering.function(entry)))
    before = ""
    if card == "random":
        node = _RandomCard().visit(node)
    elif card == "sensible":
        node = _Renamed({"_choose_card": "sensible_card"}).visit(node)
        player = optimized(write.visit(lowering.function("sensible_card")))
        before = ast.unparse(ast.fix_missing_locations(player)) + "\n\n\n"
    used = sorted({sub.func.id for sub in ast.walk(node) if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name)
                   and (sub.func.id[1:] in CHOICES or sub.func.id == "_random")})
    node.args.args.extend(ast.arg(name) for name in used)
    return before + ast.unparse(ast.fix_missing_locations(node)) + "\n"


class _Renamed(ast.NodeTransformer):
    """Calls of the functions ``names`` maps, made to the names it maps them to."""

    def __init__(self, names: Mapping[str, str]):
        self.names = names

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in self.names:
            node.func = ast.Name(self.names[node.func.id], ast.Load())
        return node


def loop(rs: Ruleset, entry: str, fail: Callable, external: Mapping[str, Callable] | None = None,
         card: str = "chosen") -> Callable:
    """``entry`` of the whole-hand loop (see ``loop_source``), calling the functions ``external`` names."""
    external = dict(external or {})
    env = _env(rs, fail)
    env.update(external)
    source = loop_source(rs, entry, frozenset(external), card)
    exec(compile(source, f"<loop {rs.id} {entry}>", "exec"), env)  # noqa: S102
    return env[entry]


def indent(text: str, by: str = "    ") -> str:
    """``text`` with every line that has something on it indented by ``by``."""
    return "".join(by + line if line.strip() else line for line in text.splitlines(keepends=True))
