"""Exhaustive search of the bidding for dead ends: a seat left with no legal bid.

Where no bid rule reads the cards, a seat's legal bids depend only on the seat, the dealer, the scores and
the bids before it, so every bid sequence can be enumerated: depth first from the first bidder over each
seat's legal bids (with the nil bidder's partner's raises), memoised on what the later seats' rules can
see of the bids so far.  That is, per side, how many bids were made and the tricks they name (rule
``bid.table_valid``'s view), and the exact bid of each seat whose partner is still to bid (the team rules'
and the raise's view).  The raise round (``raise.by``) comes after every bid and always lets a seat keep
its bid, so it cannot leave a seat without one and is not searched.  Where a bid rule reads the cards the
bidding is left to the sampled explorers, and the record says so.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...core import cards as C
from ... import game as E
from ...game import BLIND, REGULAR, Bid
from ...model.ruleset import Ruleset
from ...procedure.bidding import BID_RULES

# Rules a bid or a raise before the raise round consults besides ``BID_RULES``.
_ALSO = ("bid.team_contract", "nil.partner_may_raise")
_SCORE_NAMES = frozenset(("team.score", "team.bags", "opponents.score", "opponents.bags"))


@dataclass
class DeadBid:
    """A seat with no legal bid: the bids before it (and the sequence that made them), the totals, and every
    rule that refused a candidate."""
    seat: int
    dealer: int
    bids: tuple
    sequence: list[str]
    scores: tuple
    bags: tuple
    refused: dict[str, list[str]]


@dataclass
class BiddingSearch:
    """What the exhaustive bidding search did, for the record."""
    method: str                       # "exhaustive" or "sampled"
    budget: int
    states: int = 0
    roots: int = 0
    roots_searched: int = 0
    complete: bool = True
    hand_rules: list[str] = field(default_factory=list)
    dead: dict[tuple, DeadBid] = field(default_factory=dict)   # by the rules refusing: the shortest example
    met: dict[tuple, int] = field(default_factory=dict)        # by the rules refusing: states met

    def as_dict(self) -> dict:
        return {"method": self.method, "state_budget": self.budget, "states_visited": self.states,
                "roots": self.roots, "roots_searched": self.roots_searched, "complete": self.complete,
                "hand_rules": self.hand_rules}


def _consulted(rs: Ruleset) -> list[str]:
    return [name for name in (*BID_RULES, *_ALSO) if name in rs.rules]


def reads_hand(rs: Ruleset) -> list[str]:
    """The bid rules that read the bidder's cards (empty: the bidding can be enumerated)."""
    return sorted(rs.hand_rules.intersection(_consulted(rs)))


def reads_scores(rs: Ruleset) -> bool:
    """Whether a bid rule reads the totals (then the bidding is searched from more than 0-0)."""
    return any(not rs.rules[name].names.isdisjoint(_SCORE_NAMES) for name in _consulted(rs))


def _named(bid: Bid) -> int:
    return bid.n if bid.kind in (REGULAR, BLIND) else 0


class _Walk:
    """One search from one dealer and one pair of totals."""

    def __init__(self, rs: Ruleset, search: BiddingSearch, dealer: int, scores, bags):
        self.rs, self.search = rs, search
        self.dealer, self.scores, self.bags = dealer, scores, bags
        self.table = C.table_of(rs.params)
        first = E.seat_rule(rs, "deal.first_bidder", dealer)
        self.order = [self.table.left(first, k) for k in range(self.table.seats)]
        self.seen: set = set()

    def key(self, bids: list, depth: int) -> tuple:
        """What the rules of the seats still to bid (and their raises) can see of ``bids``."""
        table = self.table
        sides = [(0, 0)] * table.sides
        for seat, bid in enumerate(bids):
            if bid is not None:
                count, named = sides[table.side_of(seat)]
                sides[table.side_of(seat)] = (count + 1, named + _named(bid))
        pending = self.order[depth:]
        partners = tuple(bids[p] if (p := table.partner(seat)) is not None else None for seat in pending)
        return depth, tuple(sides), partners

    def walk(self, bids: list, depth: int, path: list[str]) -> bool:
        """Search on from ``bids``; False once the state budget is used up."""
        if depth == len(self.order):
            return True
        key = self.key(bids, depth)
        if key in self.seen:
            return True
        if self.search.states >= self.search.budget:
            return False
        self.seen.add(key)
        self.search.states += 1
        seat = self.order[depth]
        options = E.legal_bids(self.rs, seat, 0, self.dealer, bids, self.scores, self.bags)
        if not options:
            self.dead_end(seat, bids, path)
        for bid in options:
            after = list(bids)
            after[seat] = bid
            step = [*path, f"{C.SEATS[seat]} {bid}"]
            partner = self.table.partner(seat)
            raises = self.raises(after, seat) if bid.is_nil and partner is not None and bids[partner] else []
            for raised in raises or [None]:
                if raised is not None and raised != after[partner]:
                    child = list(after)
                    child[partner] = raised
                    going = self.walk(child, depth + 1, [*step, f"{C.SEATS[partner]} raises to {raised}"])
                else:
                    going = self.walk(after, depth + 1, step)
                if not going:
                    return False
        return True

    def raises(self, bids: list, seat: int) -> list[Bid]:
        """The bids the partner of ``seat`` may raise to after its bid (``HandState.raise_options``)."""
        state = E.HandState(self.rs, [0] * self.table.seats, self.dealer, self.scores, self.bags)
        state.bids = list(bids)
        return state.raise_options(seat)

    def dead_end(self, seat: int, bids: list, path: list[str]) -> None:
        """Record a seat with no legal bid; the example kept is the shortest sequence found."""
        rs, refused = self.rs, {}
        for bid in E.bid_candidates(rs):
            for step in E.bid_refusals(rs, seat, bid, hand=None, dealer=self.dealer, bids=bids,
                                       scores=self.scores, bags=self.bags):
                refused.setdefault(step["rule"], []).append(str(bid))
        dead = DeadBid(seat, self.dealer, tuple(bids), path, self.scores, self.bags, refused)
        key = tuple(sorted(refused))
        best = self.search.dead.get(key)
        if best is None or len(path) < len(best.sequence):
            self.search.dead[key] = dead
        self.search.met[key] = self.search.met.get(key, 0) + 1


def search_bidding(rs: Ruleset, roots: list[tuple[tuple, tuple]], budget: int) -> BiddingSearch:
    """Every bid sequence from every dealer and pair of totals in ``roots`` (0-0 first), within ``budget``
    states; each dead end is kept with its shortest sequence.  Where a bid rule reads the cards nothing is
    searched (``method`` "sampled")."""
    hand = reads_hand(rs)
    if hand:
        return BiddingSearch("sampled", budget, hand_rules=hand)
    seats = rs.params["table.seats"]
    search = BiddingSearch("exhaustive", budget, roots=len(roots) * seats)
    for scores, bags in roots:
        for dealer in range(seats):
            if not _Walk(rs, search, dealer, scores, bags).walk([None] * seats, 0, []):
                search.complete = False
                return search
            search.roots_searched += 1
    return search
