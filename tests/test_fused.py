"""The generated card-play function plays exactly the hands of the rule-by-rule loop."""
from __future__ import annotations

import random
import textwrap
from dataclasses import replace

import pytest

from rulespec.core import cards as C
from rulespec.game import engine as E
from rulespec.game import fused
from rulespec.lang.compiler import NONE, make_env
from rulespec.errors import GameError
from rulespec.game.policies import RandomPolicy, SensiblePolicy
from rulespec.model.ruleset import load_ruleset, ruleset_from_text
from rulespec.model.variants import bundled_ids


def reference_play_hand(rs, hands, dealer, policy, scores=(0, 0), bags=(0, 0)) -> dict:
    """``engine.play_hand`` as it was before the fused card play: one ``legal_mask`` and one
    ``trick_winner`` call per play and per trick."""
    hands = list(hands)
    dealt = list(hands)
    bids = [None] * 4
    first = rs.fn["deal.first_bidder"](dealer)
    for k in range(4):
        seat = (first + k) % 4
        options = E.legal_bids(rs, seat, hands[seat], dealer, bids, scores, bags)
        if not options:
            raise E.DeadEndError(f"{C.SEATS[seat]} has no legal bid", f"bids.{C.SEATS[seat]}")
        bids[seat] = policy.bid(rs, seat, options, hands[seat])
        partner = C.partner_of(seat)
        if (bids[seat].is_nil and rs.params["nil.partner_may_raise"] and bids[partner] is not None
                and bids[partner].kind == E.REGULAR):
            raises = [E.Bid(E.REGULAR, n) for n in range(bids[partner].n, rs.params["deal.hand_size"] + 1)
                      if not E.team_refusals(rs, (E.Bid(E.REGULAR, n), bids[seat]), scores, bags,
                                             C.team_of(seat), explain=False)]
            if raises:
                bids[partner] = policy.raise_bid(rs, partner, raises, hands[partner])
    exchanges = []
    count = rs.params["blind_nil.exchange"]
    for seat in range(4):
        if bids[seat].kind == E.BLIND_NIL and count:
            partner = C.partner_of(seat)
            give = policy.exchange(rs, seat, hands[seat], count)
            hands[seat] &= ~C.mask_of(give)
            back = policy.exchange(rs, partner, hands[partner], count)
            hands[partner] = (hands[partner] & ~C.mask_of(back)) | C.mask_of(give)
            hands[seat] |= C.mask_of(back)
            exchanges.append({"from": C.SEATS[seat], "gave": [C.card_name(c) for c in give],
                              "received": [C.card_name(c) for c in back]})
    leader = rs.fn["play.first_leader"](dealer)
    broken, played, tricks_won, trick_log, plays, last = False, 0, [0, 0, 0, 0], [], [], None
    winners = []
    size = rs.params["deal.hand_size"]
    for number in range(1, size + 1):
        trick, trick_mask, led = [], 0, NONE
        for pos in range(4):
            seat = (leader + pos) % 4
            hand = hands[seat]
            legal = E.legal_mask(rs, hand, trick_mask, led, number, pos + 1, broken, played)
            card = policy.play(rs, seat, legal, trick, hand)
            if not broken and rs.fn["trump.breaks"](card, hand, pos == 0, led, number):
                broken = True
            hands[seat] = hand & ~(1 << card)
            played |= 1 << card
            trick_mask |= 1 << card
            trick.append(card)
            plays.append((seat, card))
            if pos == 0:
                led = rs.suit_of[card]
        win_index, _ = E.trick_winner(rs, trick, number)
        winner = (leader + win_index) % 4
        tricks_won[winner] += 1
        winners.append(winner)
        trick_log.append({"leader": C.SEATS[leader], "cards": [C.NAMES[c] for c in trick],
                          "winner": C.SEATS[winner]})
        if number == size:
            last = (winner, E.by_seat(trick, leader))
        leader = winner
    results = E.score_hand(rs, bids, tricks_won, scores, bags, last_trick=last)
    return {
        "dealer": C.SEATS[dealer],
        "deal": {C.SEATS[s]: C.card_names(dealt[s]) for s in range(4)},
        "bids": {C.SEATS[s]: str(bids[s]) for s in range(4)},
        "exchanges": exchanges,
        "tricks": trick_log,
        "tricks_per_seat": {C.SEATS[s]: tricks_won[s] for s in range(4)},
        "score": {C.TEAMS[t]: {"points": r.points, "bags_added": r.bags_added} for t, r in enumerate(results)},
        "totals": {C.TEAMS[t]: {"score": r.score, "bags": r.bags} for t, r in enumerate(results)},
        "_results": results,
        "_bids": bids,
        "_plays": plays,
        "_won": tricks_won,
        "_winners": winners,
        "_last": last,
    }


