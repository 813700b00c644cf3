"""Generated code compiled to machine code with numba, cached on disk between processes.

Some loops are generated per ruleset from the hand procedure's templates with the rules'
checked expressions inlined (``game.fused``, ``solve.generated``).  Where they must run at
native speed, the generator writes a module whose functions are ``numba.njit(cache=True)``:
numba's nopython mode types every operation, so the generated code can do nothing but
arithmetic on the values it is given (no builtins, no imports, no I/O; anything else fails
to compile, it is never run by the interpreter).  numba caches compiled functions next to
the source *file* they come from, so the source is written once, in parts named by their digests, into
a per-user cache folder (``$RULESPEC_CACHE``, else ``$XDG_CACHE_HOME/rulespec``, else
``~/.cache/rulespec``; a private temporary folder when none of them is writable), and
imported from there.  A part whose file does not hold its text is written again, never imported.

A module is not written whole: ``parts`` splits it into one file per function, each holding the imports,
the constants it reads and imports of the parts it calls, named by the digest of that text.  Rulesets share
most of their functions (the 30 bundled hand modules' 1,051 functions are 205 distinct parts, the 25 search
modules' 1,475 are 249), so a function compiled once for one ruleset is loaded from numba's cache for every
other (the 30 hand modules from a cold cache: 103 s of compiling whole, 54 s in parts).  ``load`` imports
the parts in order and returns a module of the whole's names.

numba is imported only when such a module is loaded (importing it costs about half a second).
"""
from __future__ import annotations

import ast
import contextlib
import functools
import graphlib
import hashlib
import importlib.util
import os
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Part:
    """One file of a split module: its module name and text, and the function it defines."""
    name: str
    text: str
    defines: str


@dataclass(frozen=True)
class Split:
    """A module as ``parts`` splits it: the parts in the order they import each other (callees first), and the
    text of the whole module's namespace (its imports, each function imported from its part, its constants)."""
    parts: tuple[Part, ...]
    facade: str


def _defined(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.FunctionDef):
        return [node.name]
    if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    raise ValueError(f"generated module: line {node.lineno}: only imports, functions and assignments to names "
                     "may stand at the top level")


class _TopLevel:
    """A generated module's top level: the text of its imports, and its other statements (docstrings left out),
    each with the names it defines, the statements whose names it reads, whether it is a function, and what it
    needs (``_needs``)."""

    def __init__(self, source: str):
        body = ast.parse(source).body
        self.lines = source.splitlines(keepends=True)
        imported = [n for n in body if isinstance(n, (ast.Import, ast.ImportFrom))]
        self.imports = "".join(map(self.text, imported))
        self.nodes = [n for n in body if n not in imported and not _docstring(n)]
        self.defines = [_defined(node) for node in self.nodes]
        where = {name: i for i, names in enumerate(self.defines) for name in names}
        self.reads = [sorted({where[n.id] for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in where}
                             - {i}) for i, node in enumerate(self.nodes)]
        self.function = [isinstance(node, ast.FunctionDef) for node in self.nodes]
        self.needs = [self._needs(i) for i in range(len(self.nodes))]

    def text(self, node: ast.stmt) -> str:
        """The statement's own lines (its decorators too): faster than ``ast.unparse``."""
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
        return "".join(self.lines[first - 1:node.end_lineno]).rstrip("\n") + "\n"

    def _needs(self, i: int) -> set[int]:
        """What statement ``i`` reads, and what the constants among those read in turn (not what functions call)."""
        seen: set[int] = set()
        stack = list(self.reads[i])
        while stack:
            j = stack.pop()
            if j not in seen:
                seen.add(j)
                if not self.function[j]:
                    stack.extend(self.reads[j])
        return seen

    def callees_first(self) -> list[int]:
        """The functions, each after those it calls; ``ValueError`` for functions that call one another."""
        calls = {i: {j for j in self.needs[i] if self.function[j]} for i, f in enumerate(self.function) if f}
        try:
            return list(graphlib.TopologicalSorter(calls).static_order())
        except graphlib.CycleError as exc:
            cycle = " -> ".join(self.defines[i][0] for i in exc.args[1])
            raise ValueError(f"generated module: functions that call one another ({cycle}): numba cannot cache "
                             "them") from None

    def part(self, i: int, named: dict[int, str]) -> Part:
        """Function ``i``'s part: the imports, the parts of the functions it calls (``named``), its constants."""
        needed = sorted(self.needs[i])
        text = (self.imports + "".join(f"from {named[j]} import {self.defines[j][0]}\n"
                                       for j in needed if self.function[j])
                + "".join(self.text(self.nodes[j]) for j in needed if not self.function[j])
                + "\n\n" + self.text(self.nodes[i]))
        return Part(_name("fn", text), text, self.defines[i][0])


