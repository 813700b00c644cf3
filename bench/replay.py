"""Differential replay: the cost of comparing 5 variants on shared deals against 5 independent
single-variant runs of the same deals and policies, and the speed-up of ``--jobs 2`` over ``--jobs 1``."""
from __future__ import annotations

import time

VARIANTS = ("tournament", "standard", "pirates", "house", "classic")


def _single(ref: str, deals: int, seed: str, policies: tuple[str, ...]) -> float:
    """Seconds for one variant to play the deals alone (what ``rulespec simulate`` would do)."""
    from rulespec.diff.deals import seeded_deal
    from rulespec.diff.replay import policy_for, record
    from rulespec.ruleset import load_ruleset
    rs = load_ruleset(ref)
    start = time.perf_counter()
    for index in range(deals):
        deal = seeded_deal(seed, index, rs)
        for policy in policies:
            record(rs, deal, policy_for(policy, seed, str(index)))
    return time.perf_counter() - start


def _diff(deals: int, seed: str, policies: tuple[str, ...], jobs: int, attribute: int = 0) -> float:
    from rulespec.diff.runner import DiffConfig, run
    cfg = DiffConfig(refs=VARIANTS, deals=deals, seed=seed, policies=policies, attribute=attribute)
    start = time.perf_counter()
    run(cfg, jobs=jobs)
    return time.perf_counter() - start


def measure(deals: int = 400, seed: str = "bench", policies: tuple[str, ...] = ("random", "sensible")) -> dict:
    for ref in VARIANTS:                       # compile and warm caches outside the clock
        _single(ref, 2, seed, policies)
    separate = sum(_single(ref, deals, seed, policies) for ref in VARIANTS)
    shared = _diff(deals, seed, policies, jobs=1)
    jobs1 = _diff(deals, seed, policies, jobs=1, attribute=deals)
    jobs2 = _diff(deals, seed, policies, jobs=2, attribute=deals)
    return {"deals": deals, "separate": separate, "shared": shared, "overhead": shared / separate - 1,
            "jobs1": jobs1, "jobs2": jobs2, "speedup": jobs1 / jobs2}
