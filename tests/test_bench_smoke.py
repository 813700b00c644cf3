"""The benchmark code runs and returns well-formed results (tiny sizes; no timing is asserted:
speed targets live in ``python -m bench``, not in the test suite)."""
from __future__ import annotations

import math
import shutil

import pytest

from bench import replay, simulation


def test_simulation_runners_count_hands():
    assert simulation.ours_scalar(budget=0.05) > 0
    assert simulation.ours_batch(budget=0.05, size=64) > 0


def test_replay_measure_reports_every_ratio(monkeypatch):
    monkeypatch.setattr(replay, "CEILING_WORK", 10_000)
    result = replay.measure(deals=6, rounds=2, jobs_rounds=2)
    for key in ("overhead", "speedup", "cpu_inflation", "parallel_ceiling"):
        assert math.isfinite(result[key]), key
    assert len(result["round_speedups"]) == len(result["round_ceilings"]) == 2
    assert len(result["round_overheads"]) == 2
    assert result["jobs1"] > 0 and result["jobs2"] > 0
    # the median of the rounds is what the table prints
    assert min(result["round_speedups"]) <= result["speedup"] <= max(result["round_speedups"])


@pytest.mark.parametrize("jobs", [1, 2])
def test_jobs_run_counts_worker_cpu(jobs):
    wall, cpu = replay._jobs_run(6, "smoke", ("random",), jobs)
    assert wall > 0 and cpu > 0


@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk is installed by `make bench`")
def test_api_measure_reports_both_ratios():
    from bench import api
    result = api.measure(seconds=3, rounds=3)
    for name in ("score", "floor", "post_floor"):
        assert result[name]["rps"] > 0 and result[name]["non_2xx"] == 0, name
    assert set(result["ratios"]) == {"floor", "post_floor"}
    assert all(0 < r < 10 for r in result["ratios"].values())
