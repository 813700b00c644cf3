"""What the browser tests of the dispute page share (tests/test_page.py, test_page_table.py,
test_claim_page.py): the phone and desktop sizes, axe-core, screenshots, and entering a hand."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from serve_helpers import tab_on

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT_MS = 10_000
MINE = "(my house rules)"   # the rule-book option for house rules made or pasted on the page
# axe-core (bundled in axe-playwright-python) with every rule, the experimental ones too
# (label-content-name-mismatch is one); any violation fails the test.
AXE_OPTIONS = {"resultTypes": ["violations"],
               "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa",
                                                     "best-practice", "experimental"]}}
PHONE, DESKTOP = {"width": 375, "height": 812}, {"width": 1280, "height": 800}


@pytest.fixture(scope="session")
def shots(tmp_path_factory) -> Path:
    """The run's folder for screenshots and axe results (``shot_folder``); a test module takes it as
    ``shots = page_helpers.shots``."""
    return shot_folder(tmp_path_factory)


@pytest.fixture
def phone_page(browser, server):
    """A 375-px tab on the page once the variants are in (browser and server: tests/conftest.py)."""
    with tab_on(browser, server, "#variant option[value=standard]", PHONE, TIMEOUT_MS) as tab:
        yield tab


def shot_folder(tmp_path_factory) -> Path:
    """Where a run saves its screenshots and axe results for review: $SPADES_SHOTS, else a ``screenshots``
    folder under pytest's temporary directory (each test module's ``shots`` fixture)."""
    folder = Path(os.environ["SPADES_SHOTS"]) if os.environ.get("SPADES_SHOTS") else \
        tmp_path_factory.getbasetemp() / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def snap(page, shots: Path, name: str, selector: str | None = None) -> None:
    """The current state at phone and at desktop size (``selector`` scrolled to the top of the view)."""
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        if selector:
            page.locator(selector).first.evaluate("(el) => el.scrollIntoView({block: 'start'})")
        page.screenshot(path=shots / f"{name}-{size}.png")
    page.set_viewport_size(PHONE)


def keep(page, shots: Path, name: str) -> None:
    """The phone's view as it is now, saved as ``table-<name>.png``: into docs/screenshots/ with
    SPADES_SCREENSHOTS=1 (the set kept in the repository), else with the run's other screenshots."""
    folder = ROOT / "docs" / "screenshots" if os.environ.get("SPADES_SCREENSHOTS") else shots
    page.screenshot(path=folder / f"table-{name}.png")


def assert_accessible(page, shots: Path, state: str) -> None:
    """axe-core on the page as it is: no violation (the findings saved for review)."""
    from axe_playwright_python.sync_playwright import Axe
    found = Axe().run(page, options=AXE_OPTIONS).response["violations"]
    (shots / f"axe-{state}.json").write_text(json.dumps(
        [{"id": v["id"], "impact": v["impact"], "nodes": len(v["nodes"])} for v in found], indent=1))
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:5]) for v in found]
    assert not bad, f"{state}: {bad}"


def enter_hand(page, bids, tricks, before=None):
    for seat, bid in zip("NESW", bids):
        page.select_option(f"#bid-{seat}", str(bid))
    for seat, n in zip("NESW", tricks):
        page.fill(f"#tricks-{seat}", str(n))
    for key, value in (before or {}).items():
        page.fill(f"#{key}", str(value))


def rule(page):
    page.click("#hand button[type=submit]")


def compare_with(page, *ids):
    page.click("#compare-box summary")
    for vid in ids:
        page.check(f"#compare input[value='{vid}']")


def in_view(page, selector: str) -> bool:
    """Whether the top of ``selector`` is on the screen (not above it, not below the fold)."""
    top = page.evaluate(f"document.querySelector({json.dumps(selector)}).getBoundingClientRect().top")
    return -2 <= top < page.viewport_size["height"] - 40


def export_sheet(page, path: Path) -> dict:
    """The score sheet exported (*Export JSON*), saved at ``path`` and read back."""
    with page.expect_download() as download:
        page.click("#export")
    download.value.save_as(path)
    return json.loads(path.read_text())
