"""The solver's bench code runs and returns well-formed results (tiny sizes; no timing is asserted)."""
from __future__ import annotations

import pytest

from bench import solve


def test_agreement_and_latency_runners():
    pytest.importorskip("endplay")
    result = solve.dds_agreement(count=3, sizes=(3,))
    assert result["checked"] == 3 and result["agree"] == 3
    result = solve.minimax_agreement(per_variant=1)
    # (alone: cut-throat, solo, two-player, five-handed)
    assert result["checked"] == result["variants"] == result["agree"] and result["alone"] == 4
    latency = solve.claim_latency(rounds=3, tricks=2)
    assert latency["claim_ms"] > 0 and latency["score_ms"] > 0


def test_speed_reports_ratios():
    pytest.importorskip("endplay")
    result = solve.speed(deals=2, cap=5.0, size=4)
    assert result["deals"] == 2 and result["median_ratio"] > 0 and result["p95_ratio"] >= result["median_ratio"]
    assert result["agree_with_dds"] + result["unfinished"] == 2
    assert result["worst_ratio"] >= result["p95_ratio"]


def test_same_deal_and_line_runners_agree_with_dds():
    """The four-leader and review run (each review's values against DDS's analyse_play) and the full answer
    against the value alone, at tiny sizes."""
    pytest.importorskip("endplay")
    result = solve.same_deal(deals=2, size=4)
    assert result["deals"] == 2 and result["agree_with_dds"] == 2 and result["positions"] == 16
    assert all(row["four_ratio"] > 0 and row["review_ratio"] > 0 for row in result["per_deal"])
    line = solve.line_cost(deals=2, size=4)
    assert line["same_value"] == 2 and all(row["line_cards"] == 16 for row in line["per_deal"])


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
    same_deal, line_cost = solve.same_deal, solve.line_cost
    monkeypatch.setattr(solve, "speed", lambda deals, cap: speed(deals, cap=5.0, size=3))
    monkeypatch.setattr(solve, "claim_latency", lambda: latency(rounds=2, tricks=2))
    monkeypatch.setattr(solve, "same_deal", lambda deals: same_deal(deals, size=3))
    monkeypatch.setattr(solve, "line_cost", lambda deals: line_cost(deals, size=3))
    monkeypatch.setattr(solve_process, "measure", lambda deals: whole(deals, size=3))
    raw: dict = {}
    rows = table._solve_rows(raw, argparse.Namespace(skip=[], solve_deals=2, process_deals=2, same_deal_deals=2))
    assert len(rows) == 11 and all(len(row) == 5 for row in rows)
    assert set(raw["solve"]) == {"speed", "claim_latency", "process", "same_deal", "line"}
