"""The Spades engine, driven only by a compiled Ruleset.

Seats are 0..3 (N E S W, clockwise), teams 0 (NS) and 1 (EW); cards are ids
and sets of cards bit masks (see ``cards``).  Every answer can carry an
explanation: the ordered rules applied, the value each gave, and citations.
"""
from __future__ import annotations

import random
import re
import weakref
from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import NoReturn

from ..core import cards as C
from ..lang.compiler import NONE
from ..errors import DeadEndError, GameError
from .fused import play_cards
from ..model.ruleset import Ruleset
from ..core.schema import PLAY_CONSTRAINTS

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
        return self.kind in _NILS


_NILS = (NIL, BLIND_NIL)
_BID_WORDS = {NIL: "nil", BLIND_NIL: "blind nil"}
_BLIND_RE = re.compile(r"^blind[\s_-]*([0-9]+)$")


def parse_bid(value, field: str = "bid") -> Bid:
    """``5``, ``"5"``, ``0``/``"nil"``, ``"blind nil"``, ``"blind 7"``."""
    if isinstance(value, bool):
        raise GameError(f"a bid is a number, 'nil', 'blind nil' or 'blind N', not {value!r}", field)
    if isinstance(value, int):
        if value < 0:
            raise GameError(f"a bid cannot be negative ({value})", field)
        return Bid(NIL) if value == 0 else Bid(REGULAR, value)
    if isinstance(value, str):
        text = value.strip().lower()
        if text.isascii() and text.isdigit():    # (str.isdigit also accepts '²', which int() refuses)
            return parse_bid(int(text), field)
        if text in ("nil", "null", "naught"):
            return Bid(NIL)
        if text.replace("_", " ").replace("-", " ") in ("blind nil", "blindnil"):
            return Bid(BLIND_NIL)
        match = _BLIND_RE.match(text)
        if match:
            return Bid(BLIND, int(match.group(1)))
    raise GameError(f"not a bid: {value!r} (use a number, 'nil', 'blind nil' or 'blind N')", field)


# --------------------------------------------------------------------------- play
@dataclass
class Legal:
    """Legal cards for a seat, with the rules that shaped the set."""
    cards: int
    steps: list[dict] = field(default_factory=list)
    conflicts: list[dict] = field(default_factory=list)
    dead_ends: list[dict] = field(default_factory=list)


def _applicable(leading: bool, number: int) -> tuple[str, ...]:
    names = []
    for name in PLAY_CONSTRAINTS:
        if name == "play.lead" and not leading or name == "play.follow" and leading:
            continue
        if name == "play.first_lead" and not (leading and number == 1):
            continue
        if name.startswith("play.first_trick") and number != 1:
            continue
        names.append(name)
    return tuple(names)


_APPLICABLE = {(lead, first): _applicable(lead, 1 if first else 2) for lead in (True, False) for first in (True, False)}


def applicable_constraints(leading: bool, first_trick: bool) -> tuple[str, ...]:
    """The play constraints that apply when leading (or not) to the first trick (or a later one), in priority order."""
    return _APPLICABLE[(leading, first_trick)]


def _narrow(rs: Ruleset, args: tuple, names: tuple[str, ...], hand: int, record: Legal | None,
            explain: bool = False) -> int:
    """Apply the play constraints ``names`` in priority order (see ``legal_cards``); ``record`` receives
    conflicts and dead ends, and with ``explain`` the steps applied."""
    allowed = hand
    applied: list[tuple[str, int]] = []   # (rule, cards it permits)
    fns = rs.fn
    for name in names:
        permitted = fns[name](*args) & hand
        if permitted == hand:
            continue
        if permitted == 0:
            if record is not None:
                record.dead_ends.append({**rs.cite(name), "why": "allows none of the cards in this hand"})
            continue
        if allowed & permitted == 0:
            if record is not None:
                clash = [r for r, p in applied if p & permitted == 0] or [r for r, _ in applied]
                record.conflicts.append({"rules": [*clash, name], "cites": [rs.cite(r) for r in [*clash, name]],
                                         "why": f"{name} allows only {' '.join(C.card_names(permitted))}, "
                                                f"which {', '.join(clash)} excludes; {clash[0]} is applied"})
            continue
        allowed &= permitted
        applied.append((name, permitted))
        if explain:
            record.steps.append(rs.step(name, C.card_names(permitted)))
    return allowed


