"""A hand the game played or replayed (``HandState``) as a record, to be written as PBN or PTN."""
from __future__ import annotations

from ..errors import RecordError
from ..game import HandState
from .model import HandRecord, Trick, Where


def hand_of_state(state: HandState, number: int = 1, variant: str | None = None, label: str = "") -> HandRecord:
    """``state``'s deal, bids and complete tricks (in play order, with leaders and winners) as a record."""
    if state.exchanges:
        raise RecordError("a hand with cards passed after the bids (a blind-nil exchange, the nil pass) cannot "
                          "be written as a record (its deal and its play hold different cards)", "exchanges")
    if any(bid is None for bid in state.bids):
        raise RecordError("every seat must have bid", "bids")
    tricks = tuple(Trick(tuple(card for _, card in state.plays[k:k + 4]), state.plays[k][0], Where(),
                         state.winners[k // 4])
                   for k in range(0, len(state.winners) * 4, 4))
    return HandRecord(number, Where(), state.dealer, tuple(state.dealt), tuple(state.bids), tricks, variant=variant,
                      label=label)
