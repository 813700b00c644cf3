"""One hand in progress: the single scalar hand procedure every path drives.

``HandState`` has a method per step: the bids (``bid``, with the nil bidder's
partner's ``raise_bid``), the blind-nil ``exchange``, the card play (``legal``,
``play``, ``finish_trick``) and the ``score``.  The engine drives it with a
policy, the answers layer with a recorded play, the differential tester with a
transcript, the verifier's search with every choice.  Explanations are options
of a step (``legal_cards(explain=True)``, ``score(explain=True)``), never copies
of it.  The card-play steps are generated per ruleset from the templates in
``procedure`` (the same text ``fused`` inlines into its whole-hand loop).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core import cards as C
from ..lang.compiler import NONE
from ..model.ruleset import Ruleset, per_ruleset
from .bids import BLIND_NIL, REGULAR, REGULAR_BIDS, Bid, bid_refusals, legal_bids, seat_rule, team_refusals
from .play import Legal, bad_winner, by_seat, irregularity, legal_cards
from .procedure import FINISH_TRICK, PLAY_CARD, context_values, fill, indent, legal_source
from .scoring import TeamResult, score_hand


def rule_global(name: str) -> str:
    """The generated code's name for a compiled rule."""
    return "R_" + name.replace(".", "__")


def call_rule(rs: Ruleset, name: str, context: str) -> str:
    """A call of the compiled rule with its context's values, taken by name."""
    return f"{rule_global(name)}({', '.join(context_values(context))})"


_LOAD = """\
hands = st.hands
trick = st.trick
position = len(trick) + 1
leading = position == 1
hand = hands[seat]
trick_mask = st.trick_mask
led = st.led
number = st.number
broken = st.broken
played = st.played
"""


def _steps_source(rs: Ruleset) -> str:
    """HandState's generated steps: the legal set, one card played, a trick settled."""
    return "\n".join([
        "def legal(st, seat):",
        indent(_LOAD),
        indent(legal_source(rs, call_rule)),
        "    return allowed",
        "",
        "def play(st, seat, card):",
        indent(_LOAD),
        "    plays = st.plays",
        indent(fill(PLAY_CARD, rs, call_rule)),
        "    st.broken, st.played, st.trick_mask, st.led = broken, played, trick_mask, led",
        "",
        "def finish(st):",
        "    trick, trick_mask, led, number = st.trick, st.trick_mask, st.led, st.number",
        "    leader, won, winners, plays = st.leader, st.won, st.winners, st.plays",
        indent(fill(FINISH_TRICK, rs, call_rule)),
        "    st.leader = leader",
        "",
    ])


class _Steps:
    """The generated step functions of one ruleset."""

    def __init__(self, rs: Ruleset):
        env: dict = {"__builtins__": {"len": len}, "NONE": NONE, "_SUIT": rs.suit_of, "rs": rs,
                     "bad_winner": bad_winner}
        env.update({rule_global(name): fn for name, fn in rs.fn.items()})
        exec(compile(_steps_source(rs), f"<hand steps {rs.id}>", "exec"), env)  # noqa: S102 - templates only
        self.legal: Callable[[HandState, int], int] = env["legal"]
        self.play: Callable[[HandState, int, int], None] = env["play"]
        self.finish: Callable[[HandState], None] = env["finish"]


_steps_for = per_ruleset(_Steps)


