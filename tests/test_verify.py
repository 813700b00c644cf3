"""rulespec verify: known problems of the seed documents are found, a clean variant raises no alarm."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulespec import game as E
from rulespec.cli import main
from rulespec.model.ruleset import load_ruleset
from rulespec.errors import VerifyError
from rulespec.tools.verify import Budget, verify
from rulespec.tools.verify.checks import problems
from rulespec.tools.verify.doc_claims import CLAIMS, run_claim
from rulespec.tools.verify.nonterm import witnesses
from rulespec.tools.verify.bidding import search_bidding
from rulespec.tools.verify.report import markdown
from rulespec.tools.verify.states import Evidence, bidding_roots, every_bid_sequence, explore, random_games

SMALL = Budget(hands=60, examples=40, endgame_tricks=2, endgame_roots=2)

FIRST_TRICK = """\
id: first-trick
title: 000's first-trick rules on the standard game
source: {doc: "000", title: test}
extends: standard
rules:
  play.first_trick_suit: "if hand.has(clubs) then {lowest(hand & clubs)} else hand @ 000 §PLAY OF THE HAND"
  play.first_trick_trump: "hand - spades @ 000 §PLAY OF THE HAND"
"""


def write(tmp_path, text: str, name: str = "v.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def first_trick(tmp_path_factory):
    rs = load_ruleset(write(tmp_path_factory.mktemp("v"), FIRST_TRICK))
    found = problems(rs, explore(rs, SMALL))
    return {kind: [f.as_dict() for f in found if f.kind == kind[:-1]] for kind in ("dead_ends", "conflicts")}


def test_first_trick_dead_end_found_with_minimal_state(first_trick):
    dead = [d for d in first_trick["dead_ends"] if d["rules"][0]["rule"] == "play.first_trick_trump"]
    assert dead, first_trick["dead_ends"]
    core = dead[0]["core"]
    assert core["trick_number"] == 1 and core["hand"] and all(c.endswith("S") for c in core["hand"])
    assert dead[0]["rules"][0]["cite"] == "000 §PLAY OF THE HAND"
    assert all(c.endswith("S") for c in dead[0]["example"]["hand"])


def test_follow_suit_vs_lowest_club_conflict_found(first_trick):
    clash = [c for c in first_trick["conflicts"]
             if [r["rule"] for r in c["rules"]] == ["play.follow", "play.first_trick_suit"]]
    assert clash, first_trick["conflicts"]
    core = clash[0]["core"]
    led = core["trick"][0][-1]
    assert led != "C" and any(c.endswith("C") for c in core["hand"]) and any(c.endswith(led) for c in core["hand"])


def test_clean_variant_has_no_false_alarms():
    rec = verify(load_ruleset("standard"), SMALL)
    assert rec["dead_ends"] == [] and rec["conflicts"] == [] and rec["dead_rules"] == []
    assert all(c["holds"] for c in rec["claims"])


def test_unspecified_target_is_an_open_point_that_matters(tmp_path):
    text = ("id: quiet\ntitle: t\nsource: {doc: \"002\", title: t}\nextends: standard\nrules:\n"
            "  game.target:\n    value: 500\n    unspecified: the page leaves the target to the settings\n")
    rec = verify(load_ruleset(write(tmp_path, text)), SMALL)
    point = next(p for p in rec["open_points"] if p["rule"] == "game.target")
    assert "silent" in point["reason"] and point["matters"]["question"] == "game over / winner"
    assert point["matters"]["as_encoded"] != point["matters"]["alternative"]


def test_bundled_pirates_target_open_point():
    ev = explore(load_ruleset("pirates"), Budget(hands=30, examples=0, endgame_tricks=0))
    from rulespec.tools.verify.openpoints import open_points
    point = next(p for p in open_points(ev.rs, ev) if p["rule"] == "game.target")
    assert point["matters"] is not None


def test_standstill_hand_really_changes_nothing():
    rs = load_ruleset("standard")
    found = witnesses(rs)
    assert found[0]["kind"] == "standstill" and found[0]["hands"] == 1
    hand = found[0]["sequence"][0]
    bids = [E.parse_bid(hand["bids"][s]) for s in "NESW"]
    res = E.score_hand(rs, bids, [hand["tricks"][s] for s in "NESW"], (120, 80), (3, 4))
    assert [(r.score, r.bags) for r in res] == [(120, 3), (80, 4)]
    assert any(w["kind"] == "tie lock" for w in found)


def test_game_end_conflict_and_bid_dead_end(tmp_path):
    text = ("id: odd\ntitle: t\nsource: {doc: \"001\", title: t}\nextends: standard\nrules:\n"
            "  game.winner: if ns.score > ew.score then EW else if ew.score > ns.score then NS else none"
            " @ 001 §Winning\n"
            "  bid.team_valid: false @ 001 §Setup\n")
    ev = explore(load_ruleset(write(tmp_path, text)), Budget(hands=5, examples=0, endgame_tricks=0))
    kinds = {key for key in ev.events}
    assert ("conflict", "game_end", ("game.target_reached", "game.winner")) in kinds
    dead = [key for key in kinds if key[:2] == ("dead_end", "bid")]
    assert dead and "bid.team_valid" in dead[0][2]


def test_last_digit_claim_holds_for_pirates_and_fails_without_overtrick_points():
    claim = next(c for c in CLAIMS if c.id == "002-last-digit")
    for ref, holds in (("pirates", True), ("tournament", False)):
        rs = load_ruleset(ref)
        ev = Evidence(rs)
        random_games(rs, ev, 80, "t", 200)
        counter = run_claim(claim, rs, ev)
        assert (counter is None) is holds
    assert counter["score"] % 10 != counter["bags"] % 10


def test_budget_is_checked():
    with pytest.raises(VerifyError):
        Budget(hands=0)


def test_cli_strict_exit_and_reports(tmp_path):
    path = write(tmp_path, FIRST_TRICK)
    out = tmp_path / "out"
    args = ["verify", path, "--hands", "40", "--examples", "0", "--endgame-tricks", "1", "--out", str(out)]
    result = CliRunner().invoke(main, [*args, "--strict"])
    assert result.exit_code == 1, result.output
    assert "first-trick: 0 dead end(s), 1 conflict(s)" in result.output  # the dead end needs a guided deal
    page = (out / "000-first-trick.html").read_text()
    assert "<html" in page and "http" not in page.replace("<!DOCTYPE html>", "")
    rec = json.loads((out / "000-first-trick.json").read_text())
    assert rec["conflicts"] and rec["dead_ends"] == []
    assert (out / "000-first-trick.md").read_text().startswith("# Verification of `first-trick`")
    assert CliRunner().invoke(main, ["verify", "standard", "--hands", "20", "--examples", "0",
                                     "--strict"]).exit_code == 0


NO_THIRTEEN = """\
id: no-thirteen-scratch
title: the bids may not total 13
source: {doc: "001", title: test}
extends: standard
rules:
  bid.table_valid: bids.made < 3 or bids.total + bid.tricks != 13 @ 001 §Setup
