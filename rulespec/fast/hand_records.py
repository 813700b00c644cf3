"""Hand records (``rulespec simulate --out``) written from the batch engine's arrays, many at once.

A chunk of records is laid out as one byte row per hand: the text every record shares (keys,
punctuation) and slots filled by table lookup (card names, seats, bids, game statuses) or by digit
arithmetic (numbers), each slot padded with NUL bytes to a fixed width.  Dropping the NULs leaves the
JSON lines, byte for byte as ``json.dumps(record, separators=(",", ":"))`` writes them (JSON text holds
no NUL byte: ``json.dumps`` escapes one as ``\\u0000``).
"""
from __future__ import annotations

import json
from typing import BinaryIO

import numpy as np

from ..core import cards as C
from ..core.contexts import ARGS
from ..core.schema import CONTEXTS
from ..game import NO_HISTORY, Bid, by_seat, game_status, score_hand
from ..model.ruleset import Ruleset
from ..procedure.lang import K_BLIND_NIL, K_NIL
from .batch import BatchResult
from .batch_hand import KIND_NAME
from .vector import vector_rules

Piece = bytes | np.ndarray      # text shared by every row, or (N, width) NUL-padded bytes per row


def padded(texts: list[str]) -> np.ndarray:
    """(len(texts), width) uint8: each text's ASCII bytes, then NUL padding to the longest."""
    raw = [text.encode("ascii") for text in texts]
    out = np.zeros((len(raw), max(map(len, raw), default=0)), dtype=np.uint8)
    for i, data in enumerate(raw):
        out[i, :len(data)] = np.frombuffer(data, dtype=np.uint8)
    return out