class HandState:
    """A hand being bid, played and scored under ``rs``.

    Bidding runs from ``rs``'s first bidder round the table (``bidder``); the card
    play starts with ``rs``'s first leader.  Steps do not judge legality: callers
    ask ``legal_bids``/``bid_refusals`` and ``legal``/``legal_cards`` first, and do
    what their document says with an irregular bid or card.
    """

    __slots__ = ("rs", "dealer", "dealt", "hands", "scores", "bags", "bids", "order", "exchanges", "size",
                 "leader", "number", "trick", "trick_mask", "led", "broken", "played", "won", "plays",
                 "winners", "last", "_steps")

    def __init__(self, rs: Ruleset, hands: Sequence[int], dealer: int, scores: Sequence[int] = (0, 0),
                 bags: Sequence[int] = (0, 0)):
        self.rs, self.dealer = rs, dealer
        self.dealt = tuple(hands)
        self.hands = list(hands)
        self.scores, self.bags = (scores[0], scores[1]), (bags[0], bags[1])
        self.bids: list[Bid | None] = [None] * 4
        first = seat_rule(rs, "deal.first_bidder", dealer)
        self.order = [(first + k) % 4 for k in range(4)]    # bidding order; emptied as seats bid
        self.exchanges: list[dict] = []
        self.size: int = rs.params["deal.hand_size"]
        self.leader: int = seat_rule(rs, "play.first_leader", dealer)
        self.number = 1
        self.trick: list[int] = []
        self.trick_mask, self.led, self.broken, self.played = 0, NONE, False, 0
        self.won = [0, 0, 0, 0]
        self.plays: list[tuple[int, int]] = []
        self.winners: list[int] = []
        self.last: tuple[int, list[int]] | None = None
        self._steps = _steps_for(rs)

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
        return self.raise_options(seat)

    def raise_options(self, seat: int) -> list[Bid]:
        """The bids ``seat``'s partner may raise to after ``seat``'s nil (its current bid included)."""
        rs, bid = self.rs, self.bids[seat]
        partner_bid = self.bids[C.partner_of(seat)]
        if not (bid.is_nil and rs.params["nil.partner_may_raise"] and partner_bid is not None
                and partner_bid.kind == REGULAR):
            return []
        return [REGULAR_BIDS[n] for n in range(partner_bid.n, self.size + 1)
                if not team_refusals(rs, (REGULAR_BIDS[n], bid), self.scores, self.bags, C.team_of(seat),
                                     explain=False)]

    def raise_bid(self, seat: int, bid: Bid) -> None:
        """``seat`` (the nil bidder's partner) raises its bid to ``bid``."""
        self.bids[seat] = bid

    # ----------------------------------------------------------------------- the exchange
    def exchange_seats(self) -> list[int]:
        """The blind-nil bidders who exchange cards with their partners, in seat order."""
        if not self.rs.params["blind_nil.exchange"]:
            return []
        return [seat for seat in range(4) if self.bids[seat].kind == BLIND_NIL]

    def exchange(self, seat: int, give: Sequence[int], back: Sequence[int]) -> None:
        """``seat`` passes ``give`` to its partner and receives ``back`` (chosen before ``give`` arrives)."""
        partner = C.partner_of(seat)
        given, returned = C.mask_of(give), C.mask_of(back)
        self.hands[seat] = (self.hands[seat] & ~given) | returned
        self.hands[partner] = (self.hands[partner] & ~returned) | given
        self.exchanges.append({"from": C.SEATS[seat], "gave": [C.card_name(c) for c in give],
                               "received": [C.card_name(c) for c in back]})

    # ----------------------------------------------------------------------- play
    @property
    def to_play(self) -> int:
        """The seat whose turn it is to play a card."""
        return (self.leader + len(self.trick)) % 4

    @property
    def over(self) -> bool:
        """Every trick of the hand has been played."""
        return self.number > self.size

    def legal(self, seat: int | None = None) -> int:
        """The cards the seat to play (or ``seat``, where a recorded play says who played) may play."""
        return self._steps.legal(self, self.to_play if seat is None else seat)

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
        self._steps.play(self, self.to_play if seat is None else seat, card)

    def finish_trick(self) -> int:
        """Settle the complete trick: the seat that played the winning card leads next; returns it."""
        trick_leader, trick = self.plays[-4][0], self.trick
        self._steps.finish(self)
        if self.number == self.size:
            self.last = (self.leader, by_seat(trick, trick_leader))
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
        return score_hand(self.rs, self.bids, self.won if tricks is None else tricks, self.scores, self.bags,
                          reneges, self.last, explain)
