"""The shared answers layer: compare names the rules that make rulings differ."""
import pytest

from rulespec.errors import InputError

from rulespec.app.disputes import answer, compare


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


# --------------------------------------------------------------------------- gaps found by the mutation run
SCORE = {"variant": "standard", "bids": {"N": 3, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 3, "E": 4, "S": 3, "W": 3}}


def _refused(kind: str, req: dict) -> InputError:
    with pytest.raises(InputError) as refused:
        answer(kind, req)
    return refused.value


def test_a_card_outside_the_variants_pack_is_refused_with_its_field():
    error = _refused("trick", {"variant": "standard", "leader": "N", "cards": ["2H", "BJ", "4H", "5H"]})
    assert (error.field, error.message) == ("cards[1]", "BJ is not in the pack of variant 'standard'")


def test_the_cards_of_a_trick_are_credited_to_the_seats_from_the_leader():
    played = answer("trick", {"variant": "standard", "leader": "E", "cards": ["2H", "3H", "4H", "5H"]})
    assert played["played_by"] == {"E": "2H", "S": "3H", "W": "4H", "N": "5H"} and played["winner"] == "N"


@pytest.mark.parametrize("value,message", [
    (100_001, "must be between -100000 and 100000, got 100001"), ("12", "expected a whole number, got '12'"),
    (True, "expected a whole number, got True")])
def test_scores_before_a_hand_are_whole_numbers_within_bounds(value, message):
    error = _refused("score", {**SCORE, "before": {"NS": {"score": value}}})
    assert (error.field, error.message) == ("before.NS.score", message)
    assert answer("score", {**SCORE, "before": {"NS": {"score": 100_000}}})["teams"]["NS"]["score"] == 100_060


@pytest.mark.parametrize("value", [True, [3], 3.0])
def test_a_bid_that_is_neither_a_number_nor_text_is_refused(value):
    error = _refused("score", {**SCORE, "bids": {**SCORE["bids"], "N": value}})
    assert error.field == "bids.N" and ("not a bid" in error.message or "a bid is a number" in error.message)


def test_tricks_above_the_hand_size_are_refused():
    error = _refused("score", {**SCORE, "tricks": {"N": 14, "E": 0, "S": 0, "W": 0}})
    assert (error.field, error.message) == ("tricks.N", "must be between 0 and 13, got 14")


def test_a_legal_cards_question_names_the_trick_and_the_cards_a_player_holds():
    hand = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"]
    error = _refused("legal", {"variant": "standard", "hand": hand, "number": 2})
    assert (error.field, error.message) == ("hand", "at trick 2 a player holds 12 cards, not 13")
    assert _refused("legal", {"variant": "standard", "hand": hand, "number": 0}).field == "number"


def test_every_bid_step_has_a_reason_and_the_pair_names_the_partner():
    for seat, partner in (("N", "S"), ("E", "W")):
        ruling = answer("bid", {"variant": "standard", "seat": seat, "bid": 4, "bids": {partner: 3}})
        assert all(isinstance(step["reason"], str) and step["reason"] for step in ruling["explanation"])
        valid = next(step for step in ruling["explanation"] if step["rule"] == "bid.team_valid")
        assert f"({seat} 4, {partner} 3)" in valid["reason"]


def test_a_short_play_is_refused_unless_a_forfeit_renege_ended_the_hand():
    deal = {seat: [f"{rank}{suit}" for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
            for seat, suit in zip("NESW", "CDHS")}
    short = {"bids": {"N": 3, "E": 3, "S": 3, "W": 3}, "dealer": "W", "deal": deal,
             "play": [["2C", "2D", "2H", "2S"]]}
    for variant in ("standard", "tournament"):            # tournament: a forfeit renege ends a hand
        error = _refused("score", {**short, "variant": variant})
        assert (error.field, error.message) == ("play", "the play covers 1 tricks; a hand has 13")


def test_a_hand_scored_alone_is_the_first_of_its_game():
    house = {"extends": "standard", "rules": {"game.mercy": "hands >= 2"}}
    assert answer("score", {**SCORE, "variant": house})["game"]["over"] is False
    assert answer("score", {**SCORE, "variant": house, "hands_played": 1})["game"]["over"] is True


def test_the_contract_step_adds_up_the_regular_bids_only():
    ruling = answer("score", {**SCORE, "bids": {"N": 4, "E": 3, "S": "nil", "W": 3},
                              "tricks": {"N": 4, "E": 4, "S": 0, "W": 5}})
    contract = [step["why"] for step in ruling["explanation"] if step["rule"] == "bid.team_contract"]
    assert contract == ["N 4", "E 3 + W 3"]


def test_a_game_of_more_than_500_hands_is_refused_before_it_is_read():
    error = _refused("game", {"variant": "standard", "hands": [{}] * 501})
    assert (error.field, error.message) == ("hands", "at most 500 hands")


def test_input_no_variant_can_answer_is_refused_but_a_rule_refusal_is_a_ruling():
    hand = {k: v for k, v in SCORE.items() if k != "variant"}     # (a compare's input names no variant)
    with pytest.raises(InputError) as refused:
        compare({"variants": ["standard", "classic"], "kind": "score",
                 "input": {**hand, "tricks": {"N": 3, "E": 4, "S": 3, "W": 2}}})
    assert refused.value.field == "input.tricks" and "add up to 12" in refused.value.message
    result = compare({"variants": ["standard", "classic"], "kind": "score",
                      "input": {**hand, "bids": {"N": "blind nil", "E": 3, "S": 3, "W": 3}}})
    assert all(ruling["error"]["rule"] == "blind_nil.allowed" for ruling in result["rulings"].values())


def test_a_refused_bid_names_the_range_even_when_it_is_one_bid():
    """A range of one bid (minimum = maximum) is still a range; only a minimum above the maximum
    leaves no regular bid."""
    def why(low: int, high: int) -> str:
        ruling = answer("bid", {"variant": {"extends": "standard",
                                            "rules": {"bid.regular_min": low, "bid.regular_max": high}},
                                "seat": "N", "bid": 3})
        assert not ruling["allowed"]
        return ruling["refusals"][0]["why"]
    assert why(4, 4) == "a regular bid must be from 4 to 4 here"
    assert why(5, 4) == "no regular bid is possible here"
