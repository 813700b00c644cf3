"""Shared fixtures: the standard ruleset, small house variants, and for the browser tests of the page
(tests/test_page.py, tests/test_claim_page.py) a Chromium and a gunicorn server."""
from __future__ import annotations

import os
import shutil
import textwrap
import warnings
from pathlib import Path

import pytest

from rulespec.model.ruleset import load_ruleset
from serve_helpers import served

# a service process of the suite (the tests', the servers they start) never compiles a search module in the
# background: the tests compile what they need themselves (rulespec/solve/native.py, ``_compile_elsewhere``)
os.environ.setdefault("RULESPEC_PRECOMPILE", "off")

# ``make test`` runs the suite in a process per core (pytest-xdist, ``--dist loadgroup``): a group's tests run in
# one process, in order.  The files that compile the same numba modules share a group, so that no two processes
# compile one module at once (a solve module takes 15-30 s to compile, a hand module 4-7 s); every other file is
# a group of its own (its module fixtures made once).  The groups run heaviest first.
GROUPS = {
    "solve": ("test_solve_bench.py", "test_solve_native.py", "test_solve_native_entries.py",
              "test_solve_native_reuse.py", "test_solve.py", "test_solve_diff.py", "test_solve_quick.py",
              "test_solve_partition.py", "test_solve_compile_policy.py"),
    "hand": ("test_compiled.py", "test_bench_smoke.py", "test_simulate_stats.py", "test_simulate_out.py",
             "test_batch.py", "test_batch_replay.py", "test_hand_twins.py", "test_fast_paths.py", "test_cli_core.py",
             "test_diff_bundled.py", "test_engine.py", "test_house_rules.py", "test_properties.py"),
}
_GROUP_OF = {name: group for group, names in GROUPS.items() for name in names}
_FIRST = ("solve", "hand", "test_page.py", "test_api_fuzz.py")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Each test's xdist group (``GROUPS``, else its file), the heaviest groups first (a stable sort: the order
    within a group is kept).  First of the hooks: xdist's own (in each worker) turns the marks into the group
    names the scheduler reads, so a mark added after it groups nothing."""
    for item in items:
        name = item.path.name
        item.add_marker(pytest.mark.xdist_group(_GROUP_OF.get(name, name)))
    rank = {group: i for i, group in enumerate(_FIRST)}
    items.sort(key=lambda item: rank.get(_GROUP_OF.get(item.path.name, item.path.name), len(rank)))

CHROMIUM = os.environ.get("SPADES_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
HOW_TO_ENABLE = ("browser tests of the dispute page need Chromium, Playwright's and axe-core's Python packages: "
                 "`apt-get install chromium` (as root; or set SPADES_CHROMIUM=/path/to/chromium) and "
                 "`pip install -e '.[dev]'`")


@pytest.fixture(scope="session")
def standard():
    return load_ruleset("standard")


@pytest.fixture
def house(tmp_path: Path):
    """Compile a small house variant from YAML text (dedented)."""
    def build(text: str, name: str = "house.yaml"):
        path = tmp_path / name
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return load_ruleset(str(path))
    return build


def _missing() -> str | None:
    try:
        import axe_playwright_python  # noqa: F401
        import playwright.sync_api  # noqa: F401
    except ImportError as exc:
        return f"the {exc.name} package is not installed"
    if not os.access(CHROMIUM, os.X_OK):
        return f"no Chromium at {CHROMIUM}"
    return None


@pytest.fixture(scope="module")
def browser():
    missing = _missing()
    if missing:
        message = f"{missing}; {HOW_TO_ENABLE}"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        warnings.warn(f"skipping the browser tests: {message}", stacklevel=1)  # shown in pytest's summary
        pytest.skip(message)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        # launch() gives every run a fresh, temporary user-data-dir.
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def server():
    with served(workers=1, threads=4) as base:
        yield base
