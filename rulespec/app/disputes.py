"""A dispute answered: one ruling (``answer``), or the same situation under several variants side by side
(``compare``: each ruling, the fields that differ, and the rules that make them differ).

One code path for the HTTP API, the command-line twins and scenario tests.  Every request names a variant
by id, by path (CLI only), or inline as a house rule (``{"extends": "classic", "rules": {...}}``);
``"variants": [...]`` asks for rulings side by side.  Bad input raises ``InputError`` whose ``field`` is the
path of the offending value (``bids.N``, ``play[12]``).
"""
from __future__ import annotations

from collections.abc import Mapping

from . import fields as F
from . import reasons as R
from .answers import FIELDS, KINDS, REQUIRED, resolve_variant, with_readings
from .repeats import has_long_rules, has_long_texts, once
from ..errors import BudgetExceeded, InputError, RulespecError, SearchBudgetError
from ..model.ablation import Cause, differing_rules, rules_behind
from ..model.ruleset import Ruleset

MAX_VARIANTS = 8
MAX_ABLATIONS = 32     # differing rules swapped (each into both variants) per pair of variants in compare
MAX_PAIRS = 32         # pairs of them swapped together, for a difference no single rule moves
MAX_SCORED_HANDS = 20_000   # hands one comparison may score, its rule swaps included (its worst case)


def answer(kind: str, req, allow_paths: bool = False) -> dict:
    """Answer a request of ``kind``; with ``"variants": [...]`` answer side by side (see ``compare``)."""
    if kind not in KINDS:
        raise InputError(f"unknown kind '{kind}' (one of: {', '.join(KINDS)})", "kind")
    F.known_fields(F.obj(req, ""), ("variant", "variants", *FIELDS[kind]), "", f"a {kind} request")
    req = F.present(req)
    if "variants" in req:
        if "variant" in req:
            raise InputError("give either 'variant' (one ruling) or 'variants' (side by side), not both", "variants")
        try:
            return compare({"variants": req["variants"], "kind": kind,
                            "input": {k: v for k, v in req.items() if k != "variants"}}, allow_paths)
        except InputError as exc:   # the request's own fields are at the top level, not under 'input'
            if exc.field.startswith("input."):
                raise InputError(exc.message, exc.field[len("input."):], exc.rule, exc.cite, exc.details) from None
            raise
        except BudgetExceeded as exc:
            if exc.field.startswith("input."):
                raise BudgetExceeded(str(exc), exc.field[len("input."):], exc.spent) from None
            raise
    rs = resolve_variant(F.get(req, "variant", ""), "variant", allow_paths)
    ruling = with_readings(rs, KINDS[kind](rs, req))
    return once(ruling) if has_long_texts(rs) else ruling


_TRAILS = ("explanation", "lines", "variant", "rule", "refusals", "illegal", "notes", "reasons", "readings",
           "irregularities")


def _leaves(value, path: str = "") -> dict[str, object]:
    """Flatten an answer to path -> value, leaving out the trails: objects are entered, and a game's sheet
    hand by hand (``sheet[2].NS.score``); any other list (cards, conflicts, a line of play) is one value."""
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            if key not in _TRAILS:
                out.update(_leaves(item, f"{path}.{key}" if path else str(key)))
        return out
    if path == "sheet" and isinstance(value, list):
        out = {}
        for i, item in enumerate(value):
            out.update(_leaves(item, f"{path}[{i}]"))
        return out
    return {path: value}


def compare(req, allow_paths: bool = False) -> dict:
    """The same situation under several variants: each ruling, what differs, and which rules differ."""
    req = F.obj(req, "")
    F.known_fields(req, ("variants", "kind", "input"), "", "a comparison")
    variants = F.get(req, "variants", "")
    if not isinstance(variants, list) or not 1 <= len(variants) <= MAX_VARIANTS:
        raise InputError(f"expected a list of 1 to {MAX_VARIANTS} variants", "variants")
    kind = F.get(req, "kind", "") if "kind" in req else "score"
    if not isinstance(kind, str) or kind not in KINDS:
        raise InputError(f"unknown kind '{kind}' (one of: {', '.join(KINDS)})", "kind")
    body = F.obj(F.get(req, "input", ""), "input")
    F.known_fields(body, FIELDS[kind], "input", f"a {kind} request")
    body = F.present(body)
    for key in REQUIRED[kind]:
        F.get(body, key, "input")
    rulesets = [resolve_variant(v, f"variants[{i}]", allow_paths) for i, v in enumerate(variants)]
    _bound_work(kind, body, rulesets)
    rulings = _rulings(kind, body, rulesets)
    _refuse_wrong_input(rulings)
    keys = list(rulings)
    base = _leaves(rulings[keys[0]])
    differences = [d for key, rs in zip(keys[1:], rulesets[1:])
                   if (d := _difference(kind, body, (keys[0], rulesets[0]), (key, rs), base, rulings[key]))]
    docs = {key: rs.doc for key, rs in zip(keys, rulesets)}
    for difference in differences:
        difference["sentences"] = R.difference_sentences(difference, rulings, docs)
    result = {"kind": kind, "rulings": rulings, "differences": differences, "agree": not differences}
    return once(result) if any(has_long_texts(rs) or has_long_rules(rs) for rs in rulesets) else result


