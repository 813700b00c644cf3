"""Words a player at the table understands (issue 33, item 7): a rule's condition said as the rule states
it ("only when EW are behind by 200 or more"), a game ended early said with the score that ended it, and
what an overtrick is."""
from __future__ import annotations

from rulespec.app.disputes import answer
from rulespec.app.conditions import when
from rulespec.model.ruleset import load_ruleset


def bid(variant: str, seat: str, call, ns: int = 0, ew: int = 0) -> dict:
    return answer("bid", {"variant": variant, "seat": seat, "bid": call,
                          "before": {"NS": {"score": ns}, "EW": {"score": ew}}})


def test_blind_nil_says_how_far_behind_a_side_must_be():
    refused = bid("classic", "W", "blind nil", ns=300, ew=250)["refusals"][0]
    assert refused["reason"] == ("blind nil is allowed only when EW are behind by 100 or more: EW are on 250 "
                                 "against NS on 300")
    assert bid("classic", "W", "blind nil", ns=350, ew=250)["allowed"]


def test_a_blind_team_bid_names_the_bids_allowed():
    assert bid("tournament", "N", "blind 5")["refusals"][0]["reason"] == \
        "a blind team bid is allowed only for a bid of 7 or 8"
    assert bid("no-nil-team-bids", "N", "blind 11")["refusals"][0]["reason"] == (
        "a blind team bid is allowed only for a bid of 6 to 10 and when NS are behind by 100 or more: NS are on 0 "
        "against EW on 0")


def test_a_rule_of_another_shape_keeps_the_general_sentence(house):
    rs = house("""
        id: odd
        extends: standard
        source: {doc: house, title: t}
        rules:
          blind_nil.allowed: team.score * 2 < opponents.score @ house §1
        """)
    assert when(rs, "blind_nil.allowed", {"team": "EW"}) is None
    assert when(load_ruleset("standard"), "play.lead") is None


def test_a_game_ended_early_says_which_condition_and_the_score():
    over = answer("score", {"variant": "pirates", "bids": {"N": 4, "E": 4, "S": 4, "W": 3},
                            "tricks": {"N": 5, "E": 1, "S": 5, "W": 2},
                            "before": {"NS": {"score": 100}, "EW": {"score": -450}}})["game"]
    assert over["over"] and over["winner"] == "NS" and over["rule"]["rule"] == "game.mercy"
    assert over["reason"] == "the game ends when a side's score falls to −500 or below, and EW are on −520"
    ruled = answer("score", {"variant": "tournament", "bids": {"N": 4, "E": 4, "S": 4, "W": 3},
                             "tricks": {"N": 5, "E": 1, "S": 5, "W": 2},
                             "before": {"NS": {"score": 300}, "EW": {"score": -150}}})
    ns, ew = (ruled["teams"][t]["score"] for t in ("NS", "EW"))
    assert ns - ew >= 500 and ruled["game"]["rule"]["rule"] == "game.mercy"
    assert ruled["game"]["reason"] == f"the game ends when a side leads by 500 or more, and NS lead by {ns - ew}"


def test_an_overtrick_is_said_to_be_a_trick_won_beyond_the_bid():
    scored = answer("score", {"variant": "standard", "bids": {"N": 4, "E": 4, "S": 4, "W": 3},
                              "tricks": {"N": 5, "E": 1, "S": 5, "W": 2}})
    reasons = [line["reason"] for line in scored["teams"]["NS"]["lines"]]
    assert "the overtrick bonus (2 overtricks, tricks won beyond the bid, at 1 each) scores 2" in reasons
