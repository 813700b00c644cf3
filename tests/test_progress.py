"""Long commands show how far they are on a terminal, and nothing of it in a pipe (issue 33, item 8):
``verify`` stage by stage, ``simulate`` its hands or games and, with ``--engine compiled``, whether it is
compiling the rules (and for how long) or loading machine code compiled before."""
from __future__ import annotations

import os
import pty
import select
import subprocess
import sys


RULESPEC = [sys.executable, "-m", "rulespec.cli"]
VERIFY = ["verify", "standard", "--hands", "20", "--examples", "5", "--endgame-tricks", "1", "--endgame-roots", "2"]


def on_terminal(*args: str, env: dict | None = None) -> str:
    """What the command writes to its stderr when that is a terminal (stdout to a pipe)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([*RULESPEC, *args], stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL,
                            env=env)
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            proc.kill()
            raise AssertionError(f"no output for 120 s: {b''.join(chunks)[-500:]!r}")
        try:
            data = os.read(master, 65536)
        except OSError:      # the command has ended and closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.stdout.read()
    assert proc.wait(60) == 0
    os.close(master)
    return b"".join(chunks).decode("utf-8", "replace").replace("\r", "\n")


def test_verify_shows_each_stage_on_a_terminal():
    shown = on_terminal(*VERIFY)
    for stage in ("standard: random hands", "standard: Hypothesis hands", "standard: last tricks, every line",
                  "standard: endless games, open points… ", "standard: the document's claims"):
        assert stage in shown, (stage, shown[-2000:])
    assert "100%" in shown
    assert shown.index("random hands") < shown.index("Hypothesis hands") < shown.index("the document's claims")


def test_verify_in_a_pipe_prints_no_progress():
    done = subprocess.run([*RULESPEC, *VERIFY], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0
    assert done.stderr.startswith("standard: ") and "dead end(s)" in done.stderr
    assert "random hands" not in done.stderr and "%" not in done.stderr and "\r" not in done.stderr


def test_simulate_tells_compiling_from_loading_and_counts_the_hands(tmp_path, monkeypatch):
    """In a cache folder of its own (the shared one is another process's to fill at any time): the first run
    compiles and says so, the second loads."""
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path))
    first = on_terminal("simulate", "standard", "--hands", "9000", "--engine", "compiled", env=dict(os.environ))
    expected = "compiling standard to machine code (once; cached after)… "
    assert expected in first, first[-2000:]
    assert first.index(expected) < first.index("hands played") and "100%" in first
    # compiled once, marked complete in the cache (read from the folder: this process's own rulesets and
    # caches are other tests' too under xdist)
    folder = tmp_path / "jit"
    marks = [path.stem for path in folder.glob("rulespec_jit_hand_*.done")]
    assert len(marks) == 1, sorted(p.name for p in folder.iterdir())
    written = {path.stem for path in folder.glob("rulespec_jit_fn_*.py")}      # the module's parts (core.jit)
    machine_code = {path.name.split(".")[0] for path in (folder / "__pycache__").glob("*.nbi")}
    assert len(written) > 10 and machine_code and machine_code <= written
    again = on_terminal("simulate", "standard", "--hands", "100", "--engine", "compiled", env=dict(os.environ))
    assert "loading standard's machine code (compiled before)… " in again and "compiling" not in again


def test_simulate_games_counts_the_games():
    shown = on_terminal("simulate", "standard", "--games", "3")
    assert "games played" in shown and "100%" in shown
