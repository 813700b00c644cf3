"""What ``rulespec simulate`` plays, and what a house-rule designer reads from it.

Two ways to play, chosen by what the output needs:

- **hands** (``batch_hands``): independent hands, each from 0-0, on the batch
  engine, in chunks of ``CHUNK``; chunk ``i`` of seed ``s`` is dealt and played
  from a numpy generator seeded with a hash of ``(s, i)`` and dealt by seat
  ``i % 4``, so the same seed gives the same hands on every run and machine;
  their hand records, when asked for, are written from the arrays
  (``fast.hand_records``);
- **games** (``game_hands``): hands played in sequence on the scalar engine, the
  scores carried from hand to hand (``engine.simulate``), as full hand records.

``Tally`` collects, from either, per team: mean points per hand, set rate, nil and
blind-nil success rates and bag-penalty rate; from games, also hands per game and
how games end.
"""
from __future__ import annotations

import functools
import hashlib
import random
import statistics
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

import numpy as np

from ..core import cards as C
from ..game import BLIND, BLIND_NIL, NIL, REGULAR, Bid, team_contract
from ..game import simulate as play_games
from ..model.ruleset import Ruleset
from .progress import Progress

CHUNK = 8192
GAME_LIMIT = 500      # hands after which a game is abandoned as unfinished
KINDS = {REGULAR: 0, NIL: 1, BLIND_NIL: 2, BLIND: 3}   # the batch engine's bid kind codes
@dataclass
class HandArrays:
    """One row per hand: bid kind codes and tricks by seat (N, 4), the team's contract (0: none),
    points and whether a bag penalty was applied, by team (N, 2)."""
    kind: np.ndarray
    tricks: np.ndarray
    contract: np.ndarray
    points: np.ndarray
    penalty: np.ndarray


def chunk_seed(seed: str, index: int) -> int:
    """The generator seed of chunk ``index`` of ``seed`` (the same on every machine)."""
    return int.from_bytes(hashlib.sha256(f"simulate:{seed}:{index}".encode()).digest()[:8], "little")


