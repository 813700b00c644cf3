"""Read variant files: YAML metadata plus rules, each rule with its position
in the file so that errors can point at it.

A variant file::

    id: classic
    title: Classic Spades (004)
    source: {doc: "004", title: "How to Play Spades"}
    extends: standard            # optional: inherit every rule, override some
    notes: free text
    params:                      # the variant's own named constants (optional)
      nil.value: {value: 50, cite: 004 §Nil and Blind Nil}
    rules:
      nil.made: nil.value @ 004 §Nil and Blind Nil          # DSL text @ citation
      game.target:
        value: 500
        cite: 004 §Winning the Game
        choices: [300, 500, 1000]
      renege.mode:
        value: none
        unspecified: 004 says nothing about reneges
    tests: [...]                 # optional scenario cases

Bundled variants live in ``variants/`` (shipped in the package); user variants are
found by path.
"""
from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from ..core.resources import data_dir
from ..errors import Problem, RulesFileError, UnknownVariantError, did_you_mean
from ..lang import limits as L
from ..lang.hints import yaml_problem
from .clauses import known_sections, section_of_cite

MAX_FILE_BYTES = 256 * 1024
CITE_RE = re.compile(r"^(\d{3}|[a-z][a-z0-9_-]*) [§¶]\S.*$")  # document id (000-004, or a house's own name) and clause
_META_KEYS = ("id", "title", "source", "extends", "notes", "params", "rules", "tests")
_RULE_KEYS = ("value", "cite", "note", "unspecified", "choices")
if TYPE_CHECKING:   # the stubs declare the two loaders as unrelated classes; both build the same nodes
    _Loader = yaml.SafeLoader
else:
    _Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available: same nodes, faster
NAME_RE = re.compile(r"^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
MAX_PATH_CHARS = 255


class _VariantLoader(_Loader):
    """The safe loader, refusing aliases (``*name``): a few bytes of aliases can stand for gigabytes
    once expanded, and a rules file never needs them."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text

    def get_single_node(self):
        node = super().get_single_node()
        if node is not None:
            _refuse_aliases(node, self.text)
        return node


def _refuse_aliases(root: yaml.Node, text: str) -> None:
    """Raise a located ``yaml.YAMLError`` if any node is reached twice (an alias names an anchored node)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed in a variant file",
                                              _alias_mark(text) or node.start_mark)
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            stack.extend(part for pair in node.value for part in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)


def _alias_mark(text: str):
    """Where the first alias is written (the composed nodes only keep the anchor's position)."""
    for token in yaml.scan(text, Loader=_Loader):
        if isinstance(token, yaml.AliasToken):
            return token.start_mark
    return None


def bundled_dir() -> Path:
    """Folder of the bundled variants (``$RULESPEC_VARIANTS`` overrides)."""
    env = os.environ.get("RULESPEC_VARIANTS")
    return Path(env) if env else data_dir("variants")


@dataclass
class RuleDef:
    """One rule as written in a variant file."""
    name: str
    text: str                 # DSL text (numbers, booleans and lists rendered as DSL)
    cite: str | None
    origin: str               # id of the variant that wrote it
    file: str
    line: int                 # position of the value's first character (1-based)
    column: int
    name_line: int = 0        # position of the rule's name (its key)
    name_column: int = 0
    cite_line: int = 0        # position of the citation (after '@', or the 'cite:' value)
    cite_column: int = 0
    block_indent: int | None = None  # for block scalars: column of the text lines
    folded_lengths: tuple[int, ...] = ()  # for folded (>) scalars: length of each joined line
    note: str | None = None
    unspecified: str | None = None
    choices: list | None = None
    is_param: bool = False
    written: str | None = None   # the text as sent, for a rule with no file of its own (a request's field)

    def shown_line(self, spec: VariantSpec | None, line: int) -> str | None:
        """Line ``line`` of where this rule was written (its own text, or its variant file)."""
        if self.written is not None:
            lines = self.written.splitlines()
            return lines[line - 1] if 0 < line <= len(lines) else None
        return spec.source_line(line) if spec is not None else None

    def position(self, dsl_line: int, dsl_col: int) -> tuple[int, int]:
        """File position of a position inside the rule text."""
        if self.block_indent is not None:
            offset = dsl_col - 1
            for index, length in enumerate(self.folded_lengths):  # '>' joined the lines with single spaces
                if offset <= length or index == len(self.folded_lengths) - 1:
                    return self.line + index, self.block_indent + offset
                offset -= length + 1
            return self.line + dsl_line - 1, self.block_indent + dsl_col - 1
        if dsl_line == 1:
            return self.line, self.column + dsl_col - 1
        return self.line + dsl_line - 1, dsl_col


