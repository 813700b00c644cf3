"""Two tiny Spades engines for the conformance tests, written apart from the rulespec engine.

``Sound`` plays the 001 rules (``standard``); ``faulty`` is the same engine with
one known fault: it never marks spades broken, so a player holding another suit may
never lead a spade.  ``CheapNil`` (nil worth 50) and ``AceLow`` (aces low in a trick)
have one fault each in the score and in the trick winner.  All speak the engine
protocol of ``rulespec.tools.conform``.
"""
from __future__ import annotations

from rulespec.core import cards as C
from rulespec.game import Bid
from rulespec.tools.conform.protocol import HandResult

SPADES = 3


def _suit(card: int) -> int:
    return SPADES if card >= 52 else card // 13     # (the jokers, where a pack has them: spades)


def _mask(cards) -> int:
    return sum(1 << c for c in cards)


class FakeHand:
    def __init__(self, deal, breaks: bool):
        self.hands = [set(C.iter_cards(h)) for h in deal.hands]
        self.turn = (deal.dealer + 1) % 4
        self.bids: list[Bid | None] = [None] * 4
        self.trick: list[tuple[int, int]] = []
        self.broken, self.breaks = False, breaks
        self.taken = [0, 0, 0, 0]
        self.scores, self.bags = deal.before
        self.last = None

    def to_act(self) -> int:
        return self.turn

    def legal_bids(self) -> list[Bid]:
        partner = self.bids[(self.turn + 2) % 4]
        top = 13 - (partner.n if partner is not None else 0)
        return [Bid("regular", n) for n in range(1, top + 1)] + [Bid("nil")]

    def bid(self, bid: Bid) -> None:
        self.bids[self.turn] = bid
        self.turn = (self.turn + 1) % 4

    def legal_cards(self) -> int:
        hand = self.hands[self.turn]
        if self.trick:
            led = _suit(self.trick[0][1])
            return _mask([c for c in hand if _suit(c) == led] or hand)
        if not self.broken:
            return _mask([c for c in hand if _suit(c) != SPADES] or hand)
        return _mask(hand)

    def play(self, card: int) -> None:
        self.hands[self.turn].discard(card)
        self.trick.append((self.turn, card))
        if _suit(card) == SPADES and self.breaks:
            self.broken = True
        if len(self.trick) < 4:
            self.turn = (self.turn + 1) % 4
            return
        self.last = self._winner(self.trick)
        self.taken[self.last] += 1
        self.turn, self.trick = self.last, []

    def _rank(self, card: int) -> int:
        return card % 13

    def _winner(self, trick: list[tuple[int, int]]) -> int:
        led = _suit(trick[0][1])
        trumps = [(self._rank(c), s) for s, c in trick if _suit(c) == SPADES]
        return max(trumps or [(self._rank(c), s) for s, c in trick if _suit(c) == led])[1]

    def trick_winner(self) -> int:
        return self.last

    def _team(self, team: int) -> tuple[int, int]:
        seats = (team, team + 2)
        contract = sum(self.bids[s].n for s in seats if not self.bids[s].is_nil)
        won = sum(self.taken[s] for s in seats)
        points, bags = 0, self.bags[team]
        if contract and won >= contract:
            points, bags = 10 * contract + won - contract, bags + won - contract
        elif contract:
            points = -10 * contract
        else:      # both partners bid nil: every trick is beyond a contract of 0 (001 §Nil bids)
            points, bags = won, bags + won
        points += sum(100 if self.taken[s] == 0 else -100 for s in seats if self.bids[s].is_nil)
        while bags >= 10:
            points, bags = points - 100, bags - 10
        return points, bags

    def result(self) -> HandResult:
        ns, ew = self._team(0), self._team(1)
        totals = (self.scores[0] + ns[0], self.scores[1] + ew[0])
        over = max(totals) >= 500 and totals[0] != totals[1]
        winner = C.TEAMS[0 if totals[0] > totals[1] else 1] if over else None
        return HandResult((ns[0], ew[0]), (ns[1], ew[1]), over, winner)

    def chosen(self) -> None:
        return None


class Sound:
    """The 001 rules."""
    name = "fake-sound"
    breaks = True

    def fixed_deals(self) -> None:
        return None

    def new_hand(self, deal) -> FakeHand:
        return FakeHand(deal, self.breaks)


class Faulty(Sound):
    """The 001 rules, except that spades are never broken."""
    name = "fake-faulty"
    breaks = False


def faulty() -> Faulty:
    return Faulty()


class CheapNilHand(FakeHand):
    def _team(self, team: int) -> tuple[int, int]:
        points, bags = super()._team(team)
        return points - sum(50 if self.taken[s] == 0 else -50 for s in (team, team + 2) if self.bids[s].is_nil), bags


