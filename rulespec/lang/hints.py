"""Plain-words explanations of syntax errors, for people writing house rules.

The parser and PyYAML report what their machinery expected (token names,
"mapping values are not allowed here"); these helpers say it as a rules writer
would: what was expected, in words, and what to change.
"""
from __future__ import annotations

import re

_UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
_SCALES = {"hundred": 100, "thousand": 1000}
NUMBER_WORDS = frozenset([*_UNITS, *_TENS, *_SCALES])
_WORD_RUN = re.compile(r"\b(?:minus[\s-]+)?(?:(?:%s)(?:[\s-]+(?:and[\s-]+)?)?)+" % "|".join(
    sorted(NUMBER_WORDS, key=len, reverse=True)), re.IGNORECASE)


def _words_value(words: list[str]) -> int | None:
    total, current = 0, 0
    for word in words:
        if word in _UNITS:
            current += _UNITS[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = (current or 1) * 100
        elif word == "thousand":
            total += (current or 1) * 1000
            current = 0
        else:
            return None
    return total + current


def number_in_words(text: str) -> tuple[str, int] | None:
    """The first number written in words in ``text`` and its value: ``"three hundred"`` -> 300."""
    match = _WORD_RUN.search(text)
    if not match:
        return None
    phrase = match.group(0).strip(" -\t")
    words = [w for w in re.split(r"[\s-]+", phrase.lower()) if w and w != "and"]
    sign = -1 if words and words[0] == "minus" else 1
    value = _words_value(words[1:] if sign < 0 else words)
    return (phrase, sign * value) if value is not None else None


# terminal name -> what it is, in words
_OPERATORS = {"PLUS": "+", "MINUS": "-", "STAR": "*", "SLASH": "/", "PERCENT": "%", "AMPERSAND": "&",
              "VBAR": "|", "COMP_OP": "a comparison (==, !=, <, <=, >, >=)", "AND": "'and'", "OR": "'or'",
              "IN": "'in'", "DOT": "'.'"}
_VALUES = ("NUMBER", "NAME", "CARD", "SUIT", "TEAM", "TRUE", "FALSE", "NONE", "LBRACE", "LSQB")
_WORDS = {"THEN": "'then'", "ELSE": "'else'", "WHERE": "'where'", "RPAR": "')'", "RSQB": "']'",
          "RBRACE": "'}'", "COMMA": "','"}
_VALUE_WORDS = "a value (a number, a name such as team.bid, a card, a suit, true/false, a {set} or a [list])"


def expected_words(names: set[str] | list[str]) -> str:
    """What the parser could have taken next, in words: 'a value', 'an operator', ')' …"""
    names = set(names)
    if names & set(_VALUES):
        return _VALUE_WORDS
    ops = [_OPERATORS[n] for n in _OPERATORS if n in names and n != "DOT"]
    if ops:
        parts = ["an operator (+, -, *, /, a comparison such as ==, and, or, in, …)" if len(ops) > 3
                 else "an operator (" + ", ".join(ops) + ")"]
        if "AT" in names:
            parts.append("'@' and the citation")
        if "$END" in names:
            parts.append("the end of the rule")
        return ", ".join(parts[:-1]) + (" or " if len(parts) > 1 else "") + parts[-1]
    closers = [_WORDS[n] for n in _WORDS if n in names]
    if "$END" in names:
        closers.append("the end of the rule")
    return " or ".join(closers) if closers else "something else"


def unexpected_hint(found: str, names: set[str] | list[str]) -> str | None:
    """A suggestion for an unexpected token ``found`` where ``names`` were expected."""
    names = set(names)
    if found in ("\"", "'"):
        return ("quotes are not part of a rule: write the value bare (5, not \"5\"); in YAML, quote the "
                "whole value or none of it")
    if names & set(_VALUES):
        return "complete the expression with a value here"
    if names & set(_OPERATORS):
        return "two values in a row: put an operator between them, or '@' before the citation"
    return None


def yaml_problem(problem: str, lines: list[str], line: int | None, column: int | None
                 ) -> tuple[str, str | None]:
    """PyYAML's ``problem`` at (line, column) (1-based) as (message, suggestion)."""
    src = lines[line - 1] if line and 0 < line <= len(lines) else ""
    indent = len(src) - len(src.lstrip(" "))
    if "\t" in src[:indent + 1] and src.lstrip(" ").startswith("\t"):
        return "a tab indents this line; YAML is indented with spaces only", "replace the tab by spaces"
    if "mapping values are not allowed" in problem or "did not find expected key" in problem:
        return _mapping_problem(src, _line_above(lines, line))
    if "aliases" in problem:
        return problem[problem.index("aliases"):], "write the value out in full instead of '*name'"
    if "cannot start any token" in problem:
        found = _start_problem(src, column)
        if found is not None:
            return found
    return next((words for key, words in _PROBLEM_WORDS if all(part in problem for part in key)),
                (f"not valid YAML: {problem}", None))


# PyYAML's problems (every part of the key in the text) in words, in the order they are tried
_PROBLEM_WORDS: tuple[tuple[tuple[str, ...], tuple[str, str]], ...] = (
    (("expected ',' or ']'",), ("a list in [ ] is not closed", "add the closing ']' (and separate items with ', ')")),
    (("expected ',' or '}'",), ("a mapping in { } is not closed",
                                "add the closing '}' (and separate entries with ', ')")),
    (("end of stream", "quoted"), ("a quoted value is not closed", "add the closing quote")),
    (("end of stream",), ("the file ends inside a value", "close the quote or bracket that is still open")),
    (("expected <block end>",), ("this line's indentation does not match the lines around it",
                                 "indent each entry of a mapping by the same number of spaces")),
    (("could not find expected ':'",), ("a key needs ':' after it", "write 'name: value'")),
)


def _line_above(lines: list[str], line: int | None) -> str | None:
    """The last non-blank line before ``line`` (1-based), if any."""
    return next((lines[i] for i in range(line - 2, -1, -1) if lines[i].strip()), None) if line else None


def _mapping_problem(src: str, previous: str | None) -> tuple[str, str]:
    """A ': ' where YAML did not expect a mapping: a key too long, a line indented wrongly, or a value."""
    if len(src.split(":", 1)[0].strip()) > 1024:
        return "a key is longer than YAML allows (1024 characters)", "shorten the name"
    indent = len(src) - len(src.lstrip(" "))
    prev_indent = len(previous) - len(previous.lstrip(" ")) if previous is not None else 0
    opens_block = previous is not None and previous.rstrip().endswith(":") and indent > prev_indent
    if previous is not None and indent != prev_indent and src.strip() and ":" in src and not opens_block:
        more = "more" if indent > prev_indent else "less"
        spaces = f"{indent} space{'s' if indent != 1 else ''}"
        return (f"this line is indented {more} than the line above it ({spaces}, not {prev_indent}), "
                "so YAML cannot tell where it belongs",
                "line it up with the keys above it (the same number of spaces; rules under 'rules:' "
                "are usually indented by two)")
    return ("a ': ' inside a value starts a new mapping here",
            "put the whole value in quotes, or remove the space after ':'")


def _start_problem(src: str, column: int | None) -> tuple[str, str] | None:
    """A character that cannot start a YAML value (None: no character to name)."""
    char = src[column - 1] if column and 0 < column <= len(src) else ""
    if column and src[:column - 1].rstrip().endswith(("\"", "'")):
        return ("text follows a quoted value: in YAML the quotes must enclose the whole value",
                "write it without quotes (5 @ house §Bags) or quote all of it ('5 @ house §Bags')")
    if char == "@":
        return ("a value cannot start with '@' in YAML: the value is missing before the citation",
                "write the value first, e.g. 5 @ house §Bags")
    if char == "`":
        return "a value cannot start with '`' in YAML", "remove the backquote, or quote the whole value"
    return (f"{char!r} cannot start a YAML value", "quote the whole value") if char else None
