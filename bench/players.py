"""Player strength (docs/players.md): duplicate matches and self-play on the same deals.

* ``duplicate``: every deal is played twice from 0-0, player A at North-South and B at East-West, then the
  partnerships swapped (the same cards, the same dealer); the score of a deal is A's points per hand minus
  B's, so the luck of the cards cancels.  The mean over the deals with a 95% interval (normal, from the
  deals' spread).
* ``self_play``: every seat one player (sensible, then sampled), each deal its own hand from 0-0: the set rate
  (of the sides with a contract) and the success of ordinary nils, with 95% Wilson intervals and the 95%
  interval of the paired gap; the nils on deals picked because their bids hold one.
* ``bid_error``: how far the sensible player's count of a side's tricks (its bids) is from what the side
  takes double dummy on the deal itself (the evaluation the sampled player bids by).
"""
from __future__ import annotations

import math
import random
import statistics
import time

PAIRS = (("sensible", "random"), ("sampled", "sensible"))
SELF_VARIANTS = ("standard", "classic", "house")


def _players(name: str, samples: int):
    from rulespec.app.simulation import players
    return players(name, samples)


def _interval(values: list[float]) -> dict:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return {"mean": round(mean, 2), "low": round(mean - half, 2), "high": round(mean + half, 2), "n": len(values)}


def _wilson(part: int, whole: int) -> dict:
    if not whole:
        return {"rate": None, "low": None, "high": None, "n": 0}
    p, z = part / whole, 1.96
    centre = (p + z * z / (2 * whole)) / (1 + z * z / whole)
    half = z * math.sqrt(p * (1 - p) / whole + z * z / (4 * whole * whole)) / (1 + z * z / whole)
    return {"rate": round(p, 4), "low": round(centre - half, 4), "high": round(centre + half, 4), "n": whole}


def _hand(rs, deal: list[int], dealer: int, seats: list) -> list[int]:
    from rulespec.game.engine import play_hand
    from rulespec.game.policies import Seats
    record = play_hand(rs, list(deal), dealer, Seats(seats), record=False)
    return [record["_results"][0].points, record["_results"][1].points]


def duplicate(variant: str, a: str, b: str, deals: int, seed: str = "players", samples: int = 8) -> dict:
    """``deals`` deals of ``variant`` played twice, ``a`` against ``b`` (see the module's text)."""
    from rulespec.game.engine import deal_for
    from rulespec.model.ruleset import load_ruleset
    rs = load_ruleset(variant)
    make_a, make_b = _players(a, samples), _players(b, samples)
    scores, start = [], time.process_time()
    for i in range(deals):
        deal, dealer = deal_for(f"{seed}:{variant}", i, rs), i % 4
        pa, pb = make_a(random.Random(f"{seed}:{i}:a")), make_b(random.Random(f"{seed}:{i}:b"))
        first = _hand(rs, deal, dealer, [pa, pb, pa, pb])
        pa, pb = make_a(random.Random(f"{seed}:{i}:a")), make_b(random.Random(f"{seed}:{i}:b"))
        second = _hand(rs, deal, dealer, [pb, pa, pb, pa])
        scores.append(((first[0] - first[1]) + (second[1] - second[0])) / 2)
    return {"variant": variant, "a": a, "b": b, "samples": samples, "points_per_hand": _interval(scores),
            "cpu_s": round(time.process_time() - start, 1)}


def _outcome(record: dict) -> tuple[int, int, int, int]:
    """A hand's contracts (sides with one), how many were set, its ordinary nil bids and how many succeeded."""
    contracts = [r for r in record["_results"] if r.contract > 0]
    nils = [seat for seat, bid in enumerate(record["_bids"]) if bid.kind == "nil"]
    return (len(contracts), sum(not r.made for r in contracts), len(nils),
            sum(record["_won"][seat] == 0 for seat in nils))


def _paired(counts: list[tuple[int, int, int]]) -> dict:
    """Two players' rates on the same hands (``counts``: per hand the cases, A's and B's successes) with the 95%
    interval of their difference (A minus B, in points; the hands' paired differences, a ratio estimate)."""
    whole = sum(c for c, _, _ in counts)
    a, b = _wilson(sum(x for _, x, _ in counts), whole), _wilson(sum(y for _, _, y in counts), whole)
    if not whole or len(counts) < 2:
        return {"a": a, "b": b, "gap": None}
    per_case = whole / len(counts)
    gap = (a["rate"] - b["rate"]) * 100
    half = 196 * statistics.stdev(x - y for _, x, y in counts) / math.sqrt(len(counts)) / per_case
    return {"a": a, "b": b, "gap": {"points": round(gap, 1), "low": round(gap - half, 1), "high": round(gap + half, 1)}}


