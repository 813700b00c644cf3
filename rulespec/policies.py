"""Seeded players for bidding and card play.

A policy gets the legal options from the engine and picks one; it never
decides what is legal.  Every policy draws only from the generator it is
given, so the same seed gives the same choices in every run.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from . import cards as C
from .engine import Bid
from .ruleset import Ruleset


class RandomPolicy:
    """Uniformly random legal bids and cards, from a seeded generator."""
    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def bid(self, rs: Ruleset, seat: int, legal: list[Bid], hand: int) -> Bid:
        return self.rng.choice(legal)

    def raise_bid(self, rs: Ruleset, seat: int, legal: list[Bid], hand: int) -> Bid:
        return self.rng.choice(legal)

    def play(self, rs: Ruleset, seat: int, legal: int, trick: Sequence[int], hand: int) -> int:
        cards = list(C.iter_cards(legal))
        return cards[self.rng.randrange(len(cards))]

    def exchange(self, rs: Ruleset, seat: int, hand: int, count: int) -> list[int]:
        return self.rng.sample(list(C.iter_cards(hand)), count)


POLICIES = {"random": RandomPolicy}
