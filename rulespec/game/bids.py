"""Bids: the bid values, parsing, and the bid rules (what a seat or a partnership may bid).

Seats are 0..3 (N E S W, clockwise), teams 0 (NS) and 1 (EW); cards are ids
and sets of cards bit masks (see ``core.cards``).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core import cards as C
from ..core.contexts import ARGS
from ..errors import GameError
from ..model.ruleset import Ruleset, per_ruleset

REGULAR, NIL, BLIND_NIL, BLIND = "regular", "nil", "blind_nil", "blind"


@dataclass(frozen=True)
class Bid:
    """A seat's bid: a regular number of tricks, nil, blind nil, or a blind team bid of n."""
    kind: str
    n: int = 0

    def __str__(self) -> str:
        if self.kind == REGULAR:
            return str(self.n)
        return _BID_WORDS.get(self.kind) or f"blind {self.n}"

    @property
    def is_nil(self) -> bool:
        return self.kind in NILS


NILS = (NIL, BLIND_NIL)
_BID_WORDS = {NIL: "nil", BLIND_NIL: "blind nil"}
_BLIND_RE = re.compile(r"^blind[\s_-]*([0-9]+)$")
MAX_BID = 99    # tricks; more than any hand holds, few enough digits for any rule's arithmetic


def parse_bid(value, field: str = "bid") -> Bid:
    """``5``, ``"5"``, ``0``/``"nil"``, ``"blind nil"``, ``"blind 7"``."""
    if isinstance(value, bool):
        raise GameError(f"a bid is a number, 'nil', 'blind nil' or 'blind N', not {value!r}", field)
    if isinstance(value, int):
        return _number_bid(value, field)
    if isinstance(value, str):
        bid = _text_bid(value.strip().lower(), field)
        if bid is not None:
            return bid
    if isinstance(value, str) and any(ch.isdigit() and not ch.isascii() for ch in value):
        raise GameError(f"not a bid: {value[:40]!r}: write numbers with the digits 0-9", field)
    raise GameError(f"not a bid: {value[:40] if isinstance(value, str) else value!r} "
                    "(use a number, 'nil', 'blind nil' or 'blind N')", field)


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
def team_bid_args(bids: Sequence[Bid | None], scores: Sequence[int], bags: Sequence[int], team: int) -> tuple:
    """The ``team_bid`` context of a partnership's bids so far."""
    counts = {REGULAR: 0, NIL: 0, BLIND_NIL: 0, BLIND: 0}
    total = 0
    for b in bids:
        if b is not None:
            counts[b.kind] += 1
            if b.kind == REGULAR:
                total += b.n
    return ARGS["team_bid"](team_regular_sum=total, team_regular_count=counts[REGULAR], team_nil_count=counts[NIL],
                            team_blind_nil_count=counts[BLIND_NIL], team_blind_count=counts[BLIND],
                            team_score=scores[team], team_bags=bags[team], opponents_score=scores[1 - team],
                            opponents_bags=bags[1 - team])


def bid_args(rs: Ruleset, seat: int, dealer: int, hand: int, partner: Bid | None, n: int,
             scores: Sequence[int], bags: Sequence[int]) -> tuple:
    """The ``bid`` context of ``seat`` bidding ``n`` (0 for nil) after its partner's bid (None: not yet)."""
    team = seat % 2
    first = seat_rule(rs, "deal.first_bidder", dealer)
    return ARGS["bid"](hand=hand, seat=seat, dealer=dealer, position=(seat - first) % 4 + 1,
                       partner_kind=partner.kind if partner else "pending", partner_n=partner.n if partner else 0,
                       bid_n=n, team_score=scores[team], team_bags=bags[team], opponents_score=scores[1 - team],
                       opponents_bags=bags[1 - team])


def team_contract(rs: Ruleset, pair: Sequence[Bid], scores=(0, 0), bags=(0, 0), team: int = 0) -> int:
    """The contract a partnership plays for (a blind team bid's n, else rule bid.team_contract)."""
    blind = [b for b in pair if b.kind == BLIND]
    if blind:
        return blind[0].n
    if not any(b.kind == REGULAR for b in pair):
        return 0
    return rs.fn["bid.team_contract"](*team_bid_args(pair, scores, bags, team))


def _refusal(rs: Ruleset, rule: str, value, why: str, explain: bool):
    return rs.step(rule, value, why) if explain else rule


