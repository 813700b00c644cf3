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
