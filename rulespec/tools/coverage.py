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

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..errors import RulespecError
from ..model.clauses import clauses_dir, is_text, section_of_cite

STATUSES = ("encoded", "procedural", "ambiguous", "unspecified", "conflicting")
NEEDS_REASON = ("procedural", "ambiguous", "unspecified", "conflicting")
_DOC_KEYS = {"doc", "title", "kind", "file", "clauses"}
_CLAUSE_KEYS = {"id", "section", "text", "status", "rules", "reason", "conflicts_with", "alternative"}
_ID_RE = re.compile(r"^(?P<doc>[0-9a-z_-]+)/[a-z0-9][a-z0-9-]*/[a-z0-9][a-z0-9-]*$")
_RULE_REF_RE = re.compile(r"^(?P<variant>[a-z0-9][a-z0-9_-]*):(?P<rule>[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*)$")


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


def _read_index(path: Path, issues: list[Issue]) -> dict | None:
    """The clause index at ``path`` as a mapping, or None (and an issue) when it is not one."""
    name = str(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        issues.append(Issue(name, None, f"cannot read: {exc}"))
        return None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        issues.append(Issue(name, None, f"not valid YAML{where}: {getattr(exc, 'problem', None) or exc}"))
        return None
    if not isinstance(data, dict):
        issues.append(Issue(name, None, "a clause index must be a mapping with doc, title, kind, file and clauses"))
        return None
    return data


def _check_header(path: Path, data: dict, issues: list[Issue]) -> str:
    """Check the index's keys other than ``clauses``; return its document id."""
    name = str(path)
    for key in sorted(set(data) - _DOC_KEYS, key=str):
        issues.append(Issue(name, None, f"unknown key '{key}' (allowed: {', '.join(sorted(_DOC_KEYS))})"))
    doc = data.get("doc")
    if not isinstance(doc, str) or not doc:
        issues.append(Issue(name, None, "'doc' must be the document id as a quoted string, e.g. \"004\""))
        doc = path.stem
    elif doc != path.stem:
        issues.append(Issue(name, None, f"'doc' is {doc!r} but the file is named {path.name}"))
    for key in ("title", "kind", "file"):
        if not is_text(data.get(key)):
            issues.append(Issue(name, None, f"'{key}' is missing or empty"))
    return doc


def _check_index(path: Path, resolver: _Resolver, issues: list[Issue]) -> tuple[DocCoverage | None, list[dict]]:
    """The coverage of one clause index and its well-formed clauses; problems go to ``issues``."""
    name = str(path)
    data = _read_index(path, issues)
    if data is None:
        return None, []
    doc = _check_header(path, data, issues)
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
        problems = _clause_problems(clause, doc, cov, resolver)
        issues.extend(Issue(name, label, message) for message in problems)
        _note_clause(cov, clause)
        if not problems:
            cov.counts[clause["status"]] += 1
            good.append(clause)
    return cov, good


def _note_clause(cov: DocCoverage, clause: dict) -> None:
    """Note the clause's id and section (for duplicate ids, conflicts and citations), even when it is malformed."""
    cid = clause.get("id")
    if isinstance(cid, str) and cid not in cov.clause_ids:
        cov.clause_ids.append(cid)
    if is_text(clause.get("section")):
        cov.sections.add(str(clause["section"]).strip())


def _clause_problems(clause: dict, doc: str, cov: DocCoverage, resolver: _Resolver) -> list[str]:
    """What is wrong with one clause of document ``doc`` (whose clauses so far are in ``cov``)."""
    out = [f"unknown key '{key}' (allowed: {', '.join(sorted(_CLAUSE_KEYS))})"
           for key in sorted(set(clause) - _CLAUSE_KEYS, key=str)]
    out += _id_problems(clause.get("id"), doc, cov)
    out += [f"'{key}' is missing or empty" for key in ("section", "text") if not is_text(clause.get(key))]
    status = clause.get("status")
    if status not in STATUSES:
        out.append(f"status {status!r} is not one of: {', '.join(STATUSES)}")
    rules = clause.get("rules")
    if rules is None:
        rules = []
    if not isinstance(rules, list):
        out.append("'rules' must be a list of variant:rule")
        rules = []
    out += _status_problems(clause, status, rules)
    for ref in rules:
        out += _rule_ref_problems(ref, resolver)
    return out


def _id_problems(cid, doc: str, cov: DocCoverage) -> list[str]:
    match = _ID_RE.match(cid) if isinstance(cid, str) else None
    if not match:
        return ["'id' must look like DOC/section-slug/clause-slug (lower-case, digits and dashes)"]
    if match.group("doc") != doc:
        return [f"id starts with '{match.group('doc')}' but this is document {doc}"]
    if cid in cov.clause_ids:
        return ["duplicate clause id"]
    return []


def _status_problems(clause: dict, status, rules: list) -> list[str]:
    """What the clause's status asks of it: rules when encoded, a reason when open, the clauses it clashes with."""
    out = []
    if status == "encoded" and not rules:
        out.append("an encoded clause must name the rules that encode it (rules: [variant:rule])")
    if status in NEEDS_REASON and not is_text(clause.get("reason")):
        out.append(f"a {status} clause needs a 'reason'")
    if clause.get("alternative") is not None and not is_text(clause.get("alternative")):
        out.append("'alternative' must be the other reading, as text")
    if status == "conflicting":
        others = clause.get("conflicts_with")
        if not isinstance(others, list) or not others or not all(is_text(o) for o in others):
            out.append("a conflicting clause needs 'conflicts_with': [the clause ids it clashes with]")
    elif clause.get("conflicts_with") is not None:
        out.append("'conflicts_with' belongs only to a conflicting clause")
    return out


def _rule_ref_problems(ref, resolver: _Resolver) -> list[str]:
    m = _RULE_REF_RE.match(ref) if isinstance(ref, str) else None
    if not m:
        return [f"rule reference {ref!r} is not of the form variant:rule"]
    rs = resolver.get(m.group("variant"))
    if rs is None:
        return [f"rule reference {ref!r}: variant '{m.group('variant')}' cannot be loaded "
                f"({resolver.errors.get(m.group('variant'))})"]
    if m.group("rule") not in rs.rules:
        return [f"rule reference {ref!r}: variant '{rs.id}' has no rule '{m.group('rule')}'"]
    return []


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
    issues += _conflict_issues(docs, conflicts)
    by_doc = {d.doc: d for d in docs}
    for vid in (variants if variants is not None else bundled_ids()):
        issues += _variant_issues(vid, resolver, by_doc)
    return CoverageReport(docs, issues)


def _conflict_issues(docs: list[DocCoverage], conflicts: list[tuple[str, str, list]]) -> list[Issue]:
    """Each ``conflicts_with`` must name another known clause."""
    known_ids = {cid for d in docs for cid in d.clause_ids}
    out = []
    for file, cid, others in conflicts:
        for other in others:
            if other not in known_ids:
                out.append(Issue(file, cid, f"conflicts_with names unknown clause '{other}'"))
            elif other == cid:
                out.append(Issue(file, cid, "a clause cannot conflict with itself"))
    return out


def _variant_issues(vid: str, resolver: _Resolver, by_doc: dict[str, DocCoverage]) -> list[Issue]:
    """Variant ``vid`` compiles, its document has an index, and each rule it sets cites a known section."""
    rs = resolver.get(vid)
    if rs is None:
        return [Issue(f"variant {vid}", None, f"does not compile: {resolver.errors.get(vid)}")]
    out = []
    missing_docs: set[str] = set()
    if rs.doc and rs.doc not in by_doc:
        out.append(Issue(f"variant {vid}", None, f"its source document {rs.doc} has no clause index"))
        missing_docs.add(rs.doc)
    for rule in rs.rules.values():
        if rule.origin == rs.id and rule.cite:
            out += _cite_issues(vid, rule, by_doc, missing_docs)
    return out


def _cite_issues(vid: str, rule, by_doc: dict[str, DocCoverage], missing_docs: set[str]) -> list[Issue]:
    """A rule's citation must name a section of an indexed document (a document without an index
    is reported once per variant: ``missing_docs`` holds those already reported)."""
    parsed = section_of_cite(rule.cite)
    if parsed is None:
        return [Issue(f"variant {vid}", None, f"rule '{rule.name}': citation {rule.cite!r} cannot be read")]
    cdoc, section = parsed
    index = by_doc.get(cdoc)
    if index is None:
        if cdoc in missing_docs:
            return []
        missing_docs.add(cdoc)
        return [Issue(f"variant {vid}", None, f"rule '{rule.name}' cites document {cdoc}, "
                                              "which has no clause index")]
    if section not in index.sections:
        return [Issue(index.file, None, f"variant '{vid}' rule '{rule.name}' cites "
                                        f"'{rule.cite}', but no clause has section '{section}'")]
    return []
