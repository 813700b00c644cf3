"""Requests shared by the API tests (a helper module, no tests): a hand played out by the
engine, and variants pinned inline so the tests do not depend on how the
bundled variants are worded."""
from __future__ import annotations

from rulespec.core import cards as C
from rulespec import game as E
from rulespec.game import deal_for
from rulespec.model.ruleset import load_ruleset

SEATS = "NESW"
# Blind nil only for a side behind by 100 or more (as 004 says), pinned inline.
BLIND_NIL_BEHIND = {"extends": "standard", "rules": {"blind_nil.allowed": "opponents.score - team.score >= 100"}}
# A renege costs three tricks instead of being refused.
TRANSFER_RENEGE = {"extends": "standard", "rules": {"renege.mode": "transfer", "renege.transfer_tricks": 3}}
NO_OVERTRICK_POINTS = {"extends": "standard", "rules": {"scoring.overtrick_points": "0 @ house §Bags"}}

TRICK = {"variant": "standard", "leader": "N", "cards": ["AH", "2S", "KH", "3H"]}
LEGAL = {"variant": "standard", "hand": ["AH", "2S", "KH", "3C"], "trick": ["5H"], "number": 10}
SCORE = {"variant": "standard", "bids": {"N": 4, "E": 3, "S": "nil", "W": 4},
         "tricks": {"N": 5, "E": 3, "S": 1, "W": 4}}
BID = {"variant": BLIND_NIL_BEHIND, "seat": "N", "bid": "blind nil",
       "before": {"NS": {"score": 100}, "EW": {"score": 250}}}
GAME = {"variant": "standard", "hands": [{k: v for k, v in SCORE.items() if k != "variant"}] * 2}


def played_hand(renege: bool = False) -> tuple[dict, int | None, str | None]:
    """A complete hand of 'standard' as a score request (deal and play), each seat playing its
    lowest legal card; with ``renege`` the first follower able to do so fails to follow suit.
    Returns the request, and the index in ``play`` and the seat of the renege."""
    rs = load_ruleset("standard")
    hands = deal_for("api-tests", 0, rs)
    request = {"variant": "standard", "dealer": "N", "bids": {s: 3 for s in SEATS},
               "deal": {SEATS[s]: C.card_names(hands[s]) for s in range(4)}, "play": []}
    state = E.HandState(rs, hands, 0)
    at, offender = None, None
    while not state.over:
        seat = state.to_play
        legal = state.legal()
        off_suit = state.hands[seat] & ~legal
        card = next(C.iter_cards(off_suit if renege and at is None and state.trick and off_suit else legal))
        if not (legal >> card) & 1:
            at, offender = len(request["play"]), SEATS[seat]
        state.play(card)
        request["play"].append(C.card_name(card))
        if len(state.trick) == 4:
            state.finish_trick()
    return request, at, offender
