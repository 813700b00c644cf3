"""The differential run's driver: split it into chunks and run them here, in local worker
processes or on a Dask cluster, merging their tallies in chunk order."""
from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import os

from ...errors import DiffError
from ..common import collect
from .cluster import run_on_cluster
from .deal_runs import Context, DiffConfig, merge, new_acc, run_deals, run_games

_CTX: Context | None = None


def _warm_swaps(ctx: Context) -> None:
    """Compile every single-rule swap the attribution may ask for (one that does not compile is kept as
    None: that rule alone explains nothing)."""
    for i, j in ctx.pairs:
        for rule in ctx.rules[(i, j)]:
            ctx.swapped(i, j, rule)


def _init(cfg: DiffConfig) -> None:
    global _CTX
    _CTX = Context(cfg)


def _work(item: tuple[str, int, int]) -> dict:
    kind, start, stop = item
    return (run_deals if kind == "deals" else run_games)(_CTX, start, stop)


def work_items(cfg: DiffConfig, deal_count: int, workers: int = 1) -> list[tuple[str, int, int]]:
    """The chunks of deal and game indices.  By default four chunks per worker (one for a single worker),
    of 20 to 400 deals: large enough for the batch replay to pay off, small enough that no worker is
    left with a long last chunk.  (Chunks never change the result: they are merged in index order.)"""
    per_worker = 4 if workers > 1 else 1
    chunk = cfg.chunk or min(400, max(20, deal_count // (per_worker * workers)))
    items = [("deals", s, min(deal_count, s + chunk)) for s in range(0, deal_count, chunk)]
    game_chunk = max(1, chunk // 10)
    items += [("games", s, min(cfg.games, s + game_chunk)) for s in range(0, cfg.games, game_chunk)]
    return items


def _checked_context(cfg: DiffConfig) -> Context:
    """The run's context, once the variants named are known to be at least two, all different."""
    if len(cfg.refs) < 2:
        raise DiffError("name at least two variants to compare")
    if len(set(cfg.refs)) != len(cfg.refs):
        raise DiffError("a variant is named twice")
    ctx = Context(cfg)
    if len(set(ctx.ids)) != len(ctx.ids):
        raise DiffError(f"two of the variants have the same id: {', '.join(ctx.ids)}")
    return ctx


def _local_pool(ctx: Context, jobs: int) -> multiprocessing.pool.Pool:
    """``jobs`` local worker processes, each with the run's context."""
    global _CTX
    method = "spawn" if os.name == "nt" else "fork"
    if method == "fork":   # workers inherit the context, with every ablation compiled once here
        if ctx.cfg.attribute:
            _warm_swaps(ctx)
        _CTX = ctx
        return multiprocessing.get_context(method).Pool(jobs)
    return multiprocessing.get_context(method).Pool(jobs, initializer=_init, initargs=(ctx.cfg,))


def run(cfg: DiffConfig, jobs: int | None = None, progress=None, scheduler: str | None = None,
        connect_timeout: float = 30.0) -> tuple[Context, dict]:
    """Run the comparison; ``progress(n)`` is called as chunks finish.  Returns the context and tallies.
    With ``scheduler`` (a Dask address) the chunks run on that cluster instead of local processes."""
    global _CTX
    ctx = _checked_context(cfg)
    deal_count = len(ctx.file_deals) if ctx.file_deals is not None else cfg.deals
    jobs = jobs or os.cpu_count() or 1
    items = work_items(cfg, deal_count, jobs)
    acc = new_acc(ctx)
    pool = None
    if scheduler:
        parts = run_on_cluster(cfg, items, scheduler, connect_timeout)
    elif jobs <= 1 or len(items) <= 1:
        _CTX = ctx
        parts = map(_work, items)
    else:
        pool = _local_pool(ctx, jobs)
        parts = pool.imap(_work, items)
    collect(parts, acc, merge, progress, pool)
    return ctx, acc
