"""Fixed numba text of the compiled search's module (``native_source``), in files of their own (so linters and
readers see them): ``search_engine.py``, the search itself.

As with the compiled engine's (``fast/templates``), a template imports the names its generated module defines
on lines marked ``# generated``: the ruleset's constants and card play from ``names`` (stand-ins), the arrays'
layout from ``native_arrays`` (whose values the generator writes); ``text(name)`` gives it without them."""
from __future__ import annotations

import ast
import functools
from pathlib import Path

from ...fast import templates

_HERE = Path(__file__).parent


def text(name: str) -> str:
    """Template ``name`` (a file of this folder) from its first line of code, without its docstring and its lines
    marked ``# generated``."""
    return templates.text(name, _HERE).split('"""', 2)[2].lstrip("\n")


@functools.lru_cache(maxsize=None)
def imported(name: str, module: str) -> tuple[str, ...]:
    """The names template ``name`` imports from ``module`` (relative to this folder, as written: ``..x``)."""
    tree = ast.parse((_HERE / f"{name}.py").read_text(encoding="utf-8"))
    dots = len(module) - len(module.lstrip("."))
    return tuple(alias.name for node in tree.body if isinstance(node, ast.ImportFrom)
                 and node.level == dots and node.module == module.lstrip(".") for alias in node.names)
