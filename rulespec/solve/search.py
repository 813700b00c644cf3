"""Double-dummy search of a card-play position under a variant's own rules.

The legal sets, trumps breaking and the trick winner are generated per ruleset from
the lowered form's card play (``procedure.card_play``'s ``legal`` with each rule's
checked expression inlined, ``procedure.python.inlined_function``), so the search plays exactly
as ``HandState`` does, at any table (2 to 6 seats, partners or each alone).  The search answers one question
at a time, "can the seats of ``Goal.side`` make the ``counted`` seats take at least ``need`` of the remaining
tricks, every other seat playing against?" (null-window alpha-beta over single cards), with a transposition
table of trick
bounds at trick boundaries (first set, where ``quick.Shape`` shows the rules allow
it, from either side's sure tricks), move ordering, and, where
``symmetry.equivariant`` proves it sound for the variant, same-suit cards adjacent
in power searched once and positions keyed on their rank-normalised hands; where
``partition`` shows it sound, bounds after the first trick are keyed on the cards that
mattered to them only, so one entry matches many positions.  The inner loop is
generated per ruleset (``generated``).  ``Search.value`` finds the
exact count by bisection on ``need``; ``Search.line`` gives a principal line.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core import cards as C
from ..errors import SearchBudgetError
from ..game.play import legal_cards
from ..game.steps import bad_winner
from ..procedure.python import inlined_function
from ..lang.compiler import NONE, make_env
from ..model.ruleset import Ruleset, per_ruleset
from . import generated
from .partition import Table, rank_free_breaks
from .quick import Shape
from .symmetry import equivariant, suit_orders

_CHECK_EVERY = 4096     # nodes between two looks at the clock
_TABLES = ("_RANK", "_NSUIT", "_SUIT", "_POW", "_SM")


@dataclass
class Position:
    """A card-play position: cards left per seat, the trick so far (leader first) and its leader,
    the trick number, whether trumps are broken, and every card played so far."""
    hands: list[int]
    leader: int
    trick: list[int]
    number: int
    broken: bool
    played: int

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)


@dataclass(frozen=True)
class Goal:
    """The seats in ``side`` (a mask) try to make the seats in ``counted`` (a mask) win tricks; every other seat
    tries to stop them.  In partnerships a side is a partnership (``of_team``); a player alone is a side of one
    seat, against everyone else at the table."""
    side: int
    counted: int

    @classmethod
    def of_team(cls, team: int, counted: int) -> Goal:
        """``team``'s partnership (0 N/S, 1 E/W) trying for ``counted``."""
        return cls(0b0101 << team, counted)

    @property
    def team(self) -> int:
        """The side's partnership (0 N/S, 1 E/W), at four seats in partnerships."""
        return 0 if self.side & 1 else 1


@dataclass
class Budget:
    """Limits on one search: nodes (cards tried) and seconds; None is unlimited."""
    nodes: int | None = None
    seconds: float | None = None


@dataclass
class Step:
    """One card of a line: who played it, and the rules' conflicts and dead ends met on the way."""
    seat: int
    card: int
    winner: int | None = None            # set on the trick's fourth card
    conflicts: list[dict] = field(default_factory=list)
    dead_ends: list[dict] = field(default_factory=list)


def rules_source(rs: Ruleset, partition: bool) -> str:
    """The generated functions: the legal set leading and following and trumps breaking (the lowered form's
    ``legal`` and ``breaks``, the rules inlined), and the search's inner loop (``generated``)."""
    lead = {"leading": True, "trick_position": 1, "trick_cards": 0, "trick_led_suit": NONE}
    return "\n".join([
        inlined_function(rs, "legal", generated.NAMES, lead, "legal_lead"),
        inlined_function(rs, "legal", generated.NAMES, {"leading": False}, "legal_follow"),
        inlined_function(rs, "breaks", generated.NAMES),
        generated.source(rs, partition),
    ])


