"""The double-dummy solver: speed against DDS (``endplay``'s ``solve_board`` in its one-value mode,
``SolveMode.OptimalOne``) on the same deals in one run; searches of one deal after one another (all four
leaders, a hand reviewed card by card) against one search, ours and DDS's; the full answer (value and
principal line) against the value alone; its agreement with DDS under bridge play with spades trumps, its
agreement with plain minimax under every bundled variant, and the API latency of a claim against ``/v1/score``.

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

from rulespec.app.claims import answer_solve
from rulespec.core import cards as C
from rulespec.model.ruleset import load_ruleset
from rulespec.model.variants import bundled_ids
from rulespec.solve.native import NativeUnavailable, forget, native_module, ready, searcher
from rulespec.solve.search import Budget, Goal, Position, Search

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from solve_helpers import (BRIDGE_SPADES, NS, at_position, dds_tricks, goals_of, hands_body,  # noqa: E402
                           minimax, pbn, random_position)

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


def _cpu(work) -> tuple[float, object]:
    """The CPU seconds ``work()`` took (from tables emptied: ``forget``), and what it returned."""
    forget()
    start = time.process_time()
    out = work()
    return time.process_time() - start, out


def _values(rs, positions: list[Position]) -> list[int]:
    """N/S's tricks from each position, searched one after the other (each search given back before the next, so
    the next of the deal takes its tables)."""
    return [searcher(rs, pos, NS).value() for pos in positions]


def _review(rs, pos: Position, rng: random.Random) -> tuple[list[Position], list[int], list[int]]:
    """A hand played out from ``pos`` by random legal cards (as a recorded hand with its mistakes): the position
    before each card, the cards, and N/S's tricks won before each."""
    state, positions, cards, won, before = at_position(rs, pos), [], [], 0, []
    while not state.over:
        positions.append(Position(list(state.hands), state.leader, list(state.trick), state.number, state.broken,
                                  state.played))
        before.append(won)
        card = rng.choice(C.card_list(state.legal()))
        cards.append(card)
        state.play(card)
        if len(state.trick) == 4:
            won += state.finish_trick() % 2 == 0
    return positions, cards, before


def _dds_same_deal(pos: Position, cards: list[int]) -> tuple[list[float], float, float, list[int]]:
    """DDS's CPU seconds on one deal: each leader's value alone (the deal new to it), the four leaders' (four
    ``solve_board`` calls, its table kept between calls of one deal), the hand reviewed (``analyse_play``: the
    value after each card, one call), and the review's values (N/S's tricks in the whole hand)."""
    from endplay.dds import analyse_play, solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    def deal(leader: int) -> Deal:
        return Deal(pbn(pos), first=Player(leader), trump=Denom.spades)

    def other() -> None:        # another deal, so that DDS's next search of ours starts afresh
        dds_tricks(Position([1 << 0, 1 << 13, 1 << 26, 1 << 39], 0, [], 1, False, 0))
    alone = []
    for k in range(4):
        other()
        start = time.process_time()
        solve_board(deal((pos.leader + k) % 4), SolveMode.OptimalOne)
        alone.append(time.process_time() - start)
    other()
    start = time.process_time()
    for k in range(4):
        solve_board(deal((pos.leader + k) % 4), SolveMode.OptimalOne)
    four = time.process_time() - start
    names = [C.card_name(card).replace("10", "T") for card in cards]
    other()
    start = time.process_time()
    values = list(analyse_play(deal(pos.leader), [name[-1] + name[:-1] for name in names], declarer_is_first=True))
    review = time.process_time() - start
    left = pos.hands[pos.leader].bit_count()
    return alone, four, review, values if pos.leader % 2 == 0 else [left - v for v in values]


