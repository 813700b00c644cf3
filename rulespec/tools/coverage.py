"""Clause coverage: every clause of every source document accounted for.

A clause index (``corpus/clauses/NNN.yaml``) lists the clauses of one source
document with a status::

    doc: "004"
    title: …
    kind: …
    file: 004_….txt
    clauses:
      - id: 004/nil-blind-nil/nil-value     # doc/section-slug/clause-slug, unique
        section: Nil and Blind Nil          # a heading of the document (003: ¶N)
        text: …                              # our own paraphrase
        status: encoded                      # encoded | procedural | ambiguous | unspecified | conflicting
        rules: [classic:nil.made]            # variant:rule; required for encoded
        reason: …                            # required for procedural, ambiguous, unspecified, conflicting
        conflicts_with: [004/…]              # required for conflicting
        alternative: …                       # the other reading, where the encoded one is a choice

``check`` validates every index, resolves every ``variant:rule`` against the
compiled variants, and checks that every rule a bundled variant sets itself
cites a section that the cited document's index knows.  It returns a
``CoverageReport``; nothing is printed here (see ``rulespec coverage``).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..errors import RulespecError

STATUSES = ("encoded", "procedural", "ambiguous", "unspecified", "conflicting")
NEEDS_REASON = ("procedural", "ambiguous", "unspecified", "conflicting")
_DOC_KEYS = {"doc", "title", "kind", "file", "clauses"}
_CLAUSE_KEYS = {"id", "section", "text", "status", "rules", "reason", "conflicts_with", "alternative"}
_ID_RE = re.compile(r"^(?P<doc>[0-9a-z_-]+)/[a-z0-9][a-z0-9-]*/[a-z0-9][a-z0-9-]*$")
_RULE_REF_RE = re.compile(r"^(?P<variant>[a-z0-9][a-z0-9_-]*):(?P<rule>[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*)$")
_CITE_RE = re.compile(r"^(?P<doc>\d{3}|[a-z][a-z0-9_-]*) (?P<mark>[§¶])(?P<rest>\S.*)$")


def clauses_dir() -> Path:
    """Folder of the clause indexes (``$RULESPEC_CLAUSES`` overrides)."""
    env = os.environ.get("RULESPEC_CLAUSES")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "corpus" / "clauses"


@dataclass
class Issue:
    file: str
    clause: str | None
    message: str

    def format(self) -> str:
        return f"{self.file}: {self.clause + ': ' if self.clause else ''}{self.message}"


@dataclass
class DocCoverage:
    doc: str
    file: str
    title: str = ""
    kind: str = ""
    counts: dict[str, int] = field(default_factory=lambda: {s: 0 for s in STATUSES})
    sections: set[str] = field(default_factory=set)
    clause_ids: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.counts.values())


@dataclass
class CoverageReport:
    docs: list[DocCoverage]
    issues: list[Issue]

    @property
    def ok(self) -> bool:
        return not self.issues

    def as_dict(self) -> dict:
        return {"ok": self.ok,
                "documents": [{"doc": d.doc, "file": d.file, "title": d.title, "kind": d.kind,
                               "clauses": d.total, "counts": dict(d.counts)} for d in self.docs],
                "issues": [{"file": i.file, "clause": i.clause, "message": i.message} for i in self.issues]}


def section_of_cite(cite: str) -> tuple[str, str] | None:
    """``"004 §Nil and Blind Nil"`` -> (``"004"``, ``"Nil and Blind Nil"``); ``"003 ¶8"`` -> (``"003"``, ``"¶8"``)."""
    match = _CITE_RE.match(cite.strip())
    if not match:
        return None
    rest = match.group("rest").strip()
    return match.group("doc"), (rest if match.group("mark") == "§" else "¶" + rest)


class _Resolver:
    """Compiled variants, loaded once each; a failure is reported, not raised."""

    def __init__(self):
        self.cache: dict[str, object] = {}
        self.errors: dict[str, str] = {}

    def get(self, variant: str):
        if variant not in self.cache and variant not in self.errors:
            from ..model.ruleset import load_ruleset
            try:
                self.cache[variant] = load_ruleset(variant)
            except RulespecError as exc:
                self.errors[variant] = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return self.cache.get(variant)


def _is_text(value) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _check_index(path: Path, resolver: _Resolver, issues: list[Issue]) -> tuple[DocCoverage | None, list[dict]]:
    name = str(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        issues.append(Issue(name, None, f"cannot read: {exc}"))
        return None, []
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        issues.append(Issue(name, None, f"not valid YAML{where}: {getattr(exc, 'problem', None) or exc}"))
        return None, []
    if not isinstance(data, dict):
        issues.append(Issue(name, None, "a clause index must be a mapping with doc, title, kind, file and clauses"))
        return None, []
    for key in sorted(set(data) - _DOC_KEYS, key=str):
        issues.append(Issue(name, None, f"unknown key '{key}' (allowed: {', '.join(sorted(_DOC_KEYS))})"))
    doc = data.get("doc")
    if not isinstance(doc, str) or not doc:
        issues.append(Issue(name, None, "'doc' must be the document id as a quoted string, e.g. \"004\""))
        doc = path.stem
    elif doc != path.stem:
        issues.append(Issue(name, None, f"'doc' is {doc!r} but the file is named {path.name}"))
    for key in ("title", "kind", "file"):
        if not _is_text(data.get(key)):
            issues.append(Issue(name, None, f"'{key}' is missing or empty"))
    cov = DocCoverage(doc, name, str(data.get("title") or ""), str(data.get("kind") or ""))
    clauses = data.get("clauses")
    if not isinstance(clauses, list) or not clauses:
        issues.append(Issue(name, None, "'clauses' must be a non-empty list"))
        return cov, []
    good: list[dict] = []
    for i, clause in enumerate(clauses):
        if not isinstance(clause, dict):
            issues.append(Issue(name, f"clause {i + 1}", "a clause must be a mapping"))
            continue
        cid = clause.get("id")
        label = cid if isinstance(cid, str) and cid else f"clause {i + 1}"
        bad = False

        def issue(message: str) -> None:
            nonlocal bad
            bad = True
            issues.append(Issue(name, label, message))

        for key in sorted(set(clause) - _CLAUSE_KEYS, key=str):
            issue(f"unknown key '{key}' (allowed: {', '.join(sorted(_CLAUSE_KEYS))})")
        match = _ID_RE.match(cid) if isinstance(cid, str) else None
        if not match:
            issue("'id' must look like DOC/section-slug/clause-slug (lower-case, digits and dashes)")
        elif match.group("doc") != doc:
            issue(f"id starts with '{match.group('doc')}' but this is document {doc}")
        elif cid in cov.clause_ids:
            issue("duplicate clause id")
        for key in ("section", "text"):
            if not _is_text(clause.get(key)):
                issue(f"'{key}' is missing or empty")
        status = clause.get("status")
        if status not in STATUSES:
            issue(f"status {status!r} is not one of: {', '.join(STATUSES)}")
        rules = clause.get("rules")
        if rules is None:
            rules = []
        if not isinstance(rules, list):
            issue("'rules' must be a list of variant:rule")
            rules = []
        if status == "encoded" and not rules:
            issue("an encoded clause must name the rules that encode it (rules: [variant:rule])")
        if status in NEEDS_REASON and not _is_text(clause.get("reason")):
            issue(f"a {status} clause needs a 'reason'")
        if clause.get("alternative") is not None and not _is_text(clause.get("alternative")):
            issue("'alternative' must be the other reading, as text")
        if status == "conflicting":
            others = clause.get("conflicts_with")
            if not isinstance(others, list) or not others or not all(_is_text(o) for o in others):
                issue("a conflicting clause needs 'conflicts_with': [the clause ids it clashes with]")
        elif clause.get("conflicts_with") is not None:
            issue("'conflicts_with' belongs only to a conflicting clause")
        for ref in rules:
            m = _RULE_REF_RE.match(ref) if isinstance(ref, str) else None
            if not m:
                issue(f"rule reference {ref!r} is not of the form variant:rule")
                continue
            rs = resolver.get(m.group("variant"))
            if rs is None:
                issue(f"rule reference {ref!r}: variant '{m.group('variant')}' cannot be loaded "
                      f"({resolver.errors.get(m.group('variant'))})")
            elif m.group("rule") not in rs.rules:
                issue(f"rule reference {ref!r}: variant '{rs.id}' has no rule '{m.group('rule')}'")
        if isinstance(cid, str) and cid not in cov.clause_ids:
            cov.clause_ids.append(cid)
        if _is_text(clause.get("section")):
            cov.sections.add(str(clause["section"]).strip())
        if not bad:
            cov.counts[status] += 1
            good.append(clause)
    return cov, good


def check(directory: str | Path | None = None, variants: list[str] | None = None) -> CoverageReport:
    """Validate the clause indexes in ``directory`` against the ``variants``
    (default: every bundled variant)."""
    from ..model.variants import bundled_ids
    folder = Path(directory) if directory is not None else clauses_dir()
    issues: list[Issue] = []
    resolver = _Resolver()
    docs: list[DocCoverage] = []
    conflicts: list[tuple[str, str, list]] = []
    paths = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    if not paths:
        issues.append(Issue(str(folder), None, "no clause index (*.yaml) found"))
    for path in paths:
        cov, good = _check_index(path, resolver, issues)
        if cov is None:
            continue
        docs.append(cov)
        conflicts.extend((cov.file, c["id"], c["conflicts_with"]) for c in good if c.get("status") == "conflicting")
    known_ids = {cid for d in docs for cid in d.clause_ids}
    for file, cid, others in conflicts:
        for other in others:
            if other not in known_ids:
                issues.append(Issue(file, cid, f"conflicts_with names unknown clause '{other}'"))
            elif other == cid:
                issues.append(Issue(file, cid, "a clause cannot conflict with itself"))
    by_doc = {d.doc: d for d in docs}
    for vid in (variants if variants is not None else bundled_ids()):
        rs = resolver.get(vid)
        if rs is None:
            issues.append(Issue(f"variant {vid}", None, f"does not compile: {resolver.errors.get(vid)}"))
            continue
        missing_docs: set[str] = set()
        if rs.doc and rs.doc not in by_doc:
            issues.append(Issue(f"variant {vid}", None, f"its source document {rs.doc} has no clause index"))
            missing_docs.add(rs.doc)
        for rule in rs.rules.values():
            if rule.origin != rs.id or not rule.cite:
                continue
            parsed = section_of_cite(rule.cite)
            if parsed is None:
                issues.append(Issue(f"variant {vid}", None, f"rule '{rule.name}': citation {rule.cite!r} "
                                                            "cannot be read"))
                continue
            cdoc, section = parsed
            index = by_doc.get(cdoc)
            if index is None:
                if cdoc not in missing_docs:  # once per variant and document
                    missing_docs.add(cdoc)
                    issues.append(Issue(f"variant {vid}", None, f"rule '{rule.name}' cites document {cdoc}, "
                                                                "which has no clause index"))
            elif section not in index.sections:
                issues.append(Issue(index.file, None, f"variant '{vid}' rule '{rule.name}' cites "
                                                      f"'{rule.cite}', but no clause has section '{section}'"))
    return CoverageReport(docs, issues)
