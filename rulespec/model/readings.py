"""Reading choices: the rules whose value is a reading of a silent or unclear document.

The clause index (``rulespec/data/corpus/clauses/NNN.yaml``) marks a clause ambiguous, unspecified or
conflicting, or gives the ``alternative`` to the reading encoded; a rule written without
a source (``unspecified:`` in the variant) is a reading too.  ``readings_for`` gives,
for the rules an answer applied, each reading note: the rule, the clause, the reading
and the alternative.
"""
from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path


from .clauses import clauses_dir, read_index
from .ruleset import Ruleset, per_ruleset

READING_STATUSES = ("ambiguous", "unspecified", "conflicting")


def _cite(doc: str, section: str) -> str:
    return f"{doc} {section}" if section.startswith("¶") else f"{doc} §{section}"


@functools.lru_cache(maxsize=4)
def reading_index(folder: str) -> dict[tuple[str, str], tuple[dict, ...]]:
    """(variant, rule) -> the reading clauses that name it, from every index in ``folder``."""
    index: dict[tuple[str, str], list[dict]] = {}
    for path in sorted(Path(folder).glob("*.yaml")):
        data = read_index(path) or {}
        doc = str(data.get("doc") or path.stem)
        for clause in data.get("clauses") or []:
            if not isinstance(clause, dict) or not (clause.get("status") in READING_STATUSES
                                                    or clause.get("alternative")):
                continue
            note = {"clause": clause.get("id"), "cite": _cite(doc, str(clause.get("section", ""))),
                    "status": clause.get("status"), "reading": " ".join(str(clause.get("reason", "")).split()),
                    "alternative": " ".join(str(clause.get("alternative", "")).split()) or None}
            for ref in clause.get("rules") or []:
                variant, _, rule = str(ref).partition(":")
                index.setdefault((variant, rule), []).append(note)
    return {key: tuple(notes) for key, notes in index.items()}


def _alternative(rs: Ruleset, name: str) -> str | None:
    """Other values the variant itself names (``choices``), as an alternative."""
    rule = rs.rules[name]
    others = [str(c) for c in rule.choices or [] if str(c) != " ".join(rule.text.split())]
    return f"another value: {', '.join(others)}" if others else None


def _notes(rs: Ruleset, name: str, index: dict) -> list[dict]:
    """The reading notes of one rule: from the clause index of the variants that hold its value
    (the leaf first), else from the rule's own ``unspecified:``."""
    rule = rs.rules[name]
    holders = rs.chain[rs.chain.index(rule.origin):] if rule.origin in rs.chain else [rs.id]
    for variant in reversed(holders):
        notes = index.get((variant, name))
        if notes:
            return [{"rule": name, **note, "alternative": note["alternative"] or _alternative(rs, name)}
                    for note in notes]
    if rule.unspecified:
        return [{"rule": name, "clause": None, "cite": rule.cite, "status": "unspecified",
                 "reading": " ".join(rule.unspecified.split()), "alternative": _alternative(rs, name)}]
    return []


@per_ruleset
def _per_folder(rs: Ruleset) -> dict[str, dict[str, list[dict]]]:
    return {}


def _noted(rs: Ruleset, folder: str) -> dict[str, list[dict]]:
    """The rules of ``rs`` that carry reading notes (in the ruleset's order) and their notes, worked
    out once per ruleset and clause folder."""
    per_folder = _per_folder(rs)
    if folder not in per_folder:
        index = reading_index(folder)
        per_folder[folder] = {name: notes for name in rs.rules if (notes := _notes(rs, name, index))}
    return per_folder[folder]


def readings_for(rs: Ruleset, names: Iterable[str]) -> list[dict]:
    """The reading notes of the rules ``names`` (in the ruleset's order), each clause once per rule
    (fresh copies: an answer may extend them)."""
    wanted = set(names)
    return [dict(note) for name, notes in _noted(rs, str(clauses_dir())).items() if name in wanted
            for note in notes]
