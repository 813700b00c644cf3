"""The solver's bench code runs and returns well-formed results (tiny sizes; no timing is asserted)."""
from __future__ import annotations

import pytest

from bench import solve


def test_agreement_and_latency_runners():
    pytest.importorskip("endplay")
    result = solve.dds_agreement(count=3, sizes=(3,))
    assert result["checked"] == 3 and result["agree"] == 3
    result = solve.minimax_agreement(per_variant=1)
    assert result["checked"] == result["variants"] == result["agree"]
    latency = solve.claim_latency(rounds=3, tricks=2)
    assert latency["claim_ms"] > 0 and latency["score_ms"] > 0


def test_speed_reports_ratios():
    pytest.importorskip("endplay")
    result = solve.speed(deals=2, cap=5.0, size=4)
    assert result["deals"] == 2 and result["median_ratio"] > 0 and result["p95_ratio"] >= result["median_ratio"]
    assert result["agree_with_dds"] + result["unfinished"] == 2
    assert result["worst_ratio"] >= result["p95_ratio"]


def test_p95_by_nearest_rank():
    """Of 20 values the 19th, of 100 the 95th; of one value, that value."""
    assert solve.nearest_rank(list(range(1, 21)), 0.95) == 19
    assert solve.nearest_rank(list(range(1, 101)), 0.95) == 95
    assert solve.nearest_rank([7.0], 0.95) == 7.0
    assert solve.nearest_rank(list(range(1, 21)), 0.5) == 10


def test_whole_process_runner_agrees_with_both_peers():
    pytest.importorskip("endplay")
    from bench import solve_process
    result = solve_process.measure(deals=2, size=3)
    assert result["deals"] == 2 and result["agree"] == 2
    assert set(result["start"]) == {"ours", "endplay", "ctypes"}
    assert result["vs_ctypes_cpu"]["p95"] >= result["vs_ctypes_cpu"]["median"] > 0


def test_the_bench_table_has_every_solver_row(monkeypatch):
    """``python -m bench``'s solver rows, from the runners at tiny sizes."""
    pytest.importorskip("endplay")
    import argparse

    from bench import __main__ as table
    from bench import solve_process
    speed, latency, whole = solve.speed, solve.claim_latency, solve_process.measure
    monkeypatch.setattr(solve, "speed", lambda deals, cap: speed(deals, cap=5.0, size=3))
    monkeypatch.setattr(solve, "claim_latency", lambda: latency(rounds=2, tricks=2))
    monkeypatch.setattr(solve_process, "measure", lambda deals: whole(deals, size=3))
    raw: dict = {}
    rows = table._solve_rows(raw, argparse.Namespace(skip=[], solve_deals=2, process_deals=2))
    assert len(rows) == 6 and all(len(row) == 5 for row in rows)
    assert set(raw["solve"]) == {"speed", "claim_latency", "process"}
