"""Double-dummy answers: solve a position, judge a claim, analyse a nil (``/v1/solve``, ``/v1/claim``,
``/v1/nil`` and their command-line twins).

A position is given as the cards each seat still holds (``hands``) with the trick in
progress (``leader``, ``trick``) and whether trumps are broken, or as a full ``deal``
with the ``play`` so far (replayed through ``HandState``, each card checked as
``/v1/score`` checks it), one hand per seat of the variant's table.  The sides of a question: in partnerships
a partnership against the other; where each plays alone, the claimer (or the nil bidder) alone against everyone
else.  The search (``solve.search``) plays by the variant's own
compiled rules, compiled to machine code where numba can (``solve.native``).  Work is bounded
by an ``Allowance`` (nodes and seconds) shared by
every search of one request; the service always sets one, the CLI only when asked.
"""
from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from ..core import cards as C
from . import fields as F
from ..errors import BudgetExceeded, InputError, SearchBudgetError
from ..game.hand import HandState
from ..lang.limits import uncounted
from ..model.ruleset import Ruleset
from ..solve.native import searcher, worth_loading
from ..solve.search import Budget, Goal, Position, Search, Step

API_NODES = 2_000_000      # most nodes one API request may search (all its variants together)
API_SECONDS = 10.0         # most seconds one API request may search


@dataclass
class Allowance:
    """What is left of a request's budget: nodes, and an absolute deadline (None: unlimited); and whether its
    searches may compile a ruleset's search module (the CLI: yes; a service request: never, see
    ``solve.native.searcher``)."""
    nodes: int | None
    deadline: float | None
    compiles: bool = False

    def budget(self) -> Budget:
        seconds = None if self.deadline is None else max(0.0, self.deadline - time.monotonic())
        return Budget(self.nodes, seconds)

    def spend(self, nodes: int) -> None:
        if self.nodes is not None:
            self.nodes = max(0, self.nodes - nodes)


_ALLOWANCE: ContextVar[Allowance | None] = ContextVar("solve_allowance", default=None)


@contextmanager
def allowance(nodes: int | None = API_NODES, seconds: float | None = API_SECONDS,
              compiles: bool = False) -> Iterator[Allowance]:
    """Every search inside shares ``nodes`` and ``seconds`` (None: no limit); ``compiles``: see ``Allowance``."""
    left = Allowance(nodes, None if seconds is None else time.monotonic() + seconds, compiles)
    token = _ALLOWANCE.set(left)
    try:
        yield left
    finally:
        _ALLOWANCE.reset(token)


# --------------------------------------------------------------------------- the position
def _from_hands(rs: Ruleset, req: Mapping) -> Position:
    """A position from the cards each seat holds, the trick in progress and whether trumps are broken."""
    table = C.table_of(rs.params)
    seen: dict[int, str] = {}
    hands = F.hands_of(req["hands"], "hands", rs, seen)
    trick = F.cards_of(req.get("trick") or [], "trick", rs, seen)
    if len(trick) >= table.seats:
        raise InputError(f"the trick in progress has at most {table.seats - 1} cards", "trick")
    if "leader" not in req:
        raise InputError("this field is required (the seat that leads the trick in progress)", "leader")
    leader = F.seat_of(req["leader"], "leader", table)
    broken = req.get("broken", False)
    if not isinstance(broken, bool):
        raise InputError("expected true or false", "broken")
    left = hands[leader].bit_count() + (1 if trick else 0)
    size = rs.params["deal.hand_size"]
    if not 1 <= left <= size:
        raise InputError(f"the leader holds {hands[leader].bit_count()} cards; a position has 1 to {size} "
                         "tricks left", f"hands.{C.SEATS[leader]}")
    for k in range(table.seats):
        seat = (leader + k) % table.seats
        want = left - (1 if k < len(trick) else 0)
        if hands[seat].bit_count() != want:
            raise InputError(f"{C.SEATS[seat]} holds {hands[seat].bit_count()} cards; with {left} tricks left "
                             f"and {len(trick)} card(s) in the trick it holds {want}", f"hands.{C.SEATS[seat]}")
    live = 0
    for hand in hands:
        live |= hand
    return Position(hands, leader, trick, size - left + 1, broken, rs.deck & ~live)


def _from_play(rs: Ruleset, req: Mapping) -> Position:
    """A position from the deal and the cards played so far, each checked against the rules."""
    seen: dict[int, str] = {}
    hands = F.hands_of(req["deal"], "deal", rs, seen)
    size = rs.params["deal.hand_size"]
    table = C.table_of(rs.params)
    for s in range(table.seats):
        if hands[s].bit_count() != size:
            raise InputError(f"{C.SEATS[s]} holds {hands[s].bit_count()} cards; each seat is dealt {size}",
                             f"deal.{C.SEATS[s]}")
    state = HandState(rs, hands, F.seat_of(req.get("dealer"), "dealer", table))
    play = req.get("play") or []
    if not isinstance(play, list):
        raise InputError("expected the cards played, in order, as a list", "play")
    for i, item in enumerate(play):
        _play_one(rs, state, item, f"play[{i}]")
    if state.over:
        raise InputError("every trick has been played; nothing is left to solve", "play")
    return Position(list(state.hands), state.leader, list(state.trick), state.number, state.broken,
                    state.played)


