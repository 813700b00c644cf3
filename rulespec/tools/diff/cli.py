"""``rulespec diff``: compare variants on identical deals and write the reports."""
from __future__ import annotations

import os
import sys

import click


@click.command(name="diff")
@click.argument("variants", nargs=-1)
@click.option("--all", "all_bundled", is_flag=True, help="Compare every bundled variant pairwise.")
@click.option("--deals", default=1000, show_default=True, type=click.IntRange(0, 10_000_000),
              help="Deals generated from --seed (ignored with --deals-file).")
@click.option("--deals-file", type=click.Path(exists=True, dir_okay=False),
              help="JSON Lines deals to replay (see docs/deals-format.md).")
@click.option("--seed", default="0", show_default=True, help="Deal i of a seed is the same cards in every run.")
@click.option("--games", default=0, show_default=True, type=click.IntRange(0, 1_000_000),
              help="Whole games to play under each variant.")
@click.option("--policy", "policies", default="random,sensible", show_default=True,
              help="Comma-separated players for the replayed deals (random, sensible).")
@click.option("--game-policy", default="sensible", show_default=True, type=click.Choice(["random", "sensible"]))
@click.option("--game-hands", default=100, show_default=True, type=click.IntRange(1, 10_000),
              help="A game still running after this many hands counts as unfinished.")
@click.option("--attribute", default=500, show_default=True, type=click.IntRange(0, 10_000_000),
              help="Attribute causes by rule swaps on deals below this index (and games below a tenth of it).")
@click.option("--jobs", "-j", default=0, type=click.IntRange(0, 1024), help="Worker processes (default: all cores).")
@click.option("--scheduler", metavar="ADDRESS",
              help="Run on a Dask distributed cluster (e.g. tcp://10.0.0.5:8786; needs the 'dask' extra). "
                   "The report is the same as a local run with the same seed.")
@click.option("--scheduler-timeout", default=30.0, show_default=True, type=click.FloatRange(0.1, 3600),
              help="Seconds to wait for the Dask scheduler.")
@click.option("--double-dummy", "double_dummy", default=0, show_default=True, type=click.IntRange(0, 100_000),
              help="Also solve this many seeded deals double dummy under each variant (--dd-cards cards "
                   "of each hand, from trick 1) and attribute the differences.")
@click.option("--dd-cards", default=5, show_default=True, type=click.IntRange(1, 13),
              help="Cards per seat in the double-dummy stage's deals.")
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Folder for report.md/.html/.json.")
def diff(variants, all_bundled, deals, deals_file, seed, games, policies, game_policy, game_hands, attribute,
         jobs, scheduler, scheduler_timeout, double_dummy, dd_cards, out) -> None:
    """Replay identical deals under VARIANTS (ids or paths) and report where and why they disagree."""
    from ...errors import RulespecError
    from ...game.policies import POLICIES
    from ...model.variants import bundled_ids
    from . import DiffConfig, diff as run_diff, write_report
    refs = tuple(bundled_ids()) if all_bundled else tuple(variants)
    chosen = tuple(p.strip() for p in policies.split(",") if p.strip())
    unknown = [p for p in chosen if p not in POLICIES]
    if unknown or not chosen:
        raise click.BadParameter(f"unknown policy {', '.join(unknown) or '(none)'}; known: {', '.join(POLICIES)}",
                                 param_hint="--policy")
    cfg = DiffConfig(refs, deals=deals, seed=seed, games=games, policies=chosen, game_policy=game_policy,
                     deals_file=deals_file, attribute=attribute, game_hands=game_hands)
    workers = jobs or os.cpu_count() or 1
    try:
        if sys.stderr.isatty():
            from .driver import work_items
            from .deal_runs import Context
            total = len(work_items(cfg, deals if not deals_file else len(Context(cfg).file_deals), workers))
            with click.progressbar(length=total, label="comparing", file=sys.stderr) as bar:
                report = run_diff(cfg, workers, bar.update, scheduler, scheduler_timeout)
        else:
            report = run_diff(cfg, workers, scheduler=scheduler, connect_timeout=scheduler_timeout)
        from . import doubledummy
        doubledummy.attach(report, refs, seed, double_dummy, dd_cards)
        files = write_report(report, out)
    except RulespecError as exc:
        click.echo(f"rulespec diff: {exc}", err=True)
        sys.exit(2)
    click.echo(f"compared {len(refs)} variants ({len(report['pairs'])} pairs); wrote "
               + ", ".join(str(f) for f in files))
