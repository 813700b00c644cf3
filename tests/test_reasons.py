"""Plain-language reasons: a template for every rule slot, facts for every group, and the
reasons as the API, the CLI and the page receive them."""
from __future__ import annotations

import pytest

from rulespec.app import reasons as R
from rulespec.app.disputes import answer, compare
from rulespec.errors import InputError
from rulespec.core.schema import SLOTS

BUILDERS = {
    "play": R.play_facts("2S", ["9C"], ["C", "S"], "", "S", False, 1),
    "trick": R.trick_facts(["AH", "2S", "KH", "3H"], ["H", "S", "H", "H"], "S", "2S", "2S"),
    "bid": R.bid_facts("W", "1", (0, 0), 2),
    "team_bid": R.team_bid_facts("NS", "N 3, S 4", 7),
    "hand": R.hand_facts("nil.failed", "NS", -100, "North bid nil, took 1"),
    "game": R.game_facts((120, -40), 500, False),
    "plain": {"value": "13"},
}


def test_every_slot_has_a_why_and_a_why_not():
    """Every slot has templates: its own, or made from its declaration (a new slot's); none is stray."""
    assert set(R.TEMPLATES) <= set(SLOTS), "plain-language templates of a rule that is no slot"
    for name in SLOTS:
        template = R.template_of(name)
        assert template.group in R.GROUPS, name
        assert template.subject and all(text.strip() for text in template.texts()), name
        for text in template.texts():
            assert R.placeholders(text) <= R.GROUPS[template.group], (name, text)


@pytest.mark.parametrize("group", sorted(R.GROUPS))
def test_each_group_has_a_builder_giving_exactly_its_facts(group):
    assert set(BUILDERS[group]) == R.GROUPS[group]
    for name in SLOTS:
        template = R.template_of(name)
        if template.group == group:
            for refused in (False, True):
                assert "{" not in R.reason(name, BUILDERS[group], refused)


def test_a_spade_led_too_early_says_so_in_words():
    ans = answer("legal", {"variant": "standard", "hand": ["9C", "KD", "AH", "2S"], "number": 10})
    refused = {c["card"]: c["reasons"] for c in ans["illegal"]}
    [why] = refused["2S"]
    assert why["rule"] == "play.lead" and why["cite"] == "001 §Turns"
    assert why["reason"] == "2♠ may not be led: spades are not broken yet, and you hold other suits"
    assert ans["explanation"][0]["reason"] == "you may lead 9♣ K♦ A♥"


def test_not_following_suit_says_so():
    ans = answer("legal", {"variant": "standard", "hand": ["AH", "2S", "KD"], "trick": ["3H"], "number": 11})
    refused = {c["card"]: c["reasons"][0]["reason"] for c in ans["illegal"]}
    assert refused["KD"] == ("K♦ may not be played: hearts were led and you hold hearts, so you must follow suit "
                             "with A♥")


def test_bid_refusals_name_the_hand_in_words():
    ans = answer("bid", {"variant": "standard", "seat": "N", "bid": "blind nil"})
    assert ans["refusals"][0]["reason"] == "these rules do not allow blind nil at all"
    ans = answer("bid", {"variant": "tournament", "seat": "W", "bid": "blind nil",
                         "before": {"NS": {"score": 0}, "EW": {"score": 0}}})
    assert ans["refusals"][0]["reason"] == ("blind nil is allowed only when EW are behind by 200 or more: EW are "
                                            "on 0 against NS on 0")
    ans = answer("bid", {"variant": "tournament", "seat": "W", "bid": 1})
    assert ans["refusals"][0]["reason"] == "a bid must be at least 2 here"
    with pytest.raises(InputError) as refused:
        answer("score", {"variant": "tournament", "bids": {"N": 4, "E": 4, "S": 4, "W": 1},
                         "tricks": {"N": 4, "E": 4, "S": 4, "W": 1}})
    assert refused.value.message == "West may not bid 1: a bid must be at least 2 here"
    assert refused.value.field == "bids.W"
    assert all("reason" in step for step in ans["explanation"])


def test_score_lines_carry_reasons():
    ans = answer("score", {"variant": "standard", "bids": {"N": "nil", "E": 3, "S": 4, "W": 3},
                           "tricks": {"N": 1, "E": 4, "S": 4, "W": 4}})
    lines = {line["rule"]: line["reason"] for line in ans["teams"]["NS"]["lines"]}
    assert lines["nil.failed"] == "nil failed (North bid nil, took 1): it costs 100"
    assert all(step.get("reason") for step in ans["explanation"])
    trick = answer("trick", {"variant": "standard", "leader": "N", "cards": ["AH", "2S", "KH", "3H"]})
    assert [s["reason"] for s in trick["explanation"]] == [
        "A♥ was led, so the trick is in hearts", "spades are trumps: 2♠ played", "2♠ wins the trick"]


def test_score_line_reasons_come_from_the_facts_the_score_notes():
    """The reason of each score line is built from its facts (seats, cards, counts), not from the short note:
    a last-trick bonus names the nil bidder and the cards in full; overtricks and reneges read as words."""
    ans = answer("score", {"variant": "last-trick-ace-bonus", "bids": {"N": "nil", "E": 3, "S": 4, "W": 3},
                           "tricks": {"N": 0, "E": 4, "S": 5, "W": 4},
                           "last_trick": {"winner": "S", "cards": {"N": "2S", "E": "KH", "S": "AS", "W": "3H"}}})
    lines = {line["rule"]: line for line in ans["teams"]["NS"]["lines"]}
    assert lines["bonus.last_trick"]["why"] == "N bid nil and played 2S, S played AS; last trick won by S with AS"
    assert "North bid nil and played 2♠, South played A♠; last trick won by South with A♠" in \
        lines["bonus.last_trick"]["reason"]
    assert "1 overtrick, a trick won beyond the bid, at 1 each" in lines["scoring.overtrick_points"]["reason"]
    assert "bid 4, took 5" in lines["scoring.made"]["reason"] and ": made" not in lines["scoring.made"]["reason"]


