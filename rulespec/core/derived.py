"""What the package derives from its own code (the scalar steps' compiled module, the lowered form's expanded
functions, the same for every ruleset) and from a variant file (its array engine's code), kept on disk between
processes.

Working these out takes a new process about half a second (the lowered form is read, expanded and
written out with ``ast``); every command and every service worker did it again.  They are kept in the
folder of the compiled machine code (``jit.cache_root``: the user's own, mode 0700) under a digest of
every source file of the package and the interpreter's version, so an edited file or another Python
makes a new entry.  The files hold marshalled code and pickled syntax trees, as Python's own
``__pycache__`` holds code: they are read only from that folder, written only by this module (atomically:
another process never reads half a file).  Where no folder is writable, or an entry cannot be read,
it is worked out as before.
"""
from __future__ import annotations

import functools
import hashlib
import marshal
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .jit import JitUnavailable, cache_root

T = TypeVar("T")

_PACKAGE = Path(__file__).resolve().parent.parent
# (dumps, loads) by format; what each can write is the format's own (marshal: code and plain values)
_FORMATS: dict[str, tuple[Callable[[Any], bytes], Callable[[bytes], object]]] = {
    "marshal": (marshal.dumps, marshal.loads),
    "pickle": (functools.partial(pickle.dumps, protocol=pickle.HIGHEST_PROTOCOL), pickle.loads),
}


@functools.lru_cache(maxsize=1)
def source_digest() -> str:
    """A digest of the package's Python sources (paths and bytes) and of the interpreter that reads them."""
    digest = hashlib.sha256(f"{sys.version}|{sys.implementation.cache_tag}".encode())
    for path in sorted(_PACKAGE.rglob("*.py")):
        digest.update(str(path.relative_to(_PACKAGE)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _entry(kind: str, key: str, fmt: str) -> Path:
    name = hashlib.sha256(f"{source_digest()}|{kind}|{key}".encode()).hexdigest()[:32]
    return cache_root().parent / "derived" / f"{kind}-{name}.{fmt}"


def kept(kind: str, key: str, make: Callable[[], T], fmt: str = "marshal", keep: bool = True) -> T:
    """``make()``, read from the disk entry of (``kind``, ``key``) when one was written for this package's code,
    else worked out and written there (``keep=False``: worked out, the disk left alone)."""
    dumps, loads = _FORMATS[fmt]
    if not keep:
        return make()
    try:
        path = _entry(kind, key, fmt)
    except (JitUnavailable, OSError):
        return make()
    try:
        return loads(path.read_bytes())     # type: ignore[return-value]  # written by ``dumps(make())`` below
    except (OSError, EOFError, ValueError, TypeError, AttributeError, ImportError, IndexError,
            pickle.UnpicklingError):
        pass
    value = make()
    try:
        path.parent.mkdir(mode=0o700, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_bytes(dumps(value))
        os.replace(temporary, path)
    except OSError:
        pass
    return value
