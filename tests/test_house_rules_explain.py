"""`rulespec explain`: the compact situation syntax, one hand line by line,
and the same hand under other variants side by side."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulespec.app.disputes import answer
from rulespec.cli import main
from rulespec.errors import SituationError
from rulespec.app.situation import parse_before, parse_bids, parse_tricks

EXAMPLE = "examples/house-rules.yaml"
HAND = ["--bids", "N=3,E=nil,S=4,W=2", "--tricks", "N=4,E=0,S=5,W=4", "--before", "NS=120/8,EW=0/0"]


def cli(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.mark.parametrize("text", ["N=3,E=nil,S=4,W=2", "n:3 e:nil s:4 w:2", "3,nil,4,2", "3 nil 4 2",
                                  "W=2, S=4, E=nil, North=3", "N=3;E=nil;S=4;W=2"])
def test_bid_spellings(text):
    assert parse_bids(text) == {"N": 3, "E": "nil", "S": 4, "W": 2}


def test_blind_bids_and_tricks_and_before():
    assert parse_bids("N=blind nil,E=3,S=blind 6,W=2")["N"] == "blind nil"
    assert parse_tricks("4,0,5,4") == {"N": 4, "E": 0, "S": 5, "W": 4}
    assert parse_before("NS=120/8,ew=-40") == {"NS": {"score": 120, "bags": 8}, "EW": {"score": -40, "bags": 0}}


@pytest.mark.parametrize("parse, text, message", [
    (parse_bids, "N=3,E=nil,S=4", "--bids: missing W (give all of N, E, S, W)"),
    (parse_bids, "N=3,X=nil,S=4,W=2", "--bids: 'X' is not a seat (seats are N, E, S, W)"),
    (parse_bids, "N=3,E=nill,S=4,W=2", "--bids: E=nill: not a bid; did you mean 'nil'?"),
    (parse_bids, "N=3,N=4,S=4,W=2", "--bids: N is given twice"),
    (parse_tricks, "N=four,E=0,S=5,W=4", "--tricks: N=four: a trick count is a whole number"),
    (parse_tricks, "4,0,5", "--tricks: 3 value(s) given; without names give 4, in the order N E S W"),
    (parse_tricks, "N=4,0,5,4", "--tricks: mix of 'seat=value' and bare values"),
    (parse_before, "NE=10", "--before: 'NE' is not a team (teams are NS and EW)"),
    (parse_before, "NS=12a", "--before: NS=12a: write score/bags as whole numbers"),
])
def test_clear_errors(parse, text, message):
    with pytest.raises(SituationError) as exc:
        parse(text)
    assert str(exc.value).startswith(message) and "(e.g. --" in str(exc.value)


def test_explain_one_hand_line_by_line():
    result = cli("explain", EXAMPLE, *HAND)
    assert result.exit_code == 0, result.output
    lines = [line.split() for line in result.stdout.splitlines()]
    assert result.stdout.startswith("Hand scored under kitchen-table\n")
    assert ["bids", "N", "3", "E", "nil", "S", "4", "W", "2"] in lines
    assert " ".join(["scoring.made", "+70", "NS made the contract (bid 7, took 9): it scores 70",
                     "house §Ten for two hundred"]) in [" ".join(line) for line in lines]
    assert " ".join(["bags.penalty", "-50", "too many bags (10 bags reach the limit of 5): it costs 50",
                     "house §Bags"]) in [" ".join(line) for line in lines]
    assert " ".join(["nil.made", "+75", "nil made (East bid nil, took 0): it scores 75",
                     "house §Nil"]) in [" ".join(line) for line in lines]
    assert "= -28 this hand; score 120 -> 92, bags 8 -> 0 (2 added)" in result.stdout
    assert "001 §Scoring (inherited from standard)" in result.stdout
    assert "= game not over: no end condition is met" in result.stdout
    assert "\x1b[" not in result.stdout


def test_explain_is_the_api_answer():
    request = {"bids": parse_bids("3,nil,4,2"), "tricks": parse_tricks("4,0,5,4"), "before": parse_before("NS=120/8")}
    api = answer("score", {**request, "variant": EXAMPLE}, allow_paths=True)
    out = cli("explain", EXAMPLE, *HAND).stdout
    for team in ("NS", "EW"):
        assert f"= {api['teams'][team]['points']:+d} this hand" in out


def test_compare_side_by_side_marks_differences():
    result = cli("explain", EXAMPLE, *HAND, "--compare", "standard", "--compare", "classic")
    assert result.exit_code == 0, result.output
    out = result.stdout.splitlines()
    # one sentence per difference, first
    assert out[1] == ("  Under kitchen-table (house) EW score 97 this hand, under standard (001) 122: a nil made "
                      "scores 75 in kitchen-table and 100 in standard (house §Nil; 001 §Nil bids).")
    assert out[2].startswith("  Under kitchen-table (house) EW score 97 this hand, under classic (004) 72: "
                             "a nil made scores 75")
    header = next(line for line in out if "kitchen-table" in line and "standard" in line and "Under" not in line)
    assert header.split() == ["kitchen-table", "standard", "classic"]
    rows = {line[2:].split("  ")[0].strip(): line for line in out if line[:2] in ("* ", "  ")}
    assert rows["EW nil.made"].startswith("* ") and rows["EW nil.made"].split()[-3:] == ["+75", "+100", "+50"]
    assert rows["NS scoring.made"].startswith("  ")
    assert rows["NS bags.penalty #2"].split()[-3:] == ["-50", "-", "-"]
    assert "Rules that differ:" in out
    i = out.index("  nil.made")
    assert out[i + 1].split() == ["kitchen-table", "75", "@", "house", "§Nil"]
    assert out[-1] == "The variants disagree on the lines marked *."


def test_compare_accepts_a_comma_list_and_agreeing_variants():
    result = cli("explain", "standard", "--bids", "3,3,3,3", "--tricks", "3,3,3,4", "--compare", "standard,house")
    assert result.exit_code == 0, result.output


def test_json_situation_from_stdin_and_options_override():
    body = {"bids": {"N": 3, "E": "nil", "S": 4, "W": 2}, "tricks": {"N": 4, "E": 0, "S": 5, "W": 4}}
    result = cli("explain", EXAMPLE, "--json", "-", input=json.dumps(body))
    assert result.exit_code == 0 and "= +72 this hand" in result.stdout
    result = cli("explain", EXAMPLE, "--json", "-", "--before", "NS=120/8", input=json.dumps(body))
    assert "score 120 -> 92" in result.stdout


@pytest.mark.parametrize("args, code, message", [
    (["--tricks", "4,0,5,4"], 2, "error: give the bids, e.g. --bids N=3,E=nil,S=4,W=2"),
    (["--bids", "3,nil,4"], 2, "error: --bids: 3 value(s) given"),
    (["--bids", "3,nil,4,2", "--tricks", "4,0,5,3"], 2, "error: tricks: tricks add up to 12; a hand has 13"),
    (["--bids", "3,nil,4,2"], 2, "error: tricks: this field is required"),
    (["--bids", "3,nil,4,2", "--tricks", "4,0,5,4", "--compare", "clasic"], 2, "did you mean 'classic'?"),
])
def test_explain_errors(args, code, message):
    result = cli("explain", EXAMPLE, *args)
    assert result.exit_code == code and message in result.stderr, result.output


def test_explain_bad_json(tmp_path):
    path = tmp_path / "s.json"
    path.write_text("[1, 2]")
    result = cli("explain", EXAMPLE, "--json", str(path))
    assert result.exit_code == 2 and "--json: expected a JSON object" in result.stderr


def test_explain_variant_with_problems_lists_them_all(tmp_path):
    path = tmp_path / "typo.yaml"
    path.write_text("id: t\nextends: standard\nrules:\n  nil.maed: 75 @ house §Nil\n  bags.limit: true @ house §B\n")
    result = cli("explain", str(path), "--bids", "3,nil,4,2", "--tricks", "4,0,5,4")
    assert result.exit_code == 2
    assert f"{path}:4:3" in result.stderr and f"{path}:5:15" in result.stderr
