"""The game: bids, card play, scoring and the one hand procedure (``HandState``) every path drives.

Import the public names from here; the modules are ``bids`` (bid values and bid
rules), ``play`` (legal cards and trick winners with their explanations),
``scoring`` (a hand's score and the game's end), ``steps`` (the lowered form's
functions for a ruleset, ``rulespec.procedure``), ``hand`` (``HandState``), ``fused``
(the whole-hand card-play loop from the same form), ``policies`` (seeded players) and
``engine`` (whole hands, deals and simulation).
"""
from .bids import (BLIND, BLIND_NIL, NIL, REGULAR, Bid, bid_candidates, bid_refusals, exchange_count, legal_bids,
                   parse_bid, seat_rule, team_contract, team_refusals)
from .engine import deal_and_stock_for, deal_cards, deal_for, drawn_hands, play_hand, simulate, stock_for
from .hand import HandState
from .play import Legal, applicable_constraints, by_seat, legal_cards, trick_winner
from .scoring import NO_HISTORY, GameHistory, TeamResult, game_status, score_hand

__all__ = ["BLIND", "BLIND_NIL", "NIL", "NO_HISTORY", "REGULAR", "Bid", "GameHistory", "HandState", "Legal",
           "TeamResult",
           "applicable_constraints", "bid_candidates", "bid_refusals", "by_seat", "deal_and_stock_for", "deal_cards",
           "deal_for", "drawn_hands", "stock_for",
           "exchange_count", "game_status", "legal_bids", "legal_cards", "parse_bid", "play_hand", "score_hand",
           "seat_rule", "simulate", "team_contract", "team_refusals", "trick_winner"]
