"""The solver's search as generated numba source, one module per ruleset (compiled by ``core.jit``).

The module holds the variant's card tables (as constant arrays), the rules' helpers (``fast.numba_rules.HELPERS``),
three small functions made of the hand procedure's templates with each rule's checked expression inlined and
rewritten into numba's typed subset by ``fast.numba_rules.NativeRules`` (which refuses, naming the rule, anything
outside a fixed list of shapes: ``NativeRuleError``) — ``legal`` (a seat's legal set), ``breaks`` and
``winner``, the lowered form's ``legal``, ``breaks`` and ``winner_card`` as the Python search's are
(``search.Rules``) — and the search itself (``ENGINE``: the fixed text of ``templates/search_engine.py``, a
file the linters read, its arrays' layout and codes from ``native_arrays``; run without the GIL: the service's
other threads go on). The engine is the Python search's algorithm: a null-window alpha-beta over single cards,
depth first on an explicit stack (numba cannot cache recursive functions), with interchangeable cards (where
``symmetry.equivariant`` holds), its own move ordering where ``quick.Shape`` holds (``_moves``: a forecast of
each card's trick, lead weights, the last lead that cut a search short at the same depth; the order changes
the nodes searched, never an answer) and a ``playout`` of its first choices (the first question's guess,
``NativeSearch.value``), the sure-trick bounds of ``quick.Shape`` (where it holds), a transposition table of
bounds at trick boundaries in fixed-size numpy arrays (open addressing, four slots a probe, the shallowest
entry replaced) keyed on rank-normalised hands, and, where ``partition`` allows it, entries on the relevant
cards after the first trick exactly as ``search.Search._partitioned`` keeps them (a bucket's most recent depth
vectors listed, ``DEPTHS`` of them). The engine indexes only arrays it sized itself.
"""
from __future__ import annotations

import ast

from ..core import cards as C
from ..errors import NativeRuleError
from ..fast.numba_rules import HELPERS, TABLES, NativeRules
from ..model.ruleset import Ruleset
from ..procedure.form import Lowering, Target, renamed
from . import native_arrays
from .generated import NAMES
from .partition import rank_free_breaks
from .quick import Shape
from .symmetry import equivariant, suit_orders
from .templates import imported, text

HEADER = """\
import numba
import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from rulespec.errors import RulespecError

NONE = -1
# the engine makes no arrays, so the arrays it hands from function to function need no reference counts: numba's
# ``_nrt`` option off, where this numba has it (counted, they took a third of a full deal's time)
ENGINE_JIT = {"cache": True, **({"_nrt": False} if "_nrt" in vars(numba.core.options.DefaultOptions) else {})}
"""

# the search's card play: the lowered form's functions, as the engine calls them
_RULES = (("legal", "legal"), ("breaks", "breaks"), ("winner_card", "winner"))

# the generated module's names under those the engine's template gives them (``templates/names.py``)
_ALIASES = "\n\npopcount = _cnt\nPOWER = _POW\nSUIT_OF = _SUIT\nSUIT_SET = _SM\n"
ENGINE = "\n\n" + text("search_engine")        # the search (``templates/search_engine.py``)


def _array(values, dtype: str = "np.int64") -> str:
    return f"np.array({list(values)!r}, dtype={dtype})"


def _suit_tables(rs: Ruleset) -> str:
    """Each suit's cards highest first (``suit_orders``), padded, and their masks; per card the higher
    cards of its suit and its suit (-1: none)."""
    orders = suit_orders(rs)
    width = max(1, *(len(order) for order in orders))
    size = len(rs.power)
    above, osuit = [0] * size, [-1] * size
    for suit, order in enumerate(orders):
        for k, card in enumerate(order):
            above[card] = sum(1 << c for c in order[:k])
            osuit[card] = suit
    return "".join([
        f"ORDER = np.array({[list(order) + [-1] * (width - len(order)) for order in orders]!r}, dtype=np.int64)\n",
        f"ORDLEN = {_array(len(order) for order in orders)}\n",
        f"SMASK = {_array(sum(1 << c for c in order) for order in orders)}\n",
        f"ABOVE = {_array(above)}\nOSUIT = {_array(osuit)}\n",
    ])


def _shape_constants(rs: Ruleset) -> str:
    """What the rules are shown to allow (``symmetry``, ``quick``, ``partition``), as the Python search decides."""
    masks = [sum(1 << c for c in order) for order in suit_orders(rs)]
    unsuited = rs.deck & ~(masks[0] | masks[1] | masks[2] | masks[3])
    symmetric = equivariant(rs)
    shape = Shape.of(rs)
    values = {"UNSUITED": unsuited, "SYMMETRIC": symmetric, "NORMALISED": symmetric and not unsuited,
              "SHAPE": shape is not None,
              "PARTITION": shape is not None and not unsuited and rank_free_breaks(rs),
              "TRUMP": -1 if shape is None or shape.trump is None else shape.trump,
              "RESTRICTED": -1 if shape is None or shape.restricted is None else shape.restricted}
    return "".join(f"{name} = {value!r}\n" for name, value in values.items())


def source(rs: Ruleset) -> str:
    """The compiled search of ``rs`` as module source: tables, helpers, the rules' functions, the engine
    (raises ``NativeRuleError`` for a rule numba's subset cannot express, and for a table other than four seats
    in two partnerships: the engine plays those only, and the Python search every other)."""
    table = C.table_of(rs.params)
    if table is not C.FOUR:
        rule = "table.sides" if not table.partners else "table.seats"
        raise NativeRuleError(rs.id, rule, f"the compiled search plays four seats in two partnerships, not "
                                           f"{table.seats}{' each alone' if not table.partners else ''}")
    env = rs.fn["trick.winner"].__globals__      # the card tables every play rule was compiled with
    power = list(env["_POW"])
    constants = "".join([
        "".join(f"{name} = {_array(env[name])}\n" for name in TABLES),
        f"_BELOW = {min(power or [0]) - 1}\n_ABOVE = {max(power or [0]) + 1}\n",
        _suit_tables(rs),
        _shape_constants(rs),
        "".join(f"{name} = {getattr(native_arrays, name)}\n" for name in imported("search_engine", "..native_arrays")),
    ])
    native = NativeRules(rs)      # the rules' expressions in numba's typed subset
    lowering = Lowering(rs, Target(native.expr))
    rules = "".join(_rule_function(lowering, name, called) for name, called in _RULES)
    return "".join([HEADER, constants, HELPERS, *native.helpers, rules, _ALIASES, ENGINE])


def _rule_function(lowering: Lowering, name: str, called: str) -> str:
    """A card-play function of the lowered form in numba, under the engine's names for its variables."""
    node = renamed(lowering.function(name), NAMES)
    node.name = called
    return "\n\n@njit(cache=True)\n" + ast.unparse(ast.fix_missing_locations(node)) + "\n"