@dataclass
class VariantSpec:
    """A parsed variant file (its own rules only; see ``resolve_chain``)."""
    id: str
    title: str
    source: dict
    extends: str | None
    notes: str
    file: str
    rules: dict[str, RuleDef] = field(default_factory=dict)
    params: dict[str, RuleDef] = field(default_factory=dict)
    tests: list = field(default_factory=list)
    text: str = ""
    extends_pos: tuple[int, int] = (1, 1)
    id_pos: tuple[int, int] = (1, 1)
    extends_refused: bool = False  # 'extends' was given but is not usable (its problem is reported)
    problems: list[Problem] = field(default_factory=list)  # found while reading; reported with compile problems

    @property
    def doc(self) -> str:
        return str(self.source.get("doc", "")) if isinstance(self.source, dict) else str(self.source)

    def source_line(self, line: int) -> str | None:
        lines = self.text.splitlines()
        return lines[line - 1] if 0 < line <= len(lines) else None


def value_to_dsl(value) -> str | None:
    """A rule value as DSL text (numbers, booleans and lists of numbers written out), or None."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return None


_INLINE_CITE = re.compile(r"\s@\s*((?:\d{3}|[a-z][a-z0-9_-]*) [§¶].*)$")


def split_cite(text: str) -> tuple[str, str | None]:
    """``"100 @ 001 §Nil bids"`` -> (``"100"``, ``"001 §Nil bids"``)."""
    match = _INLINE_CITE.search(text)
    if match:
        return text[: match.start()].rstrip(), match.group(1).strip()
    return text, None


def cite_problem(cite: str | None, inline_cite: str | None,
                 unspecified: str | None) -> tuple[str, str | None] | None:
    """What is wrong with a rule's citation (message, suggestion), or None: both an inline '@' and a
    'cite:', a citation not of the form 'DOC §Section', or none at all where the rule is not marked silent."""
    if inline_cite and cite:
        return "rule has both an inline '@ citation' and a 'cite:' key", None
    cite = cite or inline_cite
    if cite is not None and not CITE_RE.match(cite):
        return (f"citation {_shown(cite)!r} is not of the form 'DOC §Section' or 'DOC ¶N'",
                "cite the document id and its section, e.g. 004 §Nil and Blind Nil")
    if cite is None and unspecified is None:
        return ("rule has no citation: add '@ NNN §Section' or a 'cite:' key "
                "(or 'unspecified: why' where the document is silent)", None)
    return None


def document_problem(doc: str, cite: str | None) -> tuple[str, str | None] | None:
    """What is wrong with a citation for a variant of document ``doc`` (message, suggestion), or None:
    it names another document, or a section that document's clause index does not have."""
    parsed = section_of_cite(cite) if cite else None
    if cite is None or parsed is None:
        return None
    cdoc, section = parsed
    if doc and cdoc != doc:
        return (f"the citation names document '{cdoc}', but this variant's source.doc is '{doc}'",
                f"cite it as '{doc} {cite.split(' ', 1)[1]}'")
    sections = known_sections(cdoc)
    if sections is not None and section not in sections:
        hint = did_you_mean(section, sections)
        return (f"document {cdoc} has no section '{section}' (its clause index lists {len(sections)})",
                f"did you mean '{hint}'?" if hint else f"see `rulespec coverage` and the clause index of {cdoc}")
    return None


