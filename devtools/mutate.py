"""A repeatable mutation run: how many small faults planted in the code do the tests catch?

``python -m devtools.mutate [--per-group N] [--seed S] [--jobs J]`` (``make mutation``).
Mutants are single changes made on the syntax tree (a flipped comparison or
operator, ``and``/``or`` swapped, a ``not`` dropped, a constant changed, a
condition negated, a return value or a statement dropped), enumerated in a fixed
order and sampled evenly with a seeded generator from each group of modules: the
hand procedure, scoring, the compiler and the answers layer.  Each mutant runs the
group's test files (stopping at the first failure) in a private copy of the
project; a mutant is *killed* when they fail (first, each group's tests must pass
with no mutant planted, or there is no score).  Mutants listed by id in
``devtools/equivalent_mutants.txt`` (with the reason they cannot be told apart
from the original) stay in the sample, so that the list does not change which
mutants are drawn, but are not run: they are left out of the score and reported
separately.  The result is printed per module and per group and written as JSON.
"""
from __future__ import annotations

import argparse
import ast
import json
import multiprocessing
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GROUPS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {   # modules, test files that judge them
    "procedure": (("rulespec/procedure/card_play.py", "rulespec/procedure/bidding.py",
                   "rulespec/procedure/whole_hand.py", "rulespec/game/hand.py", "rulespec/game/play.py",
                   "rulespec/game/bids.py", "rulespec/game/engine.py"),
                  ("tests/test_engine.py", "tests/test_fused.py", "tests/test_context_names.py",
                   "tests/test_answers.py", "tests/test_corpus.py", "tests/test_fast_paths.py")),
    "scoring": (("rulespec/procedure/scoring.py", "rulespec/game/scoring.py"),
                ("tests/test_engine.py", "tests/test_context_names.py", "tests/test_answers.py",
                 "tests/test_corpus.py")),
    "compiler": (("rulespec/lang/compiler.py",),
                 ("tests/test_compiler.py", "tests/test_language.py", "tests/test_check.py")),
    "answers": (("rulespec/app/answers.py", "rulespec/app/disputes.py", "rulespec/app/fields.py"),
                ("tests/test_answers.py", "tests/test_api.py", "tests/test_corpus.py")),
}
EQUIVALENT = Path(__file__).with_name("equivalent_mutants.txt")
TARGET_GROUPS = ("procedure", "scoring", "compiler")   # the groups the 90% target is over
COPIED = ("rulespec", "service", "tests", "corpus", "docs", "examples", "pyproject.toml")   # what the tests read
TIMEOUT = 300      # seconds for one mutant's tests (an endless loop counts as killed)
MEMORY = 4 << 30   # bytes of address space for them (a loop that piles up memory dies early; killed too)

_SWAP_CMP = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE,
             ast.GtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_SWAP_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
             ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd, ast.Mod: ast.FloorDiv, ast.LShift: ast.RShift,
             ast.RShift: ast.LShift}


# textual faults in the hand procedure's code templates (string constants holding code)
_TEMPLATE_FAULTS = ((r"\+= ", "-= "), (r" & ", " | "), (r" \| ", " & "), (r"\bnot ", ""), (r" == ", " != "),
                    (r" != ", " == "), (r" - 4\]", " - 3]"), (r"\bTrue\b", "False"), (r" < ", " <= "),
                    (r"\[0\]", "[1]"), (r" \+ 1\b", ""))


@dataclass(frozen=True)
class Mutant:
    module: str
    index: int          # position in the module's enumeration
    line: int
    kind: str

    @property
    def id(self) -> str:
        return f"{self.module}:{self.line}:{self.kind.replace(' ', '-')}:{self.index}"


