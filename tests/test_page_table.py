"""The dispute page at the table, second round (issue 33), on a 375-px phone in Debian's Chromium: every
answer in view with the focus on it, why two books differ naming every rule that moves the score, the
score sheet starting from the scores entered, the card picker following the pack, the layout at 375 px,
plain words, the reports served, and house rules made by tapping and shared by a link. axe-core finds
no violation in any state reached; SPADES_SCREENSHOTS=1 keeps the screenshots in docs/screenshots/
(table-*.png). The claim panel has its own file (test_claim_page.py)."""
from __future__ import annotations

import pytest

import page_helpers
from page_helpers import (MINE, PHONE, TIMEOUT_MS, assert_accessible, compare_with, enter_hand, in_view, keep, rule)

# Our table: a nil is worth 75, and a nil bidder's tricks neither help the partner nor count as bags.
OURS = """id: ours
extends: standard
source: {doc: house, title: Our table}
rules:
  nil.made: 75 @ house §Nil
  nil.failed: -75 @ house §Nil
  nil.tricks_count: false @ house §Nil
  nil.tricks_bags: false @ house §Nil
"""


shots = page_helpers.shots
page = page_helpers.phone_page


def fits(page) -> bool:
    """Nothing on the page wider than the phone (no sideways scrolling)."""
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def pick(page, *cards):
    for card in cards:
        page.click(f"#picker button[data-card='{card}']")


def house_rules(page, yaml: str, ok: str):
    page.select_option("#variant", MINE)
    page.fill("#house-yaml", yaml)
    page.locator("#house-status").filter(has_text=ok).wait_for()


# --------------------------------------------------------------------------- 1: the answer in view
def test_every_answer_lands_in_view_with_the_focus(page, shots):
    page.click("#trick-0")
    pick(page, "AH", "2S", "KH", "3H")
    page.click("#trick-form button[type=submit]")
    page.locator("#trick-answer .verdict").wait_for()
    assert page.evaluate("document.activeElement.id") == "trick-answer" and in_view(page, "#trick-answer")
    assert page.inner_text("#trick-answer .verdict") == "East wins the trick with 2♠."
    keep(page, shots, "trick-answer")
    assert_accessible(page, shots, "table-trick-answer")

    page.fill("#legal-hand", "AH 2S KD")
    page.fill("#legal-trick", "3H")
    page.fill("#legal-card", "KD")
    page.click("#legal-form button[type=submit]")
    page.locator("#legal-answer .verdict").wait_for()
    assert page.evaluate("document.activeElement.id") == "legal-answer" and in_view(page, "#legal-answer")
    assert_accessible(page, shots, "table-legal-answer")

    page.click("#claim-example")
    page.click("#claim-form button[type=submit]")
    page.locator("#claim-answer .verdict").wait_for()
    assert page.evaluate("document.activeElement.id") == "claim-answer" and in_view(page, "#claim-answer")
    assert_accessible(page, shots, "table-claim-answer")

    enter_hand(page, [4, 3, 4, 2], [4, 3, 4, 2])
    rule(page)
    page.locator("#ruling .ruling").wait_for()
    assert page.evaluate("document.activeElement.id") == "ruling" and in_view(page, "#ruling")
    assert_accessible(page, shots, "table-ruling-answer")
    # A card question the service refuses puts the focus on the box at fault instead.
    page.fill("#trick-1", "1X")
    page.click("#trick-form button[type=submit]")
    page.locator("#trick-answer .error").wait_for()
    assert page.evaluate("document.activeElement.id") == "trick-1"
    assert_accessible(page, shots, "table-trick-refused")


