"""The conformance run: every deal (and every hand of whole games) in lockstep, findings tallied.

As in the differential run, work is split into fixed chunks of deal and game
indices, each a pure function of the configuration; chunks run in local worker
processes or on a Dask cluster and are merged in index order, so the tallies do
not depend on ``--jobs``.  Each worker rebuilds the variant and the engine from
their names (compiled rulesets and engine states cannot be pickled).
"""
from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from ...core import cards as C
from ...errors import EngineError, RulespecError
from ...game import seat_rule
from ...model.ruleset import Ruleset, load_ruleset
from ...model.variants import bundled_ids
from ..common import collect, on_cluster
from ..diff.attribution import shares
from ..diff.deals import Deal, seeded_deal
from ..diff.minimal import measure
from ..diff.replay import policy_for
from .lockstep import KINDS, STAGES, Lockstep, score_credit
from .engines import load_engine
from .protocol import Engine, engine_tables

SECTIONS = ("deals", "game_hands")


@dataclass(frozen=True)
class ConformConfig:
    """What to compare: an engine (a name ``engines.load_engine`` knows) with a variant (id or path)."""
    engine: str
    variant: str
    deals: int = 1000
    seed: str = "0"
    policies: tuple[str, ...] = ("random", "sensible")
    games: int = 0
    game_policy: str = "sensible"
    game_hands: int = 100
    chunk: int = 0                 # deals per work item; 0: from the number of deals


def plays(engine: Engine, rs: Ruleset) -> bool:
    """Whether ``engine`` plays ``rs``'s table (its seats and sides)."""
    table = C.table_of(rs.params)
    return (table.seats, table.partners) in engine_tables(engine)


def _tables_text(tables) -> str:
    return " or ".join(f"{seats} seats {'in partnerships' if partners else 'each alone'}"
                       for seats, partners in sorted(tables, reverse=True))


class Context:
    """The variant and the engine, rebuilt in each worker from the configuration."""

    def __init__(self, cfg: ConformConfig):
        self.cfg = cfg
        self.rs: Ruleset = load_ruleset(cfg.variant)
        self.engine: Engine = load_engine(cfg.engine)
        table = C.table_of(self.rs.params)
        if (table.seats, table.partners) not in engine_tables(self.engine):
            playable = [vid for vid in bundled_ids() if plays(self.engine, load_ruleset(vid))]
            raise EngineError(f"engine {self.engine.name!r} plays {_tables_text(engine_tables(self.engine))}; "
                              f"variant {self.rs.id!r} seats {table.seats} players "
                              f"{'in partnerships' if table.partners else 'each alone'}. "
                              f"The bundled variants it can play: {', '.join(playable) or 'none'}")
        self.zero: tuple[tuple[int, ...], tuple[int, ...]] = ((0,) * table.sides, (0,) * table.sides)
        self.fixed: list[Deal] | None = self.engine.fixed_deals()
        if self.fixed is not None and cfg.games:
            raise EngineError(f"engine {cfg.engine!r} replays its own recorded hands: it cannot play --games")

    @property
    def deal_count(self) -> int:
        return len(self.fixed) if self.fixed is not None else self.cfg.deals

    def deal(self, index: int) -> Deal:
        """Deal ``index``: the engine's own, else the seed's (its scores and bags before it 0 for every side)."""
        if self.fixed is not None:
            return self.fixed[index]
        return replace(seeded_deal(self.cfg.seed, index, self.rs), before=self.zero)


# --------------------------------------------------------------------------- tallies
def _section() -> dict:
    return {"n": 0, "stages": {s: {"hands": 0, "states": 0, "kinds": {
        k: {"hands": 0, "states": 0, "credit": {}, "first": None, "pending": []} for k in KINDS[s]}} for s in STAGES}}


def new_acc() -> dict:
    """Empty tallies: per section and stage, hands and states compared and differing; examples; errors;
    the score lines of teams scored alike (``cleared``) and, until ``settle``, the differing scores' lines."""
    return {"sections": {s: _section() for s in SECTIONS}, "examples": {}, "errors": {}, "cleared": set()}