def _contracts(rs: Ruleset, kind: np.ndarray, num: np.ndarray) -> np.ndarray:
    """Each side's contract from 0-0, by rule ``bid.team_contract`` once per distinct pair of bids (a player's
    own bid where each plays alone)."""
    names = {code: name for name, code in KINDS.items()}
    table = C.table_of(rs.params)
    if not table.partners:
        return _own_contracts(rs, table, kind, num, names)
    out = np.zeros((len(kind), table.sides), dtype=np.int64)
    for team in range(table.sides):
        other = table.members(team)[1]
        # one integer per pair of bids (kind < 8, n < 64): unique on a 1-D array, not on rows
        keys = ((kind[:, team] * 64 + num[:, team]) * 8 + kind[:, other]) * 64 + num[:, other]
        distinct, where = np.unique(keys, return_inverse=True)
        values = np.array([team_contract(rs, [Bid(names[k // 32768], k // 512 % 64), Bid(names[k // 64 % 8], k % 64)])
                           for k in distinct.tolist()], dtype=np.int64)
        out[:, team] = values[where.reshape(-1)]
    return out


def _own_contracts(rs: Ruleset, table: C.Table, kind: np.ndarray, num: np.ndarray, names: dict) -> np.ndarray:
    """Each player's contract where each plays alone (rule ``bid.team_contract`` of the one bid)."""
    out = np.zeros((len(kind), table.sides), dtype=np.int64)
    for seat in range(table.seats):
        keys = kind[:, seat] * 64 + num[:, seat]
        distinct, where = np.unique(keys, return_inverse=True)
        values = np.array([team_contract(rs, [Bid(names[k // 64], k % 64), None], team=seat)
                           for k in distinct.tolist()], dtype=np.int64)
        out[:, seat] = values[where.reshape(-1)]
    return out


@dataclass(frozen=True)
class Played:
    """Which players produced a simulation, and on which engine (every report and ``--stats`` says it)."""
    policy: str
    samples: int | None = None       # the sampled player's deals per card
    engine: str = "batch"

    def words(self) -> str:
        samples = f" ({self.samples} samples a card)" if self.samples else ""
        return f"{self.policy} players{samples} on the {self.engine} engine"

    def as_dict(self) -> dict:
        out: dict = {"policy": self.policy, "engine": self.engine}
        if self.samples:
            out["samples"] = self.samples
        return out


FAST_POLICIES = ("random", "sensible")        # the players the batch and compiled engines have
POLICIES = (*FAST_POLICIES, "sampled")        # and the scalar engine's sampled player


def players(policy: str, samples: int = 8) -> Callable[[random.Random], object]:
    """The maker of ``policy``'s players (``POLICIES``) for the scalar engine, from a seeded generator."""
    if policy == "sampled":
        from ..solve.sampled import SampledPolicy
        return functools.partial(SampledPolicy, samples=samples)
    from ..game.policies import POLICIES as SCALAR
    return SCALAR[policy]


def batch_hands(rs: Ruleset, hands: int, seed: str, out: BinaryIO | None = None,
                engine: str = "batch", progress: Progress | None = None,
                policy: str = "random") -> Iterator[HandArrays]:
    """``hands`` independent hands from 0-0 on the batch engine (or with ``engine="compiled"``, the
    compiled scalar engine: the same chunks and records, other draws), played by ``policy``'s players
    (``FAST_POLICIES``), as one ``HandArrays`` per chunk; with ``out``, their hand records written there as
    JSON lines (hand ``i`` numbered ``i``, its own game); ``progress`` is told of the compiling and of the
    hands played."""
    from ..fast.hand_records import RecordWriter
    if engine == "compiled":
        player = _compiled_engine(rs, progress, policy)

        def play(count: int, seed: int, dealer: int):
            return player.play(count, seed=seed, dealer=dealer)
    else:
        from ..fast.batch import BatchEngine
        batch = BatchEngine(rs)

        def play(count: int, seed: int, dealer: int):
            return batch.play(count, seed=seed, policy=policy, dealer=dealer)
    writer = RecordWriter(rs, seed, policy) if out is not None else None
    for index, start in enumerate(range(0, hands, CHUNK)):
        result = play(min(CHUNK, hands - start), chunk_seed(seed, index), index % rs.params["table.seats"])
        if writer is not None:
            writer.write(result, start, out)
        if progress:
            progress("hands played", start + len(result.points), hands)
        yield HandArrays(result.bid_kind, result.tricks, _contracts(rs, result.bid_kind, result.bid_n),
                         result.points, result.bags != result.bags_added)


def _compiled_engine(rs: Ruleset, progress: Progress | None, policy: str = "random"):
    """``rs``'s compiled scalar engine for ``policy``'s players, its machine code made or loaded before the first
    chunk (``fast.compiled.hand_module``), the compiling told to ``progress``."""
    from ..core import jit
    from ..fast.compiled import CompiledEngine
    from ..fast.native_hand import source
    text = source(rs, policy)
    fresh = not jit.compiled("hand", text)
    if progress:
        progress(f"compiling {rs.id} to machine code (once; cached after)" if fresh
                 else f"loading {rs.id}'s machine code (compiled before)", 0, 0)
    player = CompiledEngine(rs, policy)
    if fresh:
        jit.mark_compiled("hand", text)
    return player


def game_hands(rs: Ruleset, hands: int | None, games: int | None, seed: str,
               progress: Progress | None = None, policy: str = "random", samples: int = 8,
               single: bool = False) -> Iterator[dict]:
    """Raw hand records (``engine.simulate(raw=True)``) of ``hands`` hands, or of the hands of
    ``games`` games (each abandoned after ``GAME_LIMIT`` hands), played by ``policy``'s players (``POLICIES``;
    ``samples``: the sampled player's); with ``single``, each of the ``hands`` hands its own game from 0-0.
    ``progress`` is told of the games (or the hands) played."""
    limit = hands if games is None else games * GAME_LIMIT
    done = 0
    game_limit = 1 if single else GAME_LIMIT if games else 0
    for index, record in enumerate(play_games(rs, limit, seed=seed, policy=players(policy, samples),
                                              game_limit=game_limit, raw=True)):
        if single:      # (each hand a game of its own, as the batch engine's records)
            record["game_status"].pop("unfinished", None)
        yield record
        status = record["game_status"]
        ended = bool(status["over"] or status.get("unfinished"))
        done += ended
        if progress and ended and games is not None:
            progress("games played", done, games)
        elif progress and games is None:
            progress("hands played", index + 1, limit)
        if games is not None and done >= games:
            return


def record_arrays(records: list[dict], previous: dict | None = None) -> HandArrays:
    """``HandArrays`` of raw hand records (``engine.simulate(raw=True)``) in order; ``previous`` is the
    record played before the first (its game's bags carry over)."""
    seats = len(records[0]["_bids"]) if records else 4
    sides = len(records[0]["_results"]) if records else 2
    kind = np.array([[KINDS[b.kind] for b in r["_bids"]] for r in records], dtype=np.int64).reshape(-1, seats)
    tricks = np.array([r["_won"] for r in records], dtype=np.int64).reshape(-1, seats)
    contract = np.array([[t.contract for t in r["_results"]] for r in records], dtype=np.int64).reshape(-1, sides)
    points = np.array([[t.points for t in r["_results"]] for r in records], dtype=np.int64).reshape(-1, sides)
    penalty = np.zeros((len(records), sides), dtype=bool)
    for i, r in enumerate(records):
        same_game = previous is not None and previous["game"] == r["game"]
        before = [t.bags for t in previous["_results"]] if same_game else [0] * sides
        penalty[i] = [t.bags != b + t.bags_added for t, b in zip(r["_results"], before)]
        previous = r
    return HandArrays(kind, tricks, contract, points, penalty)


@dataclass
class Tally:
    """Counts per side (index 0 NS, 1 EW; or each player where there are no partners: ``table``) over every hand
    added, and per game."""
    nil_tricks_count: bool
    table: C.Table = C.FOUR
    hands: int = 0
    points: np.ndarray = field(init=False)
    contracts: np.ndarray = field(init=False)
    sets: np.ndarray = field(init=False)
    nils: np.ndarray = field(init=False)        # [side, nil|blind nil]
    nils_made: np.ndarray = field(init=False)
    penalties: np.ndarray = field(init=False)
    game_lengths: list[int] = field(default_factory=list)
    endings: dict[str, int] = field(default_factory=lambda: {"target": 0, "mercy": 0, "floor": 0})
    unfinished: int = 0
    in_game: int = 0      # hands so far of the game being played

    def __post_init__(self) -> None:
        sides = self.table.sides
        self.points, self.contracts, self.sets, self.penalties = (np.zeros(sides, dtype=np.int64) for _ in range(4))
        self.nils, self.nils_made = np.zeros((sides, 2), dtype=np.int64), np.zeros((sides, 2), dtype=np.int64)

    def add(self, h: HandArrays) -> None:
        """Count the hands of ``h``."""
        sides = self.table.sides
        self.hands += len(h.points)
        self.points += h.points.sum(axis=0)
        self.penalties += h.penalty.sum(axis=0)
        for team in range(sides):
            members = list(self.table.members(team))
            kinds, tricks = h.kind[:, members], h.tricks[:, members]
            is_nil = (kinds == 1) | (kinds == 2)
            toward = np.where(is_nil & ~np.bool_(self.nil_tricks_count), 0, tricks).sum(axis=1)
            has = h.contract[:, team] > 0
            self.contracts[team] += has.sum()
            self.sets[team] += (has & (toward < h.contract[:, team])).sum()
            for j, code in enumerate((1, 2)):
                self.nils[team, j] += (kinds == code).sum()
                self.nils_made[team, j] += ((kinds == code) & (tricks == 0)).sum()

    def add_game_ends(self, rs: Ruleset, records: Iterable[dict]) -> None:
        """Count the games that end (or are abandoned) in ``records``: their length and how they ended."""
        floor = "low.score" in rs.rules["game.mercy"].names
        for r in records:
            self.in_game += 1
            status = r["game_status"]
            if status.get("unfinished"):
                self.unfinished += 1
            elif status["over"]:
                self.game_lengths.append(self.in_game)
                reason = "target" if status["reason"] == "target reached" else "floor" if floor else "mercy"
                self.endings[reason] += 1
            else:
                continue
            self.in_game = 0

    def report(self) -> dict:
        """The statistics, as JSON-ready numbers (None where nothing was counted)."""
        def rate(part, whole) -> float | None:
            return round(float(part) / float(whole), 4) if whole else None
        names = self.table.side_names
        teams = {names[t]: {
            "mean_points": rate(self.points[t], self.hands),
            "set_rate": rate(self.sets[t], self.contracts[t]),
            "nil_bids": int(self.nils[t, 0]), "nil_success": rate(self.nils_made[t, 0], self.nils[t, 0]),
            "blind_nil_bids": int(self.nils[t, 1]),
            "blind_nil_success": rate(self.nils_made[t, 1], self.nils[t, 1]),
            "bag_penalty_rate": rate(self.penalties[t], self.hands),
        } for t in range(self.table.sides)}
        out: dict = {"hands": self.hands, "teams": teams}
        if self.game_lengths or self.unfinished:
            lengths = sorted(self.game_lengths)
            out["games"] = {
                "finished": len(lengths), "unfinished": self.unfinished, "ended_by": dict(self.endings),
                "hands_per_game": _spread(lengths),
            }
        return out


def stats_text(report: dict, what: str) -> str:
    """``Tally.report`` as a text table."""
    def show(value, percent: bool = False) -> str:
        return "-" if value is None else f"{value:.1%}" if percent else str(value)
    sides = list(report["teams"])
    rows = [("", *sides)]
    labels = {"mean_points": "mean points per hand", "set_rate": "set rate (of hands with a contract)",
              "nil_bids": "nil bids", "nil_success": "nil success", "blind_nil_bids": "blind nil bids",
              "blind_nil_success": "blind nil success", "bag_penalty_rate": "bag penalty rate (of hands)"}
    for key, label in labels.items():
        values = [report["teams"][side][key] for side in sides]
        rows.append((label, *(f"{v:.2f}" if key == "mean_points" and v is not None
                              else show(v, key.endswith("_rate") or key.endswith("_success")) for v in values)))
    width = max(len(r[0]) for r in rows)
    lines = [f"{report['hands']} {what}"] + ["  ".join([row[0].ljust(width), *(f"{v:>8}" for v in row[1:])])
                                             for row in rows]
    games = report.get("games")
    if games:
        per = {key: show(value) for key, value in games["hands_per_game"].items()}
        lines += [f"games: {games['finished']} finished, {games['unfinished']} unfinished (abandoned after "
                  f"{GAME_LIMIT} hands)",
                  "ended by: " + ", ".join(f"{k} {v}" for k, v in games["ended_by"].items()),
                  f"hands per game: mean {per['mean']}, median {per['median']}, p95 {per['p95']}"]
    return "\n".join(lines)


def _spread(lengths: list[int]) -> dict:
    """Mean, median and 95th percentile of the (sorted) game lengths; None each when there are none."""
    if not lengths:
        return {"mean": None, "median": None, "p95": None}
    return {"mean": round(statistics.fmean(lengths), 2), "median": statistics.median(lengths),
            "p95": lengths[min(len(lengths) - 1, int(0.95 * len(lengths)))]}
