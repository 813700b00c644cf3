"""Bounds on the work any rules text can cause and on what it can make a service echo back.

A rules file is untrusted input, so every request's work is bounded by design:

- at compile time, ``check_cost`` bounds each rule expression: how deeply ``count/any/all(c in SET
  where …)`` nest, an estimate of the steps one evaluation takes (each comprehension ranges over at
  most a whole pack), and the size of the numbers it can produce (literals have at most
  ``MAX_LITERAL_DIGITS`` digits, a rule's value stays within ``MAX_RULE_INT``);
- at evaluation, ``budget`` gives a request one step and time allowance (``Allowance``) that every
  rule draws on each time it is evaluated (its size: plain arithmetic counts), and the helpers behind
  comprehensions and ``highest``/``lowest`` for the cards they go over (rules that are cheap one at a
  time can still be evaluated many times in a long game, under many variants and rule swaps);
- the variant reader refuses YAML aliases and bounds every text field it keeps (``MAX_*`` below).
"""
from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from lark import Token, Tree

from ..errors import BudgetExceeded, LimitError

MAX_COMPREHENSION_DEPTH = 2     # count(c in X where count(d in Y where …) > 0): two levels
MAX_RULE_STEPS = 20_000         # estimated steps of one evaluation of one rule
PACK = 54                       # the most cards any set holds (52 and two jokers)
MAX_LITERAL_DIGITS = 9          # numbers written in a rule
MAX_CONTEXT_INT = 10 ** 15      # scores and bags a rule can be handed (answers refuse larger ones)
MAX_RULE_INT = 10 ** 30         # the largest number a rule may be able to produce
MAX_ID_CHARS = 64               # a variant id (and so a file name)
MAX_NAME_CHARS = 100            # a rule or parameter name
MAX_TITLE_CHARS = 200           # title, source fields
MAX_NOTE_CHARS = 4000           # notes, a rule's note or unspecified reason, a citation
MAX_CHOICES = 32                # entries in a rule's choices
MAX_CHOICE_CHARS = 200          # one choice, as text
REQUEST_STEPS = 2_000_000       # evaluation steps of one API request
REQUEST_SECONDS = 5.0           # evaluation time of one API request
MAX_TEXT_CACHE_BYTES = 64 * 1024 * 1024   # rule texts kept parsed and compiled per process (estimated bytes)


# --------------------------------------------------------------------------- compile time
@dataclass
class _Cost:
    steps: int
    magnitude: int       # bound on the absolute value of a number this subtree gives


def _pos(node: Tree | Token) -> tuple[int, int]:
    if isinstance(node, Token):
        return node.line or 1, node.column or 1
    return getattr(node.meta, "line", 1) or 1, getattr(node.meta, "column", 1) or 1


def _dotted(node) -> str | None:
    if isinstance(node, Tree) and node.data == "name":
        return str(node.children[0])
    if isinstance(node, Tree) and node.data == "attr":
        base = _dotted(node.children[0])
        return None if base is None else f"{base}.{node.children[1]}"
    return None


class _Coster:
    def __init__(self, params: Mapping[str, object]):
        self.params = params
        self.depth = 0

    def cost(self, node) -> _Cost:
        if isinstance(node, Token) or node is None:
            return _Cost(0, 0)
        kind = node.data
        if kind == "number":
            return _Cost(1, int(str(node.children[0])))
        if kind in ("name", "attr"):
            return self.name(node)
        if kind == "call":
            return self.call(node)
        parts = [self.cost(c) for c in node.children if isinstance(c, Tree)]
        magnitude = _magnitude(kind, [p.magnitude for p in parts] or [0])
        if magnitude > MAX_RULE_INT:
            line, col = _pos(node)
            raise LimitError(f"this can give a number of up to {len(str(magnitude))} digits; a rule's numbers "
                             f"have at most {len(str(MAX_RULE_INT)) - 1} digits (scores and bags count as up "
                             f"to {len(str(MAX_CONTEXT_INT)) - 1} digits)", line, col,
                             "multiply fewer large numbers together")
        return _Cost(1 + sum(p.steps for p in parts), magnitude)

    def name(self, node) -> _Cost:
        """A name: a parameter's own value, or a context value (as large as a score may be)."""
        dotted = _dotted(node)
        if dotted is not None and dotted in self.params:
            value = self.params[dotted]
            return _Cost(1, abs(value) if isinstance(value, int) and not isinstance(value, bool) else 0)
        if node.data == "attr" and dotted is None:   # attribute of a computed card, e.g. highest(S).power
            return _Cost(self.cost(node.children[0]).steps + 1, MAX_CONTEXT_INT)
        return _Cost(1, MAX_CONTEXT_INT)

    def call(self, node) -> _Cost:
        callee, arguments = node.children
        name = str(callee.children[0]) if isinstance(callee, Tree) and callee.data == "name" else None
        if arguments is not None and arguments.data == "where_args":
            return self.comprehension(node, name, arguments)
        parts = [self.cost(c) for c in (arguments.children if arguments is not None else ())]
        parts.append(self.cost(callee) if name is None else _Cost(0, 0))
        steps = 1 + sum(p.steps for p in parts)
        if name in ("highest", "lowest", "count"):
            return _Cost(steps + PACK, PACK if name == "count" else MAX_CONTEXT_INT)
        if name is None:      # a method: hand.count(x), hand.has(x)
            return _Cost(steps + 1, PACK)
        return _Cost(steps, max(p.magnitude for p in parts))

    def comprehension(self, node, name: str | None, arguments) -> _Cost:
        """``name(c in S where cond)``: the condition once per card of S, nested at most so deep."""
        head, cond = arguments.children
        source = head.children[1] if isinstance(head, Tree) and len(head.children) == 2 else head
        self.depth += 1
        try:
            if self.depth > MAX_COMPREHENSION_DEPTH:
                line, col = _pos(node)
                raise LimitError(f"'{name}(… where …)' nested {self.depth} deep; at most "
                                 f"{MAX_COMPREHENSION_DEPTH} may nest (each goes over up to {PACK} cards)",
                                 line, col, "write the inner condition without a comprehension, or split "
                                            "the rule into parameters")
            size = self.set_size(source)
            inner = self.cost(cond)
        finally:
            self.depth -= 1
        return _Cost(self.cost(source).steps + size * (1 + inner.steps), size)

    def set_size(self, node) -> int:
        """Cards a comprehension ranges over: a written set's size, else a whole pack."""
        if isinstance(node, Tree) and node.data == "cardset":
            return sum(1 for c in node.children if c is not None)
        return PACK


