"""A rule's condition in a player's words, where the rule compares scores or bids in a simple way.

``when(rs, rule, names)`` reads a rule such as ``opponents.score - team.score >= 100`` as "when EW are
behind by 100 or more", ``low.score <= -game.target`` as "when a side's score falls to −500 or below"
(the variant's parameters put in), ``lead >= 500`` as "when a side leads by 500 or more" and
``bid.n == 7 or bid.n == 8`` as "for a bid of 7 or 8"; any other rule gives None, and the caller keeps
its general sentence.  ``game_end`` words a game ended by such a rule with the scores that ended it.
"""
from __future__ import annotations

from collections.abc import Mapping

from lark import Token, Tree

from ..core.cards import TEAMS
from ..errors import CompileError
from ..lang.compiler import parse
from ..model.ruleset import Ruleset
from .reasons import num

# A linear form over context names: {name: coefficient}, and its constant under "".
Form = dict[str, int]
_FLIP = {">=": "<=", ">": "<", "<=": ">=", "<": ">", "==": "==", "!=": "!="}
_NAMES = {"team.score", "opponents.score", "low.score", "high.score", "lead", "bid.n", "ns.score", "ew.score"}


def _form(rs: Ruleset, node) -> Form | None:
    """``node`` as a linear form, or None when it is not one (parameters are put in as numbers)."""
    if isinstance(node, Token):
        return None
    if node.data == "number":
        return {"": int(node.children[0])}
    if node.data in ("attr", "name"):
        return _named(rs, ".".join(str(c.children[0]) if isinstance(c, Tree) else str(c) for c in node.children))
    if node.data == "neg":
        inner = _form(rs, node.children[0])
        return None if inner is None else {k: -v for k, v in inner.items()}
    if node.data in ("add", "sub"):
        a, b = (_form(rs, c) for c in node.children)
        if a is None or b is None:
            return None
        sign = 1 if node.data == "add" else -1
        return {k: a.get(k, 0) + sign * b.get(k, 0) for k in a.keys() | b.keys()}
    return None


def _named(rs: Ruleset, name: str) -> Form | None:
    """A context name of the shapes read here, or a whole-number parameter of the variant."""
    if name in _NAMES:
        return {name: 1}
    value = rs.params.get(name)
    return {"": value} if isinstance(value, int) and not isinstance(value, bool) else None


def _compare(rs: Ruleset, node: Tree, names: Mapping[str, str]) -> str | None:
    left, op, right = node.children
    a, b = _form(rs, left), _form(rs, right)
    if a is None or b is None or str(op) not in _FLIP:
        return None
    form = {k: v for k in a.keys() | b.keys() if (v := a.get(k, 0) - b.get(k, 0)) or k == ""}
    return _words({k: v for k, v in form.items() if k}, -form.get("", 0), str(op), names)


def _words(terms: Form, n: int, op: str, names: Mapping[str, str]) -> str | None:
    """``sum(terms) op n`` in words, for the shapes a rule book uses."""
    if terms.get("opponents.score") == -1 or (len(terms) == 1 and -1 in terms.values()):
        terms, n, op = {k: -v for k, v in terms.items()}, -n, _FLIP[op]     # read from the side named
    bound = {">=": f"{num(n)} or more", ">": f"more than {num(n)}", "<=": f"{num(n)} or less",
             "<": f"less than {num(n)}", "==": f"exactly {num(n)}", "!=": f"anything but {num(n)}"}[op]
    team = names.get("team", "the side")
    if terms == {"opponents.score": 1, "team.score": -1}:
        return f"when {team} are behind by {bound}" if op in (">=", ">") and n >= 0 else None
    if terms == {"lead": 1}:
        return f"when a side leads by {bound}"
    if terms == {"low.score": 1}:
        return {"<=": f"when a side's score falls to {num(n)} or below",
                "<": f"when a side's score falls below {num(n)}"}.get(op)
    if terms == {"high.score": 1}:
        return {">=": f"when a side reaches {num(n)}", ">": f"when a side goes over {num(n)}"}.get(op)
    if terms == {"team.score": 1}:
        return f"when {team} have {bound}"
    if terms == {"bid.n": 1}:
        return f"for a bid of {num(n)}" if op == "==" else f"for a bid of {bound}"
    return None


def _ranges(parts: list[str]) -> list[str]:
    """"for a bid of 6 or more" and "for a bid of 10 or less" as "for a bid of 6 to 10"."""
    low = next((p for p in parts if p.startswith("for a bid of ") and p.endswith(" or more")), None)
    high = next((p for p in parts if p.startswith("for a bid of ") and p.endswith(" or less")), None)
    if low is None or high is None:
        return parts
    joined = f"for a bid of {low[13:-8]} to {high[13:-8]}"
    return [joined if p == low else p for p in parts if p != high]


def _condition(rs: Ruleset, node: Tree, names: Mapping[str, str]) -> str | None:
    if node.data == "compare":
        return _compare(rs, node, names)
    if node.data in ("or_", "and_"):
        parts = [_condition(rs, c, names) for c in node.children]
        if None in parts:
            return None
        if node.data == "or_" and all(p.startswith("for a bid of ") for p in parts):
            return "for a bid of " + " or ".join(p.removeprefix("for a bid of ") for p in parts)
        return f" {node.data[:-1]} ".join(_ranges(parts) if node.data == "and_" else parts)
    return None


def when(rs: Ruleset, rule: str, names: Mapping[str, str] | None = None) -> str | None:
    """When rule ``rule`` of ``rs`` holds, in words ("when EW are behind by 100 or more"); None when its
    text is not a comparison of scores or bids (``names``: "team", the side the rule is asked for)."""
    try:
        tree = parse(rs.rules[rule].text)
    except CompileError:
        return None
    node = tree.children[0] if tree.data == "value" else tree
    return _condition(rs, node, names or {}) if isinstance(node, Tree) else None


def game_end(rs: Ruleset, status: Mapping, scores: tuple[int, int]) -> str | None:
    """Why a game ended early (by ``game.mercy``), with the score that ended it: "the game ends when a
    side's score falls to −500 or below, and EW are on −520"; None when that rule has no such words."""
    words = when(rs, "game.mercy")
    if words is None:
        return None
    low = min((0, 1), key=lambda t: scores[t])
    lead = abs(scores[0] - scores[1])
    fact = (f"{TEAMS[1 - low]} lead by {num(lead)}" if "leads by" in words
            else f"{TEAMS[low]} are on {num(scores[low])}")
    return f"the game ends {words}, and {fact}"
