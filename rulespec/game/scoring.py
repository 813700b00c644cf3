"""Scoring a hand and ending a game, rule by rule with the explanation lines."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core import cards as C
from ..core.contexts import ARGS, pick
from ..errors import GameError
from ..model.ruleset import Ruleset
from .bids import BLIND, BLIND_NIL, NILS, REGULAR, Bid, team_contract


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


def _renege_check(rs: Ruleset, reneges: Sequence[int]) -> set[int]:
    """The offending partnerships, refused where the variant has no rule for them."""
    mode = rs.params["renege.mode"]
    if reneges and mode == "none":
        raise GameError("this variant defines no renege penalty; an illegal play is simply not allowed",
                        "events", "renege.mode", rs.rules["renege.mode"].cite)
    offenders = {C.team_of(s) for s in reneges}
    if len(offenders) > 1 and mode == "forfeit":
        raise GameError("both partnerships reneged; the variant's forfeit rule covers one offending side",
                        "events", "renege.mode", rs.rules["renege.mode"].cite)
    return offenders


def _transfers(rs: Ruleset, tricks: Sequence[int], reneges: Sequence[int]) -> list[int]:
    """Tricks each partnership gains (or, negative, loses) by reneges in transfer mode."""
    adjust = [0, 0]
    if rs.params["renege.mode"] != "transfer":
        return adjust
    per = rs.params["renege.transfer_tricks"]
    for seat in reneges:
        off = C.team_of(seat)
        moved = min(per, sum(tricks[s] for s in (off, off + 2)) + adjust[off])
        adjust[off] -= moved
        adjust[1 - off] += moved
    return adjust


def score_hand(rs: Ruleset, bids: Sequence[Bid], tricks: Sequence[int], scores=(0, 0), bags=(0, 0),
               reneges: Sequence[int] = (), last_trick: tuple[int, Sequence[int]] | None = None,
               explain: bool = True) -> list[TeamResult]:
    """Score one hand for both teams.  ``last_trick`` is (winner seat, cards by seat); without
    ``explain`` the results have no explanation lines (the same points and bags)."""
    size = rs.params["deal.hand_size"]
    if sum(tricks) != size:
        raise GameError(f"tricks add up to {sum(tricks)}, not {size}", "tricks")
    offenders = _renege_check(rs, reneges)
    adjust = _transfers(rs, tricks, reneges)
    forfeit = rs.params["renege.mode"] == "forfeit" and bool(offenders)
    return [_TeamScore(rs, team, bids, tricks, scores, bags, explain).score(
                adjust[team], forfeit and team in offenders, forfeit and team not in offenders, last_trick)
            for team in (0, 1)]


class _TeamScore:
    """One partnership's hand being scored, step by step: the renege transfer, the contract,
    overtricks, nils, the last-trick bonus, bags and their penalty."""

    def __init__(self, rs: Ruleset, team: int, bids: Sequence[Bid], tricks: Sequence[int], scores, bags,
                 explain: bool):
        self.rs, self.team, self.bids, self.tricks, self.explain = rs, team, bids, tricks, explain
        self.scores, self.bags = scores, bags
        self.seats = (team, team + 2)
        self.nil_seats = [s for s in self.seats if bids[s].kind in NILS]
        self.points = 0
        self.lines: list[dict] = []

    def line(self, rule: str, points: int, why: str, decided_by: str | None = None) -> None:
        """Add ``points`` (and, when explaining, the line that says why, citing every other rule whose
        value decided it: ``decided_by`` and the parameters the rule names)."""
        self.points += points
        if self.explain:
            self.lines.append(_line(self.rs, rule, points, why))
            others = ((decided_by,) if decided_by else ()) + self.rs.deciding(rule)
            if others:
                self.lines[-1]["decided_by"] = [self.rs.cite(other) for other in others]

    def facts(self, adjust: int, offender: bool, victim: bool) -> dict:
        """The ``team_hand`` context, by name (and ``has_contract``, ``counts_overtricks``)."""
        rs, team, bids, tricks = self.rs, self.team, self.bids, self.tricks
        pair = [bids[team], bids[team + 2]]
        kinds = (pair[0].kind, pair[1].kind)
        has_contract = BLIND in kinds or REGULAR in kinds
        contract = team_contract(rs, pair, self.scores, self.bags, team)
        nil_tricks = sum(tricks[s] for s in self.nil_seats)
        regular_tricks = tricks[team] + tricks[team + 2] - nil_tricks
        won = regular_tricks + (nil_tricks if rs.params["nil.tricks_count"] else 0) + adjust
        made = has_contract and not offender and (victim or won >= contract)
        # overtricks: beyond the contract made, or beyond a contract of 0 where both partners bid nil
        counts_overtricks = made or not (has_contract or offender)
        beyond = regular_tricks + (nil_tricks if rs.params["nil.tricks_bags"] else 0) + adjust - contract
        return {"team_score": self.scores[team], "team_bags": self.bags[team],
                "opponents_score": self.scores[1 - team], "opponents_bags": self.bags[1 - team],
                "team_contract": contract, "team_blind": BLIND in kinds, "team_tricks": regular_tricks + nil_tricks,
                "team_regular_tricks": regular_tricks, "team_nil_tricks": nil_tricks, "team_won": won,
                "team_made": made, "team_overtricks": max(0, beyond) if counts_overtricks else 0,
                "team_nil_count": len(self.nil_seats),
                "team_nil_made": sum(1 for s in self.nil_seats if tricks[s] == 0 and not offender),
                "has_contract": has_contract, "counts_overtricks": counts_overtricks}

    def score(self, adjust: int, offender: bool, victim: bool, last_trick) -> TeamResult:
        facts = self.facts(adjust, offender, victim)
        base = pick("team_hand", facts)
        if adjust:
            way = ("given to the opponents for a renege by this side" if adjust < 0
                   else "received for a renege by the opponents")
            self.line("renege.transfer_tricks", 0, f"{abs(adjust)} trick(s) {way}", "renege.mode")
        if facts["has_contract"]:
            self.contract(facts, base, offender, victim)
        self.overtricks(facts, base)
        for seat in self.nil_seats:
            self.nil(facts, seat, offender)
        if last_trick is not None:
            self.last_trick_bonus(facts, last_trick)
        bags = self.bags_added(base, facts["counts_overtricks"], victim or adjust > 0)
        total_bags = self.bag_penalties(self.bags[self.team] + bags)
        return TeamResult(self.points, bags, self.scores[self.team] + self.points, total_bags, self.lines,
                          facts["team_contract"])

    def contract(self, facts: dict, base: tuple, offender: bool, victim: bool) -> None:
        """The contract made or set."""
        blind, made = facts["team_blind"], facts["team_made"]
        rule = ("blind_bid." if blind else "scoring.") + ("made" if made else "set")
        why = f"{'blind ' if blind else ''}bid {facts['team_contract']}, took {facts['team_won']}: " \
              f"{'made' if made else 'set'}"
        forfeit = offender or victim
        if forfeit:
            why += f" (renege by {'this' if offender else 'the other'} side)"
        self.line(rule, self.rs.fn[rule](*base), why, "renege.mode" if forfeit else None)

    def overtricks(self, facts: dict, base: tuple) -> None:
        """The points for overtricks (beyond a contract of 0 where both partners bid nil)."""
        over = facts["team_overtricks"]
        per = self.rs.fn["scoring.overtrick_points"](*base) if over else 0
        if per:
            why = f"{over} overtrick(s) x {per}"
            if not facts["has_contract"]:
                why += " (both partners bid nil: a contract of 0)"
            self.line("scoring.overtrick_points", per * over, why,
                      "nil.tricks_bags" if facts["team_nil_tricks"] else None)

    def nil(self, facts: dict, seat: int, offender: bool) -> None:
        """A nil or blind nil made or failed (under a forfeit renege the offenders' nils fail; a victim's
        nil is judged on the tricks taken before the renege: a failed nil stays failed)."""
        blind_nil = self.bids[seat].kind == BLIND_NIL
        ok = self.tricks[seat] == 0 and not offender
        rule = ("blind_nil." if blind_nil else "nil.") + ("made" if ok else "failed")
        args = pick("nil_hand", {**facts, "player_tricks": self.tricks[seat], "player_blind": blind_nil})
        self.line(rule, self.rs.fn[rule](*args), f"{C.SEATS[seat]} bid {self.bids[seat]}, took {self.tricks[seat]}")

    def last_trick_bonus(self, facts: dict, last_trick) -> None:
        winner, by_seat = last_trick
        win_card = by_seat[winner]
        args = pick("bonus_hand", {**facts, "last_trick_won": C.team_of(winner) == self.team,
                                   "last_trick_winning_card": win_card,
                                   "last_trick_team_cards": C.mask_of(by_seat[s] for s in self.seats),
                                   "last_trick_nil_cards": C.mask_of(by_seat[s] for s in self.nil_seats)})
        bonus = self.rs.fn["bonus.last_trick"](*args)
        if bonus:
            own = ", ".join(f"{C.SEATS[s]}{f' bid {self.bids[s]} and' if s in self.nil_seats else ''} played "
                            f"{C.card_name(by_seat[s])}" for s in self.seats)
            self.line("bonus.last_trick", bonus,
                      f"{own}; last trick won by {C.SEATS[winner]} with {C.card_name(win_card)}")

    def bags_added(self, base: tuple, counts_overtricks: bool, victim: bool) -> int:
        """Bags taken this hand (none for a renege's victims, the innocent side of a forfeit or the side
        given tricks by a transfer, where ``renege.victim_bags`` is false)."""
        bags = self.rs.fn["scoring.bags"](*base) if counts_overtricks else 0
        if victim and not self.rs.params["renege.victim_bags"]:
            if bags:
                self.line("renege.victim_bags", 0, f"{bags} overtrick(s) not counted as bags")
            return 0
        return bags

    def bag_penalties(self, total: int) -> int:
        """The penalty for each time the bags reach the limit; the bags left after it."""
        params = self.rs.params
        limit = params["bags.limit"]
        if limit <= 0:
            return total
        while total >= limit:
            self.line("bags.penalty", params["bags.penalty"], f"{total} bags reach the limit of {limit}")
            if not params["bags.carry"]:
                return 0
            total -= limit
        return total


# --------------------------------------------------------------------------- game end
def game_status(rs: Ruleset, scores: Sequence[int], bags: Sequence[int] = (0, 0), hands: int = 0,
                explain: bool = False) -> dict:
    """Whether the game is over after a hand, who won and which rule says so."""
    high, low = max(scores), min(scores)
    args = ARGS["game"](ns_score=scores[0], ns_bags=bags[0], ew_score=scores[1], ew_bags=bags[1], high_score=high,
                        low_score=low, lead=high - low, hands=hands)
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
    rule = rs.cite(cause)
    if rs.deciding(cause):
        rule["decided_by"] = [rs.cite(other) for other in rs.deciding(cause)]
    status.update(over=True, winner=C.TEAMS[winner], rule=rule,
                  reason="target reached" if reached else "another end condition (mercy or floor)")
    return status