# --------------------------------------------------------------------------- 2: why they differ
def test_why_they_differ_names_every_rule_that_moves_the_score(page, shots):
    house_rules(page, OURS, "✓ ours: 4 rule(s)")
    compare_with(page, "standard")
    page.click("#compare-done")
    enter_hand(page, ["nil", 3, 4, 3], [1, 4, 4, 4])
    rule(page)
    summary = page.locator(".summary")
    summary.wait_for()
    sentences = " ".join(summary.locator("li").all_inner_texts())
    assert "Under ours (house) NS score −35 this hand, under standard (001) −59" in sentences
    for words in ("a failed nil costs 75 in ours and 100 in standard",
                  "a nil bidder's tricks count toward the partners' contract in standard, not in ours",
                  "in standard a failed nil bidder's tricks count as the partnership's bags"):
        assert words in sentences, (words, sentences)
    page.click(".differences summary")
    written = page.inner_text(".differences")
    assert "nil.tricks_count: ours false" in written and "nil.tricks_bags: ours false" in written
    page.evaluate("document.querySelector('.summary').scrollIntoView()")
    keep(page, shots, "why-they-differ")
    assert_accessible(page, shots, "table-why-they-differ")


# --------------------------------------------------------------------------- 3: the score sheet
def test_the_sheet_starts_a_game_from_the_scores_entered(page, shots):
    page.select_option("#variant", "pirates")
    enter_hand(page, [4, 4, 4, 3], [5, 1, 5, 2], {"score-NS": 100, "score-EW": -450})
    rule(page)
    game = page.locator(".ruling.yours .game")
    game.wait_for()
    assert game.inner_text().startswith("Game over: NS wins: the game ends when a side's score falls to −500 or "
                                        "below, and EW are on −520.")
    assert page.inner_text("#add-hand") == ("Add this hand to game 1 (scored under pirates), starting from "
                                            "NS 100 · EW −450")
    page.click("#add-hand")
    page.locator("#sheet-status").filter(has_text="Hand 1 added to game 1").wait_for()
    sheet = page.inner_text("#sheet")
    assert "Game over after 1 hand(s): NS won. NS 182 (2 bags), EW −520 (0 bags)." in sheet
    assert "This game started from NS 100 · EW −450." in sheet
    assert page.input_value("#score-EW") == "0"          # the game is over: the next hand starts a new one
    assert_accessible(page, shots, "table-sheet-game-over")

    # A game in progress, then a hand ruled from other scores: it starts a game of its own, and says so.
    enter_hand(page, [4, 3, 4, 2], [4, 3, 4, 2])
    rule(page)
    page.click("#add-hand")
    page.locator("#sheet-status").filter(has_text="Hand 1 added to game 2").wait_for()
    assert page.input_value("#score-NS") == "80"
    enter_hand(page, [4, 3, 4, 2], [4, 3, 4, 2], {"score-NS": 300})
    rule(page)
    page.locator("#add-note").filter(has_text="Game 2 stands at NS 80 · EW 50").wait_for()
    assert page.inner_text("#add-note") == ("Game 2 stands at NS 80 · EW 50, not the scores this hand was ruled from; "
                                            "it stays as it is, and this hand starts game 3.")
    assert page.inner_text("#add-hand").endswith("starting from NS 300 · EW 50")
    assert_accessible(page, shots, "table-sheet-new-game-note")
    page.click("#add-hand")
    page.locator("#sheet-status").filter(has_text="Hand 1 added to game 3").wait_for()
    page.reload()
    page.locator(".sheet-game .started-from").first.wait_for()
    assert page.locator(".sheet-game").count() == 3
    assert "After 1 hand(s): NS 380 (0 bags), EW 100 (0 bags)." in page.inner_text(".sheet-game >> nth=0")
    page.evaluate("document.getElementById('sheet-section').scrollIntoView()")
    keep(page, shots, "sheet-from-scores")
    assert_accessible(page, shots, "table-sheet-from-scores")


