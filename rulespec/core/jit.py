"""Generated code compiled to machine code with numba, cached on disk between processes.

Some loops are generated per ruleset from the hand procedure's templates with the rules'
checked expressions inlined (``game.fused``, ``solve.generated``).  Where they must run at
native speed, the generator writes a module whose functions are ``numba.njit(cache=True)``:
numba's nopython mode types every operation, so the generated code can do nothing but
arithmetic on the values it is given (no builtins, no imports, no I/O; anything else fails
to compile, it is never run by the interpreter).  numba caches compiled functions next to
the source *file* they come from, so the source is written once, named by its digest, into
a per-user cache folder (``$RULESPEC_CACHE``, else ``$XDG_CACHE_HOME/rulespec``, else
``~/.cache/rulespec``; a private temporary folder when none of them is writable), and
imported from there.  A file whose content does not match its digest is never imported.

numba is imported only when such a module is loaded (importing it costs about half a second).
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

try:
    import fcntl
except ImportError:          # (not on Windows: compiling there is not shared between processes)
    fcntl = None  # type: ignore[assignment]

from ..errors import JitUnavailable

__all__ = ["JitUnavailable", "available", "cache_root", "cached", "compiled", "compiling", "load", "loaded",
           "mark_compiled"]
_SUBDIR = "jit"


@functools.lru_cache(maxsize=1)
def available() -> bool:
    """True when numba can be imported (looked up once: ``compiled`` asks it on service requests)."""
    return importlib.util.find_spec("numba") is not None


def cache_root() -> Path:
    """The folder the generated modules (and numba's cache of their machine code) live in."""
    for candidate in (os.environ.get("RULESPEC_CACHE"),
                      os.environ.get("XDG_CACHE_HOME") and str(Path(os.environ["XDG_CACHE_HOME"], "rulespec")),
                      str(Path.home() / ".cache" / "rulespec")):
        if candidate and _usable(Path(candidate, _SUBDIR)):
            return Path(candidate, _SUBDIR)
    fallback = Path(tempfile.gettempdir(), f"rulespec-{os.getuid() if hasattr(os, 'getuid') else 'user'}", _SUBDIR)
    if _usable(fallback):
        return fallback
    raise JitUnavailable(f"no writable cache folder for compiled code (tried {fallback}); set RULESPEC_CACHE")


def _usable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        return os.access(folder, os.W_OK)
    except OSError:
        return False


@functools.lru_cache(maxsize=256)
def _name(kind: str, source: str) -> str:
    """The module's name: ``kind`` and the source's digest (worked out once per source: a service request
    asks ``compiled`` with the same source again and again)."""
    return f"rulespec_jit_{kind}_{hashlib.sha256(source.encode('utf-8')).hexdigest()[:24]}"


def loaded(kind: str, source: str) -> bool:
    """Whether ``source``'s module is loaded in this process (``load`` returns it at once)."""
    return _name(kind, source) in sys.modules


def compiled(kind: str, source: str) -> bool:
    """Whether ``load(kind, source)`` would compile nothing: the module is loaded in this process, or its
    file is in the cache folder with numba's cache of machine code beside it, marked complete by
    ``mark_compiled`` (a process stopped while compiling leaves some functions cached and no mark)."""
    return loaded(kind, source) or cached(kind, source)


def cached(kind: str, source: str) -> bool:
    """Whether ``source``'s module and numba's machine code for it are in the cache folder, marked complete
    (what another process, which has loaded nothing yet, would find)."""
    if not available():
        return False
    name = _name(kind, source)
    try:
        root = cache_root()
    except JitUnavailable:
        return False
    path = root / f"{name}.py"
    return (path.exists() and (root / f"{name}.done").exists()
            and any((root / "__pycache__").glob(f"{name}.*.nbi")) and path.read_text(encoding="utf-8") == source)


def mark_compiled(kind: str, source: str) -> None:
    """Record that the functions of ``source``'s module its user calls are compiled into numba's disk cache
    (call it after running them once: numba compiles a function on its first call)."""
    (cache_root() / f"{_name(kind, source)}.done").touch()


@contextlib.contextmanager
def compiling(kind: str, source: str) -> Iterator[None]:
    """Held while this process loads ``source``'s module and runs what numba compiles on first use: a process
    that comes to compile the same module meanwhile waits, then reads the machine code from numba's disk cache
    instead of compiling it a second time (a lock file beside the module; nothing is shared without one)."""
    try:
        root = cache_root()
    except JitUnavailable:
        root = None
    if root is None or fcntl is None:
        yield
        return
    with open(root / f"{_name(kind, source)}.lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def load(kind: str, source: str) -> ModuleType:
    """The module of generated ``source`` (``kind`` names what it holds, e.g. ``"hand"``), written
    to the cache folder under its digest if not there yet, and imported (once per process)."""
    if not available():
        raise JitUnavailable("numba is not installed: pip install numba (a dependency of spades-rulespec)")
    name = _name(kind, source)
    if name in sys.modules:
        return sys.modules[name]
    path = cache_root() / f"{name}.py"
    if not (path.exists() and path.read_text(encoding="utf-8") == source):
        path.with_suffix(".done").unlink(missing_ok=True)    # numba recompiles a rewritten file
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(source, encoding="utf-8")
        os.replace(temporary, path)     # atomic: another process never sees half a file
    module = ModuleType(name)
    module.__file__ = str(path)
    # the code run is compiled from ``source`` itself; the file is there for numba's cache, which
    # keys compiled functions by the file their code names (and its size and time)
    exec(compile(source, str(path), "exec"), module.__dict__)    # noqa: S102 -- generated, see the module doc
    sys.modules[name] = module
    return module
