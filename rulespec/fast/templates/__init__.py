"""Fixed numba text of the generated modules, in files of their own (so linters and readers see them).

Each file imports the names the generated module defines for it (the ruleset's constants and tables,
the lowered form's functions) from ``names``, on lines marked ``# generated``; ``text(name)`` gives a
file without those lines, ready to be written after the definitions."""
from __future__ import annotations

import functools
from pathlib import Path

_HERE = Path(__file__).parent


@functools.lru_cache(maxsize=None)
def text(name: str, folder: Path = _HERE) -> str:
    """Template ``name`` (a file of ``folder``, this one unless told) without its lines marked ``# generated``
    (its docstring kept)."""
    lines = (folder / f"{name}.py").read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [line for line in lines if not line.rstrip().endswith("# generated")]
    return "".join(kept)
