"""The dispute page at a table of three or two (issue 30's seat model), on a 375-px phone in Debian's Chromium:
cut-throat draws three seats (no West) and two-player two (N and E) with a score box per player, the hand is ruled
per player, and the panels built for four partnership seats are hidden with a note; back on standard the four
seats return. axe-core finds no violation in the states reached."""
from __future__ import annotations

import page_helpers
from page_helpers import assert_accessible, rule

shots = page_helpers.shots
page = page_helpers.phone_page


def test_cut_throat_draws_three_seats_and_rules_each_player(page, shots):
    page.select_option("#variant", "cutthroat")
    page.locator("#table-note").filter(has_text="3 players, each alone").wait_for()
    assert not page.is_visible("#bid-W") and not page.is_visible("#tricks-W") and page.is_visible("#bid-S")
    assert page.is_visible("#score-N") and not page.is_visible("#score-NS")
    assert not page.is_visible("#claim-section") and not page.is_visible("#sheet-section")
    for seat, bid, won in (("N", "5", "6"), ("E", "nil", "0"), ("S", "6", "11")):
        page.select_option(f"#bid-{seat}", bid)
        page.fill(f"#tricks-{seat}", won)
    page.fill("#score-E", "20")
    rule(page)
    page.locator("#ruling .ruling").first.wait_for()
    text = page.inner_text("#ruling")
    assert "N: +51 points" in text and "E: +100 points" in text and "S: +65 points" in text, text
    assert_accessible(page, shots, "seats-cutthroat")

    page.select_option("#variant", "standard")
    page.locator("#bid-W").wait_for(state="visible")
    assert page.is_visible("#score-NS") and not page.is_visible("#score-N") and page.is_visible("#sheet-section")


def test_two_player_draws_two_seats_and_rules_each_player(page, shots):
    page.select_option("#variant", "two-player")
    page.locator("#table-note").filter(has_text="2 players, each alone").wait_for()
    assert page.is_visible("#bid-N") and page.is_visible("#bid-E")
    assert not page.is_visible("#bid-S") and not page.is_visible("#bid-W") and not page.is_visible("#tricks-S")
    assert page.is_visible("#score-E") and not page.is_visible("#score-S") and not page.is_visible("#score-NS")
    assert not page.is_visible("#claim-section") and not page.is_visible("#sheet-section")
    for seat, bid, won in (("N", "nil", "0"), ("E", "5", "13")):
        page.select_option(f"#bid-{seat}", bid)
        page.fill(f"#tricks-{seat}", won)
    rule(page)
    page.locator("#ruling .ruling").first.wait_for()
    text = page.inner_text("#ruling")
    assert "N: +100 points" in text and "E: +58 points" in text, text
    assert_accessible(page, shots, "seats-two-player")

    page.select_option("#variant", "standard")
    page.locator("#bid-W").wait_for(state="visible")
    assert page.is_visible("#bid-S") and page.is_visible("#score-NS")
