"""Audit a game record: each hand replayed under a variant, the first irregularity, each trick's winner,
each hand's score and the running game score; where the record carries the platform's scores, every
hand where they differ from the rule book's, with the clause that decides it.

Each hand is replayed as ``/v1/score`` replays a deal and play (``answers.answer_score`` through
``HandState``), with a hook that checks each trick's leader against the record.  The running score
starts from the record's own scores where it has them: a JSON hand's ``before``, a simulated hand's
totals less its points, or (PTN) the platform's total after the first hand less the rule book's points
for it (that hand is then not checked against the platform; a bag count the record lacks is read from
the last digit of the score, as under one point per overtrick).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..core import cards as C
from ..errors import InputError
from ..game import HandState
from ..records import HandRecord, Reading
from .answers import answer_score, with_readings
from .repeats import once
from .recorded import (Judge, Judges, judges, located, ordered, read_request_record, refuse_unread, request_fields,
                       score_body)

Before = tuple[tuple[int, ...], tuple[int, ...]]     # (scores, bags) by side: NS and EW, or each player alone


@dataclass
class Running:
    """The rule book's game so far: which game, the scores and bags after the last hand, the hands played,
    the end it reached, and the platform's totals after the last hand (where the record gives them)."""
    key: object = None
    scores: tuple[int, ...] = (0, 0)
    bags: tuple[int, ...] = (0, 0)
    hands: int = 0
    over: dict | None = None
    platform: tuple[int, ...] | None = None
    sides: tuple[str, ...] = C.TEAMS        # the game's sides (its table's: each player alone, by seat)

    def restart(self, key: object, before: Before, sides: tuple[str, ...]) -> None:
        self.key, self.scores, self.bags, self.sides = key, before[0], before[1], sides
        self.hands, self.over, self.platform = 0, None, None


class Trace:
    """The hook of one hand's replay: keeps the hand's state and stops at a trick whose recorded leader is not
    the seat the rules have lead it."""

    def __init__(self, record: HandRecord, judge: Judge):
        self.record, self.judge = record, judge
        self.state: HandState | None = None

    def see(self, state: HandState, card: int, field: str) -> None:
        self.state = state
        if state.trick:
            return
        trick = self.record.tricks[state.number - 1]
        if trick.leader is None or trick.leader == state.to_play:
            return
        rs, n = self.judge.rs, state.number
        if n == 1:
            raise InputError(f"the record has {C.SEATS[trick.leader]} lead the first trick; under {rs.id} "
                             f"{C.SEATS[state.to_play]} leads it", field, "play.first_leader",
                             rs.rules["play.first_leader"].cite)
        won = next(c for s, c in state.plays[-state.table.seats:] if s == state.to_play)
        raise InputError(f"the record has {C.SEATS[trick.leader]} lead trick {n}, so it gave trick {n - 1} to "
                         f"{C.SEATS[trick.leader]}; under {rs.id} {C.SEATS[state.to_play]} won trick {n - 1} with "
                         f"{C.card_name(won)}", field, "trick.winner", rs.rules["trick.winner"].cite)

    def tricks(self) -> list[dict]:
        """Each trick replayed: leader, cards by seat, winner, and where the record writes it."""
        state = self.state
        if state is None:
            return []
        out, seats = [], state.table.seats
        for i in range(0, len(state.plays), seats):
            plays = state.plays[i:i + seats]
            k = i // seats
            out.append({"number": k + 1, "leader": C.SEATS[plays[0][0]],
                        "cards": [{"seat": C.SEATS[s], "card": C.card_name(c)} for s, c in plays],
                        "winner": C.SEATS[state.winners[k]] if k < len(state.winners) else None,
                        **located(self.record, f"play[{k}]")})
        return out


def _replay(judge: Judge, record: HandRecord, before: Before, hands: int) -> tuple[dict | None, InputError | None,
                                                                                     Trace]:
    trace = Trace(record, judge)
    try:
        body = score_body(record, before, hands, judge.rs)
        answer = with_readings(judge.rs, answer_score(judge.rs, body, on_card=trace.see))
    except InputError as exc:
        return None, exc, trace
    return answer, None, trace


def _points(answer: dict) -> tuple[int, ...]:
    """Each side's points for the hand, in the table's order of sides."""
    return tuple(team["points"] for team in answer["teams"].values())