def _points(tree: ast.AST) -> list[tuple[ast.AST, str]]:
    """Every place a mutation applies, in a fixed (walk) order, with its kind."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and type(node.ops[0]) in _SWAP_CMP:
            out.append((node, "compare"))
        elif isinstance(node, ast.BinOp) and type(node.op) in _SWAP_BIN:
            out.append((node, "operator"))
        elif isinstance(node, ast.BoolOp):
            out.append((node, "boolean"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            out.append((node, "not"))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            out.append((node, "constant"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "\n" in node.value \
                and not _is_doc_value(node, tree):
            for f, (pattern, _) in enumerate(_TEMPLATE_FAULTS):
                out += [(node, f"template {f} {m.start()}") for m in re.finditer(pattern, node.value)]
        elif isinstance(node, (ast.If, ast.While)):
            out.append((node, "condition"))
        elif isinstance(node, ast.Return) and node.value is not None:
            out.append((node, "return"))
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.Expr)) and not _is_docstring(node):
            out.append((node, "statement"))
    return out


def _is_doc_value(node: ast.Constant, tree: ast.AST) -> bool:
    """Whether a string constant is a docstring (of the module, a class or a function)."""
    return any(_is_docstring(parent.body[0]) and parent.body[0].value is node
               for parent in ast.walk(tree) if isinstance(parent, (ast.Module, ast.ClassDef, ast.FunctionDef))
               and parent.body)


def _is_docstring(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _mutated(node: ast.AST, kind: str) -> ast.AST:
    """The node that replaces ``node`` in the mutant."""
    if kind == "compare":
        node.ops[0] = _SWAP_CMP[type(node.ops[0])]()
    elif kind == "operator":
        node.op = _SWAP_BIN[type(node.op)]()
    elif kind == "boolean":
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif kind == "not":
        return node.operand
    elif kind == "constant":
        node.value = node.value + 1 if node.value != 1 else 0
    elif kind == "condition":
        node.test = ast.UnaryOp(ast.Not(), node.test)
    elif kind == "return":
        node.value = ast.Constant(None)
    elif kind == "statement":
        return ast.Pass()
    elif kind.startswith("template"):
        _, fault, at = kind.split()
        pattern, replacement = _TEMPLATE_FAULTS[int(fault)]
        node.value = node.value[:int(at)] + re.sub(pattern, replacement, node.value[int(at):], count=1)
    return node


class _Replace(ast.NodeTransformer):
    """Replaces one node (found by identity) with its mutation."""

    def __init__(self, target: ast.AST, kind: str):
        self.target, self.kind = target, kind

    def visit(self, node: ast.AST) -> ast.AST:
        if node is self.target:
            return _mutated(node, self.kind)
        return self.generic_visit(node)


def enumerate_mutants(module: str, root: Path = ROOT) -> list[Mutant]:
    tree = ast.parse((root / module).read_text(encoding="utf-8"))
    return [Mutant(module, i, getattr(node, "lineno", 0), kind) for i, (node, kind) in enumerate(_points(tree))]


def _signatures(module: str, root: Path) -> dict[str, tuple]:
    """Each mutant of ``module`` (under ``root``) by id: what it changes, where (the enclosing function), and
    which of the alike places it is -- the same for the same mutation after other code has moved."""
    path = root / module
    if not path.exists():
        return {}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    owner = {}
    for parent in ast.walk(tree):
        if isinstance(parent, (ast.FunctionDef, ast.ClassDef)):
            for child in ast.walk(parent):
                owner.setdefault(id(child), parent.name)
    seen: Counter = Counter()
    out = {}
    for i, (node, kind) in enumerate(_points(tree)):
        what = (module, kind.split()[0] if kind.startswith("template") else kind, owner.get(id(node), ""),
                ast.unparse(node) if not isinstance(node, ast.Constant) or len(str(node.value)) < 200 else kind)
        seen[what] += 1
        out[Mutant(module, i, getattr(node, "lineno", 0), kind).id] = (*what, seen[what])
    return out


def relist(old_root: Path, ids: list[str]) -> tuple[dict[str, str], list[str]]:
    """Each of ``ids`` (valid in the checkout at ``old_root``) as the id of this checkout's mutant that makes
    the same change; and the ids whose mutation is gone (to be read again by hand)."""
    out, gone = {}, []
    signatures: dict[str, tuple[dict, dict]] = {}
    for mutant_id in ids:
        module = mutant_id.split(":", 1)[0]
        if module not in signatures:
            old, new = _signatures(module, old_root), _signatures(module, ROOT)
            signatures[module] = (old, {signature: new_id for new_id, signature in new.items()})
        old, by_signature = signatures[module]
        found = by_signature.get(old.get(mutant_id))
        if found is None:
            gone.append(mutant_id)
        else:
            out[mutant_id] = found
    return out, gone


def mutated_source(mutant: Mutant) -> str:
    tree = ast.parse((ROOT / mutant.module).read_text(encoding="utf-8"))
    node, kind = _points(tree)[mutant.index]
    return ast.unparse(ast.fix_missing_locations(_Replace(node, kind).visit(tree)))


def equivalent() -> dict[str, str]:
    """Mutant ids known to be equivalent to the original, with the reason."""
    if not EQUIVALENT.exists():
        return {}
    out = {}
    for line in EQUIVALENT.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            mutant_id, _, reason = line.partition(" ")
            out[mutant_id] = reason.strip()
    return out


def sample(per_group: int, seed: int) -> list[tuple[str, Mutant]]:
    """``per_group`` mutants of each group, spread evenly over its modules, drawn with ``seed``."""
    rng = random.Random(seed)
    chosen = []
    for group, (modules, _) in GROUPS.items():
        pool = [m for module in modules for m in enumerate_mutants(module)]
        per_module = {module: [m for m in pool if m.module == module] for module in modules}
        share = {module: max(1, round(per_group * len(ms) / len(pool))) for module, ms in per_module.items()}
        for module, ms in per_module.items():
            chosen += [(group, m) for m in rng.sample(ms, min(share[module], len(ms)))]
    return chosen


def all_mutants() -> dict[str, tuple[str, Mutant]]:
    """Every mutant of every group by id, with its group."""
    return {m.id: (group, m) for group, (modules, _) in GROUPS.items() for module in modules
            for m in enumerate_mutants(module)}


def _named(ids: list[str]) -> list[tuple[str, Mutant]]:
    """The mutants with these ids, each with its group."""
    found = all_mutants()
    unknown = [i for i in ids if i not in found]
    if unknown:
        raise SystemExit(f"unknown mutant id(s): {', '.join(unknown)}")
    return [found[i] for i in ids]


_WORKDIR: Path | None = None


def _init_worker(parent: str) -> None:
    """Each worker mutates its own copy of the project (under ``parent``, removed at the end)."""
    global _WORKDIR
    _WORKDIR = Path(tempfile.mkdtemp(prefix="mutate-", dir=parent))
    for part in COPIED:
        src = ROOT / part
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, _WORKDIR / part)


def _limit_memory() -> None:
    """Cap the tests' address space: a runaway mutant must not take the shared machine's memory."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _tests_fail(group: str) -> bool:
    """Whether the group's tests fail (or time out) in this worker's copy."""
    try:
        proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                               "-p", "no:randomly", *GROUPS[group][1]], cwd=_WORKDIR, capture_output=True,
                              timeout=TIMEOUT, env={"PYTHONPATH": str(_WORKDIR), "PATH": "/usr/bin:/bin",
                                                    "HYPOTHESIS_PROFILE": "default", "CI": "true"},
                              preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired:
        return True
    return proc.returncode != 0


