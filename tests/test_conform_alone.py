"""rulespec conform at the tables without partners (two-player, cutthroat, solo): the lockstep at 2, 3 and 4
seats each alone, scored per player, the two-player draw by the engine's draw step, and planted faults."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulespec.app.scenarios import load_cases, run_case
from rulespec.cli import main
from rulespec.tools.conform import ConformConfig, conform
from rulespec.tools.conform.cli import _verdict

import fake_engine

HANDS = {"two-player": 13, "cutthroat": 17, "solo": 13}
SEATS = {"two-player": 2, "cutthroat": 3, "solo": 4}


def _run(engine: str, variant: str, deals: int = 20, games: int = 0, policies=("random",)) -> dict:
    return conform(ConformConfig(f"fake_engine:{engine}", variant, deals=deals, games=games, policies=policies),
                   jobs=1)


def _stages(report: dict, section: str = "deals") -> dict:
    return report["sections"][section]["stages"]


@pytest.mark.parametrize("variant", sorted(HANDS))
def test_an_engine_without_faults_conforms_at_each_table_alone(variant):
    report = _run("Alone", variant, deals=15, games=2, policies=("random", "sensible"))
    assert report["conforms"] and not report["errors"], (report["differing"], report["errors"])
    assert report["compared"] == ["turn", "bid", "legal", "trick", "score", "bags", "game"]
    seats, size, n = SEATS[variant], HANDS[variant], 30
    stages = _stages(report)
    assert report["sections"]["deals"]["n"] == n
    assert stages["bid"]["states"] == n * seats and stages["legal"]["states"] == n * seats * size
    assert stages["trick"]["states"] == n * size
    assert stages["score"]["states"] == n * seats and stages["bags"]["states"] == n * seats    # per player
    drawn = seats * 13 if variant == "two-player" else 0           # a turn per draw, bid and card
    assert stages["turn"]["states"] == n * (drawn + seats + seats * size)
    assert stages["raise"]["states"] == stages["exchange"]["states"] == 0
    games = report["sections"]["game_hands"]["n"]
    assert 2 < games < 2 * 100 and _stages(report, "game_hands")["game"]["states"] == games   # a game won in time
    assert report["config"]["table"] == {"seats": seats, "partners": False, "sides": list("NESW"[:seats])}


def test_a_trick_given_to_the_wrong_seat_at_three_seats_is_found_with_a_case(tmp_path):
    report = _run("Widdershins", "cutthroat")
    assert report["differing"] == ["trick"]           # the engine's winner leads on: no turn, no score difference
    trick = _stages(report)["trick"]
    assert trick["states"] == 20 * 17 and trick["kinds"]["winner"]["hands"] > 0
    assert [r["rule"] for r in trick["kinds"]["winner"]["attribution"]] == ["trick.winner"]
    [example] = report["examples"]
    assert example["input"]["leader"] in "NES" and len(example["input"]["cards"]) == 3
    assert example["outputs"]["cutthroat"]["winner"] != example["outputs"]["fake-widdershins"]["winner"]
    path = tmp_path / "case.yaml"
    path.write_text(example["scenario_yaml"], encoding="utf-8")
    assert all(run_case(case).passed for case in load_cases(path))
    assert _run("Widdershins", "two-player")["conforms"]       # at two seats the count either way is the same
    assert conform(ConformConfig("fake_engine:Widdershins", "cutthroat", deals=20, policies=("random",)),
                   jobs=2) == report                          # the tallies do not depend on the workers


@pytest.mark.parametrize("variant", sorted(HANDS))
def test_a_players_overtricks_scored_wrong_are_found_per_player(variant, tmp_path):
    report = _run("CheapOvertricks", variant)
    assert report["differing"] == ["score"]
    points = _stages(report)["score"]["kinds"]["points"]
    assert [r["rule"] for r in points["attribution"]] == ["scoring.overtrick_points"]
    first = points["first"]
    assert "team" not in first and first["player"] in "NESW"[:SEATS[variant]] and first["book"] > first["engine"]
    [example] = report["examples"]
    assert set(example["input"]["tricks"]) == set(example["input"]["before"]) == set("NESW"[:SEATS[variant]])
    path = tmp_path / "case.yaml"
    path.write_text(example["scenario_yaml"], encoding="utf-8")
    assert all(run_case(case).passed for case in load_cases(path))


def test_a_draw_out_of_turn_stops_the_hand_and_is_credited_to_the_draw():
    report = _run("DealerDraws", "two-player", deals=10)
    assert report["differing"] == ["turn"] and report["compared"] == ["turn"]
    seat = _stages(report)["turn"]["kinds"]["seat"]
    assert seat["hands"] == 10 and [r["rule"] for r in seat["attribution"]] == ["deal.draw"]
    assert seat["first"]["book"] != seat["first"]["engine"]


class _NoDrawHand(fake_engine.AloneHand):
    draw = None      # type: ignore[assignment]


class NoDraw(fake_engine.Alone):
    name = "fake-no-draw"

    def new_hand(self, deal) -> _NoDrawHand:
        return _NoDrawHand(deal)


def test_an_engine_without_the_draw_step_cannot_play_two_player_and_says_so():
    report = conform(ConformConfig(f"{__name__}:NoDraw", "two-player", deals=3, policies=("random",)), jobs=1)
    assert not report["conforms"] and report["compared"] == []
    [error] = report["errors"]
    assert "no draw step (draw)" in error and "deal.draw @ 005 §Two-player" in error
    assert "cannot play it" in _verdict(report)


def test_an_alone_engine_is_refused_a_partnership_variant_naming_what_it_plays():
    result = CliRunner().invoke(main, ["conform", "fake_engine:Alone", "--variant", "standard", "--out", "unused"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "2 seats each alone" in result.output and "cutthroat, five-handed, solo, two-player" in result.output


def test_the_reports_name_the_players_not_the_partnerships(tmp_path):
    out = tmp_path / "r"
    result = CliRunner().invoke(main, ["conform", "fake_engine:CheapOvertricks", "--variant", "cutthroat",
                                       "--deals", "4", "--policy", "random", "--jobs", "1", "--out", str(out)])
    assert result.exit_code == 0 and "differs on score" in result.output, result.output
    report = json.loads((out / "report.json").read_text())
    assert report["config"]["table"]["sides"] == ["N", "E", "S"]
    md = (out / "report.md").read_text()
    assert "3 seats (N E S), each alone" in md and "each player's points" in md and "team" not in md.split("##")[0]
    assert "none at this table (each plays alone)" in md
    assert "3 seats (N E S), each alone" in (out / "report.html").read_text()
