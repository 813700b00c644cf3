"""The double-dummy solver: speed against DDS (``endplay``'s ``solve_board`` in its one-value mode,
``SolveMode.OptimalOne``) on the same deals in one run, its agreement with DDS under bridge play with
spades trumps, its agreement with plain minimax under every bundled variant, and the API latency of a
claim against ``/v1/score``.

Ours is the compiled search (``solve.native``) where the ruleset compiles, as the service uses it;
its compile (or load from numba's disk cache) is done before any timing and reported apart.

``python -m bench.solve [--deals N] [--check N] [--check-sizes K ...] [--minimax N]`` runs them on their
own."""
from __future__ import annotations

import argparse
import math
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from rulespec.model.ruleset import load_ruleset
from rulespec.model.variants import bundled_ids
from rulespec.solve.native import NativeUnavailable, native_module, ready, searcher
from rulespec.solve.search import Budget, Goal, Search

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from solve_helpers import (BRIDGE_SPADES, NS, at_position, dds_tricks, hands_body, minimax,  # noqa: E402
                           random_position)

SCORE_BODY = {"variant": "classic", "bids": {"N": "nil", "E": 3, "S": 4, "W": 3},
              "tricks": {"N": 0, "E": 4, "S": 5, "W": 4}}


def _dds_timed(pos) -> tuple[float, int]:
    """DDS's CPU seconds and N/S tricks for ``pos`` (DDS runs in this process, on one thread)."""
    start = time.process_time()
    tricks = dds_tricks(pos)
    return time.process_time() - start, tricks


def _full_deal(rs, rng: random.Random, size: int):
    pos = random_position(rs, rng, size)
    while pos.trick:
        pos = random_position(rs, rng, size)
    return pos


def _ours_timed(rs, pos, cap: float) -> tuple[float, int | None, int]:
    """Our CPU seconds, N/S tricks (None: not finished within ``cap`` seconds) and nodes for ``pos``."""
    start = time.process_time()
    search = searcher(rs, pos, NS, Budget(seconds=cap))
    try:
        value: int | None = search.value()
    except ValueError:          # SearchBudgetError: the cap was reached
        value = None
    return time.process_time() - start, value, search.nodes


def nearest_rank(ordered: list[float], share: float) -> float:
    """The ``share`` quantile of ``ordered`` (ascending) by the nearest-rank method: the smallest value with at
    least that share of the values at or below it (of 20 values, the p95 is the 19th; of 100, the 95th)."""
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def speed(deals: int = 100, cap: float = 120.0, seed: int = 1, size: int = 13) -> dict:
    """Deals of ``size`` cards a seat (one leader, one value) solved by ours and by DDS
    (``solve_board`` in ``SolveMode.OptimalOne``) one after the other, in CPU seconds; ratios per deal.
    A deal ours cannot finish within ``cap`` seconds (wall clock) counts at its time then, so its ratio
    and the median and p95 are lower bounds."""
    rs = load_ruleset(BRIDGE_SPADES)
    rng = random.Random(seed)
    rows = []
    dds_tricks(_full_deal(rs, rng, 2))       # DDS allocates its tables on the first call: not timed
    compiled = _compiled_s(rs)
    # nor is our first search of this size: the kernel finds the table's first huge pages (numpy advises them
    # for large arrays) by compacting memory, 0.13 to 0.25 s measured, once a process
    warm = _ours_timed(rs, _full_deal(rs, random.Random(seed + 1000), size), cap)[0]
    for _ in range(deals):
        pos = _full_deal(rs, rng, size)
        dds, expected = _dds_timed(pos)
        ours, value, nodes = _ours_timed(rs, pos, cap)
        rows.append({"ours_s": round(ours, 4), "dds_s": round(dds, 5), "ratio": round(ours / max(dds, 1e-6), 1),
                     "nodes": nodes, "finished": value is not None, "agrees": value == expected})
    ratios = sorted(row["ratio"] for row in rows)
    return {"deals": deals, "cards": size, "cap_s": cap, "search": compiled[0], "compile_s": compiled[1],
            "first_search_s": round(warm, 3),
            "unfinished": sum(not row["finished"] for row in rows),
            "agree_with_dds": sum(row["agrees"] for row in rows),
            "median_ratio": statistics.median(ratios),
            "p95_ratio": nearest_rank(ratios, 0.95), "worst_ratio": ratios[-1],
            "median_ours_s": statistics.median(row["ours_s"] for row in rows),
            "median_dds_s": statistics.median(row["dds_s"] for row in rows),
            "per_deal": rows}


def _compiled_s(rs) -> tuple[str, float]:
    """Which search runs under ``rs`` (compiled or Python) and the seconds its compile (or load) took."""
    start = time.perf_counter()
    try:
        native_module(rs)
    except NativeUnavailable:
        return "python", 0.0
    return "compiled", round(time.perf_counter() - start, 2)


