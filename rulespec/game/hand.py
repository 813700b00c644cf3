"""One hand in progress: the single scalar hand procedure every path drives.

``HandState`` has a method per step: the dealer's kitty (``take_kitty``), the bids (``bid``, with the nil bidder's
partner's ``raise_bid``), the ``exchange`` (blind nil, nil pass), the card play (``legal``,
``play``, ``finish_trick``) and the ``score``.  The engine drives it with a
policy, the answers layer with a recorded play, the differential tester with a
transcript, the verifier's search with every choice.  Explanations are options
of a step (``legal_cards(explain=True)``, ``score(explain=True)``), never copies
of it.  The card-play steps are generated per ruleset from the templates in
``procedure`` (the same text ``fused`` inlines into its whole-hand loop).
"""
from __future__ import annotations

from collections.abc import Sequence

from ..core import cards as C
from ..errors import GameError
from ..lang.compiler import NONE
from ..model.ruleset import Ruleset, per_ruleset
from ..procedure.lang import K_PENDING
from .bids import (BLIND_NIL, REGULAR, REGULAR_BIDS, Bid, bid_refusals, exchange_count, legal_bids, seat_rule,
                   team_basics)
from .play import Legal, by_seat, irregularity, legal_cards
from .scoring import TeamResult, score_hand
from .steps import KIND_CODE, steps_of