def _zero(judge: Judge) -> Before:
    """No score and no bags for any side of the judge's table."""
    zero = (0,) * C.table_of(judge.rs.params).sides
    return zero, zero


def _digit_bags(rs, scores: tuple[int, ...]) -> tuple[int, ...]:
    """Bags read from a score's last digit (under one point per overtrick and ten bags to a penalty)."""
    if rs.params["bags.limit"] != 10:
        return (0,) * len(scores)
    return tuple(s % 10 if s >= 0 else 0 for s in scores)


def _start(judge: Judge, record: HandRecord) -> tuple[Before, str]:
    """The scores and bags before the first hand of a game, and where they come from."""
    if record.before is not None:
        return record.before, "the record's scores before the hand"
    got = record.recorded
    if got is not None and got.totals is not None and got.points is not None:
        bags = (tuple(b - a for b, a in zip(got.bags, got.bags_added)) if got.bags and got.bags_added else
                _zero(judge)[1])
        return (tuple(t - p for t, p in zip(got.totals, got.points)), bags), "the record's totals less its points"
    if got is not None and got.totals is not None:
        return _start_from_total(judge, record, got.totals)
    return _zero(judge), "0 to 0: the record gives no scores"


def _start_from_total(judge: Judge, record: HandRecord, totals: tuple[int, ...]) -> tuple[Before, str]:
    """The scores before a game's first hand from the platform's total after it, less the rule book's points for
    the hand (which may depend on the bags before: read from the score so derived, once more)."""
    before = _zero(judge)
    for k in range(2):
        answer, _, _ = _replay(judge, record, before, 0)
        if answer is None and k == 0:
            return before, ("0 to 0: the record does not give the score before the hand, and the hand could not "
                            "be replayed to work it out from the platform's total after it")
        if answer is None:
            break
        scores = tuple(t - p for t, p in zip(totals, _points(answer)))
        before = (scores, _digit_bags(judge.rs, scores))
    return before, ("the platform's total after the hand less the rule book's points for it (the record does "
                    "not give the score before it; bags read from its last digit)")


def _game_key(record: HandRecord, judge: Judge) -> object:
    """Which game a hand belongs to: the game the record names; a hand with its own scores before it, or
    with no scores at all, on its own; else the hands of one Event under one variant (PTN)."""
    if record.game is not None:
        return ("game", record.game, judge.rs.id)
    if record.before is not None or record.recorded is None:
        return ("alone", record.number)
    return ("event", judge.rs.id, record.meta.get("Event"))


def _finding(record: HandRecord, exc: InputError, state: HandState | None) -> dict:
    """A replay stopped by a card, a bid or a leader the rules refuse (or an input problem)."""
    out = {"why": exc.message, "rule": exc.rule, "cite": exc.cite, "field": exc.field,
           **located(record, exc.field)}
    if exc.field.startswith("bids"):
        out.update(kind="bid", seat=exc.field[5:] or None, ruling="refused")
    elif exc.rule in ("trick.winner", "play.first_leader"):
        out.update(kind="leader", trick=state.number if state else None, ruling="the rest of the hand is not "
                   "replayed: the record's trick order no longer follows the rules")
    elif exc.field.startswith("play[") and state is not None and exc.rule:
        k, j = (int(part) for part in exc.field[5:-1].split("]["))
        out.update(kind="card", trick=state.number, seat=C.SEATS[state.to_play], ruling="refused",
                   card=C.card_name(record.tricks[k].cards[j]))
    else:
        out.update(kind="input")
    return out


def _first_irregular(record: HandRecord, answer: dict) -> dict | None:
    found = answer.get("irregularities")
    if not found:
        return None
    first = found[0]
    broken = first.get("broken") or {}
    trick = int(first["field"][5:first["field"].index("]")]) + 1 if first["field"].startswith("play[") else None
    return {"kind": "card", "trick": trick, "seat": first["seat"], "card": first["card"], "what": first["what"],
            "rule": broken.get("rule"), "cite": broken.get("cite"), "ruling": first["ruling"],
            "renege": first["renege"], "decided_by": first["decided_by"], "field": first["field"],
            **located(record, first["field"])}