class _Reader:
    """Builds a VariantSpec from a YAML node tree, collecting every problem."""

    def __init__(self, text: str, file: str):
        self.text, self.file = text, file
        self.lines = text.splitlines()
        self.problems: list[Problem] = []

    def problem(self, mark, message: str, rule: str | None = None, suggestion: str | None = None) -> None:
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
        src = self.lines[line - 1] if line and line <= len(self.lines) else None
        self.problems.append(Problem(message, self.file, line, col, rule, src, suggestion))

    def read(self) -> VariantSpec | None:
        if len(self.text.encode("utf-8")) > MAX_FILE_BYTES:
            self.problems.append(Problem(f"file is larger than {MAX_FILE_BYTES // 1024} KiB", self.file))
            return None
        loaded = self.load()
        if loaded is None:
            return None
        node, data = loaded
        keys = {k.value: (k, v) for k, v in node.value}
        self.check_duplicates(node)
        self.check_keys(node)
        vid = self.read_id(data, keys, node)
        extends = self.read_extends(data, keys)
        self.bound_text(keys, "title", L.MAX_TITLE_CHARS)
        self.bound_text(keys, "notes", L.MAX_NOTE_CHARS)
        self.check_source(keys)
        spec = VariantSpec(
            id=vid, title=str(data.get("title") or vid), source=data.get("source") or {},
            extends=extends, notes=str(data.get("notes") or ""), file=self.file, text=self.text,
            extends_refused="extends" in keys and extends is None)
        if "extends" in keys:
            mark = keys["extends"][1].start_mark
            spec.extends_pos = (mark.line + 1, mark.column + 1)
        if "id" in keys:
            mark = keys["id"][1].start_mark
            spec.id_pos = (mark.line + 1, mark.column + 1)
        for section, is_param in (("rules", False), ("params", True)):
            if section in keys:
                self.read_section(section, keys[section][1], spec.params if is_param else spec.rules, vid, is_param)
        self.check_citations(spec)
        tests = data.get("tests")
        if tests is not None:
            if not isinstance(tests, list):
                self.problem(keys["tests"][1].start_mark, "'tests' must be a list of cases")
            else:
                spec.tests = tests
        return spec

    def load(self) -> tuple[yaml.MappingNode, dict] | None:
        """The file's YAML (aliases refused) as its node and its data; None, with the problem, if it is no
        mapping or no YAML."""
        try:
            loader = _VariantLoader(self.text)
            try:
                node = loader.get_single_node()
                data = loader.construct_document(node) if node is not None else None
            finally:
                loader.dispose()
            self.constructor = yaml.constructor.SafeConstructor()
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            problem = " ".join(filter(None, [getattr(exc, "context", None), getattr(exc, "problem", None)])) or str(exc)
            message, suggestion = yaml_problem(problem, self.lines, mark.line + 1 if mark else None,
                                               mark.column + 1 if mark else None)
            self.problem(mark, message if message.startswith("not valid YAML") else f"not valid YAML: {message}",
                         suggestion=suggestion)
            return None
        if not isinstance(data, dict):
            self.problem(node.start_mark if node is not None else None,
                         "a variant file must be a YAML mapping with 'id' and 'rules'")
            return None
        return node, data

    def check_duplicates(self, root: yaml.MappingNode) -> None:
        """A key given twice in one mapping (YAML keeps the last silently, as JSON here does not).  A rule
        defined twice in 'rules' or 'params' is reported by ``read_section``, with the rule's name."""
        stack: list[tuple[yaml.Node, bool]] = [(root, False)]
        while stack:
            node, is_section = stack.pop()
            if isinstance(node, yaml.SequenceNode):
                stack.extend((item, False) for item in node.value)
            if not isinstance(node, yaml.MappingNode):
                continue
            seen: set = set()
            for key_node, value_node in node.value:
                key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
                if key is not None and key in seen and not is_section:
                    self.problem(key_node.start_mark, f"'{str(key)[:80]}' is given twice in one mapping "
                                                      "(only one may stand)")
                seen.add(key)
                stack.append((value_node, node is root and key in ("rules", "params")))

    def check_keys(self, node: yaml.MappingNode) -> None:
        """Every top-level key is one a variant file has (a rule name there: not indented under 'rules:')."""
        for key_node, _ in node.value:
            if key_node.value not in _META_KEYS:
                looks_like_rule = isinstance(key_node.value, str) and "." in key_node.value \
                    and NAME_RE.match(key_node.value)
                self.problem(key_node.start_mark, f"unknown key '{str(key_node.value)[:80]}'",
                             suggestion="rules go under 'rules:', each indented by two spaces" if looks_like_rule
                             else _hint(did_you_mean(str(key_node.value), _META_KEYS)))

    def read_id(self, data: dict, keys: dict, node: yaml.MappingNode) -> str:
        vid = data.get("id")
        if not isinstance(vid, str) or not ID_RE.match(vid or "") or len(vid) > L.MAX_ID_CHARS:
            mark = keys["id"][1].start_mark if "id" in keys else node.start_mark
            self.problem(mark, f"'id' must be a lower-case name like 'my-house-rules' of at most "
                               f"{L.MAX_ID_CHARS} characters")
            vid = vid if isinstance(vid, str) and len(vid) <= L.MAX_ID_CHARS else "?"
        return vid

    def read_extends(self, data: dict, keys: dict) -> str | None:
        """The variant extended (None: none, or one refused with a problem)."""
        extends = data.get("extends")
        if extends is not None and not isinstance(extends, str):
            self.problem(keys["extends"][1].start_mark, "'extends' must name one variant (an id or a path)")
            return None
        if extends is not None and len(extends) > MAX_PATH_CHARS:
            self.problem(keys["extends"][1].start_mark, f"'extends' is {len(extends)} characters long; a variant "
                                                         f"id or path has at most {MAX_PATH_CHARS}")
            return None
        return extends

    def read_section(self, section: str, sec_node, target: dict, vid: str, is_param: bool) -> None:
        """The rules (or params) of one section into ``target``."""
        if not isinstance(sec_node, yaml.MappingNode):
            if not (isinstance(sec_node, yaml.ScalarNode) and sec_node.value in ("", "~", "null")):
                self.problem(sec_node.start_mark, f"'{section}' must be a mapping of rule names to values")
            return
        for key_node, value_node in sec_node.value:
            rule = self.read_rule(key_node, value_node, vid, is_param)
            if rule is None:
                continue
            if rule.name in target:
                self.problem(key_node.start_mark, f"'{rule.name}' is defined twice in '{section}'", rule=rule.name)
            target[rule.name] = rule

    def bound_text(self, fields: dict, key: str, limit: int, rule: str | None = None) -> None:
        """A text field (echoed back by the service) of at most ``limit`` characters."""
        if key not in fields:
            return
        node = fields[key][1] if isinstance(fields[key], tuple) else fields[key]
        if isinstance(node, yaml.ScalarNode) and len(node.value) > limit:
            self.problem(node.start_mark, f"'{key}' is {len(node.value)} characters long; the limit is {limit}",
                         rule=rule)
        elif not isinstance(node, yaml.ScalarNode) and key not in ("choices",):
            self.problem(node.start_mark, f"'{key}' must be text", rule=rule)

    def check_source(self, keys: dict) -> None:
        """``source``: a document id, or a mapping of short texts (doc, title, …)."""
        if "source" not in keys:
            return
        node = keys["source"][1]
        if isinstance(node, yaml.ScalarNode):
            self.bound_text(keys, "source", L.MAX_TITLE_CHARS)
            return
        if not isinstance(node, yaml.MappingNode) or len(node.value) > 8:
            self.problem(node.start_mark, "'source' is a mapping such as {doc: house, title: \"Our rules\"} "
                                          "(at most 8 entries)")
            return
        for key_node, value_node in node.value:
            if not isinstance(value_node, yaml.ScalarNode) or len(value_node.value) > L.MAX_TITLE_CHARS:
                self.problem(value_node.start_mark, f"'source.{str(key_node.value)[:40]}' must be a text of at "
                                                    f"most {L.MAX_TITLE_CHARS} characters")

    def check_citations(self, spec: VariantSpec) -> None:
        """Each citation names this variant's document (``source.doc``), and a section its clause index has.
        (Bundled variants are left to `rulespec coverage`, which checks them all: startup stays fast.)"""
        if Path(self.file).parent == bundled_dir():
            return
        for rule in [*spec.rules.values(), *spec.params.values()]:
            found = document_problem(spec.doc, rule.cite)
            if found is not None:
                src = self.lines[rule.cite_line - 1] if 0 < rule.cite_line <= len(self.lines) else None
                self.problems.append(Problem(found[0], self.file, rule.cite_line, rule.cite_column, rule.name,
                                             src, found[1]))

    def read_rule(self, key_node, value_node, vid: str, is_param: bool) -> RuleDef | None:
        name = key_node.value
        if not isinstance(name, str) or not NAME_RE.match(name) or len(name) > L.MAX_NAME_CHARS:
            self.problem(key_node.start_mark, f"'{str(name)[:80]}' is not a rule name (dotted lower-case words, "
                                              f"at most {L.MAX_NAME_CHARS} characters)")
            return None
        fields: dict = {}
        node = value_node
        if isinstance(value_node, yaml.MappingNode):
            found = self.rule_fields(value_node, name)
            if found is None:
                return None
            fields = found
            node = fields["value"]
        choices = self.rule_choices(fields, name)
        text = self.rule_value_text(node, name)
        if text is None:
            return None
        full_text = text
        text, inline_cite = split_cite(text)
        cite = self.rule_cite(node, name, _plain(fields.get("cite")), inline_cite, _plain(fields.get("unspecified")))
        line, column, block_indent, folded = self.text_position(node)
        rule = RuleDef(name=name, text=text, cite=cite, origin=vid, file=self.file, line=line, column=column,
                       block_indent=block_indent, folded_lengths=folded, note=_plain(fields.get("note")),
                       unspecified=_plain(fields.get("unspecified")), choices=choices,
                       is_param=is_param, name_line=key_node.start_mark.line + 1,
                       name_column=key_node.start_mark.column + 1)
        if inline_cite:
            at = full_text.rindex(inline_cite)
            before = full_text[:at]
            rule.cite_line, rule.cite_column = rule.position(before.count("\n") + 1, at - (before.rfind("\n") + 1) + 1)
        elif "cite" in fields:
            rule.cite_line, rule.cite_column = fields["cite"].start_mark.line + 1, fields["cite"].start_mark.column + 1
        else:
            rule.cite_line, rule.cite_column = line, column
        return rule

    def rule_fields(self, value_node: yaml.MappingNode, name: str) -> dict | None:
        """A rule written as a mapping: its fields by key (None, with the problem, when it has no 'value')."""
        fields = {k.value: v for k, v in value_node.value}
        for k, _ in value_node.value:
            if k.value in ("cite", "note", "unspecified"):
                self.bound_text(fields, k.value, L.MAX_NOTE_CHARS, rule=name)
            if k.value not in _RULE_KEYS:
                self.problem(k.start_mark, f"unknown key '{k.value}' in rule '{name}'", rule=name,
                             suggestion=_hint(did_you_mean(k.value, _RULE_KEYS)))
        if "value" not in fields:
            self.problem(value_node.start_mark, "a rule written as a mapping needs a 'value'", rule=name)
            return None
        return fields

    def rule_choices(self, fields: dict, name: str) -> list | None:
        """The readings a rule lists as its 'choices' (None: none, or refused with a problem)."""
        if "choices" not in fields:
            return None
        choices = self.constructor.construct_object(fields["choices"], deep=True)
        if not isinstance(choices, list):
            self.problem(fields["choices"].start_mark, "'choices' must be a list", rule=name)
            return None
        if len(choices) > L.MAX_CHOICES or any(len(str(c)) > L.MAX_CHOICE_CHARS for c in choices):
            self.problem(fields["choices"].start_mark, f"'choices' lists at most {L.MAX_CHOICES} values of "
                                                       f"at most {L.MAX_CHOICE_CHARS} characters each", rule=name)
            return None
        return choices

    def rule_value_text(self, node, name: str) -> str | None:
        """A rule's value as rule text (a number, true/false, a list of numbers or an expression)."""
        text = None
        if isinstance(node, (yaml.ScalarNode, yaml.SequenceNode)):
            text = value_to_dsl(self.constructor.construct_object(node, deep=True))
        if text is None:
            self.problem(node.start_mark, "a rule value must be a number, true/false, a list of numbers "
                                          "or an expression", rule=name)
        return text

    def rule_cite(self, node, name: str, cite: str | None, inline_cite: str | None,
                  unspecified: str | None) -> str | None:
        """The rule's citation (a 'cite:' key or an inline '@ …'), checked for its form and presence."""
        found = cite_problem(cite, inline_cite, unspecified)
        if found is not None:
            self.problem(node.start_mark, found[0], rule=name, suggestion=found[1])
        return cite or inline_cite

    def text_position(self, node) -> tuple[int, int, int | None, tuple[int, ...]]:
        """Where the rule's text starts (line, column), a block's indent and a folded block's line lengths."""
        mark = node.start_mark
        line, column = mark.line + 1, mark.column + 1
        block_indent = None
        folded: tuple[int, ...] = ()
        style = getattr(node, "style", None)
        if style in ("'", '"'):
            column += 1
        elif style in ("|", ">"):
            line += 1
            src = self.lines[line - 1] if line <= len(self.lines) else ""
            block_indent = len(src) - len(src.lstrip(" ")) + 1
            if style == ">":
                body = self.lines[line - 1:node.end_mark.line + 1]
                folded = tuple(len(b.strip()) for b in body if b.strip())
        return line, column, block_indent, folded



