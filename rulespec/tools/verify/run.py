"""Verify one variant: explore, check, and gather the findings in one record."""
from __future__ import annotations

import functools

from ...app.progress import Progress, counted
from ...core import cards as C
from ...model.ruleset import Ruleset, load_ruleset
from ...model.variants import bundled_ids
from . import nonterm
from .checks import problems, rule_usage
from .doc_claims import CLAIMS, run_claim
from .openpoints import open_points
from .states import Budget, Evidence, explore, random_games

LIGHT_HANDS = 60


@functools.lru_cache(maxsize=64)
def _table(ref: str) -> C.Table:
    return C.table_of(load_ruleset(ref).params)


@functools.lru_cache(maxsize=32)
def _light(ref: str) -> tuple[Ruleset, Evidence]:
    """A bundled variant with a short random exploration, for checking other documents' claims."""
    rs = load_ruleset(ref)
    ev = Evidence(rs)
    random_games(rs, ev, LIGHT_HANDS, "claims", 200)
    return rs, ev


def check_claims(rs: Ruleset, ev: Evidence, progress: Progress | None = None) -> list[dict]:
    """The document's claims under its own variant, and under which bundled variants each holds (each
    claim told to ``progress``)."""
    out = []
    claims = [c for c in CLAIMS if c.doc == rs.doc]
    for claim in counted(claims, f"{rs.id}: the document's claims", progress):
        counter = run_claim(claim, rs, ev)
        under = {ref: run_claim(claim, *_light(ref)) is None for ref in bundled_ids()
                 if _table(ref) == C.table_of(rs.params)}     # (a document's claims are of its own table)
        out.append({"id": claim.id, "cite": claim.cite, "claim": claim.text,
                    "holds": counter is None, "counterexample": counter,
                    "holds_under": [r for r, ok in under.items() if ok],
                    "fails_under": [r for r, ok in under.items() if not ok]})
    return out


def _random_play(ev: Evidence, budget: Budget) -> dict:
    return {"games_finished": len(ev.game_lengths), "longest_finished": max(ev.game_lengths, default=0),
            "unfinished_after": budget.max_game_hands, "games_unfinished": ev.unfinished,
            "all_end_within_bound": ev.unfinished == 0}


def verify(rs: Ruleset, budget: Budget = Budget(), progress: Progress | None = None) -> dict:
    """Every check on one variant, as a JSON-ready record; ``progress`` is told how far it is."""
    ev = explore(rs, budget, progress)
    partners = C.table_of(rs.params) is C.FOUR       # (the search pairs the two partnerships of four seats)
    if not partners:
        ev.notes.append("endless games: the search for hands that repeat a position pairs two partnerships' "
                        "results, and this table has not two; only the random games below were checked")
    found = problems(rs, ev)
    dead, inert = rule_usage(rs, ev)
    if progress:
        progress(f"{rs.id}: endless games, open points", 0, 0)
    return {
        "variant": rs.id, "title": rs.title, "doc": rs.doc, "chain": rs.chain,
        "budget": budget.__dict__,
        "explored": {"hands": ev.hands, "play_states": len(ev.play_states), "bid_states": len(ev.bid_states),
                     "game_states": len(ev.game_states), "endgame_roots": len(ev.endgame_roots),
                     "endgame_nodes": ev.endgame_nodes, "bidding": ev.bidding},
        "dead_ends": [f.as_dict() for f in found if f.kind == "dead_end"],
        "conflicts": [f.as_dict() for f in found if f.kind == "conflict"],
        "nontermination": {"witnesses": nonterm.witnesses(rs) if partners else [],
                           "random_play": _random_play(ev, budget)},
        "dead_rules": dead, "inert_rules": inert,
        "open_points": open_points(rs, ev),
        "claims": check_claims(rs, ev, progress),
        "notes": ev.notes,
    }
