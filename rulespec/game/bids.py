"""Bids: the bid values, parsing, and the bid rules (what a seat or a partnership may bid).

Seats are 0..3 (N E S W, clockwise), teams 0 (NS) and 1 (EW); cards are ids
and sets of cards bit masks (see ``core.cards``).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..core import cards as C
from ..core.contexts import ARGS
from ..core.schema import CONTEXTS
from ..errors import GameError
from ..model.ruleset import Ruleset, per_ruleset
from ..procedure.bidding import BID_RULES
from ..procedure.lang import K_PENDING
from .steps import KIND_CODE, steps_of

REGULAR, NIL, BLIND_NIL, BLIND = "regular", "nil", "blind_nil", "blind"


@dataclass(frozen=True)
class Bid:
    """A seat's bid: a regular number of tricks, nil, blind nil, or a blind team bid of n."""
    kind: str
    n: int = 0

    def __str__(self) -> str:
        if self.kind == REGULAR:
            return str(self.n) if self.n else "zero"
        return _BID_WORDS.get(self.kind) or f"blind {self.n}"

    @property
    def is_nil(self) -> bool:
        return self.kind in NILS


NILS = (NIL, BLIND_NIL)
_BID_WORDS = {NIL: "nil", BLIND_NIL: "blind nil"}
_BLIND_RE = re.compile(r"^blind[\s_-]*([0-9]+)$")
MAX_BID = 99    # tricks; more than any hand holds, few enough digits for any rule's arithmetic


def parse_bid(value, field: str = "bid") -> Bid:
    """``5``, ``"5"``, ``0``/``"nil"``, ``"zero"`` (no tricks as an ordinary contract), ``"blind nil"``,
    ``"blind 7"``."""
    if isinstance(value, bool):
        raise GameError(f"a bid is a number, 'nil', 'zero', 'blind nil' or 'blind N', not {value!r}", field)
    if isinstance(value, int):
        return _number_bid(value, field)
    if isinstance(value, str):
        bid = _text_bid(value.strip().lower(), field)
        if bid is not None:
            return bid
    if isinstance(value, str) and any(ch.isdigit() and not ch.isascii() for ch in value):
        raise GameError(f"not a bid: {value[:40]!r}: write numbers with the digits 0-9", field)
    raise GameError(f"not a bid: {value[:40] if isinstance(value, str) else value!r} "
                    "(use a number, 'nil', 'zero', 'blind nil' or 'blind N')", field)


def _number_bid(value: int, field: str) -> Bid:
    if value < 0:
        raise GameError(f"a bid cannot be negative ({value})", field)
    if value > MAX_BID:
        raise GameError(f"a bid is at most {MAX_BID} tricks", field)
    return Bid(NIL) if value == 0 else Bid(REGULAR, value)


def _text_bid(text: str, field: str) -> Bid | None:
    """A bid written as text, or None when the text is not one."""
    if text.isascii() and text.isdigit():    # (str.isdigit also accepts '²', which int() refuses)
        if len(text.lstrip("0")) > len(str(MAX_BID)):   # before int(): thousands of digits are slow
            raise GameError(f"a bid is at most {MAX_BID} tricks", field)
        return _number_bid(int(text.lstrip("0") or "0"), field)
    if text in ("nil", "null", "naught"):
        return Bid(NIL)
    if text == "zero":          # a contract of no tricks, not a nil (rule bid.zero)
        return Bid(REGULAR, 0)
    if text.replace("_", " ").replace("-", " ") in ("blind nil", "blindnil"):
        return Bid(BLIND_NIL)
    match = _BLIND_RE.match(text)
    if match:
        digits = match.group(1).lstrip("0") or "0"
        if len(digits) > len(str(MAX_BID)) or int(digits) > MAX_BID:
            raise GameError(f"a blind bid is at most {MAX_BID} tricks", field)
        return Bid(BLIND, int(digits))
    return None


# --------------------------------------------------------------------------- bid rules
def team_basics(rs: Ruleset, scores: Sequence[int], bags: Sequence[int], team: int) -> tuple[int, int, int, int]:
    """A side's score and bags, and its rival's (``core.cards.Table.rival``: the other partnership, or the leader
    among the other players)."""
    table = C.table_of(rs.params)
    if table is C.FOUR:
        return scores[team], bags[team], scores[1 - team], bags[1 - team]
    scores, bags = table.padded(scores), table.padded(bags)
    other = table.rival(scores, team)
    return scores[team], bags[team], scores[other], bags[other]


def _code(bid: Bid | None) -> tuple[int, int]:
    """A bid as the lowered form's kind code and number (no bid yet: pending)."""
    return (K_PENDING, 0) if bid is None else (KIND_CODE[bid.kind], bid.n)


