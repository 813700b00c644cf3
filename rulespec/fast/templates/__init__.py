"""Fixed numba text of the generated modules, in files of their own (so linters and readers see them).

Each file imports the names the generated module defines for it (the ruleset's constants and tables,
the lowered form's functions) from ``names``, on lines marked ``# generated``; ``text(name)`` gives a
file without those lines, ready to be written after the definitions."""
from __future__ import annotations

import functools
from pathlib import Path

_HERE = Path(__file__).parent


@functools.lru_cache(maxsize=None)
def text(name: str) -> str:
    """Template ``name`` (a file of this folder) without its lines marked ``# generated`` (and its docstring)."""
    lines = (_HERE / f"{name}.py").read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [line for line in lines if not line.rstrip().endswith("# generated")]
    return "".join(kept)