def legal_cards(rs: Ruleset, hand: int, trick: Sequence[int], number: int, broken: bool,
                played: int = 0, explain: bool = False) -> Legal:
    """Cards ``hand`` may play to ``trick`` (cards so far, leader first) of trick ``number``.

    Each applicable play constraint narrows the set in priority order.  A
    constraint that would leave no card although an earlier one left some is a
    *conflict* (the document gives no priority; the earlier rule is applied);
    one that allows no card of the hand at all is a *dead end*.  Conflicts and
    dead ends are always recorded; ``explain`` adds the steps applied.
    """
    leading = not trick
    trick_mask = 0
    for card in trick:
        trick_mask |= 1 << card
    args = (hand, trick_mask, NONE if leading else rs.suit_of[trick[0]], number, len(trick) + 1, leading,
            broken, played)
    result = Legal(hand)
    result.cards = _narrow(rs, args, _APPLICABLE[(leading, number == 1)], hand, result, explain)
    return result


def legal_mask(rs: Ruleset, hand: int, trick_mask: int, led: int, number: int, position: int, broken: bool,
               played: int) -> int:
    """``legal_cards`` without records, for simulation (same rules, same priority)."""
    leading = position == 1
    return _narrow(rs, (hand, trick_mask, led, number, position, leading, broken, played),
                   _APPLICABLE[(leading, number == 1)], hand, None)


def breaks_trump(rs: Ruleset, card: int, hand_before: int, trick: Sequence[int], number: int) -> bool:
    led = NONE if not trick else rs.suit_of[trick[0]]
    return bool(rs.fn["trump.breaks"](card, hand_before, not trick, led, number))


def _winner_not_in_trick(rs: Ruleset, card: int) -> NoReturn:
    raise GameError(f"rule trick.winner named {C.card_name(card) if card >= 0 else 'no card'}, "
                    "which is not in the trick", "cards", "trick.winner", rs.rules["trick.winner"].cite)


def trick_winner(rs: Ruleset, trick: Sequence[int], number: int = 1, explain: bool = False
                 ) -> tuple[int, list[dict]]:
    """Index (0 = leader) of the card that wins a complete trick, and the trail."""
    mask = 0
    for card in trick:
        mask |= 1 << card
    led = rs.suit_of[trick[0]]
    card = rs.fn["trick.winner"](mask, led, number, trick[0])
    if card not in trick:
        _winner_not_in_trick(rs, card)
    steps = []
    if explain:
        steps.append(rs.step("card.suit", C.SUIT_NAMES[led], f"{C.card_name(trick[0])} was led"))
        trumps = [C.card_name(c) for c in trick if rs.suit_of[c] == rs.params["trump.suit"]]
        if trumps:
            steps.append(rs.step("trump.suit", C.SUIT_NAMES[rs.params["trump.suit"]],
                                 f"trumps in the trick: {' '.join(trumps)}"))
        steps.append(rs.step("trick.winner", C.card_name(card)))
    return trick.index(card), steps


def by_seat(trick: Sequence[int], leader: int) -> list[int]:
    """The cards of a complete trick indexed by seat (``trick`` is in play order from ``leader``)."""
    cards = [0] * 4
    for pos, card in enumerate(trick):
        cards[(leader + pos) % 4] = card
    return cards


# --------------------------------------------------------------------------- bids
def _team_bid_args(bids: Sequence[Bid | None], scores, bags, team: int) -> tuple:
    total = regular = nil = blind_nil = blind = 0
    for b in bids:
        if b is None:
            continue
        kind = b.kind
        if kind == REGULAR:
            total += b.n
            regular += 1
        elif kind == NIL:
            nil += 1
        elif kind == BLIND_NIL:
            blind_nil += 1
        else:
            blind += 1
    return (total, regular, nil, blind_nil, blind, scores[team], bags[team], scores[1 - team], bags[1 - team])


def team_contract(rs: Ruleset, pair: Sequence[Bid], scores=(0, 0), bags=(0, 0), team: int = 0) -> int:
    """The contract a partnership plays for (a blind team bid's n, else rule bid.team_contract)."""
    blind = [b for b in pair if b.kind == BLIND]
    if blind:
        return blind[0].n
    if not any(b.kind == REGULAR for b in pair):
        return 0
    return rs.fn["bid.team_contract"](*_team_bid_args(pair, scores, bags, team))


