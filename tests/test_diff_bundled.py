"""The differential tester on the bundled variants of documents 000-004 finds their known differences."""
from __future__ import annotations

import pytest

from rulespec.core import cards as C
from rulespec.tools.diff import DiffConfig, diff


def run(*refs: str, deals: int = 0, games: int = 0, policies=("random", "sensible"), seed: str = "b") -> dict:
    return diff(DiffConfig(refs, deals=deals, games=games, seed=seed, policies=policies,
                           attribute=max(deals, games * 10)), jobs=1)["pairs"][0]


def causes(p: dict, stage: str, section: str = "transcript") -> list[str]:
    return [r["rule"] for r in p[section]["stages"][stage]["attribution"]]


def example(p: dict, rule: str) -> dict:
    return next(e for e in p["examples"] if e["rule"] == rule)


@pytest.fixture(scope="module")
def std_tournament() -> dict:
    return run("standard", "tournament", deals=16)


def test_overtrick_points_000(std_tournament):
    assert causes(std_tournament, "score")[0] == "scoring.overtrick_points"
    e = example(std_tournament, "scoring.overtrick_points")
    out = e["scenario"]["expect"]
    assert e["kind"] == "score"
    team = next(iter(out["standard"]["output"]["teams"]))
    assert out["standard"]["output"]["teams"][team]["points"] > out["tournament"]["output"]["teams"][team]["points"]


def test_failed_nil_tricks_counting_001_vs_000(std_tournament):
    # 000 says a nil bidder's tricks neither help the bid nor count as bags: two rules, each a cause
    assert {"nil.tricks_bags", "nil.tricks_count"} <= set(causes(std_tournament, "bags"))
    assert example(std_tournament, "nil.tricks_bags")["kind"] == "score"


def test_first_trick_lowest_club_000(std_tournament):
    legal = std_tournament["transcript"]["stages"]["legal"]
    assert causes(std_tournament, "legal") == ["play.first_trick_suit"]
    assert legal["first"]["forbidden_by"]["tournament"]["rule"] == "play.first_trick_suit"
    e = example(std_tournament, "play.first_trick_suit")
    assert e["kind"] == "legal" and e["input"]["number"] == 1


def test_nil_value_50_vs_100():
    p = run("standard", "pirates", deals=16)
    assert "nil.made" in causes(p, "score") or "nil.failed" in causes(p, "score")
    e = example(p, "nil.failed") if "nil.failed" in causes(p, "score") else example(p, "nil.made")
    out = e["scenario"]["expect"]
    team = next(iter(out["standard"]["output"]["teams"]))
    points = {ref: out[ref]["output"]["teams"][team]["points"] for ref in ("standard", "pirates")}
    assert abs(points["standard"] - points["pirates"]) == 50


def test_blind_nil_eligibility_100_vs_200():
    p = run("tournament", "pirates", games=4, policies=("sensible",))
    assert "blind_nil.allowed" in causes(p, "bid", "game_hands")
    e = example(p, "blind_nil.allowed")
    before = e["input"]["before"]
    assert e["kind"] == "bid" and 100 <= abs(before["NS"]["score"] - before["EW"]["score"]) < 200
    assert e["scenario"]["expect"]["pirates"]["output"] == {"allowed": True}


def test_jokers_change_trick_winners():
    p = run("house", "jokers-deuces", deals=10)
    trick = p["transcript"]["stages"]["trick"]
    assert trick["count"] > 0 and "card.power" in causes(p, "trick")
    e = next(e for e in p["examples"] if e.get("kind") == "trick")
    assert e["scenario"]["expect"]["house"] != e["scenario"]["expect"]["jokers-deuces"]



def test_target_reached_vs_exceeded_004():
    p = run("pirates", "classic", games=30, policies=("sensible",), seed="f")    # (a game that ends on exactly 500)
    assert "game.target_reached" in causes(p, "game", "game_hands")
    e = example(p, "game.target_reached")
    assert e["kind"] == "game"
    pirates, classic = (e["scenario"]["expect"][v]["output"]["result"] for v in ("pirates", "classic"))
    assert pirates["over"] is True and classic["over"] is False
    assert 500 in (e["outputs"]["pirates"]["result"]["scores"][t]["score"] for t in ("NS", "EW"))


def test_a_run_on_a_local_dask_cluster_equals_the_local_run():
    distributed = pytest.importorskip("distributed")
    from rulespec.tools.diff import DiffConfig, diff
    cfg = DiffConfig(("standard", "classic"), deals=30, seed="dask", games=2, attribute=10, chunk=10)
    local = diff(cfg, jobs=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = diff(cfg, scheduler=cluster.scheduler_address)
    assert remote == local


def test_an_unreachable_scheduler_is_a_clear_error():
    pytest.importorskip("distributed")
    from rulespec.errors import DiffError
    from rulespec.tools.diff import DiffConfig, diff
    with pytest.raises(DiffError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        diff(DiffConfig(("standard", "classic"), deals=2), scheduler="tcp://127.0.0.1:9", connect_timeout=2)


def test_simulate_output_reads_back_as_recorded_transcripts(tmp_path):
    import json
    from click.testing import CliRunner
    from rulespec.cli import main
    from rulespec.tools.diff.deals import read_deals
    out = tmp_path / "hands.jsonl"
    result = CliRunner().invoke(main, ["simulate", "classic", "--hands", "4", "--seed", "9", "--out", str(out)])
    assert result.exit_code == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    deals = read_deals(out)
    for record, deal in zip(records, deals):
        played = [card for trick in record["tricks"] for card in trick["cards"]]
        assert deal.play is not None and [C.card_name(c) for c in deal.play] == played
        assert [str(b) for b in deal.bids] == [record["bids"][s] for s in "NESW"]
