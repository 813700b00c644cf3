"""Variants as JSON: the bundled list, one variant's rules with citations, and
checking a house rule's YAML."""
from __future__ import annotations

from rulespec.app.answers import MAX_INLINE_RULES
from rulespec.core.cards import card_names, table_of
from rulespec.errors import Problem, RulesFileError, RulespecError
from rulespec.model.ruleset import Ruleset, compile_spec, load_ruleset
from rulespec.core.schema import SLOTS
from rulespec.model.variants import bundled_ids, bundled_list, read_request_text

from .problems import ApiProblem

REQUEST_FILE = "<request>"
MAX_CHECK_RULES = len(SLOTS) + MAX_INLINE_RULES  # a complete base variant plus its own parameters


def _json_safe(value):
    """YAML may hold values JSON has no word for (dates, …): those become strings."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    return str(value)


def rule_entry(rs: Ruleset, name: str) -> dict:
    """One rule: its text, authority (cite or why it is unspecified), origin and choices."""
    rule = rs.rules[name]
    entry = {"name": name, "text": rule.text, "type": rule.slot.type, "cite": rule.cite,
             "origin": rule.origin, "inherited": rule.origin != rs.id,
             "note": rule.note, "choices": _json_safe(rule.choices),
             "unspecified": rule.unspecified or (rule.citation(rs.id, rs.doc)["note"] if rule.neutral else None),
             "parameter": rule.is_param, "doc": rule.slot.doc, "options": list(rule.slot.options)}
    citation_note = rule.citation(rs.id, rs.doc).get("note")
    if citation_note:
        entry["citation_note"] = citation_note
    return entry


def variant_summary(rs: Ruleset) -> dict:
    """A variant's id, title, source document, chain, rule counts and table (its seats and the sides that score:
    the partnerships NS and EW, or each seat alone)."""
    own = sum(1 for r in rs.rules.values() if r.origin == rs.id)
    table = table_of(rs.params)
    return {"id": rs.id, "title": rs.title, "doc": rs.doc, "extends": rs.spec.extends, "chain": rs.chain,
            "rule_count": len(rs.rules), "own_rule_count": own,
            "table": {"seats": table.seats, "sides": list(table.side_names)}}


def variant_detail(rs: Ruleset) -> dict:
    """A variant's summary, notes, source, the cards of its pack and every rule."""
    return {**variant_summary(rs), "notes": rs.spec.notes, "pack": card_names(rs.deck),
            "source": _json_safe(rs.spec.source) if isinstance(rs.spec.source, dict) else {"doc": rs.doc},
            "rules": [rule_entry(rs, name) for name in rs.rules]}


def list_variants() -> list[dict]:
    """Every bundled variant; one that does not compile is listed with its problems."""
    out = []
    for vid in bundled_ids():
        try:
            out.append(variant_summary(load_ruleset(vid)))
        except RulesFileError as exc:
            out.append({"id": vid, "problems": [p.as_dict() for p in exc.problems]})
        except RulespecError as exc:
            out.append({"id": vid, "problems": [Problem(str(exc)).as_dict()]})
    return out


def get_variant(vid: str) -> Ruleset:
    if vid not in bundled_ids():
        shown = vid if len(vid) <= 80 else vid[:60] + f"… ({len(vid)} characters)"
        raise ApiProblem("unknown-variant", f"unknown variant '{shown}' (bundled: {bundled_list()})",
                         "id", known=bundled_ids())
    try:
        return load_ruleset(vid)
    except RulesFileError as exc:
        raise ApiProblem("variant-problems", f"bundled variant '{vid}' does not compile", "id",
                         problems=[p.as_dict() for p in exc.problems]) from None


def _problems(problems: list[Problem]) -> ApiProblem:
    count = len(problems)
    return ApiProblem("variant-problems", f"{count} problem{'s' if count != 1 else ''} in the house rule: "
                      f"{problems[0].message}", "yaml", problems=[p.as_dict() for p in problems])


def check_house_rule(text: str) -> dict:
    """Compile house-rule YAML; raise ``ApiProblem`` listing every problem, else the compiled variant."""
    try:
        spec = read_request_text(text, REQUEST_FILE)
    except RulesFileError as exc:
        raise _problems(exc.problems) from None
    except RecursionError:
        raise _problems([Problem("the YAML nests too deeply", REQUEST_FILE)]) from None
    if spec.id in bundled_ids():
        raise _problems([*spec.problems, Problem(
            f"'{spec.id}' is the id of a bundled variant; give the house rule an id of its own", REQUEST_FILE,
            *spec.id_pos, source_line=spec.source_line(spec.id_pos[0]), suggestion=f"e.g. 'id: my-{spec.id}'")])
    if spec.extends is not None and (spec.extends.endswith((".yaml", ".yml")) or "/" in spec.extends
                                     or "\\" in spec.extends):
        line, col = spec.extends_pos
        raise _problems([*spec.problems, Problem(
            "a house rule sent to the service extends a bundled variant id, not a file",
            REQUEST_FILE, line, col, source_line=spec.source_line(line),
            suggestion=f"one of: {', '.join(bundled_ids())}")])
    count = len(spec.rules) + len(spec.params)
    if count > MAX_CHECK_RULES:
        raise _problems([*spec.problems, Problem(f"{count} rules; at most {MAX_CHECK_RULES} per house rule",
                                                 REQUEST_FILE, 1, 1)])
    try:
        rs = compile_spec(spec, bundled_only=True)
    except RulesFileError as exc:
        raise _problems(exc.problems) from None
    return {"ok": True, "tests": len(spec.tests), **variant_detail(rs)}
