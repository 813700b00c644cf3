"""Differential testing of variants: replay identical deals under each and report where and why they disagree."""
from __future__ import annotations

from pathlib import Path

from ..common import write_report as write_files
from . import html, report
from ...errors import DiffError
from .driver import run
from .deal_runs import DiffConfig


def diff(cfg: DiffConfig, jobs: int | None = None, progress=None, scheduler: str | None = None,
         connect_timeout: float = 30.0) -> dict:
    """Run the comparison (locally, or on the Dask cluster at ``scheduler``) and return the report dictionary."""
    ctx, acc = run(cfg, jobs, progress, scheduler, connect_timeout)
    return report.build(cfg, ctx, acc)


def write_report(rep: dict, out: str | Path) -> list[Path]:
    """Write report.json, report.md and report.html into ``out``."""
    return write_files(rep, out, report.markdown, html.render)


__all__ = ["DiffConfig", "DiffError", "diff", "write_report"]
