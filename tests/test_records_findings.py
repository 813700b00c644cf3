"""``rulespec convert REPORT.json --example``: the hand a diff example or a verify finding was found in, as PBN/PTN."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.cli import main
from rulespec.core import cards as C
from rulespec.model.ruleset import load_ruleset
from rulespec.records import read_records, write_pbn, write_ptn
from rulespec.records.order import in_play_order
from rulespec.tools.diff import DiffConfig, diff
from rulespec.tools.diff.replay import Transcript, replay

ROOT = Path(__file__).resolve().parents[1]
PAIR = ("standard", "tournament")


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> tuple[Path, dict]:
    """A small diff run (six deals, every one attributed), written as report.json."""
    doc = diff(DiffConfig(PAIR, deals=6, seed="f", attribute=6), jobs=1)
    path = tmp_path_factory.mktemp("diff") / "report.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path, doc


def convert(*args: str):
    return CliRunner().invoke(main, ["convert", *map(str, args)])


def found(doc: dict) -> list[tuple[int, dict]]:
    return [(k, e) for k, e in enumerate(doc["pairs"][0]["examples"]) if e.get("found_in")]


def played(record) -> Transcript:
    """A record read back as the diff's transcript (the play in order, each card with its seat)."""
    plays = tuple(((t.leader + k) % 4, card) for t in record.tricks for k, card in enumerate(t.cards))
    return Transcript(record.dealer, record.hands, record.bids, plays)


def read_back(text: str, fmt: str) -> list:
    reading = read_records(text, fmt)
    assert reading.problems == [] and reading.hands
    return [in_play_order(h, load_ruleset(h.variant))[0] for h in reading.hands]


@pytest.mark.parametrize("fmt", ["pbn", "ptn"])
def test_each_example_of_a_small_run_is_written_and_shows_its_difference(report, fmt):
    path, doc = report
    a, b = (load_ruleset(v) for v in PAIR)
    examples = found(doc)
    assert {e["stage"] for _, e in examples} >= {"bid", "legal", "score"}
    for k, example in examples:
        result = convert(path, "--to", fmt, "--example", f"{PAIR[0]}:{PAIR[1]}:{k}")
        assert result.exit_code == 0, result.output
        hands = read_back(result.stdout, fmt)
        assert [h.variant for h in hands] == list(PAIR)
        assert all(h.bids is not None and len(h.tricks) == 13 for h in hands)
        note = [h.meta["Finding"] for h in hands]
        assert all(f"example {k}: rule {example['rule']}" in n and "report.json" in n for n in note)
        source = [h for h, n in zip(hands, note) if "derived from this play" in n]
        assert len(source) == 1
        # the written hand, replayed under each variant of the pair, differs at the example's stage
        t = played(source[0])
        sig_a, sig_b = replay(a, t).sig[example["stage"]], replay(b, t).sig[example["stage"]]
        assert sig_a != sig_b, (k, example["rule"])
        if example["stage"] == "bid":       # the bid the example asks about was made in this hand
            seat = C.SEATS.index(example["input"]["seat"])
            assert str(source[0].bids[seat]).replace(" ", "") == str(example["input"]["bid"]).replace(" ", "") \
                or isinstance(example["input"]["bid"], int)
        # read -> write -> read gives the same hands
        again = read_back((write_ptn if fmt == "ptn" else write_pbn)(hands), fmt)
        assert [(h.dealer, h.hands, h.bids, h.tricks) for h in again] == \
            [(h.dealer, h.hands, h.bids, h.tricks) for h in hands]


def test_a_report_dealt_again_from_another_seed_or_deal_is_refused(report, tmp_path):
    path, doc = report
    k, example = found(doc)[0]
    name = f"{PAIR[0]}:{PAIR[1]}:{k}"
    other_seed = json.loads(json.dumps(doc))
    other_seed["config"]["seed"] = "g"
    moved = json.loads(json.dumps(doc))
    moved["pairs"][0]["examples"][k]["found_in"]["deal"] = (example["found_in"]["deal"] + 1) % 6
    for n, bad in enumerate((other_seed, moved)):
        file = tmp_path / f"bad{n}.json"
        file.write_text(json.dumps(bad), encoding="utf-8")
        result = convert(file, "--to", "pbn", "--example", name)
        assert result.exit_code == 2 and result.stdout == ""
        assert f"pairs[0].examples[{k}]" in result.output and "nothing is written" in result.output


