"""The ``rulespec`` command line."""
from __future__ import annotations

import dataclasses
import importlib
import json
import sys
import time
from typing import TYPE_CHECKING

import click

from .app.progress import Progress, terminal_progress
from .core import cards as C
from .errors import InputError, Problem, RulesFileError, RulespecError, ScenarioFileError

if TYPE_CHECKING:   # imported when used (rulespec --help stays fast)
    from .app.simulation import Played, Tally
    from .model.ruleset import Ruleset


def fail(message: str, code: int = 2) -> None:
    click.echo(message, err=True)
    sys.exit(code)


class LazyGroup(click.Group):
    """A group whose larger commands live with their packages and are imported only when used
    (``rulespec --help`` stays fast).  ``LAZY`` keeps each one's short help for the listing."""

    LAZY = {
        "conform": ("rulespec.tools.conform.cli", "conform",
                    "Check ENGINE (openspiel, a recorded .jsonl file, or module:factory) against a variant, "
                    "state by state."),
        "diff": ("rulespec.tools.diff.cli", "diff",
                 "Replay identical deals under VARIANTS (ids or paths) and report where and why they disagree."),
        "verify": ("rulespec.tools.verify.command", "verify",
                   "Verify rules documents against themselves: dead ends, conflicts, endless games, dead rules, "
                   "open points and the documents' own claims."),
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.LAZY])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.LAZY:
            module, attr, _ = self.LAZY[name]
            return getattr(importlib.import_module(module), attr)
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            if name in self.LAZY:
                rows.append((name, click.Command(name, help=self.LAZY[name][2]).get_short_help_str(limit)))
                continue
            command = super().get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Spades rules: encode, verify, and settle disputes with the clause that decides them."""


@main.command()
@click.argument("files", nargs=-1, required=True)
def check(files: tuple[str, ...]) -> None:
    """Compile variant FILES (paths or bundled ids); report every problem found."""
    from .model.ruleset import load_ruleset
    bad = 0
    for ref in files:
        try:
            rs = load_ruleset(ref)
        except RulesFileError as exc:
            bad += 1
            for problem in exc.problems:
                click.echo(_with_hint(problem).format(), err=True)
            click.echo(f"{ref}: {len(exc.problems)} problem(s)", err=True)
        except RulespecError as exc:
            bad += 1
            click.echo(f"{ref}: {exc}", err=True)
        else:
            own = sum(1 for r in rs.rules.values() if r.origin == rs.id)
            extends = ", extends " + " < ".join(reversed(rs.chain[:-1])) if len(rs.chain) > 1 else ""
            click.echo(f"{ref}: ok — variant '{rs.id}', {len(rs.rules)} rules ({own} its own{extends})")
    sys.exit(1 if bad else 0)


def _with_hint(problem: Problem) -> Problem:
    """Say what a rule takes when a value of the wrong type has no other hint."""
    from .core.schema import SLOTS
    slot = SLOTS.get(problem.rule or "")
    if slot is None or problem.suggestion or "must give" not in problem.message:
        return problem
    return dataclasses.replace(problem, suggestion=f"'{slot.name}' takes a {slot.type} ({slot.doc}); "
                                                   "see `rulespec rules`")


_GENERATED = ("steps", "loop", "native", "array", "search", "native-search")


@main.command()
@click.argument("variant")
@click.option("--python", "show_python", is_flag=True, help="Also print the generated Python of each rule.")
@click.option("--generated", type=click.Choice(_GENERATED), default=None,
              help="Print instead the code a back end runs for the variant, lowered from the hand's one form: the "
                   "scalar steps, the Python card-play loop, the compiled engine (numba), the array engine "
                   "(numpy), the Python search or the compiled search.")
def show(variant: str, show_python: bool, generated: str | None) -> None:
    """Print a variant's rules with their citations, marking inherited ones."""
    from .model.ruleset import load_ruleset
    try:
        rs = load_ruleset(variant)
    except RulespecError as exc:
        fail(str(exc))
    if generated:
        from .app.generated import generated as code
        try:
            click.echo(code(rs, generated), nl=False)
        except RulespecError as exc:
            fail(str(exc))
        return
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
    from .core.schema import CONTEXTS, SLOTS
    for slot in SLOTS.values():
        click.echo(f"{slot.name}  ({slot.type})  {slot.doc}")
        names = list(CONTEXTS[slot.context])
        if names:
            click.echo(f"      context: {', '.join(names)}")
        if slot.options:
            click.echo(f"      one of: {', '.join(slot.options)}")
        if slot.neutral is not None:
            click.echo(f"      where no variant sets it: {slot.neutral} (the game without this rule)")


