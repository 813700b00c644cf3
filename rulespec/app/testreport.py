"""Plain-text report of scenario results: a pass/fail table, then for each
failure the expected and actual values and the trail of rules applied."""
from __future__ import annotations

import json

import click

from .explain import trail
from .scenarios import CaseResult


def _short(value) -> str:
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


def _variant_names(results: list[CaseResult]) -> dict[str, str]:
    """Variant reference -> id, from the answers (the file name where no answer says)."""
    names = {r.case.variant: r.case.variant.rsplit("/", 1)[-1] for r in results}
    for r in results:
        if r.answer and isinstance(r.answer.get("variant"), str):
            names[r.case.variant] = r.answer["variant"]
    return names


def _status(result: CaseResult) -> str:
    if result.error:
        return click.style("ERROR", fg="red", bold=True)
    return click.style("pass ", fg="green") if result.passed else click.style("FAIL ", fg="red", bold=True)


def table(results: list[CaseResult], names: dict[str, str]) -> list[str]:
    """One row per case: status, variant, name, file:line."""
    variants = [names[r.case.variant] for r in results]
    vw = max([len("variant")] + [len(v) for v in variants])
    nw = max([len("case")] + [len(r.case.name) for r in results])
    out = [f"{'result':<6} {'variant':<{vw}}  {'case':<{nw}}  where"]
    for result, variant in zip(results, variants):
        out.append(f"{_status(result)}  {variant:<{vw}}  {result.case.name:<{nw}}  {result.case.where}")
    return out


def failure(result: CaseResult, variant: str, error_shown: bool = False) -> list[str]:
    """What was expected, what came out, and the rules that produced it."""
    case = result.case
    out = [click.style(f"FAIL {case.where}: {case.name}", fg="red", bold=True) + f"  [{variant}]"]
    if result.error and error_shown:
        out.append("  the variant does not compile (see above)")
        return out
    if result.error:
        out.append("  the variant does not compile:")
        out += ["    " + line for line in result.error.splitlines()]
        return out
    width = max(len(path) for path, _, _ in result.mismatches)
    for path, expected, actual in result.mismatches:
        out.append(f"  {path:<{width}}  expected {_short(expected)}, got {_short(actual)}")
    error = (result.answer or {}).get("error")
    if error:
        out.append(f"  the request was refused at '{error.get('field')}': {error.get('detail')}")
    steps = _steps(result)
    if steps:
        out.append("  rules applied:")
        out += trail(steps, indent="    ")
    return out


def _steps(result: CaseResult) -> list[dict]:
    """Trail lines labelled by team where the answer has teams."""
    answer = result.answer or {}
    hands = [(f"hand {h['hand']} ", h["lines"]) for h in answer.get("sheet") or []]
    steps = []
    for prefix, lines in hands or [("", result.trail())]:
        for line in lines:
            line = dict(line)
            line["rule"] = prefix + (f"{line['team']} " if line.get("team") else "") + str(line.get("rule"))
            steps.append(line)
    return steps


def summary(results: list[CaseResult]) -> str:
    passed = sum(r.passed for r in results)
    errors = sum(1 for r in results if r.error)
    failed = len(results) - passed - errors
    text = f"{len(results)} case(s): {passed} passed, {failed} failed" + (f", {errors} could not run" if errors else "")
    return click.style(text, fg="green" if passed == len(results) else "red", bold=True)


def report(results: list[CaseResult]) -> list[str]:
    """The table, each failure in detail (a compile error once), and a summary line."""
    names = _variant_names(results)
    out = table(results, names)
    errors: set[str] = set()
    for result in results:
        if not result.passed:
            out += [""] + failure(result, names[result.case.variant], result.error in errors)
            errors.add(result.error or "")
    return out + ["", summary(results)]
