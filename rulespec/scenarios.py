"""Scenario tests: YAML cases (OpenFisca-style ``name``/``input``/``output``)
run through the same answers as the API.

A case file::

    variant: my-house.yaml        # id or path (relative to this file); optional
    cases:
      - name: nil is worth 75 at our table
        kind: score               # score | trick | legal | bid | game (default score)
        input: {bids: {N: nil, E: 3, S: 4, W: 3}, tricks: {N: 0, E: 4, S: 5, W: 4}}
        output: {teams: {NS: {points: 116}}}     # partial: only these keys are compared
        cite: house §Nil                         # optional: a line of the answer must cite it
      - name: the documents disagree
        input: {...}
        expect:                                  # several variants, each with its answer
          classic: {cite: 004 §Nil and Blind Nil, output: {teams: {NS: {points: 10}}}}
          standard: {output: {teams: {NS: {points: 60}}}}

A variant file may carry the same list of cases under ``tests:``; they run
against that variant.  An expected ``{error: {field: bids.N}}`` asserts that
the request is refused at that field.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Mapping

import yaml

from .answers import InputError, answer
from .errors import RulespecError

_CASE_KEYS = {"name", "kind", "input", "output", "expect", "cite", "variant", "note"}


class ScenarioFileError(RulespecError):
    """A scenario file or case that is malformed."""


@dataclass
class Case:
    name: str
    kind: str
    input: dict
    variant: str          # id or absolute path
    output: dict
    cite: str | None
    file: str
    index: int


@dataclass
class CaseResult:
    case: Case
    passed: bool
    mismatches: list[tuple[str, object, object]] = field(default_factory=list)
    answer: dict | None = None

    def trail(self) -> list[dict]:
        """The rules the answer applied, for showing next to a failure."""
        if not self.answer:
            return []
        lines = self.answer.get("explanation") or []
        return [line for line in lines if isinstance(line, Mapping)]


def _variant_ref(ref: str, base: Path) -> str:
    if ref.endswith((".yaml", ".yml")) or "/" in ref:
        path = Path(ref)
        return str(path if path.is_absolute() else (base / path).resolve())
    return ref


def load_cases(path: str | Path) -> list[Case]:
    """Read every case of a scenario file or of a variant file's ``tests:``."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ScenarioFileError(f"{path}: no such file") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise ScenarioFileError(f"{where}: not valid YAML: {getattr(exc, 'problem', exc)}") from None
    if not isinstance(data, Mapping):
        raise ScenarioFileError(f"{path}: expected a mapping with 'cases' (or a variant file with 'tests')")
    base = path.resolve().parent
    if "rules" in data or "extends" in data:     # a variant file with its own tests
        default_variant = str(path.resolve())
        raw = data.get("tests") or []
    else:
        default_variant = _variant_ref(str(data["variant"]), base) if data.get("variant") else None
        raw = data.get("cases")
        if not isinstance(raw, list):
            raise ScenarioFileError(f"{path}: 'cases' must be a list")
    cases = []
    for i, item in enumerate(raw):
        where = f"{path}: case {i + 1}"
        if not isinstance(item, Mapping):
            raise ScenarioFileError(f"{where}: a case is a mapping with name, input and output")
        unknown = set(item) - _CASE_KEYS
        if unknown:
            raise ScenarioFileError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} "
                                    f"(allowed: {', '.join(sorted(_CASE_KEYS))})")
        name = str(item.get("name") or f"case {i + 1}")
        kind = str(item.get("kind") or "score")
        inp = item.get("input")
        if not isinstance(inp, Mapping):
            raise ScenarioFileError(f"{where} ({name}): 'input' must be a mapping")
        if "expect" in item:
            expect = item["expect"]
            if not isinstance(expect, Mapping) or not expect:
                raise ScenarioFileError(f"{where} ({name}): 'expect' maps variant ids to {{output, cite}}")
            for ref, exp in expect.items():
                if not isinstance(exp, Mapping) or "output" not in exp:
                    raise ScenarioFileError(f"{where} ({name}): expect.{ref} needs an 'output'")
                cases.append(Case(name, kind, dict(inp), _variant_ref(str(ref), base), exp["output"],
                                  exp.get("cite"), str(path), i + 1))
        else:
            ref = item.get("variant")
            variant = _variant_ref(str(ref), base) if ref else default_variant
            if variant is None:
                raise ScenarioFileError(f"{where} ({name}): no variant: give 'variant' in the file or the case")
            if "output" not in item:
                raise ScenarioFileError(f"{where} ({name}): needs 'output' (or 'expect' per variant)")
            cases.append(Case(name, kind, dict(inp), variant, item["output"], item.get("cite"), str(path), i + 1))
    return cases


def match(expected, actual, path: str = "") -> list[tuple[str, object, object]]:
    """Where ``actual`` differs from the partial ``expected``."""
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return [(path or "answer", expected, actual)]
        out = []
        for key, value in expected.items():
            sub = f"{path}.{key}" if path else str(key)
            if key not in actual:
                out.append((sub, value, "(missing)"))
            else:
                out.extend(match(value, actual[key], sub))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [(path, expected, actual)]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual)):
            out.extend(match(e, a, f"{path}[{i}]"))
        return out
    if isinstance(expected, bool) or isinstance(actual, bool):
        return [] if expected is actual else [(path, expected, actual)]
    return [] if expected == actual else [(path, expected, actual)]


def cites_in(answer_: object) -> set[str]:
    """Every citation anywhere in an answer."""
    found: set[str] = set()
    stack = [answer_]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            if isinstance(item.get("cite"), str):
                found.add(item["cite"])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def run_case(case: Case) -> CaseResult:
    request = {**case.input, "variant": case.variant}
    try:
        actual = answer(case.kind, request, allow_paths=True)
    except InputError as exc:
        actual = {"error": {"field": exc.field, "detail": exc.message, "rule": exc.rule, "cite": exc.cite}}
    except RulespecError as exc:
        actual = {"error": {"field": "", "detail": str(exc)}}
    mismatches = match(case.output, actual)
    if case.cite and case.cite not in cites_in(actual):
        mismatches.append(("cite", case.cite, sorted(cites_in(actual))))
    return CaseResult(case, not mismatches, mismatches, actual)


def run_files(paths: list[str | Path]) -> list[CaseResult]:
    return [run_case(case) for path in paths for case in load_cases(path)]