def _plain(node) -> str | None:
    if node is None:
        return None
    return str(node.value) if isinstance(node, yaml.ScalarNode) else None


def _hint(name: str | None) -> str | None:
    return f"did you mean '{name}'?" if name else None


def read_variant_text(text: str, file: str = "<string>") -> VariantSpec:
    """Parse one variant file's text.  Problems that leave no usable spec raise
    ``RulesFileError``; others are kept in ``spec.problems`` for the compiler to
    report together with its own, so one run lists them all.  Memoised (a base
    variant is read once for all that extend it): specs are never modified."""
    return _read_variant_text(text, file)


@functools.lru_cache(maxsize=64)
def _read_variant_text(text: str, file: str) -> VariantSpec:
    reader = _Reader(text, file)
    spec = reader.read()
    if spec is None:
        raise RulesFileError(reader.problems)
    spec.problems = reader.problems
    return spec


def read_request_text(text: str, file: str) -> VariantSpec:
    """``read_variant_text`` for a text sent with a request, not memoised: each is read once, and a cache
    would keep up to 64 of them (256 KiB each, more in their specs) for as long as the process lives."""
    return _read_variant_text.__wrapped__(text, file)


def read_variant_file(path: str | Path) -> VariantSpec:
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise RulesFileError([Problem(f"file is larger than {MAX_FILE_BYTES // 1024} KiB", str(path))])
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UnknownVariantError(f"no such variant file: {path}") from None
    except UnicodeDecodeError:
        raise RulesFileError([Problem("file is not UTF-8 text", str(path))]) from None
    except IsADirectoryError:
        raise UnknownVariantError(f"{path} is a folder, not a variant file") from None
    except OSError as exc:     # e.g. a name too long for the file system
        raise UnknownVariantError(f"cannot read variant file {_shown(str(path))}: {exc.strerror}") from None
    return read_variant_text(text, str(path))


