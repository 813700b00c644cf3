"""When a search loads (or compiles) a ruleset's compiled module: the CLI does for a large position and
searches a small one in Python (sooner than numba loads); a service request never compiles (the compiled
search only where it is ready: ``test_solve_native``)."""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from rulespec.app import claims
from rulespec.cli import main
from rulespec.core import jit
from rulespec.model.ruleset import load_ruleset
from rulespec.solve import native
from rulespec.solve.search import Search
from service.app import create_app
from solve_helpers import hands_body, random_position


def _request(tricks: int, seed: int = 1) -> dict:
    rs = load_ruleset("standard")
    rng = random.Random(seed)
    pos = random_position(rs, rng, tricks)
    while pos.trick:
        pos = random_position(rs, rng, tricks)
    return hands_body("standard", pos)


@pytest.fixture()
def searches(monkeypatch):
    """The (compiled, compile_now) each answer asks ``searcher`` for; searched in Python (nothing compiled)."""
    asked: list[tuple[bool, bool]] = []

    def spy(rs, pos, goal, budget=None, compiled=True, compile_now=True):
        asked.append((compiled, compile_now))
        return Search(rs, pos, goal, budget)
    monkeypatch.setattr(claims, "searcher", spy)
    monkeypatch.setattr(native.subprocess, "Popen", lambda *a, **k: pytest.fail("a process was started"))
    return asked


@pytest.mark.parametrize("loaded", [False, True])
def test_the_cli_loads_the_compiled_search_where_it_is_worth_it(searches, monkeypatch, tmp_path, loaded):
    monkeypatch.setattr(jit, "loaded", lambda kind, source: loaded)
    for tricks in (native.PYTHON_UP_TO, native.PYTHON_UP_TO + 1):
        path = tmp_path / f"{tricks}.json"
        path.write_text(json.dumps(_request(tricks)))
        result = CliRunner().invoke(main, ["solve", "--seconds", "60", str(path)])
        assert result.exit_code == 0, result.output
    # a small position is searched in Python unless the module is loaded already; a large one compiled,
    # compiling here if need be (the CLI may, with or without a budget)
    assert searches == [(loaded, True), (True, True)]


def test_a_service_request_asks_for_the_compiled_search_without_compiling(searches):
    client = create_app().test_client()
    for tricks in (3, 9):
        assert client.post("/v1/solve", json=_request(tricks)).status_code == 200
    assert searches == [(True, False), (True, False)]


def test_a_small_position_compiles_nothing_on_a_cold_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path))
    monkeypatch.setattr(native.subprocess, "Popen", lambda *a, **k: pytest.fail("a process was started"))
    house = tmp_path / "house.yaml"        # a ruleset of its own: its module is loaded nowhere
    house.write_text("id: never-loaded\nextends: standard\nrules:\n  play.first_lead:\n    value: hand - {3D}\n"
                     "    unspecified: a rule of this test's own, so that its search is a module of its own\n")
    path = tmp_path / "small.json"
    path.write_text(json.dumps({**_request(native.PYTHON_UP_TO), "variant": str(house)}))
    result = CliRunner().invoke(main, ["solve", str(path)])
    assert result.exit_code == 0, result.output
    assert not list((tmp_path / "jit").glob("rulespec_jit_solve_*"))