class CheapNil(Sound):
    """The 001 rules, except that nil is worth 50 (made) or -50 (failed)."""
    name = "fake-cheap-nil"

    def new_hand(self, deal) -> FakeHand:
        return CheapNilHand(deal, self.breaks)


class AceLowHand(FakeHand):
    def _rank(self, card: int) -> int:
        return -1 if card % 13 == 12 else card % 13


class AceLow(Sound):
    """The 001 rules, except that an ace ranks below the deuce when a trick is settled."""
    name = "fake-ace-low"

    def new_hand(self, deal) -> FakeHand:
        return AceLowHand(deal, self.breaks)


class RaisingHand(FakeHand):
    """Has the two optional steps: a nil bidder's partner may raise its number (to at most 13 tricks less
    what the partnership's other bids hold, as ``legal_bids``) and a blind nil bidder exchanges ``passes``
    cards with its partner; blind nil may be bid, scored at 200.  ``skips_top`` leaves the highest raise
    out of the options (a fault)."""

    def __init__(self, deal, breaks: bool, passes: int, skips_top: bool):
        super().__init__(deal, breaks)
        self.passes, self.skips_top = passes, skips_top

    def legal_bids(self) -> list[Bid]:
        return super().legal_bids() + ([Bid("blind_nil")] if self.passes else [])

    def raise_options(self, seat: int) -> list[Bid]:
        present = self.bids[seat]
        top = 13 if not self.skips_top else 12
        return [Bid("regular", n) for n in range(present.n, top + 1)]

    def raise_bid(self, seat: int, bid: Bid) -> None:
        self.bids[seat] = bid

    def exchanges(self) -> list[tuple[int, int]]:
        return [(s, self.passes) for s in range(4) if self.bids[s].kind == "blind_nil" and self.passes]

    def exchange(self, seat: int, give: list[int], back: list[int]) -> None:
        partner = (seat + 2) % 4
        self.hands[seat] = (self.hands[seat] - set(give)) | set(back)
        self.hands[partner] = (self.hands[partner] - set(back)) | set(give)

    def _team(self, team: int) -> tuple[int, int]:
        points, bags = super()._team(team)
        return points + sum(100 if self.taken[s] == 0 else -100 for s in (team, team + 2)
                            if self.bids[s].kind == "blind_nil"), bags


class Raising(Sound):
    """001's rules with a raise after a partner's nil and a two-card exchange for a blind nil."""
    name = "fake-raising"
    passes, skips_top = 2, False

    def new_hand(self, deal) -> FakeHand:
        return RaisingHand(deal, self.breaks, self.passes, self.skips_top)


class RaisingShort(Raising):
    """As ``Raising``, but never offers the raise to 13 (a fault)."""
    name = "fake-raising-short"
    skips_top = True


class OneCardExchange(Raising):
    """As ``Raising``, but a blind nil exchanges one card (a fault against a two-card book)."""
    name = "fake-one-card"
    passes = 1


class NilPassingHand(FakeHand):
    """Has the exchange step for the nil pass: a nil bidder whose partner bid a number passes two cards."""

    def exchanges(self) -> list[tuple[int, int]]:
        return [(s, 2) for s in range(4) if self.bids[s].kind == "nil" and self.bids[(s + 2) % 4].kind == "regular"]

    def exchange(self, seat: int, give: list[int], back: list[int]) -> None:
        partner = (seat + 2) % 4
        self.hands[seat] = (self.hands[seat] - set(give)) | set(back)
        self.hands[partner] = (self.hands[partner] - set(back)) | set(give)


class NilPassing(Sound):
    """001's rules with a two-card pass between a nil bidder and a partner who bid a number (005 §Nil pass)."""
    name = "fake-nil-passing"

    def new_hand(self, deal) -> FakeHand:
        return NilPassingHand(deal, self.breaks)


class KittyHand(FakeHand):
    """Has the discard step: the dealer takes the kitty and discards; the jokers are the top spades, the big one
    (53) highest (005 §Kitty, as the kitty variant reads it)."""

    def __init__(self, deal, breaks: bool):
        super().__init__(deal, breaks)
        self.dealer = deal.dealer

    def take_kitty(self, kitty: int, discard: list[int]) -> None:
        self.hands[self.dealer] = (self.hands[self.dealer] | set(C.iter_cards(kitty))) - set(discard)

    def _rank(self, card: int) -> int:
        return {52: 13, 53: 14}.get(card, card % 13)


class Kitty(Sound):
    """001's rules with the 54-card pack and a kitty of two for the dealer (005 §Kitty)."""
    name = "fake-kitty"

    def new_hand(self, deal) -> FakeHand:
        return KittyHand(deal, self.breaks)

