"""The names a module of the lowered form may use, besides its own functions and Python's operators.

The procedure modules import them from here so that linters and readers know what each one is; the
lowering (``procedure.form``) replaces every one of them, per back end, and none of the bodies below
ever runs.  What each name means is said once, here:

* ``rule("x.y")``: the value of rule ``x.y`` at that point.  Its context's values are the variables
  named after the context's names (``trick.led_suit`` is the variable ``trick_led_suit``), which must be
  in scope; a parameter rule (context ``param``) is its constant.  A bid kind is its code (``K_*``).
* ``reads("x.y", "hand")``: whether rule ``x.y`` names the context name ``hand`` (a constant per ruleset).
* ``permits_hand("x.y")``: whether play constraint ``x.y`` is written as ``hand`` (it permits every card held,
  so narrowing by it changes nothing and may be skipped): a constant per ruleset; false in code made for every
  ruleset, which then narrows, to the same effect.
* ``note(kind, *values)``: an explanation event (the rule applied, a conflict, a score line, ...) for
  the explaining scalar back end; every other back end drops it, and an ``if`` or ``for`` that holds
  only notes.  A parameter annotated ``Note`` is passed only where notes are kept.
* ``fail(code, value)``: the hand cannot go on (``FAILURES``: a trick winner outside the trick, a seat
  with no legal bid, a renege the variant has no rule for); the back end raises its error.
* ``choose_*``: a decision of the players (the back end's policy): only in ``whole_hand``; a player written
  in the form (``players``) is a function of the same arguments.
* ``zeros(n)``: a new array of ``n`` zeros (per hand).  ``popcount(mask)``: the cards in a set.
* ``suit_of(card)``: the suit a card counts in (rule ``card.suit``), from the ruleset's card table;
  ``power_of(card)`` its power (rule ``card.power``), ``suit_cards(suit)`` the pack's cards of a suit,
  ``place_of(card)`` how many cards of the pack's suit beat it.

Decorators: ``@inline`` (the function's body is written into each caller by the back ends that inline),
``@distinct`` (pure: the array back end evaluates it once per distinct row of its arguments).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias, TypeVar

F = TypeVar("F", bound=Callable)

NONE = -1                                   # no card, suit, seat or team
K_REGULAR, K_NIL, K_BLIND_NIL, K_BLIND, K_PENDING = range(5)   # bid kinds: ``schema.BID_KINDS`` in order
NO_RULE = -1                                # no rule refuses (see ``bidding.BID_RULES``)

# the ways a hand cannot go on (``fail``'s codes), with the error each back end raises
BAD_WINNER, NO_BID, RENEGE_UNDEFINED, RENEGE_BOTH = range(4)
FAILURES = {
    BAD_WINNER: "rule trick.winner named a card that is not in the trick",
    NO_BID: "a seat has no legal bid",
    RENEGE_UNDEFINED: "this variant defines no renege penalty; an illegal play is simply not allowed",
    RENEGE_BOTH: "both partnerships reneged; the variant's forfeit rule covers one offending side",
}



# The two annotations the lowering reads by name (``form``); to a type checker they are the types they stand for.
Note: TypeAlias = str
"""The annotation of a parameter that only explanations use (a rule's name, that notes name)."""
Same: TypeAlias = int
"""The annotation of a parameter whose value is the same for every hand of an array (the trick's number, the
position in the trick, whether the seat leads): the array back end keeps an ``if`` on it as an ``if``."""


def rule(name: str) -> Any:
    """The value of rule ``name`` here (see the module's text): of the type its slot declares (a number, a
    truth value, a set of cards, a seat, a text), so ``Any`` to a type checker: the one hole it cannot see into."""
    raise NotImplementedError(name)


def reads(name: str, context_name: str) -> bool:
    """Whether rule ``name`` names ``context_name``."""
    raise NotImplementedError(name)


def permits_hand(name: str) -> bool:
    """Whether play constraint ``name`` is written as ``hand`` (every card held)."""
    raise NotImplementedError(name)


def suit_of(card: int) -> int:
    """The suit ``card`` counts in (rule ``card.suit``)."""
    raise NotImplementedError(card)


def note(kind: str, *values: object, **named: object) -> None:
    """An explanation event (kept by the explaining back end only)."""


def fail(code: int, value: int = 0) -> None:
    """Stop the hand with error ``code`` (``FAILURES``)."""
    raise NotImplementedError(code)


def zeros(n: int):
    """A new array of ``n`` zeros."""
    raise NotImplementedError(n)


def popcount(mask: int) -> int:
    """The number of cards in ``mask``."""
    raise NotImplementedError(mask)


def power_of(card: int) -> int:
    """The power of ``card`` within its suit (rule ``card.power``), from the ruleset's card table."""
    raise NotImplementedError(card)


def suit_cards(suit: int) -> int:
    """The pack's cards of ``suit`` (by rule ``card.suit``), from the ruleset's card table."""
    raise NotImplementedError(suit)


def place_of(card: int) -> int:
    """How many of the pack's cards of ``card``'s suit beat it (0: the top card), from the ruleset's card table."""
    raise NotImplementedError(card)


def choose_bid(seat: int, options, count: int, hand: int, kind, num, scores) -> int:
    """The players' choice among the ``count`` legal bids: the index of a true entry of ``options`` (``kind``,
    ``num``: the bids so far, ``K_PENDING`` where a seat has not bid; ``scores``: the game's, by team)."""
    raise NotImplementedError(seat)


def choose_raise(seat: int, options, count: int, hand: int) -> int:
    """The nil bidder's partner's choice of a raise: one of the ``count`` values in ``options``."""
    raise NotImplementedError(seat)


def choose_cards(seat: int, hand: int, count: int, kind) -> int:
    """``count`` cards of ``hand`` a seat passes (the blind-nil exchange), as a set."""
    raise NotImplementedError(seat)


def choose_discard(seat: int, hand: int, count: int) -> int:
    """``count`` cards of ``hand`` (the dealer's, the kitty taken) the dealer discards, as a set."""
    raise NotImplementedError(seat)


def choose_keep(seat: int, card: int, hand: int, turn: int) -> int:
    """The drawn deal (``deal.draw``): whether ``seat`` keeps ``card``, the stock's top card it has looked at
    (1; the next card is discarded), or discards it and keeps the next (0); ``hand``: the cards kept so far,
    ``turn``: the draws made before this one (every seat's)."""
    raise NotImplementedError(seat)


def choose_card(seat: int, allowed: int, trick, position: int, hand: int, number: int, kind, num, won,
                trick_cards: int, trick_led_suit: int, played: int) -> int:
    """The card a seat plays from its legal cards ``allowed`` (``trick``: the cards so far, ``position``
    of them, of trick ``number``; the bids, the tricks won so far by seat, the trick's cards and suit led,
    every card played so far)."""
    raise NotImplementedError(seat)


def inline(function: F) -> F:
    """Mark ``function`` to be written into its callers."""
    return function


def distinct(function: F) -> F:
    """Mark ``function`` as pure, evaluated once per distinct row of its arguments by the array back end."""
    return function
