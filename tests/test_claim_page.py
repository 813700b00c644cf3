"""The dispute page's claim panel (``service/static/claim.js``) in a headless browser: a claim judged
under two rule books side by side, its line stepped through, a bad card refused at its field."""
from __future__ import annotations

import os
import shutil

import pytest

from service.local import ServerError, gunicorn

CHROMIUM = os.environ.get("SPADES_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


@pytest.fixture(scope="module")
def page():
    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"no Chromium at {CHROMIUM}")
    try:
        with gunicorn(workers=1, threads=4) as base, sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            context = browser.new_context(viewport={"width": 375, "height": 800})
            context.set_default_timeout(15_000)
            tab = context.new_page()
            errors: list[str] = []
            tab.on("pageerror", lambda exc: errors.append(str(exc)))
            tab.goto(base)
            tab.wait_for_selector("#claim-variants input[value=tournament]", state="attached")
            yield tab
            browser.close()
            assert not errors, errors
    except ServerError as exc:
        pytest.fail(str(exc))


def test_claim_side_by_side_and_line(page):
    page.click("#claim-example")
    page.check("#claim-variants input[value=tournament]")
    page.fill("#claim-k", "2")
    page.click("#claim-form button[type=submit]")
    page.wait_for_selector("#claim-answer .ruling")
    rulings = page.locator("#claim-answer .ruling")
    assert rulings.count() == 2
    text = page.inner_text("#claim-answer")
    assert "standard: the claim fails" in text and "tournament: the claim fails" in text
    first = rulings.nth(0)
    first.get_by_role("button", name="trick ▶").click()
    assert "trick 11: N AS" in first.inner_text()


def test_bad_card_named_with_its_field(page):
    page.fill("#claim-W", "3S JH ZZ")
    page.click("#claim-form button[type=submit]")
    page.wait_for_selector("#claim-answer .problem")
    assert "hands.W[2]" in page.inner_text("#claim-answer .problem")
