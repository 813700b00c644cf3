"""The clause index of each source document (``corpus/clauses/NNN.yaml``): where it is,
how a citation names a section of it, and which sections a document has.  The index itself is checked
by ``tools.coverage``; the variant reader uses the sections to check citations."""
from __future__ import annotations

import functools
import os
import re
from pathlib import Path

import yaml

from ..core.resources import data_dir

_CITE_RE = re.compile(r"^(?P<doc>\d{3}|[a-z][a-z0-9_-]*) (?P<mark>[§¶])(?P<rest>\S.*)$")


def clauses_dir() -> Path:
    """Folder of the clause indexes (``$RULESPEC_CLAUSES`` overrides)."""
    return _clauses_dir(os.environ.get("RULESPEC_CLAUSES"))


@functools.lru_cache(maxsize=8)
def _clauses_dir(env: str | None) -> Path:
    return Path(env) if env else data_dir("corpus", "clauses")


def read_index(path: Path):
    """A clause index file's data (libyaml where available: the same data, about 9x faster than PyYAML's
    own reader); ``OSError`` or ``yaml.YAMLError`` when it cannot be read."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def is_text(value) -> bool:
    """A string with something in it."""
    return isinstance(value, str) and bool(value.strip())


def section_of_cite(cite: str) -> tuple[str, str] | None:
    """``"004 §Nil and Blind Nil"`` -> (``"004"``, ``"Nil and Blind Nil"``); ``"003 ¶8"`` -> (``"003"``, ``"¶8"``)."""
    match = _CITE_RE.match(cite.strip())
    if not match:
        return None
    rest = match.group("rest").strip()
    return match.group("doc"), (rest if match.group("mark") == "§" else "¶" + rest)


@functools.lru_cache(maxsize=32)
def known_sections(doc: str) -> frozenset[str] | None:
    """The sections of ``doc``'s clause index (``NNN.yaml``), or None where the document has none."""
    if not re.fullmatch(r"\d{3}", doc):
        return None
    path = clauses_dir() / f"{doc}.yaml"
    try:
        data = read_index(path)
    except (OSError, yaml.YAMLError):
        return None
    clauses = data.get("clauses") if isinstance(data, dict) else None
    if not isinstance(clauses, list):
        return None
    return frozenset(str(c["section"]).strip() for c in clauses if isinstance(c, dict) and is_text(c.get("section")))
