"""The card play of a whole hand as one generated Python function per ruleset (for simulation speed).

It is the lowered form's ``play_tricks`` (``procedure.whole_hand``) from the Python loop back end
(``procedure.python.loop``): every function it calls written in, every rule's checked expression inlined
(``procedure.python.inline_rule``), run with empty ``__builtins__`` as the rules are, so it plays exactly
as ``HandState``'s steps do.  Each card is chosen by the ``choose`` it is given.
"""
from __future__ import annotations

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


def random_card(random: Callable[[], float]) -> Choose:
    """``policies.RandomPolicy.play`` written out (``random`` is its generator's): the k-th legal card, lowest
    id first, for k = int(random() * count) -- the same draw, so the same cards."""
    def choose(seat: int, allowed: int, trick: list[int], position: int, hand: int, number: int, *known) -> int:
        k = int(random() * allowed.bit_count())
        while k:
            allowed &= allowed - 1
            k -= 1
        return (allowed & -allowed).bit_length() - 1
    return choose


def policy_card(rs: Ruleset, play: Callable) -> Choose:
    """A policy's ``play(rs, seat, legal, trick, hand)`` as a choice of the loop."""
    def choose(seat: int, allowed: int, trick: list[int], position: int, hand: int, number: int, *known) -> int:
        return play(rs, seat, allowed, trick[:position], hand)
    return choose


@per_ruleset
def play_cards(rs: Ruleset) -> PlayCards:
    """``rs``'s card-play function, generated once per ruleset: ``play_cards(hands, leader, choose, kind, num) ->
    (tricks won by seat, (seat, card) plays in order, trick winners)`` (``kind``, ``num``: the bids as codes, for
    ``choose``); ``hands`` is updated in place."""
    tricks = loop(rs, "play_tricks", failure(rs))
    size, seats, places = rs.params["deal.hand_size"], rs.params["table.seats"], max(4, rs.params["table.seats"])

    def play(hands: list[int], leader: int, choose: Choose, kind: Sequence[int] = (K_PENDING,) * C.MAX_SEATS,
             num: Sequence[int] = (0,) * C.MAX_SEATS) -> tuple[list[int], list[tuple[int, int]], list[int]]:
        won, plays, leaders, winners = [0] * seats, [[0] * places for _ in range(size)], [0] * size, [0] * size
        tricks(hands, leader, list(kind), list(num), won, plays, leaders, winners, choose)
        return won, _in_order(plays, leaders, seats), winners
    return play


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


def _in_order(plays: Sequence[Sequence[int]], leaders: Sequence[int], seats: int = 4) -> list[tuple[int, int]]:
    """(seat, card) of every card in the order played."""
    return [((leader + position) % seats, cards[position]) for cards, leader in zip(plays, leaders)
            for position in range(seats)]
