"""The engine adapter protocol: how ``rulespec conform`` drives another Spades engine.

An engine is compared with a variant in lockstep, decision by decision.  It is
either driven in process (``Engine.new_hand`` gives an ``EngineHand``) or read
from a recorded JSON Lines file (``recorded.RecordedEngine``, which implements the
same protocol by replaying the file).  Seats are 0..3 (N E S W), cards are the
project's card ids (``rulespec.core.cards``), bids are ``rulespec.game.Bid``.
See ``docs/conformance.md``.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from ...errors import EngineError
from ...game import Bid
from ..diff.deals import Deal


@dataclass(frozen=True)
class HandResult:
    """What the engine says of a finished hand, by team (NS, EW); None where it does not say."""
    points: tuple[int, int]
    bags: tuple[int, int] | None = None          # bags held after the hand
    game_over: bool | None = None
    winner: str | None = None                    # "NS", "EW" or None


@runtime_checkable
class EngineHand(Protocol):
    """One hand in the engine, from the deal to the score."""

    def to_act(self) -> int:
        """The seat to bid or to play next."""

    def legal_bids(self) -> list[Bid] | None:
        """The bids the seat to act may make (None: the engine does not say)."""

    def bid(self, bid: Bid) -> None:
        """The seat to act bids ``bid``."""

    def legal_cards(self) -> int:
        """The cards (a mask of card ids) the seat to act may play."""

    def play(self, card: int) -> None:
        """The seat to act plays ``card``."""

    def trick_winner(self) -> int | None:
        """The seat that won the trick just completed (called after its fourth card; None: not said)."""

    def result(self) -> HandResult | None:
        """The hand's score, after the last trick (None: not said)."""

    def chosen(self) -> Bid | int | None:
        """The engine's own choice for the next decision (a recorded hand), or None to let the runner choose."""


@runtime_checkable
class Engine(Protocol):
    """A Spades engine: ``new_hand`` starts a hand from a deal (hands, dealer, scores before)."""

    name: str

    def new_hand(self, deal: Deal) -> EngineHand:
        """A new hand of ``deal``: its four hands, its dealer and the scores and bags before it."""

    def fixed_deals(self) -> list[Deal] | None:
        """The deals the engine can play (a recorded file's), or None for any deal."""


ENGINES = {"openspiel": ("rulespec.tools.conform.openspiel", "OpenSpielEngine")}


def load_engine(spec: str) -> Engine:
    """The engine named by ``spec``: ``openspiel``, a recorded ``.jsonl`` file, or ``module:factory``."""
    if spec in ENGINES:
        module, attr = ENGINES[spec]
        try:
            return getattr(importlib.import_module(module), attr)()
        except ImportError as exc:
            raise EngineError(f"engine {spec!r} needs the 'bench' extra (pip install -e '.[bench]'): {exc}") from None
    if spec.endswith(".jsonl") or Path(spec).is_file():
        from .recorded import RecordedEngine
        return RecordedEngine(spec)
    if ":" not in spec:
        raise EngineError(f"unknown engine {spec!r}: name one of {', '.join(ENGINES)}, a recorded .jsonl file, "
                          "or module:factory (a Python adapter; see docs/conformance.md)")
    module, _, attr = spec.partition(":")
    try:
        factory = getattr(importlib.import_module(module), attr)
    except ImportError as exc:
        raise EngineError(f"engine {spec!r}: cannot import {module}: {exc}") from None
    except AttributeError:
        raise EngineError(f"engine {spec!r}: {module} has no {attr}") from None
    engine = factory()
    missing = [m for m in ("name", "new_hand", "fixed_deals") if not hasattr(engine, m)]
    if missing:
        raise EngineError(f"engine {spec!r}: not an engine adapter (missing {', '.join(missing)})")
    return engine
