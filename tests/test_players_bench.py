"""The player-strength bench (``bench.players``) runs and makes well-formed rows (tiny sizes, sensible and
random only: the sampled player's matches are the bench's, minutes long)."""
from __future__ import annotations

from bench import __main__ as table
from bench import players


def test_duplicate_swaps_the_sides_so_a_player_against_itself_scores_zero():
    same = players.duplicate("standard", "sensible", "sensible", 4)
    assert same["points_per_hand"]["mean"] == 0 and same["points_per_hand"]["n"] == 4
    stronger = players.duplicate("standard", "sensible", "random", 12)
    assert stronger["points_per_hand"]["low"] > 0


def test_the_rows_of_a_small_run():
    match = players.duplicate("standard", "sensible", "random", 3)
    selfplay = players.self_play("standard", 5, nils=2, players=("sensible", "sensible"))
    rate = selfplay["set_rate"]
    assert rate["a"]["n"] > 0 and 0 <= rate["a"]["rate"] <= 1 and rate["a"] == rate["b"]
    assert selfplay["nil_hands"] == 2 and selfplay["nil_success"]["a"]["n"] >= 2
    result = {"sensible_vs_random": match, "sampled_vs_sensible": match, "self_play": {"standard": selfplay},
              "bid_error": {"variant": "standard", "sides": 2, "mean_error": -0.5, "mean_abs_error": 0.5,
                            "within_one": 1.0}}
    rows = table.players_rows(result)
    assert len(rows) == 5 and all(len(row) == 5 for row in rows)
    assert rows[2][3] == "+0.0 points (+0.0 to +0.0)" and "2 deals with a nil bid" in rows[3][0]
