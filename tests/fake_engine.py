"""Tiny Spades engines for the conformance tests, written apart from the rulespec engine.

``Sound`` plays the 001 rules (``standard``); ``faulty`` is the same engine with
one known fault: it never marks spades broken, so a player holding another suit may
never lead a spade.  ``CheapNil`` (nil worth 50) and ``AceLow`` (aces low in a trick)
have one fault each in the score and in the trick winner.  ``Alone`` plays the tables
without partners (two-player with its draw, cutthroat, solo); ``Widdershins``,
``CheapOvertricks`` and ``DealerDraws`` have one fault each there.  All speak the engine
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


def _legal(hand, led: int | None, broken: bool) -> int:
    """The cards of ``hand`` a seat may play: following ``led`` if it can (None: leading), no spade led before
    spades are broken unless it holds nothing else."""
    if led is not None:
        return _mask([c for c in hand if _suit(c) == led] or hand)
    if not broken:
        return _mask([c for c in hand if _suit(c) != SPADES] or hand)
    return _mask(hand)


class FakeHand:
    """A hand of partnerships, each seat with the one opposite: four seats (001), or six in three pairs."""

    def __init__(self, deal, breaks: bool):
        self.hands = [set(C.iter_cards(h)) for h in deal.hands]
        self.seats = len(self.hands)
        self.half, self.size = self.seats // 2, len(self.hands[0])
        self.turn = (deal.dealer + 1) % self.seats
        self.bids: list[Bid | None] = [None] * self.seats
        self.trick: list[tuple[int, int]] = []
        self.broken, self.breaks = False, breaks
        self.taken = [0] * self.seats
        self.scores, self.bags = deal.before
        self.last = None

    def to_act(self) -> int:
        return self.turn

    def legal_bids(self) -> list[Bid]:
        partner = self.bids[(self.turn + self.half) % self.seats]
        top = self.size - (partner.n if partner is not None else 0)
        return [Bid("regular", n) for n in range(1, top + 1)] + [Bid("nil")]

    def bid(self, bid: Bid) -> None:
        self.bids[self.turn] = bid
        self.turn = (self.turn + 1) % self.seats

    def legal_cards(self) -> int:
        return _legal(self.hands[self.turn], _suit(self.trick[0][1]) if self.trick else None, self.broken)

    def play(self, card: int) -> None:
        self.hands[self.turn].discard(card)
        self.trick.append((self.turn, card))
        if _suit(card) == SPADES and self.breaks:
            self.broken = True
        if len(self.trick) < self.seats:
            self.turn = (self.turn + 1) % self.seats
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
        seats = (team, team + self.half)
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
        sides = [self._team(team) for team in range(self.half)]
        totals = [self.scores[team] + points for team, (points, _) in enumerate(sides)]
        top = max(totals)
        over = top >= 500 and totals.count(top) == 1
        winner = C.Table(self.seats, True).side_names[totals.index(top)] if over else None
        return HandResult(tuple(p for p, _ in sides), tuple(b for _, b in sides), over, winner)

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


class SixPartners(Sound):
    """The 001 rules at four seats, and at six in three partnerships (six-handed: partners opposite)."""
    name = "fake-six-partners"
    tables = frozenset({(4, True), (6, True)})


class SixAcrossHand(FakeHand):
    def _team(self, team: int) -> tuple[int, int]:
        """A side scored as if its seats were two apart, as at four (a fault at six seats)."""
        half, self.half = self.half, 2
        try:
            return super()._team(team)
        finally:
            self.half = half


class SixAcross(SixPartners):
    """As ``SixPartners``, but each side's score counts the bids and tricks of the seat two on from its first."""
    name = "fake-six-across"

    def new_hand(self, deal) -> FakeHand:
        return SixAcrossHand(deal, self.breaks)


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



