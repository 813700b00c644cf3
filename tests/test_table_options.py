"""The table options of issue 30, half A, through the product: the bid rule over every bid in /v1/bid and
/v1/score, the game so far in /v1/game and the game loop, the first leader in diff, the commands that list
variants and rules."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulespec import game as E
from rulespec.app.disputes import answer
from rulespec.cli import main
from rulespec.errors import InputError
from rulespec.model.ruleset import load_ruleset

LAST_BID = {"seat": "W", "dealer": "W", "bids": {"N": 3, "E": 3, "S": 3}}
SET = {"bids": {"N": 3, "S": 3, "E": 3, "W": 3}, "tricks": {"N": 2, "S": 2, "E": 4, "W": 5}}


def test_a_bid_the_table_rule_refuses_says_why_with_the_bids_so_far():
    refused = answer("bid", {"variant": "no-thirteen", "bid": 4, **LAST_BID})
    assert not refused["allowed"]
    [step] = refused["refusals"]
    assert step["rule"] == "bid.table_valid" and step["cite"] == "005 §Bids may not total 13"
    assert step["reason"] == ("the 3 bids so far name 9; with this bid of 4 the bids would total 13, which this "
                              "rule does not allow")
    allowed = answer("bid", {"variant": "no-thirteen", "bid": 5, **LAST_BID})
    assert allowed["allowed"] and any(s["rule"] == "bid.table_valid" for s in allowed["explanation"])
    plain = answer("bid", {"variant": "standard", "bid": 4, **LAST_BID})   # a rule no variant sets: no step
    assert plain["allowed"] and all(s["rule"] != "bid.table_valid" for s in plain["explanation"])


def test_a_scored_hand_checks_the_table_rule_in_bidding_order():
    body = {"variant": "no-thirteen", "bids": {"N": 4, "E": 3, "S": 3, "W": 3},
            "tricks": {"N": 4, "E": 3, "S": 3, "W": 3}}
    with pytest.raises(InputError) as refused:
        answer("score", {**body, "dealer": "W"})                   # N, E, S, W: West's 3 makes 13
    assert refused.value.field == "bids.W" and refused.value.rule == "bid.table_valid"
    with pytest.raises(InputError) as refused:
        answer("score", {**body, "dealer": "S"})                   # W, N, E, S: South's 3 makes 13
    assert refused.value.field == "bids.S"


def test_a_game_ended_by_its_sets_says_so_and_the_game_loop_keeps_them():
    result = answer("game", {"variant": "set-twice-loses", "hands": [SET, SET]})["result"]
    assert result["over"] and result["winner"] == "EW" and result["rule"]["rule"] == "game.mercy"
    assert "NS bid 6 and failed it this hand, set 2 time(s) in the game (2 in a row)" in result["reason"]
    assert not answer("game", {"variant": "set-twice-loses", "hands": [SET]})["result"]["over"]
    assert not answer("score", {"variant": "set-twice-loses", **SET})["game"]["over"]   # one hand: one set
    rs = load_ruleset("set-twice-loses")
    sets, early = [0, 0], 0
    for record in E.simulate(rs, 80, seed=3, game_limit=30, raw=True):
        sets = [n + r.set for n, r in zip(sets, record["_results"])]
        status = record["game_status"]
        if status["over"]:
            ended_early = max(r.score for r in record["_results"]) < 500
            assert ended_early == (max(sets) >= 2), (sets, status)      # a second set ends it, and only that
            early += ended_early
        if status["over"] or status.get("unfinished"):
            sets = [0, 0]
    assert early > 0


def test_diff_names_the_first_leader_rule_for_a_lead_out_of_turn(tmp_path):
    out = tmp_path / "diff"
    result = CliRunner().invoke(main, ["diff", "standard", "club-two-leads", "--deals", "30", "--out", str(out)])
    assert result.exit_code == 0, result.output
    legal = json.loads((out / "report.json").read_text())["pairs"][0]["transcript"]["stages"]["legal"]
    assert legal["count"] > 0
    assert [a["rule"] for a in legal["attribution"]] == ["play.first_leader_by"]


def test_the_commands_list_the_catalogue_variants_and_the_neutral_values():
    listed = CliRunner().invoke(main, ["variants"]).output
    for vid in ("no-thirteen", "zero-not-nil", "club-two-leads", "set-twice-loses", "moon-wins", "jokers-ace",
                "jokers-deuce-ace", "whiz-common", "mirror"):
        assert any(line.split()[:2] == [vid, "005"] for line in listed.splitlines()), vid
    rules = CliRunner().invoke(main, ["rules"]).output
    assert "where no variant sets it: true (the game without this rule)" in rules
    assert "bids.made, bids.total, opponents.bids, opponents.tricks" in rules
