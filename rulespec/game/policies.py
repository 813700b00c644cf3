"""Seeded players for bidding and card play.

A policy gets the legal options from the engine and picks one; it never
decides what is legal.  Every policy draws only from the generator it is
given, so the same seed gives the same choices in every run.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from ..core import cards as C
from ..core.contexts import ARGS
from .bids import Bid
from ..model.ruleset import Ruleset


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


class SensiblePolicy:
    """A simple sensible player, deterministic given its generator.

    Bids: one trick per ace or guarded king outside trumps, half a trick per
    guarded queen, the top trumps, trumps beyond three and ruffing chances;
    nil with a hand too weak and safe to take a trick; blind nil half the
    times the rules offer it while the team is 100 or more behind.  Play: tries to make the partnership's
    contract, ducks when nil or once the contract is made (avoiding bags) and
    never overtakes its partner.  It tracks bids and tricks itself, since one
    policy object plays all four seats of a hand.
    """
    name = "sensible"

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.bids: list[Bid | None] = [None] * 4
        self.won = [0, 0, 0, 0]
        self.current: list[tuple[int, int]] = []   # (seat, card) of the trick being played
        self.number = 1
        self.scores: tuple[int, ...] = (0, 0)   # running scores by team, when the caller tells them (observe_scores)

    def observe_scores(self, scores: tuple[int, int]) -> None:
        """The game's scores before this hand (the engine does not pass them to players)."""
        self.scores = tuple(scores)

    # -- bidding
    def estimate(self, rs: Ruleset, hand: int) -> tuple[float, bool]:
        """Expected tricks, and whether the hand is weak enough for nil."""
        trump = rs.params["trump.suit"]
        by_suit: dict[int, list[int]] = {}
        for card in C.iter_cards(hand):
            by_suit.setdefault(rs.suit_of[card], []).append(rs.power[card])
        tricks, safe = 0.0, True
        trumps = len(by_suit.get(trump, []))
        for suit, powers in by_suit.items():
            powers.sort(reverse=True)
            tops = self._places(rs, suit, powers)
            if suit == trump:
                tricks += sum(1 for i, r in enumerate(tops) if r <= i + 1) + max(0, len(powers) - 3)
                safe = safe and trumps <= 3 and all(r >= 6 for r in tops)
            else:
                tricks += self._side_tricks(tops, len(powers))
                tricks += 0.5 * self._side_half_tricks(tops, len(powers))
                safe = safe and self._side_safe(tops, len(powers))
        shorts = sum(1 for s in range(4) if s != trump and len(by_suit.get(s, [])) <= 1)
        tricks += min(shorts, max(0, trumps - 2))
        return tricks, safe and tricks < 1.5

    @staticmethod
    def _places(rs: Ruleset, suit: int, powers: list[int]) -> list[int]:
        """Each card's place in its suit of the pack (0 = the top card), for ``powers`` highest first."""
        ranks = sorted((rs.power[c] for c in C.iter_cards(rs.deck) if rs.suit_of[c] == suit), reverse=True)
        rank_of = {p: i for i, p in enumerate(ranks)}
        return [rank_of[p] for p in powers]

    @staticmethod
    def _side_tricks(tops: list[int], length: int) -> int:
        """Sure tricks of a side suit: the ace, and the king when guarded."""
        return sum(1 for i, r in enumerate(tops[:2]) if r <= i and length > i)

    @staticmethod
    def _side_half_tricks(tops: list[int], length: int) -> int:
        """Half tricks of a side suit: a guarded queen."""
        return sum(1 for r in tops[:3] if r == 2 and length >= 3)

    @staticmethod
    def _side_safe(tops: list[int], length: int) -> bool:
        """Whether a side suit takes no trick for a nil bidder."""
        return all(r >= 3 for r in tops) or length >= 4 and tops[0] >= 2

    def bid(self, rs: Ruleset, seat: int, legal: list[Bid], hand: int) -> Bid:
        kinds = {b.kind: b for b in legal}
        team = C.team_of(seat)
        behind = self.scores[1 - team] - self.scores[team]
        if "blind_nil" in kinds and behind >= 100 and self.rng.random() < 1 / 2:
            choice = kinds["blind_nil"]
        else:
            tricks, weak = self.estimate(rs, hand)
            want = int(round(tricks))
            regular = [b for b in legal if b.kind == "regular"]
            if weak and "nil" in kinds:
                choice = kinds["nil"]
            elif regular:
                choice = min(regular, key=lambda b: (abs(b.n - want), b.n))
            else:
                choice = legal[0]
        self.bids[seat] = choice
        return choice

    def raise_bid(self, rs: Ruleset, seat: int, legal: list[Bid], hand: int) -> Bid:
        self.bids[seat] = legal[0]
        return legal[0]

    def exchange(self, rs: Ruleset, seat: int, hand: int, count: int) -> list[int]:
        cards = sorted(C.iter_cards(hand), key=lambda c: rs.power[c])
        bid = self.bids[seat]
        nil = bid is not None and bid.is_nil
        return cards[-count:] if nil else cards[:count]

    # -- play
    def _winner(self, rs: Ruleset, cards: list[int]) -> int:
        return rs.fn["trick.winner"](*ARGS["trick"](trick_cards=C.mask_of(cards), trick_led_suit=rs.suit_of[cards[0]],
                                                    trick_number=self.number, trick_lead=cards[0]))

    def _wants_tricks(self, seat: int) -> bool:
        bid = self.bids[seat]
        if bid is None or bid.is_nil:
            return False
        partner = C.partner_of(seat)
        pbid = self.bids[partner]
        if pbid is None or not pbid.kind == bid.kind == "regular":    # a contract of its own
            return self.won[seat] < bid.n
        return self.won[seat] + self.won[partner] < bid.n + pbid.n

    def play(self, rs: Ruleset, seat: int, legal: int, trick: Sequence[int], hand: int) -> int:
        trump = rs.params["trump.suit"]
        cards = sorted(C.iter_cards(legal), key=lambda c: (rs.suit_of[c] == trump, rs.power[c], c))
        trick = list(trick)
        if not trick:
            card = cards[-1] if self._wants_tricks(seat) else cards[0]
        else:
            winners = [c for c in cards if self._winner(rs, trick + [c]) == c]
            losers = [c for c in cards if c not in winners]
            best = self._winner(rs, trick)
            holder = self.current[trick.index(best)][0] if best in trick else None
            wants = self._wants_tricks(seat)
            if wants and winners and holder != C.partner_of(seat):
                card = winners[0]
            elif losers:
                card = losers[0] if wants else losers[-1]   # keep high cards, or shed them safely
            else:
                card = cards[0]
        self._record(rs, seat, card)
        return card

    def _record(self, rs: Ruleset, seat: int, card: int) -> None:
        self.current.append((seat, card))
        if len(self.current) == 4:
            played = [c for _, c in self.current]
            best = self._winner(rs, played)
            if best in played:   # otherwise the engine reports the broken trick.winner rule
                self.won[self.current[played.index(best)][0]] += 1
            self.current = []
            self.number += 1


POLICIES = {"random": RandomPolicy, "sensible": SensiblePolicy}