def test_the_findings_are_listed_when_none_is_named(report):
    path, doc = report
    result = convert(path, "--to", "pbn")
    assert result.exit_code == 2
    assert "name the finding whose hand to write with --example" in result.output
    for k, example in found(doc):
        assert f"{PAIR[0]}:{PAIR[1]}:{k}" in result.output and example["rule"] in result.output


def test_a_finding_named_by_its_rule(report):
    path, doc = report
    k, example = found(doc)[0]
    by_rule = convert(path, "--to", "ptn", "--example", f"{PAIR[0]}:{PAIR[1]}:{example['rule']}")
    by_index = convert(path, "--to", "ptn", "--example", f"{PAIR[0]}:{PAIR[1]}:{k}")
    assert by_rule.exit_code == 0 and by_rule.stdout == by_index.stdout


@pytest.mark.parametrize("change, args, message", [
    (lambda d: d.update(schema="rulespec-diff-report/9"), ["x:y:0"], "schema: a report of schema"),
    (None, [f"{PAIR[0]}:{PAIR[1]}:99"], "there is no example 99"),
    (None, [f"{PAIR[0]}:house:0"], "no pair standard:house in the report"),
    (None, [f"{PAIR[0]}:{PAIR[1]}:no.such"], "has no example for rule 'no.such'"),
    (None, ["zero"], "a diff report's finding is named A:B:K"),
    (lambda d: d["pairs"][0]["examples"][0].update(found_in={"deal": "first"}), [f"{PAIR[0]}:{PAIR[1]}:0"],
     "the report is not as rulespec diff writes it (ValueError"),
])
def test_bad_reports_and_names_are_refused_with_their_place(report, tmp_path, change, args, message):
    path, doc = report
    if change is not None:
        doc = json.loads(json.dumps(doc))
        change(doc)
        path = tmp_path / "changed.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
    result = convert(path, "--to", "pbn", "--example", *args)
    assert result.exit_code == 2 and message in result.output, result.output
    assert "Traceback" not in result.output


def test_a_deals_file_that_is_gone(tmp_path):
    deals = tmp_path / "deals.jsonl"
    shutil.copy(ROOT / "corpus" / "deals" / "sample.jsonl", deals)
    doc = diff(DiffConfig(PAIR, deals_file=str(deals), attribute=100), jobs=1)
    path = tmp_path / "report.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    k, _ = found(doc)[0]
    name = f"{PAIR[0]}:{PAIR[1]}:{k}"
    assert convert(path, "--to", "pbn", "--example", name).exit_code == 0
    deals.unlink()
    result = convert(path, "--to", "pbn", "--example", name)
    assert result.exit_code == 2
    assert "config.deals_file: the deals file" in result.output and "is gone" in result.output


def test_example_on_a_record_that_is_not_a_report(tmp_path):
    result = convert(ROOT / "examples" / "records" / "renege.pbn", "--to", "ptn", "--example", "a:b:0")
    assert result.exit_code == 2 and "not one" in result.output


def test_an_example_of_the_bundled_report(tmp_path):
    """docs/reports/report.json's first example (tournament vs standard, blind_bid.allowed, deal 0): E's blind 7."""
    result = convert(ROOT / "docs" / "reports" / "report.json", "--to", "pbn", "--example", "tournament:standard:0")
    assert result.exit_code == 0, result.output
    tournament, standard = read_back(result.stdout, "pbn")
    assert tournament.hands == standard.hands and tournament.variant == "tournament"
    assert str(tournament.bids[C.SEATS.index("E")]) == "blind 7"
    assert "the example is derived from this play" in tournament.meta["Finding"]


