"""The card play of a whole hand as one generated Python function per ruleset (for simulation speed).

It is the lowered form's ``play_tricks`` (``procedure.whole_hand``) from the Python loop back end
(``procedure.python.loop``): every function it calls written in, every rule's checked expression inlined
(``procedure.python.inline_rule``), run with empty ``__builtins__`` as the rules are, so it plays exactly
as ``HandState``'s steps do.  Each card is chosen by the ``choose`` it is given.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from ..core import cards as C
from ..model.ruleset import Ruleset, per_ruleset
from ..procedure.lang import K_PENDING
from ..procedure.python import loop
from .steps import failure

# a player's choice of a card: (seat, legal cards, the trick's cards by position, how many, hand, trick number,
# then what the table knows: bid kinds and numbers by seat, tricks won by seat, the trick's cards, the suit led)
Choose = Callable[..., int]
PlayCards = Callable[..., tuple[list[int], list[tuple[int, int]], list[int]]]


def policy_card(rs: Ruleset, play: Callable) -> Choose:
    """A policy's ``play(rs, seat, legal, trick, hand)`` as a choice of the loop."""
    def choose(seat: int, allowed: int, trick: list[int], position: int, hand: int, number: int, *known) -> int:
        return play(rs, seat, allowed, trick[:position], hand)
    return choose


def _card_play(rs: Ruleset, card: str) -> PlayCards:
    tricks = loop(rs, "play_tricks", failure(rs), card=card)
    size, seats, places = rs.params["deal.hand_size"], rs.params["table.seats"], max(4, rs.params["table.seats"])
    takes_choice = card != "sensible"       # (the sensible player is written into the loop's module)

    def play(hands: list[int], leader: int, choose: Choose | Callable[[], float] | None,
             kind: Sequence[int] = (K_PENDING,) * C.MAX_SEATS, num: Sequence[int] = (0,) * C.MAX_SEATS
             ) -> tuple[list[int], list[tuple[int, int]], list[int]]:
        won, plays, leaders, winners = [0] * seats, [[0] * places for _ in range(size)], [0] * size, [0] * size
        if takes_choice:
            tricks(hands, leader, list(kind), list(num), won, plays, leaders, winners, choose)
        else:
            tricks(hands, leader, list(kind), list(num), won, plays, leaders, winners)
        return won, _in_order(plays, leaders, seats), winners
    return play


@per_ruleset
def play_cards(rs: Ruleset) -> PlayCards:
    """``rs``'s card-play function, generated once per ruleset: ``play_cards(hands, leader, choose, kind, num) ->
    (tricks won by seat, (seat, card) plays in order, trick winners)`` (``kind``, ``num``: the bids as codes, for
    ``choose``); ``hands`` is updated in place."""
    return _card_play(rs, "chosen")


@per_ruleset
def play_cards_random(rs: Ruleset) -> PlayCards:
    """``play_cards`` with the random player's card written into the loop (``policies.RandomPolicy.play``'s
    draw, so the same cards): ``choose`` is its generator's ``random``, called once a card and nothing else."""
    return _card_play(rs, "random")


@per_ruleset
def play_cards_sensible(rs: Ruleset) -> PlayCards:
    """``play_cards`` with the sensible player's card (``procedure.players.sensible_card``) written into the
    loop's module, its rules inlined as the loop's: ``choose`` is not called (pass None)."""
    return _card_play(rs, "sensible")


@per_ruleset
def draw_cards(rs: Ruleset) -> Callable[[Sequence[int], int, Callable[[int, int, int, int], int]],
                                        tuple[list[int], list[int]]]:
    """``rs``'s drawn deal (``deal.draw``), the lowered form's ``draw_hands`` generated once per ruleset:
    ``draw(stock, dealer, keep) -> (the hands drawn by seat, each turn's choice)``, ``keep(seat, card, hand,
    turn)`` choosing (1: keep the top card, 0: the next)."""
    draw = loop(rs, "draw_hands", failure(rs))
    seats, turns = rs.params["table.seats"], rs.params["table.seats"] * rs.params["deal.hand_size"]

    def drawn(stock: Sequence[int], dealer: int, keep: Callable[[int, int, int, int], int]
              ) -> tuple[list[int], list[int]]:
        hands, choices = [0] * seats, [0] * turns
        draw(hands, dealer, list(stock), choices, keep)
        return hands, choices
    return drawn


# each leader's seats in playing order, by table size (a trick's cards zipped with them)
_ROTATIONS = {seats: tuple(tuple((leader + k) % seats for k in range(seats)) for leader in range(seats))
              for seats in range(2, C.MAX_SEATS + 1)}


def _in_order(plays: Sequence[Sequence[int]], leaders: Sequence[int], seats: int = 4) -> list[tuple[int, int]]:
    """(seat, card) of every card in the order played."""
    chain = itertools.chain.from_iterable
    if plays and len(plays[0]) != seats:        # (a trick's places are at least four: the rest are empty)
        plays = [cards[:seats] for cards in plays]
    return list(zip(chain(map(_ROTATIONS[seats].__getitem__, leaders)), chain(plays)))