def team_refusals(rs: Ruleset, pair: Sequence[Bid], scores, bags, team: int, skip_min: bool = False,
                  explain: bool = True, checked: list | None = None) -> list:
    """Why a partnership's pair of bids is not allowed (empty list: allowed).
    Explanation steps, or just the refusing rule names with ``explain=False``;
    ``checked`` receives a step for every rule consulted."""
    out: list = []
    blind = [b for b in pair if b.kind == BLIND]
    if blind and (len(blind) != 2 or blind[0].n != blind[1].n):
        return [{"rule": "blind_bid.allowed", "cite": rs.rules["blind_bid.allowed"].cite,
                 "why": "a blind team bid is the partnership's bid: both partners name the same 'blind N'"}]
    args = _team_bid_args(pair, scores, bags, team)
    if any(b.kind == REGULAR for b in pair):
        contract = rs.fn["bid.team_contract"](*args)
        low, high = rs.fn["bid.team_min"](*args), rs.fn["bid.team_max"](*args)
        if checked is not None:
            checked.extend([rs.step("bid.team_contract", contract), rs.step("bid.team_min", low),
                            rs.step("bid.team_max", high)])
        if contract < low and not skip_min:
            out.append(rs.step("bid.team_min", low, f"the partnership's contract {contract} is below {low}")
                       if explain else "bid.team_min")
        if contract > high:
            out.append(rs.step("bid.team_max", high, f"the partnership's contract {contract} is above {high}")
                       if explain else "bid.team_max")
    valid = rs.fn["bid.team_valid"](*args)
    if checked is not None:
        checked.append(rs.step("bid.team_valid", bool(valid)))
    if not valid:
        out.append(rs.step("bid.team_valid", False,
                           "this pair of bids (" + ", ".join(str(b) for b in pair) + ") is not allowed")
                   if explain else "bid.team_valid")
    return out


def bid_refusals(rs: Ruleset, seat: int, bid: Bid, *, hand: int | None, dealer: int,
                 bids: Sequence[Bid | None], scores=(0, 0), bags=(0, 0), checked: list | None = None) -> list[dict]:
    """Why ``seat`` may not make ``bid`` given the bids so far (empty list: allowed).

    With ``hand=None`` (cards unknown) rules that depend on the hand are not checked.
    ``checked``, when given, receives a step for every rule consulted (its value and citation)."""
    team = seat % 2                  # C.team_of, C.partner_of inlined: this runs for every scored hand
    pbid = bids[(seat + 2) % 4]
    fns = rs.fn
    first = fns["deal.first_bidder"](dealer)
    args = (hand or 0, seat, dealer, (seat - first) % 4 + 1, pbid.kind if pbid else "pending",
            pbid.n if pbid else 0, bid.n, scores[team], bags[team], scores[1 - team], bags[1 - team])
    out = []

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

    if bid.kind == REGULAR:
        low, high = ask("bid.regular_min"), ask("bid.regular_max")
        low = 0 if low is None else low
        high = bid.n if high is None else high
        if not low <= bid.n <= high:
            rule = "bid.regular_min" if bid.n < low else "bid.regular_max"
            out.append(rs.step(rule, low if bid.n < low else high,
                               f"a regular bid must be from {low} to {high} here" if low <= high
                               else "no regular bid is possible here"))
    elif bid.kind == NIL:
        if ask("nil.allowed") is False:
            out.append(rs.step("nil.allowed", False, "nil is not allowed here"))
    elif bid.kind == BLIND_NIL:
        if ask("blind_nil.allowed") is False:
            out.append(rs.step("blind_nil.allowed", False,
                               f"blind nil is not allowed here (team {scores[team]}, opponents {scores[1 - team]})"))
    elif bid.kind == BLIND:
        if ask("blind_bid.allowed") is False:
            out.append(rs.step("blind_bid.allowed", False, f"a blind team bid of {bid.n} is not allowed here"))
    if pbid is not None and not out:
        skip_min = bool(rs.params["nil.partner_may_raise"]) and bid.is_nil and pbid.kind == REGULAR
        out.extend(team_refusals(rs, [pbid, bid], scores, bags, team, skip_min=skip_min, checked=checked))
    return out


