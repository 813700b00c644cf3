"""Long texts given once per answer.

A rule's citation, or the reason a document is silent, may be up to ``MAX_NOTE_CHARS`` long, and an
answer repeats it on every line the rule gives: a game of 500 hands under eight house rules with
4,000-character citations was 64 MB of JSON from a 220 KB request.  ``once`` keeps each text longer
than ``LONG_TEXT_CHARS`` in full where it first appears (in the answer's own order) and shortens every
later occurrence to its first ``SHOWN_CHARS`` characters and the path of the full text.
"""
from __future__ import annotations

from ..model.ruleset import Ruleset, per_ruleset

LONG_TEXT_CHARS = 200    # a text longer than this is given in full once per answer
SHOWN_CHARS = 60         # how much of it a repeat shows


def repeat_of(text: str, path: str) -> str:
    """What a repeat of ``text`` (given in full at ``path``) reads."""
    return f"{text[:SHOWN_CHARS]}… (the {len(text):,}-character text in full at {path})"


def once(answer: dict) -> dict:
    """``answer`` (changed in place, and returned) with every long text after its first occurrence shortened
    (``repeat_of``).  Walked in the answer's order (as its JSON reads), without recursion."""
    first: dict[str, str] = {}
    stack = [(answer, "", iter(list(answer)))]
    while stack:
        node, path, keys = stack[-1]
        key = next(keys, _END)
        if key is _END:
            stack.pop()
            continue
        value = node[key]
        where = (f"{path}.{key}" if path else str(key)) if isinstance(node, dict) else f"{path}[{key}]"
        if type(value) is str:
            if len(value) > LONG_TEXT_CHARS:
                if value in first:
                    node[key] = repeat_of(value, first[value])
                else:
                    first[value] = where
        elif isinstance(value, dict):
            stack.append((value, where, iter(list(value))))
        elif isinstance(value, list):
            stack.append((value, where, iter(range(len(value)))))
    return answer


_END = object()


@per_ruleset
def has_long_texts(rs: Ruleset) -> bool:
    """Whether a ruling under ``rs`` can hold a text longer than ``LONG_TEXT_CHARS``: a field of a rule's
    citation record (the cite, the note of a silent or inherited rule), which its lines repeat; only those
    answers are walked (``once`` costs about as much as scoring a hand)."""
    return any(type(value) is str and len(value) > LONG_TEXT_CHARS for name in rs.rules
               for value in rs.cite(name).values())


@per_ruleset
def has_long_rules(rs: Ruleset) -> bool:
    """Whether a rule's own text is longer than ``LONG_TEXT_CHARS`` (a comparison quotes the rules that differ)."""
    return any(len(rule.text) > LONG_TEXT_CHARS for rule in rs.rules.values())