@main.command(name="import-options")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--out", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the variant file here (default: standard output).")
def import_options(file: str, out: str | None) -> None:
    """Turn a Trickster GameOptionsJson object (FILE, JSON) into a variant file extending a bundled variant:
    a comment for each option mapped, and each option no rule can express named on stderr."""
    from .errors import FileError
    from .records.options import map_options, read_options, variant_text
    try:
        mapping = map_options(read_options(file))
    except FileError as exc:
        fail(f"error: {exc}")
    text = variant_text(mapping, file)
    for o in mapping.unmapped:
        click.echo(f"{file}: option {o.option} = {json.dumps(o.value)} not mapped: {o.why}", err=True)
    _write_out(text, out)


def _write_out(text: str, out: str | None) -> None:
    """``text`` into the file ``out``, or on standard output."""
    if out:
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        click.echo(text, nl=False)


@main.command(name="variants")
def list_variants() -> None:
    """List the bundled variants: id, the document each cites, the variant it extends, its title."""
    from .model.ruleset import load_ruleset
    from .model.variants import bundled_ids
    for vid in bundled_ids():
        rs = load_ruleset(vid)
        base = rs.chain[-2] if len(rs.chain) > 1 else "-"
        click.echo(f"{vid:22} {rs.doc:6} extends {base:10} {rs.title}")


@main.command()
@click.argument("variant")
@click.option("--hands", type=click.IntRange(1, 10_000_000), help="Hands to play (default 100).")
@click.option("--games", type=click.IntRange(1, 1_000_000),
              help="Play this many complete games instead (scores carried from hand to hand).")
@click.option("--seed", default="0", show_default=True, help="Seed: the same seed gives the same deals and play.")
@click.option("--policy", type=click.Choice(["random", "sensible", "sampled"]),
              help="Who plays every seat: random (uniform legal bids and cards), sensible (the lowered form's "
              "player, the same on every engine) or sampled (double-dummy solves of deals consistent with what "
              "the player has seen; scalar engine only, slow).  Default: sensible with --stats or --games, else "
              "random.")
@click.option("--samples", type=click.IntRange(1, 1000), default=8, show_default=True,
              help="With --policy sampled: deals solved per card.")
@click.option("--out", type=click.Path(dir_okay=False, writable=True), help="Write one JSON line per hand here.")
@click.option("--stats", is_flag=True, help="Per team: mean points, set rate, nil and blind nil success, bag "
              "penalties; with --games also hands per game and how games end.")
@click.option("--json", "as_json", is_flag=True, help="With --stats: the statistics as JSON.")
@click.option("--engine", type=click.Choice(["batch", "compiled", "scalar"]),
              help="For --hands: the batch engine (numpy, hands in lockstep; the default), the compiled scalar "
              "engine (native code generated from the variant's rules, one hand at a time; compiled on first use, "
              "then cached) or the scalar engine (Python, one hand at a time; the default and the only one for "
              "--policy sampled).")
def simulate(variant: str, hands: int | None, games: int | None, seed: str, policy: str | None, samples: int,
             out: str | None, stats: bool, as_json: bool, engine: str | None) -> None:
    """Play complete hands of VARIANT with seeded players (--policy).

    --hands plays independent hands, each from 0-0 (with --out, each hand's record
    is a game of its own), in lockstep on the batch engine or, with --engine
    compiled, one at a time as native code; --games plays whole games on the
    scalar engine, the scores carried from hand to hand.  Either way the same
    options and seed give the same hands (the --hands engines draw their random
    numbers differently: one seed gives other hands on each; the sensible player
    plays a given deal alike on every engine)."""
    from .model.ruleset import load_ruleset
    played = _players(hands, games, policy, samples, stats, as_json, engine)
    try:
        rs = load_ruleset(variant)
    except RulespecError as exc:
        fail(str(exc))
    start = time.perf_counter()
    with terminal_progress() as progress:
        if games is None:
            tally, summary = _simulate_batch(rs, hands or 100, seed, out, played, progress)
        else:
            tally, summary = _simulate_games(rs, games, seed, out, played, progress)
    seconds = time.perf_counter() - start
    if not stats:
        click.echo(f"{rs.id}: {summary}, {played.words()}, {seconds:.2f} s, {tally.hands / seconds:.0f} hands/s"
                   + (f"; wrote {out}" if out else ""))
        return
    from .app.simulation import stats_text
    report = tally.report()
    if as_json:
        click.echo(json.dumps({"variant": rs.id, "seed": seed, "players": played.as_dict(),
                               "seconds": round(seconds, 3), **report}, indent=2))
    else:
        click.echo(f"{rs.id}, seed {seed}, {played.words()}: {summary}, {seconds:.2f} s\n"
                   + stats_text(report, "hands"))


