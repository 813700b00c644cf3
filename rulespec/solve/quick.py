"""Quick tricks: a lower bound on the tricks the side on lead takes by cashing top cards of one suit,
used only where the variant's compiled rules are shown to be follow-suit, trump-wins play.

``Shape.of`` reads the inlined expressions of the rules that decide a trick after the first one (the
play constraints the lowered form's ``legal`` asks of a seat leading and following, ``trick.winner``)
and accepts a ruleset only when they are, character for character, one of these:

* following: the legal set is the hand's cards of the suit led when it has one, else the hand;
* winning: the highest-power card of suit ``T`` in the trick if there is one, else the highest of
  the suit led (or, without trumps, the highest of the suit led);
* leading: any card, or a card of one suit only once trumps are broken or the hand holds no other
  suit (an allowed lead stays allowed as the hand shrinks and trumps break).

``symmetry.equivariant`` must hold too (no two cards of a suit share a power, so "highest" is a
strict order).  The first trick has rules of its own and is never bounded here.

The bound (``Shape.tricks``), for the leader's cards ``c1 > c2 > …`` of one suit that rank above
every opponent's card of that suit: in round ``i`` the leader leads ``ci``; an opponent either follows
(lower) or is void and can trump only if it holds a trump, so rounds are counted only while every
opponent holding a trump still has a card of the suit; partner plays its lowest card of the suit or,
void, any other card.  If partner's card could win (a higher card of the suit, or a trump when void)
the side still wins that round but may lose the lead: counting stops after it.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..model.ruleset import Ruleset
from ..procedure.form import rules_asked
from ..procedure.python import inline_text
from .symmetry import equivariant, suit_orders

# the rules' variables under the names the forms below are written with
_PLAY = ("hand", "trick_mask", "led", "number", "position", "leading", "broken", "played")
_TRICK = ("trick_mask", "led", "number", "lead")
_FOLLOW = "hand & _SM[led] if hand & _SM[led] != 0 else hand"
_LEAD_ANY = "hand"
_LEAD_BROKEN = "hand if broken or hand & ~_SM[{T}] == 0 else hand & ~_SM[{T}]"
_WIN_TRUMPS = "_hi(trick_mask & _SM[{T}]) if trick_mask & _SM[{T}] != 0 else _hi(trick_mask & _SM[led])"
_WIN_PLAIN = "_hi(trick_mask & _SM[led])"


def _after_first(rs: Ruleset, leading: bool) -> str | None:
    """The one play constraint the lowered form asks of a seat leading (or following) after the first
    trick that narrows the hand, inlined (a constraint that permits the whole hand, ``hand``, narrows nothing:
    a new constraint at its neutral value leaves the shape as it was); None when more than one narrows it."""
    asked = rules_asked(rs, "legal", {"leading": leading, "trick_number": 2})
    narrowing = [text for text in (inline_text(rs, rule, _PLAY) for rule in asked) if text != _LEAD_ANY]
    return _LEAD_ANY if not narrowing else narrowing[0] if len(narrowing) == 1 else None


def _trump(winner: str) -> int | bool:
    """The trump suit of a winner of the trump-wins form; True for the no-trump form; False for neither."""
    trumps = [t for t in range(4) if winner == _WIN_TRUMPS.replace("{T}", str(t))]
    return trumps[0] if trumps else winner == _WIN_PLAIN


def _restricted(lead: str) -> int | bool | None:
    """The suit a lead of the accepted forms allows only once trumps are broken (False: none); None for
    another form."""
    if lead == _LEAD_ANY:
        return False
    suits = [t for t in range(4) if lead == _LEAD_BROKEN.replace("{T}", str(t))]
    return suits[0] if suits else None


@dataclass(frozen=True)
class Shape:
    """A ruleset shown to play follow-suit, trump-wins tricks after the first: its trump suit (None:
    no trumps), the suit that may be led only once trumps are broken (None: any lead), each suit's cards
    (highest first) and mask, and per card the mask of the higher cards of its suit."""
    trump: int | None
    restricted: int | None
    orders: tuple[tuple[int, ...], ...]
    masks: tuple[int, ...]
    above: dict[int, int]

    @staticmethod
    def of(rs: Ruleset) -> Shape | None:
        """``rs``'s shape, or None when its rules are not (character for character) the forms above."""
        if not equivariant(rs) or _after_first(rs, False) != _FOLLOW:
            return None
        trump = _trump(inline_text(rs, "trick.winner", _TRICK))
        restricted = _restricted(_after_first(rs, True))
        if trump is False or restricted is None:
            return None
        orders = suit_orders(rs)
        masks = tuple(sum(1 << c for c in order) for order in orders)
        tables = rs.fn["trick.winner"].__globals__["_SM"]
        if any(tables[s] & rs.deck != masks[s] for s in range(4)):    # the rules' suits are the orders' suits
            return None
        above = {card: sum(1 << c for c in order[:k]) for order in orders for k, card in enumerate(order)}
        return Shape(None if trump is True else trump, None if restricted is False else restricted, orders,
                     masks, above)

    def tricks(self, hands: list[int], leader: int, broken: bool) -> tuple[int, int]:
        """Tricks the leader's side surely takes cashing from the top: one suit, or one suit after
        another where partner can never win a round; and the cards whose holders the count reads (of
        the others it reads only each hand's length in each suit)."""
        mine, partner = hands[leader], hands[(leader + 2) % 4]
        lho, rho = hands[(leader + 1) % 4], hands[(leader + 3) % 4]
        single = clean = single_read = clean_read = 0
        for suit in range(4):
            if mine & self.masks[suit]:
                one, safe, read = self._suit(suit, mine, partner, lho, rho, broken)
                if one > single:
                    single, single_read = one, read
                if safe:
                    clean, clean_read = clean + safe, clean_read | read
        return (single, single_read) if single >= clean else (clean, clean_read)

    def _suit(self, suit: int, mine: int, partner: int, lho: int, rho: int,
              broken: bool) -> tuple[int, int, int]:
        """Rounds of ``suit`` the leader cashes first (see the module's text), the same rounds when
        partner can win none of them (then they add up over suits) else 0, and the cards of the suit
        whose holders the count reads: down to the opponents' highest (partner's cards below it are never
        above a card cashed, so of them only their number counts)."""
        mask, trump = self.masks[suit], self.trump
        if suit == self.restricted and not broken and mine & ~mask:
            return 0, 0, 0
        tops, reach = self._tops(suit, mine, lho | rho)
        rounds = len(tops)
        trump_mask = 0 if trump is None or suit == trump else self.masks[trump]
        for opponent in (lho, rho):
            if opponent & trump_mask:
                rounds = min(rounds, (opponent & mask).bit_count())
        if not rounds:
            return 0, 0, 0
        if not partner & (trump_mask | self.above[tops[rounds - 1]]):
            return rounds, rounds, reach     # partner holds no trump and nothing above the cards cashed
        return self._until_partner_wins(suit, tops[:rounds], partner, trump_mask), 0, reach

    def _until_partner_wins(self, suit: int, tops: list[int], partner: int, trump_mask: int) -> int:
        """Rounds cashing ``tops`` up to the first that partner's card (its lowest of the suit, or a trump
        when void) could win: the side wins it too, but may lose the lead."""
        lows = [c for c in reversed(self.orders[suit]) if partner >> c & 1]    # partner's, lowest first
        for i, top in enumerate(tops):
            if i < len(lows):
                if self.above[top] >> lows[i] & 1:
                    return i + 1
            elif partner & trump_mask:
                return i + 1
        return len(tops)

    def trump_tricks(self, hands: list[int], seat: int, goal: int | None = None) -> tuple[int, int]:
        """Tricks ``seat``'s side surely takes with its trumps, whoever leads; and the trumps whose holders
        the count reads (down to the lowest trump of the hand counted).  With a ``goal``, a hand's count
        stops at the first trump that brings it to the goal, and reads down to that trump only (the trumps
        from the top to any card of the hand, paired the same way, give a count of their own).

        One hand's trumps are all played, each to a different trick, and a trick with a trump in it goes
        to its highest trump: a trump of the hand is beaten only by a higher trump of the other side in the
        same trick, and each of the other side's trumps is in one trick.  So the hand's trumps less the
        most of them the other side's trumps can each be matched with a higher one (counted from the top:
        every trump of the hand takes an unmatched higher trump of the other side, if any is left) win
        tricks for the side; the better of the two hands is counted."""
        if self.trump is None:
            return 0, 0
        others = hands[(seat + 1) % 4] | hands[(seat + 3) % 4]
        best, best_read = 0, 0
        for hand in (hands[seat], hands[(seat + 2) % 4]):
            free = held = lost = 0
            low = -1
            for card in self.orders[self.trump]:
                if others >> card & 1:
                    free += 1
                elif hand >> card & 1:
                    held, low = held + 1, card
                    if free:
                        free, lost = free - 1, lost + 1
                    elif goal is not None and held - lost >= goal:
                        return held - lost, self.above[card] | 1 << card
            if held - lost > best:
                best, best_read = held - lost, self.above[low] | 1 << low
        return best, best_read

    def _tops(self, suit: int, mine: int, opponents: int) -> tuple[list[int], int]:
        """The leader's cards of ``suit`` above every opponent's card of it, highest first; and the suit's
        cards down to the opponents' highest (all of them when the opponents hold none)."""
        tops = []
        for card in self.orders[suit]:
            if opponents >> card & 1:
                return tops, self.above[card] | 1 << card
            if mine >> card & 1:
                tops.append(card)
        return tops, self.masks[suit]
