"""Seeded players for bidding and card play.

A policy gets the legal options from the engine and picks one; it never
decides what is legal.  Every policy draws only from the generator it is
given, so the same seed gives the same choices in every run.  ``random``
chooses uniformly; ``sensible`` is the lowered form's player
(``procedure.players``, the same on every engine); ``Seats`` seats a
player per seat (a duplicate match).  The sampled player, built on the
double-dummy solver, is ``solve.sampled``.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..core import cards as C
from ..core.schema import BID_KINDS
from ..model.ruleset import Ruleset, per_ruleset
from ..procedure import lang
from ..procedure.python import steps
from .bids import Bid
from .steps import KIND_CODE, failure, steps_of


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
        """The k-th legal card, lowest id first, for a uniform k (one C call instead of randrange)."""
        k = int(self.rng.random() * legal.bit_count())
        while k:
            legal &= legal - 1   # drop the lowest card
            k -= 1
        return (legal & -legal).bit_length() - 1

    def exchange(self, rs: Ruleset, seat: int, hand: int, count: int) -> list[int]:
        return self.rng.sample(list(C.iter_cards(hand)), count)

    def discard(self, rs: Ruleset, seat: int, hand: int, count: int) -> list[int]:
        """The dealer's discard from its hand and the kitty (``deal.kitty``): ``count`` cards at random."""
        return self.rng.sample(list(C.iter_cards(hand)), count)

    def keep(self, rs: Ruleset, seat: int, card: int, hand: int, turn: int) -> int:
        """The drawn deal (``deal.draw``): keep the top card (1) or take the next (0), at even odds."""
        return int(self.rng.random() * 2)


class Table:
    """What every seat at the table knows of the hand so far: the bids (as codes), the tricks won by seat, the
    trick being played, the cards played in order, the suits each seat has shown it is out of (it did not
    follow them), and the game's scores before the hand."""

    def __init__(self) -> None:
        self.kind = [lang.K_PENDING] * C.MAX_SEATS      # (by seat: room for every table)
        self.num = [0] * C.MAX_SEATS
        self.won = [0] * C.MAX_SEATS
        self.trick: list[int] = []
        self.number = 1
        self.played = 0
        self.history: list[tuple[int, int]] = []     # (seat, card) in the order played
        self.voids = [0] * C.MAX_SEATS               # by seat: a bit per suit shown void
        self.scores: tuple[int, ...] = (0,) * C.MAX_SEATS   # running scores by side, when told (observe_scores)

    def bid(self, seat: int, bid: Bid) -> None:
        self.kind[seat], self.num[seat] = KIND_CODE[bid.kind], bid.n

    def card(self, rs: Ruleset, seat: int, card: int) -> None:
        """``seat`` played ``card``: a suit not followed is a void; a fourth card settles the trick."""
        if self.trick and rs.suit_of[card] != rs.suit_of[self.trick[0]] and rs.suit_of[self.trick[0]] >= 0:
            self.voids[seat] |= 1 << rs.suit_of[self.trick[0]]
        self.trick.append(card)
        self.history.append((seat, card))
        self.played |= 1 << card
        count = rs.params["table.seats"]
        if len(self.trick) == count:
            seats = [s for s, _ in self.history[-count:]]
            winner = steps_of(rs).trick_winner(self.trick, seats, C.mask_of(self.trick), rs.suit_of[self.trick[0]],
                                               self.number)
            self.won[winner] += 1
            self.trick = []
            self.number += 1


class _Watching:
    """A player that keeps a ``Table`` of what it has seen: the classic calls (``bid``, ``raise_bid``,
    ``play``) are its choice (``choose_*``) and then seeing it (``seen_*``); ``Seats`` calls the two apart,
    so that every player at a mixed table sees every seat's bids and cards."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.table = Table()

    def observe_scores(self, scores: tuple[int, int]) -> None:
        """The game's scores before this hand (the engine does not pass them to players)."""
        self.table.scores = (*scores, *(0,) * C.MAX_SEATS)[:C.MAX_SEATS]

    def seen_bid(self, rs: Ruleset, seat: int, bid: Bid) -> None:
        self.table.bid(seat, bid)

    def seen_card(self, rs: Ruleset, seat: int, card: int) -> None:
        self.table.card(rs, seat, card)

    def bid(self, rs: Ruleset, seat: int, legal: list[Bid], hand: int) -> Bid:
        choice = self.choose_bid(rs, seat, legal, hand)
        self.seen_bid(rs, seat, choice)
        return choice

    def raise_bid(self, rs: Ruleset, seat: int, legal: list[Bid], hand: int) -> Bid:
        choice = self.choose_raise(rs, seat, legal, hand)
        self.seen_bid(rs, seat, choice)
        return choice

    def play(self, rs: Ruleset, seat: int, legal: int, trick: Sequence[int], hand: int) -> int:
        card = self.choose_card(rs, seat, legal, trick, hand)
        self.seen_card(rs, seat, card)
        return card

    def choose_bid(self, rs: Ruleset, seat: int, legal: list[Bid], hand: int) -> Bid:
        raise NotImplementedError

    def choose_raise(self, rs: Ruleset, seat: int, legal: list[Bid], hand: int) -> Bid:
        raise NotImplementedError

    def choose_card(self, rs: Ruleset, seat: int, legal: int, trick: Sequence[int], hand: int) -> int:
        raise NotImplementedError