def _docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)


@functools.lru_cache(maxsize=256)
def parts(source: str) -> Split:
    """``source`` split into parts (see the module doc): each function one part, in an order where a part comes
    after those it calls (through the constants it reads too); ``ValueError`` for functions that call one another
    (numba caches no recursive function, so the generators write none)."""
    top = _TopLevel(source)
    named: dict[int, str] = {}
    made = []
    for i in top.callees_first():
        made.append(top.part(i, named))
        named[i] = made[-1].name
    facade = top.imports + "".join(f"from {named[i]} import {top.defines[i][0]}\n" if top.function[i]
                                   else top.text(node) for i, node in enumerate(top.nodes))
    return Split(tuple(made), facade)


def loaded(kind: str, source: str) -> bool:
    """Whether ``source``'s module is loaded in this process (``load`` returns it at once)."""
    return _name(kind, source) in sys.modules


def compiled(kind: str, source: str) -> bool:
    """Whether ``load(kind, source)`` would compile nothing: the module is loaded in this process, or its
    file is in the cache folder with numba's cache of machine code beside it, marked complete by
    ``mark_compiled`` (a process stopped while compiling leaves some functions cached and no mark)."""
    return loaded(kind, source) or cached(kind, source)


def cached(kind: str, source: str) -> bool:
    """Whether ``source``'s parts and numba's machine code for them are in the cache folder, the module marked
    complete (what another process, which has loaded nothing yet, would find)."""
    if not available():
        return False
    try:
        root = cache_root()
    except JitUnavailable:
        return False
    split = parts(source).parts
    if not (root / f"{_name(kind, source)}.done").exists() or not split:
        return False
    # (a function numba inlines, or one no entry point reaches, has no machine code of its own)
    return (all((root / f"{part.name}.py").exists()
                and (root / f"{part.name}.py").read_text(encoding="utf-8") == part.text for part in split)
            and any(any((root / "__pycache__").glob(f"{part.name}.*.nbi")) for part in split))


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
    """The module of generated ``source`` (``kind`` names what it holds, e.g. ``"hand"``): its parts written to
    the cache folder under their digests if not there yet and imported (each once per process), and a module of
    the whole's names made of them."""
    if not available():
        raise JitUnavailable("numba is not installed: pip install numba (a dependency of spades-rulespec)")
    name = _name(kind, source)
    if name in sys.modules:
        return sys.modules[name]
    split = parts(source)
    root = cache_root()
    for part in split.parts:
        if part.name not in sys.modules:
            _import(root, part)
    module = ModuleType(name)
    exec(compile(split.facade, f"<{name}>", "exec"), module.__dict__)    # noqa: S102 -- see the module doc
    sys.modules[name] = module
    return module


def _import(root: Path, part: Part) -> None:
    """``part`` written under its name unless there already (a file of other content is written again, and
    every module's mark of completeness goes: numba recompiles a rewritten file), then imported."""
    path = root / f"{part.name}.py"
    there = path.read_text(encoding="utf-8") if path.exists() else None
    if there != part.text:
        if there is not None:       # (a part is named by its text's digest: altered, or left half written)
            for mark in root.glob("*.done"):
                mark.unlink(missing_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(part.text, encoding="utf-8")
        os.replace(temporary, path)     # atomic: another process never sees half a file
    module = ModuleType(part.name)
    module.__file__ = str(path)
    # the code run is compiled from the part's text itself; the file is there for numba's cache, which
    # keys compiled functions by the file their code names (and its size and time)
    exec(compile(part.text, str(path), "exec"), module.__dict__)    # noqa: S102 -- generated, see the module doc
    sys.modules[part.name] = module
