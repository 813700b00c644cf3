"""House rules sent inside a JSON request, compiled like a variant file.

Two forms: an object (``{"extends": "classic", "rules": {"nil.made": "75 @ house §Nil"}}``) or the
variant file's own text (``{"yaml": "id: our-table\\nextends: classic\\n..."}``).  Problems are
reported where the writer wrote them: for the object, the JSON path of the rule
(``variant.rules.nil.made``) with the line and column inside that rule's text; for the YAML, the
line and column in that text.  An inline variant never takes a bundled variant's id: without an
``id`` it is called ``inline`` (``inline-N`` for ``variants[N]``).
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from ..errors import InputError, Problem, RulesFileError, UnknownVariantError, did_you_mean
from ..lang.limits import MAX_ID_CHARS, MAX_NAME_CHARS
from ..model.ruleset import Ruleset, compile_spec
from ..model.variants import ID_RE, NAME_RE, VariantSpec, bundled_ids, read_variant_text, value_to_dsl

_KEYS = ("id", "title", "extends", "rules", "params", "notes")
_RULE_KEYS = ("value", "cite", "note", "unspecified", "choices")
_DEFAULT_TITLE = "inline house rule"
MAX_LIST_ITEMS = 64     # numbers in a rule written as a JSON list


def default_id(field: str) -> str:
    """``variant`` -> ``inline``; ``variants[2]`` -> ``inline-2``."""
    match = re.search(r"\[(\d+)\]$", field)
    return f"inline-{match.group(1)}" if match else "inline"


@dataclass
class _Origin:
    """Where a line of the generated YAML came from."""
    path: str            # JSON path of the value
    column: int = 0      # column (1-based) of the value's first character in that line
    text: str = ""       # the value as the writer sent it
    text_line: int = 0   # for rule texts: which line of the text this is


def _flow(value) -> str:
    return json.dumps(value, ensure_ascii=False)


class _Writer:
    """Writes the object form as variant YAML and remembers where each line came from."""

    def __init__(self):
        self.lines: list[str] = []
        self.origins: dict[int, _Origin] = {}

    def put(self, line: str, origin: _Origin | None = None) -> None:
        self.lines.append(line)
        if origin is not None:
            self.origins[len(self.lines)] = origin

    def scalar(self, key: str, value, indent: int, path: str) -> None:
        head = " " * indent + f"{key}: "
        self.put(head + _flow(value), _Origin(path, len(head) + 1, str(value)))

    def rule_text(self, indent: int, text: str, path: str) -> None:
        """A rule's text as a literal block (its indentation given: the text's own spaces stay
        its own), one YAML line per line of the text."""
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        lead = len(lines[0]) - len(lines[0].lstrip(" "))
        self.put(" " * indent + "value: |2-")
        for number, line in enumerate(lines, 1):
            shown = line[lead:] if number == 1 else line
            self.put(" " * (indent + 2) + shown, _Origin(path, indent + 3 - (lead if number == 1 else 0), line, number))


def _text_of(value, path: str) -> str:
    """A rule value as DSL text (``value_to_dsl``), lists of at most ``MAX_LIST_ITEMS`` numbers."""
    if isinstance(value, list) and len(value) > MAX_LIST_ITEMS \
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise InputError(f"a list in a rule has at most {MAX_LIST_ITEMS} numbers", path)
    text = value_to_dsl(value)
    if text is None:
        raise InputError("a rule value is a number, true/false, a list of numbers or an expression", path)
    return text


def _write(value: Mapping, field: str, vid: str, max_rules: int) -> _Writer:
    out = _Writer()
    out.scalar("id", vid, 0, f"{field}.id")
    out.scalar("title", str(value.get("title") or _DEFAULT_TITLE), 0, f"{field}.title")
    out.put("source: {doc: house, title: \"rules sent with the request\"}")
    out.scalar("extends", value["extends"], 0, f"{field}.extends")
    if value.get("notes") is not None:
        out.scalar("notes", str(value["notes"]), 0, f"{field}.notes")
    for section in ("rules", "params"):
        rules = value.get(section)
        if rules is None:
            continue
        if not isinstance(rules, Mapping):
            raise InputError(f"'{section}' must be an object of rule names to values", f"{field}.{section}")
        if len(rules) > max_rules:
            raise InputError(f"at most {max_rules} rules inline", f"{field}.{section}")
        if rules:
            out.put(f"{section}:")
        for name, rule in rules.items():
            _write_rule(out, name, rule, f"{field}.{section}.{name}")
    return out


def _write_rule(out: _Writer, name, rule, path: str) -> None:
    """One inline rule (a value, or an object with 'value' and its keys) as YAML lines with their origins."""
    if not isinstance(name, str) or not NAME_RE.match(name) or len(name) > MAX_NAME_CHARS:
        raise InputError(f"'{str(name)[:100]}' is not a rule name (dotted lower-case words)", path)
    out.put(f"  {name}:", _Origin(path))
    entry = dict(rule) if isinstance(rule, Mapping) else {"value": rule}
    for key in entry:
        if key not in _RULE_KEYS:
            raise InputError(f"unknown key '{str(key)[:40]}' (allowed: {', '.join(_RULE_KEYS)})", f"{path}.{key}")
    if "value" not in entry:
        raise InputError("a rule written as an object needs a 'value'", f"{path}.value")
    value_path = f"{path}.value" if isinstance(rule, Mapping) else path
    text = _text_of(entry["value"], value_path)
    if "cite" not in entry and "unspecified" not in entry and not re.search(r"\s@\s", text):
        entry["cite"] = f"house §{name}"
    out.rule_text(4, text, value_path)
    _write_rule_keys(out, entry, path)


def _write_rule_keys(out: _Writer, entry: dict, path: str) -> None:
    """A rule's citation, note, silence and choices."""
    for key in ("cite", "note", "unspecified"):
        if entry.get(key) is not None:
            if not isinstance(entry[key], str):
                raise InputError(f"'{key}' is text", f"{path}.{key}")
            out.scalar(key, entry[key], 4, f"{path}.{key}")
    if entry.get("choices") is not None:
        out.put("    choices: " + _flow(entry["choices"]), _Origin(f"{path}.choices"))


