"""Record a hand under one variant and replay the same bids and cards under another.

A replay never stops at a forbidden bid or card: it notes the first one (and
the clause that forbids it) and goes on, so that trick winners, the hand
score, bags and the game status can all be compared.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .. import cards as C
from ..engine import (Bid, bid_refusals, breaks_trump, game_status, legal_cards, parse_bid, play_hand,
                      score_hand, trick_winner)
from ..errors import RulespecError
from ..policies import POLICIES
from ..ruleset import Ruleset
from .deals import Deal

STAGES = ("bid", "legal", "trick", "score", "bags", "game")
STAGE_TITLES = {"bid": "bid validity", "legal": "legal cards", "trick": "trick winner",
                "score": "hand score", "bags": "bags", "game": "game over/winner"}


@dataclass(frozen=True)
class Transcript:
    """A complete hand: who held what, the bids, and every card in play order."""
    dealer: int
    dealt: tuple[int, ...]
    bids: tuple[Bid, ...]
    plays: tuple[tuple[int, int], ...]          # (seat, card) in play order
    before: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))
    hands_played: int = 1                       # hands of the game so far, this one included


@dataclass
class Outcome:
    """What one variant makes of a transcript; ``sig`` is compared stage by stage."""
    sig: dict[str, object] = field(default_factory=dict)
    situations: dict[str, dict] = field(default_factory=dict)   # inputs that reproduce a stage
    notes: dict[str, dict] = field(default_factory=dict)        # first forbidden bid/card and its clause


class _FixedBids:
    """A policy that makes the given bids and lets ``inner`` play the cards."""

    def __init__(self, bids: tuple[Bid, ...], inner):
        self.bids, self.inner = bids, inner

    def bid(self, rs, seat, legal, hand):
        self.inner.bid(rs, seat, [self.bids[seat]], hand)
        return self.bids[seat]

    def raise_bid(self, rs, seat, legal, hand):
        return self.bids[seat]

    def exchange(self, rs, seat, hand, count):
        return self.inner.exchange(rs, seat, hand, count)

    def play(self, rs, seat, legal, trick, hand):
        return self.inner.play(rs, seat, legal, trick, hand)


def policy_for(name: str, seed: str, key: str):
    return POLICIES[name](random.Random(f"play:{seed}:{key}"))


def record(rs: Ruleset, deal: Deal, policy) -> Transcript:
    """The deal's transcript: its own play if it has one, else ``policy`` bids and plays under ``rs``."""
    scores, bags = deal.before
    if deal.play is not None:
        owner = {card: seat for seat in range(4) for card in C.iter_cards(deal.hands[seat])}
        plays = tuple((owner[c], c) for c in deal.play)
        return Transcript(deal.dealer, deal.hands, deal.bids, plays, deal.before)
    if hasattr(policy, "observe_scores"):
        policy.observe_scores(scores)
    if deal.bids is not None:
        policy = _FixedBids(deal.bids, policy)
    rec = play_hand(rs, list(deal.hands), deal.dealer, policy, scores, bags)
    plays = []
    for trick in rec["tricks"]:
        leader = C.SEATS.index(trick["leader"])
        plays.extend(((leader + pos) % 4, C.parse_card(name)) for pos, name in enumerate(trick["cards"]))
    bids = tuple(parse_bid(rec["bids"][s]) for s in C.SEATS)
    return Transcript(deal.dealer, deal.hands, bids, tuple(plays), deal.before)


def _bid_json(bid: Bid):
    return "nil" if bid.kind == "nil" else bid.n if bid.kind == "regular" else str(bid)


def _before_json(t: Transcript) -> dict:
    (scores, bags) = t.before
    return {team: {"score": scores[i], "bags": bags[i]} for i, team in enumerate(C.TEAMS)}


def _forbidding_rule(rs: Ruleset, hand: int, trick: list[int], number: int, broken: bool, played: int,
                     card: int) -> dict:
    if not (rs.deck >> card) & 1:
        return rs.cite("deck.cards")
    legal = legal_cards(rs, hand, trick, number, broken, played, explain=True)
    name = C.card_name(card)
    for step in legal.steps:
        if name not in step["value"]:
            return {k: v for k, v in step.items() if k != "value"}
    return {"rule": None, "cite": None}


