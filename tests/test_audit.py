"""The audit of a game record: each hand replayed under the variant through the one hand procedure, the first
irregularity with its rule and clause, each trick's winner, each hand's score and the running game score,
and every hand where the record's own scores differ, with the clause that decides it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.app.audit import answer_audit
from rulespec.cli import main
from rulespec.errors import InputError
from test_records import PTN

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "records"
RENEGE = (EXAMPLES / "renege.pbn").read_text(encoding="utf-8")
JOKERS = (EXAMPLES / "jokers-deuces.ptn").read_text(encoding="utf-8")


def test_a_trickster_record_with_jokers_reads_replays_and_scores_under_its_own_options():
    got = answer_audit({"record": PTN.split("\n\n[Event")[0]})
    (variant,) = got["variants"]
    assert variant["chosen"] == "options" and variant["variant"]["extends"] == "jokers-deuces"
    assert variant["variant"]["rules"]["bid.team_min"]["value"] == 4
    hand = got["hands"][0]
    assert hand["variant"] == "trickster" and hand["first_irregular"] is None and not hand["irregularities"]
    assert [t["winner"] for t in hand["tricks"]][:2] == ["E", "S"]
    assert hand["tricks"][2]["cards"][0] == {"seat": "S", "card": "BJ"} and hand["tricks"][2]["winner"] == "S"
    assert {t: s["points"] for t, s in hand["score"].items()} == {"NS": -130, "EW": -120}
    assert hand["platform"]["totals"] == {"NS": -130, "EW": -120} and not hand["platform"]["checked"]
    assert got["summary"]["legal"] == 1 and got["differences"] == []


def test_the_options_not_mapped_are_named():
    text = PTN.split("\n\n[Event")[0].replace('\\"minBid\\":4', '\\"minBid\\":4,\\"firstHandBidsItself\\":true,'
                                              '\\"nilPass\\":2,\\"shuffle\\":1')
    variant = answer_audit({"record": text})["variants"][0]
    assert variant["not_mapped"] == ["firstHandBidsItself", "shuffle"]
    why = {o["option"]: o["why"] for o in variant["options"]}
    assert "no rule slot" in why["firstHandBidsItself"] and "does not know" in why["shuffle"]


def test_a_game_of_three_hands_is_checked_against_the_records_scores():
    got = answer_audit({"record": JOKERS})
    assert [h["platform"]["checked"] for h in got["hands"]] == [False, True, True]
    assert got["differences"] == [] and got["summary"]["checked_against_platform"] == 2
    assert got["hands"][1]["before"] == {"NS": {"score": -80, "bags": 0}, "EW": {"score": 60, "bags": 0}}
    assert got["game"]["scores"] == {"NS": {"score": -149, "bags": 1}, "EW": {"score": 11, "bags": 1}}


def test_a_hand_the_platform_scored_otherwise_is_named_with_the_deciding_clause():
    # the platform's NS total leaves out hand 2's overtrick point (and carries the point lost into hand 3)
    text = JOKERS.replace('"S:-39 -70 -39 -70"', '"S:-40 -70 -40 -70"').replace('"S:-149 11 -149 11"',
                                                                               '"S:-150 11 -150 11"')
    (difference,) = answer_audit({"record": text})["differences"]
    assert [difference[k] for k in ("hand", "team", "platform", "rule_book")] == [2, "NS", 40, 41]
    assert difference["decided_by"]["why"] == "the platform's score is the rule book's without this line"
    (line,) = difference["decided_by"]["lines"]
    assert (line["rule"], line["points"]) == ("scoring.overtrick_points", 1) and line["cite"] == "003 ¶11"


def test_a_renege_is_named_with_its_card_rule_and_clause():
    hand = answer_audit({"record": RENEGE})["hands"][0]
    found = hand["first_irregular"]
    assert (found["kind"], found["trick"], found["seat"], found["card"], found["ruling"]) == ("card", 5, "E", "KD",
                                                                                            "refused")
    assert (found["rule"], found["cite"], found["line"], found["tag"]) == ("play.follow", "001 §Turns", 25, "Play")
    assert "K♦ may not be played" in found["why"]
    assert hand["score"] is None and len(hand["tricks"]) == 5 and hand["tricks"][4]["winner"] is None


def test_the_record_s_own_revoke_mark_is_reported():
    hand = answer_audit({"record": RENEGE.replace("DK S9 S2 S3", "^R DK S9 S2 S3")})["hands"][0]
    assert hand["record_marks"] == [{"trick": 5, "seat": "E", "card": "KD", "mark": "a revoke", "line": 25,
                                     "tag": "Play"}]
    assert (hand["first_irregular"]["seat"], hand["first_irregular"]["card"]) == ("E", "KD")


def test_a_renege_under_a_renege_penalty_is_scored():
    hand = answer_audit({"record": RENEGE, "variant": "three-trick-renege"})["hands"][0]
    found = hand["first_irregular"]
    assert (found["ruling"], found["renege"], found["rule"], found["cite"]) == ("renege", True, "play.follow",
                                                                                 "003 ¶18")
    assert found["decided_by"] == [{"rule": "renege.mode", "cite": "003 ¶2"}]
    assert hand["score"]["NS"]["points"] == 74 and len(hand["tricks"]) == 13


def test_a_trick_the_rule_book_gives_to_another_seat_stops_the_replay():
    no_trumps = {"extends": "standard", "rules": {"trick.winner": "highest(trick.cards & trick.led_suit)"}}
    hand = answer_audit({"record": RENEGE, "variant": no_trumps})["hands"][0]
    found = hand["first_irregular"]
    assert (found["kind"], found["rule"]) == ("leader", "trick.winner")
    assert found["why"].startswith("the record has ") and "under inline" in found["why"]
    assert found["trick"] == len(hand["tricks"]) + 1 > 1


def test_a_first_leader_against_the_rules_is_named():
    hand = answer_audit({"record": RENEGE.replace('[Dealer "N"]', '[Dealer "S"]')})["hands"][0]
    found = hand["first_irregular"]
    assert (found["kind"], found["rule"], found["trick"]) == ("leader", "play.first_leader", 1)
    assert "the record has E lead the first trick; under standard W leads it" in found["why"]


def test_a_bid_the_options_refuse_is_named():
    text = PTN.split("\n\n[Event")[0].replace("4 10 9 2", "1 10 2 2")
    found = answer_audit({"record": text})["hands"][0]["first_irregular"]
    assert (found["kind"], found["rule"], found["cite"], found["line"]) == ("bid", "bid.team_min",
                                                                           "house §Trickster option minBid", 8)
    assert "NS's bids are not allowed together" in found["why"]


def test_simulated_games_agree_with_the_rule_book(tmp_path):
    out = tmp_path / "games.jsonl"
    result = CliRunner().invoke(main, ["simulate", "standard", "--games", "2", "--seed", "5", "--out", str(out)])
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()[:30]
    got = answer_audit({"record": "\n".join(lines)})
    assert got["summary"]["scored"] == len(lines) == got["summary"]["checked_against_platform"]
    assert got["differences"] == []
    # a game's hands run on from each other; a new game starts from 0-0
    games = [json.loads(line)["game"] for line in lines]
    for hand, line, game in zip(got["hands"][1:], lines[1:], games[1:]):
        previous = got["hands"][hand["hand"] - 2]
        if json.loads(line)["game"] == games[hand["hand"] - 2]:
            assert hand["before"] == {t: {"score": previous["score"][t]["score"], "bags": previous["score"][t]["bags"]}
                                      for t in ("NS", "EW")}


def test_a_record_of_which_no_hand_reads_is_refused_with_the_place_it_stops():
    with pytest.raises(InputError) as caught:
        answer_audit({"record": JOKERS.split("JH DA HA SA")[0]})
    assert caught.value.field == "record"
    assert "line 25 [Play]: the play is cut short: it stops after trick 12 of 13" in caught.value.message
    assert "(2 more problem(s))" not in caught.value.message
    partial = answer_audit({"record": JOKERS.replace("C7 C6 C9 CJ", "C7 C6 C9")})
    assert partial["record"]["hands"] == 2 and partial["record"]["problems"][0]["line"] == 14


@pytest.mark.parametrize("req, field", [({"record": 3}, "record"), ({"record": " "}, "record"),
                                        ({"record": RENEGE, "colour": 1}, "colour"),
                                        ({"record": RENEGE, "format": "xml"}, "format"),
                                        ({"record": RENEGE, "variant": "nope"}, "variant"), ([], "body")])
def test_bad_requests_name_their_field(req, field):
    with pytest.raises(InputError) as caught:
        answer_audit(req)
    assert caught.value.field == field


def test_the_command_line_audit(tmp_path):
    runner = CliRunner()
    good = runner.invoke(main, ["audit", str(EXAMPLES / "jokers-deuces.ptn")])
    assert good.exit_code == 0, good.output
    assert "variant: trickster (the record's options, extending jokers-deuces)" in good.output
    assert "platform: NS +41, EW -130 (the change in the record's totals)" in good.output
    bad = runner.invoke(main, ["audit", str(EXAMPLES / "renege.pbn")])
    assert bad.exit_code == 1 and "FIRST IRREGULARITY: line 25: East: K♦ may not be played" in bad.output
    # the hand refused is not scored, and the text says what the running score does with it
    assert "  score: not scored (the hand could not be scored under the rules: the running score leaves it out)" \
        in bad.output.splitlines()
    as_json = runner.invoke(main, ["audit", str(EXAMPLES / "renege.pbn"), "--json", "--variant", "three-trick-renege"])
    assert json.loads(as_json.output) == answer_audit({"record": RENEGE, "variant": "three-trick-renege"})
    cut = tmp_path / "cut.ptn"
    cut.write_text(JOKERS.split("JH DA HA SA")[0])
    refused = runner.invoke(main, ["audit", str(cut)])
    assert refused.exit_code == 2 and "line 25 [Play]: the play is cut short" in refused.output
    assert runner.invoke(main, ["audit", str(tmp_path / "none.ptn")]).exit_code == 2


def test_a_first_hand_that_cannot_be_replayed_does_not_claim_a_score_worked_out_before_it():
    # the record gives only the totals after the hand; the rule book's points for it are needed to work out the
    # score before it, and a hand refused under the rules has none
    text = PTN.split("\n\n[Event")[0].replace("4 10 9 2", "1 10 2 2")
    hand = answer_audit({"record": text})["hands"][0]
    assert hand["score"] is None and hand["first_irregular"]["rule"] == "bid.team_min"
    assert hand["before"] == {"NS": {"score": 0, "bags": 0}, "EW": {"score": 0, "bags": 0}}
    assert not hand["before_from"].startswith("the platform's total after the hand less the rule book's points")
    assert "could not be replayed" in hand["before_from"]


@pytest.mark.parametrize("variant, seats", [("two-player", "NE"), ("cutthroat", "NES"), ("solo", "NESW")])
def test_a_simulated_game_at_a_table_without_partners_is_audited_per_player(tmp_path, variant, seats):
    out = tmp_path / "games.jsonl"
    result = CliRunner().invoke(main, ["simulate", variant, "--games", "1", "--seed", "3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()[:6]
    got = answer_audit({"record": "\n".join(lines), "variant": variant})
    assert got["summary"]["scored"] == len(lines) == got["summary"]["checked_against_platform"], got["summary"]
    assert got["differences"] == [] and got["summary"]["irregular"] == 0
    assert list(got["game"]["scores"]) == list(seats)
    for hand, line in zip(got["hands"], lines):
        assert list(hand["score"]) == list(seats) and list(hand["bids"]) == list(seats)
        assert {s: hand["score"][s]["score"] for s in seats} == {s: v["score"]
                                                                for s, v in json.loads(line)["totals"].items()}


def test_an_irregular_card_at_a_table_alone_is_found_with_its_rule():
    hands = {"N": ["AS", "2H", "3H"], "E": ["KS", "4H", "5D"], "S": ["QS", "6D", "7D"]}
    # E holds a heart and does not follow N's 2H; trick 1: 2H 5D 6D (N wins), trick 2: AS KS QS, trick 3: 3H 4H 7D
    record = {"dealer": "S", "deal": hands, "bids": {"N": 2, "E": 1, "S": 0},
              "play": [["2H", "5D", "6D"], ["AS", "KS", "QS"], ["3H", "4H", "7D"]]}
    house = {"id": "tiny-cutthroat", "extends": "cutthroat", "rules": {"deal.hand_size": "3 @ house §1"}}
    got = answer_audit({"record": json.dumps(record), "variant": house})
    hand = got["hands"][0]
    assert "problem" not in hand, hand
    found = hand["first_irregular"]
    assert (found["seat"], found["card"], found["trick"]) == ("E", "5D", 1), found
    assert found["rule"].startswith("play."), found
    assert found["ruling"] in ("refused", "renege", "stands"), found
    assert hand["score"] is None if found["ruling"] == "refused" else list(hand["score"]) == ["N", "E", "S"]


def test_a_partnership_record_judged_where_each_plays_alone_is_scored_per_player_and_not_checked(tmp_path):
    out = tmp_path / "games.jsonl"
    result = CliRunner().invoke(main, ["simulate", "standard", "--games", "1", "--seed", "5", "--out", str(out)])
    assert result.exit_code == 0, result.output
    got = answer_audit({"record": out.read_text().splitlines()[1], "variant": "solo"})
    hand = got["hands"][0]
    assert "problem" not in hand and list(hand["before"]) == ["N", "E", "S", "W"], hand
    assert hand["before"]["N"]["score"] == 0 and any("not by the 4 sides" in note for note in hand["notes"]), hand
    assert got["summary"]["checked_against_platform"] == 0 and list(got["game"]["scores"]) == ["N", "E", "S", "W"]
