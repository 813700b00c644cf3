"""Compile rule expressions into Python callables.

A rule text is parsed with the LALR grammar in ``rules.lark``, every name and
type is checked against the slot's context (``schema.CONTEXTS``), and the
checked tree is turned into Python source that only uses the context
arguments, constants and a fixed set of helpers.  The source is executed with
empty ``__builtins__``: a rules file can name nothing outside the schema.
"""
from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import NoReturn
from dataclasses import dataclass, field

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..core import cards as C
from ..core.resources import grammar_text
from ..errors import CompileError, LimitError, RulespecError, did_you_mean
from .hints import NUMBER_WORDS, expected_words, number_in_words, unexpected_hint
from .limits import MAX_TEXT_CACHE_BYTES, charge, check_cost, literal_too_long
from ..core.schema import (ANY, BIDKIND, BID_KINDS, BOOL, CARD, CARDS, CONTEXTS, ENUM, INT, LIST, SEAT,
                     SUIT, TEAM, Slot)

MAX_RULE_CHARS = 2000
MAX_DEPTH = 40
# estimated bytes held per cached rule text (measured with tracemalloc: tests/test_request_bounds.py)
TREE_ITEM_BYTES = 400        # a node or token of a parsed tree (positions kept)
COMPILED_BASE_BYTES = 4000   # a compiled rule's function, code object and namespace
COMPILED_CHAR_BYTES = 12     # per character of its generated source
NAME_BYTES = 120             # a dotted name a rule mentions
NONE = -1          # 'none' for cards, suits, seats and teams
NONE_T = "none"   # the type of the literal 'none' before it meets another type


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", propagate_positions=True, maybe_placeholders=True, cache=True)


def _expected(exc: UnexpectedInput) -> set[str]:
    return set(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or [])


def _syntax_error(text: str, message: str, line: int, column: int, found: str, expected: set[str]) -> CompileError:
    """A syntax error in words: what was found, what could come there, and what to change."""
    words = number_in_words(text)
    if words is not None:
        phrase, value = words
        start = text.find(phrase)
        before = text[:start]
        return CompileError(f"'{phrase}' is a number written in words; a rule needs digits",
                            before.count("\n") + 1, start - (before.rfind("\n") + 1) + 1, hint=f"write {value}")
    if found.isdigit() and not found.isascii():
        return CompileError(f"{found!r} is not one of the digits 0-9", line, column,
                            hint="write numbers with the digits 0-9, as bids are written")
    return CompileError(f"{message}; expected {expected_words(expected)}", line, column,
                        hint=unexpected_hint(found, expected))


def parse(text: str) -> Tree:
    """Parse a rule text; raise ``CompileError`` with the position on failure.  A text not parsed before charges
    its length to the request's allowance.  (Kept in the text cache: variants that inherit a rule share its
    tree; trees are never modified.)"""
    entry = _CACHE.get(text)
    if entry is not None:
        return entry.tree
    if len(text) > MAX_RULE_CHARS:
        raise CompileError(f"rule text is {len(text)} characters long; the limit is {MAX_RULE_CHARS}")
    charge(len(text))        # parsing is work of the request too (and reads its clock: many long texts take seconds)
    try:
        tree = parser().parse(text)
    except UnexpectedEOF as exc:
        lines = text.splitlines() or [""]
        raise _syntax_error(text, "the rule ends too early", len(lines), len(lines[-1]) + 1, "",
                            _expected(exc)) from None
    except UnexpectedToken as exc:
        if exc.token.type in ("CITE_TEXT", "$END"):
            if exc.token.type == "$END":
                lines = text.splitlines() or [""]
                raise _syntax_error(text, "the rule ends too early", len(lines), len(lines[-1]) + 1, "",
                                    _expected(exc)) from None
            char = text[exc.token.start_pos]     # no other token fits here: report the character
            raise _syntax_error(text, f"unexpected {char!r}", exc.line, exc.column, char, _expected(exc)) from None
        raise _syntax_error(text, f"unexpected {exc.token.value!r}", exc.line, exc.column, str(exc.token.value),
                            _expected(exc)) from None
    except UnexpectedCharacters as exc:
        char = exc.char
        raise _syntax_error(text, f"unexpected character {char!r}", exc.line, exc.column, char,
                            _expected(exc)) from None
    items = check_depth(tree)     # before any recursive walk of the tree (scan_values is one)
    for token in tree.scan_values(lambda v: isinstance(v, Token) and v.type == "NAME"):
        if str(token) in NUMBER_WORDS:      # seventy-five parses (as seventy minus five) but means 75
            raise _syntax_error(text, "", *_pos(token), str(token), set())
    _CACHE.add(text, tree, items)
    return tree