def bid_candidates(rs: Ruleset) -> list[Bid]:
    size = rs.params["deal.hand_size"]
    return ([Bid(REGULAR, n) for n in range(1, size + 1)] + [Bid(NIL), Bid(BLIND_NIL)]
            + [Bid(BLIND, n) for n in range(1, size + 1)])


# --------------------------------------------------------------------------- scoring
@dataclass
class TeamResult:
    points: int
    bags_added: int
    score: int
    bags: int
    lines: list[dict]
    contract: int = 0    # the contract the team played for (kept for explanations, not in as_dict)

    def as_dict(self) -> dict:
        return {"points": self.points, "bags_added": self.bags_added, "score": self.score,
                "bags": self.bags, "lines": self.lines}


def _line(rs: Ruleset, rule: str, points: int, why: str) -> dict:
    info = rs.cite(rule)
    info["points"] = points
    info["why"] = why
    return info


def score_hand(rs: Ruleset, bids: Sequence[Bid], tricks: Sequence[int], scores=(0, 0), bags=(0, 0),
               reneges: Sequence[int] = (), last_trick: tuple[int, Sequence[int]] | None = None,
               explain: bool = True) -> list[TeamResult]:
    """Score one hand for both teams.  ``last_trick`` is (winner seat, cards by seat); without
    ``explain`` the results have no explanation lines (the same points and bags)."""
    size = rs.params["deal.hand_size"]
    if sum(tricks) != size:
        raise GameError(f"tricks add up to {sum(tricks)}, not {size}", "tricks")
    mode = rs.params["renege.mode"]
    if reneges and mode == "none":
        raise GameError("this variant defines no renege penalty; an illegal play is simply not allowed",
                        "events", "renege.mode", rs.rules["renege.mode"].cite)
    offenders = {C.team_of(s) for s in reneges}
    if len(offenders) > 1 and mode == "forfeit":
        raise GameError("both partnerships reneged; the variant's forfeit rule covers one offending side",
                        "events", "renege.mode", rs.rules["renege.mode"].cite)
    won_adjust = [0, 0]
    if mode == "transfer":
        per = rs.params["renege.transfer_tricks"]
        for seat in reneges:
            off = C.team_of(seat)
            moved = min(per, sum(tricks[s] for s in (off, off + 2)) + won_adjust[off])
            won_adjust[off] -= moved
            won_adjust[1 - off] += moved
    results = []
    for team in (0, 1):
        results.append(_score_team(rs, team, bids, tricks, scores, bags, mode, offenders, won_adjust[team],
                                   last_trick, explain))
    return results


