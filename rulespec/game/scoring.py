"""Scoring a hand and ending a game (the lowered form's ``score_team`` and ``game_end``), with the
explanation lines: the words of each score line from the facts the score notes."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core import cards as C
from ..core.schema import SLOTS
from ..errors import GameError
from ..lang.limits import charge
from ..model.ruleset import Ruleset
from .bids import Bid
from .steps import KIND_CODE, steps_of


# --------------------------------------------------------------------------- scoring
@dataclass
class TeamResult:
    points: int
    bags_added: int
    score: int
    bags: int
    lines: list[dict]
    contract: int = 0    # the contract the team played for (kept for explanations, not in as_dict)
    facts: list[dict] = field(default_factory=list)   # each line's facts (for the plain-language reasons)
    made: bool = False   # whether it made its contract (false without one)

    @property
    def set(self) -> bool:
        """Whether the side had a contract and was set."""
        return self.contract > 0 and not self.made

    def as_dict(self) -> dict:
        return {"points": self.points, "bags_added": self.bags_added, "score": self.score,
                "bags": self.bags, "lines": self.lines}


@dataclass(frozen=True)
class Wording:
    """How a score line's words name its facts: a seat, a card, the overtricks, a contract's outcome."""
    seat: Callable[[int], str]
    card: Callable[[int], str]
    overtricks: Callable[[int, int], str]       # (overtricks, points each)
    outcome: Callable[[bool], str]              # made or set, after "bid 4, took 5"


SHORT = Wording(lambda seat: C.SEATS[seat], C.card_name, lambda n, per: f"{n} overtrick(s) x {per}",
                lambda made: ": made" if made else ": set")


def _transfer(facts: Mapping, bids: Sequence[str], w: Wording) -> str:
    way = "given to the opponents for a renege by this side" if facts["moved"] < 0 else \
        "received for a renege by the opponents"
    return f"{abs(facts['moved'])} trick(s) {way}"


def _contract(facts: Mapping, bids: Sequence[str], w: Wording) -> str:
    renege = f" (renege by {'this' if facts['offender'] else 'the other'} side)" \
        if facts["offender"] or facts["victim"] else ""
    return f"{'blind ' if facts['blind'] else ''}bid {facts['contract']}, took {facts['won']}" \
           f"{w.outcome(facts['made'])}{renege}"


def _overtricks(facts: Mapping, bids: Sequence[str], w: Wording) -> str:
    zero = " (a nil bid: a contract of 0)" if facts["alone"] else " (both partners bid nil: a contract of 0)"
    return w.overtricks(facts["over"], facts["per"]) + ("" if facts["contract"] else zero)


def _nil(facts: Mapping, bids: Sequence[str], w: Wording) -> str:
    return f"{w.seat(facts['seat'])} bid {bids[facts['seat']]}, took {facts['tricks']}"


def _last_trick(facts: Mapping, bids: Sequence[str], w: Wording) -> str:
    """The side's own cards (a nil bidder's said so), then who won the trick with what."""
    cards = facts["cards"]
    own = ", ".join(f"{w.seat(s)}{f' bid {bids[s]} and' if nil else ''} played {w.card(cards[s])}"
                    for s, nil in zip(facts["seats"], facts["nils"]))     # (alone: one nil, the player's)
    return f"{own}; last trick won by {w.seat(facts['winner'])} with {w.card(facts['card'])}"


_PHRASES: dict[str, Callable[[Mapping, Sequence[str], Wording], str]] = {
    "renege.transfer_tricks": _transfer,
    **dict.fromkeys(("scoring.made", "scoring.set", "blind_bid.made", "blind_bid.set"), _contract),
    "scoring.overtrick_points": _overtricks,
    **dict.fromkeys(("nil.made", "nil.failed", "blind_nil.made", "blind_nil.failed"), _nil),
    "bonus.last_trick": _last_trick,
    "renege.victim_bags": lambda facts, bids, w: f"{facts['bags']} overtrick(s) not counted as bags",
    "bags.penalty": lambda facts, bids, w: f"{facts['total']} bags reach the limit of {facts['limit']}",
}


def line_words(rule: str, facts: Mapping, bids: Sequence[str], w: Wording = SHORT) -> str:
    """A score line's words from the facts its note gives (``procedure/scoring``) and the four bids in words;
    a line with no phrase here reads by its slot's declared ``words``, its seat named as ``w`` names seats."""
    if rule in _PHRASES:
        return _PHRASES[rule](facts, bids, w)
    words = SLOTS[rule].words
    return words.format_map({**facts, "seat": w.seat(facts["seat"])} if "seat" in facts else facts) if words else ""


def _decided_by(rule: str, facts: Mapping) -> str | None:
    """The rule besides the line's own whose value decided it (a renege's mode, whether a nil's tricks are bags)."""
    if rule == "renege.transfer_tricks" or (rule in _PHRASES and _PHRASES[rule] is _contract
                                            and (facts["offender"] or facts["victim"])):
        return "renege.mode"
    if rule == "scoring.overtrick_points" and facts["nil_tricks"]:
        return "nil.tricks_bags"
    return None


# what one score line draws on the request's allowance (``lang.limits.charge``): a line is work the request
# asks for, and a house rule can ask for any number of them (a bags.penalty line for each penalty)
LINE_STEPS = 20


