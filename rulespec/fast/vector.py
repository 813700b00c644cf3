"""A numpy back end for compiled rules: the same checked rule trees, evaluated
over arrays of situations at once (one element per simulated hand).

The type checker is the scalar compiler's (``ExprCompiler``); only the Python
that a few constructs become differs (``and`` → ``_and``, ``x if c else y`` →
``_where``, comprehensions → a loop over the 54 card ids), and the helpers
(``_hi``, ``_cnt``, tables) are array versions with the same tie-breaking.
"""
from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from ..core import cards as C
from ..lang.compiler import NONE, ExprCompiler, parse
from ..errors import RulespecError
from ..model.ruleset import Ruleset
from ..core.schema import ENUM

def _sole_call(src: str, name: str) -> str | None:
    """The argument's source when ``src`` is exactly one call ``name(...)`` (and holds no string, whose
    brackets would not count), else None."""
    if not (src.startswith(name + "(") and src.endswith(")")) or "'" in src or '"' in src:
        return None
    depth = 0
    for i, char in enumerate(src[len(name):]):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return src[len(name) + 1:-1] if i == len(src) - len(name) - 1 else None
    return None


class VectorCompiler(ExprCompiler):
    """Generates numpy expressions; context arguments may be arrays or scalars."""

    def src_and(self, a: str, b: str) -> str:
        return f"_and({a}, {b})"

    def src_or(self, a: str, b: str) -> str:
        return f"_or({a}, {b})"

    def src_not(self, a: str) -> str:
        return f"_not({a})"

    def src_if(self, cond: str, a: str, b: str) -> str:
        for helper in ("_hi", "_lo"):       # the best card of either set: one search of the chosen set
            inner_a, inner_b = _sole_call(a, helper), _sole_call(b, helper)
            if inner_a is not None and inner_b is not None:
                return f"{helper}(_where({cond}, {inner_a}, {inner_b}))"
        return f"_where({cond}, {a}, {b})"

    def src_in_list(self, x: str, items: str) -> str:
        return f"_isin({x}, {items})"

    def src_card_in(self, card: str, cards: str) -> str:
        return f"_cardin({card}, {cards})"

    def src_aggregate(self, fname: str, var: str, cards: str, cond: str) -> str:
        return f"_agg_{fname}({cards}, lambda {var}: {cond})"


_LANES = 4          # a mask's 16-bit lanes (cards 0-15, 16-31, 32-47, 48-53)


@functools.lru_cache(maxsize=16)
def _lane_best(key: bytes) -> np.ndarray:
    """(4, 65536): for each 16-card lane of a mask and each value of that lane, the highest ``key`` of
    its cards (0: none).  Built once per key (card order), shared by every variant using it: the values
    with bit ``b`` as their top bit are those below ``1 << b`` with card ``b``'s key added (a card past
    the pack adds nothing)."""
    order = np.frombuffer(key, dtype=np.int64).astype(np.uint8)
    table = np.zeros((_LANES, 1 << 16), dtype=np.uint8)
    for lane in range(_LANES):
        row = table[lane]
        for bit in range(16):
            card, low, high = lane * 16 + bit, row[:1 << bit], row[1 << bit:2 << bit]
            if card < C.NUM_CARDS:
                np.maximum(low, order[card], out=high)
            else:
                high[:] = low
    return table