# --------------------------------------------------------------------------- 5: the card picker
def test_the_picker_offers_the_pack_and_tab_fills_the_first_empty_card(page, shots):
    page.select_option("#variant", "jokers-deuces")
    page.locator("#picker button[data-card='2H']").wait_for(state="hidden")
    for card in ("2H", "2C"):
        assert page.locator(f"#picker button[data-card='{card}']").is_hidden(), card
    for card in ("BJ", "LJ", "2D", "2S"):
        assert page.locator(f"#picker button[data-card='{card}']").is_visible(), card
    # The table: card 1 and the little joker as card 4 typed, card 2 still empty; tabbing through the
    # cards to the picker, Q♥ goes to card 2, not over the joker.
    page.fill("#trick-0", "AS")
    page.fill("#trick-3", "LJ")
    page.focus("#trick-0")
    for _ in range(4):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#picker') !== null")
    assert page.inner_text("#picker-target") == "Card 2: East"
    for key in ("Home", "ArrowDown", "ArrowRight", "ArrowRight"):
        page.keyboard.press(key)
    assert page.evaluate("document.activeElement.dataset.card") == "QH"
    page.keyboard.press("Enter")
    assert [page.input_value(f"#trick-{i}") for i in range(4)] == ["AS", "QH", "", "LJ"]
    # The arrows never land on a card the pack does not have.
    page.focus("#picker button[data-card='AH']")
    seen = []
    for _ in range(13):
        page.keyboard.press("ArrowRight")
        seen.append(page.evaluate("document.activeElement.dataset.card"))
    assert "2H" not in seen and "2C" not in seen and seen[11] == "AD"
    page.evaluate("document.getElementById('picker').scrollIntoView()")
    keep(page, shots, "picker-pack")
    assert_accessible(page, shots, "table-picker-pack")
    page.select_option("#variant", "standard")
    page.locator("#picker button[data-card='BJ']").wait_for(state="hidden")
    assert page.locator("#picker button[data-card='2H']").is_visible()


# --------------------------------------------------------------------------- 6: the layout at 375 px
def test_the_layout_holds_at_375_px(page, shots):
    page.select_option("#variant", "tournament")
    page.select_option("#bid-W", "blind nil")
    error = page.locator("#bid-W-error").filter(has_text="West may not bid blind nil")
    error.wait_for()
    box = error.bounding_box()
    fieldset = page.locator("#hand fieldset").first.bounding_box()
    assert box["width"] > 0.85 * fieldset["width"] and box["height"] < 5 * 24, box
    assert page.locator("#bid-W").bounding_box()["width"] >= 120      # "blind nil" shown whole
    assert fits(page)
    page.evaluate("document.getElementById('hand-section').scrollIntoView()")
    keep(page, shots, "bid-refusal")
    assert_accessible(page, shots, "table-bid-refusal")

    long_line = OURS.replace("nil.tricks_bags: false", "nil.tricks_bags: nil.tricks_count and not nil.tricks_countt")
    house_rules(page, long_line, "1 problem in the house rules")
    problem = page.locator("#house-problems pre").first
    assert problem.evaluate("(pre) => pre.scrollWidth <= pre.clientWidth")      # the caret is in view, not cut
    assert "^" in problem.inner_text() and "…" in problem.inner_text()
    assert fits(page)
    page.evaluate("document.getElementById('house-problems').scrollIntoView({block: 'center'})")
    keep(page, shots, "house-problem")
    assert_accessible(page, shots, "table-house-problem")

    page.click("#compare-box summary")
    listing = page.locator("#compare-box fieldset").bounding_box()
    assert listing["height"] < 0.6 * PHONE["height"], listing    # fourteen books in two columns
    assert fits(page)
    page.evaluate("document.getElementById('compare-box').scrollIntoView()")
    keep(page, shots, "compare-open")
    assert_accessible(page, shots, "table-compare-open")
    page.click("#compare-done")
    assert not page.evaluate("document.getElementById('compare-box').open")
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"