# what a level of nesting is, in a writer's words (the rest: "calls, brackets and other values")
_LEVEL_WORDS = {"add": "'+'", "sub": "'-' between two values", "union": "'|'", "mul": "'*'", "div": "'/'",
                "mod": "'%'", "inter": "'&'", "neg": "minus signs", "not_": "'not'", "and_": "'and'", "or_": "'or'",
                "ifelse": "'if … then … else'", "compare": "comparisons", "in_": "'in'", "not_in": "'not in'",
                "attr": "'.'"}
_LEVEL_HINTS = {"neg": "two minus signs cancel out: write the number with one sign or none",
                "not_": "'not not x' is x: drop them in pairs",
                "add": "each operator of a long chain nests one level: write the value itself, or split the rule "
                       "into parameters (params:) that it adds up"}


def check_depth(tree: Tree) -> int:
    """Refuse (``CompileError``, located where the nesting passes ``MAX_DEPTH``) an expression nested more
    than ``MAX_DEPTH`` levels deep (a level: an operator, call or value of the tree), without recursion: a
    deep tree must be refused before any recursive walk of it (the cost estimate, the compiler, lark's own
    ``scan_values``) can reach Python's recursion limit.  Returns the number of nodes and tokens (the tree's
    size, for the text cache)."""
    expr = tree.children[0]
    deepest: tuple = (0, None)        # (depth, path): path is (node, parent path) from the deepest node up
    stack: list[tuple] = [(expr, 1, (expr, None))]
    items = 0
    while stack:
        node, depth, path = stack.pop()
        items += 1 + sum(1 for child in node.children if isinstance(child, Token))
        if depth > deepest[0]:
            deepest = (depth, path)
        stack.extend((child, depth + 1, (child, path)) for child in node.children if isinstance(child, Tree))
    depth, path = deepest
    if depth <= MAX_DEPTH:
        return items
    chain = []
    while path is not None:
        chain.append(path[0])
        path = path[1]
    chain.reverse()          # from the expression down to its deepest value
    kinds = [node.data for node in chain]
    kind = max(dict.fromkeys(kinds), key=kinds.count)     # the most frequent (the first of equals)
    line, column = _pos(chain[MAX_DEPTH])     # where the level past the limit begins
    hint = _LEVEL_HINTS.get("add" if kind in ("sub", "mul", "div", "mod", "union", "inter", "and_", "or_")
                            else kind, "split the rule into parameters (params:) that it names")
    raise CompileError(f"this expression nests {depth} levels deep ({kinds.count(kind)} of them "
                       f"{_LEVEL_WORDS.get(kind, 'calls, brackets and other values')}); at most {MAX_DEPTH} "
                       "levels may nest", line, column, hint=hint)


@dataclass
class Expr:
    src: str
    type: str


_CARD_ATTRS = {"rank": ("_RANK[{}]", INT), "natural_suit": ("_NSUIT[{}]", SUIT),
               "suit": ("_SUIT[{}]", SUIT), "power": ("_POW[{}]", INT)}
_FUNCS = ("count", "any", "all", "min", "max", "abs", "highest", "lowest", "left_of", "right_of",
          "partner_of", "cards")


# The card tables a rule's code reads, by name (``_POW``, ``_SUIT``, ``_SM``...): one int per card or suit
# (None where only the names matter, as in ``procedure.python``'s list of the names generated code can reach).
CardTables = Mapping[str, "tuple[int, ...] | None"]


def _pos(node: Tree | Token) -> tuple[int, int]:
    if isinstance(node, Token):
        return node.line or 1, node.column or 1
    meta = node.meta
    return (getattr(meta, "line", 1) or 1, getattr(meta, "column", 1) or 1)


def _flatten(node: Tree | Token) -> list[tuple[str, Tree | Token]] | None:
    """``a.b.c`` as [("a", node), ("b", node), ("c", node)], or None if not a name chain."""
    if isinstance(node, Tree) and node.data == "name":
        return [(str(node.children[0]), node)]
    if isinstance(node, Tree) and node.data == "attr":
        base = _flatten(node.children[0])
        if base is not None:
            return base + [(str(node.children[1]), node)]
    return None


