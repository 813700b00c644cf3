"""The shared answers layer: compare names the rules that make rulings differ."""
import pytest

from rulespec.app.answers import InputError, answer, compare


def test_compare_names_only_the_rules_whose_swap_changes_the_ruling():
    hand = {"bids": {"N": 3, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 4, "E": 3, "S": 3, "W": 3}}
    result = compare({"variants": ["standard", "tournament"], "kind": "score", "input": hand})
    (difference,) = result["differences"]
    assert [r["rule"] for r in difference["rules"]] == ["scoring.overtrick_points"]
    assert difference["rules"][0]["changes"] == ["teams.NS.points", "teams.NS.score"]
    assert difference["rules"][0]["tournament"]["cite"] == "000 §SCORING"


def test_compare_with_an_inline_house_rule():
    hand = {"bids": {"N": "nil", "E": 3, "S": 4, "W": 3}, "tricks": {"N": 0, "E": 4, "S": 5, "W": 4}}
    house = {"extends": "standard", "rules": {"nil.made": 75}}
    result = compare({"variants": ["standard", house], "kind": "score", "input": hand})
    (difference,) = result["differences"]
    assert [r["rule"] for r in difference["rules"]] == ["nil.made"]
    assert difference["rules"][0]["inline-1"]["cite"] == "house §nil.made"   # named after its place, not "house"


def test_identical_rulings_agree():
    hand = {"bids": {"N": 3, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 3, "E": 4, "S": 3, "W": 3}}
    result = compare({"variants": ["standard", "classic"], "kind": "score", "input": hand})
    assert result["agree"] and result["differences"] == []


@pytest.mark.parametrize("team_value", [5, "high", [1, 2]])
def test_scores_before_a_hand_that_are_not_an_object_are_refused_with_their_field(team_value):
    hand = {"variant": "standard", "bids": {"N": 3, "E": 3, "S": 3, "W": 3},
            "tricks": {"N": 3, "E": 4, "S": 3, "W": 3}, "before": {"NS": team_value}}
    with pytest.raises(InputError) as refused:
        answer("score", hand)
    assert refused.value.field == "before.NS" and "object" in refused.value.message


def test_compare_games_by_hand_not_by_whole_sheet():
    """Two books that score a game alike agree (the sheets' explanation lines cite different books); where
    they differ, the differing fields name the hand, and the sentence says which hand."""
    plain = {"bids": {"N": 3, "E": 3, "S": 4, "W": 3}, "tricks": {"N": 3, "E": 3, "S": 4, "W": 3}}
    failed_nil = {"bids": {"N": "nil", "E": 3, "S": 4, "W": 3}, "tricks": {"N": 1, "E": 4, "S": 4, "W": 4}}
    same = compare({"variants": ["standard", "tournament"], "kind": "game", "input": {"hands": [plain]}})
    assert same["agree"] and same["differences"] == []
    got = compare({"variants": ["standard", "classic"], "kind": "game", "input": {"hands": [plain, failed_nil]}})
    fields = [f["field"] for f in got["differences"][0]["fields"]]
    assert fields == ["result.scores.NS.score", "sheet[1].NS.points", "sheet[1].NS.score"]
    assert {r["rule"] for r in got["differences"][0]["rules"]} == {"nil.tricks_count", "nil.failed"}
    assert got["differences"][0]["sentences"][1].startswith("Under standard (001) NS score −59 in hand 2, under "
                                                            "classic (004) −9: a failed nil costs 100")
