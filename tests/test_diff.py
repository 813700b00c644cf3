"""The differential tester finds, attributes and minimises known rule differences."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from rulespec.cli import main
from rulespec.tools.diff import DiffConfig, diff
from rulespec.errors import DealFileError
from rulespec.tools.diff.deals import parse_pbn, read_deals
from rulespec.tools.diff.minimal import evaluate
from rulespec.model.ruleset import load_ruleset
from rulespec.model.variants import bundled_dir

ROOT = Path(__file__).resolve().parent.parent


def variant(tmp_path: Path, vid: str, rules: str, params: str = "") -> str:
    path = tmp_path / f"{vid}.yaml"
    path.write_text(f"id: {vid}\ntitle: {vid}\nextends: standard\n{params}rules:\n{rules}", encoding="utf-8")
    return str(path)


def pair(report: dict, a: str, b: str) -> dict:
    return next(p for p in report["pairs"] if (p["a"], p["b"]) == (a, b))


def top_cause(p: dict, stage: str, section: str = "transcript") -> str:
    return p[section]["stages"][stage]["attribution"][0]["rule"]


def example(p: dict, rule: str) -> dict:
    return next(e for e in p["examples"] if e["rule"] == rule)


def reproduces(e: dict, a: str, b: str) -> None:
    """The emitted scenario gives the expected outputs under both variants."""
    case = e["scenario"]
    for vid, ref in ((a, e["_refs"][0]), (b, e["_refs"][1])):
        actual = evaluate(load_ruleset(ref), case["kind"], case["input"])
        for team, fields in case["expect"][vid]["output"].get("teams", {}).items():
            for key, value in fields.items():
                assert actual["teams"][team][key] == value
    assert case["expect"][a] != case["expect"][b]


@pytest.fixture(scope="module")
def house(tmp_path_factory) -> tuple[dict, dict]:
    """standard against small variants, each differing in known rules."""
    tmp = tmp_path_factory.mktemp("variants")
    refs = {
        "standard": "standard",
        "t0": variant(tmp, "t0", "  scoring.overtrick_points: 0 @ 000 §SCORING\n"
                                 "  nil.tricks_count: false @ 000 §SCORING\n"
                                 "  play.first_trick_suit: >-\n"
                                 "    if hand.has(clubs) then {lowest(hand & clubs)} else hand"
                                 " @ 000 §PLAY OF THE HAND\n"),
        "n50": variant(tmp, "n50", "  nil.made: nil.value @ 002 §Scoring\n  nil.failed: -nil.value @ 002 §Scoring\n",
                       "params:\n  nil.value: {value: 50, cite: 002 §Scoring}\n"),
    }
    cfg = DiffConfig(tuple(refs.values()), deals=24, seed="t", games=2, attribute=24)
    return refs, diff(cfg, jobs=1)


def test_overtrick_points_attributed_with_minimal_score_example(house):
    refs, report = house
    p = pair(report, "standard", "t0")
    # nil.tricks_bags follows nil.tricks_count where a variant does not set it (standard)
    assert set(p["rules"]) == {"scoring.overtrick_points", "nil.tricks_count", "nil.tricks_bags",
                               "play.first_trick_suit"}
    score = p["transcript"]["stages"]["score"]
    assert score["count"] > 0 and score["ci95"][0] <= score["rate"] <= score["ci95"][1]
    assert top_cause(p, "score") == "scoring.overtrick_points"
    assert score["attribution"][0]["share"] > 0.5
    e = example(p, "scoring.overtrick_points")
    assert e["kind"] == "score"
    assert e["input"]["bids"] == {"N": 3, "E": 3, "S": 3, "W": 3}       # shrunk to plain bids
    assert e["scenario"]["expect"]["standard"]["output"]["teams"]["NS"]["points"] \
        - e["scenario"]["expect"]["t0"]["output"]["teams"]["NS"]["points"] == 1
    assert e["request"] == {"method": "POST", "path": "/v1/compare",
                            "body": {"variants": ["standard", "t0"], "kind": "score", "input": e["input"]}}
    reproduces({**e, "_refs": (refs["standard"], refs["t0"])}, "standard", "t0")


def test_failed_nil_tricks_counting_found(house):
    _, report = house
    p = pair(report, "standard", "t0")
    assert top_cause(p, "bags") == "nil.tricks_count"
    e = example(p, "nil.tricks_count")
    assert "nil" in e["input"]["bids"].values()
    assert e["kind"] == "score"


def test_first_trick_lowest_club_found(house):
    _, report = house
    p = pair(report, "standard", "t0")
    legal = p["transcript"]["stages"]["legal"]
    assert legal["attribution"] == [{"rule": "play.first_trick_suit", "share": 1.0, "count": legal["attributed"]}]
    assert legal["forbidding_clauses"] == {"play.first_trick_suit": legal["attributed"]} or \
        set(legal["forbidding_clauses"]) == {"play.first_trick_suit"}
    first = legal["first"]["forbidden_by"]["t0"]
    assert first["rule"] == "play.first_trick_suit" and first["cite"] == "000 §PLAY OF THE HAND" and first["trick"] == 1
    e = example(p, "play.first_trick_suit")
    assert e["kind"] == "legal" and e["input"]["number"] == 1 and e["input"]["trick"] == []
    clubs = sorted((c for c in e["input"]["hand"] if c.endswith("C")), key=lambda c: "23456789TJQKA".index(c[0]))
    assert e["scenario"]["expect"]["t0"]["output"]["legal"] == [clubs[0]]


def test_nil_value_50_vs_100_found(house):
    _, report = house
    p = pair(report, "standard", "n50")
    assert set(p["rules"]) == {"nil.made", "nil.failed"}     # the parameter nil.value is seen through the rules
    causes = {r["rule"] for r in p["transcript"]["stages"]["score"]["attribution"]}
    assert causes <= {"nil.made", "nil.failed"} and causes
    for rule in causes:
        e = example(p, rule)
        out = e["scenario"]["expect"]
        team = next(iter(out["standard"]["output"]["teams"]))
        points = {ref: out[ref]["output"]["teams"][team]["points"] for ref in ("standard", "n50")}
        assert abs(points["standard"] - points["n50"]) == 50


def test_copy_with_rules_reordered_has_no_discrepancy(tmp_path):
    data = yaml.safe_load((bundled_dir() / "standard.yaml").read_text(encoding="utf-8"))
    data["id"] = "standard-copy"
    data["rules"] = dict(reversed(list(data["rules"].items())))
    path = tmp_path / "copy.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    report = diff(DiffConfig(("standard", str(path)), deals=12, games=1, attribute=12), jobs=1)
    p = report["pairs"][0]
    assert p["rules"] == [] and p["examples"] == []
    for section in ("transcript", "game_hands"):
        assert all(st["count"] == 0 for st in p[section]["stages"].values())
    assert p["games"]["flips"] == 0 and p["transcript"]["n"] == 24


def test_target_reached_vs_exceeded(tmp_path):
    base = variant(tmp_path, "tens", "  scoring.overtrick_points: 0 @ 000 §SCORING\n"
                                     "  game.target: 200 @ 001 §Objective\n")
    over = tmp_path / "tens-over.yaml"
    over.write_text("id: tens-over\ntitle: over\nextends: tens.yaml\nrules:\n"
                    "  game.target_reached: high.score > game.target @ 004 §Winning the Game\n", encoding="utf-8")
    report = diff(DiffConfig((base, str(over)), deals=0, games=12, attribute=120, policies=("sensible",)), jobs=1)
    p = report["pairs"][0]
    assert p["rules"] == ["game.target_reached"]
    game = p["game_hands"]["stages"]["game"]
    assert game["count"] > 0 and top_cause(p, "game", "game_hands") == "game.target_reached"
    e = example(p, "game.target_reached")
    assert e["kind"] == "game"
    expect = e["scenario"]["expect"]
    assert expect["tens"]["output"]["result"]["over"] is True
    assert expect["tens-over"]["output"]["result"]["over"] is False


def test_blind_nil_eligibility_100_vs_200(tmp_path):
    hundred = variant(tmp_path, "bn100", "  blind_nil.allowed: opponents.score - team.score >= 100 @ 002 §Bidding\n")
    two = variant(tmp_path, "bn200", "  blind_nil.allowed: opponents.score - team.score >= 200 @ 000 §BIDDING\n")
    report = diff(DiffConfig((hundred, two), deals=0, games=6, attribute=60, policies=("sensible",)), jobs=1)
    p = report["pairs"][0]
    bid = p["game_hands"]["stages"]["bid"]
    assert bid["count"] > 0 and top_cause(p, "bid", "game_hands") == "blind_nil.allowed"
    e = example(p, "blind_nil.allowed")
    assert e["kind"] == "bid" and e["input"]["bid"] == "blind nil"
    behind = e["input"]["before"]
    gap = abs(behind["NS"]["score"] - behind["EW"]["score"])
    assert 100 <= gap < 200                                   # shrunk into the band where the rules differ
    assert e["scenario"]["expect"]["bn100"]["output"] == {"allowed": True}


def test_result_does_not_depend_on_jobs(tmp_path):
    cfg = DiffConfig(("standard", variant(tmp_path, "z", "  scoring.overtrick_points: 0 @ 000 §SCORING\n")),
                     deals=30, games=2, attribute=30, chunk=7)
    assert diff(cfg, jobs=1) == diff(cfg, jobs=2)


def test_pbn_and_deals_file(tmp_path):
    hands = parse_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
    assert [h.bit_count() for h in hands] == [13] * 4
    deals = read_deals(ROOT / "corpus" / "deals" / "sample.jsonl")
    assert len(deals) >= 3 and any(d.play for d in deals) and any(d.bids and not d.play for d in deals)
    with pytest.raises(DealFileError, match="already dealt"):
        parse_pbn("N:A... A... ... ...")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"deal": "N:AKQ"}\n', encoding="utf-8")
    with pytest.raises(DealFileError, match="bad.jsonl:1") as exc:
        read_deals(bad)
    assert (exc.value.file, exc.value.line) == (str(bad), 1)


def test_recorded_play_replayed_under_each_variant(tmp_path):
    """A transcript from the sample file: the first forbidden card and its clause are reported."""
    t0 = variant(tmp_path, "t0", "  play.first_trick_suit: >-\n"
                                 "    if hand.has(clubs) then {lowest(hand & clubs)} else hand"
                                 " @ 000 §PLAY OF THE HAND\n")
    sample = ROOT / "corpus" / "deals" / "sample.jsonl"
    report = diff(DiffConfig(("standard", t0), deals_file=str(sample),
                             policies=("sensible",), attribute=100), jobs=1)
    legal = report["pairs"][0]["transcript"]["stages"]["legal"]
    assert legal["count"] >= 1
    note = legal["first"]["forbidden_by"]["t0"]
    assert note["rule"] == "play.first_trick_suit" and note["trick"] == 1


def test_deals_with_cards_outside_a_variants_pack_are_counted_not_a_crash():
    """52-card deals under jokers-deuces (its pack drops two deuces): the players cannot hold those
    cards, so its hands are reported as unplayable; recorded plays are replayed and compared."""
    sample = ROOT / "corpus" / "deals" / "sample.jsonl"
    deals = read_deals(sample)
    report = diff(DiffConfig(("standard", "jokers-deuces"), deals_file=str(sample), attribute=0), jobs=1)
    played_by_policy = sum(1 for d in deals if d.play is None) * 2
    assert report["record_errors"] == {"jokers-deuces": played_by_policy}
    legal = report["pairs"][0]["transcript"]["stages"]["legal"]
    assert any(d.play for d in deals) and legal["forbidding_clauses"].get("deck.cards")


def test_cli_writes_three_reports(tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["diff", "standard", variant(tmp_path, "z", "  bags.limit: 5 @ 000 §SCORING\n"),
                                       "--deals", "10", "--games", "1", "--jobs", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["schema"] == "rulespec-diff-report/1"
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "<svg" in html and "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "# Variant differences" in (out / "report.md").read_text(encoding="utf-8")
    bad = CliRunner().invoke(main, ["diff", "standard", "--deals", "1", "--out", str(out)])
    assert bad.exit_code == 2 and "at least two" in bad.output


@pytest.mark.parametrize("kind", ["deals", "games"])
def test_a_chunk_pauses_the_cycle_collector_and_restores_it(monkeypatch, kind):
    import gc

    from rulespec.tools.diff import deal_runs as runner
    seen = []
    real = runner._compare_all
    monkeypatch.setattr(runner, "_compare_all", lambda *a: seen.append(gc.isenabled()) or real(*a))
    ctx = runner.Context(DiffConfig(refs=("standard", "tournament"), deals=2, games=1, game_hands=2, seed="gc",
                                    attribute=0))
    chunk = runner.run_deals if kind == "deals" else runner.run_games
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            chunk(ctx, 0, 1)
            assert gc.isenabled() is enabled
        finally:
            gc.enable()
    assert seen == [False, False]

    def fail(*a):
        raise RuntimeError("chunk failed")
    monkeypatch.setattr(runner, "_compare_all", fail)
    with pytest.raises(RuntimeError):
        chunk(ctx, 0, 1)
    assert gc.isenabled()


def test_a_first_bid_or_card_difference_without_a_forbidding_rule_shows_both_values():
    from rulespec.tools.diff.replay import Outcome
    from rulespec.tools.diff.deal_runs import Direction, _note
    allowed = Outcome(sig={"legal": None})
    unplayable = Outcome(sig={"legal": "error: 14S is not in the pack"})
    note = _note("legal", Direction(None, allowed, unplayable, True), ("a", "b"), {"game": 0, "hand": 0})
    assert note == {"game": 0, "hand": 0, "recorded_under": "a",
                    "values": {"a": None, "b": "error: 14S is not in the pack"}}
    forbidden = Outcome(sig={"legal": (1, 2, 40)}, rules={"legal": "play.follow"},
                        notes={"legal": {"rule": "play.follow", "cite": "001 §Play"}})
    note = _note("legal", Direction(None, allowed, forbidden, False), ("a", "b"), {"deal": 3})
    assert note == {"deal": 3, "recorded_under": "b",
                    "forbidden_by": {"b": {"rule": "play.follow", "cite": "001 §Play"}}}
