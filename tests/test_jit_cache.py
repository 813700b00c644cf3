"""rulespec.core.jit: generated modules written under their digest, imported once, cached by numba."""
from __future__ import annotations

import pytest

from rulespec.core import jit

SOURCE = """import numba


@numba.njit(cache=True)
def total(n):
    s = 0
    for i in range(n):
        s += i % 7
    return s
"""


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path))
    return tmp_path / "jit"


def test_module_is_written_under_its_digest_and_compiled(cache):
    module = jit.load("t1", SOURCE)
    assert module.total(10) == sum(i % 7 for i in range(10))
    (written,) = cache.glob("rulespec_jit_t1_*.py")
    assert written.read_text() == SOURCE
    assert jit.load("t1", SOURCE) is module            # once per process
    assert list((cache / "__pycache__").glob("*.nbi"))  # numba's cache index, beside the file


def test_a_tampered_file_is_rewritten_not_run(cache):
    jit.load("t2", SOURCE)
    (written,) = cache.glob("rulespec_jit_t2_*.py")
    written.write_text(SOURCE + "\nraise SystemExit('tampered')\n")
    import sys
    del sys.modules[written.stem]
    module = jit.load("t2", SOURCE)
    assert module.total(3) == 3
    assert written.read_text() == SOURCE


def test_other_source_other_module(cache):
    other = SOURCE.replace("i % 7", "i % 5")
    assert jit.load("t3", other).total(10) != jit.load("t3", SOURCE).total(10)
    assert len(list(cache.glob("rulespec_jit_t3_*.py"))) == 2


def test_compiled_says_whether_loading_would_compile(cache):
    import sys
    other = SOURCE.replace("i % 7", "i % 3")
    assert not jit.compiled("t4", other)                 # nothing written yet
    module = jit.load("t4", other)
    assert jit.compiled("t4", other)                     # loaded in this process
    del sys.modules[module.__name__]
    assert not jit.compiled("t4", other)                 # the file, but no machine code cached yet
    jit.load("t4", other).total(4)
    del sys.modules[module.__name__]
    assert not jit.compiled("t4", other)                 # machine code cached, but the compiling not marked complete
    jit.mark_compiled("t4", other)
    assert jit.compiled("t4", other)                     # numba's cache beside the file: a later process loads it


def test_a_rewritten_file_loses_its_mark(cache):
    import sys
    other = SOURCE.replace("i % 7", "i % 11")
    jit.load("t5", other).total(4)
    jit.mark_compiled("t5", other)
    (written,) = cache.glob("rulespec_jit_t5_*.py")
    written.write_text(other + "\n# changed\n")        # numba's cache of the old file no longer applies
    del sys.modules[written.stem]
    assert not jit.compiled("t5", other)
    jit.load("t5", other)                                # the file written again, its old mark gone
    assert written.read_text() == other and not written.with_suffix(".done").exists()
    del sys.modules[written.stem]
    assert not jit.compiled("t5", other)


def test_the_solvers_module_is_ready_only_once_marked():
    """``solve.native.ready`` (a service request uses the compiled search only then) needs the mark that
    ``native_module`` leaves after compiling: a process stopped midway leaves some machine code cached and
    no mark, and a request must not compile the rest."""
    import sys

    from rulespec.model.ruleset import load_ruleset
    from rulespec.solve import native

    rs = load_ruleset("standard")
    native.native_module(rs)
    source = native._sources(rs)
    name = jit._name("solve", source)
    module = sys.modules.pop(name)
    marker = jit.cache_root() / f"{name}.done"
    try:
        assert native.ready(rs)             # not loaded here, but compiled and marked in the disk cache
        marker.unlink()
        assert not native.ready(rs)
    finally:
        sys.modules[name] = module
        jit.mark_compiled("solve", source)
    assert marker.exists()


def test_a_process_compiling_the_same_module_waits_for_the_one_compiling_it(cache, tmp_path):
    """``compiling`` is one lock per module across processes: a second process enters only once the first has
    left (and then finds numba's disk cache), and another module's lock is not held up by it."""
    import os
    import subprocess
    import sys
    import time
    child = ("import sys, time\nfrom rulespec.core import jit\nwith jit.compiling(sys.argv[1], sys.argv[2]):\n"
             "    print(time.time(), flush=True)\n")
    with jit.compiling("t3", SOURCE):
        waiting = subprocess.Popen([sys.executable, "-c", child, "t3", SOURCE], stdout=subprocess.PIPE, text=True,
                                   env=dict(os.environ))
        other = subprocess.run([sys.executable, "-c", child, "t3", SOURCE + "# another module\n"],
                               capture_output=True, text=True, check=True, env=dict(os.environ))
        time.sleep(0.5)
        released = time.time()
    entered = float(waiting.communicate(timeout=60)[0])
    assert entered >= released and float(other.stdout) < released
