"""The command a user runs, as a whole process from the shell: ``rulespec simulate VARIANT --hands N``
(with and without ``--out``, and with ``--stats``) against ``bench/peer_simulate.py``, a pyspiel script
playing the same number of random hands.  Wall and CPU time (user + system, from ``wait4``) of each
process, in rounds that take turns in rotated order."""
from __future__ import annotations

import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(cmd: list[str], stdout=subprocess.DEVNULL) -> tuple[float, float]:
    """Wall and CPU seconds of one process running ``cmd`` to completion (it must succeed); its output goes
    to ``stdout`` (a file, or discarded)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=stdout, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stderr.read().decode()[-500:]}")
    proc.stderr.close()
    return wall, usage.ru_utime + usage.ru_stime


def commands(hands: int, variant: str, out: str) -> dict[str, list[str]]:
    """The measured commands by name (the peer's only when pyspiel is installed)."""
    exe = str(Path(sys.executable).with_name("rulespec"))
    ours = [exe, "simulate", variant, "--hands", str(hands), "--seed", "1", "--policy", "random"]   # (the peer's)
    cmds = {"simulate": ours, "simulate_out": ours + ["--out", out], "simulate_stats": ours + ["--stats"]}
    if importlib.util.find_spec("pyspiel") is None:
        return cmds
    return {"peer": [sys.executable, str(ROOT / "bench" / "peer_simulate.py"), str(hands), "1"], **cmds}


def measure(hands: int = 100_000, rounds: int = 3, variant: str = "standard") -> dict:
    """{'wall': {name: [s per round]}, 'cpu': {...}, 'ratios': {name: {'median', 'min', 'max'} of the
    rounds' peer wall / ours wall}, 'cpu_ratios': the same of CPU time}; ratios only with the peer."""
    with tempfile.TemporaryDirectory() as tmp:
        cmds = commands(hands, variant, str(Path(tmp) / "hands.jsonl"))
        wall: dict[str, list[float]] = {name: [] for name in cmds}
        cpu: dict[str, list[float]] = {name: [] for name in cmds}
        names = list(cmds)
        for r in range(rounds):
            for name in names[r % len(names):] + names[:r % len(names)]:
                w, c = run(cmds[name])
                wall[name].append(w)
                cpu[name].append(c)
    out: dict = {"hands": hands, "variant": variant, "rounds": rounds, "wall": wall, "cpu": cpu,
                 "ratios": {}, "cpu_ratios": {}}
    if "peer" in cmds:
        for name in names[1:]:
            for key, times in (("ratios", wall), ("cpu_ratios", cpu)):
                got = [p / o for p, o in zip(times["peer"], times[name])]
                out[key][name] = {"median": statistics.median(got), "min": min(got), "max": max(got)}
    return out