@pytest.mark.parametrize("fmt", ["pbn", "ptn"])
def test_a_verify_finding_is_its_deal(fmt):
    path = ROOT / "docs" / "reports" / "verify" / "000-tournament.json"
    finding = json.loads(path.read_text(encoding="utf-8"))["conflicts"][0]["example"]
    listed = convert(path, "--to", fmt)
    assert listed.exit_code == 2 and "conflicts:0" in listed.output and "dead_ends:0" in listed.output
    result = convert(path, "--to", fmt, "--example", "conflicts:0")
    assert result.exit_code == 0, result.output
    (hand,) = read_records(result.stdout, fmt).hands
    assert hand.bids is None and hand.tricks is None and hand.variant == "tournament"
    assert [set(C.card_names(h)) for h in hand.hands] == [set(finding["deal"][s]) for s in C.SEATS[:4]]
    assert C.SEATS[hand.dealer] == finding["dealer"] and "conflicts:0" in hand.meta["Finding"]
    assert convert(path, "--to", fmt, "--example", "conflicts:5").exit_code == 2


@pytest.fixture(scope="module")
def game_report(tmp_path_factory) -> tuple[Path, dict]:
    """Twelve games of two variants that differ in when the game ends (a target reached, or passed)."""
    folder = tmp_path_factory.mktemp("games")
    (folder / "tens.yaml").write_text("id: tens\ntitle: tens\nextends: standard\nrules:\n"
                                      "  scoring.overtrick_points: 0 @ 000 §SCORING\n"
                                      "  game.target: 200 @ 001 §Objective\n", encoding="utf-8")
    (folder / "tens-over.yaml").write_text("id: tens-over\ntitle: over\nextends: tens.yaml\nrules:\n"
                                           "  game.target_reached: high.score > game.target @ 004 §Winning the Game\n",
                                           encoding="utf-8")
    doc = diff(DiffConfig((str(folder / "tens.yaml"), str(folder / "tens-over.yaml")), deals=0, games=12,
                          attribute=120, policies=("sensible",)), jobs=1)
    path = folder / "report.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path, doc


def test_a_hand_of_a_game(game_report):
    path, doc = game_report
    (k, example), = found(doc)
    assert set(example["found_in"]) == {"game", "hand"} and example["stage"] == "game"
    result = convert(path, "--to", "ptn", "--example", f"tens:tens-over:{k}")
    assert result.exit_code == 0, result.output
    hands = read_records(result.stdout, "ptn").hands
    assert [h.variant for h in hands] == ["tens", "tens-over"] and all(len(h.rows) == 13 for h in hands)
    hand = example["found_in"]["hand"]
    assert all(f"hand {hand} of the game" in h.meta["Finding"] for h in hands)
    assert sum("derived from this play" in h.meta["Finding"] for h in hands) == 1


def test_a_whole_game(game_report, tmp_path):
    """A finding found in a game (no hand named): every hand of the game, as each variant played it."""
    path, doc = game_report
    (k, example), = found(doc)
    whole = json.loads(json.dumps(doc))
    whole["pairs"][0]["examples"][k]["found_in"] = {"game": example["found_in"]["game"]}
    file = tmp_path / "whole.json"
    file.write_text(json.dumps(whole), encoding="utf-8")
    result = convert(file, "--to", "pbn", "--example", f"tens:tens-over:{k}")
    assert result.exit_code == 0, result.output
    hands = read_records(result.stdout, "pbn").hands
    by_variant = {v: [h for h in hands if h.variant == v] for v in ("tens", "tens-over")}
    assert len(by_variant["tens"]) > example["found_in"]["hand"] and by_variant["tens-over"]
    assert [h.number for h in hands] == list(range(1, len(hands) + 1))
    # each hand of the example's game is one of the hands written under the variant it was derived from
    rs = load_ruleset(str(path.parent / "tens.yaml"))
    written = []
    for h in by_variant["tens"]:
        won = replay(rs, played(in_play_order(h, rs)[0])).situations["score"]["tricks"]
        written.append(({s: str(b) for s, b in zip(C.SEATS, h.bids)}, won))
    for part in example["input"]["hands"]:
        assert ({s: str(b) for s, b in part["bids"].items()}, part["tricks"]) in written
