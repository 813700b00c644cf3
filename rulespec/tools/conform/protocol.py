"""The engine adapter protocol: how ``rulespec conform`` drives another Spades engine.

An engine is compared with a variant in lockstep, decision by decision.  It is
either driven in process (``Engine.new_hand`` gives an ``EngineHand``) or read
from a recorded JSON Lines file (``recorded.RecordedEngine``, which implements the
same protocol by replaying the file); ``engines.load_engine`` finds one by name.  Seats are 0 .. seats - 1
clockwise (N E S W; three seats N E S, two N E), sides the partnerships NS and EW or, where each plays alone,
the players by seat (``core.cards.Table``); cards are the project's card ids (``rulespec.core.cards``), bids
``rulespec.game.Bid``.  Steps only some rule books have are optional methods (``OptionalSteps``): an engine that
defines them is compared on them too.  See ``docs/conformance.md``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ...game import Bid
from ..diff.deals import Deal


@dataclass(frozen=True)
class HandResult:
    """What the engine says of a finished hand, by side (NS, EW; alone, by seat); None where it does not say."""
    points: tuple[int, ...]
    bags: tuple[int, ...] | None = None          # bags held after the hand
    game_over: bool | None = None
    winner: str | None = None                    # the side's name ("NS", "EW"; alone "N", "E", …) or None


class EngineHand(Protocol):
    """One hand in the engine, from the deal to the score."""

    def to_act(self) -> int:
        """The seat to bid or to play next."""

    def legal_bids(self) -> list[Bid] | None:
        """The bids the seat to act may make (None: the engine does not say)."""

    def bid(self, bid: Bid) -> None:
        """The seat to act bids ``bid``."""

    def legal_cards(self) -> int:
        """The cards (a mask of card ids) the seat to act may play."""

    def play(self, card: int) -> None:
        """The seat to act plays ``card``."""

    def trick_winner(self) -> int | None:
        """The seat that won the trick just completed (called after its last card; None: not said)."""

    def result(self) -> HandResult | None:
        """The hand's score, after the last trick (None: not said)."""

    def chosen(self) -> Bid | int | None:
        """The engine's own choice for the next decision (a recorded hand), or None to let the runner choose."""


class OptionalSteps(Protocol):
    """Steps an ``EngineHand`` may also define; an engine without them is not compared on them (the book
    then makes no raise, and blind nil is not chosen where the book exchanges cards)."""

    def raise_options(self, seat: int) -> list[Bid]:
        """Asked after a nil bid whose partner ``seat`` has already bid a number: the bids ``seat`` may now
        raise to, its present bid included ([]: the engine has no raise here)."""

    def raise_bid(self, seat: int, bid: Bid) -> None:
        """``seat`` raises to ``bid`` (one of both sides' options; its present bid means no raise)."""

    def exchanges(self) -> list[tuple[int, int]]:
        """Asked once the bids are over: each seat that passes cards to its partner for a blind nil, in
        seat order, then each nil bidder that passes to a partner who bid a number (``nil.exchange``), with
        the number of cards ([]: no exchange in this hand)."""

    def exchange(self, seat: int, give: list[int], back: list[int]) -> None:
        """``seat`` passes ``give`` to its partner and receives ``back``."""

    def draw(self, keep: bool) -> None:
        """Where the book draws the hands from the stock (``deal.draw``; the stock is ``Deal.stock``, top card
        first): the seat to act looks at the top card and keeps it (``keep``; the next card is discarded) or
        discards it and keeps the next.  An engine without this step cannot play such a variant."""

    def take_kitty(self, kitty: int, discard: list[int]) -> None:
        """Before the bids, where the book deals a kitty (``deal.kitty``): the dealer takes the cards ``kitty``
        (a mask: the pack's cards the deal left over) and discards ``discard``.  An engine without this step
        cannot play such a variant (``rulespec conform`` stops, saying so)."""


class Engine(Protocol):
    """A Spades engine: ``new_hand`` starts a hand from a deal (hands, dealer, scores before).  An engine may say
    which tables it plays with ``tables``, a set of (seats, partners) pairs (``engine_tables``: four seats in
    partnerships where it says nothing); ``rulespec conform`` refuses a variant of another table."""

    name: str

    def new_hand(self, deal: Deal) -> EngineHand:
        """A new hand of ``deal``: a hand per seat (or, drawn, the stock), its dealer and the scores and bags
        before it by side."""

    def fixed_deals(self) -> list[Deal] | None:
        """The deals the engine can play (a recorded file's), or None for any deal."""


FOUR_PARTNERS = frozenset({(4, True)})


def engine_tables(engine: object) -> frozenset[tuple[int, bool]]:
    """The tables ``engine`` plays: its ``tables`` attribute, else four seats in two partnerships."""
    return frozenset(getattr(engine, "tables", FOUR_PARTNERS))
