"""Open points: rules a variant took from a default because its document is
silent (or ambiguous), or a reading the clause index gives an alternative to,
each with a state where the choice matters.

A point comes from the rule itself (``unspecified:``, or inherited from
another document) or from the document's clause index
(``corpus/clauses/NNN.yaml``, status unspecified or ambiguous).  For each
rule an alternative reading is compiled in its place and the explored states
are replayed under both: the first state where the answers differ is where
the document's silence matters.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import yaml

from ...core import cards as C
from ...core.resources import data_dir
from ... import game as E
from ...errors import GameError, RulesFileError
from ...model.ruleset import Ruleset, compile_chain
from ...core.schema import BOOL, CARDS, INT, SLOTS, Slot
from ...model.variants import resolve_chain
from .checks import inert_reason
from .states import Evidence

CLAUSES_DIR = data_dir("corpus", "clauses")
SAMPLE = 400

# Readings other documents give (tried first), by rule.
_READINGS = {
    "game.target": ["250", "300", "1000"],
    "game.mercy": ["low.score <= -game.target", "lead >= 500"],
    "game.winner": ["if ns.score >= ew.score then NS else EW"],
    "game.target_reached": ["high.score > game.target", "high.score >= game.target"],
    "play.first_lead": ["hand - trump.suit", "hand"],
    "play.first_trick_trump": ["hand - trump.suit", "hand"],
    "play.first_trick_suit": ["if hand.has(clubs) then {lowest(hand & clubs)} else hand", "hand"],
    "blind_nil.exchange": ["0", "1", "2"],
    "nil.exchange": ["1", "2", "4"],
    "bid.team_min": ["4", "0"],
    "bid.team_max": ["10", "13"],
    "bid.team_valid": ["team.blind_nil_count <= 1", "true"],
    "blind_bid.allowed": ["bid.n == 7 or bid.n == 8", "false"],
    "blind_nil.allowed": ["opponents.score - team.score >= 100", "false"],
    "bonus.last_trick": ["if last_trick.won then 10 else 0", "0"],
    "renege.mode": ["forfeit", "transfer", "none"],
    "renege.transfer_tricks": ["3"],
    "scoring.set": ["-10 * team.contract", "0"],
    "nil.made": ["50", "100"],
    "nil.failed": ["-50", "-100"],
}


def readings(rs: Ruleset, name: str) -> list[str]:
    """Alternative texts for a rule, other documents' readings first."""
    rule = rs.rules[name]
    text = " ".join(rule.text.split())
    found = [str(c) for c in rule.choices or []] + _READINGS.get(name, []) + _generic_readings(text, SLOTS.get(name))
    return [t for i, t in enumerate(found) if " ".join(t.split()) != text and t not in found[:i]]


def _generic_readings(text: str, slot: Slot | None) -> list[str]:
    """A reading any rule of this type has: the negation, the double, another set of cards, the other options."""
    typ = slot.type if slot else None
    if typ == BOOL or text in ("true", "false"):
        return ["false" if text == "true" else "true" if text == "false" else f"not ({text})"]
    if text.lstrip("-").isdigit():
        return [str(int(text) * 2) if int(text) else "10"]
    if typ == INT:
        return [f"({text}) * 2"]
    if typ == CARDS:
        return ["hand" if text != "hand" else "hand - trump.suit"]
    if slot and slot.options:
        return list(slot.options)
    return []


def ablated(rs: Ruleset, name: str, text: str) -> Ruleset:
    """The ruleset with rule ``name`` replaced by ``text`` (compiled from the variant chain)."""
    chain = resolve_chain(rs.spec)
    original = next(s.rules.get(name) or s.params.get(name) for s in reversed(chain)
                    if name in s.rules or name in s.params)
    leaf = chain[-1]
    new = dataclasses.replace(original, text=text)
    if original.is_param:
        leaf = dataclasses.replace(leaf, params={**leaf.params, name: new}, problems=[])
    else:
        leaf = dataclasses.replace(leaf, rules={**leaf.rules, name: new}, problems=[])
    return compile_chain([*chain[:-1], leaf])


