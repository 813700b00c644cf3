"""The kitty (issue 30, ``deal.kitty``): the pack's cards the deal leaves over go to the dealer, who discards as
many before the bids -- the check of a variant that sets it, the scalar step, every engine's hands (cards
conserved, one winner a trick), the sensible dealer's discard, the answers."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec import game as E
from rulespec.app.disputes import answer
from rulespec.core import cards as C
from rulespec.errors import InputError, RulesFileError
from rulespec.fast.batch import BatchEngine
from rulespec.fast.native_hand import source as native_source
from rulespec.game.policies import RandomPolicy, SensiblePolicy
from rulespec.model.ruleset import load_ruleset, ruleset_from_text
from rulespec.tools.diff import DiffConfig, diff
from slot_probes import native_hands

KITTY = load_ruleset("kitty")


def test_the_kitty_variant_deals_thirteen_each_and_leaves_two_for_the_dealer():
    deal = E.deal_for("k", 0, KITTY)
    state = E.HandState(KITTY, deal, 2)
    assert [hand.bit_count() for hand in deal] == [13] * 4
    left = state.kitty_cards()
    assert left.bit_count() == 2 and left & (deal[0] | deal[1] | deal[2] | deal[3]) == 0
    assert left | deal[0] | deal[1] | deal[2] | deal[3] == C.ALL_CARDS
    discard = C.card_list(deal[2])[:2]
    state.take_kitty(discard)
    assert state.hands[2] == (deal[2] | left) & ~C.mask_of(discard) and state.hands[2].bit_count() == 13
    assert state.kitty == {"dealer": "S", "cards": C.card_names(left), "discarded": C.card_names(C.mask_of(discard))}
    assert state.dealt == tuple(deal)         # (the deal as dealt; the kitty apart)
    assert E.HandState(load_ruleset("standard"), E.deal_for("k", 0, load_ruleset("standard")), 2).kitty_cards() == 0


@pytest.mark.parametrize("rules, words", [
    ("  deal.kitty: 2 @ house §k\n", "leaves 0 for a kitty, not 2"),                  # standard's 52 cards
    ("  deck.cards: all_cards @ house §k\n  deal.kitty: 1 @ house §k\n", "leaves 2 for a kitty, not 1"),
    ("  deck.cards: all_cards @ house §k\n  deal.kitty: 2 @ house §k\n", "LJ, BJ have none"),   # jokers unsuited
])
def test_a_kitty_the_pack_does_not_leave_is_refused_naming_the_rule(rules, words):
    with pytest.raises(RulesFileError) as err:
        ruleset_from_text(f"id: bad-kitty\nextends: standard\nrules:\n{rules}", "<house>")
    assert "deal.kitty" in str(err.value) and words in str(err.value)


def _conserved(rs, dealt, kitty, plays, winners) -> None:
    """Every card of the pack is dealt once or in the kitty; the cards played are the pack less the discards,
    each once, the dealer's own among them; each trick has one winner, a seat."""
    taken, discarded = kitty
    assert taken.bit_count() == rs.params["deal.kitty"] and taken & (dealt[0] | dealt[1] | dealt[2] | dealt[3]) == 0
    assert taken | dealt[0] | dealt[1] | dealt[2] | dealt[3] == rs.deck
    cards = [card for trick in plays for card in trick]
    assert len(cards) == len(set(cards)) == 52 and C.mask_of(cards) == rs.deck & ~discarded
    assert discarded.bit_count() == rs.params["deal.kitty"]
    assert len(winners) == 13 and all(0 <= w <= 3 for w in winners)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 3), st.sampled_from(["random", "sensible"]))
def test_every_scalar_hand_conserves_the_cards_and_has_one_winner_a_trick(seed, dealer, player):
    deal = E.deal_for(f"k{seed}", 0, KITTY)
    policy = (RandomPolicy if player == "random" else SensiblePolicy)(random.Random(seed))
    for stepped in (False, True):
        record = E.play_hand(KITTY, list(deal), dealer, policy, stepped=stepped)
        kitty = record["kitty"]
        assert kitty["dealer"] == C.SEATS[dealer]
        taken, discarded = (C.mask_of(C.parse_cards(kitty[key])) for key in ("cards", "discarded"))
        plays = [[C.parse_card(c) for c in t["cards"]] for t in record["tricks"]]
        _conserved(KITTY, deal, (taken, discarded), plays, [C.SEATS.index(t["winner"]) for t in record["tricks"]])
        dealer_played = [C.parse_card(t["cards"][(dealer - C.SEATS.index(t["leader"])) % 4]) for t in record["tricks"]]
        assert C.mask_of(dealer_played) == (deal[dealer] | taken) & ~discarded


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["random", "sensible", "hashed"]))
def test_every_array_hand_conserves_the_cards_and_has_one_winner_a_trick(seed, policy):
    result = BatchEngine(KITTY).play(8, seed=seed, policy=policy, dealer=seed % 4)
    for row in range(len(result)):
        dealer = int(result.dealer[row])
        taken, discarded = (int(m) for m in result.kitty[row])
        _conserved(KITTY, [int(m) for m in result.deals[row]], (taken, discarded), result.plays[row].tolist(),
                   result.winners[row].tolist())
        assert discarded & ~(int(result.deals[row, dealer]) | taken) == 0