def _score_team(rs, team, bids, tricks, scores, bags, mode, offenders, adjust, last_trick, explain) -> TeamResult:
    fns, params = rs.fn, rs.params
    seats = (team, team + 2)
    pair = [bids[team], bids[team + 2]]
    contract = team_contract(rs, pair, scores, bags, team)
    kinds = (pair[0].kind, pair[1].kind)
    blind = BLIND in kinds
    has_contract = blind or REGULAR in kinds
    nil_seats = [s for s in seats if bids[s].kind in _NILS]
    nil_tricks = sum(tricks[s] for s in nil_seats)
    regular_tricks = tricks[team] + tricks[team + 2] - nil_tricks
    won = regular_tricks + (nil_tricks if params["nil.tricks_count"] else 0) + adjust
    lines: list[dict] = []
    forfeit = mode == "forfeit" and offenders
    if forfeit and team in offenders:
        made = False
    elif forfeit:
        made = has_contract
    else:
        made = has_contract and won >= contract
    over = max(0, won - contract) if made else 0
    nil_made = sum(1 for s in nil_seats if tricks[s] == 0 and not (forfeit and team in offenders))
    base = (scores[team], bags[team], scores[1 - team], bags[1 - team], contract, blind,
            regular_tricks + nil_tricks, regular_tricks, nil_tricks, won, made, over, len(nil_seats), nil_made)
    points = 0
    if adjust and explain:
        moved = abs(adjust)
        lines.append(_line(rs, "renege.transfer_tricks", 0,
                           f"{moved} trick(s) {'given to the opponents for a renege by this side' if adjust < 0 else 'received for a renege by the opponents'}"))
        lines[-1]["decided_by"] = rs.cite("renege.mode")
    if has_contract:
        rule = ("blind_bid.made" if made else "blind_bid.set") if blind else ("scoring.made" if made else "scoring.set")
        value = fns[rule](*base)
        if explain:
            why = f"{'blind ' if blind else ''}bid {contract}, took {won}: {'made' if made else 'set'}"
            if forfeit:
                why += f" (renege by {'this' if team in offenders else 'the other'} side)"
            lines.append(_line(rs, rule, value, why))
            if forfeit:
                lines[-1]["decided_by"] = rs.cite("renege.mode")
        points += value
        if over:
            per = fns["scoring.overtrick_points"](*base)
            if per and explain:
                lines.append(_line(rs, "scoring.overtrick_points", per * over, f"{over} overtrick(s) x {per}"))
            points += per * over
    for seat in nil_seats:
        blind_nil = bids[seat].kind == BLIND_NIL
        ok = tricks[seat] == 0 and not (forfeit and team in offenders)
        if forfeit and team not in offenders:
            ok = True
        rule = ("blind_nil." if blind_nil else "nil.") + ("made" if ok else "failed")
        value = fns[rule](*base, tricks[seat], blind_nil)
        if explain:
            lines.append(_line(rs, rule, value, f"{C.SEATS[seat]} bid {bids[seat]}, took {tricks[seat]}"))
        points += value
    if last_trick is not None:
        winner, by_seat = last_trick
        win_card = by_seat[winner]
        team_cards = C.mask_of(by_seat[s] for s in seats)
        nil_cards = C.mask_of(by_seat[s] for s in nil_seats)
        bonus = fns["bonus.last_trick"](*base, C.team_of(winner) == team, win_card, team_cards, nil_cards)
        if bonus and explain:
            lines.append(_line(rs, "bonus.last_trick", bonus,
                               f"last trick won by {C.SEATS[winner]} with {C.card_name(win_card)}"))
        points += bonus
    bags_added = fns["scoring.bags"](*base) if made else 0
    if forfeit and team not in offenders and not params["renege.victim_bags"]:
        if bags_added and explain:
            lines.append(_line(rs, "renege.victim_bags", 0, f"{bags_added} overtrick(s) not counted as bags"))
        bags_added = 0
    total_bags = bags[team] + bags_added
    limit = params["bags.limit"]
    if limit > 0:
        while total_bags >= limit:
            points += params["bags.penalty"]
            if explain:
                lines.append(_line(rs, "bags.penalty", params["bags.penalty"],
                                   f"{total_bags} bags reach the limit of {limit}"))
            total_bags = total_bags - limit if params["bags.carry"] else 0
            if not params["bags.carry"]:
                break
    return TeamResult(points, bags_added, scores[team] + points, total_bags, lines, contract)


# --------------------------------------------------------------------------- game end
def game_status(rs: Ruleset, scores: Sequence[int], bags: Sequence[int] = (0, 0), hands: int = 0,
                explain: bool = False) -> dict:
    """Whether the game is over after a hand, who won and which rule says so."""
    high, low = max(scores), min(scores)
    args = (scores[0], bags[0], scores[1], bags[1], high, low, high - low, hands)
    fns = rs.fn
    reached = fns["game.target_reached"](*args)
    mercy = fns["game.mercy"](*args)
    status = {"over": False, "winner": None, "reason": "no end condition is met", "explanation": []}
    if explain:
        status["explanation"] = [rs.step("game.target_reached", bool(reached), f"target {rs.params['game.target']}"),
                                 rs.step("game.mercy", bool(mercy))]
    if not (reached or mercy):
        return status
    cause = "game.target_reached" if reached else "game.mercy"
    winner = fns["game.winner"](*args)
    if explain:
        status["explanation"].append(rs.step("game.winner", C.TEAMS[winner] if winner >= 0 else None))
    if winner < 0:
        status["reason"] = "an end condition is met but the scores are tied: play another hand"
        status["rule"] = rs.cite("game.winner")
        return status
    status.update(over=True, winner=C.TEAMS[winner], rule=rs.cite(cause),
                  reason="target reached" if reached else "another end condition (mercy or floor)")
    return status


# --------------------------------------------------------------------------- hands
def deal_cards(rs: Ruleset, rng: random.Random) -> list[int]:
    """Four hands dealt from the variant's pack with ``rng``."""
    pack = list(C.iter_cards(rs.deck))
    rng.shuffle(pack)
    size = rs.params["deal.hand_size"]
    return [C.mask_of(pack[i * size:(i + 1) * size]) for i in range(4)]


