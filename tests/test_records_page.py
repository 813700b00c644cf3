"""The dispute page's "check a record" panel (``service/static/records.js``) in headless Chromium at phone
width: a record with a renege names the card and the rule; the Joker-Joker-Deuce-Deuce record scores under
its own options; a truncated record is refused with the line it stops at; the review names costly cards with
their positions; axe-core finds nothing serious.  The examples the panel offers are the bundled files."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulespec.records import read_records
from page_helpers import in_view
from serve_helpers import tab_on
from test_page import assert_accessible

ROOT = Path(__file__).resolve().parents[1]
PHONE = {"width": 375, "height": 812}


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    """Where axe-core's findings are saved for review."""
    return tmp_path_factory.mktemp("record-panel")


@pytest.fixture(scope="module")
def page(browser, server):
    with tab_on(browser, server, "#record-variant option[value=standard]", PHONE, 15_000) as tab:
        yield tab


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def _answer_in_view(page) -> None:
    """The answer (or the refusal) is scrolled into view and has the focus, as every answer on the page."""
    assert page.evaluate("document.activeElement.id") == "record-answer"
    assert in_view(page, "#record-answer")


def test_renege_named_with_its_card_and_rule(page, shots):
    page.click("#record-example-renege")
    page.click("#record-form button[type=submit]")
    page.wait_for_selector("#record-answer .record-hand")
    found = page.inner_text("#record-answer .record-irregular")
    assert "line 12" in found and "K♦" in found and "play.follow" in found and "001 §Turns" in found
    assert "1 with an irregular card" in page.inner_text("#record-answer .record-summary")
    _answer_in_view(page)
    assert page.get_attribute("#record-text", "aria-invalid") == "false"
    _no_sideways_scroll(page)
    assert_accessible(page, shots, "record-renege")


def test_renege_under_a_renege_penalty_is_scored(page, shots):
    page.click("#record-example-renege")
    page.select_option("#record-variant", "three-trick-renege")
    page.click("#record-form button[type=submit]")
    page.wait_for_selector("#record-answer .record-score")
    assert "renege" in page.inner_text("#record-answer .record-irregular")
    assert re.search(r"NS \+\d+ → \d+", page.inner_text("#record-answer .record-score"))
    _answer_in_view(page)
    assert_accessible(page, shots, "record-renege-scored")
    page.select_option("#record-variant", "")


def test_jokers_record_scores_under_its_own_options(page, shots):
    page.click("#record-example-jokers")
    page.click("#record-form button[type=submit]")
    page.wait_for_selector("#record-answer .record-hand")
    text = page.inner_text("#record-answer")
    assert "Judged under trickster (the record's own options, on jokers-deuces)" in text
    assert "Every card follows the rules." in text
    assert "NS −80 → " in text and "EW +60 → " in text
    _answer_in_view(page)
    assert_accessible(page, shots, "record-jokers")


def test_truncated_record_refused_at_its_line(page, shots):
    page.click("#record-example-jokers")
    text = page.input_value("#record-text")
    page.fill("#record-text", text.rsplit("JH DA HA SA", 1)[0])
    page.click("#record-form button[type=submit]")
    page.wait_for_selector("#record-answer .record-refused")
    refused = page.inner_text("#record-answer .record-refused")
    assert refused.startswith("record: ") and "line 21 [Play]" in refused and "stops after trick 12 of 13" in refused
    _answer_in_view(page)
    # the record's box is marked and tied to the refusal, for a screen reader
    assert page.get_attribute("#record-text", "aria-invalid") == "true"
    refusal_id = page.get_attribute("#record-answer .record-refused", "id")
    assert refusal_id in page.get_attribute("#record-text", "aria-describedby").split()
    assert_accessible(page, shots, "record-refused")


def test_review_names_costly_cards_with_positions(page, shots):
    page.click("#record-example-renege")
    page.select_option("#record-variant", "three-trick-renege")
    page.click("#record-review")
    page.wait_for_selector("#record-answer .record-review", timeout=60_000)
    heading = page.inner_text("#record-answer .record-review h3")
    assert heading.startswith("Hand 1: reviewed")
    assert page.evaluate("document.activeElement.id") == "record-answer"
    costly = page.locator("#record-answer .record-costly > li")
    assert costly.count() >= 1
    assert re.search(r"^[NESW]'s .+ at trick \d+ gave up", costly.first.inner_text())
    costly.first.locator("summary").click()
    assert '"hands"' in costly.first.locator("pre").inner_text()
    _no_sideways_scroll(page)
    assert_accessible(page, shots, "record-review")


def _panel_examples() -> dict[str, str]:
    source = (ROOT / "service" / "static" / "records.js").read_text(encoding="utf-8")
    block = source[source.index("const EXAMPLES = {"):source.index("\n};\n")]
    found = dict(re.findall(r"(\w+): `(.*?)`", block, re.S))
    return {name: text.replace('\\\\"', '\\"') for name, text in found.items()}


def test_the_panel_offers_the_bundled_examples():
    examples = _panel_examples()
    assert set(examples) == {"renege", "jokers"}
    for name, file in (("renege", "renege.pbn"), ("jokers", "jokers-deuces.ptn")):
        bundled = read_records((ROOT / "examples" / "records" / file).read_text(encoding="utf-8"))
        offered = read_records(examples[name])
        assert offered.hands and not offered.problems
        def hands(reading):
            return [(h.hands, h.dealer, h.bids, [r.cards for r in h.rows], h.options, h.recorded.totals
                     if h.recorded else None) for h in reading.hands]
        assert hands(offered) == hands(bundled)[:len(offered.hands)]