def test_the_compiled_engines_hands_conserve_the_cards():
    result = native_hands(KITTY, 8, 3)       # (its numba text run as Python)
    for row in range(len(result.points)):
        _conserved(KITTY, [int(m) for m in result.deals[row]], tuple(int(m) for m in result.kitty[row]),
                   result.plays[row].tolist(), result.winners[row].tolist())


def test_without_a_kitty_the_engines_write_no_kitty_code_and_record_none():
    standard = load_ruleset("standard")
    assert "kitty[" not in native_source(standard) and "kitty[" not in native_source(standard, "sensible")
    assert "= _choose_discard(dealer" in native_source(KITTY)
    assert "= sensible_discard(dealer" in native_source(KITTY, "sensible")
    assert not BatchEngine(standard).play(4, seed=1).kitty.any()
    record = E.play_hand(standard, E.deal_for("k", 0, standard), 0, RandomPolicy(random.Random(0)))
    assert "kitty" not in record


def test_the_sensible_dealer_discards_its_lowest_side_suit_cards():
    hand = C.mask_of(C.parse_card(c) for c in "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2H BJ".split())
    assert SensiblePolicy(random.Random(0)).discard(KITTY, 0, hand, 2) == [C.parse_card("2H"), C.parse_card("2S")]
    hand = C.mask_of(C.parse_card(c) for c in "AC KC 3C 9D 2D AS KS QS JS 10S 9S 8S 7S 6S 5S".split())
    assert sorted(SensiblePolicy(random.Random(0)).discard(KITTY, 0, hand, 2)) == sorted(
        [C.parse_card("2D"), C.parse_card("3C")])


def _score_request(rs) -> dict:
    """A hand of ``rs`` played by random players, as a ``/v1/score`` request with the deal and the play."""
    record = E.play_hand(rs, E.deal_for("req", 1, rs), 1, RandomPolicy(random.Random(1)))
    return {"variant": rs.id, "dealer": "E", "bids": record["bids"], "deal": record["deal"],
            "play": [t["cards"] for t in record["tricks"]], **({"kitty": record["kitty"]["cards"],
                                                                 "discards": record["kitty"]["discarded"]}
                                                                if "kitty" in record else {})}, record


def test_a_score_request_replays_the_kitty_and_the_play():
    req, record = _score_request(KITTY)
    out = answer("score", req)
    assert out["tricks"] == record["tricks_per_seat"]
    assert [out["teams"][t]["points"] for t in ("NS", "EW")] == [record["score"][t]["points"] for t in ("NS", "EW")]


@pytest.mark.parametrize("change, field", [
    (lambda req: req.pop("kitty"), "kitty"),
    (lambda req: req.pop("discards"), "discards"),
    (lambda req: req.update(kitty=req["kitty"][:1]), "kitty"),
    (lambda req: req.update(kitty=[req["deal"]["N"][0], req["kitty"][1]]), "kitty[0]"),     # also dealt to N
    (lambda req: req.update(discards=[*req["discards"], req["kitty"][0]]), "discards"),
    (lambda req: req.update(discards=[req["deal"]["W"][0], req["discards"][1]]), "discards[0]"),   # W's, not E's
    (lambda req: req.update(discards="2C"), "discards"),
    (lambda req: (req.pop("deal"), req.pop("play"), req.update(tricks={"N": 3, "E": 3, "S": 3, "W": 4})), "kitty"),
])
def test_a_missing_or_wrong_kitty_or_discard_is_refused_naming_the_field(change, field):
    req, _ = _score_request(KITTY)
    change(req)
    with pytest.raises(InputError) as err:
        answer("score", req)
    assert err.value.field == field


def test_a_variant_without_a_kitty_refuses_one():
    req, _ = _score_request(load_ruleset("standard"))
    with pytest.raises(InputError) as err:
        answer("score", {**req, "kitty": ["2C"], "discards": ["3C"]})
    assert err.value.field == "kitty" and err.value.rule == "deal.kitty"


def test_a_game_takes_each_hands_kitty():
    req, record = _score_request(KITTY)
    hand = {key: value for key, value in req.items() if key != "variant"}
    out = answer("game", {"variant": "kitty", "hands": [hand, hand]})
    assert [out["sheet"][0][t]["points"] for t in ("NS", "EW")] == [record["score"][t]["points"] for t in ("NS", "EW")]
    bad = {key: value for key, value in hand.items() if key != "discards"}
    with pytest.raises(InputError) as err:
        answer("game", {"variant": "kitty", "hands": [hand, bad]})
    assert err.value.field == "hands[1].discards"


def test_diff_finds_the_kitty_on_every_deal_though_its_rule_alone_does_not_compile_into_standard():
    report = diff(DiffConfig(("standard", "kitty"), deals=6, games=1, attribute=6), jobs=1)
    p = report["pairs"][0]
    kitty = p["transcript"]["stages"]["kitty"]
    assert kitty["count"] == p["transcript"]["n"] == 12 and kitty["rate"] == 1.0   # each deal, by each player
    assert p["transcript"]["stages"]["bid"]["count"] == 0
    assert any(e["rule"] == "deal.kitty" and e["example"] is None for e in p["examples"])
