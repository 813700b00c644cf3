"""Simulation fast paths give the answers of the plain code: RandomPolicy's card choice, the
highest/lowest helpers."""
from __future__ import annotations

import random

from rulespec import cards as C
from rulespec.compiler import NONE, make_env
from rulespec.policies import RandomPolicy
from rulespec.ruleset import load_ruleset


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
