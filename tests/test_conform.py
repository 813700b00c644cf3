"""rulespec conform: another engine checked against a variant at every state (fake engines, recorded
hands, and OpenSpiel where pyspiel is installed)."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.app.scenarios import load_cases, run_case
from rulespec.cli import main
from rulespec.core import cards as C
from rulespec.model.ruleset import load_ruleset
from rulespec.tools.conform import ConformConfig, conform
from rulespec.tools.diff.deals import seeded_deal

import fake_engine

OPENSPIEL_VARIANT = str(Path(__file__).parent.parent / "corpus" / "engines" / "openspiel.yaml")


def _kinds(report: dict) -> dict[tuple[str, str, str], dict]:
    """(section, stage, kind) -> the kind's numbers, for every kind with a difference."""
    return {(name, stage, kind): k for name, sec in report["sections"].items()
            for stage, st in sec["stages"].items() for kind, k in st["kinds"].items() if k["states"]}


@pytest.fixture(scope="module")
def sound() -> dict:
    return conform(ConformConfig("fake_engine:Sound", "standard", deals=40, games=3), jobs=1)


@pytest.fixture(scope="module")
def faulty() -> dict:
    return conform(ConformConfig("fake_engine:faulty", "standard", deals=40, games=3), jobs=1)


def test_an_engine_without_faults_conforms_on_every_stage(sound):
    assert sound["conforms"] and not sound["errors"]
    assert sound["compared"] == ["turn", "bid", "legal", "trick", "score", "bags", "game"]
    deals = sound["sections"]["deals"]
    assert deals["n"] == 80
    assert deals["stages"]["legal"]["states"] == 80 * 52 and deals["stages"]["bid"]["states"] == 80 * 4
    assert deals["stages"]["trick"]["states"] == 80 * 13 and deals["stages"]["score"]["states"] == 160
    assert sound["sections"]["game_hands"]["n"] > 3 and not _kinds(sound)


def test_the_faulty_engine_is_caught_forbidding_spade_leads_after_spades_are_broken(faulty):
    assert not faulty["conforms"] and faulty["differing"] == ["legal"]
    found = _kinds(faulty)
    assert set(found) == {("deals", "legal", "engine_forbids"), ("game_hands", "legal", "engine_forbids")}
    k = found[("deals", "legal", "engine_forbids")]
    assert 0 < k["hands"] <= 80 and k["ci95"][0] < k["rate"] < k["ci95"][1]
    assert {r["rule"] for r in k["attribution"]} == {"play.lead", "trump.breaks"}
    first = k["first"]
    assert first["broken"] and first["trick"] > 1 and all(card.endswith("S") for card in first["cards"])


def test_the_faulty_engines_example_is_a_scenario_case_that_passes(faulty, tmp_path):
    example = next(e for e in faulty["examples"] if e["rule"] == "play.lead")
    inp = example["input"]
    assert inp["trick"] == [] and inp["broken"] is True
    spades = [c for c in inp["hand"] if c.endswith("S")]
    assert spades and set(spades) <= set(example["outputs"]["standard"]["legal"])
    assert not set(spades) & set(example["outputs"]["fake-faulty"]["legal"])
    path = tmp_path / "case.yaml"
    path.write_text(example["scenario_yaml"], encoding="utf-8")
    results = [run_case(case) for case in load_cases(path)]
    assert results and all(r.passed for r in results)


def test_tallies_do_not_depend_on_jobs(faulty):
    again = conform(ConformConfig("fake_engine:faulty", "standard", deals=40, games=3), jobs=3)
    assert again == faulty