def _outcome(play, rs, deal, dealer, policy, scores, bags):
    try:
        return play(rs, deal, dealer, policy, scores, bags)
    except E.DeadEndError as exc:
        return repr(exc)


CLASHING = """\
    id: clashing
    source: {doc: house, title: Play constraints that clash and dead-end; a comprehension}
    extends: standard
    rules:
      play.first_lead: hand & hearts @ house §1
      play.first_trick_trump: hand & trump.suit @ house §2
      play.first_trick_suit: (hand - trump.suit) | (hand - hand) @ house §3
      play.follow: hand & trick.led_suit @ house §4
      trump.breaks: >-
        card.suit == trump.suit and (not leading or all(c in hand where c.suit == trump.suit))
        @ house §5
"""


def _ruleset(variant: str):
    return ruleset_from_text(textwrap.dedent(CLASHING)) if variant == "clashing" else load_ruleset(variant)


def test_the_clashing_variant_has_conflicts_and_dead_ends():
    rs = _ruleset("clashing")
    hand = C.mask_of(C.parse_cards("AS KS 2C 3C"))             # no hearts: play.first_lead allows none
    legal = E.legal_cards(rs, hand, [], 1, False)
    assert [d["rule"] for d in legal.dead_ends] == ["play.first_lead"]
    assert [c["rules"] for c in legal.conflicts] == [["play.lead", "play.first_trick_trump"]]


@pytest.mark.parametrize("variant", [*bundled_ids(), "clashing"])
@pytest.mark.parametrize("policy", [RandomPolicy, SensiblePolicy])
def test_fused_play_gives_the_reference_records(variant, policy):
    rs = _ruleset(variant)
    for i in range(40):
        deal = E.deal_for("fused", i, rs)
        scores, bags = ((i * 53) % 400 - 150, (i * 31) % 300), (i % 10, (i * 7) % 10)
        ours = _outcome(E.play_hand, rs, deal, i % 4, policy(random.Random(i)), scores, bags)
        ref = _outcome(reference_play_hand, rs, deal, i % 4, policy(random.Random(i)), scores, bags)
        assert ours == ref, (variant, i)


HOUSE = """\
    id: broken-winner
    source: {doc: house, title: A winner outside the trick}
    extends: standard
    rules:
      trick.winner: %s @ house §1
"""


@pytest.mark.parametrize("winner, named", [("none", "named no card"), ("AS", "named AS")])
def test_a_winner_outside_the_trick_is_a_game_error(winner, named):
    rs = ruleset_from_text(textwrap.dedent(HOUSE % winner))
    deal = E.deal_for(0, 0, rs)
    with pytest.raises(GameError, match="which is not in the trick") as ours:
        E.play_hand(rs, deal, 0, RandomPolicy(random.Random(1)))
    with pytest.raises(GameError) as ref:
        reference_play_hand(rs, deal, 0, RandomPolicy(random.Random(1)))
    assert str(ours.value) == str(ref.value) and named in str(ours.value)


def test_generated_code_runs_with_empty_builtins():
    rs = load_ruleset("tournament")
    play = fused.play_cards(rs)
    env = play.__globals__
    assert env["__builtins__"] == {}
    assert set(env) == set(make_env({name: None for name in fused._TABLES})) | {"play_cards"}
    assert fused.play_cards(rs) is play                 # generated once per ruleset


@pytest.mark.parametrize("expr, what", [("open(a0)", "name 'open'"), ("_SM.__class__", "attribute '__class__'")])
def test_inlining_rejects_a_source_that_reaches_anything_else(expr, what):
    rs = ruleset_from_text(textwrap.dedent(HOUSE % "highest(trick.cards)"))
    forged = replace(rs.rules["play.lead"], source=f"def rule(a0, a1, a2, a3, a4, a5, a6, a7):\n    return {expr}\n")
    rs.rules = {**rs.rules, "play.lead": forged}
    with pytest.raises(ValueError, match=f"unexpected {what}"):
        fused.inline(rs, "play.lead", "play")
