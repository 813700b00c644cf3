"""Scale-out: a differential run's work items on a Dask distributed cluster.

The work items are the same fixed chunks of deal and game indices as a local
run, each a pure function of the configuration, and their tallies are merged
in index order, so a run on a cluster gives the same report as a local run
with the same seed.  Dask is optional: ``pip install -e '.[dask]'``.
"""
from __future__ import annotations

from collections.abc import Iterator

from ...errors import DiffError
from ..common import on_cluster
from .deal_runs import Context, DiffConfig, run_deals, run_games

_CONTEXTS: dict[DiffConfig, Context] = {}   # per worker process: variants compiled once per configuration


def _work(item: tuple[str, int, int], cfg: DiffConfig) -> dict:
    ctx = _CONTEXTS.get(cfg)
    if ctx is None:
        ctx = _CONTEXTS[cfg] = Context(cfg)
    kind, start, stop = item
    return (run_deals if kind == "deals" else run_games)(ctx, start, stop)


def run_on_cluster(cfg: DiffConfig, items: list[tuple[str, int, int]], scheduler: str,
                   timeout: float = 30.0) -> Iterator[dict]:
    """Each item's tallies, in item order, computed on the cluster at ``scheduler`` (``tcp://host:port``)."""
    return on_cluster(_work, items, cfg, scheduler, timeout, DiffError)
