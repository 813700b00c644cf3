"""House rules sent inside a JSON request, compiled like a variant file.

Two forms: an object (``{"extends": "classic", "rules": {"nil.made": "75 @ house §Nil"}}``), built
into a variant spec field by field (no YAML is written from it), or the variant file's own text
(``{"yaml": "id: our-table\\nextends: classic\\n..."}``).  Either may extend bundled variants only,
never a path (``compile_spec(..., bundled_only=True)``).  Problems are
reported where the writer wrote them: for the object, the JSON path of the rule
(``variant.rules.nil.made``) with the line and column inside that rule's text; for the YAML, the
line and column in that text.  An inline variant never takes a bundled variant's id: without an
``id`` it is called ``inline`` (``inline-N`` for ``variants[N]``).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from ..errors import InputError, Problem, RulesFileError, UnknownVariantError, did_you_mean
from ..lang.limits import MAX_CHOICE_CHARS, MAX_CHOICES, MAX_ID_CHARS, MAX_NAME_CHARS, MAX_NOTE_CHARS, MAX_TITLE_CHARS
from ..model.ruleset import Ruleset, compile_spec
from ..model.variants import (ID_RE, NAME_RE, RuleDef, VariantSpec, bundled_ids, bundled_list, cite_problem,
                              document_problem, read_request_text, split_cite, value_to_dsl)

_KEYS = ("id", "title", "extends", "rules", "params", "notes")
_RULE_KEYS = ("value", "cite", "note", "unspecified", "choices")
_DEFAULT_TITLE = "inline house rule"
MAX_LIST_ITEMS = 64     # numbers in a rule written as a JSON list


def default_id(field: str) -> str:
    """``variant`` -> ``inline``; ``variants[2]`` -> ``inline-2``."""
    match = re.search(r"\[(\d+)\]$", field)
    return f"inline-{match.group(1)}" if match else "inline"


def _text_of(value, path: str) -> str:
    """A rule value as DSL text (``value_to_dsl``), lists of at most ``MAX_LIST_ITEMS`` numbers."""
    if isinstance(value, list) and len(value) > MAX_LIST_ITEMS \
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise InputError(f"a list in a rule has at most {MAX_LIST_ITEMS} numbers", path)
    text = value_to_dsl(value)
    if text is None:
        raise InputError("a rule value is a number, true/false, a list of numbers or an expression", path)
    return text


def _spec(value: Mapping, field: str, vid: str, max_rules: int) -> VariantSpec:
    """The object form as a variant spec, built field by field (never through YAML text: a request's text
    is data, and no character in it can add a key).  Each rule is located at its JSON path, its text's
    positions its own."""
    spec = VariantSpec(id=vid, title=str(value.get("title") or _DEFAULT_TITLE),
                       source={"doc": "house", "title": "rules sent with the request"}, extends=value["extends"],
                       notes=str(value.get("notes") or ""), file=field)
    for key, limit in (("title", MAX_TITLE_CHARS), ("notes", MAX_NOTE_CHARS)):
        if len(str(value.get(key) or "")) > limit:
            raise InputError(f"'{key}' is {len(str(value[key]))} characters long; the limit is {limit}",
                             f"{field}.{key}")
    for section, is_param in (("rules", False), ("params", True)):
        rules = value.get(section)
        if rules is None:
            continue
        if not isinstance(rules, Mapping):
            raise InputError(f"'{section}' must be an object of rule names to values", f"{field}.{section}")
        if len(rules) > max_rules:
            raise InputError(f"at most {max_rules} rules inline", f"{field}.{section}")
        target = spec.params if is_param else spec.rules
        for name, rule in rules.items():
            target[name] = _rule(spec, name, rule, f"{field}.{section}.{name}", is_param)
    return spec


def _rule(spec: VariantSpec, name, rule, path: str, is_param: bool) -> RuleDef:
    """One inline rule (a value, or an object with 'value' and its keys); a problem with its citation is
    kept in ``spec.problems`` (reported with the compiler's)."""
    if not isinstance(name, str) or not NAME_RE.match(name) or len(name) > MAX_NAME_CHARS:
        raise InputError(f"'{str(name)[:100]}' is not a rule name (dotted lower-case words)", path)
    entry = _entry(rule, path)
    value_path = f"{path}.value" if isinstance(rule, Mapping) else path
    written = _text_of(entry["value"], value_path)
    text, inline_cite = split_cite(written)
    cite, unspecified = entry.get("cite"), entry.get("unspecified")
    if cite is None and unspecified is None and inline_cite is None:
        cite = f"house §{name}"
    cite_path = f"{path}.cite" if cite is not None else value_path
    line, column, shown = _cite_position(written if cite is None else cite, cite or inline_cite)
    for found in (cite_problem(cite, inline_cite, unspecified), document_problem(spec.doc, cite or inline_cite)):
        if found is not None:
            spec.problems.append(Problem(found[0], cite_path, line, column, rule=name, source_line=shown,
                                         suggestion=found[1], field=cite_path))
    return RuleDef(name=name, text=text, cite=cite or inline_cite, origin=spec.id, file=value_path, line=1,
                   column=1, note=entry.get("note"), unspecified=unspecified,
                   choices=_choices(entry.get("choices"), f"{path}.choices"), is_param=is_param, written=written)


def _cite_position(text: str, cite: str | None) -> tuple[int, int, str | None]:
    """Where a citation stands in the text it was written in (a rule's value after '@', or its 'cite'):
    line, column and that line."""
    at = text.rfind(cite) if cite else -1
    if at < 0:
        at = 0
    before = text[:at]
    line = before.count("\n") + 1
    return line, at - (before.rfind("\n") + 1) + 1, text.split("\n")[line - 1]     # (lines end at \n alone)


def _entry(rule, path: str) -> dict:
    """A rule's fields (a bare value is ``{"value": ...}``), each key known and each text a bounded text."""
    entry = dict(rule) if isinstance(rule, Mapping) else {"value": rule}
    for key in entry:
        if key not in _RULE_KEYS:
            raise InputError(f"unknown key '{str(key)[:40]}' (allowed: {', '.join(_RULE_KEYS)})", f"{path}.{key}")
    if "value" not in entry:
        raise InputError("a rule written as an object needs a 'value'", f"{path}.value")
    for key in ("cite", "note", "unspecified"):
        if entry.get(key) is not None and not isinstance(entry[key], str):
            raise InputError(f"'{key}' is text", f"{path}.{key}")
        if len(entry.get(key) or "") > MAX_NOTE_CHARS:
            raise InputError(f"'{key}' is {len(entry[key])} characters long; the limit is {MAX_NOTE_CHARS}",
                             f"{path}.{key}")
    return entry


def _choices(choices, path: str) -> list | None:
    """A rule's listed readings: at most ``MAX_CHOICES`` short values."""
    if choices is None:
        return None
    if not isinstance(choices, list):
        raise InputError("'choices' must be a list", path)
    if len(choices) > MAX_CHOICES or any(len(str(c)) > MAX_CHOICE_CHARS for c in choices):
        raise InputError(f"'choices' lists at most {MAX_CHOICES} values of at most {MAX_CHOICE_CHARS} characters "
                         "each", path)
    return choices


def _refuse_bundled_id(vid: str, path: str) -> None:
    if vid in bundled_ids():
        raise InputError(f"'{vid}' is the id of a bundled variant; give the house rule an id of its own "
                         "(or leave 'id' out)", path)


def _failed(exc: RulesFileError, field: str, relocate=lambda p: replace(p, field=p.field or p.file)) -> InputError:
    problems = [relocate(p) for p in exc.problems]
    first = problems[0]
    return InputError(first.message + (f" ({first.suggestion})" if first.suggestion else ""),
                      first.field or field, details={"problems": [p.as_dict() for p in problems]})


def _extends_bundled(spec: VariantSpec, path: str) -> None:
    if spec.extends is not None and (spec.extends.endswith((".yaml", ".yml")) or "/" in spec.extends
                                     or "\\" in spec.extends):
        raise InputError("an inline house rule extends a bundled variant id, not a file", path)


def compile_yaml(text, field: str, max_rules: int) -> Ruleset:
    """The variant file's own text, sent as ``{"yaml": "..."}``."""
    path = f"{field}.yaml"
    if not isinstance(text, str):
        raise InputError("'yaml' is the variant file's text", path)

    def relocate(problem: Problem) -> Problem:
        return replace(problem, file=path, field=path)
    try:
        spec = read_request_text(text, path)
        _refuse_bundled_id(spec.id, path)
        _extends_bundled(spec, path)
        if len(spec.rules) + len(spec.params) > max_rules:
            raise InputError(f"at most {max_rules} rules in a house rule", path)
        return compile_spec(spec, bundled_only=True)
    except RulesFileError as exc:
        raise _failed(exc, path, relocate) from None
    except RecursionError:
        raise InputError("the YAML nests too deeply", path) from None


def compile_inline(value: Mapping, field: str, max_rules: int) -> Ruleset:
    """Compile an inline house rule (object or ``{"yaml": ...}``); rules without a citation cite
    ``house §<rule name>``.  Bad input raises ``InputError`` located by JSON path."""
    if "yaml" in value:
        extra = sorted(set(value) - {"yaml"})
        if extra:
            raise InputError(f"with 'yaml', send nothing else (found '{extra[0]}')", f"{field}.{extra[0]}")
        return compile_yaml(value["yaml"], field, max_rules)
    for key in value:
        if key not in _KEYS:
            raise InputError(f"unknown key '{str(key)[:40]}' (allowed: {', '.join(_KEYS)}, or 'yaml' alone)",
                             f"{field}.{key}")
    _check_extends(value.get("extends"), f"{field}.extends")
    vid = _inline_id(value.get("id"), field)
    for key in ("title", "notes"):
        if value.get(key) is not None and not isinstance(value[key], str):
            raise InputError(f"'{key}' is text", f"{field}.{key}")
    spec = _spec(value, field, vid, max_rules)
    try:
        return compile_spec(spec, bundled_only=True)
    except RulesFileError as exc:
        raise _failed(exc, field) from None
    except UnknownVariantError as exc:
        raise InputError(str(exc), f"{field}.extends") from None


def _check_extends(extends, path: str) -> None:
    """An inline house rule extends a bundled variant, named by its id."""
    if not isinstance(extends, str):
        raise InputError("an inline house rule must say which bundled variant it extends", path)
    if extends.endswith((".yaml", ".yml")) or "/" in extends:
        raise InputError("an inline house rule extends a bundled variant id", path)
    if extends not in bundled_ids():
        hint = did_you_mean(extends, bundled_ids())
        raise InputError("'extends' names no bundled variant" + (f"; did you mean '{hint}'?" if hint else "")
                         + f" (bundled: {bundled_list()})", path)


def _inline_id(vid, field: str) -> str:
    """The inline house rule's id: as given (a name of its own), or made from its place in the request."""
    if vid is None:
        vid = default_id(field)
    elif not isinstance(vid, str) or not ID_RE.match(vid) or len(vid) > MAX_ID_CHARS:
        raise InputError(f"'id' is a lower-case name like 'our-table' of at most {MAX_ID_CHARS} characters",
                         f"{field}.id")
    _refuse_bundled_id(vid, f"{field}.id")
    return vid