def _add(into: dict, other: dict) -> None:
    for key, value in other.items():
        into[key] = into.get(key, 0) + value


def _better(kept: dict | None, cand: dict) -> dict:
    """The simpler of two example candidates (the diff's measure; the earlier one on a tie)."""
    if kept is None or measure(cand["kind"], cand["input"]) < measure(kept["kind"], kept["input"]):
        return cand
    return kept


def tally(acc: dict, section: str, hand: Lockstep, where: dict) -> None:
    """Add one compared hand."""
    sec = acc["sections"][section]
    sec["n"] += 1
    for stage, count in hand.states.items():
        sec["stages"][stage]["states"] += count
    hit_stages, hit_kinds = set(), set()
    for f in hand.findings:
        st = sec["stages"][f.stage]
        kind = st["kinds"][f.kind]
        kind["states"] += 1
        kind["first"] = kind["first"] or {**where, **f.note}
        hit_stages.add(f.stage)
        hit_kinds.add((f.stage, f.kind))
        example = None if f.example is None else {**f.example, "where": where}
        if f.lines is not None:       # credited by settle(), once every cleared line is known
            kind["pending"].append((f.lines, f.delta, example))
        else:
            _credit(acc, kind, f"{f.stage}|{f.kind}", f.rules, example)
    acc["cleared"] |= hand.cleared
    for stage in hit_stages:
        sec["stages"][stage]["hands"] += 1
    for stage, kind in hit_kinds:
        sec["stages"][stage]["kinds"][kind]["hands"] += 1


def _credit(acc: dict, kind: dict, key: str, rules: list[str], example: dict | None) -> None:
    _add(kind["credit"], shares(rules))
    if example is not None:
        for rule in rules:
            acc["examples"][f"{key}|{rule}"] = _better(acc["examples"].get(f"{key}|{rule}"), example)


def settle(acc: dict) -> None:
    """Credit the differing scores (in run order) once all the chunks are merged: see ``score_credit``."""
    for sec in acc["sections"].values():
        for stage, st in sec["stages"].items():
            for name, kind in st["kinds"].items():
                for lines, delta, example in kind["pending"]:
                    _credit(acc, kind, f"{stage}|{name}", score_credit(lines, delta, acc["cleared"]), example)
                kind["pending"] = []


def merge(acc: dict, part: dict) -> None:
    """Add ``part`` (a later chunk) into ``acc``."""
    for name, theirs in part["sections"].items():
        mine = acc["sections"][name]
        mine["n"] += theirs["n"]
        for stage, t in theirs["stages"].items():
            m = mine["stages"][stage]
            m["hands"] += t["hands"]
            m["states"] += t["states"]
            for kind, tk in t["kinds"].items():
                mk = m["kinds"][kind]
                mk["hands"] += tk["hands"]
                mk["states"] += tk["states"]
                _add(mk["credit"], tk["credit"])
                mk["pending"] += tk["pending"]
                mk["first"] = mk["first"] or tk["first"]
    for key, cand in part["examples"].items():
        acc["examples"][key] = _better(acc["examples"].get(key), cand)
    _add(acc["errors"], part["errors"])
    acc["cleared"] |= part["cleared"]


# --------------------------------------------------------------------------- chunks
def _compare(ctx: Context, acc: dict, section: str, deal: Deal, policy, where: dict,
             hands_played: int = 1) -> Lockstep | None:
    try:
        hand = Lockstep(ctx.rs, deal, ctx.engine.new_hand(deal), policy, hands_played).run()
    except RulespecError as exc:
        _add(acc["errors"], {str(exc): 1})
        return None
    tally(acc, section, hand, where)
    return hand


