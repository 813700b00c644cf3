"""The ``rulespec`` command line."""
from __future__ import annotations

import json
import sys
import time

import click

from .errors import RulesFileError, RulespecError


def fail(message: str, code: int = 2) -> None:
    click.echo(message, err=True)
    sys.exit(code)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Spades rules: encode, verify, and settle disputes with the clause that decides them."""


@main.command()
@click.argument("files", nargs=-1, required=True)
def check(files: tuple[str, ...]) -> None:
    """Compile variant FILES (paths or bundled ids); report every problem found."""
    from .ruleset import load_ruleset
    bad = 0
    for ref in files:
        try:
            rs = load_ruleset(ref)
        except RulesFileError as exc:
            bad += 1
            for problem in exc.problems:
                click.echo(problem.format(), err=True)
            click.echo(f"{ref}: {len(exc.problems)} problem(s)", err=True)
        except RulespecError as exc:
            bad += 1
            click.echo(f"{ref}: {exc}", err=True)
        else:
            own = sum(1 for r in rs.rules.values() if r.origin == rs.id)
            click.echo(f"{ref}: ok — variant '{rs.id}', {len(rs.rules)} rules "
                       f"({own} its own{', extends ' + ' < '.join(reversed(rs.chain[:-1])) if len(rs.chain) > 1 else ''})")
    sys.exit(1 if bad else 0)


@main.command()
@click.argument("variant")
@click.option("--python", "show_python", is_flag=True, help="Also print the generated Python of each rule.")
def show(variant: str, show_python: bool) -> None:
    """Print a variant's rules with their citations, marking inherited ones."""
    from .ruleset import load_ruleset
    try:
        rs = load_ruleset(variant)
    except RulespecError as exc:
        fail(str(exc))
    click.echo(f"{rs.id}: {rs.title}")
    click.echo(f"source: {rs.doc}   chain: {' > '.join(rs.chain)}")
    for name, rule in rs.rules.items():
        info = rule.citation(rs.id, rs.doc)
        mark = f"  [inherited from {rule.origin}]" if rule.origin != rs.id else ""
        cite = rule.cite or f"unspecified: {rule.unspecified}"
        click.echo(f"  {name} = {rule.text}{mark}")
        click.echo(f"      @ {cite}" + (f"  ({info['note']})" if "note" in info and rule.cite else ""))
        if show_python and rule.source:
            click.echo("      " + rule.source.strip().replace("\n", "\n      "))


@main.command(name="rules")
def list_rules() -> None:
    """List every rule name a variant can set, with its type and context names."""
    from .schema import CONTEXTS, SLOTS
    for slot in SLOTS.values():
        click.echo(f"{slot.name}  ({slot.type})  {slot.doc}")
        names = list(CONTEXTS[slot.context])
        if names:
            click.echo(f"      context: {', '.join(names)}")
        if slot.options:
            click.echo(f"      one of: {', '.join(slot.options)}")


@main.command()
@click.argument("variant")
@click.option("--hands", default=100, show_default=True, type=click.IntRange(1, 10_000_000))
@click.option("--seed", default="0", show_default=True, help="Seed: the same seed gives the same deals and play.")
@click.option("--policy", default="random", show_default=True, type=click.Choice(["random"]))
@click.option("--out", type=click.Path(dir_okay=False, writable=True), help="Write one JSON line per hand here.")
def simulate(variant: str, hands: int, seed: str, policy: str, out: str | None) -> None:
    """Play HANDS complete hands of VARIANT with seeded random legal bids and cards."""
    from .engine import simulate as run
    from .ruleset import load_ruleset
    try:
        rs = load_ruleset(variant)
    except RulespecError as exc:
        fail(str(exc))
    start = time.perf_counter()
    count = games = 0
    sink = open(out, "w", encoding="utf-8") if out else None
    try:
        for record in run(rs, hands, seed=seed, policy=policy):
            count += 1
            games += record["game_status"]["over"]
            if sink:
                sink.write(json.dumps(record, separators=(",", ":")) + "\n")
    except RulespecError as exc:
        fail(f"hand {count}: {exc}", 1)
    finally:
        if sink:
            sink.close()
    seconds = time.perf_counter() - start
    click.echo(f"{rs.id}: {count} hands, {games} games finished, {seconds:.2f} s, {count / seconds:.0f} hands/s"
               + (f"; wrote {out}" if out else ""))


if __name__ == "__main__":
    main()
