"""The benchmark code runs and returns well-formed results (tiny sizes; no timing is asserted:
speed targets live in ``python -m bench``, not in the test suite)."""
from __future__ import annotations

import math
import shutil

import pytest

from bench import __main__ as table
from bench import process, replay, simulation


def test_simulation_measure_reports_every_runner_and_ratio():
    result = simulation.measure(budget=0.05, rounds=2, batch_size=64)
    assert all(len(rates) == 2 and min(rates) > 0 for rates in result["runners"].values())
    assert {"scalar", "compiled", "compiled_per_call", "batch", "scalar_os_rules", "compiled_os_rules",
            "batch_os_rules"} <= set(result["median"])
    pyspiel = pytest.importorskip("pyspiel")
    assert pyspiel and {"openspiel_fair", "openspiel_chance_outcomes", "openspiel_cpp"} <= set(result["median"])
    for ratio in result["ratios"].values():
        assert ratio["min"] <= ratio["median"] <= ratio["max"]
    assert len(table.simulation_rows(result)) == 3 + 3 * 4 + 1


def test_openspiel_drivers_play_whole_hands():
    pytest.importorskip("pyspiel")
    for driver in ("fair", "chance_outcomes", "cpp"):
        step = simulation.openspiel_step(driver)
        assert step() == 1 and step() == 1, driver


def test_process_measure_runs_the_commands_a_user_runs():
    result = process.measure(hands=40, rounds=2)
    assert set(result["wall"]) >= {"simulate", "simulate_out", "simulate_stats"}
    assert all(min(t) > 0 for t in result["wall"].values()) and all(min(t) > 0 for t in result["cpu"].values())
    if "peer" in result["wall"]:
        assert set(result["ratios"]) == {"simulate", "simulate_out", "simulate_stats"}
    assert len(table.process_rows(result)) == 6


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
    results = {f"{settings}@16": api.measure(seconds=3, rounds=3, settings=settings) for settings in api.SETTINGS}
    for result in results.values():
        for name in ("score", "floor", "post_floor"):
            assert result[name]["rps"] > 0 and result[name]["non_2xx"] == 0, name
        assert set(result["ratios"]) == {"floor", "post_floor"}
        assert all(0 < r < 10 for r in result["ratios"].values())
        assert all(result[name]["cpu_us"] > 0 for name in ("score", "floor", "post_floor"))
        assert all(0 < r < 10 for r in result["cpu_ratios"].values())
    assert len(table.api_rows(results)) == 6


def test_openspiel_rules_variant_never_breaks_spades():
    from rulespec.core import cards as C
    from rulespec.lang.compiler import NONE
    from rulespec.model.ruleset import load_ruleset
    ours, standard = load_ruleset(simulation.OPENSPIEL_RULES), load_ruleset("standard")
    only_spades = C.mask_of(C.parse_cards("AS 2S"))
    args = (C.parse_cards("AS")[0], only_spades, True, NONE, 5)   # leading a spade from a hand of spades
    assert standard.fn["trump.breaks"](*args) and not ours.fn["trump.breaks"](*args)
    assert ours.rules.keys() == standard.rules.keys()
    assert [k for k in standard.rules if ours.rules[k].text != standard.rules[k].text] == ["trump.breaks"]