def bundled_ids() -> list[str]:
    return sorted(p.stem for p in bundled_dir().glob("*.yaml"))


def bundled_list(limit: int = 160) -> str:
    """The bundled ids for a message, cut after about ``limit`` characters (the rest counted, not listed)."""
    ids, shown = bundled_ids(), list[str]()
    for vid in ids:
        if shown and len(", ".join([*shown, vid])) > limit:
            return f"{', '.join(shown)} and {len(ids) - len(shown)} more: `rulespec variants` lists them"
        shown.append(vid)
    return ", ".join(shown)


def _shown(ref: str) -> str:
    """A name from the input, cut short for a message."""
    return ref if len(ref) <= 80 else ref[:60] + f"… ({len(ref)} characters)"


def find_variant(ref: str, relative_to: Path | None = None) -> VariantSpec:
    """A variant by bundled id or by path (relative paths from ``relative_to``)."""
    looks_like_path = ref.endswith((".yaml", ".yml")) or "/" in ref or os.sep in ref
    if looks_like_path:
        if len(ref) > MAX_PATH_CHARS:
            raise UnknownVariantError(f"no such variant file: {_shown(ref)} (a path has at most {MAX_PATH_CHARS} "
                                      "characters)")
        path = Path(ref)
        if not path.is_absolute() and relative_to is not None:
            path = relative_to / path
        try:
            return read_variant_file(path)
        except OSError as exc:
            raise UnknownVariantError(f"cannot read variant file {_shown(ref)}: {exc.strerror}") from None
    if len(ref) > L.MAX_ID_CHARS or not ID_RE.match(ref):
        raise UnknownVariantError(f"unknown variant '{_shown(ref)}': an id is a lower-case name of at most "
                                  f"{L.MAX_ID_CHARS} characters (bundled: {bundled_list()})")
    bundled = bundled_dir() / f"{ref}.yaml"
    if bundled.is_file():
        spec = read_variant_file(bundled)
        if spec.id != ref:
            raise UnknownVariantError(f"bundled variant file {ref}.yaml declares id '{spec.id}', expected '{ref}'")
        return spec
    hint = did_you_mean(ref, bundled_ids())
    raise UnknownVariantError(f"unknown variant '{ref}'" + (f"; did you mean '{hint}'?" if hint else "")
                              + f" (bundled: {bundled_list()})")


