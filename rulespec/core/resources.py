"""The package's own data, read through ``importlib.resources`` so that an installed wheel finds it:
the bundled variants and the corpus (clause indexes, worked examples and dispute cases, sample deals),
and the rules grammar.  In the repository the data lives at the top level (``variants/``, ``corpus/``);
``rulespec/data/variants`` and ``rulespec/data/corpus`` are links to them, which the wheel's build
follows (the installed package holds the files themselves)."""
from __future__ import annotations

import functools
from importlib.resources import files
from pathlib import Path


@functools.lru_cache(maxsize=1)
def _data_root() -> Path:
    """The package's ``data`` folder, looked up once (``importlib.resources`` costs tens of µs a call)."""
    return Path(str(files("rulespec").joinpath("data")))


@functools.lru_cache(maxsize=8)
def _folder(name: str) -> Path:
    """A top folder of the data, its links followed (a problem names ``variants/standard.yaml``, where the file is)."""
    return _data_root().joinpath(name).resolve()


def data_dir(*parts: str) -> Path:
    """A folder (or file) of the package's data, e.g. ``data_dir("variants")``."""
    return _folder(parts[0]).joinpath(*parts[1:]) if parts else _data_root()


def grammar_text() -> str:
    """The LALR grammar of rule expressions."""
    return files("rulespec.lang").joinpath("rules.lark").read_text(encoding="utf-8")
