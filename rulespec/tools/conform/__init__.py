"""Conformance: drive another Spades engine and a variant in lockstep and report where they differ.

``protocol`` (the adapter protocol), ``engines`` (``load_engine``: an engine by name),
``openspiel`` (the OpenSpiel adapter, with the ``bench`` extra), ``recorded`` (an engine's
recorded hands), ``lockstep``
(one hand compared at every state), ``runner`` (chunks, workers, tallies), ``report`` and
``html`` (the report forms).  See ``docs/conformance.md``.
"""
from __future__ import annotations

from pathlib import Path

from ..common import write_report as write_files
from . import html, report
from .run import ConformConfig, run


def conform(cfg: ConformConfig, jobs: int | None = None, progress=None, scheduler: str | None = None,
            connect_timeout: float = 30.0) -> dict:
    """Run the comparison (locally, or on the Dask cluster at ``scheduler``) and return the report dictionary."""
    ctx, acc = run(cfg, jobs, progress, scheduler, connect_timeout)
    return report.build(cfg, ctx, acc)


def write_report(rep: dict, out: str | Path) -> list[Path]:
    """Write report.json, report.md and report.html into ``out``."""
    return write_files(rep, out, report.markdown, html.render)


__all__ = ["ConformConfig", "conform", "write_report"]