class ExprCompiler:
    """Type-checks one rule tree and produces its Python source."""

    tables: frozenset[str] | None = None   # the card tables the rule can reach (None: all of them)

    def __init__(self, slot: Slot, params: Mapping[str, tuple[str, object]], static_card: bool = False):
        self.slot = slot
        self.context = CONTEXTS[slot.context]
        self.args = {name: f"a{i}" for i, name in enumerate(self.context)}
        self.params = params           # name -> (type, value) of parameter rules
        self.static_card = static_card  # compiling card.suit / card.power: no card tables yet
        self.locals: dict[str, str] = {}

    # -- the Python that a few constructs become (a vector back end overrides these) --
    def src_and(self, a: str, b: str) -> str:
        return f"(({a}) and ({b}))"

    def src_or(self, a: str, b: str) -> str:
        return f"(({a}) or ({b}))"

    def src_not(self, a: str) -> str:
        return f"(not ({a}))"

    def src_if(self, cond: str, a: str, b: str) -> str:
        return f"(({a}) if ({cond}) else ({b}))"

    def src_in_list(self, x: str, items: str) -> str:
        return f"(({x}) in {items})"

    def src_card_in(self, card: str, cards: str) -> str:
        return f"(((({cards}) >> ({card})) & 1) == 1 if ({card}) >= 0 else False)"

    def src_aggregate(self, fname: str, var: str, cards: str, cond: str) -> str:
        loop = f"for {var} in _iter({cards})"
        return f"_sum(1 {loop} if {cond})" if fname == "count" else f"_{fname}({cond} {loop})"

    # -- helpers --------------------------------------------------------
    def fail(self, node, message: str, suggestion: str | None = None) -> NoReturn:
        line, col = _pos(node)
        raise CompileError(message, line, col, suggestion)

    def known_names(self) -> list[str]:
        return [*self.locals, *self.context, *self.params, *BID_KINDS, *_FUNCS]

    def need_table(self, table: str, node, what: str) -> None:
        """Refuse a construct that needs a card table the rule cannot reach (a parameter has none)."""
        if self.tables is not None and table not in self.tables:
            self.fail_hint(node, f"a parameter is worked out before the pack's cards are, so it cannot use {what}",
                           "use it in the rule that needs it, or make the parameter a plain value")

    def fail_hint(self, node, message: str, hint: str) -> NoReturn:
        line, col = _pos(node)
        raise CompileError(message, line, col, hint=hint)

    def as_cards(self, e: Expr, node) -> str:
        if e.type == CARDS:
            return e.src
        if e.type == SUIT:
            self.need_table("_SM", node, "a suit as a set of cards")
            return f"_SM[{e.src}]"
        if e.type == CARD:
            return f"_bit({e.src})"
        self.fail(node, f"expected a set of cards, a suit or a card here, got a {e.type}")

    def need(self, e: Expr, typ: str, node, what: str = "") -> str:
        if e.type != typ:
            self.fail(node, f"{what or 'this'} must be a {typ}, not a {e.type}")
        return e.src

    def unify(self, a: Expr, b: Expr, node) -> tuple[str, str, str]:
        """Bring two branch/comparison operands to one type."""
        if a.type == b.type:
            return a.src, b.src, a.type
        if NONE_T in (a.type, b.type):
            other = b.type if a.type == NONE_T else a.type
            if other in (CARD, SUIT, SEAT, TEAM):
                return a.src, b.src, other
        if CARDS in (a.type, b.type) and {a.type, b.type} <= {CARDS, SUIT, CARD}:
            return self.as_cards(a, node), self.as_cards(b, node), CARDS
        self.fail(node, f"cannot combine a {a.type} with a {b.type}")

    # -- entry ------------------------------------------------------------
    def compile(self, tree: Tree) -> Expr:
        expr = self.gen(tree)
        want = self.slot.type
        if want in (ENUM, ANY):
            return expr
        if want == CARDS and expr.type in (SUIT, CARD):
            return Expr(self.as_cards(expr, tree), CARDS)
        if expr.type == NONE_T and want in (CARD, SUIT, SEAT, TEAM):
            return Expr(expr.src, want)
        if expr.type != want:
            self.fail(tree, f"rule '{self.slot.name}' must give a {want}, but this gives a {expr.type}")
        return expr

    def gen(self, node) -> Expr:
        """(Recursive: ``parse`` has refused trees deeper than ``MAX_DEPTH``.)"""
        return getattr(self, "g_" + (node.data if isinstance(node, Tree) else "token"))(node)

    # -- literals -----------------------------------------------------------
    def g_number(self, node):
        digits = str(node.children[0])
        why = literal_too_long(digits)
        if why:
            line, col = _pos(node)
            raise CompileError(why, line, col, hint="use a smaller number")
        return Expr(str(int(digits)), INT)

    def g_card(self, node):
        return Expr(str(C.parse_card(str(node.children[0]))), CARD)

    def g_suit(self, node):
        text = str(node.children[0])
        index = C.SUIT_SYMBOLS.index(text) if text in C.SUIT_SYMBOLS else C.SUIT_NAMES.index(text)
        return Expr(str(index), SUIT)

    def g_team(self, node):
        seats = self._seats()
        if self.params.get("table.sides", (ENUM, "partners"))[1] != "partners" or seats != 4:
            self.fail_hint(node, f"{node.children[0]} names a partnership of four seats (NS or EW), and this table "
                                 f"of {seats} seats has none", "name the side another way, e.g. high.side")
        return Expr(str(C.TEAMS.index(str(node.children[0]))), TEAM)

    def g_true(self, node):
        return Expr("True", BOOL)

    def g_false(self, node):
        return Expr("False", BOOL)

    def g_none(self, node):
        return Expr(str(NONE), NONE_T)

    def g_cardset(self, node):
        parts = [c for c in node.children if c is not None]
        srcs = []
        for part in parts:
            e = self.gen(part)
            srcs.append(self.as_cards(e, part))
        return Expr("(" + " | ".join(srcs) + ")" if srcs else "0", CARDS)

    def g_list(self, node):
        parts = [c for c in node.children if c is not None]
        return Expr("(" + "".join(self.need(self.gen(p), INT, p, "a list item") + ", " for p in parts) + ")", LIST)

    # -- names --------------------------------------------------------------
    def g_name(self, node):
        return self.resolve(node)

    def g_attr(self, node):
        return self.resolve(node)

    def resolve(self, node) -> Expr:
        chain = _flatten(node)
        if chain is None:  # attribute of a computed value, e.g. highest(S).suit
            base = self.gen(node.children[0])
            return self.card_attr(base, str(node.children[1]), node)
        parts = [p for p, _ in chain]
        for cut in range(len(parts), 0, -1):
            dotted = ".".join(parts[:cut])
            found = self.lookup(dotted)
            if found is not None and not (found.type == BIDKIND and cut < len(parts)):
                expr = found
                for attr_name, attr_node in chain[cut:]:
                    expr = self.card_attr(expr, attr_name, attr_node)
                return expr
        dotted = ".".join(parts)
        self.fail(node, f"unknown name '{dotted}' in a rule of the '{self.slot.context}' context",
                  did_you_mean(dotted, self.known_names()))

    def lookup(self, dotted: str) -> Expr | None:
        if dotted in self.locals:
            return Expr(self.locals[dotted], CARD)
        if dotted in self.context:
            return Expr(self.args[dotted], self.context[dotted])
        if dotted in self.params:
            typ, value = self.params[dotted]
            return Expr(repr(value), typ)
        if dotted in BID_KINDS:
            return Expr(repr(dotted), BIDKIND)
        return None

    def card_attr(self, base: Expr, attr: str, node) -> Expr:
        if base.type != CARD:
            self.fail(node, f"a {base.type} has no attribute '{attr}'")
        if attr not in _CARD_ATTRS or (self.static_card and attr in ("suit", "power")):
            allowed = ["rank", "natural_suit"] if self.static_card else list(_CARD_ATTRS)
            self.fail(node, f"a card has no attribute '{attr}' here (it has: {', '.join(allowed)})",
                      did_you_mean(attr, allowed))
        template, typ = _CARD_ATTRS[attr]
        self.need_table(template.split("[")[0], node, f"a card's {attr}")
        return Expr(template.format(base.src), typ)

    # -- calls --------------------------------------------------------------
    def g_call(self, node):
        callee, arguments = node.children
        if isinstance(callee, Tree) and callee.data == "attr":
            base = self.gen(callee.children[0])
            return self.method(base, str(callee.children[1]), arguments, node)
        if not (isinstance(callee, Tree) and callee.data == "name"):
            self.fail(node, "only named functions can be called")
        fname = str(callee.children[0])
        if fname not in _FUNCS:
            self.fail(node, f"unknown function '{fname}'", did_you_mean(fname, _FUNCS))
        if arguments is not None and arguments.data == "where_args":
            return self.comprehension(fname, arguments, node)
        args = [] if arguments is None else [self.gen(a) for a in arguments.children]
        arg_nodes = [] if arguments is None else list(arguments.children)
        return getattr(self, "f_" + fname)(args, arg_nodes, node)

    def arity(self, args, n, name, node):
        if len(args) != n:
            self.fail(node, f"{name}() takes {n} argument{'s' if n != 1 else ''}, got {len(args)}")

    def f_count(self, args, nodes, node):
        self.arity(args, 1, "count", node)
        return Expr(f"_cnt({self.as_cards(args[0], nodes[0])})", INT)

    def f_highest(self, args, nodes, node):
        self.arity(args, 1, "highest", node)
        self.need_table("_POW", node, "highest()")
        return Expr(f"_hi({self.as_cards(args[0], nodes[0])})", CARD)

    def f_lowest(self, args, nodes, node):
        self.arity(args, 1, "lowest", node)
        self.need_table("_POW", node, "lowest()")
        return Expr(f"_lo({self.as_cards(args[0], nodes[0])})", CARD)

    def f_cards(self, args, nodes, node):
        self.arity(args, 1, "cards", node)
        return Expr(self.as_cards(args[0], nodes[0]), CARDS)

    def _minmax(self, name, args, nodes, node):
        if not args:
            self.fail(node, f"{name}() needs at least one argument")
        if len(args) == 1 and args[0].type == LIST:
            return Expr(f"_{name}({args[0].src})", INT)
        srcs = [self.need(a, INT, n, f"an argument of {name}()") for a, n in zip(args, nodes)]
        return Expr(f"_{name}(({', '.join(srcs)},))", INT)

    def f_min(self, args, nodes, node):
        return self._minmax("min", args, nodes, node)

    def f_max(self, args, nodes, node):
        return self._minmax("max", args, nodes, node)

    def f_abs(self, args, nodes, node):
        self.arity(args, 1, "abs", node)
        return Expr(f"_abs({self.need(args[0], INT, nodes[0], 'the argument of abs()')})", INT)

    def _seats(self) -> int:
        """The seats at the table (rule ``table.seats``; four where it is not known yet)."""
        seats = self.params.get("table.seats", (INT, 4))[1]
        return seats if isinstance(seats, int) else 4

    def _seat_fn(self, name, offset, args, nodes, node):
        self.arity(args, 1, name, node)
        seats = self._seats()
        return Expr(f"(({self.need(args[0], SEAT, nodes[0], f'the argument of {name}()')}) + {offset % seats}) "
                    f"% {seats}", SEAT)

    def f_left_of(self, args, nodes, node):
        return self._seat_fn("left_of", 1, args, nodes, node)

    def f_partner_of(self, args, nodes, node):
        if self.params.get("table.sides", (ENUM, "partners"))[1] != "partners":
            self.fail_hint(node, "partner_of() names a partner, and with table.sides alone nobody has one",
                           "name the seat another way, e.g. left_of(left_of(dealer))")
        return self._seat_fn("partner_of", self._seats() // 2, args, nodes, node)

    def f_right_of(self, args, nodes, node):
        return self._seat_fn("right_of", -1, args, nodes, node)

    def f_any(self, args, nodes, node):
        self.fail(node, "any() is written any(c in SET where CONDITION)")

    f_all = f_any

    def comprehension(self, fname: str, arguments: Tree, node) -> Expr:
        head, cond_node = arguments.children
        if fname not in ("count", "any", "all"):
            self.fail(node, f"{fname}() does not take a 'where' clause")
        if not (isinstance(head, Tree) and head.data == "in_" and isinstance(head.children[0], Tree)
                and head.children[0].data == "name"):
            self.fail(head, f"write {fname}(c in SET where CONDITION)")
        var = str(head.children[0].children[0])
        if var in self.context or var in self.locals:
            self.fail(head, f"'{var}' is already a name here; pick another variable name")
        source = self.as_cards(self.gen(head.children[1]), head.children[1])
        py_var = f"v{len(self.locals)}"
        self.locals[var] = py_var
        try:
            cond = self.need(self.gen(cond_node), BOOL, cond_node, "the 'where' condition")
        finally:
            del self.locals[var]
        return Expr(self.src_aggregate(fname, py_var, source, cond), INT if fname == "count" else BOOL)

    def method(self, base: Expr, name: str, arguments, node) -> Expr:
        args = [] if arguments is None or arguments.data == "where_args" else list(arguments.children)
        if base.type in (CARDS, SUIT) and name in ("has", "count", "only"):
            if len(args) != 1:
                self.fail(node, f".{name}() takes one argument (a suit, card or set of cards)")
            this = self.as_cards(base, node)
            other = self.as_cards(self.gen(args[0]), args[0])
            if name == "has":
                return Expr(f"(({this}) & ({other}) != 0)", BOOL)
            if name == "count":
                return Expr(f"_cnt(({this}) & ({other}))", INT)
            return Expr(f"(({this}) & ~({other}) == 0)", BOOL)
        self.fail(node, f"a {base.type} has no method '{name}'",
                  did_you_mean(name, ["has", "count", "only"]) if base.type == CARDS else None)

    # -- operators ----------------------------------------------------------
    def g_ifelse(self, node):
        cond_node, a_node, b_node = node.children
        cond = self.need(self.gen(cond_node), BOOL, cond_node, "the condition after 'if'")
        a_src, b_src, typ = self.unify(self.gen(a_node), self.gen(b_node), node)
        return Expr(self.src_if(cond, a_src, b_src), typ)

    def _bool2(self, node, op):
        a, b = node.children
        left = self.need(self.gen(a), BOOL, a, f'the left side of {op!r}')
        right = self.need(self.gen(b), BOOL, b, f'the right side of {op!r}')
        return Expr(self.src_and(left, right) if op == "and" else self.src_or(left, right), BOOL)

    def g_or_(self, node):
        return self._bool2(node, "or")

    def g_and_(self, node):
        return self._bool2(node, "and")

    def g_not_(self, node):
        (a,) = node.children
        return Expr(self.src_not(self.need(self.gen(a), BOOL, a, 'the operand of not')), BOOL)

    def g_compare(self, node):
        a_node, op_tok, b_node = node.children
        op = str(op_tok)
        a, b = self.gen(a_node), self.gen(b_node)
        if a.type == INT and b.type == INT:
            return Expr(f"(({a.src}) {op} ({b.src}))", BOOL)
        a_src, b_src, typ = self.unify(a, b, node)
        if typ == CARDS:
            if op in ("==", "!="):
                return Expr(f"(({a_src}) {op} ({b_src}))", BOOL)
            strict = {"<": True, ">": True}.get(op, False)
            sub, sup = (a_src, b_src) if op in ("<", "<=") else (b_src, a_src)
            test = f"(({sub}) & ~({sup}) == 0)"
            if strict:
                test = self.src_and(test, f"(({sub}) != ({sup}))")
            return Expr(test, BOOL)
        if op not in ("==", "!="):
            self.fail(node, f"'{op}' compares numbers or sets of cards, not a {typ}")
        return Expr(f"(({a_src}) {op} ({b_src}))", BOOL)

    def _membership(self, node) -> str:
        a_node, b_node = node.children
        a, b = self.gen(a_node), self.gen(b_node)
        if b.type == LIST:
            return self.src_in_list(self.need(a, INT, a_node, 'the left side of in'), b.src)
        if a.type == CARD and b.type in (CARDS, SUIT, CARD):
            return self.src_card_in(a.src, self.as_cards(b, b_node))
        if a.type in (CARDS, SUIT) and b.type in (CARDS, SUIT):
            return f"(({self.as_cards(a, a_node)}) & ~({self.as_cards(b, b_node)}) == 0)"
        self.fail(node, f"'in' tests a card in a set of cards or a number in a list, not a {a.type} in a {b.type}")

    def g_in_(self, node):
        return Expr(self._membership(node), BOOL)

    def g_not_in(self, node):
        return Expr(self.src_not(self._membership(node)), BOOL)

    def _arith(self, node, op):
        a_node, b_node = node.children
        a, b = self.gen(a_node), self.gen(b_node)
        if a.type == INT and b.type == INT:
            if op == "/":
                return Expr(f"_div({a.src}, {b.src})", INT)
            if op == "%":
                return Expr(f"_mod({a.src}, {b.src})", INT)
            return Expr(f"(({a.src}) {op} ({b.src}))", INT)
        set_op = {"+": "|", "|": "|", "-": "&~", "&": "&"}.get(op)
        if set_op and CARDS in (a.type, b.type) or (set_op and {a.type, b.type} <= {SUIT, CARD, CARDS}
                                                     and op != "+"):
            x, y = self.as_cards(a, a_node), self.as_cards(b, b_node)
            return Expr(f"(({x}) {set_op} ({y}))", CARDS)
        self.fail(node, f"'{op}' needs two numbers{' or two sets of cards' if set_op else ''}, "
                        f"got a {a.type} and a {b.type}")

    def g_add(self, node):
        return self._arith(node, "+")

    def g_sub(self, node):
        return self._arith(node, "-")

    def g_union(self, node):
        return self._arith(node, "|")

    def g_inter(self, node):
        return self._arith(node, "&")

    def g_mul(self, node):
        return self._arith(node, "*")

    def g_div(self, node):
        return self._arith(node, "/")

    def g_mod(self, node):
        return self._arith(node, "%")

    def g_neg(self, node):
        (a,) = node.children
        return Expr(f"(-({self.need(self.gen(a), INT, a, 'the operand of -')}))", INT)

    def g_args(self, node):
        self.fail(node, "unexpected argument list")

    g_where_args = g_args

    def g_token(self, node):
        self.fail(node, f"unexpected {node!r}")


def _div(a: int, b: int) -> int:
    if b == 0:
        raise RulespecError("division by zero in a rule")
    return a // b


def _mod(a: int, b: int) -> int:
    if b == 0:
        raise RulespecError("modulo by zero in a rule")
    return a % b


def _iter(mask: int):
    charge(mask.bit_count())
    return C.iter_cards(mask)


def _bit(card: int) -> int:
    return 0 if card < 0 else 1 << card


def make_env(tables: CardTables) -> dict:
    """The only names generated code can reach."""
    power = tables.get("_POW") or ()
    below, above = min(power or (0,)) - 1, max(power or (0,)) + 1    # beyond every card's power

    def hi(mask: int) -> int:
        """The first card (lowest id) of the highest power."""
        charge(mask.bit_count())
        best, best_p = NONE, below
        while mask:
            low = mask & -mask
            card = low.bit_length() - 1
            if power[card] > best_p:
                best, best_p = card, power[card]
            mask ^= low
        return best

    def lo(mask: int) -> int:
        """The first card (lowest id) of the lowest power."""
        charge(mask.bit_count())
        best, best_p = NONE, above
        while mask:
            low = mask & -mask
            card = low.bit_length() - 1
            if power[card] < best_p:
                best, best_p = card, power[card]
            mask ^= low
        return best

    env = {"__builtins__": {}, "_cnt": int.bit_count, "_hi": hi, "_lo": lo, "_min": min, "_max": max,
           "_abs": abs, "_sum": sum, "_any": any, "_all": all, "_div": _div, "_mod": _mod,
           "_iter": _iter, "_bit": _bit}
    env.update(tables)
    return env


@dataclass
class CompiledExpr:
    """A checked rule expression: its Python source and the callable."""
    slot: Slot
    source: str
    type: str
    fn: Callable


@dataclass(eq=False)
class _Entry:
    """What is worked out from one rule text: its tree, the names it mentions, its compiled forms (by slot,
    parameters and card tables), and an estimate of the bytes they hold."""
    tree: Tree
    bytes: int
    names: frozenset[str] | None = None
    compiled: dict[tuple, CompiledExpr] = field(default_factory=dict)


class TextCache:
    """The rule texts seen by this process, each with what was worked out from it (``_Entry``), bounded by
    the bytes they hold (estimated: ``TREE_ITEM_BYTES`` per node or token of a tree, ``compiled_bytes`` per
    compiled form), not by their number; the least recently parsed texts are dropped first.  A rule text
    of 2,000 characters holds about 0.4-0.6 MB, a bundled rule a few KB.  Thread-safe."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.entries: OrderedDict[str, _Entry] = OrderedDict()
        self.by_tree: dict[int, _Entry] = {}      # id of a kept text's expression tree -> its entry
        self.bytes = 0
        self.lock = threading.Lock()

    def get(self, text: str) -> _Entry | None:
        with self.lock:
            entry = self.entries.get(text)
            if entry is not None:
                self.entries.move_to_end(text)
            return entry

    def add(self, text: str, tree: Tree, items: int) -> None:
        entry = _Entry(tree, TREE_ITEM_BYTES * items + len(text))
        with self.lock:
            old = self.entries.pop(text, None)
            if old is not None:       # parsed twice at once by two threads: the later tree is kept
                self._drop(old)
            self.entries[text] = entry
            self.by_tree[id(tree.children[0])] = entry
            self.bytes += entry.bytes
            self._shrink()

    def of(self, expr: Tree) -> _Entry | None:
        """The entry of the text whose expression tree ``expr`` is; None for a tree not parsed here or no
        longer kept."""
        entry = self.by_tree.get(id(expr))
        return entry if entry is not None and entry.tree.children[0] is expr else None

    def grow(self, entry: _Entry, size: int) -> None:
        """``entry`` holds ``size`` more bytes (something compiled from it was kept in it)."""
        with self.lock:
            if self.by_tree.get(id(entry.tree.children[0])) is entry:
                entry.bytes += size
                self.bytes += size
                self._shrink()

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.by_tree.clear()
            self.bytes = 0

    def _shrink(self) -> None:
        while self.bytes > self.max_bytes and len(self.entries) > 1:
            self._drop(self.entries.popitem(last=False)[1])

    def _drop(self, entry: _Entry) -> None:
        del self.by_tree[id(entry.tree.children[0])]
        self.bytes -= entry.bytes


def compiled_bytes(compiled: CompiledExpr) -> int:
    """An estimate of the bytes a compiled rule holds: its source, code object, function and namespace."""
    return COMPILED_BASE_BYTES + COMPILED_CHAR_BYTES * len(compiled.source)


_CACHE = TextCache(MAX_TEXT_CACHE_BYTES)


def _tables_key(tables: CardTables) -> tuple:
    return tuple(sorted((k, hash(v)) for k, v in tables.items()))


def compile_tree(tree: Tree, slot: Slot, params: Mapping[str, tuple[str, object]],
                 tables: CardTables, static_card: bool = False) -> CompiledExpr:
    """Check ``tree`` (an ``expr`` node) for ``slot`` and build its callable.

    Memoised, in the text cache entry of the text ``tree`` was parsed from, on everything else the result
    depends on (slot, the parameters the tree can name, the card tables), so inherited rules compile once
    per process while their text is kept."""
    names = referenced_names(tree)
    key = (slot, tuple(sorted((n, repr(params[n])) for n in names if n in params)), _tables_key(tables),
           static_card, repr(params.get("table.seats")), repr(params.get("table.sides")))
    entry = _CACHE.of(tree)
    compiled = entry.compiled.get(key) if entry is not None else None
    if compiled is None:
        compiled = _compile_tree(tree, slot, params, tables, static_card)
        if entry is not None:
            entry.compiled[key] = compiled
            _CACHE.grow(entry, compiled_bytes(compiled))
    return compiled


def _compile_tree(tree: Tree, slot: Slot, params: Mapping[str, tuple[str, object]],
                  tables: CardTables, static_card: bool) -> CompiledExpr:
    try:
        check_cost(tree, {name: value for name, (_, value) in params.items()})
    except LimitError as exc:
        raise CompileError(exc.message, exc.line, exc.column, hint=exc.suggestion) from None
    comp = ExprCompiler(slot, params, static_card=static_card)
    comp.tables = frozenset(tables)
    if slot.type == ENUM:
        chain = [("none", tree)] if isinstance(tree, Tree) and tree.data == "none" else _flatten(tree)
        if chain is None or len(chain) != 1 or chain[0][0] not in slot.options:
            name = ".".join(p for p, _ in chain) if chain else None
            comp.fail(tree, f"rule '{slot.name}' must be one of: {', '.join(slot.options)}",
                      did_you_mean(name, slot.options) if name else None)
        expr = Expr(repr(chain[0][0]), ENUM)
    else:
        expr = comp.compile(tree)
    arglist = ", ".join(comp.args.values())
    source = f"def rule({arglist}):\n    return {expr.src}\n"
    # the function run charges the rule's size to the request's allowance each time (plain arithmetic
    # counts too); ``source`` stays the bare expression that the generated loops inline
    size = sum(1 for _ in tree.iter_subtrees())
    charged = f"def rule({arglist}):\n    _charge({size})\n    return {expr.src}\n"
    namespace = make_env(tables)
    namespace["_charge"] = charge
    exec(compile(charged, f"<rule {slot.name}>", "exec"), namespace)  # noqa: S102 - source built from checked tree only
    return CompiledExpr(slot, source, expr.type, namespace["rule"])


def referenced_names(tree: Tree) -> frozenset[str]:
    """Every dotted name chain in a tree (used to order parameter rules).  Kept in the text cache entry of
    the text ``tree`` was parsed from, like ``compile_tree``'s results."""
    entry = _CACHE.of(tree)
    if entry is not None and entry.names is not None:
        return entry.names
    found: set[str] = set()
    for sub in tree.iter_subtrees():
        chain = _flatten(sub)
        if chain is not None:
            parts = [p for p, _ in chain]
            for cut in range(1, len(parts) + 1):
                found.add(".".join(parts[:cut]))
    names = frozenset(found)
    if entry is not None:
        entry.names = names
        _CACHE.grow(entry, NAME_BYTES * len(names))
    return names