def _deciding(lines: list[dict], difference: int) -> dict:
    """The clause that decides a difference: the one line whose points the platform's score lacks, else
    every line of the rule book's score."""
    alone = [ln for ln in lines if ln.get("points") == -difference]
    chosen = alone[:1] or [ln for ln in lines if ln.get("points")]
    why = ("the platform's score is the rule book's without this line" if alone else
           "the rule book's score is the sum of these lines; the platform's does not match it")
    return {"why": why, "lines": [{k: ln.get(k) for k in ("rule", "cite", "points", "why", "reason") if k in ln}
                                  for ln in chosen]}


def _platform(record: HandRecord, running: Running, derived: bool) -> tuple[tuple[int, ...] | None, str]:
    """The platform's points for the hand, and how they are known (or why not)."""
    got = record.recorded
    if got is None or (got.totals is None and got.points is None):
        return None, "the record carries no scores"
    if got.points is not None:
        return got.points, "the record's points for the hand"
    if derived:
        return None, "the record does not give the score before this hand: it cannot be checked"
    if running.platform is None:
        return None, "the hand before this one carries no score"
    return tuple(t - p for t, p in zip(got.totals, running.platform)), "the change in the record's totals"


def _compare(record: HandRecord, answer: dict, running: Running, derived: bool) -> tuple[dict, list[dict]]:
    points, how = _platform(record, running, derived)
    check: dict = {"checked": points is not None, "how": how}
    if points is None:
        return check, []
    check["points"] = dict(zip(running.sides, points))
    differences = []
    for k, team in enumerate(running.sides):
        ours = answer["teams"][team]["points"]
        if ours != points[k]:
            differences.append({"hand": record.number, "team": team, "platform": points[k], "rule_book": ours,
                                "difference": points[k] - ours,
                                "decided_by": _deciding(answer["teams"][team]["lines"], points[k] - ours),
                                **located(record, "score")})
    return check, differences


_MARKS = {"R": "a revoke", "L": "a lead out of turn", "I": "an insufficient bid", "S": "a call out of rotation"}


def _marks(record: HandRecord) -> list[dict]:
    """The irregularities the record itself marks (PBN's ``^R`` before a card, ``^L``)."""
    return [{"trick": n, "seat": C.SEATS[(record.play_seat + column) % 4],
             "card": C.card_name(row.cards[column]) if column < 4 and row.cards[column] is not None else None,
             "mark": _MARKS.get(mark, mark), **located(record, f"play[{n - 1}]")}
            for n, row in enumerate(record.rows or (), 1) for column, mark in row.marks]


def _hand_out(record: HandRecord, judge: Judge, trace: Trace, before: Before, source: str) -> dict:
    marks = _marks(record)
    sides = C.table_of(judge.rs.params).side_names
    return {"hand": record.number, "label": record.label, **located(record, ""), "variant": judge.rs.id,
            **({"record_marks": marks} if marks else {}),
            "dealer": C.SEATS[record.dealer],
            "bids": {s: str(record.bids[i]) for i, s in enumerate(C.SEATS[:len(record.hands)])},
            "before": {t: {"score": before[0][k], "bags": before[1][k]} for k, t in enumerate(sides)},
            "before_from": source, "notes": list(record.notes), "tricks": trace.tricks()}


def _scored(out: dict, record: HandRecord, answer: dict, running: Running, derived: bool) -> list[dict]:
    """The hand's score, its comparison with the platform's, and the running score moved on."""
    out["first_irregular"] = _first_irregular(record, answer)
    out["irregularities"] = answer.get("irregularities", [])
    sides = running.sides
    out["score"] = {t: {k: answer["teams"][t][k] for k in ("points", "bags_added", "score", "bags")} for t in sides}
    out["lines"] = {t: answer["teams"][t]["lines"] for t in sides}
    out["game"] = answer["game"]
    if answer.get("readings"):
        out["readings"] = answer["readings"]
    out["platform"], differences = _compare(record, answer, running, derived)
    if record.recorded is not None and record.recorded.totals is not None:
        out["platform"]["totals"] = dict(zip(sides, record.recorded.totals))
    out["differences"] = differences
    running.scores = tuple(answer["teams"][t]["score"] for t in sides)
    running.bags = tuple(answer["teams"][t]["bags"] for t in sides)
    return differences


def _unscored(out: dict, record: HandRecord, exc: InputError, trace: Trace, running: Running) -> None:
    out["first_irregular"] = _finding(record, exc, trace.state)
    out["score"] = None
    out["differences"] = []
    if record.recorded is not None and record.recorded.totals is not None:
        running.scores = record.recorded.totals
        out["running_note"] = "the hand could not be scored under the rules: the running score takes the record's"
    else:
        out["running_note"] = "the hand could not be scored under the rules: the running score leaves it out"


