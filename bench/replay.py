"""Differential replay: the cost of comparing 5 variants on shared deals against 5 independent
single-variant runs of the same deals and policies, and the speed-up of ``--jobs 2`` over ``--jobs 1``.

The machine's speed drifts by tens of percent from one second to the next, so
the two sides are measured in alternating rounds (ABBA order) of CPU time on one
core, and the overhead is the median of the rounds' ratios.  The ``--jobs 2`` speed-up is the
median of alternating rounds of wall time, each round with the machine's own ceiling (two plain
CPU-bound processes against one after the other) and the CPU time both runs spent, which shows
whether splitting the work added any.
"""
from __future__ import annotations

import os
import resource
import statistics
import time

VARIANTS = ("tournament", "standard", "pirates", "house", "classic")


def _single(ref: str, deals: int, seed: str, policies: tuple[str, ...]) -> float:
    """CPU seconds for one variant to play the deals alone (what ``rulespec simulate`` would do)."""
    from rulespec.tools.diff.deals import seeded_deal
    from rulespec.tools.diff.replay import policy_for, record
    from rulespec.model.ruleset import load_ruleset
    rs = load_ruleset(ref)
    start = time.process_time()
    for index in range(deals):
        deal = seeded_deal(seed, index, rs)
        for policy in policies:
            record(rs, deal, policy_for(policy, seed, str(index)))
    return time.process_time() - start


def _diff(deals: int, seed: str, policies: tuple[str, ...], jobs: int, attribute: int = 0,
          clock=time.process_time) -> float:
    """Seconds of the 5-variant comparison by ``clock`` (CPU time of this process by default)."""
    from rulespec.tools.diff.driver import run
    from rulespec.tools.diff.deal_runs import DiffConfig
    cfg = DiffConfig(refs=VARIANTS, deals=deals, seed=seed, policies=policies, attribute=attribute)
    start = clock()
    run(cfg, jobs=jobs)
    return clock() - start


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


CEILING_WORK = 6_000_000     # loop steps each process spins in parallel_ceiling (about a second)


def parallel_ceiling(n: int | None = None, rounds: int = 3) -> float:
    """How much faster this machine runs two CPU-bound processes at once than one after the other
    (the best ``--jobs 2`` can hope for); the median of ``rounds``."""
    import multiprocessing
    n = n or CEILING_WORK
    ratios = []
    with multiprocessing.get_context("fork").Pool(2) as pool:
        for _ in range(rounds):
            start = time.perf_counter()
            _spin(n)
            _spin(n)
            serial = time.perf_counter() - start
            start = time.perf_counter()
            pool.map(_spin, [n, n])
            ratios.append(serial / (time.perf_counter() - start))
    return statistics.median(ratios)


def _jobs_run(deals: int, seed: str, policies: tuple[str, ...], jobs: int) -> tuple[float, float]:
    """Wall seconds and CPU seconds (this process and its workers) of one attributed 5-variant diff."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time()
    wall = _diff(deals, seed, policies, jobs=jobs, attribute=deals, clock=time.perf_counter)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    children = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, time.process_time() - cpu + children


def measure(deals: int = 400, seed: str = "bench", policies: tuple[str, ...] = ("random", "sensible"),
            rounds: int = 20, jobs_rounds: int = 4) -> dict:
    for ref in VARIANTS:                       # compile and warm caches outside the clock
        _single(ref, 2, seed, policies)
    _diff(20, seed, policies, jobs=1)
    times: dict[str, list[float]] = {"shared": [], "separate": []}
    cores = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cores)})      # both sides on one core
    try:
        for r in range(rounds):
            order = ("shared", "separate") if r % 4 in (0, 3) else ("separate", "shared")
            for side in order:
                if side == "shared":
                    times[side].append(_diff(deals, seed, policies, jobs=1))
                else:
                    times[side].append(sum(_single(ref, deals, seed, policies) for ref in VARIANTS))
    finally:
        os.sched_setaffinity(0, cores)
    # each round's two sides ran back to back: the median of the rounds' ratios drops the rounds
    # that a slow spell of the machine hit on one side only
    ratios = [a / b for a, b in zip(times["shared"], times["separate"])]
    # --jobs 2 against --jobs 1 in alternating rounds too, each round with the machine's ceiling beside it
    runs: dict[int, list[tuple[float, float]]] = {1: [], 2: []}
    ceilings = []
    for r in range(jobs_rounds):
        for jobs in ((1, 2) if r % 4 in (0, 3) else (2, 1)):
            runs[jobs].append(_jobs_run(deals, seed, policies, jobs))
        ceilings.append(parallel_ceiling(rounds=1))
    speedups = [one[0] / two[0] for one, two in zip(runs[1], runs[2])]
    inflation = [two[1] / one[1] for one, two in zip(runs[1], runs[2])]
    return {"deals": deals, "rounds": rounds, "separate": sum(times["separate"]), "shared": sum(times["shared"]),
            "overhead": statistics.median(ratios) - 1, "round_overheads": [x - 1 for x in ratios],
            "overhead_of_fastest": min(times["shared"]) / min(times["separate"]) - 1,   # a cross-check
            "jobs_rounds": jobs_rounds, "jobs1": statistics.median(w for w, _ in runs[1]),
            "jobs2": statistics.median(w for w, _ in runs[2]), "speedup": statistics.median(speedups),
            "round_speedups": speedups, "cpu_inflation": statistics.median(inflation),
            "parallel_ceiling": statistics.median(ceilings), "round_ceilings": ceilings}