def _play_one(rs: Ruleset, state: HandState, item: object, field: str) -> None:
    if state.over:
        raise InputError("more cards than the hand has tricks", field)
    (card,) = F.cards_of([item], field, rs, {})
    seat = state.to_play
    if not state.hands[seat] >> card & 1:
        raise InputError(f"{C.card_name(card)} is not in {C.SEATS[seat]}'s hand", field)
    legal = state.legal_cards(explain=True)
    if not legal.cards >> card & 1:
        why = [s for s in legal.steps if C.card_name(card) not in s["value"]]
        raise InputError(f"{C.SEATS[seat]} may not play {C.card_name(card)} here", field,
                         why[0]["rule"] if why else None, why[0]["cite"] if why else None)
    state.play(card)
    if len(state.trick) == len(state.hands):
        state.finish_trick()


def position_of(rs: Ruleset, req: Mapping) -> Position:
    """The position a request describes (``hands`` … or ``deal`` and ``play``)."""
    if not isinstance(req, Mapping):
        raise InputError("expected a JSON object", "body")
    if ("hands" in req) == ("deal" in req):
        raise InputError("give either the cards left (\"hands\", \"leader\", \"trick\", \"broken\") or the "
                         "\"deal\" and the \"play\" so far", "hands")
    return _from_hands(rs, req) if "hands" in req else _from_play(rs, req)


def _request_budget(req: Mapping) -> Budget:
    """The request's own limits (``budget``: nodes, seconds), within the allowance that is left."""
    left = _ALLOWANCE.get()
    budget = left.budget() if left is not None else Budget()
    asked = req.get("budget")
    if asked is None:
        return budget
    if not isinstance(asked, Mapping) or set(asked) - {"nodes", "seconds"}:
        raise InputError("expected {\"nodes\": …, \"seconds\": …}", "budget")
    if "nodes" in asked:
        nodes = F.whole(asked["nodes"], "budget.nodes", 1, 10**12)
        budget.nodes = nodes if budget.nodes is None else min(nodes, budget.nodes)
    if "seconds" in asked:
        value = asked["seconds"]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 86_400:
            raise InputError(f"expected a number of seconds above 0, got {value!r}", "budget.seconds")
        budget.seconds = value if budget.seconds is None else min(value, budget.seconds)
    return budget


def _searched(rs: Ruleset, pos: Position, goal: Goal, req: Mapping,
              with_line: bool = True) -> tuple[Search, int, list[Step]]:
    """The value of ``goal`` from ``pos`` and (``with_line``) a principal line, within the budget; nodes are
    charged."""
    # a service request compiles nothing (see searcher); a process that may compile (the CLI, a library call
    # without an allowance) loads the compiled search only where it is worth it (a small position: Python)
    left = _ALLOWANCE.get()
    compiles = left is None or left.compiles
    budget = _request_budget(req)
    search = searcher(rs, pos, goal, budget, compiled=not compiles or worth_loading(rs, pos), compile_now=compiles)
    try:
        with uncounted():       # the nodes bound the search's work; the request's clock still runs
            value = search.value()
            line = search.line(value) if with_line else []
    except BudgetExceeded:      # the request's time ran out inside the search: its budget is spent
        raise SearchBudgetError(f"the search budget of {budget.seconds or 0:.3g} s is spent", "budget",
                                details={"nodes": search.nodes, "budget": budget.__dict__}) from None
    finally:
        left = _ALLOWANCE.get()
        if left is not None:
            left.spend(search.nodes)
    return search, value, line


# --------------------------------------------------------------------------- output
def _line(steps: list[Step], leader: int, number: int) -> list[dict]:
    """The line as tricks: number, leader, each seat's card, the winner."""
    tricks: list[dict] = []
    current: dict | None = None
    for step in steps:
        if current is None:
            current = {"number": number, "leader": C.SEATS[leader], "cards": []}
            tricks.append(current)
        current["cards"].append({"seat": C.SEATS[step.seat], "card": C.card_name(step.card)})
        if step.winner is not None:
            leader = step.winner
            current["winner"] = C.SEATS[leader]
            current, number = None, number + 1
    return tricks


def _findings(steps: list[Step], key: str) -> list[dict]:
    """The conflicts or dead ends the line meets, each with the seat and card that met it."""
    return [{**item, "seat": C.SEATS[step.seat], "card": C.card_name(step.card)}
            for step in steps for item in getattr(step, key)]


def _described(rs: Ruleset, pos: Position, search: Search, steps: list[Step]) -> dict:
    return {"variant": rs.id, "to_play": C.SEATS[pos.to_play], "tricks_left": search.remaining,
            "line": _line(steps, pos.leader, pos.number), "conflicts": _findings(steps, "conflicts"),
            "dead_ends": _findings(steps, "dead_ends"), "nodes": search.nodes}


