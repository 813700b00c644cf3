"""The package's own data, read through ``importlib.resources`` so that an installed wheel finds it:
the bundled variants and the corpus (clause indexes, worked examples and dispute cases, sample deals)
under ``rulespec/data/``, and the rules grammar."""
from __future__ import annotations

import functools
from importlib.resources import files
from pathlib import Path


@functools.lru_cache(maxsize=1)
def _data_root() -> Path:
    """The package's ``data`` folder, looked up once (``importlib.resources`` costs tens of µs a call)."""
    return Path(str(files("rulespec").joinpath("data")))


def data_dir(*parts: str) -> Path:
    """A folder (or file) of the package's data, e.g. ``data_dir("variants")``."""
    return _data_root().joinpath(*parts)


def grammar_text() -> str:
    """The LALR grammar of rule expressions."""
    return files("rulespec.lang").joinpath("rules.lark").read_text(encoding="utf-8")
