"""A recorded engine: hands another engine played, read from JSON Lines, replayed through the protocol.

Each line is a deals-file hand (``deal``, ``dealer``, ``bids``, ``play`` or ``tricks``,
``before``; ``docs/deals-format.md``) with what the engine said at each decision:
``legal`` (required: beside every card of the play, in play order, the cards the
engine allowed), and optionally ``legal_bids`` (each seat's allowed bids),
``tricks[].winner`` or ``winners`` (the seat that won each trick), ``score``
(``{NS: {points}, EW: {points}}``), ``totals`` (``{NS: {score, bags}, …}``) and
``game_status`` (``{over, winner}``).  What a line leaves out is not compared.
"""
from __future__ import annotations

import json
from pathlib import Path

from ...core import cards as C
from ...errors import EngineError, RulespecError
from ...game import Bid, parse_bid
from ..diff.deals import Deal, parse_deal
from .protocol import HandResult


def _cards(value, what: str) -> int:
    if not isinstance(value, list):
        raise EngineError(f"{what} is a list of card names")
    return C.mask_of(C.parse_cards(value))


def _winners(obj: dict) -> list[int] | None:
    raw = obj.get("winners")
    if raw is None and isinstance(obj.get("tricks"), list):
        raw = [t.get("winner") if isinstance(t, dict) else None for t in obj["tricks"]]
        if any(w is None for w in raw):
            return None
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != 13:
        raise EngineError("'winners' lists the seat that won each of the 13 tricks")
    return [C.parse_seat(w) for w in raw]


def _teams(obj: dict, key: str, field: str) -> tuple[int, int] | None:
    value = obj.get(key)
    if value is None:
        return None
    try:
        return tuple(int(value[team][field]) for team in C.TEAMS)
    except (KeyError, TypeError, ValueError):
        raise EngineError(f"'{key}' is {{NS: {{{field}: …}}, EW: {{{field}: …}}}}") from None


def _legal_sets(legal, play: tuple[int, ...]) -> list[int]:
    if not isinstance(legal, list) or len(legal) != len(play):
        raise EngineError(f"'legal' lists the engine's legal cards beside each of the {len(play)} cards played")
    sets = [_cards(cards, f"legal[{k}]") for k, cards in enumerate(legal)]
    for k, (card, allowed) in enumerate(zip(play, sets)):
        if not (allowed >> card) & 1:
            raise EngineError(f"legal[{k}] does not hold the card played, {C.card_name(card)}")
    return sets


def _legal_bids(raw) -> dict[int, list[Bid]] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != set(C.SEATS[:4]):
        raise EngineError("'legal_bids' is an object with the allowed bids of each of N, E, S, W")
    return {C.SEATS.index(s): [parse_bid(b, f"legal_bids.{s}") for b in raw[s]] for s in C.SEATS[:4]}


class Recorded:
    """One recorded hand: the deal and what the engine said."""

    def __init__(self, obj: dict, index: int):
        self.deal: Deal = parse_deal(obj, index)
        if self.deal.play is None:
            raise EngineError("a recorded hand needs its 'bids' and 'play' (or 'tricks')")
        self.legal = _legal_sets(obj.get("legal"), self.deal.play)
        self.legal_bids = _legal_bids(obj.get("legal_bids"))
        self.winners = _winners(obj)
        self.points = _teams(obj, "score", "points")
        self.bags = _teams(obj, "totals", "bags")
        status = obj.get("game_status") if isinstance(obj.get("game_status"), dict) else {}
        self.over = status.get("over") if isinstance(status.get("over"), bool) else None
        self.winner = status.get("winner") if self.over else None


class RecordedEngine:
    """The hands of a recorded JSON Lines file (``path``), replayed one decision at a time."""

    def __init__(self, path: str | Path):
        self.name = f"recorded:{Path(path).name}"
        try:
            lines = Path(path).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise EngineError(f"cannot read recorded engine file {path}: {exc}") from None
        self.hands: list[Recorded] = []
        for number, line in enumerate(lines, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                self.hands.append(Recorded(json.loads(line), len(self.hands)))
            except json.JSONDecodeError as exc:
                raise EngineError(f"{path}:{number}: not JSON: {exc.msg}") from None
            except RulespecError as exc:
                raise EngineError(f"{path}:{number}: {exc}") from None
        if not self.hands:
            raise EngineError(f"{path}: no hands")

    def fixed_deals(self) -> list[Deal]:
        return [h.deal for h in self.hands]

    def new_hand(self, deal: Deal) -> RecordedHand:
        return RecordedHand(self.hands[deal.index])


class RecordedHand:
    """A recorded hand replayed: bids from the seat left of the dealer, then the play as recorded."""

    def __init__(self, rec: Recorded):
        self.rec = rec
        self.owner = {card: seat for seat in range(4) for card in C.iter_cards(rec.deal.hands[seat])}
        self.bidders = [(rec.deal.dealer + k) % 4 for k in range(1, 5)]
        self.step = 0         # cards played so far
        self.tricks = 0

    def to_act(self) -> int:
        if self.bidders:
            return self.bidders[0]
        return self.owner[self.rec.deal.play[self.step]]

    def legal_bids(self) -> list[Bid] | None:
        return None if self.rec.legal_bids is None else self.rec.legal_bids[self.bidders[0]]

    def bid(self, bid: Bid) -> None:
        self.bidders.pop(0)

    def legal_cards(self) -> int:
        return self.rec.legal[self.step]

    def play(self, card: int) -> None:
        self.step += 1

    def trick_winner(self) -> int | None:
        self.tricks += 1
        return None if self.rec.winners is None else self.rec.winners[self.tricks - 1]

    def result(self) -> HandResult | None:
        if self.rec.points is None:
            return None
        return HandResult(self.rec.points, self.rec.bags, self.rec.over, self.rec.winner)

    def chosen(self) -> Bid | int:
        if self.bidders:
            return self.rec.deal.bids[self.bidders[0]]
        return self.rec.deal.play[self.step]
