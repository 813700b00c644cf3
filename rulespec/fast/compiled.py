"""The compiled scalar engine: whole random hands, one at a time, as numba machine code per ruleset.

``CompiledEngine(rs)`` generates ``rs``'s hand module (``native_hand.source``: the rules' own
checked expressions in the hand procedure's steps), loads it through ``core.jit`` (numba's
on-disk cache keeps the machine code between processes) and plays with it:
``play(count, seed, dealer)`` runs ``count`` hands in order inside one compiled loop (each
hand's steps one after another, nothing in lockstep) and returns them as a ``batch.BatchResult``,
the batch engine's arrays, so records and statistics are written the same way; ``play_one``
is the same for one hand with arrays made once (one call from Python per hand).  The same seed
gives the same hands in every run.  numba is imported only when an engine is made.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from ..core import cards as C
from ..core import jit
from ..errors import GameError, RulespecError
from ..model.ruleset import Ruleset, per_ruleset
from .batch import BatchResult, draw_widths
from .native_hand import source

_SEED_BYTES = 4      # numba's generator takes a 32-bit seed


@dataclass
class CompiledResult(BatchResult):
    """``BatchResult`` of the compiled engine."""


def native_seed(seed: int | str) -> int:
    """The 32-bit seed of numba's generator for ``seed`` (the same on every machine)."""
    return int.from_bytes(hashlib.sha256(f"compiled:{seed}".encode()).digest()[:_SEED_BYTES], "little")


@per_ruleset
def _modules(rs: Ruleset) -> dict[str, ModuleType]:
    return {}


def hand_module(rs: Ruleset, policy: str = "random") -> ModuleType:
    """``rs``'s compiled hand module for ``policy``'s players (generated, loaded and compiled once per ruleset,
    policy and process: numba compiles on the first call, so one hand is played and set aside; another process
    compiling the same module meanwhile waits for it, ``jit.compiling``)."""
    made = _modules(rs)
    if policy not in made:
        text = source(rs, policy)
        with jit.compiling("hand", text):
            module = jit.load("hand", text)
            try:
                module.play(1, native_seed(0), 0, *_arrays(rs, 1))
            except RulespecError:      # a rule's own error in that hand: compiled all the same
                pass
        made[policy] = module
    return made[policy]


def _arrays(rs: Ruleset, count: int) -> tuple[np.ndarray, ...]:
    """Empty result arrays for ``count`` hands of ``rs``, in the compiled ``play``'s order of arguments."""
    def zeros(*shape: int) -> np.ndarray:
        return np.zeros((count, *shape), dtype=np.int64)
    # deals, kinds, nums, openings, tricks, points, bags_added, bags_after, plays, leaders, winners, gave,
    # received, kitties (the kitty taken and the cards discarded: two masks), stocks and draws (deal.draw)
    table, size = C.table_of(rs.params), rs.params["deal.hand_size"]
    stock, turns = draw_widths(rs)
    places = table.places
    return (zeros(table.seats), zeros(places), zeros(places), zeros(places), zeros(places), zeros(table.sides),
            zeros(table.sides), zeros(table.sides), zeros(size, places), zeros(size), zeros(size), zeros(places),
            zeros(places), zeros(2), zeros(stock), zeros(turns))


class CompiledEngine:
    """A ruleset's compiled hand played by ``policy``'s players (``native_hand.POLICIES``), and arrays to play
    it into."""

    def __init__(self, rs: Ruleset, policy: str = "random"):
        self.rs, self.policy = rs, policy
        self.size: int = rs.params["deal.hand_size"]
        self.table = C.table_of(rs.params)
        self.module = hand_module(rs, policy)
        self._one = _arrays(rs, 1)

    def _run(self, count: int, seed: int | str, dealer: int, arrays: tuple[np.ndarray, ...]) -> None:
        try:
            self.module.play(count, native_seed(seed), dealer, *arrays)
        except GameError as exc:     # raised by the compiled code, without the rule's citation
            rule = exc.rule
            raise type(exc)(exc.message, exc.field, rule, self.rs.rules[rule].cite if rule else None) from None

    def play(self, count: int, seed: int | str = 0, dealer: int = 0) -> CompiledResult:
        """``count`` hands from 0-0 dealt by ``dealer``, played in order from ``seed``."""
        arrays = _arrays(self.rs, count)
        self._run(count, seed, dealer, arrays)
        return _result(arrays, dealer)

    def play_one(self, seed: int | str = 0, dealer: int = 0) -> CompiledResult:
        """One hand from 0-0 (``play(1, seed, dealer)``, into arrays made once: the result is overwritten
        by the next call)."""
        self._run(1, seed, dealer, self._one)
        return _result(self._one, dealer)


def _result(arrays: tuple[np.ndarray, ...], dealer: int) -> CompiledResult:
    (deals, kinds, nums, openings, tricks, points, bags_added, bags_after, plays, leaders, winners, gave, received,
     kitties, stocks, draws) = arrays
    dealers = np.full(len(deals), dealer, dtype=np.int64)
    return CompiledResult(kinds, nums, tricks, points, bags_added, bags_after, deals, dealers, plays, leaders, winners,
                          gave, received, kitties, openings, stocks, draws)