def run_deals(ctx: Context, start: int, stop: int) -> dict:
    """Deals ``start`` to ``stop``, once per player policy (a recorded engine's hands once, as recorded)."""
    acc = new_acc()
    policies = ctx.cfg.policies if ctx.fixed is None else ("recorded",)
    for index in range(start, stop):
        deal = ctx.deal(index)
        for name in policies:
            policy = None if ctx.fixed is not None else policy_for(name, ctx.cfg.seed, str(index))
            _compare(ctx, acc, "deals", deal, policy, {"deal": index, "policy": name})
    return acc


def run_games(ctx: Context, start: int, stop: int) -> dict:
    """Whole games: each hand starts both sides from the book's running scores and bags, until the book
    ends the game (or the hand limit)."""
    acc = new_acc()
    cfg = ctx.cfg
    for game in range(start, stop):
        before, dealer = ctx.zero, 0
        for h in range(cfg.game_hands):
            deal = replace(seeded_deal(f"{cfg.seed}:game{game}", h, ctx.rs), dealer=dealer, before=before)
            policy = policy_for(cfg.game_policy, cfg.seed, f"game{game}:{h}")
            hand = _compare(ctx, acc, "game_hands", deal, policy, {"game": game, "hand": h}, h + 1)
            if hand is None or hand.after is None or hand.over:
                break
            before, dealer = hand.after, seat_rule(ctx.rs, "deal.next_dealer", dealer)
    return acc


def work_items(cfg: ConformConfig, deal_count: int, workers: int = 1) -> list[tuple[str, int, int]]:
    """The chunks of deal and game indices (four per worker; one for a single worker)."""
    per = 4 * workers if workers > 1 else 1
    chunk = cfg.chunk or max(10, -(-deal_count // per))
    items = [("deals", s, min(deal_count, s + chunk)) for s in range(0, deal_count, chunk)]
    game_chunk = max(1, -(-cfg.games // per))
    items += [("games", s, min(cfg.games, s + game_chunk)) for s in range(0, cfg.games, game_chunk)]
    return items


# --------------------------------------------------------------------------- driver
_CTX: dict[ConformConfig, Context] = {}    # per process: the context of each configuration


def _context(cfg: ConformConfig) -> Context:
    ctx = _CTX.get(cfg)
    if ctx is None:
        ctx = _CTX[cfg] = Context(cfg)
    return ctx


def work(item: tuple[str, int, int], cfg: ConformConfig) -> dict:
    """One chunk's tallies (in any process)."""
    kind, start, stop = item
    return (run_deals if kind == "deals" else run_games)(_context(cfg), start, stop)


_LOCAL_CFG: ConformConfig | None = None    # in a local worker: the run's configuration


def _init(cfg: ConformConfig) -> None:
    global _LOCAL_CFG
    _LOCAL_CFG = cfg


def _work_local(item: tuple[str, int, int]) -> dict:
    return work(item, _LOCAL_CFG)


def _on_cluster(cfg: ConformConfig, items: list, scheduler: str, timeout: float) -> Iterator[dict]:
    return on_cluster(work, items, cfg, scheduler, timeout, EngineError)


def run(cfg: ConformConfig, jobs: int | None = None, progress=None, scheduler: str | None = None,
        connect_timeout: float = 30.0) -> tuple[Context, dict]:
    """Run the comparison; ``progress(n)`` is called as chunks finish.  Returns the context and the tallies."""
    ctx = _context(cfg)
    jobs = jobs or os.cpu_count() or 1
    items = work_items(cfg, ctx.deal_count, jobs)
    acc = new_acc()
    pool = None
    parts: Iterable[dict]
    if scheduler:
        parts = _on_cluster(cfg, items, scheduler, connect_timeout)
    elif jobs <= 1 or len(items) <= 1:
        parts = (work(item, cfg) for item in items)
    else:
        method = "spawn" if os.name == "nt" else "fork"     # forked workers inherit the context built above
        pool = multiprocessing.get_context(method).Pool(jobs, initializer=_init, initargs=(cfg,))
        parts = pool.imap(_work_local, items)
    collect(parts, acc, merge, progress, pool)
    settle(acc)
    return ctx, acc