def _diff_play(a: Ruleset, b: Ruleset, ev: Evidence) -> dict | None:
    for st in ev.play_states[:SAMPLE * 3]:
        x = E.legal_cards(a, st.hand, st.trick, st.number, st.broken, st.played).cards
        y = E.legal_cards(b, st.hand, st.trick, st.number, st.broken, st.played).cards
        if x != y:
            return {"state": {"seat": C.SEATS[st.seat], "trick_number": st.number, "hand": C.card_names(st.hand),
                              "trick": [C.card_name(c) for c in st.trick], "trumps_broken": st.broken},
                    "as_encoded": C.card_names(x), "alternative": C.card_names(y), "question": "legal cards"}
    for number, trick in ev.tricks[:SAMPLE]:
        x, _ = E.trick_winner(a, list(trick), number)
        y, _ = E.trick_winner(b, list(trick), number)
        if x != y:
            return {"state": {"trick_number": number, "trick": [C.card_name(c) for c in trick]},
                    "as_encoded": C.card_name(trick[x]), "alternative": C.card_name(trick[y]),
                    "question": "trick winner"}
    return None


def _diff_bids(a: Ruleset, b: Ruleset, ev: Evidence) -> dict | None:
    for st in ev.bid_states[:SAMPLE]:
        x = E.legal_bids(a, st.seat, st.hand, st.dealer, list(st.bids), st.scores, st.bags)
        y = E.legal_bids(b, st.seat, st.hand, st.dealer, list(st.bids), st.scores, st.bags)
        if x != y:
            only_x = [str(v) for v in x if v not in y]
            only_y = [str(v) for v in y if v not in x]
            return {"state": {"seat": C.SEATS[st.seat], "dealer": C.SEATS[st.dealer],
                              "bids_so_far": {C.SEATS[s]: str(v) for s, v in enumerate(st.bids) if v is not None},
                              "scores": dict(zip(C.table_of(a.params).side_names, st.scores))},
                    "as_encoded": f"also allows {', '.join(only_x) or 'nothing more'}",
                    "alternative": f"also allows {', '.join(only_y) or 'nothing more'}", "question": "legal bids"}
    return None


def _points(rs: Ruleset, o, reneges: tuple[int, ...]) -> list[int] | str:
    try:
        return [r.points for r in E.score_hand(rs, o.bids, o.tricks, o.scores, o.bags, reneges, o.last)]
    except GameError as exc:
        return exc.message


def _diff_scores(a: Ruleset, b: Ruleset, ev: Evidence) -> dict | None:
    renege = (a.params["renege.mode"], b.params["renege.mode"]) != ("none", "none")
    for reneges in ((), (0,)) if renege else ((),):
        for o in ev.outcomes[:SAMPLE]:
            x, y = _points(a, o, reneges), _points(b, o, reneges)
            if x == y:
                continue
            names = C.table_of(a.params).side_names
            show = [dict(zip(names, v)) if isinstance(v, list) else v for v in (x, y)]
            return {"state": {"bids": {C.SEATS[s]: str(v) for s, v in enumerate(o.bids)},
                              "tricks": {C.SEATS[s]: t for s, t in enumerate(o.tricks)},
                              **({"renege_by": "N"} if reneges else {}),
                              "scores_before": dict(zip(names, o.scores)), "bags_before": dict(zip(names, o.bags))},
                    "as_encoded": show[0], "alternative": show[1], "question": "points for the hand"}
    return None


def _diff_game(a: Ruleset, b: Ruleset, ev: Evidence) -> dict | None:
    for scores, bags, hands in ev.game_states[:SAMPLE]:
        x = E.game_status(a, scores, bags, hands)
        y = E.game_status(b, scores, bags, hands)
        if (x["over"], x["winner"]) != (y["over"], y["winner"]):
            return {"state": {"scores": dict(zip(C.table_of(a.params).side_names, scores))},
                    "as_encoded": x["winner"] if x["over"] else "play on",
                    "alternative": y["winner"] if y["over"] else "play on", "question": "game over / winner"}
    return None