def _players(hands: int | None, games: int | None, policy: str | None, samples: int, stats: bool, as_json: bool,
             engine: str | None) -> Played:
    """``simulate``'s options checked, and who plays on which engine (the defaults filled in)."""
    from .app.simulation import Played
    policy = policy or ("sensible" if stats or games is not None else "random")
    engine = engine or ("scalar" if policy == "sampled" or games is not None else "batch")
    _check_simulate(hands, games, policy, stats, as_json, engine)
    return Played(policy, samples if policy == "sampled" else None, engine)


def _check_simulate(hands: int | None, games: int | None, policy: str, stats: bool, as_json: bool,
                    engine: str) -> None:
    if hands is not None and games is not None:
        fail("give --hands or --games, not both")
    if games is not None and engine != "scalar":
        fail("--engine goes with --hands (--games plays on the scalar engine)")
    if policy == "sampled" and engine != "scalar":
        fail("--policy sampled plays on the scalar engine only (leave out --engine, or give --engine scalar)")
    if as_json and not stats:
        fail("--json goes with --stats")


def _simulate_batch(rs: Ruleset, hands: int, seed: str, out: str | None, played: Played,
                    progress: Progress | None = None) -> tuple[Tally, str]:
    """Independent hands from 0-0 on the batch, compiled or scalar engine (records to ``out``): the tally and a
    summary."""
    from .app.simulation import CHUNK, Tally, batch_hands
    from .errors import JitUnavailable, NativeRuleError
    if played.engine == "scalar":
        return _simulate_scalar(rs, hands, None, seed, out, played, progress)
    tally = Tally(bool(rs.params["nil.tricks_count"]), C.table_of(rs.params))
    sink = open(out, "wb") if out else None
    try:
        for chunk in batch_hands(rs, hands, seed, sink, played.engine, progress, played.policy):
            tally.add(chunk)
    except (NativeRuleError, JitUnavailable) as exc:
        fail(str(exc))
    except RulespecError as exc:
        fail(f"hands {tally.hands + 1}-{min(hands, tally.hands + CHUNK)}: {exc}", 1)
    finally:
        if sink:
            sink.close()
    return tally, f"{tally.hands} hands, each from 0-0"


def _simulate_games(rs: Ruleset, games: int, seed: str, out: str | None, played: Played,
                    progress: Progress | None = None) -> tuple[Tally, str]:
    """``games`` games on the scalar engine (records to ``out``): the tally and a summary."""
    return _simulate_scalar(rs, None, games, seed, out, played, progress)


def _simulate_scalar(rs: Ruleset, hands: int | None, games: int | None, seed: str, out: str | None, played: Played,
                     progress: Progress | None = None) -> tuple[Tally, str]:
    """``games`` games, or ``hands`` hands each from 0-0, on the scalar engine (records to ``out``): the tally and
    a summary."""
    from .app.simulation import Tally, game_hands, record_arrays
    tally = Tally(bool(rs.params["nil.tricks_count"]), C.table_of(rs.params))
    sink = open(out, "w", encoding="utf-8") if out else None
    chunk: list[dict] = []
    previous = None

    def flush() -> None:
        nonlocal chunk, previous
        if chunk:
            tally.add(record_arrays(chunk, previous))
            if games is not None:
                tally.add_game_ends(rs, chunk)
            previous, chunk = chunk[-1], []
    try:
        for record in game_hands(rs, hands, games, seed, progress, played.policy, played.samples or 8,
                                 single=games is None):
            chunk.append(record)
            if sink:
                sink.write(json.dumps({k: v for k, v in record.items() if not k.startswith("_")},
                                      separators=(",", ":")) + "\n")
            if len(chunk) == 4096:
                flush()
        flush()
    except RulespecError as exc:
        fail(f"hand {tally.hands + len(chunk)}: {exc}", 1)
    finally:
        if sink:
            sink.close()
    if games is None:
        return tally, f"{tally.hands} hands, each from 0-0"
    finished = len(tally.game_lengths)
    return tally, f"{tally.hands} hands, {finished} games finished" + (
        f", {tally.unfinished} unfinished" if tally.unfinished else "")