def _env(rs: Ruleset) -> dict:
    power = np.asarray(rs.power, dtype=np.int64)

    def rank_of(order):
        """Each card's place in a scan order, as a key that is highest (and > 0) for the first card,
        with a 0 after the last card for NONE."""
        key = np.zeros(C.NUM_CARDS + 1, dtype=np.int64)
        key[order] = np.arange(C.NUM_CARDS, 0, -1)
        return key

    # scan orders that reproduce the scalar helpers' tie-breaking (lowest card id first among equals)
    high_key = rank_of(sorted(range(C.NUM_CARDS), key=lambda c: (-power[c], c)))
    low_key = rank_of(sorted(range(C.NUM_CARDS), key=lambda c: (power[c], c)))

    def picker(key: np.ndarray) -> Callable:
        """The first card of ``key``'s scan order in each mask (NONE for an empty mask): the best key of
        each 16-bit lane from a table, the best of the four, and its card."""
        tables = _lane_best(key[:C.NUM_CARDS].tobytes())
        card_of = np.full(C.NUM_CARDS + 1, NONE, dtype=np.int64)     # key value -> card (0: NONE)
        card_of[key[:C.NUM_CARDS]] = np.arange(C.NUM_CARDS)

        def pick(mask):
            shape = np.shape(mask)
            mask = np.asarray(mask, dtype=np.int64).reshape(-1)
            best = tables[0][mask & 0xFFFF]
            for lane in range(1, _LANES):
                np.maximum(best, tables[lane][(mask >> (16 * lane)) & 0xFFFF], out=best)
            card = card_of[best].reshape(shape)
            return card if card.ndim else int(card)
        return pick

    def members(mask):
        return [(card, ((np.asarray(mask) >> card) & 1).astype(bool)) for card in range(C.NUM_CARDS)]

    def agg_count(mask, cond):
        return sum(np.where(inside, cond(card), False).astype(np.int64) for card, inside in members(mask))

    def agg_any(mask, cond):
        return functools.reduce(np.logical_or, (np.logical_and(inside, cond(card)) for card, inside in members(mask)))

    def agg_all(mask, cond):
        return functools.reduce(np.logical_and,
                                (np.logical_or(~inside, cond(card)) for card, inside in members(mask)))

    def div(a, b):
        if np.any(np.asarray(b) == 0):
            raise RulespecError("division by zero in a rule")
        return np.floor_divide(a, b)

    def mod(a, b):
        if np.any(np.asarray(b) == 0):
            raise RulespecError("modulo by zero in a rule")
        return np.mod(a, b)

    def bit(card):
        card = np.asarray(card, dtype=np.int64)
        return np.where(card >= 0, np.left_shift(1, np.maximum(card, 0)), 0)

    def card_in(card, cards):
        card = np.asarray(card, dtype=np.int64)
        return np.where(card >= 0, ((np.asarray(cards) >> np.maximum(card, 0)) & 1) == 1, False)

    return {
        "__builtins__": {},
        "_cnt": lambda m: np.bitwise_count(np.asarray(m, dtype=np.int64)).astype(np.int64),
        "_hi": picker(high_key), "_lo": picker(low_key),
        "_min": lambda seq: functools.reduce(np.minimum, seq), "_max": lambda seq: functools.reduce(np.maximum, seq),
        "_abs": np.abs, "_div": div, "_mod": mod, "_bit": bit, "_cardin": card_in,
        "_and": np.logical_and, "_or": np.logical_or, "_not": np.logical_not, "_where": np.where,
        "_isin": lambda x, items: np.isin(x, items),
        "_agg_count": agg_count, "_agg_any": agg_any, "_agg_all": agg_all,
        "_RANK": np.asarray([C.natural_rank(c) for c in range(C.NUM_CARDS)], dtype=np.int64),
        "_NSUIT": np.asarray([NONE if c >= C.LITTLE_JOKER else c // 13 for c in range(C.NUM_CARDS)], dtype=np.int64),
        "_SUIT": np.asarray(rs.suit_of, dtype=np.int64), "_POW": power,
        "_SM": np.asarray(rs.suit_masks, dtype=np.int64),
    }


def vector_rules(rs: Ruleset) -> dict[str, Callable]:
    """Array versions of every non-constant rule of ``rs``."""
    env = _env(rs)
    params = {name: (rule.slot.type, rule.value) for name, rule in rs.rules.items() if rule.fn is None}
    out: dict[str, Callable] = {}
    for name, rule in rs.rules.items():
        if rule.fn is None or rule.slot.type == ENUM or rule.slot.context in ("deck", "card"):
            continue
        comp = VectorCompiler(rule.slot, params)
        expr = comp.compile(parse(rule.text).children[0])
        source = f"def rule({', '.join(comp.args.values())}):\n    return {expr.src}\n"
        namespace = dict(env)
        exec(compile(source, f"<vector rule {name}>", "exec"), namespace)  # noqa: S102 - from the checked tree only
        out[name] = namespace["rule"]
    return out