def test_a_new_score_line_reads_by_its_declaration(monkeypatch):
    """A score line of a slot with no words of its own in the app reads by its declaration's ``words``."""
    import dataclasses
    slot = dataclasses.replace(SLOTS["nil.made"], name="nil.moon", doc="the moon bonus",
                               words="{seat} took {tricks} trick(s)")
    monkeypatch.setitem(SLOTS, "nil.moon", slot)
    R.template_of.cache_clear()
    try:
        assert R.hand_detail("nil.moon", {"seat": 1, "tricks": 13}, ["3"] * 4) == "East took 13 trick(s)"
        assert R.reason("nil.moon", R.hand_facts("nil.moon", "EW", 200, "East took 13 trick(s)")) == \
            "East took 13 trick(s): it scores 200"
    finally:
        R.template_of.cache_clear()


def test_one_sentence_per_difference():
    result = compare({"variants": ["standard", "classic"], "kind": "score",
                      "input": {"bids": {"N": "nil", "E": 3, "S": 4, "W": 3},
                                "tricks": {"N": 1, "E": 4, "S": 4, "W": 4}}})
    sentences = result["differences"][0]["sentences"]
    assert ("Under standard (001) NS score −59 this hand, under classic (004) −9: a failed nil costs 100 in "
            "standard and 50 in classic (001 §Nil bids; 004 §Nil and Blind Nil).") in sentences
    assert ("Under standard (001) NS score −59 this hand, under classic (004) −9: a nil bidder's tricks count "
            "toward the partners' contract in standard, not in classic (001 §Nil bids; 004 §Nil).") in sentences
    assert len(sentences) == len(result["differences"][0]["rules"])


def test_game_end_differences_read_as_words():
    result = compare({"variants": ["pirates", "classic"], "kind": "score",
                      "input": {"bids": {"N": 4, "E": 3, "S": 4, "W": 2}, "tricks": {"N": 4, "E": 3, "S": 4, "W": 2},
                                "before": {"NS": {"score": 420}, "EW": {"score": 300}}}})
    [text] = [t for d in result["differences"] for t in d["sentences"]]
    assert text.startswith("Under pirates (002) the game is over, under classic (004) the game goes on: ")
    assert text.endswith(")."), text


def test_trick_differences_name_the_winner():
    result = compare({"variants": ["house", "jokers-deuces"], "kind": "trick",
                      "input": {"leader": "N", "cards": ["3D", "3C", "2D", "4C"]}})
    sentences = result["differences"][0]["sentences"]
    assert sentences[0].startswith("Under house (003) North wins the trick, "
                                   "under jokers-deuces (003) South wins the trick: ")
    assert all("card.natural_suit" not in s for s in sentences)   # no rule expressions in a player's sentence


def test_a_refused_card_in_a_played_hand_says_why():
    from api_requests import played_hand
    request, at, offender = played_hand(renege=True)
    with pytest.raises(InputError) as refused:
        answer("score", request)
    assert refused.value.field == f"play[{at}]" and refused.value.rule == "play.follow"
    message = refused.value.message
    card = R.pretty(request["play"][at])
    assert message.startswith(f"{R.SEAT_NAMES[offender]}: {card} may not be played: "), message
    assert "were led and you hold" in message and "so you must follow suit with" in message


def test_game_comparisons_never_print_a_raw_record():
    result = compare({"variants": ["standard", "classic"], "kind": "game", "input": {"hands": [
        {"bids": {"N": "nil", "E": 3, "S": 4, "W": 3}, "tricks": {"N": 1, "E": 4, "S": 4, "W": 4}}]}})
    sentences = [t for d in result["differences"] for t in d["sentences"]]
    assert sentences and not any("{" in t or "'" in t.split(":")[0] for t in sentences), sentences
    assert ("Under standard (001) NS score −59 in hand 1, under classic (004) −9: a failed nil costs 100 in standard "
            "and 50 in classic (001 §Nil bids; 004 §Nil and Blind Nil).") in sentences


def _setting_reasons(variant: str, bids: dict, tricks: dict) -> dict[str, str]:
    from rulespec.app.disputes import answer as dispute
    out = dispute("score", {"variant": variant, "bids": bids, "tricks": tricks})
    return {step["rule"]: step["reason"] for step in out["explanation"]
            if step.get("rule") in ("nil.tricks_count", "nil.tricks_bags")}


def test_the_nil_settings_words_follow_the_table():
    alone = _setting_reasons("cutthroat", {"N": "nil", "E": 5, "S": 4}, {"N": 1, "E": 8, "S": 8})
    paired = _setting_reasons("standard", {"N": "nil", "E": 5, "S": 4, "W": 3}, {"N": 1, "E": 6, "S": 3, "W": 3})
    assert set(alone) == set(paired) == {"nil.tricks_count", "nil.tricks_bags"}, (alone, paired)
    assert not any("partner" in text for text in alone.values()), alone
    assert "bidder's own bags" in alone["nil.tricks_bags"] or "not bags" in alone["nil.tricks_bags"], alone
    assert "partners' contract" in paired["nil.tricks_count"], paired
    assert R.value_text("nil.tricks_bags", True, alone=True) != R.value_text("nil.tricks_bags", True)
