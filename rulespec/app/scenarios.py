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

``input`` is the request of the answer ``kind`` (see ``answers``): for
``score`` the bids, ``tricks`` per seat or a ``deal`` and ``play``, ``before``
(scores and bags), ``events`` (``[{type: renege, seat: E}]``); ``output`` is
part of the answer: ``teams.NS.points|score|bags|bags_added``,
``game.over|winner``, ``legal`` (a set of cards), ``winner`` and ``card`` of a
trick.  Card names compare leniently (``TH`` is ``10H``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Mapping

import yaml

from ..core import cards as C
from .answers import KINDS, values_of
from .disputes import answer
from ..errors import CardError, InputError, Problem, RulespecError, ScenarioFileError, did_you_mean

_CASE_KEYS = ("name", "kind", "input", "output", "expect", "cite", "variant", "note")


@dataclass
class Case:
    name: str
    kind: str
    input: dict
    variant: str          # id or path
    output: dict
    cite: str | None
    file: str
    index: int
    line: int = 0         # line of the case in its file (1-based)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


@dataclass
class CaseResult:
    case: Case
    passed: bool
    mismatches: list[tuple[str, object, object]] = field(default_factory=list)
    answer: dict | None = None
    error: str | None = None      # the case could not run (its variant does not compile)

    def trail(self) -> list[dict]:
        """The rules the answer applied, for showing next to a failure."""
        if not self.answer:
            return []
        lines = self.answer.get("explanation") or []
        return [line for line in lines if isinstance(line, Mapping)]


def _variant_ref(ref: str, base: Path) -> str:
    """A bundled id as is; a path relative to the case file's folder (kept relative, as the user wrote it)."""
    if ref.endswith((".yaml", ".yml")) or "/" in ref:
        path = Path(ref)
        return str(path if path.is_absolute() else base / path)
    return ref


def _compose(path: Path) -> tuple[object, yaml.Node | None]:
    """The file's data and its YAML node tree (for line numbers)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioFileError(f"{path}: no such file", str(path)) from None
    except (IsADirectoryError, UnicodeDecodeError):
        raise ScenarioFileError(f"{path}: not a UTF-8 text file", str(path)) from None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise ScenarioFileError(f"{where}: not valid YAML: {getattr(exc, 'problem', None) or exc}", str(path),
                                mark.line + 1 if mark else None) from None
    data = yaml.safe_load(text) if node is not None else None
    return data, node


def _item_lines(node: yaml.Node | None, key: str) -> list[int]:
    """Line of each item of the list under ``key`` of a mapping node."""
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if k.value == key and isinstance(v, yaml.SequenceNode):
                return [item.start_mark.line + 1 for item in v.value]
    return []


def load_cases(path: str | Path) -> list[Case]:
    """Read every case of a scenario file or of a variant file's ``tests:``."""
    path = Path(path)
    data, node = _compose(path)
    if not isinstance(data, Mapping):
        raise ScenarioFileError(f"{path}: expected a mapping with 'variant' and 'cases' "
                                "(or a variant file with 'tests')", str(path))
    base = path.parent
    if "rules" in data or "extends" in data:     # a variant file with its own tests
        default_variant, key = str(path), "tests"
    else:
        default_variant = _variant_ref(str(data["variant"]), base) if data.get("variant") else None
        key = "cases"
    raw = data.get(key) or []
    if not isinstance(raw, list):
        raise ScenarioFileError(f"{path}: '{key}' must be a list of cases", str(path))
    lines = _item_lines(node, key)
    cases = []
    for i, item in enumerate(raw):
        line = lines[i] if i < len(lines) else 0
        cases.extend(_read_case(item, i, line, path, base, default_variant))
    return cases


def _read_case(item, i: int, line: int, path: Path, base: Path, default_variant: str | None) -> list[Case]:
    where = f"{path}:{line}: case {i + 1}" if line else f"{path}: case {i + 1}"
    at = (str(path), line or None)
    if not isinstance(item, Mapping):
        raise ScenarioFileError(f"{where}: a case is a mapping with name, input and output", *at)
    name = str(item.get("name") or f"case {i + 1}")
    where += f" ({name})"
    _check_keys(item, where, at)
    kind = _case_kind(item, where, at)
    inp = item.get("input")
    if not isinstance(inp, Mapping):
        raise ScenarioFileError(f"{where}: 'input' must be a mapping (e.g. bids and tricks per seat)", *at)
    if "expect" in item:
        return [Case(name, kind, dict(inp), variant, output, cite, str(path), i + 1, line)
                for variant, output, cite in _expectations(item["expect"], base, where, at)]
    ref = item.get("variant")
    variant = _variant_ref(str(ref), base) if ref else default_variant
    if variant is None:
        raise ScenarioFileError(f"{where}: no variant: give 'variant' in the file or the case", *at)
    if "output" not in item:
        raise ScenarioFileError(f"{where}: needs 'output' (or 'expect' per variant)", *at)
    return [Case(name, kind, dict(inp), variant, item["output"], item.get("cite"), str(path), i + 1, line)]


def _check_keys(item: Mapping, where: str, at: tuple[str, int | None]) -> None:
    for key in item:
        if key not in _CASE_KEYS:
            hint = did_you_mean(str(key), _CASE_KEYS)
            raise ScenarioFileError(f"{where}: unknown key '{key}'"
                                    + (f"; did you mean '{hint}'?" if hint else f" (allowed: {', '.join(_CASE_KEYS)})"),
                                    *at)


def _case_kind(item: Mapping, where: str, at: tuple[str, int | None]) -> str:
    kind = str(item.get("kind") or "score")
    if kind not in KINDS:
        hint = did_you_mean(kind, KINDS)
        raise ScenarioFileError(f"{where}: unknown kind '{kind}'"
                                + (f"; did you mean '{hint}'?" if hint else f" (one of: {', '.join(KINDS)})"), *at)
    return kind


def _expectations(expect, base: Path, where: str, at: tuple[str, int | None]) -> list[tuple[str, object, str | None]]:
    """(variant, output, cite) of each entry of a case's ``expect``, checked first."""
    if not isinstance(expect, Mapping) or not expect:
        raise ScenarioFileError(f"{where}: 'expect' maps variant ids to {{output, cite}}", *at)
    out = []
    for ref, exp in expect.items():
        if not isinstance(exp, Mapping) or "output" not in exp:
            raise ScenarioFileError(f"{where}: expect.{ref} needs an 'output'", *at)
        out.append((_variant_ref(str(ref), base), exp["output"], exp.get("cite")))
    return out


def _card(value) -> int | None:
    try:
        return C.parse_card(value)
    except CardError:
        return None


def _same_cards(expected: list, actual: list) -> bool | None:
    """Compare two lists of card names as sets; None if they are not both card lists."""
    if not all(isinstance(v, str) for v in expected + actual):
        return None
    exp, act = [_card(v) for v in expected], [_card(v) for v in actual]
    if None in exp or None in act:
        return None
    return sorted(exp) == sorted(act)


def match(expected, actual, path: str = "") -> list[tuple[str, object, object]]:
    """Where ``actual`` differs from the partial ``expected``."""
    if isinstance(expected, Mapping):
        return _match_mapping(expected, actual, path)
    if isinstance(expected, list):
        return _match_list(expected, actual, path)
    if isinstance(expected, bool) or isinstance(actual, bool):
        return [] if expected is actual else [(path, expected, actual)]
    if isinstance(expected, str) and isinstance(actual, str) and expected != actual:
        card = _card(expected)
        if card is not None and card == _card(actual):
            return []
    return [] if expected == actual else [(path, expected, actual)]


def _match_mapping(expected: Mapping, actual, path: str) -> list[tuple[str, object, object]]:
    """Every key of ``expected`` must be in ``actual`` and match; other keys of ``actual`` are free."""
    if not isinstance(actual, Mapping):
        return [(path or "answer", expected, actual)]
    out = []
    for key, value in expected.items():
        sub = f"{path}.{key}" if path else str(key)
        if key not in actual:
            hint = did_you_mean(str(key), [str(k) for k in actual])
            out.append((sub, value, f"(missing; did you mean '{hint}'?)" if hint else "(missing)"))
        else:
            out.extend(match(value, actual[key], sub))
    return out


def _match_list(expected: list, actual, path: str) -> list[tuple[str, object, object]]:
    """Two card lists match as sets; other lists item by item."""
    if isinstance(actual, list) and expected and actual:
        same = _same_cards(expected, actual)
        if same is not None:
            return [] if same else [(path, expected, actual)]
    if not isinstance(actual, list) or len(actual) != len(expected):
        return [(path, expected, actual)]
    out = []
    for i, (e, a) in enumerate(zip(expected, actual)):
        out.extend(match(e, a, f"{path}[{i}]"))
    return out


def cites_in(answer_: object) -> set[str]:
    """Every citation anywhere in an answer."""
    return values_of(answer_, "cite")


def _expects_error(output) -> bool:
    return isinstance(output, Mapping) and "error" in output


def run_case(case: Case) -> CaseResult:
    request = {**case.input, "variant": case.variant}
    try:
        actual = answer(case.kind, request, allow_paths=True)
    except InputError as exc:
        problems = exc.details.get("problems")
        if exc.field.startswith("variant") and not _expects_error(case.output):
            text = ("\n".join(Problem(**p).format() for p in problems) if problems
                    else f"{exc.field}: {exc.message}")
            return CaseResult(case, False, error=text)
        actual = {"error": {"field": exc.field, "detail": exc.message, "rule": exc.rule, "cite": exc.cite}}
    except RulespecError as exc:
        actual = {"error": {"field": "", "detail": str(exc)}}
    mismatches = match(case.output, actual)
    if case.cite and case.cite not in cites_in(actual):
        mismatches.append(("cite", case.cite, sorted(cites_in(actual))))
    return CaseResult(case, not mismatches, mismatches, actual)


def run_files(paths: list[str | Path]) -> list[CaseResult]:
    return [run_case(case) for path in paths for case in load_cases(path)]
