"""The search compiled to machine code (``native_source`` through ``core.jit``), and the choice of search.

``searcher`` gives a ``NativeSearch`` where the ruleset's generated module compiles in numba's
nopython mode, else the Python ``search.Search`` (the reference; used where a rule has no form in
numba's subset, ``NativeRuleError``, where numba is missing, and when ``RULESPEC_SOLVER=python``).
Both answer alike: ``NativeSearch`` is a ``Search`` whose questions (``can``, and each card tried
for the principal line) run in compiled code, asked in another order (``value``: first at a playout's
guess), while the line itself, its move order and the conflicts and dead ends along it stay the Python
search's.

A ruleset's module is compiled once per process (the first search under it; numba's disk cache
makes later processes load it in well under a second).  A service request never compiles: it uses
the compiled search where it is ready and the Python search otherwise, while a bundled variant's
module is compiled in another process for later requests (``searcher``'s ``compile_now``).
Budgets: the compiled search counts its nodes and stops at a limit it is given; with a time
allowance it runs in chunks of nodes, the clock read before and between them (a chunk stopped is
searched again from its root, the table keeping what was proven).
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from types import ModuleType

from ..core import cards as C
from ..core import jit
from ..errors import JitUnavailable, NativeRuleError, RulespecError
from ..game.steps import bad_winner
from ..lang.compiler import NONE
from ..model.ruleset import Ruleset, load_ruleset, per_ruleset
from ..model.variants import bundled_ids
from . import native_arrays as S
from . import native_source
from .search import Budget, Goal, Position, Search

_FIRST_CHUNK = 1 << 21     # nodes before the clock is first read (with a time allowance; about a second)
_LARGEST_CHUNK = 1 << 23   # nodes between two reads of the clock at most (about four seconds)
_SMALLEST_CHUNK = 1 << 16  # nodes of a chunk at least, however little time is left (about 30 ms)
_NODE_SECONDS = 1e-6       # a node's time until a chunk has measured it (measured: 0.4 to 0.5 µs on full deals)
_UNLIMITED = 1 << 62
_TABLE_BITS = (12, 21)     # the table's size: 2**bits entries, by the tricks left, within these
_GUESS_FROM = 8            # tricks left from which ``value`` asks first at a playout's guess
# tricks left up to which the Python search answers sooner than the compiled module loads (``worth_loading``):
# within 0.11 s on 20 random positions of 7 tricks (standard, bridge-spades), where importing numba and
# loading a module from its disk cache take about 0.8 s (8 tricks: up to 0.77 s)
PYTHON_UP_TO = 7


NativeUnavailable = (JitUnavailable, NativeRuleError)    # no numba here; a rule numba's subset cannot express


def _build(rs: Ruleset) -> ModuleType | JitUnavailable | NativeRuleError:
    try:
        source = native_source.source(rs)
        with jit.compiling("solve", source):
            module = jit.load("solve", source)
            _warm(rs, module)
    except NativeUnavailable as exc:
        return exc
    jit.mark_compiled("solve", source)    # only now: a process stopped while compiling leaves no mark (``ready``)
    return module


_modules = per_ruleset(_build)


def _warm(rs: Ruleset, module: ModuleType) -> None:
    """Compile (or load from numba's cache) the module's entry points, ``search`` and ``playout``: each once
    on a one-card position."""
    cards = C.card_list(rs.deck)[:4]
    if len(cards) < 4:
        return
    st, mv, tk, dt = _arrays(1, Goal.of_team(0, 0b0101), 12)
    st[:4] = [1 << card for card in cards]
    st[S.ST_GEN] = 1
    try:
        module.playout(st, mv, 0, 1, False, 0)
    except RulespecError:        # a rule's own error on this made-up position: compiled all the same
        pass
    try:
        module.search(st, mv, tk, dt, 0, 0, 0, NONE, NONE, 1, False, 0, 1)
    except RulespecError:
        pass


def native_module(rs: Ruleset) -> ModuleType:
    """``rs``'s compiled search module (compiled once per process); ``JitUnavailable`` without numba,
    ``NativeRuleError`` naming a rule numba's subset cannot express."""
    found = _modules(rs)
    if isinstance(found, NativeUnavailable):
        raise found
    return found


def _state(last: int, goal: Goal, bits: int):
    """A search's state array and its frames (rows by the hand's card number, so frames of searches with the
    same ``last`` line up: a kept row's killer lead is at the same depth of the hand)."""
    import numpy as np
    st = np.zeros(S.ST_SIZE, dtype=np.int64)
    st[S.ST_TEAM], st[S.ST_COUNTED], st[S.ST_LAST] = goal.team, goal.counted, last
    st[S.ST_TTMASK] = (1 << bits) - 1
    mv = np.zeros((4 * (last + 2), S.MV_WIDTH), dtype=np.int64)
    return st, mv


def _arrays(last: int, goal: Goal, bits: int):
    """A search's state, frames and empty tables of 2**bits entries (``_state``, ``_fresh``)."""
    return (*_state(last, goal, bits), *_fresh(bits))


def _fresh(bits: int) -> tuple:
    """Table arrays (entries: keys and bounds; depth lists) of 2**bits entries, all empty (generation 0)."""
    import numpy as np
    return (np.zeros((1 << bits, S.TT_WIDTH), dtype=np.int64),
            np.zeros((1 << (bits - 3), 3 + S.DEPTHS), dtype=np.int64))


@dataclass
class Kept:
    """A table set a finished search gave back: its arrays (entries, depth lists; and the frames, whose killer
    leads the next search of the deal starts from), the generation its live entries have, what their bounds are
    about (``context``: the compiled module, the goal's team and counted seats, the hand's last trick, the cards
    neither held nor played), and the deal as far as its searches saw it (``held``: each seat's cards, those it
    played to a trick in progress included)."""
    tables: tuple
    frames: object
    generation: int
    context: tuple
    held: tuple[int, int, int, int]


def _held(pos: Position) -> tuple[int, int, int, int]:
    """Each seat's cards at ``pos``: its hand and its card in the trick in progress."""
    held = list(pos.hands)
    for k, card in enumerate(pos.trick):
        held[(pos.leader + k) % 4] |= 1 << card
    return (held[0], held[1], held[2], held[3])


def same_deal(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Whether two positions' cards (``_held``) can be of one deal: no card held by one seat in one and by
    another seat in the other."""
    return all(a[s] & (b[(s + 1) & 3] | b[(s + 2) & 3] | b[(s + 3) & 3]) == 0 for s in range(4))


# table sets given back by finished searches, by size: at most one of each size is kept for the next search
_FREE: dict[int, Kept] = {}
_FREE_LOCK = threading.Lock()       # (a service worker's threads search side by side)


def _tables(bits: int, context: tuple, held: tuple[int, int, int, int]) -> tuple[Kept, int]:
    """The tables for a search of 2**bits entries or more: a set kept by a search of the same deal in the same
    ``context``, as it was (its bounds hold for this search: see docs/solver.md), the smallest such of at least
    ``bits``, its ``held`` grown by this search's; else a kept set of ``bits`` emptied (its generation moved on:
    an entry or a depth list of another generation is empty, which answers rely on), or else made afresh (its
    frames None: to be made).  Reused, they spare the kernel mapping and zeroing them again for each search
    (up to 80 MB on a full deal: 30 full deals, median 166 ms a deal made afresh against 137 ms reused), and
    the next generation spares emptying them (5 ms a full deal's tables).  Also the size taken."""
    with _FREE_LOCK:
        for size in range(bits, _TABLE_BITS[1] + 1):
            kept = _FREE.get(size)
            if kept is not None and kept.context == context and same_deal(kept.held, held):
                del _FREE[size]
                kept.held = (kept.held[0] | held[0], kept.held[1] | held[1], kept.held[2] | held[2],
                             kept.held[3] | held[3])
                return kept, size
        kept = _FREE.pop(bits, None)
    if kept is None:
        return Kept(_fresh(bits), None, 1, context, held), bits
    kept.generation += 1
    if kept.generation >> 30:        # (never on this side of a billion searches; the field has 39 bits)
        for table in kept.tables:
            table[:] = 0
        kept.generation = 1
    kept.frames, kept.context, kept.held = None, context, held
    return kept, bits


def forget() -> None:
    """Let the next searches learn afresh: every kept table set is emptied before its next use (it stays
    allocated: a search timed from an empty table, as after another deal)."""
    with _FREE_LOCK:
        for kept in _FREE.values():
            kept.context = ()


def _give_back(kept: Kept) -> None:
    """``kept`` no longer used by its search: kept for the next search of its size (the latest given back of
    each size)."""
    with _FREE_LOCK:
        _FREE[len(kept.tables[0]).bit_length() - 1] = kept


class NativeSearch(Search):
    """``Search`` with its questions answered by the compiled search of ``module``."""

    def __init__(self, rs: Ruleset, pos: Position, goal: Goal, budget: Budget | None, module: ModuleType):
        super().__init__(rs, pos, goal, budget)
        self.module = module
        bits = min(max(_TABLE_BITS[0], 8 + self.remaining), _TABLE_BITS[1])
        if self.max_nodes is not None:      # no more entries than a quarter of the nodes allowed could store
            bits = max(_TABLE_BITS[0], min(bits, (self.max_nodes // 4).bit_length()))
        # the bounds a table holds are about this: the rules, the goal, the hand's length (the trick number
        # follows from the cards left), the cards out of play (with the cards held, they give the cards played)
        live = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]
        self.context = (module.__name__, goal.team, goal.counted, self.last, rs.deck & ~live & ~pos.played)
        self.kept, bits = _tables(bits, self.context, _held(pos))
        self.tk, self.dt = self.kept.tables
        self.st, self.mv = _state(self.last, goal, bits)
        if self.kept.frames is not None:
            self.mv = self.kept.frames
        self.kept.frames = self.mv
        self.st[S.ST_GEN] = self.kept.generation
        self.st[S.ST_QUICK] = self.quick is not None
        self.chunk = _FIRST_CHUNK
        self.node_seconds = _NODE_SECONDS

    def __del__(self) -> None:
        if getattr(self, "kept", None) is not None:      # (absent when made without its arrays)
            _give_back(self.kept)

    def _bind(self) -> None:
        """No Python inner loop: the questions, and each card tried for the line, run compiled."""

    def value(self) -> int:
        """``Search.value`` asked in another order (the answer is the same): from ``_GUESS_FROM`` tricks left
        at a trick boundary, first at a guess (a playout of the search's own first choices), then one above
        or below it, then by bisection; with fewer tricks left, bisection alone (cheaper than the playout)."""
        pos, high = self.root, self.remaining
        if pos.trick or high < _GUESS_FROM:
            return super().value()
        self.st[:4] = pos.hands
        guess = int(self.module.playout(self.st, self.mv, pos.leader, pos.number, pos.broken, pos.played))
        if guess < 0:
            return super().value()
        low, guess = 0, min(max(guess, 1), high)
        if self.can(guess):         # the answer is the guess, one above it, or else found by bisection
            low = guess
            if low == high or not self.can(low + 1):
                return low
            low += 1
        else:
            high = guess - 1
            if high == 0 or self.can(high):
                return high
            high -= 1
        return self._bisect(low, high)

    def can(self, need: int) -> bool:
        pos = self.root
        return self._native(pos.hands, pos.leader, pos.trick, pos.number, pos.broken, pos.played, need)

    def _after(self, seat: int, hand: int, card: int, leader: int, index: int, trick_mask: int, led: int,
               lead: int, number: int, broken: bool, played: int, need: int) -> bool:
        """For the line (``Search._best``): whether, ``card`` played, the team still reaches ``need``."""
        if not broken and self.rules.breaks(card, hand, index == 0, led, number):
            broken = True
        hands = list(self.hands)
        hands[seat] = hand & ~(1 << card)
        trick = [*self.trick, card]
        played |= 1 << card
        if len(trick) < 4:
            return self._native(hands, leader, trick, number, broken, played, need)
        winner = self._winner_seat(leader, trick, number)
        return self._native(hands, winner, [], number + 1, broken, played,
                            need - (self.goal.counted >> winner & 1))

    def _native(self, hands: list[int], leader: int, trick: list[int], number: int, broken: bool, played: int,
                need: int) -> bool:
        """The compiled search's answer from this position, within the budget."""
        st = self.st
        lead = trick[0] if trick else NONE
        led = self.rules.suit_of[lead] if trick else NONE
        if self.deadline is not None:
            self._check()        # a time allowance already spent
        while True:
            # (a search stopped midway leaves the hands as it was playing; element by element: a slice set from a
            # list costs more)
            st[0], st[1], st[2], st[3] = hands
            for k, card in enumerate(trick):
                st[S.ST_TRICK + k] = card
            limit = _UNLIMITED if self.max_nodes is None else self.max_nodes
            if self.deadline is not None:      # a chunk, no longer than the time left takes at a node's pace
                left = self.deadline - time.monotonic()
                limit = min(limit, self.nodes + min(self.chunk, max(_SMALLEST_CHUNK, int(left / self.node_seconds))))
            st[S.ST_LIMIT] = limit
            start, before = time.monotonic(), self.nodes
            result = self.module.search(st, self.mv, self.tk, self.dt, leader, len(trick), C.mask_of(trick),
                                        led, lead, number, broken, played, need)
            self.nodes = int(st[S.ST_NODES])
            if self.nodes - before >= _SMALLEST_CHUNK:
                self.node_seconds = (time.monotonic() - start) / (self.nodes - before)
            if result < S.ABORT:
                return bool(result)
            if result == S.BAD_WINNER:
                bad_winner(self.rs, int(st[S.ST_BAD]))
            self._check()        # raises once the allowance is spent; else search again, a larger chunk
            self.chunk = min(self.chunk * 2, _LARGEST_CHUNK)


def searcher(rs: Ruleset, pos: Position, goal: Goal, budget: Budget | None = None, compiled: bool = True,
             compile_now: bool = True) -> Search:
    """The search for ``goal`` from ``pos``: compiled where the ruleset allows (see the module's text) unless
    ``compiled`` is false (small positions under many rulesets, where compiling each costs more than it saves).
    Without ``compile_now`` (a service request: compiling takes seconds of CPU that no budget bounds) the
    compiled search is used only when it is ready (``ready``); otherwise the Python search answers and a
    bundled variant's module is compiled in another process for the requests after it.  A table other than four
    seats in partnerships has no compiled search (``native_source.source``): the Python search answers."""
    if compiled and os.environ.get("RULESPEC_SOLVER") != "python":
        if compile_now or ready(rs):
            try:
                return NativeSearch(rs, pos, goal, budget, native_module(rs))
            except NativeUnavailable:
                pass
        else:
            _compile_elsewhere(rs)
    return Search(rs, pos, goal, budget)


def _source_or_none(rs: Ruleset) -> str | None:
    try:
        return native_source.source(rs)
    except NativeRuleError:
        return None


_sources = per_ruleset(_source_or_none)


def ready(rs: Ruleset) -> bool:
    """Whether ``rs``'s compiled search can be had without compiling anything (loaded in this process, or
    in numba's disk cache: loading it takes well under a second)."""
    source = _sources(rs)
    return source is not None and jit.compiled("solve", source)


def worth_loading(rs: Ruleset, pos: Position) -> bool:
    """Whether a search from ``pos`` is worth loading ``rs``'s compiled module for (compiling it where it is
    not in numba's disk cache): it is loaded in this process already, or ``pos`` has more than
    ``PYTHON_UP_TO`` tricks left."""
    source = _sources(rs)
    return source is not None and (jit.loaded("solve", source) or max(h.bit_count() for h in pos.hands) > PYTHON_UP_TO)


_LAUNCHED: dict[str, subprocess.Popen | None] = {}     # variant id -> its compiling process (None: not bundled)


def _compile_elsewhere(rs: Ruleset) -> None:
    """Compile a bundled variant's search module into numba's disk cache in a process of its own, once per
    variant and one at a time per process (a house rule's is not: its requests are searched in Python); never
    with ``RULESPEC_PRECOMPILE=off`` (the test suite's setting: it compiles what its tests need itself, rather
    than beside them in every process that answers a request)."""
    if rs.id in _LAUNCHED or _sources(rs) is None or not jit.available() \
            or os.environ.get("RULESPEC_PRECOMPILE") == "off":
        return
    if any(proc is not None and proc.poll() is None for proc in _LAUNCHED.values()):
        return          # one at a time; a later request starts the next
    bundled = rs.id in bundled_ids()
    _LAUNCHED[rs.id] = subprocess.Popen(
        [sys.executable, "-c", "import sys; from rulespec.solve.native import precompile; precompile(sys.argv[1])",
         rs.id], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True) if bundled else None


def precompile(variant: str) -> None:
    """Compile bundled ``variant``'s search module into numba's disk cache (run by ``_compile_elsewhere``)."""
    native_module(load_ruleset(variant))