@main.command(name="test")
@click.argument("files", nargs=-1, required=True)
def run_tests(files: tuple[str, ...]) -> None:
    """Run the scenario cases in FILES: variant files with 'tests:' or case files naming a variant.

    Prints a pass/fail table and, for each failure, expected vs actual and the
    rules applied.  Exit status: 0 all passed, 1 a case failed, 2 a file could
    not be read or holds no cases."""
    from .app.scenarios import load_cases, run_case
    from .app.testreport import report
    cases, unreadable = [], False
    for path in files:
        try:
            found = load_cases(path)
        except ScenarioFileError as exc:
            click.echo(f"error: {exc}", err=True)
            unreadable = True
            continue
        if not found:
            click.echo(f"error: {path}: no test cases (add a 'tests:' list; see docs/house-rules.md)", err=True)
            unreadable = True
        cases += found
    results = [run_case(case) for case in cases]
    if results:
        for line in report(results):
            click.echo(line)
    sys.exit(2 if unreadable else 1 if any(not r.passed for r in results) else 0)


@main.command()
@click.argument("variant")
@click.option("--bids", help="Bids by seat, e.g. N=3,E=nil,S=4,W=2 (or 3,nil,4,2 in seat order N E S W).")
@click.option("--tricks", help="Tricks taken by seat, e.g. N=4,E=0,S=5,W=4 (or 4,0,5,4).")
@click.option("--before", help="Scores and bags before the hand, e.g. NS=120/8,EW=0/0.")
@click.option("--dealer", help="The dealer's seat (N, E, S or W).")
@click.option("--renege", multiple=True, metavar="SEAT", help="A called renege by SEAT (repeatable).")
@click.option("--json", "json_file", type=click.File("r"),
              help="The situation as a JSON score request (- reads stdin); options given as well override it.")
@click.option("--compare", multiple=True, metavar="ID",
              help="Also score under these variants, side by side (repeatable, or ID,ID).")
def explain(variant: str, bids: str | None, tricks: str | None, before: str | None, dealer: str | None,
            renege: tuple[str, ...], json_file, compare: tuple[str, ...]) -> None:
    """Score one hand under VARIANT (a file or a bundled id), line by line with citations."""
    try:
        request = _explain_request(json_file, bids, tricks, before, dealer, renege, _table_of(variant))
        lines = _explain_lines(variant, compare, request)
    except InputError as exc:
        _fail_on_input(exc)
    except RulespecError as exc:
        fail(f"error: {exc}")
    for line in lines:
        click.echo(line)


def _json_request(json_file) -> dict:
    """The score request in ``--json``'s file."""
    try:
        request = json.load(json_file)
    except json.JSONDecodeError as exc:
        fail(f"error: --json: not valid JSON: {exc}")
    if not isinstance(request, dict):
        fail("error: --json: expected a JSON object such as {\"bids\": {...}, \"tricks\": {...}}")
    return request


def _table_of(variant: str) -> C.Table:
    """The seats and sides of ``variant`` (a bundled id or a file), to read the options by."""
    from .app.answers import resolve_variant
    return C.table_of(resolve_variant(variant, allow_paths=True).params)


def _explain_request(json_file, bids: str | None, tricks: str | None, before: str | None, dealer: str | None,
                     renege: tuple[str, ...], table: C.Table = C.FOUR) -> dict:
    """``explain``'s score request: ``--json``'s, with the options given overriding it (by ``table``'s seats)."""
    from .app.situation import parse_before, parse_bids, parse_tricks
    request = _json_request(json_file) if json_file is not None else {}
    for key, value, parse in (("bids", bids, parse_bids), ("tricks", tricks, parse_tricks),
                              ("before", before, parse_before)):
        if value is not None:
            request[key] = parse(value, table)
    if dealer is not None:
        request["dealer"] = dealer
    if renege:
        request["events"] = [*request.get("events", []), *({"type": "renege", "seat": s} for s in renege)]
    if "bids" not in request:
        fail("error: give the bids, e.g. --bids N=3,E=nil,S=4,W=2 (or a situation with --json FILE)")
    return request