# --------------------------------------------------------------------------- 7: plain words
def test_the_words_are_plain(page, shots):
    page.select_option("#variant", "tournament")
    page.select_option("#bid-W", "blind nil")
    page.locator("#bid-W-error").filter(has_text="only when EW are behind by 200 or more").wait_for()
    assert ("blind nil is allowed only when EW are behind by 200 or more: EW are on 0 against NS on 0"
            in page.inner_text("#bid-W-error"))
    page.select_option("#variant", "standard")
    enter_hand(page, [4, 4, 4, 3], [5, 1, 5, 2])
    rule(page)
    page.locator(".ruling.yours").wait_for()
    assert "the overtrick bonus (2 overtricks, tricks won beyond the bid, at 1 each) scores 2" in \
        page.inner_text(".ruling.yours")
    assert "overtrick(s)" not in page.inner_text("#ruling")
    keep(page, shots, "plain-words")
    assert_accessible(page, shots, "table-plain-words")


# --------------------------------------------------------------------------- 9: reports on a phone
@pytest.mark.parametrize("path", ["/reports/", "/reports/report.html", "/reports/verify/index.html",
                                  "/reports/conformance/001-standard/report.html",
                                  "/reports/diff?variants=standard,classic&deals=5"])
def test_reports_served_and_read_on_a_phone(page, server, shots, path):
    page.goto(f"{server}{path}")
    assert page.get_attribute("meta[name=viewport]", "content") == "width=device-width, initial-scale=1"
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    assert fits(page), path
    # every table fits its box: no column cut off, none to swipe to
    wide = page.evaluate("[...document.querySelectorAll('table')].filter((t) => t.scrollWidth > "
                         "t.parentElement.clientWidth + 1).length")
    assert wide == 0, path
    name = path.strip("/").replace("/", "-").split("?")[0].removesuffix(".html") or "reports"
    table = page.locator("table")
    if table.count():
        table.first.scroll_into_view_if_needed()
    keep(page, shots, f"report-{name}")
    assert_accessible(page, shots, f"table-report-{name}")


# --------------------------------------------------------------------------- 10: house rules by tapping
SHARED_CLAIM = {"N": "JC AS KH", "E": "KD 9D 9H", "S": "8H KC 10D", "W": "AD 10S 10H"}


