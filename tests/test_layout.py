"""The code's layout: layers, imports and function size, read from the source.

- no import cycle between modules of ``rulespec`` (imports at the top of a module and inside
  functions alike: a function-level import does not make a cycle go away, it hides it);
- no private name (``_name``) imported from another module, or read off an imported module;
- layers: a module imports only from its own layer or a lower one, in the order of ``LAYERS``
  (``rulespec.errors`` is importable from every layer and imports none);
- every exception class lives in ``rulespec/errors.py``;
- no function or method of ``rulespec/`` or ``service/`` above cyclomatic complexity
  ``MAX_COMPLEXITY`` (radon).

Each check has an allow-list of the offenders that are being reworked elsewhere.  The lists are
exact: an entry that no longer offends fails the test too, so they can only shrink.
"""
from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from radon.complexity import cc_visit

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "rulespec"
LAYERS = ("core", "lang", "model", "procedure", "game", "fast", "solve", "records", "app", "tools", "cli")
MAX_COMPLEXITY = 15

# Import cycles, each as its modules in import order starting from the smallest name.
ALLOWED_CYCLES: set[tuple[str, ...]] = set()

# (importing module, module imported from, private name).
ALLOWED_PRIVATE_IMPORTS: set[tuple[str, str, str]] = set()

# Exception classes defined outside rulespec/errors.py: "file:class".
ALLOWED_EXCEPTIONS: set[str] = {
    # a private control-flow signal of the search, not an error; being reworked in issue 14 (verify/states)
    "rulespec/tools/verify/states.py:_Found",
}

# Functions above MAX_COMPLEXITY: "file:qualified name".
ALLOWED_COMPLEX: set[str] = set()


# --------------------------------------------------------------------------- reading the source
def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted((ROOT / PACKAGE).rglob("*.py"))}


@dataclass(frozen=True)
class Import:
    module: str          # the module imported (a submodule when the name is one)
    name: str | None     # the name taken from it; None for the module itself
    line: int