def _explain_lines(variant: str, compare: tuple[str, ...], request: dict) -> list[str]:
    """The hand scored under ``variant``, or side by side with the ``--compare`` variants."""
    from .app.disputes import answer
    from .app.explain import render_compare, render_score
    others = [ref for item in compare for ref in item.replace(",", " ").split()]
    request.pop("variants", None)
    if others:
        result = answer("score", {**request, "variants": [variant, *others]}, allow_paths=True)
        return render_compare(result, request)
    return render_score(answer("score", {**request, "variant": variant}, allow_paths=True), request)


def _fail_on_input(exc: InputError) -> None:
    """Exit with the input's problems (a variant that does not compile) or its field and rule."""
    problems = exc.details.get("problems")
    if problems:
        fail("\n".join(Problem(**p).format() for p in problems))
    why = f" ({exc.rule} @ {exc.cite})" if exc.rule and exc.cite else ""
    fail(f"error: {exc.field or 'input'}: {exc.message}{why}")


def _dispute(kind: str, file: str) -> None:
    """Answer the JSON request in FILE (``-``: stdin) exactly as the HTTP API does; exit 2 on bad input."""
    from .app.disputes import answer, compare
    try:
        text = sys.stdin.read() if file == "-" else open(file, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{file}: cannot read: {exc}")
    try:
        request = json.loads(text)
    except (ValueError, RecursionError) as exc:
        fail(f"{file}: not valid JSON: {exc}")
    try:
        result = compare(request, allow_paths=True) if kind == "compare" else answer(kind, request, allow_paths=True)
    except RulespecError as exc:
        fail(f"bad input: {exc}")
    click.echo(json.dumps(result, indent=2, ensure_ascii=False))


def _dispute_command(kind: str, summary: str) -> None:
    @main.command(name=kind, help=f"{summary} JSON request from FILE or stdin, JSON answer "
                                  f"(the same as POST /v1/{kind}).")
    @click.argument("file", default="-")
    def command(file: str) -> None:
        _dispute(kind, file)


for _kind, _summary in (("trick", "Who wins a trick."), ("legal", "Which cards may be played."),
                        ("bid", "Whether a bid is allowed."), ("score", "Score a hand."),
                        ("game", "Score a game's hands in sequence."),
                        ("compare", "One situation under several variants.")):
    _dispute_command(_kind, _summary)


def _solve_command(kind: str, summary: str) -> None:
    @main.command(name=kind, help=f"{summary} JSON request from FILE or stdin, JSON answer (the same as "
                                  f"POST /v1/{kind}, without its budget unless --nodes or --seconds is given).")
    @click.argument("file", default="-")
    @click.option("--nodes", type=click.IntRange(min=1), default=None, help="Stop after this many search nodes.")
    @click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=None,
                  help="Stop after this many seconds of search.")
    def command(file: str, nodes: int | None, seconds: float | None) -> None:
        from .app.claims import allowance
        with allowance(nodes, seconds, compiles=True):
            _dispute(kind, file)


for _kind, _summary in (("solve", "Double-dummy tricks for each side from a position, with a line of play."),
                        ("claim", "Whether a claim of k tricks holds against every defence."),
                        ("nil", "Whether a nil bidder can take no trick against best defence.")):
    _solve_command(_kind, _summary)


