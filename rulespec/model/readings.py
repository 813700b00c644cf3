"""Reading choices: the rules whose value is a reading of a silent or unclear document.

The clause index (``corpus/clauses/NNN.yaml``) marks a clause ambiguous, unspecified or
conflicting, or gives the ``alternative`` to the reading encoded; a rule written without
a source (``unspecified:`` in the variant) is a reading too, and so is a rule a variant inherits
from another document's variant where no clause of its own document states it (the document is
silent on it: "not stated in 003; inherited from standard").  A rule that names a parameter rests on
that parameter's reading as well (``bonus.last_trick`` on the table's ``ace.bonus``).
``readings_for`` gives, for the rules an answer applied, each reading note: the rule, the clause, the
reading and the alternative.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from pathlib import Path


from .clauses import clauses_dir, read_index
from .ruleset import Ruleset, per_ruleset

READING_STATUSES = ("ambiguous", "unspecified", "conflicting")


def _cite(doc: str, section: str) -> str:
    return f"{doc} {section}" if section.startswith("¶") else f"{doc} §{section}"


def _refs(clause: dict) -> list[tuple[str, str]]:
    """The (variant, rule) pairs a clause names, each written ``variant:rule``."""
    parts = [str(ref).partition(":") for ref in clause.get("rules") or []]
    return [(variant, rule) for variant, _, rule in parts]


@functools.lru_cache(maxsize=4)
def _indexes(folder: str) -> tuple[dict[tuple[str, str], tuple[dict, ...]], dict[str, frozenset[tuple[str, str]]]]:
    """From every index in ``folder``: (variant, rule) -> the reading clauses that name it; and per
    document, the (variant, rule) pairs that a clause of it states (any other clause naming them)."""
    readings: dict[tuple[str, str], list[dict]] = {}
    stated: dict[str, set[tuple[str, str]]] = {}
    for path in sorted(Path(folder).glob("*.yaml")):
        data = read_index(path) or {}
        doc = str(data.get("doc") or path.stem)
        for clause in data.get("clauses") or []:
            if not isinstance(clause, dict):
                continue
            refs = _refs(clause)
            if not (clause.get("status") in READING_STATUSES or clause.get("alternative")):
                stated.setdefault(doc, set()).update(refs)
                continue
            note = {"clause": clause.get("id"), "cite": _cite(doc, str(clause.get("section", ""))),
                    "status": clause.get("status"), "reading": " ".join(str(clause.get("reason", "")).split()),
                    "alternative": " ".join(str(clause.get("alternative", "")).split()) or None}
            for ref in refs:
                readings.setdefault(ref, []).append(note)
    return ({key: tuple(notes) for key, notes in readings.items()},
            {doc: frozenset(pairs) for doc, pairs in stated.items()})


def reading_index(folder: str) -> dict[tuple[str, str], tuple[dict, ...]]:
    """(variant, rule) -> the reading clauses that name it, from every index in ``folder``."""
    return _indexes(folder)[0]


def _alternative(rs: Ruleset, name: str) -> str | None:
    """Other values the variant itself names (``choices``), as an alternative."""
    rule = rs.rules[name]
    others = [str(c) for c in rule.choices or [] if str(c) != " ".join(rule.text.split())]
    return f"another value: {', '.join(others)}" if others else None


def _notes(rs: Ruleset, name: str, folder: str) -> list[dict]:
    """The reading notes of one rule: from the clause index of the variants that hold its value
    (the leaf first; a clause of the variant's own document that states the rule ends the search),
    else from the rule's own ``unspecified:``, else, for a rule inherited from another document's
    variant, the silence of the variant's own document."""
    index, stated = _indexes(folder)
    rule = rs.rules[name]
    if rule.neutral:            # no document's: the game without the rule (its citation says so)
        return []
    docs = {spec.id: spec.doc for spec in rs.specs}
    holders = rs.chain[rs.chain.index(rule.origin):] if rule.origin in rs.chain else [rs.id]
    own = stated.get(rs.doc, frozenset())
    for variant in reversed(holders):
        notes = index.get((variant, name))
        if notes:
            return [{"rule": name, **note, "alternative": note["alternative"] or _alternative(rs, name)}
                    for note in notes]
        if docs.get(variant) == rs.doc and (variant, name) in own:
            return []
    if rule.unspecified:
        return [{"rule": name, "clause": None, "cite": rule.cite, "status": "unspecified",
                 "reading": " ".join(rule.unspecified.split()), "alternative": _alternative(rs, name)}]
    if rule.origin_doc != rs.doc and _indexed(rs.doc, folder):
        return [{"rule": name, "clause": None, "cite": rule.cite, "status": "unspecified",
                 "reading": f"not stated in {rs.doc}; inherited from {rule.origin}: {' '.join(rule.text.split())}",
                 "alternative": _alternative(rs, name)}]
    return []


def _indexed(doc: str, folder: str) -> bool:
    """Whether ``doc`` is a source document with a clause index in ``folder``."""
    return bool(re.fullmatch(r"\d{3}", doc)) and (Path(folder) / f"{doc}.yaml").is_file()


def _parameters(rs: Ruleset, name: str) -> set[str]:
    """The parameter rules that rule ``name`` names, directly or through other parameters."""
    found: set[str] = set()
    stack = [name]
    while stack:
        for other in rs.rules[stack.pop()].names:
            if other in rs.params and other in rs.rules and other not in found and other != name:
                found.add(other)
                stack.append(other)
    return found


@per_ruleset
def _per_folder(rs: Ruleset) -> dict[str, tuple[dict[str, list[dict]], dict[str, frozenset[str]]]]:
    return {}


def _noted(rs: Ruleset, folder: str) -> tuple[dict[str, list[dict]], dict[str, frozenset[str]]]:
    """The rules of ``rs`` that carry reading notes (in the ruleset's order) with their notes, and for
    each rule the noted rules an answer that applies it rests on (itself and its parameters), worked
    out once per ruleset and clause folder."""
    per_folder = _per_folder(rs)
    if folder not in per_folder:
        notes = {name: found for name in rs.rules if (found := _notes(rs, name, folder))}
        rests = {name: frozenset(r for r in (name, *_parameters(rs, name)) if r in notes) for name in rs.rules}
        per_folder[folder] = (notes, {name: on for name, on in rests.items() if on})
    return per_folder[folder]


def readings_for(rs: Ruleset, names: Iterable[str]) -> list[dict]:
    """The reading notes of the rules ``names`` and of the parameters they name (in the ruleset's order),
    each clause once per rule (fresh copies: an answer may extend them)."""
    notes, rests = _noted(rs, str(clauses_dir()))
    wanted: set[str] = set()
    for name in names:
        wanted |= rests.get(name, frozenset())
    return [dict(note) for name, found in notes.items() if name in wanted for note in found]
