"""The OpenSpiel adapter: ``pyspiel.load_game("spades")`` driven through the engine protocol.

Needs the ``bench`` extra (``pip install -e '.[bench]'``); importing this module without
pyspiel raises ImportError.  The mapping, both ways:

- cards: OpenSpiel's own names for its actions 0..51 (``state.action_to_string``,
  suit then rank, e.g. ``ST``) read as the project's card names;
- the deal: OpenSpiel deals by chance actions, the k-th card dealt going to player
  k mod 4 (0..3 = N E S W); the adapter deals each seat's cards that way;
- bids: actions 52..65 named ``Nil``, ``1`` … ``13``;
- the opening seat: OpenSpiel has no dealer (its player 0 opens the bidding and
  leads); the adapter starts it at the seat left of the deal's dealer with
  ``set_current_player``, its documented way to choose the starting player;
- scores: ``set_current_scores`` before the hand; after it, each team's hand points are
  ``get_current_scores()`` minus the scores before; OpenSpiel keeps no bag count (its bag
  penalty reads the score's last digit, ``current_score % 10`` in C++), so the bags it
  holds after the hand are that remainder of the running score; game over is
  ``is_game_over()``, the winner the team ahead when it is.
"""
from __future__ import annotations

import math
import re

import pyspiel

from ...core import cards as C
from ...errors import EngineError
from ...game import Bid, parse_bid
from ..diff.deals import Deal
from .protocol import HandResult

_TRICKS_TAKEN = re.compile(r"Tricks taken:\s*North East\s+South\s+West\s*\n\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)")


class OpenSpielEngine:
    """OpenSpiel's ``spades`` game; ``params`` are its game parameters (e.g. ``use_mercy_rule``)."""

    name = "openspiel"

    def __init__(self, **params):
        self.game = pyspiel.load_game("spades", params)
        probe = self.game.new_initial_state()
        self.card_of: dict[int, int] = {}
        self.bid_of: dict[int, Bid] = {}
        for action in range(self.game.num_distinct_actions()):
            text = probe.action_to_string(0, action)
            if len(text) == 2 and text[0] in C.SUIT_LETTERS:
                self.card_of[action] = C.parse_card(text[1] + text[0])
            else:
                self.bid_of[action] = parse_bid("nil" if text == "Nil" else int(text))
        self.action_of_card = {card: action for action, card in self.card_of.items()}
        self.action_of_bid = {bid: action for action, bid in self.bid_of.items()}

    def fixed_deals(self) -> None:
        return None

    def new_hand(self, deal: Deal) -> OpenSpielHand:
        if any(hand.bit_count() != 13 or hand & C.JOKERS for hand in deal.hands):
            raise EngineError("OpenSpiel plays a 52-card pack, 13 cards a seat")
        return OpenSpielHand(self, deal)


class OpenSpielHand:
    """One OpenSpiel game (one hand) in lockstep with the runner."""

    def __init__(self, engine: OpenSpielEngine, deal: Deal):
        self.engine = engine
        self.state = state = engine.game.new_initial_state()
        by_seat = [list(C.iter_cards(hand)) for hand in deal.hands]
        for k in range(13):
            for seat in range(4):
                state.apply_action(engine.action_of_card[by_seat[seat][k]])
        self.before = deal.before[0]
        state.set_current_scores(list(self.before))
        state.set_current_player(C.left_of(deal.dealer))
        self.taken = [0, 0, 0, 0]

    def to_act(self) -> int:
        return self.state.current_player()

    def legal_bids(self) -> list[Bid]:
        return [self.engine.bid_of[a] for a in self.state.legal_actions()]

    def bid(self, bid: Bid) -> None:
        action = self.engine.action_of_bid.get(bid)
        if action is None:
            raise EngineError(f"OpenSpiel has no bid {bid}")
        self.state.apply_action(action)

    def legal_cards(self) -> int:
        return C.mask_of(self.engine.card_of[a] for a in self.state.legal_actions())

    def play(self, card: int) -> None:
        self.state.apply_action(self.engine.action_of_card[card])

    def trick_winner(self) -> int:
        found = _TRICKS_TAKEN.search(self.state.to_string())
        if found is None:
            raise EngineError("OpenSpiel's state shows no tricks taken")
        taken = [int(x) for x in found.groups()]
        winner = next(seat for seat in range(4) if taken[seat] > self.taken[seat])
        self.taken = taken
        return winner

    def result(self) -> HandResult:
        after = self.state.get_current_scores()
        over = bool(self.state.is_game_over())
        winner = None
        if over and after[0] != after[1]:
            winner = C.TEAMS[0 if after[0] > after[1] else 1]
        return HandResult(points=(after[0] - self.before[0], after[1] - self.before[1]),
                          bags=tuple(int(math.fmod(s, 10)) for s in after), game_over=over, winner=winner)

    def chosen(self) -> None:
        return None