class Rules:
    """One ruleset's generated card-play functions and the tables the search needs."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.suit_of, self.power = rs.suit_of, rs.power
        self.symmetric = equivariant(rs)
        # the sure tricks (and with them the entries on the relevant cards) are argued for partnerships of four
        self.shape = Shape.of(rs) if C.table_of(rs.params) is C.FOUR else None
        self.orders = suit_orders(rs)
        self.suit_masks = tuple(C.mask_of(order) for order in self.orders)
        self.unsuited = rs.deck & ~(self.suit_masks[0] | self.suit_masks[1] | self.suit_masks[2]
                                    | self.suit_masks[3])
        # entries on the relevant cards only: follow-suit, trump-wins tricks, a rank-free trump break,
        # and every card in one of the four suits
        self.partition = self.shape is not None and not self.unsuited and rank_free_breaks(rs)
        rule_env = rs.fn["trick.winner"].__globals__
        env = make_env({name: rule_env[name] for name in _TABLES})
        env["NONE"] = NONE
        exec(compile(rules_source(rs, self.partition), f"<solve {rs.id}>", "exec"),  # noqa: S102 - templates
             env)                                                                      # + checked rules
        self.legal_lead: Callable[[int, int, bool, int], int] = env["legal_lead"]
        self.legal_follow: Callable[[int, int, int, int, int, bool, int], int] = env["legal_follow"]
        self.breaks: Callable[[int, int, bool, int, int], bool] = env["breaks"]
        self.wins: dict[int, int] = {}     # (cards, lead, number) -> the card trick.winner names
        self.winner: Callable[[int, int, int, int], int] = env["memo_winner"](self.wins)
        self.bind = env["bind"]
        self.normal: dict[tuple[int, ...], tuple[int, ...]] = {}   # per suit: seats' cards -> rank-normalised
        self.runs: dict[tuple[int, int], tuple[int, ...]] = {}      # (cards allowed, cards live) -> run heads
        self.joined: dict[tuple[int, int], tuple[int, ...]] = {}    # (cards allowed, cards live) -> runs of 2+

    def run_heads(self, suit: int, allowed: int, live: int) -> tuple[int, ...]:
        """The highest card of each run of ``allowed`` cards of ``suit`` adjacent in power among ``live``."""
        heads, run = [], False
        for card in self.orders[suit]:
            if live >> card & 1:
                mine = bool(allowed >> card & 1)
                if mine and not run:
                    heads.append(card)
                run = mine
        return tuple(heads)

    def long_runs(self, suit: int, allowed: int, live: int) -> tuple[int, ...]:
        """The runs (as masks) of two or more ``allowed`` cards of ``suit`` adjacent in power among ``live``."""
        runs, run = [], 0
        for card in self.orders[suit]:
            if live >> card & 1:
                if allowed >> card & 1:
                    run |= 1 << card
                    continue
                if run & (run - 1):
                    runs.append(run)
                run = 0
        if run & (run - 1):
            runs.append(run)
        return tuple(runs)

    def normalise(self, suit: int, parts: tuple[int, ...]) -> tuple[int, ...]:
        """The seats' cards of ``suit`` relabelled to the suit's top cards, keeping their order in power."""
        out = [0] * len(parts)
        slots = iter(self.orders[suit])
        for card in self.orders[suit]:
            for seat in range(len(parts)):
                if parts[seat] >> card & 1:
                    out[seat] |= 1 << next(slots)
                    break
        return tuple(out)


rules_for = per_ruleset(Rules)     # ``rs``'s generated search functions, built once per ruleset


def _held(h: list[int]) -> int:
    """The cards in the hands (four places, or a table's five or six)."""
    if len(h) == 4:
        return h[0] | h[1] | h[2] | h[3]
    held = 0
    for hand in h:
        held |= hand
    return held


def _parts(h: list[int], mask: int) -> tuple[int, ...]:
    """Each hand's cards of ``mask``, by seat."""
    if len(h) == 4:
        return (h[0] & mask, h[1] & mask, h[2] & mask, h[3] & mask)
    return tuple(hand & mask for hand in h)


def check_goal(table: C.Table, pos: Position, goal: Goal) -> None:
    """Refuse a position or goal that does not fit ``table``: a hand per seat, and a side of one or more seats
    against one or more others (at four seats in partnerships, a partnership)."""
    seats = (1 << table.seats) - 1
    if len(pos.hands) != table.seats:
        raise ValueError(f"a position at this table has {table.seats} hands, not {len(pos.hands)}")
    if not 0 < goal.side < seats or goal.side & ~seats or goal.counted & ~seats:
        raise ValueError(f"goal {goal} does not fit a table of {table.seats} seats")
    if table is C.FOUR and goal.side not in (0b0101, 0b1010):
        raise ValueError(f"goal {goal}: at four seats in partnerships a side is a partnership")


class Search:
    """Double-dummy search from ``pos`` for ``goal``, within ``budget``."""

    def __init__(self, rs: Ruleset, pos: Position, goal: Goal, budget: Budget | None = None):
        table = C.table_of(rs.params)
        check_goal(table, pos, goal)
        self.rules = rules_for(rs)
        self.rs, self.root, self.goal = rs, pos, goal
        self.seats = table.seats
        # the last trick: the hand's, or sooner for a position dealt short (e.g. a few cards from trick 1)
        self.last = pos.number - 1 + pos.hands[pos.leader].bit_count() + (1 if pos.trick else 0)
        # one hand per seat, padded with empty ones to four (the masks of the cards in play read at least four)
        self.hands = list(pos.hands) + [0] * (table.places - table.seats)
        self.trick = list(pos.trick)
        self.tt: dict[tuple, tuple[int, int]] = {}
        # with ``partition``: the bounds keyed on the cards that mattered, the cards that matter in the
        # subtree being searched (``rel``), and the sure-trick bounds by position
        self.table = Table(self.rules.orders) if self.rules.partition else None
        self.rel = 0
        self.sure: dict[tuple, tuple[int, int, int, int]] = {}
        # quick tricks count for a side: only when the goal counts both of a team's seats (``Shape``: only at four
        # seats in partnerships)
        self.quick = self.rules.shape if goal.counted == goal.side else None
        for memo in (self.rules.wins, self.rules.normal, self.rules.runs, self.rules.joined):
            if len(memo) > generated.WINS_MAX:      # each memo per ruleset starts afresh past this size
                memo.clear()
        self.nodes = 0
        budget = budget or Budget()
        self.max_nodes = budget.nodes
        self.deadline = None if budget.seconds is None else time.monotonic() + budget.seconds
        self.budget = budget
        self.next_check = 0     # the node count at which to look at the budget again
        self._bind()

    def _bind(self) -> None:
        """The generated inner loop (``generated``), bound to this search: ``_play`` and ``_after``."""
        self._play, self._after = self.rules.bind(self, self.hands, self.trick, self.goal.counted, self.goal.side,
                                                  self._boundary, self._moves, self._check, bad_winner, self.rs,
                                                  self.rules.wins, self.close)

    # ------------------------------------------------------------------ answers
    @property
    def remaining(self) -> int:
        """Tricks left to play, the one in progress included."""
        return self.last - self.root.number + 1

    def can(self, need: int) -> bool:
        """Whether the goal's team can make its counted seats take ``need`` of the remaining tricks."""
        pos = self.root
        if not pos.trick:
            return self._boundary(pos.leader, pos.number, pos.broken, pos.played, need)
        led, mask = self.rules.suit_of[pos.trick[0]], C.mask_of(pos.trick)
        return self._play(pos.leader, len(pos.trick), mask, led, pos.trick[0], pos.number, pos.broken,
                          pos.played, need)

    def value(self) -> int:
        """The number of remaining tricks the counted seats take with best play by both teams."""
        return self._bisect(0, self.remaining)

    def _bisect(self, low: int, high: int) -> int:
        """The value, known to lie within ``low`` to ``high``: the most tricks the team can make, by bisection."""
        while low < high:
            mid = (low + high + 1) // 2
            if self.can(mid):
                low = mid
            else:
                high = mid - 1
        return low

    def line(self, value: int) -> list[Step]:
        """A principal line from the root: each seat plays a card that keeps the result at ``value``."""
        pos = self.root
        leader, number, broken, played = pos.leader, pos.number, pos.broken, pos.played
        trick = list(pos.trick)
        steps: list[Step] = []
        seats = self.seats
        while self.hands[(leader + len(trick)) % seats]:
            seat = (leader + len(trick)) % seats
            step = self._best(seat, leader, trick, number, broken, played, value)
            steps.append(step)
            broken = broken or self.rules.breaks(step.card, self.hands[seat], not trick,
                                                 self.rules.suit_of[trick[0]] if trick else NONE, number)
            self.hands[seat] &= ~(1 << step.card)
            trick.append(step.card)
            played |= 1 << step.card
            if len(trick) == seats:
                step.winner = leader = self._winner_seat(leader, trick, number)
                value -= self.goal.counted >> leader & 1
                trick, number = [], number + 1
        self.hands[:seats] = pos.hands
        return steps

    # ------------------------------------------------------------------ the line
    def _best(self, seat: int, leader: int, trick: list[int], number: int, broken: bool, played: int,
              value: int) -> Step:
        """The first card (in search order) that keeps the counted seats' tricks at ``value``."""
        rules, hand = self.rules, self.hands[seat]
        legal = legal_cards(self.rs, hand, trick, number, broken, played)
        led = rules.suit_of[trick[0]] if trick else NONE
        mask, lead = C.mask_of(trick), trick[0] if trick else NONE
        maximising = bool(self.goal.side >> seat & 1)
        need = value if maximising else value + 1
        saved = self.trick[:]
        self.trick[:] = trick
        moves = self._moves(seat, legal.cards, mask, led, lead, number, maximising)
        # ``value`` is the position's value, so some card keeps it: when all but the last fail, the last does
        # (and one card, or one run of interchangeable cards, is no choice at all: nothing is searched)
        choice = next((card for card in moves[:-1] if self._after(seat, hand, card, leader, len(trick), mask, led,
                                                                  lead, number, broken, played, need) is maximising),
                      moves[-1])
        self.trick[:] = saved
        return Step(seat, choice, conflicts=legal.conflicts, dead_ends=legal.dead_ends)

    # ------------------------------------------------------------------ the search
    def _boundary(self, leader: int, number: int, broken: bool, played: int, need: int) -> bool:
        """At the start of a trick: bounds, the transposition table, then the trick's lead."""
        if need <= 0:
            return True
        if need > self.last - number + 1:
            return False
        if number == self.last:      # one card each: no choice left (a legal set is never empty)
            seat, card = self._last_trick(leader, number)
            h, suit = self.hands, self.rules.suit_masks[self.rules.suit_of[card]]
            if _held(h) & suit & ~(1 << card):     # it beat a card of its suit
                self.rel |= 1 << card
            return bool(self.goal.counted >> seat & 1) >= need
        if self.table is not None and number > 1:
            return self._partitioned(leader, number, broken, played, need)
        key = self._key(leader, broken)
        bounds = self.tt.get(key)
        if bounds is None:
            bounds = self.tt[key] = self.bounds(leader, number, broken)
        low, high = bounds
        if low >= need:
            return True
        if high < need:
            return False
        result = self._play(leader, 0, 0, NONE, NONE, number, broken, played, need)
        self.tt[key] = (need, high) if result else (low, need - 1)
        return result

    def _partitioned(self, leader: int, number: int, broken: bool, played: int, need: int) -> bool:
        """``_boundary`` after the first trick with entries on the relevant cards (``partition``): the
        sure-trick bounds, the entries that match, else the search, its bound stored with the cards that
        mattered (which the caller's subtree then relies on too)."""
        table = self.table
        views = table.view(self.hands, self.rules.suit_masks)
        bucket = table.bucket(leader, broken, views)
        exact = (bucket, views[0].codes[-1], views[1].codes[-1], views[2].codes[-1], views[3].codes[-1])
        sure = self.sure.get(exact)
        if sure is None:
            low, high, low_read, high_read = self._sure(leader, number, broken)
            sure = self.sure[exact] = (low, high, tuple(view.depth(low_read) for view in views),
                                       tuple(view.depth(high_read) for view in views))
        low, high, low_depths, high_depths = sure
        if low >= need or high < need:
            depths = low_depths if low >= need else high_depths
            self.rel |= views[0].tops[depths[0]] | views[1].tops[depths[1]] | views[2].tops[depths[2]] \
                | views[3].tops[depths[3]]
            return low >= need
        verdict, used = table.look(bucket, views, need)
        if verdict is not None:
            self.rel |= used
            return verdict
        outer, self.rel = self.rel, 0
        result = self._play(leader, 0, 0, NONE, NONE, number, broken, played, need)
        rel = self.rel
        self.rel = outer | rel
        table.store(bucket, views, rel, need if result else 0, self.last - number + 1 if result else need - 1)
        return result

    def close(self, seat: int, allowed: int, trick_mask: int) -> None:
        """After ``seat`` tried every card of ``allowed`` (one of each run of interchangeable cards): a run
        any of whose cards matters matters whole, since its other cards stand for the one tried."""
        rel = self.rel
        if not rel:
            return
        rules, h = self.rules, self.hands
        live = _held(h) | trick_mask
        for suit, mask in enumerate(rules.suit_masks):
            mine = allowed & mask
            if mine & (mine - 1):
                key = (mine, live & mask)
                runs = rules.joined.get(key)
                if runs is None:
                    runs = rules.joined[key] = rules.long_runs(suit, *key)
                for run in runs:
                    if rel & run:
                        rel |= run
        self.rel = rel

    def bounds(self, leader: int, number: int, broken: bool) -> tuple[int, int]:
        """Bounds on the counted seats' tricks before any search: the tricks left, narrowed (when the
        rules are shown to allow it, ``quick.Shape``) by the sure tricks of either side: trump tricks
        (``quick.Shape.trump_tricks``), and the leader's quick tricks after the first trick."""
        return self._sure(leader, number, broken)[:2]

    def _sure(self, leader: int, number: int, broken: bool) -> tuple[int, int, int, int]:
        """``bounds``, and the cards whose holders the lower and the upper bound read (of the others they
        read only the hands' lengths in each suit)."""
        left = self.last - number + 1
        shape = self.quick
        if shape is None:
            return 0, left, 0, 0
        hands, team = self.hands, self.goal.team
        ours, ours_read = shape.trump_tricks(hands, team)
        theirs, theirs_read = shape.trump_tricks(hands, 1 - team)
        if number > 1:
            cashed, read = shape.tricks(hands, leader, broken)
            if leader & 1 == team and cashed > ours:
                ours, ours_read = cashed, read
            elif leader & 1 != team and cashed > theirs:
                theirs, theirs_read = cashed, read
        return ours, left - theirs, ours_read, theirs_read

    def _last_trick(self, leader: int, number: int) -> tuple[int, int]:
        """The winner of the last trick, each seat playing its one card: the seat and its card."""
        h = self.hands
        seats = self.seats
        trick = [h[(leader + k) % seats].bit_length() - 1 for k in range(seats)]
        seat = self._winner_seat(leader, trick, number, _held(h))
        return seat, trick[(seat - leader) % seats]

    def _key(self, leader: int, broken: bool) -> tuple:
        h = self.hands
        rules = self.rules
        if not rules.symmetric:
            return (*h, leader, broken)
        key: list = [leader, broken]
        for suit, mask in enumerate(rules.suit_masks):
            parts = _parts(h, mask)
            normal = rules.normal.get(parts)
            if normal is None:
                normal = rules.normal[parts] = rules.normalise(suit, parts)
            key.append(normal)
        other = rules.unsuited
        key.append(_parts(h, other))
        return tuple(key)

    def _winner_seat(self, leader: int, trick: list[int], number: int, mask: int | None = None,
                     led: int | None = None) -> int:
        """The seat that played the card ``trick.winner`` names (the procedure's FINISH_TRICK)."""
        mask = C.mask_of(trick) if mask is None else mask
        led = self.rules.suit_of[trick[0]] if led is None else led
        win = self.rules.winner(mask, led, number, trick[0])
        if win < 0 or not mask >> win & 1:
            bad_winner(self.rs, win)
        return (leader + trick.index(win)) % self.seats

    def _moves(self, seat: int, allowed: int, trick_mask: int, led: int, lead: int, number: int,
               maximising: bool) -> list[int]:
        """The cards to try, best guesses first: one of each run of interchangeable cards."""
        cards = self._distinct(seat, allowed, trick_mask) if self.rules.symmetric else C.card_list(allowed)
        if len(cards) < 2:
            return cards
        power = self.rules.power
        if not self.trick:
            return sorted(cards, key=lambda c: -power[c])
        counted, winner, trick, seats = self.goal.counted, self.rules.winner, self.trick, self.seats
        leader = (seat - len(trick)) % seats

        def score(card: int) -> tuple[bool, int]:
            win = winner(trick_mask | 1 << card, led, number, lead)
            by = seat if win == card else (leader + trick.index(win)) % seats if win in trick else seat
            return (bool(counted >> by & 1) is not maximising, power[card])
        return sorted(cards, key=score)

    def _distinct(self, seat: int, allowed: int, trick_mask: int) -> list[int]:
        """``allowed`` less the cards interchangeable with one already given (``symmetry``)."""
        rules, h = self.rules, self.hands
        live = _held(h) | trick_mask
        runs = rules.runs
        out: list[int] = []
        for suit, mask in enumerate(rules.suit_masks):
            mine = allowed & mask
            if mine:
                key = (mine, live & mask)
                firsts = runs.get(key)
                if firsts is None:
                    firsts = runs[key] = rules.run_heads(suit, *key)
                out.extend(firsts)
        if allowed & rules.unsuited:
            out.extend(C.card_list(allowed & rules.unsuited))
        return out

    def _check(self) -> None:
        """Raise ``SearchBudgetError`` once the budget is spent; else say when to look again."""
        self.next_check = self.nodes + _CHECK_EVERY
        if self.max_nodes is not None:
            self.next_check = min(self.next_check, self.max_nodes + 1)
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            nodes = f"{self.max_nodes:,} node{'s' * (self.max_nodes != 1)}"
            raise SearchBudgetError(f"the search budget of {nodes} is spent", "budget",
                                    details={"nodes": self.nodes, "budget": self.budget.__dict__})
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise SearchBudgetError(f"the search budget of {self.budget.seconds:.3g} s is spent", "budget",
                                    details={"nodes": self.nodes, "budget": self.budget.__dict__})