# --------------------------------------------------------------------------- answers
def _others(table: C.Table, seat: int) -> str:
    """The seats other than ``seat``, in words ("E and S")."""
    names = [C.SEATS[s] for s in range(table.seats) if s != seat]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def answer_solve(rs: Ruleset, req: Mapping) -> dict:
    """The tricks each side takes from a position with best play by both (double dummy), and a line.  Where each
    plays alone, each seat's count is its own question (the most it takes against all the others), and the
    line is the seat to play's."""
    pos = position_of(rs, req)
    table = C.table_of(rs.params)
    if table.partners and table.sides == 2:
        search, value, steps = _searched(rs, pos, Goal.of_team(0, 0b0101), req)
        return {**_described(rs, pos, search, steps),
                "tricks": {"NS": value, "EW": search.remaining - value}}
    tricks, nodes, names = {}, 0, table.side_names
    for k in range(table.sides):       # the side of the seat to play last: its search gives the line
        side = table.side_of((pos.to_play + 1 + k) % table.seats)
        seats = sum(1 << seat for seat in table.members(side))
        search, value, steps = _searched(rs, pos, Goal(seats, seats), req, with_line=k == table.sides - 1)
        tricks[names[side]], nodes = value, nodes + search.nodes
    who, how = ("partnership", "plays for itself") if table.partners else ("player", "plays alone")
    return {**_described(rs, pos, search, steps), "nodes": nodes,
            "tricks": {name: tricks[name] for name in names},
            "why": f"each {who} {how}: each count is the most tricks that {who} takes against all the others "
                   f"playing to hold it down; the line is the {who} to play's"}


def answer_alone(rs: Ruleset, req: Mapping, seat: int) -> dict:
    """The most tricks ``seat`` takes from a position playing alone against everyone else's best play, and a line
    (``tricks``: that count): one seat's question of ``answer_solve`` at a table without partners."""
    pos = position_of(rs, req)
    search, value, steps = _searched(rs, pos, Goal(1 << seat, 1 << seat), req)
    return {**_described(rs, pos, search, steps), "seat": C.SEATS[seat], "tricks": value}


def answer_claim(rs: Ruleset, req: Mapping) -> dict:
    """Whether a side (where each plays alone: a player) surely takes at least k of the remaining tricks against
    everyone else's best defence; the defence that beats the claim, or a line for the claimer."""
    pos = position_of(rs, req)
    table = C.table_of(rs.params)
    claim = req.get("claim")
    names = table.side_names
    if not isinstance(claim, Mapping):
        quoted = " or ".join(f'"{name}"' for name in names)
        raise InputError(f'expected {{"side": {quoted}, "tricks": k}}', "claim")
    side = F.team_of(claim.get("side"), "claim.side", table)
    size = rs.params["deal.hand_size"]
    need = F.whole(claim.get("tricks"), "claim.tricks", 0, size - pos.number + 1)
    seats = sum(1 << seat for seat in table.members(side))
    search, value, steps = _searched(rs, pos, Goal(seats, seats), req)
    holds = value >= need
    name, left = names[side], search.remaining
    if table.partners:
        why = (f"{name} take at least {value} of the {left} tricks left against any defence; the line shows one "
               "way" if holds else f"against best defence {name} take only {value} of the {left} tricks left; the "
               "line is a defence that beats the claim")
    else:
        others = _others(table, side)
        why = (f"{name}, playing alone, takes at least {value} of the {left} tricks left against any defence by "
               f"{others}; the line shows one way" if holds else f"against best defence by {others}, {name} alone "
               f"takes only {value} of the {left} tricks left; the line is a defence that beats the claim")
    return {**_described(rs, pos, search, steps), "claim": {"side": name, "tricks": need},
            "holds": holds, "best": value, "why": why}


def answer_nil(rs: Ruleset, req: Mapping) -> dict:
    """Whether the nil bidder can take no trick from here against best defence: partner helping, or where each
    plays alone, the nil bidder alone against everyone else."""
    pos = position_of(rs, req)
    table = C.table_of(rs.params)
    seat = F.seat_of(req.get("nil"), "nil", table)
    name = C.SEATS[seat]
    if table.partners:
        mine = sum(1 << member for member in table.members(table.side_of(seat)))
        goal = Goal(((1 << table.seats) - 1) & ~mine, 1 << seat)
        makes, forced = f"{name} takes no trick against any defence", f"the defence forces {name}"
    else:
        others = _others(table, seat)
        goal = Goal(((1 << table.seats) - 1) & ~(1 << seat), 1 << seat)
        makes = f"{name}, playing alone, takes no trick against any defence by {others}"
        forced = f"{others}, defending together, force {name}" if table.seats > 2 else f"{others} forces {name}"
    search, value, steps = _searched(rs, pos, goal, req)
    return {**_described(rs, pos, search, steps), "nil": name, "makes": value == 0, "forced_tricks": value,
            "why": (f"{makes}; the line shows how" if value == 0 else
                    f"{forced} to take {value} trick(s); the line shows how")}


KINDS = {"solve": answer_solve, "claim": answer_claim, "nil": answer_nil}
