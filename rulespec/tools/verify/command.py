"""The ``rulespec verify`` command (registered in ``rulespec.cli``)."""
from __future__ import annotations

import sys
from pathlib import Path

import click


@click.command(name="verify")
@click.argument("variants", nargs=-1, required=True)
@click.option("--hands", default=300, show_default=True, type=click.IntRange(1, 1_000_000),
              help="Random hands to play (games in sequence).")
@click.option("--examples", default=150, show_default=True, type=click.IntRange(0, 100_000),
              help="Hypothesis-generated hands (also the shrinking budget per problem); 0 skips them.")
@click.option("--endgame-tricks", default=3, show_default=True, type=click.IntRange(0, 4),
              help="Search every line of play in the last N tricks of recorded hands.")
@click.option("--endgame-roots", default=10, show_default=True, type=click.IntRange(0, 10_000),
              help="How many recorded hands' endgames to search exhaustively.")
@click.option("--max-game-hands", default=200, show_default=True, type=click.IntRange(1, 100_000),
              help="A random game still running after this many hands counts as unfinished.")
@click.option("--bidding-states", default=20_000, show_default=True, type=click.IntRange(1, 10_000_000),
              help="States the exhaustive search of the bid sequences may visit (where no bid rule reads the "
                   "cards).")
@click.option("--seed", default="0", show_default=True)
@click.option("--out", "out_dir", type=click.Path(file_okay=False),
              help="Write NAME.md, NAME.html, NAME.json here (and index.html, all documents side by side).")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON record instead of the Markdown report.")
@click.option("--strict", is_flag=True, help="Exit 1 when any dead end or conflict is found.")
def verify(variants: tuple[str, ...], hands: int, examples: int, endgame_tricks: int, endgame_roots: int,
           max_game_hands: int, bidding_states: int, seed: str, out_dir: str | None, as_json: bool,
           strict: bool) -> None:
    """Verify rules documents against themselves: dead ends, conflicts, endless
    games, dead rules, open points and the documents' own claims."""
    from ...app.progress import terminal_progress
    from ...errors import RulespecError
    from ...model.ruleset import load_ruleset
    from .report import index_html, markdown, to_html, to_json
    from .run import verify as run
    from .states import Budget
    try:
        budget = Budget(hands=hands, seed=seed, examples=examples, endgame_tricks=endgame_tricks,
                        endgame_roots=endgame_roots, max_game_hands=max_game_hands,
                        bidding_states=bidding_states)
        rulesets = [load_ruleset(ref) for ref in variants]
    except RulespecError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    problems = 0
    records: list[dict] = []
    files: dict[str, str] = {}
    for rs in rulesets:
        with terminal_progress() as progress:
            rec = run(rs, budget, progress)
        problems += len(rec["dead_ends"]) + len(rec["conflicts"])
        md = markdown(rec)
        click.echo(to_json(rec) if as_json else md)
        if out_dir:
            folder = Path(out_dir)
            folder.mkdir(parents=True, exist_ok=True)
            name = f"{rs.doc}-{rs.id}" if rs.doc else rs.id
            (folder / f"{name}.md").write_text(md, encoding="utf-8")
            index = "index.html" if len(rulesets) > 1 else None
            (folder / f"{name}.html").write_text(to_html(md, f"Verification of {rs.id}", rec, index),
                                                 encoding="utf-8")
            records.append(rec)
            files[rs.id] = f"{name}.html"
            (folder / f"{name}.json").write_text(to_json(rec), encoding="utf-8")
        summary = (f"{rs.id}: {len(rec['dead_ends'])} dead end(s), {len(rec['conflicts'])} conflict(s), "
                   f"{len(rec['nontermination']['witnesses'])} endless-game witness(es), "
                   f"{len(rec['dead_rules'])} dead rule(s), {len(rec['open_points'])} open point(s), "
                   f"{sum(not c['holds'] for c in rec['claims'])}/{len(rec['claims'])} claim(s) failing")
        click.echo(summary, err=True)
    if out_dir and len(records) > 1:
        (Path(out_dir) / "index.html").write_text(index_html(records, files), encoding="utf-8")
    sys.exit(1 if strict and problems else 0)