def _by_sides(record: HandRecord, table: C.Table) -> HandRecord:
    """``record`` without its scores where they are not by the table's sides (a PTN's, by partnership, under a
    variant where each plays alone): the hand is replayed and scored from 0, not checked against them."""
    got, before = record.recorded, record.before
    fits = [v is None or len(v) == table.sides for v in
            (*(() if got is None else (got.totals, got.points, got.bags, got.bags_added)),
             None if before is None else before[0])]
    if all(fits):
        return record
    return replace(record, recorded=None, before=None,
                   notes=(*record.notes, f"the record's scores are not by the {table.sides} sides of the variant's "
                                         "table: they are neither read nor checked"))


def audit_hand(record: HandRecord, judge_set: Judges, running: Running) -> dict:
    """One hand's audit; moves ``running`` on."""
    try:
        judge = judge_set.judge(record)
    except InputError as exc:
        return {"hand": record.number, **located(record, ""), "problem": {"message": exc.message, "field": exc.field}}
    table = C.table_of(judge.rs.params)
    if len(record.hands) != table.seats:   # (a record's scores and totals are by its table's sides)
        done, problem = None, {"message": f"this hand seats {len(record.hands)} players and variant "
                                          f"'{judge.rs.id}' seats {table.seats}"
                                          f"{'' if table.partners else ', each alone'}", "rule": "table.seats",
                               **located(record, "deal")}
    else:
        done, problem = ordered(record, judge_set)
    if problem is not None or done is None:
        return {"hand": record.number, "label": record.label, **located(record, ""), "variant": judge.rs.id,
                "problem": problem}
    done = _by_sides(done, table)
    key = _game_key(done, judge)
    derived, source = False, "the rule book's running score"
    if key != running.key:
        start, source = _start(judge, done)
        derived = source.startswith("the platform's total")
        running.restart(key, start, table.side_names)
    before = (running.scores, running.bags)
    answer, exc, trace = _replay(judge, done, before, running.hands)
    out = _hand_out(done, judge, trace, before, source)
    if running.over is not None:
        out["after_game_over"] = running.over
    if answer is None:
        _unscored(out, done, exc, trace, running)
    else:
        _scored(out, done, answer, running, derived)
        if answer["game"]["over"] and running.over is None:
            running.over = {"after_hand": done.number, **answer["game"]}
    running.hands += 1
    running.platform = done.recorded.totals if done.recorded is not None else None
    return out


def _summary(hands: list[dict]) -> dict:
    scored = [h for h in hands if h.get("score")]
    return {"hands": len(hands), "scored": len(scored),
            "legal": sum(1 for h in scored if not h.get("first_irregular")),
            "irregular": sum(1 for h in hands if h.get("first_irregular")),
            "not_replayed": sum(1 for h in hands if "problem" in h),
            "checked_against_platform": sum(1 for h in scored if h["platform"]["checked"]),
            "score_differs": len({h["hand"] for h in hands for _ in h.get("differences", [])})}


def answer_audit(req, allow_paths: bool = False) -> dict:
    """``POST /v1/audit``: ``{"record": text, "format"?: "ptn" | "pbn" | "json", "variant"?}``."""
    req = request_fields(req)
    reading = read_request_record(req)
    refuse_unread(reading)
    return once(audit(reading, judges(req.get("variant"), allow_paths)))     # a long text given once (``repeats``)


def audit(reading: Reading, judge_set: Judges) -> dict:
    """The audit of every hand of ``reading``."""
    running = Running()
    hands = [audit_hand(record, judge_set, running) for record in reading.hands]
    used = {}
    for judge in ([judge_set.given] if judge_set.given else list(judge_set.cache.values())):
        used.setdefault(judge.rs.id, judge.as_dict())
    return {"record": reading.as_dict(), "variants": list(used.values()), "hands": hands,
            "differences": [d for h in hands for d in h.get("differences", [])],
            "game": {"scores": {t: {"score": running.scores[k], "bags": running.bags[k]}
                                for k, t in enumerate(running.sides)},
                     "over": running.over is not None, "ended": running.over},
            "summary": _summary(hands)}