def numbers(values: np.ndarray) -> np.ndarray:
    """(..., width) the decimal text of each integer (a minus sign, then the digits without leading zeros)."""
    shape = np.shape(values)
    values = np.asarray(values, dtype=np.int64).reshape(-1)
    size = np.abs(values)
    width = len(str(int(size.max()))) if len(values) else 1
    powers = 10 ** np.arange(width - 1, -1, -1, dtype=np.int64)
    digits = ((size[:, None] // powers) % 10 + ord("0")).astype(np.uint8)
    digits[(size[:, None] < powers) & (powers > 1)] = 0
    sign = np.where(values < 0, ord("-"), 0).astype(np.uint8)
    return np.concatenate([sign[:, None], digits], axis=1).reshape(*shape, -1)


def _assemble(pieces: list[Piece], shape: tuple[int, ...]) -> np.ndarray:
    """The pieces side by side on the last axis, shared text repeated for every row of ``shape``."""
    blocks = [np.broadcast_to(np.frombuffer(p, dtype=np.uint8), (*shape, len(p))) if isinstance(p, bytes) else p
              for p in pieces]
    return np.concatenate(blocks, axis=-1)


class RecordWriter:
    """Writes a ruleset's ``BatchResult`` chunks (played by ``players``) as hand records of independent hands
    from 0-0: hand ``i`` is its own game (``game`` i + 1), its totals are its score, ``game_status`` as after a
    game's first hand."""

    def __init__(self, rs: Ruleset, seed: str, players: str = "random"):
        self.rs, self.size, self.table = rs, rs.params["deal.hand_size"], C.table_of(rs.params)
        self.head = (f'{{"variant":{json.dumps(rs.id)},"seed":{json.dumps(seed)},"players":{json.dumps(players)},'
                     '"hand":').encode()
        self.seat = padded([json.dumps(s) for s in C.SEATS])
        # each name after a comma, 8 bytes wide: one uint64 per card to look up
        names = padded(["," + json.dumps(name) for name in C.NAMES])
        self.card = np.pad(names, ((0, 0), (0, 8 - names.shape[1]))).view(np.uint64).reshape(-1)
        self.kept = padded([",false", ",true"])
        self.bid = padded([json.dumps(str(Bid(str(KIND_NAME[code]), n))) for code in range(4)
                           for n in range(self.size + 1)])
        # the exchanges in the order they are made: blind nil, then the nil pass (bid kind, cards passed)
        self.exchanges = [(code, rs.params[rule]) for code, rule in
                          ((K_BLIND_NIL, "blind_nil.exchange"), (K_NIL, "nil.exchange")) if rs.params[rule]]
        self.fn = vector_rules(rs)
        self.statuses: dict[int, str] = {}
        self.plain: dict[tuple, str] = {}

    def write(self, result: BatchResult, first: int, sink: BinaryIO) -> None:
        """Write the hands of ``result`` as records numbered from ``first``."""
        sink.write(self.rows(result, first).tobytes().translate(None, b"\0"))

    def rows(self, r: BatchResult, first: int) -> np.ndarray:
        """(N, width) the records of ``r``, NUL-padded."""
        n, seats, sides = len(r), self.table.seats, self.table.side_names
        index = first + np.arange(n, dtype=np.int64)
        hand, game, *rest = numbers(np.stack([index, index + 1, *r.tricks.T[:seats], *r.points.T, *r.bags_added.T,
                                              *r.bags.T]))
        tricks, points = rest[:seats], rest[seats:seats + len(sides)]
        added, bags = rest[seats + len(sides):seats + 2 * len(sides)], rest[seats + 2 * len(sides):]
        pieces: list[Piece] = [self.head, hand, b',"game":', game, b',"dealer":', self.seat[r.dealer], b',"deal":{']
        deal = self._cards(self._sorted(r.deals))
        for seat, name in enumerate(self.table.seat_names):
            pieces += [f'{"," if seat else ""}"{name}":['.encode(), deal[:, seat], b"]"]
        pieces.append(b'},"bids":{')
        for seat, name in enumerate(self.table.seat_names):
            pieces += [f'{"," if seat else ""}"{name}":'.encode(), self.bid[r.bid_kind[:, seat] * (self.size + 1)
                                                                           + r.bid_n[:, seat]]]
        pieces += [b'},"exchanges":[', *self._exchanges(r), b"]", *self._kitty(r), *self._draw(r), b',"tricks":[',
                   self._tricks(r), b'],"tricks_per_seat":{']
        pieces += [p for seat, name in enumerate(self.table.seat_names)
                   for p in (f'{"," if seat else ""}"{name}":'.encode(), tricks[seat])]
        pieces.append(b'},"score":{')
        for t, name in enumerate(sides):
            pieces += [f'{"," if t else ""}"{name}":{{"points":'.encode(), points[t], b',"bags_added":', added[t], b"}"]
        pieces.append(b'},"totals":{')
        for t, name in enumerate(sides):
            pieces += [f'{"," if t else ""}"{name}":{{"score":'.encode(), points[t], b',"bags":', bags[t], b"}"]
        pieces += [b'},"game_status":', self._status(r), b"}\n"]
        return _assemble(pieces, (n,))

    @staticmethod
    def _sorted(masks: np.ndarray) -> np.ndarray:
        """(..., k) the card ids of each mask in ascending order (every mask holds k cards)."""
        bits = np.unpackbits(np.ascontiguousarray(masks, dtype="<i8").view(np.uint8), bitorder="little")
        return (np.flatnonzero(bits.view(bool)) & 63).reshape(*masks.shape, -1)

    def _cards(self, cards: np.ndarray) -> np.ndarray:
        """(..., width) a JSON list's items: the cards' names separated by commas."""
        names = np.ascontiguousarray(self.card[cards]).view(np.uint8)      # (..., 8 k)
        names[..., 0] = 0                              # no comma before the first
        return names

    def _tricks(self, r: BatchResult) -> np.ndarray:
        """(N, width) the tricks: leader, cards in play order, winner."""
        shape = r.leaders.shape
        plays = r.plays[:, :, :self.table.seats].astype(np.int64)
        tricks = _assemble([b',{"leader":', self.seat[r.leaders], b',"cards":[', self._cards(plays),
                            b'],"winner":', self.seat[r.winners], b"}"], shape)
        tricks[:, 0, 0] = 0
        return tricks.reshape(shape[0], -1)

    def _exchanges(self, r: BatchResult) -> list[np.ndarray]:
        """The exchanges as ``HandState`` makes them (the blind nils', then the nil passes', each in seat order),
        each ``{"from", "gave", "received"}`` (none: all NUL)."""
        slots = [(code, count, seat) for code, count in self.exchanges for seat in range(4)]
        present = np.stack([(r.gave[:, seat] != 0) & (r.bid_kind[:, seat] == code) for code, _, seat in slots], axis=1
                           ) if slots else np.zeros((len(r), 0), dtype=bool)
        if not present.any():
            return []
        earlier = np.cumsum(present, axis=1) - present
        out = []
        for i, (_, count, seat) in enumerate(slots):
            some = (1 << count) - 1          # stands in for the rows without this exchange
            gave, got = (self._sorted(np.where(present[:, i], m[:, seat], some)) for m in (r.gave, r.received))
            entry = _assemble([b',{"from":', self.seat[np.full(len(r), seat)], b',"gave":[', self._cards(gave),
                               b'],"received":[', self._cards(got), b"]}"], (len(r),))
            entry[:, 0] = np.where(earlier[:, i] > 0, entry[:, 0], 0)
            out.append(np.where(present[:, i, None], entry, 0).astype(np.uint8))
        return out

    def _kitty(self, r: BatchResult) -> list[Piece]:
        """The dealer's kitty as ``engine.play_hand`` records it (``{"dealer", "cards", "discarded"}``), where the
        variant deals one (none: no pieces)."""
        if not self.rs.params["deal.kitty"]:
            return []
        taken, discarded = (self._cards(self._sorted(r.kitty[:, k])) for k in (0, 1))
        return [b',"kitty":{"dealer":', self.seat[r.dealer], b',"cards":[', taken, b'],"discarded":[', discarded,
                b"]}"]

    def _draw(self, r: BatchResult) -> list[Piece]:
        """The drawn deal as ``engine.play_hand`` records it (``{"stock", "kept"}``: the stock in order, each
        turn's choice), where the hands are drawn (``deal.draw``; else no pieces)."""
        if not self.rs.params["deal.draw"]:
            return []
        kept = self.kept[r.drawn]
        kept[:, 0, 0] = 0                                # no comma before the first
        return [b',"draw":{"stock":[', self._cards(r.stock), b'],"kept":[', kept.reshape(len(r), -1), b"]}"]

    def _status(self, r: BatchResult) -> np.ndarray:
        """(N, width) ``game_status`` after each hand from 0-0: the end rules on arrays, the status's text
        from ``game_status`` once per distinct outcome (ended by the target, by another rule; the winner).
        Where the end rules read the game so far (a side's contract, made or set), each hand is scored
        once more by the scalar steps for it (``_history_status``)."""
        if any(self.rs.rules[name].names & _HISTORY for name in _END_RULES):
            return padded([self._history_status(r, i) for i in range(len(r))])
        if self.table is not C.FOUR:
            return padded([self._plain_status(r.points[i].tolist(), r.bags[i].tolist()) for i in range(len(r))])
        high, low = np.maximum(r.points[:, 0], r.points[:, 1]), np.minimum(r.points[:, 0], r.points[:, 1])
        high_side = np.where(r.points[:, 0] > r.points[:, 1], 0, np.where(r.points[:, 1] > r.points[:, 0], 1, -1))
        none = np.zeros(len(r), dtype=np.int64)
        args = ARGS["game"](ns_score=r.points[:, 0], ns_bags=r.bags[:, 0], ew_score=r.points[:, 1],
                            ew_bags=r.bags[:, 1], high_score=high, low_score=low, lead=high - low, hands=1,
                            high_side=high_side,
                            ns_contract=none, ew_contract=none, ns_made=none != 0, ew_made=none != 0, ns_sets=none,
                            ew_sets=none, ns_sets_in_a_row=none, ew_sets_in_a_row=none)
        reached, mercy, winner = (np.broadcast_to(self.fn[name](*args), (len(r),)).astype(np.int64)
                                  for name in ("game.target_reached", "game.mercy", "game.winner"))
        codes, first, where = np.unique((reached * 2 + mercy) * 8 + winner + 1, return_index=True, return_inverse=True)
        texts = []
        for code, i in zip(codes.tolist(), first.tolist()):
            if code not in self.statuses:
                status = game_status(self.rs, r.points[i].tolist(), r.bags[i].tolist(), 1)
                status.pop("explanation", None)
                status.pop("rule", None)
                self.statuses[code] = json.dumps(status, separators=(",", ":"))
            texts.append(self.statuses[code])
        return padded(texts)[where.reshape(-1)]

    def _plain_status(self, points: list[int], bags: list[int]) -> str:
        """A hand's ``game_status`` from its scores and bags alone (a table other than two partnerships: once
        per distinct outcome, by the scalar steps)."""
        key = (tuple(points), tuple(bags))
        if key not in self.plain:
            status = game_status(self.rs, points, bags, 1)
            status.pop("explanation", None)
            status.pop("rule", None)
            self.plain[key] = json.dumps(status, separators=(",", ":"))
        return self.plain[key]

    def _history_status(self, r: BatchResult, i: int) -> str:
        """Hand ``i``'s ``game_status`` as a game's first hand, its contracts and sets read from the scalar
        score of its bids, tricks and last trick."""
        size = len(r.winners[i])
        seats = self.table.seats
        bids = [Bid(str(KIND_NAME[k]), int(n)) for k, n in zip(r.bid_kind[i].tolist()[:seats], r.bid_n[i].tolist())]
        leader = int(r.leaders[i, size - 1])
        last = (int(r.winners[i, size - 1]), by_seat(r.plays[i, size - 1].tolist()[:seats], leader, seats))
        results = score_hand(self.rs, bids, r.tricks[i].tolist()[:seats], last_trick=last, explain=False)
        status = game_status(self.rs, r.points[i].tolist(), r.bags[i].tolist(), 1,
                             history=NO_HISTORY.after(results))
        status.pop("explanation", None)
        status.pop("rule", None)
        return json.dumps(status, separators=(",", ":"))


_END_RULES = ("game.target_reached", "game.mercy", "game.winner")
_HISTORY = frozenset(name for name in CONTEXTS["game"] if name.partition(".")[2] in
                     ("contract", "made", "sets", "sets_in_a_row"))