def test_house_rules_made_by_tapping_and_shared_by_a_link(page, browser, shots):
    page.select_option("#variant", MINE)
    page.locator("#house-status").filter(has_text="✓ our-table: 0 rule(s)").wait_for()
    assert page.input_value("#hf-nil-made") == "100"     # the form starts from the rules of standard
    page.fill("#hf-nil-made", "75")
    page.keyboard.press("Tab")
    page.fill("#hf-nil-failed", "-75")
    page.keyboard.press("Tab")
    page.select_option("#hf-blind_nil-allowed", "2")     # only when the side is behind by at least …
    page.fill("#hf-blind_nil-allowed-n", "150")
    page.keyboard.press("Tab")
    page.select_option("#hf-game-target", "250")
    page.select_option("#hf-play-lead", "1")             # spades may be led at any time
    page.select_option("#hf-nil-exchange", "2")          # a nil bidder and partner swap two cards
    page.locator("#house-status").filter(has_text="✓ our-table: 6 rule(s)").wait_for()
    yaml = page.input_value("#house-yaml")
    for line in ("  nil.made: 75 @ house §Nil", "  nil.failed: -75 @ house §Nil",
                 "  blind_nil.allowed: opponents.score - team.score >= 150 @ house §Nil",
                 "  nil.exchange: 2 @ house §Nil",
                 "  game.target: 250 @ house §Game", "  play.lead: hand @ house §Leading"):
        assert line in yaml.splitlines(), (line, yaml)
    page.evaluate("document.getElementById('house-form-box').scrollIntoView()")
    keep(page, shots, "house-form")
    assert_accessible(page, shots, "table-house-form")
    # The YAML typed by hand sets the form.
    page.fill("#house-yaml", yaml.replace("nil.made: 75", "nil.made: 80"))
    page.wait_for_function("document.getElementById('hf-nil-made').value === '80'")
    assert_accessible(page, shots, "table-house-form-from-yaml")

    page.click("#share")
    page.wait_for_function("document.getElementById('share-link').value.includes('#rules=')")
    link = page.input_value("#share-link")
    assert link.startswith(page.url.split("#")[0] + "#rules=z.")
    page.locator("#share-status").filter(has_text="Anyone who opens the link gets our-table").wait_for()
    keep(page, shots, "share-link")
    assert_accessible(page, shots, "table-share-link")

    # Another phone at the table, with house rules of its own, opens the link.
    other = browser.new_context(viewport=PHONE)
    other.set_default_timeout(TIMEOUT_MS)
    tab = other.new_page()
    tab.goto(link.split("#")[0])
    tab.wait_for_selector("#variant option[value=standard]", state="attached")
    tab.evaluate("localStorage.setItem('spades-rulespec.prefs', JSON.stringify({variant: '(my house rules)', "
                 "yaml: 'id: mine\\nextends: classic\\nsource: {doc: house, title: t}\\nrules:\\n'}))")
    tab.goto("about:blank")
    tab.goto(link)
    tab.locator("#house-status").filter(has_text="✓ our-table: 6 rule(s)").wait_for()
    assert tab.evaluate("location.hash") == ""            # the rules are in the page now, not in its address
    assert tab.input_value("#variant") == MINE and "nil.made: 80 @ house §Nil" in tab.input_value("#house-yaml")
    assert tab.input_value("#hf-nil-made") == "80"
    assert "Your own are kept" in tab.inner_text("#shared-note")
    keep(tab, shots, "shared-opened")
    assert_accessible(tab, shots, "table-shared-opened")
    # Every dispute on that phone runs under the shared rules.
    enter_hand(tab, ["nil", 3, 4, 3], [0, 4, 5, 4])
    rule(tab)
    tab.locator(".ruling.yours").wait_for()
    assert tab.inner_text(".ruling.yours h3").startswith("our-table")
    assert "nil made (North bid nil, took 0): it scores 80" in tab.inner_text(".ruling.yours")
    for i, card in enumerate(["AH", "2S", "KH", "3H"]):
        tab.fill(f"#trick-{i}", card)
    tab.click("#trick-form button[type=submit]")
    tab.locator("#trick-answer h3").filter(has_text="our-table").wait_for()
    tab.fill("#legal-hand", "AS KH")
    tab.fill("#legal-card", "AS")
    tab.click("#legal-form button[type=submit]")
    tab.locator("#legal-answer .verdict").filter(has_text="Yes: A♠ may be played.").wait_for()
    for seat, cards in SHARED_CLAIM.items():
        tab.fill(f"#claim-{seat}", cards)
    tab.fill("#claim-k", "3")
    tab.click("#claim-form button[type=submit]")
    tab.locator("#claim-answer .verdict").filter(has_text="Yes: the claim holds for NS.").wait_for()
    assert tab.inner_text("#claim-answer h3").startswith("our-table")
    keep(tab, shots, "shared-claim")
    assert_accessible(tab, shots, "table-shared-claim")
    # The phone's own house rules come back with one tap.
    tab.click("#shared-note button")
    tab.locator("#house-status").filter(has_text="✓ mine").wait_for()
    assert_accessible(tab, shots, "table-shared-own-back")
    other.close()
    # A link cut short, or naming a book the service does not have, changes nothing and says so.
    page.evaluate("window.location.hash = 'rules=z.AAAA'")
    page.locator("#shared-note").filter(has_text="The link's rules were not opened").wait_for()
    assert_accessible(page, shots, "table-shared-link-refused")
    page.evaluate("window.location.hash = 'variant=nosuch'")
    page.locator("#shared-note").filter(has_text="“nosuch”, which this service does not have").wait_for()
    assert page.input_value("#variant") == MINE
    # The same link opened in a tab already on the page (only the address's fragment changes).
    page.fill("#house-yaml", OURS)
    page.locator("#house-status").filter(has_text="✓ ours").wait_for()
    page.evaluate(f"window.location.hash = {link.split('#')[1]!r}")
    page.locator("#house-status").filter(has_text="✓ our-table: 6 rule(s)").wait_for()
    assert "nil.made: 80" in page.input_value("#house-yaml")
