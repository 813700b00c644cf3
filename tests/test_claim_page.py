"""The dispute page's claim panel (``service/static/claim.js``) in a headless browser: a claim judged
under two rule books side by side, its line stepped through, a bad card refused at its field."""
from __future__ import annotations

import pytest

from serve_helpers import tab_on


@pytest.fixture(scope="module")
def page(browser, server):
    """One phone-sized tab on the page, the claim panel loaded (browser and server: tests/conftest.py)."""
    with tab_on(browser, server, "#claim-variants input[value=tournament]", {"width": 375, "height": 800},
                15_000) as tab:
        yield tab


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