def _label(spec: VariantSpec) -> str:
    """How a message names a variant's file: a bundled one by id (never the server's own path)."""
    path = Path(spec.file)
    if path.parent == bundled_dir() or (path.is_absolute() and path.resolve().parent == bundled_dir().resolve()):
        return f"the bundled variant '{spec.id}'"
    return spec.file


def find_bundled(ref: str) -> VariantSpec:
    """A bundled variant by id; a path is refused (what a request names may reach no file of the server's)."""
    if ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref or os.sep in ref:
        raise UnknownVariantError(f"'{_shown(ref)}' is a path; a house rule sent to the service extends a bundled "
                                  f"variant id (bundled: {bundled_list()})")
    return find_variant(ref)


def resolve_chain(spec: VariantSpec, bundled_only: bool = False) -> list[VariantSpec]:
    """The variant and its ancestors, root first; a cycle or unknown base is a ``RulesFileError``.
    With ``bundled_only`` (a variant sent with a request) every ``extends`` must name a bundled variant."""
    chain = [spec]
    seen = {spec.id}
    while base := chain[-1].extends:
        child = chain[-1]
        base_dir = Path(child.file).parent if child.file and not child.file.startswith("<") else None
        try:
            parent = find_bundled(base) if bundled_only else find_variant(base, base_dir)
        except UnknownVariantError as exc:
            line, col = child.extends_pos
            raise RulesFileError([Problem(f"'extends': {exc}", child.file, line, col,
                                          source_line=child.source_line(line))]
                                 + [p for s in chain for p in s.problems]) from None
        if parent.id in seen:
            line, col = child.extends_pos
            same = next(s for s in chain if s.id == parent.id)
            if Path(same.file).resolve() != Path(parent.file).resolve():
                raise RulesFileError([Problem(
                    f"'extends' names a variant with the same id '{parent.id}' ({_label(parent)})", child.file,
                    line, col, source_line=child.source_line(line),
                    suggestion=f"give {_label(same)} its own id, e.g. 'id: my-{parent.id}'")])
            cycle = " -> ".join([c.id for c in chain] + [parent.id])
            raise RulesFileError([Problem(f"'extends' makes a cycle: {cycle}", child.file, line, col,
                                          source_line=child.source_line(line))])
        seen.add(parent.id)
        chain.append(parent)
    return list(reversed(chain))