def _contract_refusals(rs: Ruleset, args: tuple, skip_min: bool, explain: bool, checked: list | None) -> list:
    """A partnership's contract against ``bid.team_min`` and ``bid.team_max``."""
    contract = rs.fn["bid.team_contract"](*args)
    low, high = rs.fn["bid.team_min"](*args), rs.fn["bid.team_max"](*args)
    if checked is not None:
        checked.extend([rs.step("bid.team_contract", contract), rs.step("bid.team_min", low),
                        rs.step("bid.team_max", high)])
    out = []
    if contract < low and not skip_min:
        out.append(_refusal(rs, "bid.team_min", low, f"the partnership's contract {contract} is below {low}", explain))
    if contract > high:
        out.append(_refusal(rs, "bid.team_max", high, f"the partnership's contract {contract} is above {high}",
                            explain))
    return out


def team_refusals(rs: Ruleset, pair: Sequence[Bid], scores, bags, team: int, skip_min: bool = False,
                  explain: bool = True, checked: list | None = None) -> list:
    """Why a partnership's pair of bids is not allowed (empty list: allowed).
    Explanation steps, or just the refusing rule names with ``explain=False``;
    ``checked`` receives a step for every rule consulted."""
    blind = [b for b in pair if b.kind == BLIND]
    if blind and (len(blind) != 2 or blind[0].n != blind[1].n):
        return [{"rule": "blind_bid.allowed", "cite": rs.rules["blind_bid.allowed"].cite,
                 "why": "a blind team bid is the partnership's bid: both partners name the same 'blind N'"}]
    args = team_bid_args(pair, scores, bags, team)
    out = (_contract_refusals(rs, args, skip_min, explain, checked) if any(b.kind == REGULAR for b in pair)
           else [])
    valid = rs.fn["bid.team_valid"](*args)
    if checked is not None:
        checked.append(rs.step("bid.team_valid", bool(valid)))
    if not valid:
        out.append(_refusal(rs, "bid.team_valid", False,
                            "this pair of bids (" + ", ".join(str(b) for b in pair) + ") is not allowed", explain))
    return out


def _own_refusal(rs: Ruleset, bid: Bid, ask: Callable[[str], object], scores, team: int) -> dict | None:
    """Why a seat may not make ``bid`` by the rules on its own bid (``ask`` gives a rule's value, None
    when it was not checked), or None."""
    if bid.kind == REGULAR:
        low, high = ask("bid.regular_min"), ask("bid.regular_max")
        low = 0 if low is None else low
        high = bid.n if high is None else high
        if low <= bid.n <= high:
            return None
        rule = "bid.regular_min" if bid.n < low else "bid.regular_max"
        return rs.step(rule, low if bid.n < low else high,
                       f"a regular bid must be from {low} to {high} here" if low <= high
                       else "no regular bid is possible here")
    rule = _KIND_RULE[bid.kind]
    if ask(rule) is not False:
        return None
    why = {NIL: "nil is not allowed here",
           BLIND_NIL: f"blind nil is not allowed here (team {scores[team]}, opponents {scores[1 - team]})",
           BLIND: f"a blind team bid of {bid.n} is not allowed here"}[bid.kind]
    return rs.step(rule, False, why)


_KIND_RULE = {NIL: "nil.allowed", BLIND_NIL: "blind_nil.allowed", BLIND: "blind_bid.allowed"}


def bid_refusals(rs: Ruleset, seat: int, bid: Bid, *, hand: int | None, dealer: int,
                 bids: Sequence[Bid | None], scores=(0, 0), bags=(0, 0), checked: list | None = None) -> list[dict]:
    """Why ``seat`` may not make ``bid`` given the bids so far (empty list: allowed).

    With ``hand=None`` (cards unknown) rules that depend on the hand are not checked.
    ``checked``, when given, receives a step for every rule consulted (its value and citation)."""
    team = seat % 2                  # C.team_of, C.partner_of inlined: this runs for every scored hand
    pbid = bids[(seat + 2) % 4]
    fns = rs.fn
    args = bid_args(rs, seat, dealer, hand or 0, pbid, bid.n, scores, bags)

    def ask(rule: str):
        """The rule's value, or None when it depends on an unknown hand."""
        if hand is None and rule in rs.hand_rules:
            if checked is not None:
                checked.append(rs.step(rule, None, "not checked: depends on the cards held"))
            return None
        value = fns[rule](*args)
        if checked is not None:
            checked.append(rs.step(rule, value))
        return value

    own = _own_refusal(rs, bid, ask, scores, team)
    if own is not None:
        return [own]
    if pbid is None:
        return []
    skip_min = bool(rs.params["nil.partner_may_raise"]) and bid.is_nil and pbid.kind == REGULAR
    return team_refusals(rs, [pbid, bid], scores, bags, team, skip_min=skip_min, checked=checked)