def _baseline(group: str) -> tuple[str, bool]:
    """The group and whether its tests fail with no mutant planted (then no mutant of it can be judged)."""
    return group, _tests_fail(group)


def _run(item: tuple[str, Mutant]) -> dict:
    group, mutant = item
    target = _WORKDIR / mutant.module
    original = target.read_text(encoding="utf-8")
    target.write_text(mutated_source(mutant), encoding="utf-8")
    start = time.monotonic()
    try:
        killed = _tests_fail(group)
    finally:
        target.write_text(original, encoding="utf-8")
    return {"group": group, **asdict(mutant), "id": mutant.id, "killed": killed,
            "seconds": round(time.monotonic() - start, 1)}


def _excluded(item: tuple[str, Mutant], reason: str) -> dict:
    """The record of a listed equivalent mutant: not run, not scored."""
    group, mutant = item
    return {"group": group, **asdict(mutant), "id": mutant.id, "killed": None, "equivalent": reason}


def summary(results: list[dict]) -> dict[str, dict[str, Counter]]:
    """Killed, survived and equivalent (excluded) counts per module and per group."""
    out: dict[str, dict[str, Counter]] = {"module": {}, "group": {}}
    for r in results:
        outcome = "equivalent" if r.get("equivalent") else "killed" if r["killed"] else "survived"
        for level in out:
            out[level].setdefault(r[level], Counter())[outcome] += 1
    return out