class HandState:
    """A hand being bid, played and scored under ``rs``.

    Bidding runs from ``rs``'s first bidder round the table (``bidder``); the card
    play starts with ``rs``'s first leader.  Steps do not judge legality: callers
    ask ``legal_bids``/``bid_refusals`` and ``legal``/``legal_cards`` first, and do
    what their document says with an irregular bid or card.
    """

    __slots__ = ("rs", "dealer", "dealt", "hands", "scores", "bags", "bids", "order", "exchanges", "kitty", "size",
                 "leader", "number", "trick", "trick_mask", "led", "broken", "played", "won", "plays",
                 "winners", "last", "_steps", "table")

    def __init__(self, rs: Ruleset, hands: Sequence[int], dealer: int, scores: Sequence[int] = (0, 0),
                 bags: Sequence[int] = (0, 0)):
        self.rs, self.dealer = rs, dealer
        self.table = table = C.table_of(rs.params)
        self.dealt = tuple(hands)
        self.hands = list(hands)
        self.scores, self.bags = table.padded(scores), table.padded(bags)
        self.bids: list[Bid | None] = [None] * table.seats
        first = seat_rule(rs, "deal.first_bidder", dealer)
        self.order = [table.left(first, k) for k in range(table.seats)]    # bidding order; emptied as seats bid
        self.exchanges: list[dict] = []
        self.kitty: dict | None = None      # once the dealer has taken it: {dealer, cards, discarded}
        self.size: int = rs.params["deal.hand_size"]
        self.leader: int = seat_rule(rs, "play.first_leader", dealer)
        self.number = 1
        self.trick: list[int] = []
        self.trick_mask, self.led, self.broken, self.played = 0, NONE, False, 0
        self.won = [0] * table.seats
        self.plays: list[tuple[int, int]] = []
        self.winners: list[int] = []
        self.last: tuple[int, list[int]] | None = None
        self._steps = steps_of(rs)

    # ----------------------------------------------------------------------- the kitty
    def kitty_cards(self) -> int:
        """The kitty (``deal.kitty``; 0: none): the pack's cards no seat was dealt, the dealer's to take."""
        if not self.rs.params["deal.kitty"]:
            return 0
        dealt = 0
        for hand in self.dealt:
            dealt |= hand
        return self.rs.deck & ~dealt

    def take_kitty(self, discard: Sequence[int]) -> None:
        """The dealer takes the kitty and discards ``discard`` (as many cards, from its hand and the kitty: the
        caller checks them), before the bids; the discards count for nobody."""
        cards = self.kitty_cards()
        self.hands[self.dealer] = (self.hands[self.dealer] | cards) & ~C.mask_of(discard)
        self.kitty = {"dealer": C.SEATS[self.dealer], "cards": C.card_names(cards),
                      "discarded": C.card_names(C.mask_of(discard))}
        self._find_leader()

    # ----------------------------------------------------------------------- bids
    @property
    def bidder(self) -> int | None:
        """The seat to bid next, or None once all four have bid."""
        return self.order[0] if self.order else None

    def legal_bids(self) -> list[Bid]:
        """Every bid the next bidder may make."""
        seat = self.order[0]
        return legal_bids(self.rs, seat, self.hands[seat], self.dealer, self.bids, self.scores, self.bags)

    def bid_refusals(self, bid: Bid, checked: list | None = None) -> list[dict]:
        """Why the next bidder may not bid ``bid`` (empty: allowed), with the rules' citations."""
        seat = self.order[0]
        return bid_refusals(self.rs, seat, bid, hand=self.hands[seat], dealer=self.dealer, bids=self.bids,
                            scores=self.scores, bags=self.bags, checked=checked)

    def bid(self, bid: Bid) -> list[Bid]:
        """The next bidder bids ``bid``; returns the raises its partner may now make (a nil bid after
        the partner's regular bid, where ``nil.partner_may_raise``), empty when there are none."""
        seat = self.order.pop(0)
        self.bids[seat] = bid
        if not self.order:
            self._find_leader()
        return self.raise_options(seat)

    def set_bids(self, bids: Sequence[Bid]) -> None:
        """Every seat's bid at once (a recorded hand), without asking the rules whether they stand."""
        self.bids, self.order = list(bids), []
        self._find_leader()

    def _find_leader(self) -> None:
        """The first trick's leader once the bids are in and the cards exchanged (the lowered form's
        ``first_leader``: it may depend on the bids or on who holds a card)."""
        if self.number == 1 and not self.trick and self.rs.params["play.first_leader_by"] != "seat":
            kinds = [KIND_CODE[b.kind] if b is not None else K_PENDING for b in self.bids]
            self.leader = self._steps.first_leader(self.hands, kinds, [b.n if b else 0 for b in self.bids],
                                                   self.dealer)

    def raise_options(self, seat: int) -> list[Bid]:
        """The bids ``seat``'s partner may raise to after ``seat``'s nil (its current bid included)."""
        partner = self.table.partner(seat)
        if partner is None:
            return []
        bid, partner_bid = self.bids[seat], self.bids[partner]
        if bid is None or partner_bid is None or not self._steps.may_raise(KIND_CODE[bid.kind],
                                                                          KIND_CODE[partner_bid.kind]):
            return []
        options = [False] * (self.size + 1)
        self._steps.raise_options(options, partner_bid.n, KIND_CODE[bid.kind],
                                  *team_basics(self.rs, self.scores, self.bags, self.table.side_of(seat)))
        return [REGULAR_BIDS[n] for n in range(self.size + 1) if options[n]]

    def bidding_order(self) -> list[int]:
        """The seats in bidding order, from the first bidder."""
        first, seats = seat_rule(self.rs, "deal.first_bidder", self.dealer), self.table.seats
        return [(first + k) % seats for k in range(seats)]

    def round_raise_options(self, seat: int) -> list[Bid]:
        """The bids ``seat`` may make in the raise round once every seat has bid (``raise.by``, ``raise.allowed``):
        its own regular bid and each larger one it may raise to; [] where it may not raise (no raise round, not
        every seat has bid, not a regular bid, or nothing above its bid allowed)."""
        bid, partner = self.bids[seat], self.table.partner(seat)
        partner_bid = None if partner is None else self.bids[partner]
        if (not self.rs.params["raise.by"] or self.order or bid is None or bid.kind != REGULAR
                or partner is not None and partner_bid is None):
            return []
        partner_kind, partner_n = ((K_PENDING, 0) if partner_bid is None
                                   else (KIND_CODE[partner_bid.kind], partner_bid.n))
        options = [False] * (self.size + 1)
        count = self._steps.round_raise_options(options, self.hands[seat], seat, self.dealer,
                                                self.bidding_order().index(seat) + 1, partner_kind, partner_n, bid.n,
                                                *team_basics(self.rs, self.scores, self.bags, self.table.side_of(seat)))
        return [REGULAR_BIDS[n] for n in range(self.size + 1) if options[n]] if count > 1 else []

    def raise_bid(self, seat: int, bid: Bid) -> None:
        """``seat`` raises its bid to ``bid`` (the nil bidder's partner; any seat in the raise round)."""
        self.bids[seat] = bid
        self._find_leader()

    # ----------------------------------------------------------------------- the exchange
    def exchange_seats(self) -> list[int]:
        """The seats that exchange cards with their partners, in the order they do: the blind-nil bidders, then
        the nil bidders beside a number (``nil.exchange``), each in seat order."""
        if not self.table.partners or not _exchanges(self.rs):
            return []
        seats = [seat for seat in range(self.table.seats) if self.exchange_count(seat)]    # (each has bid)
        blind = {seat for seat in seats if (bid := self.bids[seat]) is not None and bid.kind == BLIND_NIL}
        return sorted(seats, key=lambda seat: seat not in blind)

    def exchange_count(self, seat: int) -> int:
        """How many cards ``seat`` passes to its partner and takes back (0: none), by the bids."""
        return exchange_count(self.rs, self.bids[seat], self.bids[self.table.opposite(seat)])

    def exchange(self, seat: int, give: Sequence[int], back: Sequence[int]) -> None:
        """``seat`` passes ``give`` to its partner and receives ``back`` (chosen before ``give`` arrives)."""
        partner = self.table.opposite(seat)
        given, returned = C.mask_of(give), C.mask_of(back)
        self.hands[seat] = (self.hands[seat] & ~given) | returned
        self.hands[partner] = (self.hands[partner] & ~returned) | given
        self.exchanges.append({"from": C.SEATS[seat], "gave": [C.card_name(c) for c in give],
                               "received": [C.card_name(c) for c in back]})
        self._find_leader()

    # ----------------------------------------------------------------------- play
    @property
    def to_play(self) -> int:
        """The seat whose turn it is to play a card."""
        return (self.leader + len(self.trick)) % self.table.seats

    @property
    def over(self) -> bool:
        """Every trick of the hand has been played."""
        return self.number > self.size

    def legal(self, seat: int | None = None) -> int:
        """The cards the seat to play (or ``seat``, where a recorded play says who played) may play."""
        position = len(self.trick) + 1
        return self._steps.legal(self.hands[self.to_play if seat is None else seat], self.trick_mask, self.led,
                                 self.number, position, position == 1, self.broken, self.played)

    def legal_cards(self, seat: int | None = None, explain: bool = False) -> Legal:
        """``legal`` with the conflicts and dead ends met (and with ``explain``, the rules applied)."""
        hand = self.hands[self.to_play if seat is None else seat]
        return legal_cards(self.rs, hand, self.trick, self.number, self.broken, self.played, explain)

    def irregularity(self, card: int) -> dict | None:
        """What is irregular about the seat to play playing ``card`` (None: it is legal): the kind, the
        play rule broken, whether it is a renege and the ruling (``play.irregularity``)."""
        return irregularity(self.rs, self.legal_cards(explain=True), card, not self.trick)

    def play(self, card: int, seat: int | None = None) -> None:
        """The seat to play (or ``seat``) plays ``card`` from its hand; legality is the caller's to judge."""
        seat = self.to_play if seat is None else seat
        position = len(self.trick) + 1
        self.broken, self.played, self.trick_mask, self.led = self._steps.play_card(
            self.hands, seat, self.hands[seat], card, [0] * C.MAX_SEATS, [0] * C.MAX_SEATS, self.trick_mask, self.led,
            self.number, position, position == 1, self.broken, self.played)
        self.trick.append(card)
        self.plays.append((seat, card))

    def finish_trick(self) -> int:
        """Settle the complete trick: the seat that played the winning card leads next; returns it."""
        count = self.table.seats
        trick_leader, trick = self.plays[-count][0], self.trick
        self.leader = self._steps.trick_winner(trick, [seat for seat, _ in self.plays[-count:]], self.trick_mask,
                                               self.led, self.number)
        self.won[self.leader] += 1
        self.winners.append(self.leader)
        if self.number == self.size:
            self.last = (self.leader, by_seat(trick, trick_leader, count))
        self.trick, self.trick_mask, self.led = [], 0, NONE
        self.number += 1
        return self.leader

    def copy(self) -> HandState:
        """An independent copy (for search)."""
        other = object.__new__(HandState)
        for name in HandState.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands, other.bids, other.order = list(self.hands), list(self.bids), list(self.order)
        other.trick, other.won, other.plays = list(self.trick), list(self.won), list(self.plays)
        other.winners, other.exchanges = list(self.winners), list(self.exchanges)
        return other

    # ----------------------------------------------------------------------- score
    def score(self, tricks: Sequence[int] | None = None, reneges: Sequence[int] = (),
              explain: bool = False) -> list[TeamResult]:
        """Score the hand from the tricks won (or ``tricks`` per seat, e.g. a hand ended by a forfeit)."""
        bids = [bid for bid in self.bids if bid is not None]
        if len(bids) < len(self.bids):
            raise GameError("the hand cannot be scored before every seat has bid", "bids")
        return score_hand(self.rs, bids, self.won if tricks is None else tricks, self.scores, self.bags,
                          reneges, self.last, explain)


@per_ruleset
def _exchanges(rs: Ruleset) -> bool:
    """Whether any pair of bids makes a seat pass cards to its partner (the lowered form's ``exchange_count``
    over every bid kind beside every kind or none yet): where none does, no hand asks each seat."""
    kinds = tuple(KIND_CODE.values())
    count = steps_of(rs).exchange_count
    return any(count(kind, partner) for kind in kinds for partner in (*kinds, K_PENDING))