def _bound_work(kind: str, body: Mapping, rulesets: list[Ruleset]) -> None:
    """Refuse up front (``BudgetExceeded``: a work-limit problem) a comparison that could score more than
    ``MAX_SCORED_HANDS`` hands: each variant's ruling scores the game's hands (one ruling for other kinds),
    and so may each single-rule swap tried for a variant that differs from the first.  The double-dummy
    kinds are bounded by their search budget instead."""
    if kind != "game" or not isinstance(body.get("hands"), list):
        return
    hands = len(body["hands"])
    swaps = 0
    for rs in rulesets[1:]:      # each differing rule swapped both ways, then pairs of them (rules_behind)
        differing = min(len(differing_rules(rulesets[0], rs)), MAX_ABLATIONS)
        swaps += 2 * differing + (min(MAX_PAIRS, differing * (differing - 1) // 2))
    worst = hands * (len(rulesets) + swaps)
    if worst > MAX_SCORED_HANDS:
        raise BudgetExceeded(f"this comparison could score {worst:,} hands ({hands} hands under each of "
                             f"{len(rulesets)} variants, and again for each of {swaps} rule swaps that "
                             f"find the rules responsible for a difference); at most {MAX_SCORED_HANDS:,} per "
                             "request: send fewer hands or variants", field="input.hands", spent="work")


def _refuse_wrong_input(rulings: Mapping[str, dict]) -> None:
    """When no variant can answer, and not because of its rules, the input itself is wrong: refuse it."""
    errors = [r["error"] for r in rulings.values() if "error" in r]
    if len(errors) == len(rulings) and not any(e["rule"] for e in errors) and len({e["field"] for e in errors}) == 1:
        raise InputError(errors[0]["detail"], errors[0]["field"])


def _rulings(kind: str, body: Mapping, rulesets: list[Ruleset]) -> dict[str, dict]:
    """Each variant's ruling (or the error it gives), keyed by variant id (``id#i`` for a repeat)."""
    rulings: dict[str, dict] = {}
    for i, rs in enumerate(rulesets):
        key = rs.id if rs.id not in rulings else f"{rs.id}#{i}"
        try:
            rulings[key] = with_readings(rs, KINDS[kind](rs, body))
        except SearchBudgetError:     # the request's budget, not this variant's ruling
            raise
        except InputError as exc:
            rulings[key] = {"variant": rs.id, "error": {"field": f"input.{exc.field}" if exc.field else "input",
                                                        "detail": exc.message, "rule": exc.rule, "cite": exc.cite}}
    return rulings


def _difference(kind: str, body: Mapping, first: tuple[str, Ruleset], other: tuple[str, Ruleset], base: dict,
                ruling: dict) -> dict | None:
    """The fields in which ``ruling`` (of ``other``) differs from the first variant's, and the rules that
    make them differ; None when they agree."""
    (base_key, base_rs), (key, rs) = first, other
    leaves = _leaves(ruling)
    fields = [{"field": path, base_key: base.get(path), key: leaves.get(path)}
              for path in sorted(set(base) | set(leaves)) if base.get(path) != leaves.get(path)]
    if not fields:
        return None
    causes = _causes(kind, body, base_rs, rs, (base, leaves), {f["field"] for f in fields})
    return {"variants": [base_key, key], "fields": fields,
            "rules": [{"rule": c.rule, "changes": sorted(c.changes),
                       **({"together_with": sorted(c.together)} if c.together else {}),
                       base_key: {"value": base_rs.rules[c.rule].text, "cite": base_rs.rules[c.rule].cite},
                       key: {"value": rs.rules[c.rule].text, "cite": rs.rules[c.rule].cite}}
                      for c in causes]}


def _causes(kind: str, body: Mapping, base_rs: Ruleset, rs: Ruleset, leaves: tuple[dict, dict], fields: set[str]
            ) -> list[Cause]:
    """The rules that make the rulings differ: each differing rule whose change moves one of the differing
    ``fields``, swapped into either variant, alone or with one other (``ablation.rules_behind``)."""
    def trial(swapped: Ruleset, like: Ruleset) -> dict | None:
        try:
            return _leaves(KINDS[kind](swapped, body))
        except (SearchBudgetError, BudgetExceeded):     # a spent budget says nothing about the rule
            raise
        except InputError as exc:     # (named as the variant the swap stands for: one rule changed)
            return {"error.field": f"input.{exc.field}" if exc.field else "input",
                    "error.detail": exc.message.replace(f"'{swapped.id}'", f"'{like.id}'")}
        except RulespecError:   # the rule does not fit the other variant's rules on its own
            return None
    return rules_behind(base_rs, rs, leaves, fields, trial, MAX_ABLATIONS, MAX_PAIRS)
