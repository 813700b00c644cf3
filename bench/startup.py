"""Start-up: loading and compiling every bundled variant, and ``rulespec --help``, in fresh processes.

Python byte-compiles the project's modules first (``compileall``), as an installed
package has them: an editable checkout under ``PYTHONDONTWRITEBYTECODE`` (set on
this machine) would otherwise compile every module from source in every process.
"""
from __future__ import annotations

import compileall
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_COMPILE_ALL = """
import time
t = time.perf_counter()
from rulespec.model.ruleset import compile_spec
from rulespec.model.variants import bundled_ids, find_variant
for ref in bundled_ids():
    compile_spec(find_variant(ref))
print(time.perf_counter() - t)
"""


def _bytecode() -> None:
    for package in ("rulespec", "service"):
        compileall.compile_dir(ROOT / package, quiet=1)


def compile_all(runs: int = 5) -> float:
    """Median seconds to import the compiler, load and compile every bundled variant (in-process clock)."""
    _bytecode()
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", _COMPILE_ALL], cwd=ROOT, capture_output=True, text=True,
                             check=True)
        times.append(float(out.stdout.strip()))
    return statistics.median(times)


def cli_help(runs: int = 5) -> float:
    """Median wall-clock seconds of ``rulespec --help`` (a whole process, interpreter start included)."""
    exe = Path(sys.executable).with_name("rulespec")
    _bytecode()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([str(exe), "--help"], cwd=ROOT, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)