def _record_faulty(path: Path, deals: int) -> None:
    """The faulty engine's own hands, written as a recorded engine file (legal set beside each card)."""
    rs, rng, lines = load_ruleset("standard"), random.Random(7), []
    for index in range(deals):
        deal = seeded_deal("rec", index, rs)
        hand = fake_engine.Faulty().new_hand(deal)
        bids, play, legal, winners = {}, [], [], []
        for _ in range(4):
            seat, bid = hand.to_act(), rng.choice(hand.legal_bids())
            bids[C.SEATS[seat]] = "nil" if bid.is_nil else bid.n
            hand.bid(bid)
        for k in range(52):
            allowed = hand.legal_cards()
            card = rng.choice(list(C.iter_cards(allowed)))
            legal.append(C.card_names(allowed))
            play.append(C.card_name(card))
            hand.play(card)
            if k % 4 == 3:
                winners.append(C.SEATS[hand.trick_winner()])
        result = hand.result()
        lines.append({"deal": {s: C.card_names(deal.hands[i]) for i, s in enumerate(C.SEATS[:4])},
                      "dealer": C.SEATS[deal.dealer], "bids": bids, "play": play, "legal": legal,
                      "winners": winners, "score": {t: {"points": p} for t, p in zip(C.TEAMS, result.points)},
                      "totals": {t: {"score": p, "bags": b} for t, p, b in zip(C.TEAMS, result.points, result.bags)},
                      "game_status": {"over": result.game_over, "winner": result.winner}})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def test_a_recorded_engine_is_compared_at_every_recorded_decision(tmp_path):
    path = tmp_path / "faulty.jsonl"
    _record_faulty(path, 30)
    report = conform(ConformConfig(str(path), "standard"), jobs=1)
    assert report["config"]["recorded"] and report["config"]["deals"] == 30
    assert report["differing"] == ["legal"]
    deals = report["sections"]["deals"]
    assert deals["n"] == 30 and deals["stages"]["legal"]["states"] == 30 * 52
    assert deals["stages"]["bid"]["states"] == 0          # the file gives no legal bids: not compared
    assert deals["stages"]["legal"]["kinds"]["engine_forbids"]["hands"] > 0
    assert deals["stages"]["score"]["states"] == 60 and deals["stages"]["score"]["hands"] == 0


@pytest.mark.parametrize("line, message", [
    ("not json", "faulty.jsonl:2: not JSON"),
    (json.dumps({"deal": "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"}),
     "faulty.jsonl:2: a recorded hand needs its 'bids' and 'play'"),
])
def test_bad_recorded_files_are_refused_naming_the_line(tmp_path, line, message):
    path = tmp_path / "faulty.jsonl"
    _record_faulty(path, 1)
    path.write_text(path.read_text() + line + "\n")
    result = CliRunner().invoke(main, ["conform", str(path), "--variant", "standard", "--out", str(tmp_path / "r")])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_a_legal_set_without_the_card_played_is_refused(tmp_path):
    path = tmp_path / "faulty.jsonl"
    _record_faulty(path, 1)
    obj = json.loads(path.read_text())
    obj["legal"][5] = [c for c in obj["legal"][5] if c != obj["play"][5]] or ["2C"]
    path.write_text(json.dumps(obj) + "\n")
    result = CliRunner().invoke(main, ["conform", str(path), "--variant", "standard", "--out", str(tmp_path / "r")])
    assert result.exit_code == 2 and "faulty.jsonl:1: legal[5] does not hold the card played" in result.output


@pytest.mark.parametrize("engine, message", [("nosuch", "unknown engine 'nosuch'"),
                                             ("no_such_module:x", "cannot import no_such_module"),
                                             ("fake_engine:nothing", "fake_engine has no nothing")])
def test_unknown_engines_exit_2_with_a_message(tmp_path, engine, message):
    result = CliRunner().invoke(main, ["conform", engine, "--variant", "standard", "--out", str(tmp_path)])
    assert result.exit_code == 2 and message in result.output