def same_deal(deals: int = 50, seed: int = 5, size: int = 13) -> dict:
    """Searches of one deal after one another against one search (item 5 of issue 34), ours and DDS's, CPU s per
    deal (random full deals, bridge-spades, N/S's tricks): each leader's value alone, from empty tables; all four
    leaders' values one after the other (the deal's leader first); the hand's review: the value of each of the
    positions before each card of the hand played out at random (52; mid-trick ones included).  Ours: each search
    takes the tables the one before gave back (``solve.native``).  DDS: four ``solve_board`` calls on one deal (it
    keeps its table between calls of one deal); the review with ``analyse_play`` (one call; its values from the 49
    positions up to the last trick's, which it does not analyse).  "One leader" is the deal's own leader alone
    (the first of the four) and, beside it, the four leaders' mean alone (a leader's typical cost: the first may
    happen to be the cheapest or the dearest); the review's one search is the deal's first position.  Per deal
    the ratios four/one and review/one, and whether the review's values agree with DDS's."""
    rs, compiled, rng = _ready(seed, size)
    rows = []
    for _ in range(deals):
        pos = _full_deal(rs, rng, size)
        leaders = [Position(list(pos.hands), (pos.leader + k) % 4, [], pos.number, pos.broken, pos.played)
                   for k in range(4)]
        positions, cards, before = _review(rs, pos, rng)
        alone = [_cpu(lambda: _values(rs, [leader]))[0] for leader in leaders]
        four, _ = _cpu(lambda: _values(rs, leaders))
        review, values = _cpu(lambda: _values(rs, positions))
        d_alone, d_four, d_review, d_values = _dds_same_deal(pos, cards)
        totals = [value + won for value, won in zip(values, before)]
        one, mean, d_one, d_mean = alone[0], statistics.mean(alone), d_alone[0], statistics.mean(d_alone)
        rows.append({"one_s": round(one, 4), "mean_one_s": round(mean, 4), "four_s": round(four, 4),
                     "review_s": round(review, 4), "four_ratio": round(four / one, 3),
                     "four_mean_ratio": round(four / mean, 3), "review_ratio": round(review / one, 3),
                     "dds_one_s": round(d_one, 5), "dds_four_s": round(d_four, 5), "dds_review_s": round(d_review, 5),
                     "dds_four_ratio": round(d_four / d_one, 3), "dds_four_mean_ratio": round(d_four / d_mean, 3),
                     "dds_review_ratio": round(d_review / d_one, 3),
                     "agrees": totals[:len(d_values)] == d_values[:len(totals)]})
    out: dict = {"deals": deals, "positions": 4 * size, "search": compiled[0],
                 "agree_with_dds": sum(row["agrees"] for row in rows)}
    for key in ("one_s", "mean_one_s", "four_s", "review_s", "four_ratio", "four_mean_ratio", "review_ratio",
                "dds_one_s", "dds_four_s", "dds_review_s", "dds_four_ratio", "dds_four_mean_ratio",
                "dds_review_ratio"):
        out[f"median_{key}"] = statistics.median(row[key] for row in rows)
    out["per_deal"] = rows
    return out


def line_cost(deals: int = 50, seed: int = 1, size: int = 13) -> dict:
    """The full ``/v1/solve`` answer (``claims.answer_solve``: the tricks and the principal line, from the request
    body) against the value search alone, CPU s per deal from empty tables, the two in turns (item 6 of issue 34);
    ``speed``'s deals (same seed)."""
    rs, compiled, rng = _ready(seed, size)
    rows = []
    for i in range(deals):
        pos = _full_deal(rs, rng, size)
        body = hands_body(BRIDGE_SPADES, pos)
        timed = {}
        for kind in (("value", "answer") if i % 2 == 0 else ("answer", "value")):
            work = (lambda: _values(rs, [pos])[0]) if kind == "value" else (lambda: answer_solve(rs, body))
            timed[kind] = _cpu(work)
        answer = timed["answer"][1]
        rows.append({"value_s": round(timed["value"][0], 4), "answer_s": round(timed["answer"][0], 4),
                     "ratio": round(timed["answer"][0] / timed["value"][0], 3),
                     "same_value": answer["tricks"]["NS"] == timed["value"][1],
                     "line_cards": sum(len(trick["cards"]) for trick in answer["line"])})
    return {"deals": deals, "search": compiled[0], "same_value": sum(row["same_value"] for row in rows),
            "median_value_s": statistics.median(row["value_s"] for row in rows),
            "median_answer_s": statistics.median(row["answer_s"] for row in rows),
            "median_ratio": statistics.median(row["ratio"] for row in rows),
            "p95_ratio": nearest_rank(sorted(row["ratio"] for row in rows), 0.95), "per_deal": rows}


def _ready(seed: int, size: int) -> tuple:
    """The bridge-spades ruleset, its search (compiled or loaded: ``_compiled_s``) and the deals' generator, after
    one untimed search of a deal of ``size`` cards a seat (see ``speed``)."""
    rs = load_ruleset(BRIDGE_SPADES)
    compiled = _compiled_s(rs)
    _ours_timed(rs, _full_deal(rs, random.Random(seed + 1000), size), 60.0)
    return rs, compiled, random.Random(seed)


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
    bundled variant: ours (compiled where the table has it, and the Python search) against plain minimax over
    ``HandState``; in partnerships for N/S or for one seat's tricks, where each plays alone (cut-throat, solo)
    for a seat's tricks claimed alone or a nil bidder's against everyone else (``goals_of``); a position
    agrees when both equal minimax."""
    checked = agree = unbroken = alone = 0
    variants = bundled_ids()
    for variant in variants:
        rs = load_ruleset(variant)
        partners = C.table_of(rs.params).partners
        alone += not partners
        rng = random.Random(f"{seed}{variant}")
        for _ in range(per_variant):
            pos = random_position(rs, rng, rng.randint(1, 4))
            if partners:
                goal = NS if rng.random() < 0.5 else Goal.of_team(1, 1 << rng.randrange(4))
            else:
                goal = rng.choice(goals_of(rs, rng))
            checked += 1
            unbroken += not pos.broken
            expected = minimax(at_position(rs, pos), goal)
            agree += searcher(rs, pos, goal).value() == Search(rs, pos, goal).value() == expected
    return {"checked": checked, "agree": agree, "unbroken": unbroken, "variants": len(variants), "alone": alone}


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
    parser.add_argument("--same-deal", type=int, default=50, help="deals of the four-leader and review runs")
    args = parser.parse_args()
    for name, result in (("same deal", same_deal(args.same_deal)), ("line cost", line_cost(args.same_deal))):
        rows = result.pop("per_deal")
        print(f"{name}:", result)
        for row in rows:
            print("   ", row)
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
