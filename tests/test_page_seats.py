"""The dispute page at a table of three or two (issue 30's seat model), on a 375-px phone in Debian's Chromium:
cut-throat draws three seats (no West) and two-player two (N and E) with a score box per player, the hand is ruled
per player, a claim is a player's alone against the others, and the panels built for four partnership seats are
hidden with a note; back on standard the four seats return. axe-core finds no violation in the states reached."""
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
    assert page.is_visible("#claim-section") and not page.is_visible("#sheet-section")
    assert not page.is_visible("#claim-W") and page.is_visible("#claim-S")
    assert page.eval_on_selector_all("#claim-side option", "os => os.map(o => o.value)") == ["N", "E", "S"]
    for seat, bid, won in (("N", "5", "6"), ("E", "nil", "0"), ("S", "6", "11")):
        page.select_option(f"#bid-{seat}", bid)
        page.fill(f"#tricks-{seat}", won)
    page.fill("#score-E", "20")
    rule(page)
    page.locator("#ruling .ruling").first.wait_for()
    text = page.inner_text("#ruling")
    assert "N: +51 points" in text and "E: +100 points" in text and "S: +65 points" in text, text
    assert_accessible(page, shots, "seats-cutthroat")

    # N must lead the 2H (spades unbroken) and S may win it with the AH: E alone takes no trick, S one
    for seat, cards in {"N": "AS 2H", "E": "KS 5H", "S": "AH 3H"}.items():
        page.fill(f"#claim-{seat}", cards)
    for side, tricks, verdict in (("E", "1", "No: the claim fails for E."), ("S", "1", "Yes: the claim holds for S.")):
        page.select_option("#claim-side", side)
        page.fill("#claim-k", tricks)
        page.click("#claim-form button[type=submit]")
        page.locator("#claim-answer .verdict").filter(has_text=verdict).wait_for()
    why = page.inner_text("#claim-answer")
    assert "S, playing alone, takes at least 1 of the 2 tricks left against any defence by N and E" in why, why
    assert "partner" not in why.lower()
    assert_accessible(page, shots, "seats-cutthroat-claim")

    page.select_option("#variant", "standard")
    page.locator("#bid-W").wait_for(state="visible")
    assert page.is_visible("#score-NS") and not page.is_visible("#score-N") and page.is_visible("#sheet-section")
    assert page.is_visible("#claim-W")
    assert page.eval_on_selector_all("#claim-side option", "os => os.map(o => o.value)") == ["NS", "EW"]


def test_two_player_draws_two_seats_and_rules_each_player(page, shots):
    page.select_option("#variant", "two-player")
    page.locator("#table-note").filter(has_text="2 players, each alone").wait_for()
    assert page.is_visible("#bid-N") and page.is_visible("#bid-E")
    assert not page.is_visible("#bid-S") and not page.is_visible("#bid-W") and not page.is_visible("#tricks-S")
    assert page.is_visible("#score-E") and not page.is_visible("#score-S") and not page.is_visible("#score-NS")
    assert page.is_visible("#claim-section") and not page.is_visible("#sheet-section")
    assert not page.is_visible("#claim-S") and not page.is_visible("#claim-W") and page.is_visible("#claim-E")
    assert page.eval_on_selector_all("#claim-side option", "os => os.map(o => o.value)") == ["N", "E"]
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