def _read_record(path: str, fmt: str | None):
    """A record file (``-``: stdin) read with the command line's limits; exit 2 when it cannot be read."""
    from .errors import RecordFileError
    from .records import FILE_LIMITS, read_records
    try:
        if path == "-":
            data = sys.stdin.buffer.read(FILE_LIMITS.bytes + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(FILE_LIMITS.bytes + 1)
        return read_records(data, fmt, name=path if path != "-" else "")
    except OSError as exc:
        fail(f"{path}: cannot read: {exc.strerror}")
    except RecordFileError as exc:
        fail(f"{path}: {exc}")


def _record_judges(variant: str | None):
    from .app.recorded import judges
    try:
        return judges(variant, allow_paths=True)
    except InputError as exc:
        _fail_on_input(exc)


_RECORD_FORMAT = click.option("--format", "fmt", type=click.Choice(["ptn", "pbn", "json"]), default=None,
                              help="The record's format (default: from the file name, else from its text).")
_RECORD_VARIANT = click.option("--variant", default=None,
                               help="Judge every hand under this variant (id or path); default: the record's own "
                                    "options or variant, else standard.")


@main.command()
@click.argument("record")
@_RECORD_VARIANT
@_RECORD_FORMAT
@click.option("--json", "as_json", is_flag=True, help="Print the audit as JSON (the answer of POST /v1/audit).")
def audit(record: str, variant: str | None, fmt: str | None, as_json: bool) -> None:
    """Replay each hand of a game RECORD (PTN, PBN or JSON lines; - for stdin) under a variant: the first
    irregular card with its rule, each trick's winner, each hand's score, the running game score, and every
    hand whose recorded score differs.  Exit 1 when a hand is irregular, not replayed or scored otherwise."""
    from .app.audit import audit as run_audit
    from .app.recordtext import audit_text
    from .app.recorded import refuse_unread
    reading = _read_record(record, fmt)
    try:
        refuse_unread(reading)
        result = run_audit(reading, _record_judges(variant))
    except InputError as exc:
        _fail_on_input(exc)
    click.echo(json.dumps(result, indent=2, ensure_ascii=False) if as_json
               else "\n".join(audit_text(result, record)))
    s = result["summary"]
    sys.exit(1 if s["irregular"] or s["not_replayed"] or s["score_differs"] or reading.problems else 0)


@main.command()
@click.argument("record")
@_RECORD_VARIANT
@_RECORD_FORMAT
@click.option("--hand", "hands", type=click.IntRange(min=1), multiple=True, help="Review only this hand (repeatable).")
@click.option("--nodes", type=click.IntRange(min=1), default=None, help="Stop after this many search nodes.")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Stop after this many seconds of search.")
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON (the answer of POST /v1/review).")
def review(record: str, variant: str | None, fmt: str | None, hands: tuple[int, ...], nodes: int | None,
           seconds: float | None, as_json: bool) -> None:
    """Card by card through a game RECORD: the double-dummy value before and after each card under the
    variant, and the cards that cost a trick, a nil or the contract, each with its position as a /v1/solve
    body (no search budget unless --nodes or --seconds is given)."""
    from .app.claims import allowance
    from .app.recordtext import review_text
    from .app.recorded import refuse_unread
    from .app.review import review as run_review
    reading = _read_record(record, fmt)
    try:
        refuse_unread(reading)
        with allowance(nodes, seconds, compiles=True):
            result = run_review(reading, _record_judges(variant), set(hands) or None, load_compiled=True)
    except InputError as exc:
        _fail_on_input(exc)
    click.echo(json.dumps(result, indent=2, ensure_ascii=False) if as_json
               else "\n".join(review_text(result, record)))


@main.command()
@click.argument("record")
@click.option("--to", "to", type=click.Choice(["ptn", "pbn"]), required=True, help="The format to write.")
@_RECORD_VARIANT
@_RECORD_FORMAT
@click.option("--out", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write here (default: standard output).")
@click.option("--example", "example", default=None, metavar="NAME",
              help="With a diff or verify report: the finding whose hand to write (A:B:K or A:B:RULE of a diff "
                   "report, dead_ends:K or conflicts:K of a verify report; without it they are listed).")
def convert(record: str, to: str, variant: str | None, fmt: str | None, out: str | None,
            example: str | None) -> None:
    """Write the hands of RECORD (PTN, PBN, a deals file, `simulate --out` hand records, a /v1/score body)
    as PBN or PTN; the play is put in order under the record's own rules (else --variant, else standard).
    Hands that cannot be read or written are named on stderr (exit 1).  RECORD may be a diff or verify
    report (report.json): the hand its finding --example was found in, dealt again and played under each
    variant of the pair (a verify finding: its deal)."""
    from .app.recorded import convert as run_convert, refuse_unread
    report = _report_of(record) if record != "-" else None
    if report is not None:
        if variant is not None or fmt is not None:
            fail(f"{record}: {'--variant' if variant is not None else '--format'} does not apply to a report: its "
                 "hands are played under the report's own variants")
        _write_finding(record, *report, example, to, out)
    if example is not None:
        fail(f"{record}: --example names a finding of a diff or verify report, and this is not one")
    reading = _read_record(record, fmt)
    try:
        refuse_unread(reading)
        text, problems = run_convert(reading, _record_judges(variant), to)
    except InputError as exc:
        _fail_on_input(exc)
    for p in problems:
        where = " ".join(str(x) for x in (f"{record}:{p['line']}" if p.get("line") else record,
                                          f"[{p['tag']}]" if p.get("tag") else "", p.get("path") or "") if x)
        click.echo(f"{where}: {p['message']}", err=True)
    _write_out(text, out)
    sys.exit(1 if problems else 0)


def _report_of(path: str) -> tuple[dict, str] | None:
    """The diff or verify report in the file ``path`` and its kind, None for any other file (a record); a
    report of another schema is refused (exit 2)."""
    from .errors import RecordError
    from .tools.findings import kind_of
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        if not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
            return None
        doc = json.loads(data.decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return None                     # (read as a record, with its own error)
    try:
        kind = kind_of(doc)
    except RecordError as exc:
        fail(f"{path}: {exc.path}: {exc.message}")
    return (doc, kind) if kind is not None else None


def _write_finding(path: str, doc: dict, kind: str, example: str | None, to: str, out: str | None) -> None:
    """Write the hands of a report's finding as PBN or PTN (those that cannot be are named, exit 1); without
    ``example``, the findings listed (exit 2)."""
    import os
    from .errors import RecordError, RulespecError
    from .records import write_pbn, write_ptn
    from .tools.findings import findings, hands_of
    if example is None:
        _list_findings(path, findings(doc, kind), kind)
    writer = write_ptn if to == "ptn" else write_pbn
    try:
        hands = hands_of(doc, kind, example, os.path.basename(path), os.path.dirname(path) or ".")
    except RecordError as exc:
        fail(f"{path}: {exc.path}: {exc.message}" if exc.path else f"{path}: {exc.message}")
    except RulespecError as exc:
        fail(f"{path}: the finding's hand cannot be played again: {exc}")
    kept = []
    for record in hands.records:
        try:
            writer([record])
            kept.append(record)
        except RecordError as exc:
            hands.problems.append(f"the hand played under {record.variant}: {exc.message}")
    for line in hands.checked:
        click.echo(line, err=True)
    for line in hands.problems:
        click.echo(f"{path}: {example}: {line}", err=True)
    if not kept:
        fail(f"{path}: {example}: no hand of this finding can be written as {to.upper()}")
    _write_out(writer(kept, hands.first_bidders), out)
    sys.exit(1 if hands.problems else 0)


def _list_findings(path: str, named: list[tuple[str, str]], kind: str) -> None:
    """Exit 2 with a report's findings listed by name (or saying it has none)."""
    if not named:
        fail(f"{path}: this {kind} report has no finding with a hand to write (a diff example found in a deal "
             "or game; a verify dead end or conflict whose example has its deal)")
    width = max(len(name) for name, _ in named)
    fail("\n".join([f"{path}: a {kind} report: name the finding whose hand to write with --example, one of:"]
                   + [f"  {name.ljust(width)}  {what}" for name, what in named]))


@main.command()
@click.option("--clauses", "clauses", type=click.Path(file_okay=False), default=None,
              help="Folder of clause indexes (default: the bundled corpus/clauses).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def coverage(clauses: str | None, as_json: bool) -> None:
    """Count each document's clauses by status; fail on a malformed or dangling clause index."""
    from .tools.coverage import STATUSES, check
    report = check(clauses)
    if as_json:
        click.echo(json.dumps(report.as_dict(), indent=2))
    else:
        for doc in report.docs:
            click.echo(f"{doc.doc}: {doc.total} clauses — "
                       + ", ".join(f"{s} {doc.counts[s]}" for s in STATUSES))
        for issue in report.issues:
            click.echo(issue.format(), err=True)
        if report.issues:
            click.echo(f"{len(report.issues)} problem(s)", err=True)
    sys.exit(1 if report.issues else 0)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64),
              help="gunicorn worker processes.")
def serve(host: str, port: int, workers: int) -> None:
    """Run the dispute service (page and HTTP API, bundled variants) with gunicorn, as in production."""
    import os
    # gunicorn as a module of this interpreter: it serves the installed package, whatever the working folder,
    # with the settings `make serve` reads (service/serving.py: the worker class, threads, keep-alive)
    os.execv(sys.executable, [sys.executable, "-m", "gunicorn", "-c", "python:service.serving",
                              "--bind", f"{host}:{port}", "--workers", str(workers), "service.app:create_app()"])


if __name__ == "__main__":
    main()