class _BidNotes:
    """The bid rules' notes as explanation steps: every rule consulted (into ``checked``, when given) and
    every refusal (``refusals``), with the words of each."""

    def __init__(self, rs: Ruleset, bid: Bid, partner: Bid | None, scores, team: int, checked: list | None):
        self.rs, self.bid, self.partner, self.team = rs, bid, partner, team
        self.scores = C.table_of(rs.params).padded(scores)
        self.checked = checked
        self.refusals: list[dict] = []

    def note(self, kind: str, name: str = "", *values) -> None:
        rs = self.rs
        if kind == "checked":
            if self.checked is not None and not rs.rules[name].neutral:    # (no variant's rule: not in the trail)
                value = values[0]
                self.checked.append(rs.step(name, bool(value) if name == "bid.team_valid" else value))
        elif kind == "unchecked":
            if self.checked is not None:
                self.checked.append(rs.step(name, None, "not checked: depends on the cards held"))
        elif kind == "blind_pair":
            self.refusals.append({"rule": "blind_bid.allowed", "cite": rs.rules["blind_bid.allowed"].cite,
                                  "why": "a blind team bid is the partnership's bid: both partners name the same "
                                         "'blind N'"})
        else:
            self.refusals.append(self.refusal(kind, name, values))

    def refusal(self, kind: str, name: str, values: tuple) -> dict:
        rs, bid = self.rs, self.bid
        if kind == "refused_range":
            low, high = values
            why = (f"a regular bid must be from {low} to {high} here" if low <= high
                   else "no regular bid is possible here")
            return rs.step(name, low if name == "bid.regular_min" else high, why)
        if kind == "refused_kind":
            scores, team = self.scores, self.team
            why = {"nil.allowed": "nil is not allowed here",
                   "bid.zero": "a bid of zero tricks (no nil) is not allowed here",
                   "blind_nil.allowed": f"blind nil is not allowed here (team {scores[team]}, opponents "
                                        f"{scores[C.table_of(rs.params).rival(scores, team)]})",
                   "blind_bid.allowed": f"a blind team bid of {bid.n} is not allowed here"}[name]
            return rs.step(name, False, why)
        if kind == "refused_table":
            made, total, tricks = values
            so_far = f"the {made} bid{'s' if made != 1 else ''} so far name{'s' if made == 1 else ''} {total}" \
                if made else "no one has bid yet"
            return rs.step(name, False, f"{so_far}; with this bid of {tricks} the bids would total {total + tricks}, "
                                        "which this rule does not allow")
        if kind == "refused_contract":
            limit, contract = values
            side = "below" if name == "bid.team_min" else "above"
            return rs.step(name, limit, f"the partnership's contract {contract} is {side} {limit}")
        pair = ", ".join(str(b) for b in (self.partner, bid))
        return rs.step("bid.team_valid", False, f"this pair of bids ({pair}) is not allowed")


def team_contract(rs: Ruleset, pair: Sequence[Bid | None], scores=(0, 0), bags=(0, 0), team: int = 0) -> int:
    """The contract a partnership plays for (a blind team bid's n, else rule bid.team_contract); a player alone's
    with None as the partner's bid (as the lowered form scores it: no partner's bid counts)."""
    (ka, na), (kb, nb) = _code(pair[0]), _code(pair[1])
    return steps_of(rs).contract_of(ka, na, kb, nb, *team_basics(rs, scores, bags, team))


def team_refusals(rs: Ruleset, pair: Sequence[Bid], scores, bags, team: int, checked: list | None = None) -> list:
    """Why a partnership's pair of bids is not allowed (empty list: allowed), as explanation steps;
    ``checked`` receives a step for every rule consulted."""
    notes = _BidNotes(rs, pair[1], pair[0], scores, team, checked)
    (pk, pn), (kind, n) = _code(pair[0]), _code(pair[1])
    steps_of(rs).pair_refusal__x(notes, pk, pn, kind, n, False, *team_basics(rs, scores, bags, team))
    return notes.refusals


def table_of(seat: int, bids: Sequence[Bid | None], table: C.Table = C.FOUR) -> tuple[int, int, int, int]:
    """The bids so far as rule ``bid.table_valid`` sees them from ``seat`` (the lowered form's ``table_of``): how
    many others have bid, the tricks they name, how many of the other sides and the tricks they named."""
    named = [(s, b.n if b.kind in (REGULAR, BLIND) else 0) for s, b in enumerate(bids) if b is not None and s != seat]
    opponents = [n for s, n in named if table.side_of(s) != table.side_of(seat)]
    return len(named), sum(n for _, n in named), len(opponents), sum(opponents)


def bid_refusals(rs: Ruleset, seat: int, bid: Bid, *, hand: int | None, dealer: int,
                 bids: Sequence[Bid | None], scores=(0, 0), bags=(0, 0), checked: list | None = None) -> list[dict]:
    """Why ``seat`` may not make ``bid`` given the bids so far (empty list: allowed).

    With ``hand=None`` (cards unknown) rules that depend on the hand are not checked.
    ``checked``, when given, receives a step for every rule consulted (its value and citation)."""
    table = C.table_of(rs.params)
    team = table.side_of(seat)
    partner = _partner_bid(table, seat, bids)
    notes = _BidNotes(rs, bid, partner, scores, team, checked)
    kind, n = _code(bid)
    steps_of(rs).bid_refusal__x(notes, kind, n, hand or 0, seat, dealer, _position(rs, seat, dealer),
                                *_code(partner), *team_basics(rs, scores, bags, team),
                                *table_of(seat, bids, table), hand is not None)
    return notes.refusals


