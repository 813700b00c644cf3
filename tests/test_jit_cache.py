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
    """A cache folder of the test's own, nothing generated loaded yet (as in a new process; the modules loaded
    before are back after the test)."""
    import sys
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path))
    before = {name: sys.modules.pop(name) for name in list(sys.modules) if name.startswith("rulespec_jit_")}
    yield tmp_path / "jit"
    for name in [name for name in sys.modules if name.startswith("rulespec_jit_")]:
        del sys.modules[name]
    sys.modules.update(before)


# two functions and a constant: ``twice`` calls ``total`` and reads ``STEP``
TWO = SOURCE + """
STEP = 3


@numba.njit(cache=True)
def twice(n):
    return 2 * total(n) + STEP
"""


def _forget(source: str, kind: str) -> None:
    """As in a new process: neither the module nor its parts loaded."""
    import sys
    sys.modules.pop(jit._name(kind, source), None)
    for part in jit.parts(source).parts:
        sys.modules.pop(part.name, None)


def test_module_is_written_in_parts_under_their_digests_and_compiled(cache):
    module = jit.load("t1", TWO)
    assert module.total(10) == sum(i % 7 for i in range(10)) and module.twice(10) == 2 * module.total(10) + 3
    assert module.STEP == 3
    split = jit.parts(TWO)
    assert [part.defines for part in split.parts] == ["total", "twice"]     # callee first
    written = {path.stem: path.read_text() for path in cache.glob("rulespec_jit_fn_*.py")}
    assert written == {part.name: part.text for part in split.parts}
    total, twice = split.parts
    assert f"from {total.name} import total" in twice.text and "STEP = 3" in twice.text
    assert "STEP" not in total.text and "def twice" not in total.text
    assert jit.load("t1", TWO) is module            # once per process
    assert list((cache / "__pycache__").glob(f"{twice.name}.*.nbi"))  # numba's cache index, beside each part


def test_a_function_two_modules_share_is_one_part_compiled_once(cache):
    other = TWO.replace("2 * total(n)", "3 * total(n)")
    first, second = jit.parts(TWO), jit.parts(other)
    assert first.parts[0] == second.parts[0] and first.parts[1].name != second.parts[1].name
    jit.load("t6", TWO).twice(4)
    shared = jit.parts(TWO).parts[0].name
    index = next((cache / "__pycache__").glob(f"{shared}.*.nbi"))
    before = index.stat().st_mtime_ns
    assert jit.load("t6", other).twice(4) == 3 * 6 + 3
    assert index.stat().st_mtime_ns == before      # ``total`` not compiled again for the second module
    assert len(list(cache.glob("rulespec_jit_fn_*.py"))) == 3


def test_functions_that_call_one_another_are_refused():
    """(numba caches no recursive function: the generators write none)"""
    source = SOURCE + """

@numba.njit(cache=True)
def even(n):
    return True if n == 0 else odd(n - 1)


@numba.njit(cache=True)
def odd(n):
    return False if n == 0 else even(n - 1)
"""
    with pytest.raises(ValueError, match=r"call one another \((even -> odd -> even|odd -> even -> odd)\)"):
        jit.parts(source)


def test_a_top_level_statement_of_another_kind_is_refused():
    with pytest.raises(ValueError, match="line 3: only imports, functions and assignments"):
        jit.parts("import numba\n\nfor i in range(3):\n    pass\n")


def test_a_tampered_part_is_rewritten_not_run(cache):
    jit.load("t2", SOURCE)
    (part,) = jit.parts(SOURCE).parts
    written = cache / f"{part.name}.py"
    written.write_text(SOURCE + "\nraise SystemExit('tampered')\n")
    _forget(SOURCE, "t2")
    module = jit.load("t2", SOURCE)
    assert module.total(3) == 3
    assert written.read_text() == part.text


def test_other_source_other_module(cache):
    other = SOURCE.replace("i % 7", "i % 5")
    assert jit.load("t3", other).total(10) != jit.load("t3", SOURCE).total(10)
    assert len(list(cache.glob("rulespec_jit_fn_*.py"))) == 2


def test_compiled_says_whether_loading_would_compile(cache):
    other = TWO.replace("i % 7", "i % 3")
    assert not jit.compiled("t4", other)                 # nothing written yet
    jit.load("t4", other)
    assert jit.compiled("t4", other)                     # loaded in this process
    _forget(other, "t4")
    assert not jit.compiled("t4", other)                 # the parts, but no machine code cached yet
    jit.load("t4", other).total(4)
    _forget(other, "t4")
    assert not jit.compiled("t4", other)                 # one part's machine code cached, the other's not
    jit.load("t4", other).twice(4)
    _forget(other, "t4")
    assert not jit.compiled("t4", other)                 # machine code cached, but the compiling not marked complete
    jit.mark_compiled("t4", other)
    assert jit.compiled("t4", other)                     # numba's cache beside the parts: a later process loads it


def test_a_rewritten_part_loses_the_marks(cache):
    other = SOURCE.replace("i % 7", "i % 11")
    jit.load("t5", other).total(4)
    jit.mark_compiled("t5", other)
    (part,) = jit.parts(other).parts
    written = cache / f"{part.name}.py"
    written.write_text(part.text + "\n# changed\n")        # numba's cache of the old file no longer applies
    _forget(other, "t5")
    assert not jit.compiled("t5", other)
    jit.load("t5", other)                                # the part written again, the marks gone
    assert written.read_text() == part.text and not list(cache.glob("*.done"))
    _forget(other, "t5")
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