class _Lowered:
    """The sensible player of the lowered form (``procedure.players``) as Python, for one ruleset, and the
    candidate bids its choices index."""

    def __init__(self, rs: Ruleset):
        fns = steps(rs, SENSIBLE, failure(rs), explain=False)
        self.bid, self.raise_, self.cards, self.discard, self.keep, self.card = (fns[name] for name in SENSIBLE[:6])
        size = rs.params["deal.hand_size"]
        self.candidates = [Bid(BID_KINDS[k], n) for k, n in map(fns["bid_candidate"], range(2 * size + 3))]
        self.index = {bid: i for i, bid in enumerate(self.candidates)}


SENSIBLE = ("sensible_bid", "sensible_raise", "sensible_cards", "sensible_discard", "sensible_keep", "sensible_card",
            "bid_candidate")
lowered: Callable[[Ruleset], _Lowered] = per_ruleset(_Lowered)


class SensiblePolicy(_Watching):
    """The sensible player (``procedure.players``: its rules are written there, once, for every back end),
    deterministic: the same deal and scores give the same bids and cards.  It keeps its own ``Table``, since
    one policy object plays all four seats of a hand."""
    name = "sensible"

    def choose_bid(self, rs: Ruleset, seat: int, legal: list[Bid], hand: int) -> Bid:
        fns, t = lowered(rs), self.table
        options = [0] * len(fns.candidates)
        for bid in legal:
            options[fns.index[bid]] = 1
        return fns.candidates[fns.bid(seat, options, len(legal), hand, t.kind, t.num, list(t.scores))]

    def choose_raise(self, rs: Ruleset, seat: int, legal: list[Bid], hand: int) -> Bid:
        by_n = {bid.n: bid for bid in legal}
        options = [1 if n in by_n else 0 for n in range(rs.params["deal.hand_size"] + 1)]
        return by_n[lowered(rs).raise_(seat, options, len(legal), hand)]

    def exchange(self, rs: Ruleset, seat: int, hand: int, count: int) -> list[int]:
        return C.card_list(lowered(rs).cards(seat, hand, count, self.table.kind))

    def discard(self, rs: Ruleset, seat: int, hand: int, count: int) -> list[int]:
        return C.card_list(lowered(rs).discard(seat, hand, count))

    def keep(self, rs: Ruleset, seat: int, card: int, hand: int, turn: int) -> int:
        return lowered(rs).keep(seat, card, hand, turn)

    def choose_card(self, rs: Ruleset, seat: int, legal: int, trick: Sequence[int], hand: int) -> int:
        t = self.table
        cards = [*trick, *(0,) * C.MAX_SEATS][:C.MAX_SEATS]
        led = rs.suit_of[trick[0]] if trick else lang.NONE
        return lowered(rs).card(seat, legal, cards, len(trick), hand, t.number, t.kind, t.num, t.won,
                                C.mask_of(trick), led, t.played)


class Seats:
    """A table of players, one per seat (``players[seat]``): each decision is its seat's player's, and every
    player sees every bid and card (duplicate matches seat two players against each other)."""

    def __init__(self, players: Sequence):
        self.players = list(players)
        self.rng = self.players[0].rng
        self.name = "/".join(p.name for p in self.players)
        self._unique = list({id(p): p for p in self.players}.values())

    def observe_scores(self, scores: tuple[int, int]) -> None:
        for p in self._unique:
            if hasattr(p, "observe_scores"):
                p.observe_scores(scores)

    def _seen(self, what: str, rs: Ruleset, seat: int, value) -> None:
        for p in self._unique:
            if hasattr(p, what):
                getattr(p, what)(rs, seat, value)

    def bid(self, rs: Ruleset, seat: int, legal: list[Bid], hand: int) -> Bid:
        p = self.players[seat]
        choice = p.choose_bid(rs, seat, legal, hand) if hasattr(p, "choose_bid") else p.bid(rs, seat, legal, hand)
        self._seen("seen_bid", rs, seat, choice)
        return choice

    def raise_bid(self, rs: Ruleset, seat: int, legal: list[Bid], hand: int) -> Bid:
        p = self.players[seat]
        choice = (p.choose_raise(rs, seat, legal, hand) if hasattr(p, "choose_raise")
                  else p.raise_bid(rs, seat, legal, hand))
        self._seen("seen_bid", rs, seat, choice)
        return choice

    def exchange(self, rs: Ruleset, seat: int, hand: int, count: int) -> list[int]:
        return self.players[seat].exchange(rs, seat, hand, count)

    def discard(self, rs: Ruleset, seat: int, hand: int, count: int) -> list[int]:
        return discard_of(self.players[seat], rs, seat, hand, count)

    def keep(self, rs: Ruleset, seat: int, card: int, hand: int, turn: int) -> int:
        return keep_of(self.players[seat], rs, seat, card, hand, turn)

    def play(self, rs: Ruleset, seat: int, legal: int, trick: Sequence[int], hand: int) -> int:
        p = self.players[seat]
        card = p.choose_card(rs, seat, legal, trick, hand) if hasattr(p, "choose_card") else p.play(rs, seat, legal,
                                                                                                      trick, hand)
        self._seen("seen_card", rs, seat, card)
        return card


def discard_of(player, rs: Ruleset, seat: int, hand: int, count: int) -> list[int]:
    """The dealer's discard by ``player``: its ``discard`` (a player without one discards as it would pass
    cards, ``exchange``)."""
    chooser = getattr(player, "discard", None) or player.exchange
    return chooser(rs, seat, hand, count)


def keep_of(player, rs: Ruleset, seat: int, card: int, hand: int, turn: int) -> int:
    """The drawn deal's choice (``deal.draw``) by ``player``: its ``keep`` (a player without one keeps every top
    card)."""
    chooser = getattr(player, "keep", None)
    return chooser(rs, seat, card, hand, turn) if chooser else 1


POLICIES = {"random": RandomPolicy, "sensible": SensiblePolicy}