def bid_candidates(rs: Ruleset) -> list[Bid]:
    size = rs.params["deal.hand_size"]
    return ([Bid(REGULAR, n) for n in range(1, size + 1)] + [Bid(NIL), Bid(BLIND_NIL)]
            + [Bid(BLIND, n) for n in range(1, size + 1)])


REGULAR_BIDS = tuple(Bid(REGULAR, n) for n in range(64))
BLIND_BIDS = tuple(Bid(BLIND, n) for n in range(64))
NIL_BID, BLIND_NIL_BID = Bid(NIL), Bid(BLIND_NIL)


_HAND_BID_RULES = ("bid.regular_min", "bid.regular_max", "nil.allowed", "blind_nil.allowed", "blind_bid.allowed")
_BID_MEMO_LIMIT = 4096


@per_ruleset
def _bid_memo(rs: Ruleset) -> tuple[bool, dict]:
    """Whether a bid rule of ``rs`` reads the hand, and its ``legal_bids`` answers by their inputs."""
    return not rs.hand_rules.isdisjoint(_HAND_BID_RULES), {}


def legal_bids(rs: Ruleset, seat: int, hand: int, dealer: int, bids, scores, bags) -> list[Bid]:
    """Every bid ``seat`` may make now: the candidates ``bid_refusals`` would accept, computed
    with each rule evaluated once.  Memoised per ruleset (rules are pure) on every input the rules
    see; the hand is part of the key only when a bid rule names it."""
    pbid = bids[C.partner_of(seat)]
    if pbid is not None and pbid.kind == BLIND:
        return [pbid]
    reads_hand, answers = _bid_memo(rs)
    key = (seat, dealer, pbid and (pbid.kind, pbid.n), scores[0], scores[1], bags[0], bags[1],
           hand if reads_hand else None)
    found = answers.get(key)
    if found is None:
        if len(answers) >= _BID_MEMO_LIMIT:
            answers.clear()
        found = answers[key] = tuple(_legal_bids(rs, seat, hand, dealer, pbid, scores, bags))
    return list(found)


def _legal_bids(rs: Ruleset, seat: int, hand: int, dealer: int, pbid: Bid | None, scores, bags) -> list[Bid]:
    """``legal_bids`` without the memo (``pbid``: the partner's bid so far, not a blind one)."""
    team = C.team_of(seat)
    size = rs.params["deal.hand_size"]
    fns = rs.fn
    args = bid_args(rs, seat, dealer, hand, pbid, 0, scores, bags)
    low, high = fns["bid.regular_min"](*args), fns["bid.regular_max"](*args)
    out = [REGULAR_BIDS[n] for n in range(max(low, 1), min(high, size) + 1)]   # (not a slice: high may be < 0)
    if fns["nil.allowed"](*args):
        out.append(NIL_BID)
    if fns["blind_nil.allowed"](*args):
        out.append(BLIND_NIL_BID)
    blind_ok = fns["blind_bid.allowed"]
    out.extend(BLIND_BIDS[n] for n in range(1, size + 1)
               if blind_ok(*bid_args(rs, seat, dealer, hand, pbid, n, scores, bags)))
    if pbid is None:
        return out
    may_raise = bool(rs.params["nil.partner_may_raise"]) and pbid.kind == REGULAR
    return [b for b in out
            if not team_refusals(rs, (pbid, b), scores, bags, team, skip_min=may_raise and b.is_nil, explain=False)]


def seat_rule(rs: Ruleset, rule: str, dealer: int) -> int:
    """A seating rule (``deal.first_bidder``, ``play.first_leader``, ``deal.next_dealer``) for ``dealer``."""
    return rs.fn[rule](*ARGS["seating"](dealer=dealer))