"""


def test_bidding_dead_end_found_by_exhaustive_search(tmp_path):
    """Nil, 13, nil leaves the fourth bidder nothing: nil makes 13 in all, any number breaks bid.team_max."""
    rs = load_ruleset(write(tmp_path, NO_THIRTEEN))
    rec = verify(rs, Budget(hands=1, examples=0, endgame_tricks=0))
    dead = [d for d in rec["dead_ends"] if d["phase"] == "bid"]
    assert len(dead) == 1, rec["dead_ends"]
    example = dead[0]["example"]
    assert len(example["bid_sequence"]) == 3 and [b.split()[1] for b in example["bid_sequence"]] == ["nil", "13", "nil"]
    assert example["refused"]["bid.table_valid"] == ["nil"] and "bid.team_max" in example["refused"]
    assert rec["explored"]["bidding"]["method"] == "exhaustive" and rec["explored"]["bidding"]["complete"]
    bids = [None] * 4
    for step in example["bid_sequence"]:
        seat, bid = step.split(" ", 1)
        bids["NESW".index(seat)] = E.parse_bid(bid)
    seat = "NESW".index(example["seat"])
    assert E.legal_bids(rs, seat, 0, "NESW".index(example["dealer"]), bids, (0, 0), (0, 0)) == []
    assert "Shortest bid sequence" in markdown(rec)


def test_bidding_search_finds_nothing_in_standard_and_samples_where_bids_read_the_cards():
    for ref in ("standard", "no-thirteen", "raise-one", "tournament", "cutthroat"):
        rs = load_ruleset(ref)
        search = search_bidding(rs, bidding_roots(rs, Evidence(rs)), 20_000)
        assert search.method == "exhaustive" and search.complete and search.states and not search.dead, ref
    ev = Evidence(load_ruleset("whiz"))
    every_bid_sequence(ev.rs, ev, 20_000)
    assert ev.bidding["method"] == "sampled" and "bid.regular_max" in ev.bidding["hand_rules"]
    assert "sampled" in ev.notes[0] and not ev.events


def test_bidding_search_keeps_to_its_budget():
    ev = Evidence(load_ruleset("standard"))
    every_bid_sequence(ev.rs, ev, 50)
    assert ev.bidding["states_visited"] == 50 and not ev.bidding["complete"] and "budget of 50 states" in ev.notes[0]