class _Lines:
    """A partnership's score lines from the score's notes: the rule, its citation, the points, a short note
    and every other rule whose value decided it; the facts of each line (``facts``) beside them.  Each line
    is charged to the request's allowance (``LINE_STEPS``)."""

    def __init__(self, rs: Ruleset, bids: Sequence[Bid]):
        self.rs, self.words = rs, tuple(str(b) for b in bids)
        self.lines: list[dict] = []
        self.facts: list[dict] = []

    def note(self, kind: str, rule: str, points: int, **facts) -> None:
        charge(LINE_STEPS)
        rs = self.rs
        why, decided_by = line_words(rule, facts, self.words), _decided_by(rule, facts)
        line = rs.cite(rule)
        line["points"] = points
        line["why"] = why
        others = ((decided_by,) if decided_by else ()) + rs.deciding(rule)
        if others:
            line["decided_by"] = [rs.cite(other) for other in others]
        self.lines.append(line)
        self.facts.append(facts)


def score_hand(rs: Ruleset, bids: Sequence[Bid], tricks: Sequence[int], scores=(0, 0), bags=(0, 0),
               reneges: Sequence[int] = (), last_trick: tuple[int, Sequence[int]] | None = None,
               explain: bool = True) -> list[TeamResult]:
    """Score one hand for both teams (the lowered form's ``score_team``).  ``last_trick`` is (winner seat,
    cards by seat); without ``explain`` the results have no explanation lines (the same points and bags)."""
    size = rs.params["deal.hand_size"]
    if sum(tricks) != size:
        raise GameError(f"tricks add up to {sum(tricks)}, not {size}", "tricks")
    st = steps_of(rs)
    table = C.table_of(rs.params)
    sides, scores, bags = table.sides, table.padded(scores), table.padded(bags)
    won = list(tricks)
    adjust, offenders = [0] * sides, [False] * sides
    forfeit = st.renege_transfers(won, list(reneges), len(reneges), adjust, offenders)
    kind = [KIND_CODE[b.kind] for b in bids]
    num = [b.n for b in bids]
    winner, cards = last_trick if last_trick is not None else (0, (0, 0, 0, 0))
    out = []
    for team in range(sides):
        args = (team, kind, num, won, scores, bags, adjust[team], forfeit and offenders[team],
                forfeit and not offenders[team], last_trick is not None, winner, list(cards))
        lines = _Lines(rs, bids) if explain else None
        points, added, total, contract, made = st.score_team__x(lines, *args) if lines else st.score_team(*args)
        out.append(TeamResult(points, added, scores[team] + points, total, lines.lines if lines else [], contract,
                              lines.facts if lines else [], bool(made)))
    return out


# --------------------------------------------------------------------------- the game so far
@dataclass(frozen=True)
class GameHistory:
    """What the game's end rules see of the hands so far (rule context ``game``), by side (NS, EW; or each
    player where there are no partners): the last hand's contracts and whether they were made, the hands each
    side was set in the game and in a row."""
    contracts: tuple[int, ...] = (0, 0)
    made: tuple[bool, ...] = (False, False)
    sets: tuple[int, ...] = (0, 0)
    streaks: tuple[int, ...] = (0, 0)

    def after(self, results: Sequence[TeamResult]) -> GameHistory:
        """The history once a hand scored ``results`` is added."""
        failed = [r.set for r in results]
        sets = self.sets if len(self.sets) == len(results) else (0,) * len(results)
        streaks = self.streaks if len(self.streaks) == len(results) else (0,) * len(results)
        return GameHistory(tuple(r.contract for r in results), tuple(r.made for r in results),
                           tuple(before + bool(f) for before, f in zip(sets, failed)),
                           tuple(before + 1 if f else 0 for before, f in zip(streaks, failed)))

    def args(self) -> tuple[list, list, list, list]:
        """The lowered form's ``game_end`` arguments after ``hands``."""
        return list(self.contracts), list(self.made), list(self.sets), list(self.streaks)


NO_HISTORY = GameHistory()


# --------------------------------------------------------------------------- game end
def game_status(rs: Ruleset, scores: Sequence[int], bags: Sequence[int] = (0, 0), hands: int = 0,
                explain: bool = False, history: GameHistory = NO_HISTORY) -> dict:
    """Whether the game is over after a hand (``history``: the game so far, that hand included), who won and
    which rule says so."""
    table = C.table_of(rs.params)
    names, scores, bags = table.side_names, table.padded(scores), table.padded(bags)
    if len(history.contracts) != len(names):
        history = GameHistory((0,) * len(names), (False,) * len(names), (0,) * len(names), (0,) * len(names))
    reached, mercy, winner = steps_of(rs).game_end(list(scores), list(bags), hands, *history.args())
    status: dict[str, Any] = {"over": False, "winner": None, "reason": "no end condition is met", "explanation": []}
    if explain:
        status["explanation"] = [rs.step("game.target_reached", bool(reached), f"target {rs.params['game.target']}"),
                                 rs.step("game.mercy", bool(mercy))]
    if not (reached or mercy):
        return status
    cause = "game.target_reached" if reached else "game.mercy"
    if explain:
        status["explanation"].append(rs.step("game.winner", names[winner] if winner >= 0 else None))
    if winner < 0:
        status["reason"] = "an end condition is met but the scores are tied: play another hand"
        status["rule"] = rs.cite("game.winner")
        return status
    rule = rs.cite(cause)
    if rs.deciding(cause):
        rule["decided_by"] = [rs.cite(other) for other in rs.deciding(cause)]
    status.update(over=True, winner=names[winner], rule=rule,
                  reason="target reached" if reached else "another end condition (mercy or floor)")
    return status