def _line(name: str, counts: Counter) -> str:
    scored = counts["killed"] + counts["survived"]
    rate = f"{counts['killed'] / scored:.0%}" if scored else "-"
    return f"{name:42} {counts['killed']:4} / {scored:<4} {rate:>5}   {counts['equivalent']:3} equivalent"


def report(results: list[dict]) -> str:
    """The printed result: per module, per group, the scored groups together, then the survivors."""
    counts = summary(results)
    lines = [f"{'module':42} killed / scored          excluded"]
    lines += [_line(module, c) for module, c in sorted(counts["module"].items())]
    lines += [_line(f"group {group}", c) for group, c in counts["group"].items()]
    target = sum((c for group, c in counts["group"].items() if group in TARGET_GROUPS), Counter())
    lines += [_line(" + ".join(TARGET_GROUPS), target), _line("all", sum(counts["group"].values(), Counter()))]
    lines += [f"equivalent (not scored): {r['id']}  {r['equivalent']}" for r in results if r.get("equivalent")]
    lines += [f"survived: {r['id']}" for r in results if r["killed"] is False]
    return "\n".join(lines)


def _rewrite_list(old_root: Path) -> None:
    """``--relist``: the list's ids moved to this checkout's code; a mutant whose mutation is gone is dropped
    and printed."""
    mapped, gone = relist(old_root, list(equivalent()))
    lines = []
    for line in EQUIVALENT.read_text(encoding="utf-8").splitlines():
        mutant_id, _, reason = line.partition(" ")
        if not line.strip() or line.startswith("#"):
            lines.append(line)
        elif mutant_id in mapped:
            lines.append(f"{mapped[mutant_id]} {reason}")
    EQUIVALENT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for mutant_id in gone:
        print(f"gone (read it again): {mutant_id}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-group", type=int, default=60, help="mutants drawn from each group")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default="mutation.json")
    parser.add_argument("--only", nargs="*", default=[], metavar="ID", help="run just these mutants (ids as printed)")
    parser.add_argument("--relist", metavar="OLD_CHECKOUT",
                        help="renumber equivalent_mutants.txt, whose ids are those of OLD_CHECKOUT's code, for "
                             "this checkout's code (by what each mutant changes); print the ids whose mutation is gone")
    args = parser.parse_args()
    if args.relist:
        _rewrite_list(Path(args.relist))
        return
    items = _named(args.only) if args.only else sample(args.per_group, args.seed)
    skip = equivalent()
    results = [_excluded(item, skip[item[1].id]) for item in items if item[1].id in skip]
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mutate-") as parent, \
            multiprocessing.Pool(args.jobs, initializer=_init_worker, initargs=(parent,)) as pool:
        runnable = [item for item in items if item[1].id not in skip]
        failing = [group for group, failed in pool.imap_unordered(_baseline, sorted({g for g, _ in runnable}))
                   if failed]
        if failing:
            raise SystemExit(f"the tests of {', '.join(sorted(failing))} fail with no mutant planted: "
                             "fix them first (no score)")
        results += pool.imap_unordered(_run, runnable)
    results.sort(key=lambda r: r["id"])
    print(report(results))
    print(f"{time.monotonic() - start:.0f} s")
    Path(args.out).write_text(json.dumps({"seed": args.seed, "per_group": args.per_group, "results": results},
                                         indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
