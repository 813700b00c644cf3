"""Simulation fast paths give the answers of the plain code: the legal_bids memo, RandomPolicy's
card choice, the highest/lowest helpers."""
from __future__ import annotations

import random

import pytest

from rulespec.core import cards as C
from rulespec import game as E
from rulespec.game import bids as bids_module
from rulespec.lang.compiler import NONE, make_env
from rulespec.game.policies import RandomPolicy
from rulespec.model.ruleset import load_ruleset
from rulespec.model.variants import bundled_ids

PARTNER_BIDS = [None, "1", "3", "9", "nil", "blind nil"]


@pytest.mark.parametrize("variant", bundled_ids())
def test_memoised_legal_bids_equal_the_direct_computation(variant):
    rs = load_ruleset(variant)
    rng = random.Random(variant)
    table = C.table_of(rs.params)
    for i in range(300):
        seat, dealer = rng.randrange(table.seats), rng.randrange(table.seats)
        hand = E.deal_for("memo", i, rs)[seat]              # a new hand for inputs that repeat
        bids = [None] * table.seats
        partner = rng.choice(PARTNER_BIDS) if table.partners else None      # (alone: nobody's partner)
        if partner is not None:
            bids[table.opposite(seat)] = E.parse_bid(partner)
        scores = table.padded((rng.choice([0, 120, -150]), rng.choice([0, 300])))
        bags = table.padded((rng.choice([0, 9]), 0))
        pbid = bids[table.opposite(seat)] if table.partners else None
        direct = bids_module._legal_bids(rs, seat, hand, dealer, pbid, scores, bags,
                                         bids_module.table_of(seat, bids, table))
        assert E.legal_bids(rs, seat, hand, dealer, bids, scores, bags) == direct, (variant, i)


def test_the_memo_keys_on_the_hand_when_a_bid_rule_reads_it():
    rs = load_ruleset("whiz")                                # bid exactly your spades
    two = C.mask_of(C.parse_cards("2S 3S 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"))
    four = C.mask_of(C.parse_cards("2S 3S 4S 5S 6H 7H 8H 9H 10H JH QH KH AH"))
    for hand, spades in ((two, 2), (four, 4), (two, 2)):
        bids = E.legal_bids(rs, 1, hand, 0, [None] * 4, (0, 0), (0, 0))
        assert [b.n for b in bids if b.kind == E.REGULAR] == [spades]


def test_callers_get_their_own_list():
    rs = load_ruleset("standard")
    first = E.legal_bids(rs, 1, 0, 0, [None] * 4, (0, 0), (0, 0))
    first.clear()
    assert E.legal_bids(rs, 1, 0, 0, [None] * 4, (0, 0), (0, 0))


def test_random_policy_plays_the_kth_legal_card_of_a_uniform_draw():
    policy, twin, masks = RandomPolicy(random.Random(4)), random.Random(4), random.Random(5)
    rs = load_ruleset("standard")
    for _ in range(2000):
        legal = C.mask_of(masks.sample(range(54), masks.randint(1, 20)))
        cards = C.card_list(legal)
        expected = cards[int(twin.random() * len(cards))]
        assert policy.play(rs, 0, legal, [], legal) == expected


def _first_best(mask: int, power, better) -> int:
    best = NONE
    for card in C.card_list(mask):
        if best == NONE or better(power[card], power[best]):
            best = card
    return best


def test_highest_and_lowest_take_the_first_card_of_the_best_power():
    rng = random.Random(9)
    power = tuple(rng.randint(0, 5) for _ in range(C.NUM_CARDS))     # many ties
    env = make_env({"_POW": power})
    for _ in range(3000):
        mask = C.mask_of(rng.sample(range(C.NUM_CARDS), rng.randint(0, 14)))
        assert env["_hi"](mask) == _first_best(mask, power, lambda a, b: a > b)
        assert env["_lo"](mask) == _first_best(mask, power, lambda a, b: a < b)


def _unexplained(results):
    return [(r.points, r.bags_added, r.score, r.bags) for r in results]


@pytest.mark.parametrize("variant", bundled_ids())
def test_a_lean_hand_is_the_full_record_s_raw_parts_without_lines(variant):
    rs = load_ruleset(variant)
    for i in range(30):
        deal, scores, bags = E.deal_for("lean", i, rs), ((i * 41) % 500 - 100, 60), (i % 10, 8)
        stock = E.stock_for("lean", i, rs)          # (where the hands are drawn: deal.draw)
        try:
            full = E.play_hand(rs, deal, i % 4, RandomPolicy(random.Random(i)), scores, bags, stock=stock)
        except E.DeadEndError:
            continue
        lean = E.play_hand(rs, deal, i % 4, RandomPolicy(random.Random(i)), scores, bags, record=False, stock=stock)
        assert set(lean) == {"_results", "_bids", "_plays", "_won", "_winners", "_last", "_dealt", "_drawn"}
        assert all(lean[k] == full[k] for k in ("_bids", "_plays", "_won", "_winners", "_last", "_dealt", "_drawn"))
        assert [C.card_names(hand) for hand in lean["_dealt"]] == list(full["deal"].values())
        assert [str(b) for b in lean["_bids"]] == list(full["bids"].values())
        assert [C.SEATS[w] for w in lean["_winners"]] == [trick["winner"] for trick in full["tricks"]]
        assert _unexplained(lean["_results"]) == _unexplained(full["_results"])
        assert all(r.lines == [] for r in lean["_results"])


@pytest.mark.parametrize("variant", ["three-trick-renege", "tournament", "standard", "suicide"])
def test_unexplained_scores_equal_explained_ones(variant):
    rs = load_ruleset(variant)
    rng = random.Random(variant)
    kinds = ["nil", "blind nil", "blind 6", "1", "3", "5", "8"]
    for _ in range(400):
        bids = [E.parse_bid(rng.choice(kinds)) for _ in range(4)]
        tricks = [0, 0, 0, 0]
        for _ in range(13):
            tricks[rng.randrange(4)] += 1
        reneges = rng.choice([(), (0,), (1,), (0, 2)]) if rs.params["renege.mode"] != "none" else ()
        args = (rs, bids, tricks, (rng.randint(-200, 600), 40), (rng.randint(0, 12), 9), reneges,
                (rng.randrange(4), rng.sample(C.card_list(rs.deck), 4)))
        explained = E.score_hand(*args)
        assert _unexplained(E.score_hand(*args, explain=False)) == _unexplained(explained)