def dds_agreement(count: int = 500, seed: int = 2, sizes: tuple[int, ...] = (4, 5, 6, 7, 8)) -> dict:
    """Random deals (of ``sizes`` cards per seat) and leaders: our trick count against DDS's; and the CPU
    seconds both took."""
    rs = load_ruleset(BRIDGE_SPADES)
    rng = random.Random(seed)
    compiled = _compiled_s(rs)
    agree = 0
    ours = dds = 0.0
    for _ in range(count):
        pos = _full_deal(rs, rng, rng.choice(sizes))
        start = time.process_time()
        value = searcher(rs, pos, NS).value()
        middle = time.process_time()
        agree += value == dds_tricks(pos)
        ours, dds = ours + middle - start, dds + time.process_time() - middle
    return {"checked": count, "agree": agree, "sizes": list(sizes), "search": compiled[0],
            "ours_cpu_s": round(ours, 1), "dds_cpu_s": round(dds, 1)}


def minimax_agreement(per_variant: int = 160, seed: int = 3) -> dict:
    """Random end positions of one to four tricks (trumps broken or not, mid-trick or not) under every
    bundled variant: ours (compiled, and the Python search) against plain minimax over ``HandState``, for
    N/S and for one seat's tricks; a position agrees when both equal minimax."""
    checked = agree = unbroken = 0
    for variant in bundled_ids():
        rs = load_ruleset(variant)
        rng = random.Random(f"{seed}{variant}")
        for _ in range(per_variant):
            pos = random_position(rs, rng, rng.randint(1, 4))
            goal = NS if rng.random() < 0.5 else Goal(1, 1 << rng.randrange(4))
            checked += 1
            unbroken += not pos.broken
            expected = minimax(at_position(rs, pos), goal)
            agree += searcher(rs, pos, goal).value() == Search(rs, pos, goal).value() == expected
    return {"checked": checked, "agree": agree, "unbroken": unbroken, "variants": len(bundled_ids())}


def claim_latency(rounds: int = 200, seed: int = 4, tricks: int = 6) -> dict:
    """Median and p95 latency (in-process Flask client) of POST /v1/claim on random positions of
    ``tricks`` tricks against POST /v1/score; and the first claim's (the ruleset's search loaded from
    numba's disk cache in this process), not counted in the others.  The module is compiled first if it
    is not in the disk cache (a service request never compiles: ``solve.native.searcher``)."""
    from service.app import create_app
    client = create_app().test_client()
    rs = load_ruleset("standard")
    if not ready(rs):
        subprocess.run([sys.executable, "-c", "from rulespec.solve.native import precompile; precompile('standard')"],
                       check=True)
    rng = random.Random(seed)
    bodies = []
    for _ in range(rounds):
        pos = _full_deal(rs, rng, tricks)
        bodies.append({**hands_body("standard", pos), "claim": {"side": "NS", "tricks": rng.randint(0, tricks)}})

    def timed(path: str, body: dict) -> float:
        start = time.perf_counter()
        resp = client.post(path, json=body)
        assert resp.status_code == 200, resp.get_data(as_text=True)
        return time.perf_counter() - start

    first = timed("/v1/claim", bodies[0])
    score, claim = [], []
    for body in bodies:       # taking turns, so that a drift in the machine's speed touches both alike
        score.append(timed("/v1/score", SCORE_BODY))
        claim.append(timed("/v1/claim", body))
    score.sort()
    claim.sort()
    return {"rounds": rounds, "tricks": tricks, "first_claim_ms": first * 1000,
            "score_ms": statistics.median(score) * 1000,
            "claim_ms": statistics.median(claim) * 1000, "claim_p95_ms": nearest_rank(claim, 0.95) * 1000,
            "ratio": statistics.median(claim) / statistics.median(score)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=100, help="full deals timed against DDS")
    parser.add_argument("--cap", type=float, default=120.0, help="seconds one of our full solves may take")
    parser.add_argument("--check", type=int, default=500, help="deals checked against DDS")
    parser.add_argument("--check-sizes", type=int, nargs="*", default=[4, 5, 6, 7, 8],
                        help="cards a seat of the deals checked against DDS (13: full deals)")
    parser.add_argument("--minimax", type=int, default=160, help="end positions per bundled variant")
    parser.add_argument("--sizes", type=int, nargs="*", default=[13],
                        help="cards a seat of the deals timed against DDS (13: full deals)")
    args = parser.parse_args()
    print("claim latency:", claim_latency())
    print("minimax agreement:", minimax_agreement(args.minimax))
    print("DDS agreement:", dds_agreement(args.check, sizes=tuple(args.check_sizes)))
    for size in args.sizes:
        result = speed(args.deals, args.cap, size=size)
        rows = result.pop("per_deal")
        print(f"speed, {size} cards a seat:", result)
        for row in rows:
            print("   ", row)


if __name__ == "__main__":
    main()