def replay(rs: Ruleset, t: Transcript) -> Outcome:
    """Replay ``t`` under ``rs``."""
    out = Outcome()
    try:
        _replay_bids(rs, t, out)
        tricks, last = _replay_play(rs, t, out)
        _replay_score(rs, t, tricks, last, out)
    except RulespecError as exc:
        for stage in STAGES:
            out.sig.setdefault(stage, f"error: {exc}")
    return out


def _replay_bids(rs: Ruleset, t: Transcript, out: Outcome) -> None:
    scores, bags = t.before
    first = rs.fn["deal.first_bidder"](t.dealer)
    so_far: list[Bid | None] = [None] * 4
    out.sig["bid"] = None
    for k in range(4):
        seat = (first + k) % 4
        bid = t.bids[seat]
        refusals = bid_refusals(rs, seat, bid, hand=t.dealt[seat], dealer=t.dealer, bids=so_far,
                                scores=scores, bags=bags)
        if refusals:
            out.sig["bid"] = (seat, str(bid))
            out.notes["bid"] = {"seat": C.SEATS[seat], "bid": str(bid), **refusals[0]}
            out.situations["bid"] = {
                "seat": C.SEATS[seat], "bid": _bid_json(bid), "dealer": C.SEATS[t.dealer],
                "bids": {C.SEATS[s]: _bid_json(b) for s, b in enumerate(so_far) if b is not None},
                "before": _before_json(t)}
            return
        so_far[seat] = bid


def _replay_play(rs: Ruleset, t: Transcript, out: Outcome):
    hands = [0, 0, 0, 0]
    for seat, card in t.plays:
        hands[seat] |= 1 << card
    broken, played = False, 0
    winners: list[str] = []
    won = [0, 0, 0, 0]
    out.sig["legal"] = None
    out.situations["tricks"] = []
    last = None
    for start in range(0, len(t.plays), 4):
        number = start // 4 + 1
        group = t.plays[start:start + 4]
        trick: list[int] = []
        for seat, card in group:
            hand = hands[seat]
            if out.sig["legal"] is None and not (legal_cards(rs, hand, trick, number, broken, played).cards >> card) & 1:
                out.sig["legal"] = (number, seat, card)
                out.notes["legal"] = {"trick": number, "seat": C.SEATS[seat], "card": C.card_name(card),
                                      **_forbidding_rule(rs, hand, trick, number, broken, played, card)}
                out.situations["legal"] = {"hand": C.card_names(hand), "trick": [C.card_name(c) for c in trick],
                                           "number": number, "broken": broken}
            if not broken and breaks_trump(rs, card, hand, trick, number):
                broken = True
            hands[seat] &= ~(1 << card)
            played |= 1 << card
            trick.append(card)
        index, _ = trick_winner(rs, trick, number)
        leader = group[0][0]
        winner = group[index][0]
        won[winner] += 1
        winners.append(C.SEATS[winner])
        out.situations["tricks"].append({"leader": C.SEATS[leader], "cards": [C.card_name(c) for c in trick],
                                         "number": number})
        by_seat = [0] * 4
        for seat, card in group:
            by_seat[seat] = card
        last = (winner, by_seat)
    out.sig["trick"] = tuple(winners)
    return won, last


def _replay_score(rs: Ruleset, t: Transcript, tricks: list[int], last, out: Outcome) -> None:
    scores, bags = t.before
    results = score_hand(rs, t.bids, tricks, scores, bags, last_trick=last)
    out.sig["score"] = tuple(r.points for r in results)
    out.sig["bags"] = tuple(r.bags for r in results)
    after = tuple(r.score for r in results)
    status = game_status(rs, after, tuple(r.bags for r in results), t.hands_played)
    out.sig["game"] = (status["over"], status["winner"])
    out.situations["score"] = {
        "bids": {C.SEATS[s]: _bid_json(b) for s, b in enumerate(t.bids)},
        "tricks": {C.SEATS[s]: tricks[s] for s in range(4)},
        "before": _before_json(t)}
    if last is not None:
        winner, by_seat = last
        out.situations["last_trick"] = {"winner": C.SEATS[winner],
                                        "cards": {C.SEATS[s]: C.card_name(c) for s, c in enumerate(by_seat)}}
    out.situations["after"] = {"scores": after, "bags": out.sig["bags"]}
