"""The dispute page's claim panel in a headless browser at 375 px (issue 33, item 4): a claim judged under
the rules the table plays, house rules too, and the books it compares with, side by side; its line stepped
through with the cards as ♠♥♦♣; errors in words at their box; the inputs kept across a reload; rows and
buttons big enough to tap. axe-core finds no violation in any state reached."""
from __future__ import annotations

import re


import page_helpers
from page_helpers import MINE, assert_accessible, compare_with, keep

# Spades not broken; North holds A♠: with spades led at any time NS take all three tricks, else not.
ENDING = {"N": "JC AS KH", "E": "KD 9D 9H", "S": "8H KC 10D", "W": "AD 10S 10H"}
LEAD_ANY_TIME = """id: lead-any-time
extends: standard
source: {doc: house, title: Our table}
rules:
  play.lead: hand @ house §Leading
"""


shots = page_helpers.shots
page = page_helpers.phone_page


def claim(page, hands: dict, tricks: int, side: str = "NS"):
    for seat, cards in hands.items():
        page.fill(f"#claim-{seat}", cards)
    page.select_option("#claim-side", side)
    page.fill("#claim-k", str(tricks))
    page.click("#claim-form button[type=submit]")


def test_claims_run_under_house_rules_side_by_side(page, shots):
    page.select_option("#variant", MINE)
    page.fill("#house-yaml", LEAD_ANY_TIME)
    page.locator("#house-status").filter(has_text="✓ lead-any-time").wait_for()
    compare_with(page, "standard")
    page.click("#compare-done")
    claim(page, ENDING, 3)
    page.locator("#claim-answer .ruling").nth(1).wait_for()
    mine, other = page.locator("#claim-answer .ruling").nth(0), page.locator("#claim-answer .ruling").nth(1)
    assert mine.locator("h3").inner_text() == "lead-any-time"
    assert mine.locator(".verdict").inner_text() == "Yes: the claim holds for NS."
    assert other.locator("h3").inner_text() == "standard (differs)"
    assert other.locator(".verdict").inner_text() == "No: the claim fails for NS."
    other.get_by_role("button", name="Next trick ▶").click()
    first = other.locator(".line li").first.inner_text()
    assert re.fullmatch(r"Trick 11: North \w+[♠♥♦♣] · East \w+[♠♥♦♣] · South \w+[♠♥♦♣] · West \w+[♠♥♦♣] → "
                        r"(North|East|South|West)", first), first
    assert other.locator(".hint").filter(has_text="1 of 3 tricks of the line shown").count() == 1
    keep(page, shots, "claim-side-by-side")
    assert_accessible(page, shots, "claim-side-by-side")


def test_claim_errors_are_said_in_words_at_their_box(page, shots):
    claim(page, {**ENDING, "W": "AD 10S ZZ"}, 2)
    error = page.locator("#claim-answer .error")
    error.wait_for()
    assert error.inner_text().startswith("West's card 3: not a card: 'ZZ'")
    assert page.get_attribute("#claim-W", "aria-invalid") == "true"
    assert page.evaluate("document.activeElement.id") == "claim-W"
    assert_accessible(page, shots, "claim-error-at-box")
    claim(page, {**ENDING, "S": "8H KC KC"}, 2)
    page.locator("#claim-answer .error").filter(has_text="South's card 3: K♣ appears twice "
                                                         "(also entered as South's card 2)").wait_for()
    claim(page, ENDING, 5)
    page.locator("#claim-answer .error").filter(has_text="Tricks claimed: must be between 0 and 3, got 5").wait_for()
    assert page.evaluate("document.activeElement.id") == "claim-k"
    page.select_option("#variant", "jokers-deuces")
    claim(page, {**ENDING, "N": "JC AS 2C"}, 2)
    page.locator("#claim-answer .error").filter(
        has_text="North's card 3: 2♣ is not in the pack of variant 'jokers-deuces'").wait_for()
    assert "input." not in page.inner_text("#claim-answer") and "hands." not in page.inner_text("#claim-answer")
    keep(page, shots, "claim-error")
    assert_accessible(page, shots, "claim-errors")


def test_claim_inputs_survive_a_reload_and_are_big_enough_to_tap(page, shots):
    page.click("#claim-example")
    page.select_option("#claim-side", "EW")
    page.fill("#claim-k", "1")
    page.fill("#claim-trick", "")
    page.reload()
    page.wait_for_selector("#variant option[value=standard]", state="attached")
    page.wait_for_function("document.getElementById('claim-N').value === 'AS KH 2C'")
    assert page.input_value("#claim-side") == "EW" and page.input_value("#claim-k") == "1"
    assert page.is_checked("#claim-broken")
    page.click("#claim-form button[type=submit]")
    page.locator("#claim-answer .verdict").wait_for()
    small = page.evaluate("""[...document.querySelectorAll(`#claim-section button, #claim-section select,
        #claim-section input:not([type=checkbox]), #claim-section .field.check`)]
        .filter((el) => el.offsetParent !== null && el.getBoundingClientRect().height < 40)
        .map((el) => el.id || el.textContent.trim())""")      # (a seat's box hidden at this table is no target)
    assert small == []
    # The picker fills a seat's cards too, with the variant's pack.
    page.fill("#claim-E", "")
    page.click("#claim-E")
    for card in ("QS", "AH", "3C"):
        page.click(f"#picker button[data-card='{card}']")
    assert page.input_value("#claim-E") == "QS AH 3C"
    page.evaluate("document.getElementById('claim-section').scrollIntoView()")
    keep(page, shots, "claim-panel")
    assert_accessible(page, shots, "claim-panel")
