"""A bounded differential run: the same seeded deals played under several
variants, hand scores compared deal by deal.

Each variant plays every deal from the same cards (``deal_for``; variants with
the same pack get the same hands) with the same seeded random player.  A deal
differs when any team's points or bags differ from the first variant's; the
report names the rules, differing in text between the two variants, that
scored the hand.  Runs stop at ``max_deals`` deals or ``time_limit`` seconds.
"""
from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Mapping

from rulespec import cards as C
from rulespec.answers import MAX_VARIANTS, InputError, resolve_variant
from rulespec.engine import deal_for, play_hand
from rulespec.errors import GameError, RulespecError
from rulespec.policies import RandomPolicy
from rulespec.ruleset import Ruleset

MAX_LISTED = 50  # differing deals shown in full


def _options(req: Mapping, max_deals: int, time_limit: float) -> tuple[int, str, float]:
    for key in req:
        if key not in ("variants", "deals", "seed", "time_limit"):
            raise InputError(f"unknown key '{key}' (allowed: variants, deals, seed, time_limit)", key)
    deals = req.get("deals", 20)
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= max_deals:
        raise InputError(f"deals is a whole number from 1 to {max_deals}", "deals")
    seed = req.get("seed", "0")
    if isinstance(seed, bool) or not isinstance(seed, (int, str)) or len(str(seed)) > 64:
        raise InputError("seed is a whole number or a string of at most 64 characters", "seed")
    limit = req.get("time_limit", time_limit)
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or not 0 < limit <= time_limit:
        raise InputError(f"time_limit is a number of seconds, more than 0 and at most {time_limit}", "time_limit")
    return deals, str(seed), float(limit)


def _play(rs: Ruleset, seed: str, index: int) -> dict:
    dealer = index % 4
    try:
        record = play_hand(rs, deal_for(seed, index, rs), dealer, RandomPolicy(random.Random(f"play:{seed}:{index}")))
    except GameError as exc:
        return {"error": {"detail": exc.message, "field": exc.field, "rule": exc.rule, "cite": exc.cite}}
    except RulespecError as exc:  # a rule that fails at run time (e.g. divides by zero)
        return {"error": {"detail": str(exc), "field": "", "rule": None, "cite": None}}
    results = record.pop("_results")
    lines = [dict(line, team=C.TEAMS[t]) for t, r in enumerate(results) for line in r.lines]
    return {"bids": record["bids"], "tricks_per_seat": record["tricks_per_seat"], "score": record["score"],
            "lines": lines}


def _culprits(base: Ruleset, other: Ruleset, rulings: list[dict]) -> list[str]:
    used = {line["rule"] for r in rulings for line in r.get("lines", ())}
    return sorted(r for r in used if r in base.rules and r in other.rules and base.rules[r].text != other.rules[r].text)


def run_diff(req, max_deals: int, time_limit: float) -> dict:
    """Play up to ``deals`` seeded deals under each variant; report where hand scores differ and why."""
    if not isinstance(req, Mapping):
        raise InputError("expected a JSON object", "body")
    variants = req.get("variants")
    if not isinstance(variants, list) or not 2 <= len(variants) <= MAX_VARIANTS:
        raise InputError(f"expected a list of 2 to {MAX_VARIANTS} variants", "variants")
    deals, seed, limit = _options(req, max_deals, time_limit)
    rulesets = [resolve_variant(v, f"variants[{i}]") for i, v in enumerate(variants)]
    keys = [rs.id if rs.id not in [r.id for r in rulesets[:i]] else f"{rs.id}#{i}" for i, rs in enumerate(rulesets)]
    start = time.monotonic()
    listed, by_rule, totals = [], Counter(), {k: {t: 0 for t in C.TEAMS} for k in keys}
    run = differ = 0
    stopped = None
    for index in range(deals):
        if time.monotonic() - start > limit:
            stopped = "time limit"
            break
        rulings = {k: _play(rs, seed, index) for k, rs in zip(keys, rulesets)}
        run += 1
        for k, ruling in rulings.items():
            for t in C.TEAMS:
                totals[k][t] += ruling["score"][t]["points"] if "score" in ruling else 0
        base = rulings[keys[0]]
        rules: set[str] = set()
        differs = False
        for k, rs in zip(keys[1:], rulesets[1:]):
            if rulings[k].get("score") != base.get("score") or "error" in rulings[k] or "error" in base:
                differs = True
                rules.update(_culprits(rulesets[0], rs, [base, rulings[k]]))
        if differs:
            differ += 1
            by_rule.update(rules)
            if len(listed) < MAX_LISTED:
                listed.append({"deal": index, "dealer": C.SEATS[index % 4], "rules": sorted(rules), "rulings": rulings})
    return {"variants": keys, "seed": seed, "deals_requested": deals, "deals_run": run, "deals_differing": differ,
            "stopped": stopped, "elapsed_seconds": round(time.monotonic() - start, 3),
            "points_total": totals,
            "rules": [{"rule": r, "deals": n} for r, n in sorted(by_rule.items(), key=lambda kv: (-kv[1], kv[0]))],
            "differing_rules": {k: sorted(r for r in rulesets[0].rules if r in rs.rules
                                          and rulesets[0].rules[r].text != rs.rules[r].text)
                                for k, rs in zip(keys[1:], rulesets[1:])},
            "deals": listed}