def self_play(variant: str, deals: int, seed: str = "players", samples: int = 8, nils: int = 0,
              screen: int = 5000, players: tuple[str, str] = ("sensible", "sampled")) -> dict:
    """Sensible and sampled self-play (``players``; every seat the one player, each deal a hand from 0-0) on the
    same deals:
    the set rate of the sides with a contract and the success of ordinary nils, each player's with its 95%
    Wilson interval and the paired gap.  The sampled player bids by the sensible player's evaluation, so the
    contracts and nil bids are the same and only the play differs.  With ``nils``, the nil success is measured
    on that many deals (of the first ``screen``) where the bids hold a nil, since a nil is bid on about one deal
    in twenty."""
    from rulespec.game.engine import deal_for, play_hand
    from rulespec.model.ruleset import load_ruleset
    rs = load_ruleset(variant)
    sensible, sampled = (_players(name, samples) for name in players)
    start = time.process_time()

    def hand(i: int, make) -> tuple[int, int, int, int]:
        return _outcome(play_hand(rs, deal_for(f"{seed}:{variant}", i, rs), i % 4, make(random.Random(f"{seed}:{i}:a")),
                                  record=False))
    sets, nil_counts = [], []
    for i in range(deals):
        a, b = hand(i, sensible), hand(i, sampled)
        sets.append((a[0], a[1], b[1]))
        nil_counts.append((a[2], a[3], b[3]))
    if nils:
        nil_counts, picked = [], 0
        for i in range(screen):
            a = hand(i, sensible)
            if a[2]:
                b = hand(i, sampled)
                nil_counts.append((a[2], a[3], b[3]))
                picked += 1
                if picked == nils:
                    break
    set_rates, nil_rates = _paired(sets), _paired(nil_counts)
    return {"variant": variant, "players": list(players), "samples": samples, "hands": deals,
            "nil_hands": len(nil_counts), "set_rate": set_rates, "nil_success": nil_rates,
            "cpu_s": round(time.process_time() - start, 1)}


def bid_error(variant: str, deals: int, seed: str = "players") -> dict:
    """The sensible bids' count of each side's tricks against the tricks it takes double dummy (the first
    leader's, every hand known), over ``deals`` deals; and a full-deal solve's cost (CPU s, median)."""
    from rulespec.game.engine import deal_for, play_hand
    from rulespec.game.policies import SensiblePolicy
    from rulespec.game.bids import seat_rule
    from rulespec.model.ruleset import load_ruleset
    from rulespec.solve.native import searcher
    from rulespec.solve.search import Goal, Position
    rs = load_ruleset(variant)
    errors, solves = [], []
    for i in range(deals):
        deal, dealer = deal_for(f"{seed}:{variant}", i, rs), i % 4
        rec = play_hand(rs, list(deal), dealer, SensiblePolicy(random.Random(0)), record=False)
        leader = seat_rule(rs, "play.first_leader", dealer)
        for team in (0, 1):
            bids = [rec["_bids"][s] for s in (team, team + 2)]
            if any(b.kind != "regular" for b in bids):
                continue
            start = time.process_time()
            goal = Goal.of_team(team, 0b0101 << team)
            tricks = searcher(rs, Position(list(deal), leader, [], 1, False, 0), goal).value()
            solves.append(time.process_time() - start)
            errors.append(sum(b.n for b in bids) - tricks)
    return {"variant": variant, "sides": len(errors), "mean_error": round(statistics.fmean(errors), 2),
            "mean_abs_error": round(statistics.fmean(abs(e) for e in errors), 2),
            "within_one": round(sum(abs(e) <= 1 for e in errors) / len(errors), 3),
            "solve_cpu_s_median": round(statistics.median(solves), 3)}


def measure(match_deals: int = 1000, sampled_deals: int = 60, self_deals: int = 200, nil_deals: int = 100,
            samples: int = 8) -> dict:
    """Every player-strength figure of the bench table."""
    return {
        "sensible_vs_random": duplicate("standard", "sensible", "random", match_deals),
        "sampled_vs_sensible": duplicate("standard", "sampled", "sensible", sampled_deals, samples=samples),
        "self_play": {v: self_play(v, self_deals, samples=samples, nils=nil_deals) for v in SELF_VARIANTS},
        "bid_error": bid_error("standard", 40),
    }