class AloneHand:
    """A hand with each player alone, at as many seats as the deal has hands (005 §Two-player, §Cut-throat,
    §Solo as the bundled variants read them): a player bids nil or 1 up to the hand's size, follows suit,
    leads a spade once spades are broken (or it holds nothing else), and scores as 001 scores a partnership
    (``FakeHand._team``) for itself; the first to 500 alone at the top wins.  At two seats the hands are drawn
    from the stock (``draw``), the dealer's opponent first.  ``widdershins`` reckons the seat of a trick's
    winning card counterclockwise from the leader (a fault: the trick goes to another seat at three seats);
    ``cheap_overtricks`` scores overtricks (bags) no points; ``dealer_draws`` has the dealer draw first (faults)."""

    def __init__(self, deal, widdershins: bool = False, cheap_overtricks: bool = False, dealer_draws: bool = False):
        self.seats = len(deal.hands)
        self.dealer, self.turn = deal.dealer, (deal.dealer + 1) % self.seats
        self.drawing = self.seats == 2
        if self.drawing and dealer_draws:
            self.turn = self.dealer
        self.stock, self.drawn = list(deal.stock or ()), 0
        self.hands = [set() if self.drawing else set(C.iter_cards(h)) for h in deal.hands]
        self.size = 26 // self.seats if self.drawing else len(self.hands[0])
        self.bids: list[Bid | None] = [None] * self.seats
        self.trick: list[int] = []
        self.leader, self.broken = self.turn, False
        self.taken = [0] * self.seats
        self.scores, self.bags = deal.before
        self.widdershins, self.cheap = widdershins, cheap_overtricks
        self.last = None

    def to_act(self) -> int:
        return self.turn

    def draw(self, keep: bool) -> None:
        top, next_card = self.stock[2 * self.drawn], self.stock[2 * self.drawn + 1]
        self.hands[self.turn].add(top if keep else next_card)
        self.drawn += 1
        self.turn = (self.turn + 1) % self.seats
        self.drawing = self.drawn < self.seats * 13

    def legal_bids(self) -> list[Bid]:
        return [Bid("regular", n) for n in range(1, self.size + 1)] + [Bid("nil")]

    def bid(self, bid: Bid) -> None:
        self.bids[self.turn] = bid
        self.turn = (self.turn + 1) % self.seats

    def legal_cards(self) -> int:
        return _legal(self.hands[self.turn], _suit(self.trick[0]) if self.trick else None, self.broken)

    def play(self, card: int) -> None:
        self.hands[self.turn].discard(card)
        if not self.trick:
            self.leader = self.turn
        self.trick.append(card)
        self.broken = self.broken or _suit(card) == SPADES
        if len(self.trick) < self.seats:
            self.turn = (self.turn + 1) % self.seats
            return
        led = _suit(self.trick[0])
        best = max(range(self.seats), key=lambda k: (_suit(self.trick[k]) == SPADES,
                                                      _suit(self.trick[k]) == led, C.natural_rank(self.trick[k])))
        self.last = (self.leader + (-best if self.widdershins else best)) % self.seats
        self.taken[self.last] += 1
        self.turn, self.trick = self.last, []

    def trick_winner(self) -> int:
        return self.last

    def _player(self, seat: int) -> tuple[int, int]:
        bid, won, bags = self.bids[seat], self.taken[seat], self.bags[seat]
        contract = 0 if bid.is_nil else bid.n
        if contract and won >= contract:
            points, bags = 10 * contract + (0 if self.cheap else won - contract), bags + won - contract
        elif contract:
            points = -10 * contract
        else:      # a nil bidder: every trick it takes is beyond a contract of 0, and the nil is made or set
            points, bags = won + (100 if won == 0 else -100), bags + won
        while bags >= 10:
            points, bags = points - 100, bags - 10
        return points, bags

    def result(self) -> HandResult:
        mine = [self._player(s) for s in range(self.seats)]
        totals = [self.scores[s] + mine[s][0] for s in range(self.seats)]
        top = max(totals)
        over = top >= 500 and totals.count(top) == 1
        return HandResult(tuple(p for p, _ in mine), tuple(b for _, b in mine), over,
                          C.SEATS[totals.index(top)] if over else None)

    def chosen(self) -> None:
        return None


class Alone(Sound):
    """Each player alone at two to five seats (two-player, cutthroat, solo, five-handed: the jokers, where the pack
    has them, the top spades)."""
    name = "fake-alone"
    tables = frozenset({(2, False), (3, False), (4, False), (5, False)})
    widdershins = cheap_overtricks = dealer_draws = False

    def new_hand(self, deal) -> AloneHand:
        return AloneHand(deal, self.widdershins, self.cheap_overtricks, self.dealer_draws)


class Widdershins(Alone):
    """As ``Alone``, but the trick goes to the seat counted counterclockwise from the leader by the winning card's
    place (another seat than its player's at three seats)."""
    name = "fake-widdershins"
    widdershins = True


class CheapOvertricks(Alone):
    """As ``Alone``, but a player's overtricks (its bags) score no points."""
    name = "fake-cheap-overtricks"
    cheap_overtricks = True


class DealerDraws(Alone):
    """As ``Alone``, but at two seats the dealer draws first."""
    name = "fake-dealer-draws"
    dealer_draws = True
