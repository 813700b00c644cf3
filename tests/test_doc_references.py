"""Every file path (``rulespec/app/answers.py``, ``service/app.create_app``, or inside the package
``tools/diff/replay.STAGES``) and every dotted name (``rulespec.lang.limits.MAX_CONTEXT_INT``) that the
docs, the README, pyproject.toml and the code's own docstrings and comments name exists: a module that
moves cannot leave its old name behind."""
from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_TOPS = ("rulespec", "service", "tests", "bench", "devtools", "variants", "corpus")
PATH = re.compile(rf"(?<![\w./-])((?:{'|'.join(_TOPS)})/[\w./*-]*\w)")
_PACKAGES = ("app", "core", "fast", "game", "lang", "model", "procedure", "records", "solve", "tools")
INNER = re.compile(rf"(?<![\w./-])((?:{'|'.join(_PACKAGES)})/[\w./*-]*\w)")    # a path inside rulespec/
DOTTED = re.compile(r"(?<![\w./-])(rulespec(?:\.\w+)+)")
# paths that stand for any file of their kind, not for one file; and a module that records of past
# measurements name (docs/testing.md, docs/architecture.md: "since replaced by rulespec/procedure/")
PLACEHOLDERS = frozenset({"tests/test_x.py", "corpus/clauses/NNN.yaml", "tests/no_such_test_file.py",
                          "rulespec/game/procedure.py"})


def _texts() -> list[Path]:
    docs = sorted(ROOT.glob("docs/**/*.md")) + [ROOT / "README.md", ROOT / "pyproject.toml"]
    code = sorted(p for top in ("rulespec", "service", "bench", "devtools") for p in (ROOT / top).rglob("*.py"))
    return docs + code + sorted(p for p in (ROOT / "tests").glob("*.py") if p.name != Path(__file__).name)


def _defines(path: Path, name: str) -> bool:
    """Whether the Python file ``path`` defines (or imports) ``name`` at some level."""
    text = path.read_text(encoding="utf-8")
    return re.search(rf"^\s*(?:def |class |async def )?{re.escape(name)}\b\s*[(:=]|\bimport .*\b{re.escape(name)}\b",
                     text, re.M) is not None


def _attribute_chain(module: str, names: list[str]) -> bool:
    if not names:
        return True
    try:
        value: object = importlib.import_module(module)
    except ImportError:     # a module of an optional extra (the benches' peers): read its text instead
        origin = importlib.util.find_spec(module).origin
        return origin is not None and _defines(Path(origin), names[0])
    for name in names:
        if not hasattr(value, name):
            return False
        value = getattr(value, name)
    return True


def dotted_exists(name: str) -> bool:
    """A module, or a module's attribute (the longest prefix that is a module, the rest attributes)."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:
            found = False
        if found:
            return _attribute_chain(module, parts[cut:])
    return False


def path_exists(text: str) -> bool:
    """A file or folder, a glob that matches one, or ``folder/module.attribute`` (a module's name in it)."""
    if "*" in text:
        return any(ROOT.glob(text))
    if (ROOT / text).exists() or (ROOT / f"{text}.py").exists():
        return True
    folder, _, last = text.rpartition("/")
    module, _, attributes = last.partition(".")
    base = f"{folder}/{module}"
    if not (attributes and (ROOT / f"{base}.py").exists()):
        return False
    if text.startswith(("rulespec/", "service/")):
        return _attribute_chain(base.replace("/", "."), attributes.split("."))
    return _defines(ROOT / f"{base}.py", attributes.split(".")[0])


def references() -> list[tuple[str, str, int]]:
    """(what, the file naming it, line) for every path and dotted name in the texts."""
    found = []
    for path in _texts():
        where = str(path.relative_to(ROOT))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            paths = [m.group(1) for m in PATH.finditer(line)] + [f"rulespec/{m.group(1)}" for m in INNER.finditer(line)]
            found += [(text, where, number) for text in paths if text not in PLACEHOLDERS]
            found += [(m.group(1), where, number) for m in DOTTED.finditer(line)]
    return found


def test_every_path_and_module_named_exists():
    missing = [f"{where}:{line}: {what}" for what, where, line in references()
               if not (dotted_exists(what) if "/" not in what else path_exists(what))]
    assert not missing, "names of files or modules that do not exist:\n" + "\n".join(missing)


@pytest.mark.parametrize("name, exists", [
    ("rulespec.lang.limits", True), ("rulespec.lang.limits.MAX_CONTEXT_INT", True), ("rulespec.game.Bid", True),
    ("rulespec.limits", False), ("rulespec.lang.limits.NO_SUCH_LIMIT", False), ("rulespec.engine.MAX_BID", False)])
def test_a_dotted_name_is_a_module_or_its_attribute(name, exists):
    assert dotted_exists(name) is exists


@pytest.mark.parametrize("text, exists", [
    ("rulespec/game/hand.py", True), ("tests/test_batch*.py", True), ("service/app.create_app", True),
    ("tests/solve_helpers.minimax", True), ("rulespec/model/ruleset._ChainCompiler.check_complete", True),
    ("rulespec/diff/html.py", False), ("tests/test_nothing*.py", False),
    ("service/app.no_such_function", False), ("rulespec/resources.py", False)])
def test_a_path_is_a_file_a_glob_or_a_module_name(text, exists):
    assert path_exists(text) is exists