def _base(module: str, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` reads from."""
    if node.level == 0:
        return node.module or ""
    package = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
    package = package[:len(package) - (node.level - 1)]
    return ".".join(package + ([node.module] if node.module else []))


def imports_of(module: str) -> Iterator[Import]:
    """Every import of a ``rulespec`` module in ``module``, wherever it stands (top level or in a function)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == PACKAGE:
                    yield Import(alias.name, None, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = _base(module, node)
            if base.split(".")[0] != PACKAGE:
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield Import(sub, None, node.lineno) if sub in MODULES else Import(base, alias.name, node.lineno)


def import_graph() -> dict[str, set[str]]:
    """Module -> the ``rulespec`` modules it imports.  (A package's ``__init__`` also runs before its
    submodules; that implicit edge is not counted, or every package that re-exports would be a cycle.)"""
    return {m: {imp.module for imp in imports_of(m) if imp.module in MODULES and imp.module != m} for m in MODULES}


def simple_cycles(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """Every elementary cycle, as its modules in import order starting from the smallest name."""
    cycles = set()

    def walk(start: str, path: list[str]) -> None:
        for nxt in sorted(graph[path[-1]]):
            if nxt == start:
                cycles.add(tuple(path))
            elif nxt > start and nxt not in path:
                walk(start, path + [nxt])

    for start in sorted(graph):
        walk(start, [start])
    return cycles


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if parts[1:] == ["__main__"]:          # ``python -m rulespec``: the command line's entry point
        return LAYERS.index("cli")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _python_files(*folders: str) -> list[Path]:
    return [p for folder in folders for p in sorted((ROOT / folder).rglob("*.py"))]


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# --------------------------------------------------------------------------- the checks
def test_the_reader_sees_the_package():
    assert {"rulespec.errors", "rulespec.cli", "rulespec.game.engine", "rulespec.tools.diff.deal_runs"} <= set(MODULES)
    assert "rulespec.tools.diff.driver" in import_graph()["rulespec.tools.diff"]
    # function-level imports count: the CLI imports the model only inside its commands
    assert "rulespec.model.ruleset" in import_graph()["rulespec.cli"]


def test_the_cycle_finder_finds_cycles():
    graph = {"a": {"b"}, "b": {"c", "a"}, "c": {"a"}, "d": {"a"}}
    assert simple_cycles(graph) == {("a", "b"), ("a", "b", "c")}


def test_no_import_cycles():
    assert simple_cycles(import_graph()) == ALLOWED_CYCLES


def test_no_private_names_cross_modules():
    found = set()
    for module in MODULES:
        for imp in imports_of(module):
            name = imp.name if imp.name is not None else imp.module.rsplit(".", 1)[-1]
            if _private(name):
                found.add((module, imp.module if imp.name is not None else imp.module.rsplit(".", 1)[0], name))
        found |= _private_attributes(module)
    assert found == ALLOWED_PRIVATE_IMPORTS


def _private_attributes(module: str) -> set[tuple[str, str, str]]:
    """``alias._name`` where ``alias`` is an imported ``rulespec`` module."""
    aliases = {}
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and _base(module, node).split(".")[0] == PACKAGE:
            for alias in node.names:
                sub = f"{_base(module, node)}.{alias.name}"
                if sub in MODULES:
                    aliases[alias.asname or alias.name] = sub
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in MODULES:
                    aliases[alias.asname] = alias.name
    return {(module, aliases[node.value.id], node.attr) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id in aliases and _private(node.attr)}


def test_layers_import_only_downwards():
    wrong = []
    for module, targets in import_graph().items():
        mine = _layer(module)
        for target in targets:
            theirs = _layer(target)
            if target == "rulespec.errors":
                continue
            if mine is None or theirs is None or theirs > mine:
                wrong.append(f"{module} ({LAYERS[mine] if mine is not None else 'root'}) imports {target}")
    assert wrong == []


def test_every_exception_class_is_in_errors():
    found = set()
    for path in _python_files(PACKAGE):
        if _rel(path) == f"{PACKAGE}/errors.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(_exception_base(base) for base in node.bases):
                found.add(f"{_rel(path)}:{node.name}")
    assert found == ALLOWED_EXCEPTIONS


def _exception_base(base: ast.expr) -> bool:
    name = base.id if isinstance(base, ast.Name) else base.attr if isinstance(base, ast.Attribute) else ""
    return name.endswith(("Error", "Exception"))


def complex_functions(*folders: str) -> dict[str, int]:
    """"file:qualified name" -> cyclomatic complexity, for every function and method above the limit."""
    return {f"{_rel(path)}:{name}": value for path in _python_files(*folders)
            for name, value in _too_complex(path.read_text(encoding="utf-8")).items()}


def _too_complex(source: str) -> dict[str, int]:
    out = {}
    for block in cc_visit(source):
        for fn in getattr(block, "methods", None) or [block]:
            if getattr(fn, "methods", None) is None and fn.complexity > MAX_COMPLEXITY:
                out[fn.fullname] = fn.complexity
    return out


def test_the_complexity_reader_sees_functions_and_methods():
    body = "".join(f"if x == {i}:\n    return {i}\n" for i in range(MAX_COMPLEXITY)) + "return -1\n"
    source = "def f(x):\n" + textwrap.indent(body, "    ") + "\nclass K:\n    def m(self, x):\n" \
        + textwrap.indent(body, "        ")
    assert _too_complex(source) == {"f": MAX_COMPLEXITY + 1, "K.m": MAX_COMPLEXITY + 1}
    assert _too_complex(source.replace("    if x == 0:\n        return 0\n", "", 1)) == {"K.m": MAX_COMPLEXITY + 1}


def test_no_function_above_the_complexity_limit():
    assert sorted(complex_functions(PACKAGE, "service")) == sorted(ALLOWED_COMPLEX)
