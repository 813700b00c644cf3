"""Old against new, row by row: the bench rows measured on two checkouts in one run, alternated.

``python -m bench.ab --old DIR`` (DIR: a checkout of the older code, e.g. ``git worktree add --detach
/tmp/old 149b0af``) measures each row in fresh processes, one per checkout in turn (ABBA: old, new, new,
old, ...), so the machine's drift falls on both sides alike.  A round is one process per side doing the
row's fixed work (after a warm-up outside the clock, so numba's and the lowering's caches are read, not
built); a row's figure is the median over the rounds of the pair's ratio new/old of CPU seconds, with the
lowest and highest pair.  Whole-process rows time a command a user runs (CPU of the child, user + system),
the "never-seen house rule" row with a house rule whose value no earlier round used.

Both checkouts run under this interpreter with their own directory first on ``sys.path``; each uses its
own ``bench.simulation`` and ``bench.replay`` (the old checkout must have them: 149b0af has).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# A row measured inside a process: the code run after the warm-up, timed by CPU seconds.  ``{work}`` is the
# row's repeat count.  Each prints one float (CPU seconds of the timed part).
_INNER = {
    "scalar": ("from bench.simulation import scalar_step as make; step = make('standard')", 3000),
    "batch": ("from bench.simulation import batch_step as make; step = make('standard', 8192)", 10),
    "compiled-1000": ("from bench.simulation import compiled_step as make; step = make('standard', 1000)", 100),
    "compiled-1": ("from bench.simulation import compiled_step as make; step = make('standard', 1)", 30000),
    "replay-random": ("from bench.replay import _diff\n"
                      "step = lambda: _diff(60, 'bench', ('random',), jobs=1)", 5),
    "replay-sensible": ("from bench.replay import _diff\n"
                        "step = lambda: _diff(40, 'bench', ('sensible',), jobs=1)", 3),
}
_DRIVER = """
import sys, time
sys.path.insert(0, {root!r})
{setup}
step()
start = time.process_time()
for _ in range({work}):
    step()
print(time.process_time() - start)
"""
_CLI = "import sys; sys.argv[0] = 'rulespec'; from rulespec.cli import main; main()"
# Whole-process rows: the arguments after ``rulespec``; ``{out}`` a scratch file, ``{house}`` a fresh house rule.
_OUTER = {
    "simulate": ["simulate", "standard", "--hands", "20000", "--policy", "random"],
    "simulate-out": ["simulate", "standard", "--hands", "20000", "--policy", "random", "--out", "{out}"],
    # (--policy random on both sides: the old code's only player, and the new default for --stats is sensible)
    "simulate-stats": ["simulate", "standard", "--hands", "20000", "--stats", "--policy", "random"],
    "new-house": ["simulate", "{house}", "--hands", "100000", "--policy", "random"],
}
_HOUSE = ("id: ab-house-{n}\ntitle: A house rule no earlier round used\nextends: standard\nrules:\n"
          "  nil.made: {n} @ 001 §Nil bids\n")


@dataclass
class Row:
    """One row's pairs of (old, new) CPU seconds."""
    name: str
    pairs: list[tuple[float, float]]

    def summary(self) -> dict:
        ratios = sorted(new / old for old, new in self.pairs)
        return {"row": self.name, "rounds": len(ratios), "ratio": statistics.median(ratios),
                "low": ratios[0], "high": ratios[-1],
                "old": statistics.median(o for o, _ in self.pairs),
                "new": statistics.median(n for _, n in self.pairs)}


def _env(root: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(root))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _inner(root: Path, name: str) -> float:
    setup, work = _INNER[name]
    code = _DRIVER.format(root=str(root), setup=setup, work=work)
    done = subprocess.run([sys.executable, "-c", code], cwd=root, env=_env(root), capture_output=True,
                          text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{name} failed in {root}:\n{done.stderr[-2000:]}")
    return float(done.stdout.strip().splitlines()[-1])


def _outer(root: Path, name: str, scratch: Path, n: int) -> float:
    house = scratch / f"ab-house-{n}.yaml"
    house.write_text(_HOUSE.format(n=n), encoding="utf-8")
    args = [a.format(out=scratch / "out.jsonl", house=house) for a in _OUTER[name]]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", _CLI, *args], cwd=root, env=_env(root),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"{name} failed in {root}:\n{done.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(old: Path, new: Path, rows: list[str], rounds: int) -> list[Row]:
    """Each row's (old, new) pairs, the sides alternated ABBA round by round."""
    results = []
    counter = int(time.time() * 1000) % 1_000_000 * 100    # house-rule values no earlier run used
    with tempfile.TemporaryDirectory(prefix="rulespec-ab-") as tmp:
        scratch = Path(tmp)
        for name in rows:
            if name in _OUTER:                          # warm both sides' caches of the standard rules
                for root in (old, new):
                    _outer(root, "simulate", scratch, 0)
            pairs = []
            for r in range(rounds):
                order = (old, new) if r % 2 == 0 else (new, old)
                timing = {}
                for root in order:
                    counter += 1
                    timing[root] = (_outer(root, name, scratch, counter) if name in _OUTER
                                    else _inner(root, name))
                pairs.append((timing[old], timing[new]))
                print(f"{name} round {r + 1}: old {timing[old]:.3f} s, new {timing[new]:.3f} s, "
                      f"new/old {timing[new] / timing[old]:.3f}", file=sys.stderr, flush=True)
            results.append(Row(name, pairs))
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ab", description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, required=True, help="checkout of the older code")
    parser.add_argument("--new", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="checkout of the newer code (default: this one)")
    parser.add_argument("--rows", default=",".join([*_INNER, *_OUTER]),
                        help="comma-separated rows (default: all): " + ", ".join([*_INNER, *_OUTER]))
    parser.add_argument("--rounds", type=int, default=8, help="pairs per row (default 8)")
    parser.add_argument("--json", type=Path, help="write the rows' pairs and summaries here")
    args = parser.parse_args(argv)
    rows = args.rows.split(",")
    unknown = [r for r in rows if r not in _INNER and r not in _OUTER]
    if unknown:
        parser.error(f"unknown row(s): {', '.join(unknown)}")
    if args.rounds < 2:
        parser.error("--rounds must be at least 2")
    results = measure(args.old.resolve(), args.new.resolve(), rows, args.rounds)
    print("| row | old CPU s | new CPU s | new/old (median) | lowest–highest pair |")
    print("| --- | --- | --- | --- | --- |")
    for row in results:
        s = row.summary()
        print(f"| {s['row']} | {s['old']:.3f} | {s['new']:.3f} | {s['ratio']:.3f} | "
              f"{s['low']:.3f}–{s['high']:.3f} |")
    if args.json:
        args.json.write_text(json.dumps({"rows": [{**r.summary(), "pairs": r.pairs} for r in results]},
                                        indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
