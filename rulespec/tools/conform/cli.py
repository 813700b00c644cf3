"""``rulespec conform``: check another Spades engine against a variant, state by state, and write the reports."""
from __future__ import annotations

import os
import sys

import click


@click.command(name="conform")
@click.argument("engine")
@click.option("--variant", required=True, help="The rule book: a bundled variant id or a variant file.")
@click.option("--deals", default=1000, show_default=True, type=click.IntRange(0, 10_000_000),
              help="Deals generated from --seed (a recorded engine plays its own hands).")
@click.option("--seed", default="0", show_default=True, help="Deal i of a seed is the same cards in every run.")
@click.option("--policy", "policies", default="random,sensible", show_default=True,
              help="Comma-separated players choosing the moves both sides allow (random, sensible).")
@click.option("--games", default=0, show_default=True, type=click.IntRange(0, 1_000_000),
              help="Whole games (running scores and bags carried from hand to hand).")
@click.option("--game-policy", default="sensible", show_default=True, type=click.Choice(["random", "sensible"]))
@click.option("--game-hands", default=100, show_default=True, type=click.IntRange(1, 10_000),
              help="A game still running after this many hands stops there.")
@click.option("--jobs", "-j", default=0, type=click.IntRange(0, 1024), help="Worker processes (default: all cores).")
@click.option("--scheduler", metavar="ADDRESS",
              help="Run on a Dask distributed cluster (needs the 'dask' extra); the report is the same.")
@click.option("--scheduler-timeout", default=30.0, show_default=True, type=click.FloatRange(0.1, 3600),
              help="Seconds to wait for the Dask scheduler.")
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Folder for report.md/.html/.json.")
def conform(engine, variant, deals, seed, policies, games, game_policy, game_hands, jobs, scheduler,
            scheduler_timeout, out) -> None:
    """Check ENGINE (openspiel, a recorded .jsonl file, or module:factory) against a variant, state by state."""
    from ...errors import RulespecError
    from ...game.policies import POLICIES
    from . import ConformConfig, conform as run_conform, write_report
    chosen = tuple(p.strip() for p in policies.split(",") if p.strip())
    unknown = [p for p in chosen if p not in POLICIES]
    if unknown or not chosen:
        raise click.BadParameter(f"unknown policy {', '.join(unknown) or '(none)'}; known: {', '.join(POLICIES)}",
                                 param_hint="--policy")
    cfg = ConformConfig(engine, variant, deals=deals, seed=seed, policies=chosen, games=games,
                        game_policy=game_policy, game_hands=game_hands)
    workers = jobs or os.cpu_count() or 1
    try:
        report = run_conform(cfg, workers, scheduler=scheduler, connect_timeout=scheduler_timeout)
        files = write_report(report, out)
    except RulespecError as exc:
        click.echo(f"rulespec conform: {exc}", err=True)
        sys.exit(2)
    click.echo(f"{report['config']['engine_name']} vs {report['config']['variant']['id']}: {_verdict(report)}; wrote "
               + ", ".join(str(f) for f in files))


def _verdict(report: dict) -> str:
    """The command's one-line verdict, with what of the variant the engine cannot play."""
    if report["conforms"]:
        verdict = "conforms on every compared point"
    elif report["differing"]:
        verdict = "differs on " + ", ".join(report["differing"])
    else:
        verdict = "has hands that could not be compared"
        cannot = [error for error in report.get("errors", {}) if "cannot play it" in error]
        if cannot:
            verdict += ": " + cannot[0]
    if report.get("withheld"):
        verdict += (" (played without " + " or ".join(f"{w['bid']} bids" for w in report["withheld"])
                    + ": the engine has no exchange step)")
    return verdict