def _magnitude(kind: str, mags: list[int]) -> int:
    """How large a value an operator can give from its operands' largest values."""
    if kind == "mul":
        return mags[0] * mags[1]
    if kind in ("add", "sub"):
        return mags[0] + mags[1]
    if kind == "div":
        return mags[0]
    if kind == "mod":
        return mags[1]
    if kind in ("compare", "in_", "not_in", "and_", "or_", "not_"):
        return 1
    return max(mags)


def check_cost(tree: Tree, params: Mapping[str, object]) -> None:
    """Refuse (``LimitError``, located in the rule text) a rule whose evaluation could take more than
    ``MAX_RULE_STEPS`` steps, nests comprehensions too deeply, or could produce too large a number."""
    cost = _Coster(params).cost(tree)
    if cost.steps > MAX_RULE_STEPS:
        line, col = _pos(tree)
        raise LimitError(f"this rule could take about {cost.steps:,} steps each time it is evaluated; "
                         f"the limit is {MAX_RULE_STEPS:,}", line, col,
                         "range over smaller sets (e.g. hand or a suit instead of all_cards) or nest less")


def literal_too_long(digits: str) -> str | None:
    """Why a number literal is refused, or None."""
    if len(digits) > MAX_LITERAL_DIGITS:
        return (f"a number in a rule has at most {MAX_LITERAL_DIGITS} digits; this one has {len(digits)}")
    return None


# --------------------------------------------------------------------------- evaluation
UNCOUNTED = 10 ** 18    # steps while they are not counted (a search counts its own nodes)


@dataclass
class Allowance:
    """What is left of one request's evaluation allowance: ``steps``, and an absolute ``deadline`` (read on
    the clock every ``CLOCK_EVERY`` steps).  One per request, shared by all its work: every variant, rule
    swap and hand, each rule evaluated charging its own steps (``charge``)."""
    steps: int
    deadline: float
    limit: int           # the steps it started with, and its seconds (for the messages)
    seconds: float
    clock_at: int = 0    # the steps left at which the clock is read next

    def __post_init__(self) -> None:
        self.clock_at = self.steps      # the first charge reads it

    def check(self) -> None:
        """``BudgetExceeded`` once the steps or the time are spent; else when to look again."""
        if self.steps < 0:
            raise BudgetExceeded(f"the rules took too many steps to answer this request (at most {self.limit:,} "
                                 "per request)", spent="steps")
        if time.monotonic() > self.deadline:
            raise BudgetExceeded(f"the rules took too long to answer this request (at most {self.seconds:g} s)",
                                 spent="time")
        self.clock_at = max(self.steps - CLOCK_EVERY, 0)


CLOCK_EVERY = 1_000     # steps between two readings of the clock (about 0.1 ms of plain rules)
_BUDGET: ContextVar[Allowance | None] = ContextVar("rulespec_budget", default=None)


def charge(steps: int) -> None:
    """Draw ``steps`` from the current allowance (none outside ``budget``); ``BudgetExceeded`` when spent.
    Every compiled rule charges its size each time it is evaluated, and the helpers behind
    comprehensions and ``highest``/``lowest`` the cards they go over."""
    allowance = _BUDGET.get()
    if allowance is not None:
        allowance.steps -= steps
        if allowance.steps < allowance.clock_at:
            allowance.check()


def current() -> Allowance | None:
    """The allowance in force (None outside ``budget``)."""
    return _BUDGET.get()


@contextmanager
def budget(steps: int = REQUEST_STEPS, seconds: float = REQUEST_SECONDS) -> Iterator[Allowance]:
    """Bound the rule evaluation done inside the block: ``steps`` and ``seconds`` for all of it."""
    allowance = Allowance(steps, time.monotonic() + seconds, steps, seconds)
    token = _BUDGET.set(allowance)
    try:
        yield allowance
    finally:
        _BUDGET.reset(token)


@contextmanager
def uncounted() -> Iterator[None]:
    """Inside, the rules' steps are not counted (a double-dummy search bounds its work by its own nodes); the
    clock still is, so the request's deadline holds."""
    allowance = _BUDGET.get()
    if allowance is None:
        yield
        return
    saved = allowance.steps
    allowance.steps, allowance.clock_at = UNCOUNTED, UNCOUNTED - CLOCK_EVERY
    try:
        yield
    finally:
        allowance.steps, allowance.clock_at = saved, max(saved - CLOCK_EVERY, 0)
