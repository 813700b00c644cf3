"""Engines by name: ``openspiel`` (the bench extra), a recorded ``.jsonl`` file, or ``module:factory``."""
from __future__ import annotations

import importlib
from pathlib import Path

from ...errors import EngineError
from .protocol import Engine
from .recorded import RecordedEngine

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