def deal_for(seed: int | str, index: int, rs: Ruleset) -> list[int]:
    """Deal ``index`` of ``seed``: the same cards in every run (and every variant with the same pack)."""
    return deal_cards(rs, random.Random(f"deal:{seed}:{index}"))


_REGULAR_BIDS = tuple(Bid(REGULAR, n) for n in range(64))
_BLIND_BIDS = tuple(Bid(BLIND, n) for n in range(64))
_NIL_BID, _BLIND_NIL_BID = Bid(NIL), Bid(BLIND_NIL)


_HAND_BID_RULES = ("bid.regular_min", "bid.regular_max", "nil.allowed", "blind_nil.allowed", "blind_bid.allowed")
_BID_MEMO_LIMIT = 4096
# per ruleset: whether a bid rule reads the hand, and legal_bids answers by their inputs
_BID_MEMOS: weakref.WeakKeyDictionary[Ruleset, tuple[bool, dict]] = weakref.WeakKeyDictionary()


def legal_bids(rs: Ruleset, seat: int, hand: int, dealer: int, bids, scores, bags) -> list[Bid]:
    """Every bid ``seat`` may make now: the candidates ``bid_refusals`` would accept, computed
    with each rule evaluated once.  Memoised per ruleset (rules are pure) on every input the rules
    see; the hand is part of the key only when a bid rule names it."""
    pbid = bids[C.partner_of(seat)]
    if pbid is not None and pbid.kind == BLIND:
        return [pbid]
    memo = _BID_MEMOS.get(rs)
    if memo is None:
        memo = _BID_MEMOS[rs] = (not rs.hand_rules.isdisjoint(_HAND_BID_RULES), {})
    reads_hand, answers = memo
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
    first = rs.fn["deal.first_bidder"](dealer)
    head = (hand, seat, dealer, (seat - first) % 4 + 1, pbid.kind if pbid else "pending", pbid.n if pbid else 0)
    tail = (scores[team], bags[team], scores[1 - team], bags[1 - team])
    args = head + (0,) + tail
    fns = rs.fn
    low, high = fns["bid.regular_min"](*args), fns["bid.regular_max"](*args)
    out = list(_REGULAR_BIDS[max(low, 1):min(high, size) + 1])
    if fns["nil.allowed"](*args):
        out.append(_NIL_BID)
    if fns["blind_nil.allowed"](*args):
        out.append(_BLIND_NIL_BID)
    blind_ok = fns["blind_bid.allowed"]
    out.extend(_BLIND_BIDS[n] for n in range(1, size + 1) if blind_ok(*head, n, *tail))
    if pbid is None:
        return out
    may_raise = bool(rs.params["nil.partner_may_raise"]) and pbid.kind == REGULAR
    return [b for b in out
            if not team_refusals(rs, (pbid, b), scores, bags, team, skip_min=may_raise and b.is_nil, explain=False)]


def _trick_log(plays: list[tuple[int, int]], winners: list[int]) -> list[dict]:
    """The record's tricks: leader, cards in play order and winner of each."""
    return [{"leader": C.SEATS[plays[i][0]], "cards": [C.NAMES[card] for _, card in plays[i:i + 4]],
             "winner": C.SEATS[winner]} for i, winner in zip(range(0, len(plays), 4), winners)]