_BY_CONTEXT = {"play": (_diff_play,), "break": (_diff_play,), "trick": (_diff_play,), "card": (_diff_play,),
               "deck": (_diff_play,), "bid": (_diff_bids,), "team_bid": (_diff_bids,),
               "team_hand": (_diff_scores,), "nil_hand": (_diff_scores,), "bonus_hand": (_diff_scores,),
               "game": (_diff_game,), "seating": (_diff_bids, _diff_play)}
_ALL = (_diff_bids, _diff_play, _diff_scores, _diff_game)


def where_it_matters(rs: Ruleset, name: str, ev: Evidence) -> dict | None:
    """The first explored state whose answer changes under an alternative reading."""
    slot = SLOTS.get(name)
    diffs = _BY_CONTEXT.get(slot.context, _ALL) if slot and slot.context != "param" else _ALL
    for text in readings(rs, name)[:3]:
        try:
            alt = ablated(rs, name, text)
        except RulesFileError:
            continue
        for diff in diffs:
            found = diff(rs, alt, ev)
            if found:
                return {"alternative_rule": f"{name}: {text}", **found}
    return None


def load_clauses(doc: str, folder: Path = CLAUSES_DIR) -> list[dict]:
    """The clause index of a document (empty when it has none yet)."""
    path = folder / f"{doc}.yaml"
    if not doc or not path.is_file():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return [c for c in data.get("clauses") or [] if isinstance(c, dict)]


def open_points(rs: Ruleset, ev: Evidence, clauses_dir: Path = CLAUSES_DIR) -> list[dict]:
    """Every open point (reading choice) of the variant's document, with where it matters."""
    points = _variant_points(rs)
    unmapped = _clause_points(rs, points, clauses_dir)
    for name, point in points.items():
        point["cite"] = rs.rules[name].cite
        point["inert"] = inert_reason(rs, name)
        point["matters"] = where_it_matters(rs, name, ev)
    return [*points.values(), *unmapped]


def _variant_points(rs: Ruleset) -> dict[str, dict]:
    """The rules a variant took without a source: unspecified, or inherited from another variant (not those no
    variant sets: a slot's neutral value is the game without the rule, no document's reading)."""
    points: dict[str, dict] = {}
    for name, rule in rs.rules.items():
        if rule.neutral:        # no document's rule: the game without it (model/ruleset._ChainCompiler.check_complete)
            continue
        if rule.unspecified or rule.origin != rs.id:
            reason = (f"the document is silent: {rule.unspecified}" if rule.origin == rs.id and rule.unspecified
                      else f"not stated by {rs.doc or rs.id}: inherited from {rule.origin}"
                      + (f" ({rule.unspecified})" if rule.unspecified else ""))
            points[name] = {"rule": name, "text": rule.text, "source": "variant", "reason": reason}
    return points


def _clause_points(rs: Ruleset, points: dict[str, dict], clauses_dir: Path) -> list[dict]:
    """The clause index's reading choices (unspecified, ambiguous, or with an alternative) added to
    ``points`` by rule; the clauses that name no rule of the variant, returned."""
    unmapped = []
    for entry in load_clauses(rs.doc, clauses_dir):
        if entry.get("status") not in ("unspecified", "ambiguous") and not entry.get("alternative"):
            continue
        names = [r.split(":", 1)[1] for r in entry.get("rules") or [] if r.split(":", 1)[0] == rs.id]
        info = {"clause": entry.get("id"), "section": entry.get("section"), "status": entry.get("status"),
                "clause_text": entry.get("text"), "clause_reason": entry.get("reason"),
                "alternative": " ".join(str(entry.get("alternative") or "").split()) or None}
        for name in names:
            if name in rs.rules:
                points.setdefault(name, {"rule": name, "text": rs.rules[name].text, "source": "clause index",
                                         "reason": entry.get("reason") or entry.get("status")}).update(info)
        if not names:
            unmapped.append({"rule": None, "source": "clause index", "reason": entry.get("reason"), **info,
                             "matters": None})
    return unmapped