def _position(rs: Ruleset, seat: int, dealer: int) -> int:
    """A seat's place in the bidding (1 for the first bidder)."""
    return (seat - seat_rule(rs, "deal.first_bidder", dealer)) % rs.params["table.seats"] + 1


def _partner_bid(table: C.Table, seat: int, bids: Sequence[Bid | None]) -> Bid | None:
    """The bid of ``seat``'s partner so far (None: not yet, or no partner)."""
    partner = table.partner(seat)
    return None if partner is None else bids[partner]


def bid_candidates(rs: Ruleset) -> list[Bid]:
    """The bids a seat chooses among, in the lowered form's order (``bidding.candidate``)."""
    size = rs.params["deal.hand_size"]
    return ([Bid(REGULAR, n) for n in range(1, size + 1)] + [Bid(NIL), Bid(BLIND_NIL)]
            + [Bid(BLIND, n) for n in range(1, size + 1)] + [Bid(REGULAR, 0)])


REGULAR_BIDS = tuple(Bid(REGULAR, n) for n in range(64))
BLIND_BIDS = tuple(Bid(BLIND, n) for n in range(64))
NIL_BID, BLIND_NIL_BID = Bid(NIL), Bid(BLIND_NIL)


_BID_MEMO_LIMIT = 4096
_candidates = per_ruleset(lambda rs: tuple(bid_candidates(rs)))


_TABLE_NAMES = frozenset(CONTEXTS["table_bid"]) - frozenset(CONTEXTS["bid"]) - {"bid.tricks"}
_SCORE_NAMES = frozenset(("team.score", "team.bags", "opponents.score", "opponents.bags"))


@per_ruleset
def _bid_memo(rs: Ruleset) -> tuple[bool, bool, bool, dict, C.Table]:
    """Which of the inputs that vary from bid to bid a bid rule of ``rs`` names (the hand, the other bids so
    far, the scores), its ``legal_bids`` answers by their inputs, and its table."""
    asked = (*BID_RULES, "bid.team_contract")      # (the pair's refusal works out the side's contract too)
    named = frozenset().union(*(rs.rules[name].names for name in asked if name in rs.rules))
    return (not rs.hand_rules.isdisjoint(BID_RULES), not named.isdisjoint(_TABLE_NAMES),
            not named.isdisjoint(_SCORE_NAMES), {}, C.table_of(rs.params))


def legal_bids(rs: Ruleset, seat: int, hand: int, dealer: int, bids, scores, bags) -> list[Bid]:
    """Every bid ``seat`` may make now: the candidates (``bid_candidates``) the lowered form's
    ``legal_bids`` allows.  Memoised per ruleset (rules are pure) on every input the rules see; the hand, the
    other bids so far and the scores are part of the key only when a bid rule names them."""
    reads_hand, reads_table, reads_scores, answers, seating = _bid_memo(rs)
    pbid = _partner_bid(seating, seat, bids)
    table = table_of(seat, bids, seating) if reads_table else None
    key = (seat, dealer, pbid and (pbid.kind, pbid.n), (tuple(scores), tuple(bags)) if reads_scores else None,
           hand if reads_hand else None, table)
    found = answers.get(key)
    if found is None:
        if len(answers) >= _BID_MEMO_LIMIT:
            answers.clear()
        found = answers[key] = tuple(_legal_bids(rs, seat, hand, dealer, pbid, scores, bags,
                                                 table or table_of(seat, bids, seating)))
    return list(found)


def _legal_bids(rs: Ruleset, seat: int, hand: int, dealer: int, pbid: Bid | None, scores, bags,
                table: tuple[int, int, int, int]) -> list[Bid]:
    """``legal_bids`` without the memo (``pbid``: the partner's bid so far; ``table``: ``table_of``)."""
    options = [False] * len(_candidates(rs))
    steps_of(rs).legal_bids(options, hand, seat, dealer, _position(rs, seat, dealer), *_code(pbid),
                            *team_basics(rs, scores, bags, C.table_of(rs.params).side_of(seat)), *table)
    return [b for b, ok in zip(_candidates(rs), options) if ok]


def seat_rule(rs: Ruleset, rule: str, dealer: int) -> int:
    """A seating rule (``deal.first_bidder``, ``play.first_leader``, ``deal.next_dealer``) for ``dealer``."""
    return rs.fn[rule](*ARGS["seating"](dealer=dealer))


def exchange_count(rs: Ruleset, bid: Bid | None, partner: Bid | None) -> int:
    """How many cards a seat that bid ``bid`` passes to its partner (who bid ``partner``, None: not yet) and takes
    back after the bids: a blind nil's exchange, a nil's pass beside a number (the lowered form's)."""
    if bid is None:
        return 0
    return steps_of(rs).exchange_count(_code(bid)[0], _code(partner)[0])