def test_cli_writes_the_three_reports(tmp_path):
    out = tmp_path / "r"
    result = CliRunner().invoke(main, ["conform", "fake_engine:faulty", "--variant", "standard", "--deals", "5",
                                       "--policy", "random", "--jobs", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "differs on legal" in result.output
    report = json.loads((out / "report.json").read_text())
    assert report["schema"] == "rulespec-conform-report/1" and report["config"]["policies"] == ["random"]
    assert "play.lead" in (out / "report.md").read_text() and "<svg" in (out / "report.html").read_text()


def test_openspiel_differs_from_001_on_spade_leads_and_conforms_to_its_own_rules_on_the_play():
    pytest.importorskip("pyspiel")
    standard = conform(ConformConfig("openspiel", "standard", deals=20, policies=("random",)), jobs=1)
    legal = standard["sections"]["deals"]["stages"]["legal"]["kinds"]
    assert legal["engine_forbids"]["hands"] > 0 and legal["engine_allows"]["hands"] == 0
    assert legal["engine_forbids"]["attribution"][0]["rule"] in ("play.lead", "trump.breaks")
    own = conform(ConformConfig("openspiel", OPENSPIEL_VARIANT, deals=20, policies=("random",)), jobs=1)
    stages = own["sections"]["deals"]["stages"]
    for stage in ("turn", "bid", "legal", "trick"):
        assert stages[stage]["states"] > 0 and stages[stage]["hands"] == 0, stage


def test_a_scoring_fault_is_credited_to_the_score_lines_it_changes():
    report = conform(ConformConfig("fake_engine:CheapNil", "standard", deals=60), jobs=1)
    assert report["differing"] == ["score"]
    k = report["sections"]["deals"]["stages"]["score"]["kinds"]["points"]
    assert k["hands"] > 0 and k["attribution"][0]["rule"] in ("nil.made", "nil.failed")
    # a line is cleared once it is seen in a score the engine agrees with: rare lines may stay uncleared
    assert sum(r["share"] for r in k["attribution"] if r["rule"].startswith("nil.")) > 0.9
    example = next(e for e in report["examples"] if e["stage"] == "score")
    assert any(b == "nil" for b in example["input"]["bids"].values())


def test_a_trick_winner_fault_is_found_and_the_hand_goes_on_in_lockstep():
    report = conform(ConformConfig("fake_engine:AceLow", "standard", deals=40), jobs=1)
    assert "trick" in report["differing"] and "turn" not in report["differing"]
    assert "score" not in report["differing"]        # the book scores the engine's tricks
    trick = report["sections"]["deals"]["stages"]["trick"]
    assert trick["states"] == 80 * 13
    assert trick["kinds"]["winner"]["attribution"] == [{"rule": "trick.winner", "share": 1.0,
                                                       "count": trick["kinds"]["winner"]["states"]}]
    example = next(e for e in report["examples"] if e["stage"] == "trick")
    assert any(card.startswith("A") for card in example["input"]["cards"])


def test_score_credit_prefers_the_line_the_engine_leaves_out_then_lines_never_cleared():
    from rulespec.tools.conform.lockstep import NO_LINE, score_credit
    lines = (("scoring.made", 60), ("bags.penalty", -100))
    cleared = {("scoring.made", 60), ("bags.penalty", -100)}
    assert score_credit(lines, -100, cleared) == ["bags.penalty"]
    assert score_credit(lines, -50, cleared - {("bags.penalty", -100)}) == ["bags.penalty"]
    assert score_credit(lines, 6, cleared) == [NO_LINE]


def test_a_run_on_a_local_dask_cluster_equals_the_local_run(faulty):
    distributed = pytest.importorskip("distributed")
    cfg = ConformConfig("fake_engine:faulty", "standard", deals=40, games=3, chunk=10)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        remote = conform(cfg, scheduler=cluster.scheduler_address)
    assert remote == faulty


def test_an_unreachable_scheduler_exits_2(tmp_path):
    pytest.importorskip("distributed")
    result = CliRunner().invoke(main, ["conform", "fake_engine:faulty", "--variant", "standard", "--deals", "2",
                                       "--scheduler", "tcp://127.0.0.1:9", "--scheduler-timeout", "2",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 2 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.output