def play_hand(rs: Ruleset, hands: list[int], dealer: int, policy, scores=(0, 0), bags=(0, 0),
              record: bool = True) -> dict:
    """Bid, exchange, play and score one hand.  Returns the hand record (see docs/formats.md); with
    ``record=False`` (for simulation speed) only its raw '_' parts, the results without explanation lines."""
    foreign = (hands[0] | hands[1] | hands[2] | hands[3]) & ~rs.deck
    if foreign:
        raise GameError(f"the deal holds cards that are not in the pack of variant '{rs.id}': "
                        f"{' '.join(C.card_names(foreign))}", "deal", "deck.cards", rs.rules["deck.cards"].cite)
    hands = list(hands)
    dealt = list(hands)
    bids: list[Bid | None] = [None] * 4
    first = rs.fn["deal.first_bidder"](dealer)
    for k in range(4):
        seat = (first + k) % 4
        options = legal_bids(rs, seat, hands[seat], dealer, bids, scores, bags)
        if not options:
            raise DeadEndError(f"{C.SEATS[seat]} has no legal bid", f"bids.{C.SEATS[seat]}",
                               details={"hand": C.card_names(hands[seat]),
                                        "bids": {C.SEATS[s]: str(b) for s, b in enumerate(bids) if b}})
        bids[seat] = policy.bid(rs, seat, options, hands[seat])
        partner = C.partner_of(seat)
        if (bids[seat].is_nil and rs.params["nil.partner_may_raise"] and bids[partner] is not None
                and bids[partner].kind == REGULAR):
            current = bids[partner].n
            raises = [Bid(REGULAR, n) for n in range(current, rs.params["deal.hand_size"] + 1)
                      if not team_refusals(rs, (_REGULAR_BIDS[n], bids[seat]), scores, bags, C.team_of(seat),
                                           explain=False)]
            if raises:
                bids[partner] = policy.raise_bid(rs, partner, raises, hands[partner])
    exchanges = []
    count = rs.params["blind_nil.exchange"]
    for seat in range(4):
        if bids[seat].kind == BLIND_NIL and count:
            partner = C.partner_of(seat)
            give = policy.exchange(rs, seat, hands[seat], count)
            hands[seat] &= ~C.mask_of(give)
            back = policy.exchange(rs, partner, hands[partner], count)
            hands[partner] = (hands[partner] & ~C.mask_of(back)) | C.mask_of(give)
            hands[seat] |= C.mask_of(back)
            exchanges.append({"from": C.SEATS[seat], "gave": [C.card_name(c) for c in give],
                              "received": [C.card_name(c) for c in back]})
    leader = rs.fn["play.first_leader"](dealer)
    size = rs.params["deal.hand_size"]
    tricks_won, plays, winners = play_cards(rs)(hands, leader, size, policy.play, rs, _winner_not_in_trick)
    last = (winners[-1], by_seat([card for _, card in plays[-4:]], plays[-4][0]))
    results = score_hand(rs, bids, tricks_won, scores, bags, last_trick=last, explain=record)
    raw = {"_results": results, "_bids": bids, "_plays": plays, "_won": tricks_won, "_winners": winners,
           "_last": last}   # (simulate drops these)
    if not record:
        return raw
    return {
        "dealer": C.SEATS[dealer],
        "deal": {C.SEATS[s]: C.card_names(dealt[s]) for s in range(4)},
        "bids": {C.SEATS[s]: str(bids[s]) for s in range(4)},
        "exchanges": exchanges,
        "tricks": _trick_log(plays, winners),
        "tricks_per_seat": {C.SEATS[s]: tricks_won[s] for s in range(4)},
        "score": {C.TEAMS[t]: {"points": r.points, "bags_added": r.bags_added} for t, r in enumerate(results)},
        "totals": {C.TEAMS[t]: {"score": r.score, "bags": r.bags} for t, r in enumerate(results)},
        **raw,
    }


def simulate(rs: Ruleset, hands: int, seed: int | str = 0, policy: str = "random"):
    """Yield ``hands`` hand records of games played in sequence (a new game starts after one ends)."""
    from .policies import POLICIES
    if policy not in POLICIES:
        raise GameError(f"unknown policy '{policy}' (known: {', '.join(POLICIES)})", "policy")
    scores, bags = (0, 0), (0, 0)
    dealer, game, in_game = 0, 1, 0
    for index in range(hands):
        deal = deal_for(seed, index, rs)
        player = POLICIES[policy](random.Random(f"play:{seed}:{index}"))
        record = play_hand(rs, deal, dealer, player, scores, bags)
        results = record["_results"]
        record = {key: value for key, value in record.items() if not key.startswith("_")}
        in_game += 1
        scores = (results[0].score, results[1].score)
        bags = (results[0].bags, results[1].bags)
        status = game_status(rs, scores, bags, in_game)
        status.pop("explanation", None)
        status.pop("rule", None)
        record = {"variant": rs.id, "seed": seed, "hand": index, "game": game, **record, "game_status": status}
        yield record
        dealer = rs.fn["deal.next_dealer"](dealer)
        if status["over"]:
            scores, bags, game, in_game = (0, 0), (0, 0), game + 1, 0