def _relocate(problem: Problem, origins: dict[int, _Origin], field: str) -> Problem:
    """A problem in the generated YAML, moved to the JSON path and the position inside the value."""
    origin = origins.get(problem.line or 0)
    if origin is None:
        return replace(problem, file=field, field=field, line=None, column=None, source_line=None)
    if origin.text_line:      # a line of a rule's text
        column = max(1, (problem.column or origin.column) - origin.column + 1)
        return replace(problem, file=origin.path, field=origin.path, line=origin.text_line, column=column,
                       source_line=origin.text)
    if origin.column and problem.column and problem.column >= origin.column:
        return replace(problem, file=origin.path, field=origin.path, line=1,
                       column=max(1, problem.column - origin.column), source_line=origin.text or None)
    return replace(problem, file=origin.path, field=origin.path, line=None, column=None, source_line=None)


def _refuse_bundled_id(vid: str, path: str) -> None:
    if vid in bundled_ids():
        raise InputError(f"'{vid}' is the id of a bundled variant; give the house rule an id of its own "
                         "(or leave 'id' out)", path)


def _failed(exc: RulesFileError, field: str, relocate) -> InputError:
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
        spec = read_variant_text(text, path)
        _refuse_bundled_id(spec.id, path)
        _extends_bundled(spec, path)
        if len(spec.rules) + len(spec.params) > max_rules:
            raise InputError(f"at most {max_rules} rules in a house rule", path)
        return compile_spec(spec)
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
    out = _write(value, field, vid, max_rules)
    try:
        return compile_spec(read_variant_text("\n".join(out.lines) + "\n", "<request>"))
    except RulesFileError as exc:
        raise _failed(exc, field, lambda p: _relocate(p, out.origins, field)) from None
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
                         + f" (bundled: {', '.join(bundled_ids())})", path)


def _inline_id(vid, field: str) -> str:
    """The inline house rule's id: as given (a name of its own), or made from its place in the request."""
    if vid is None:
        vid = default_id(field)
    elif not isinstance(vid, str) or not ID_RE.match(vid) or len(vid) > MAX_ID_CHARS:
        raise InputError(f"'id' is a lower-case name like 'our-table' of at most {MAX_ID_CHARS} characters",
                         f"{field}.id")
    _refuse_bundled_id(vid, f"{field}.id")
    return vid
