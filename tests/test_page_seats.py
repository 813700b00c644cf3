"""The dispute page at a table of three or two (issue 30's seat model), on a 375-px phone in Debian's Chromium:
cut-throat draws three seats (no West) and two-player two (N and E) with a score box per player, the hand is ruled
per player, a claim is a player's alone against the others, a trick has a card per seat and a card's legality is
asked at the table, and the score sheet is the table's own, a column per player, its game won by a player; back on
standard the four seats and their sheet return. axe-core finds no violation in the states reached; SPADES_SCREENSHOTS=1
keeps the screenshots in docs/screenshots/ (table-seats-*.png)."""
from __future__ import annotations


import page_helpers
from page_helpers import MINE, assert_accessible, export_sheet, keep, rule

shots = page_helpers.shots
page = page_helpers.phone_page


def test_cut_throat_draws_three_seats_and_rules_each_player(page, shots):
    page.select_option("#variant", "cutthroat")
    page.locator("#table-note").filter(has_text="3 players, each alone").wait_for()
    assert not page.is_visible("#bid-W") and not page.is_visible("#tricks-W") and page.is_visible("#bid-S")
    assert page.is_visible("#score-N") and not page.is_visible("#score-NS")
    assert page.is_visible("#claim-section") and page.is_visible("#sheet-section") and page.is_visible("#cards")
    assert not page.is_visible("#claim-W") and page.is_visible("#claim-S")
    assert page.eval_on_selector_all("#claim-side option", "os => os.map(o => o.value)") == ["N", "E", "S"]
    fill_hand(page, (("N", "5", "6"), ("E", "nil", "0"), ("S", "6", "11")))
    page.fill("#score-E", "20")
    text = ruling_text(page)
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
    assert page.is_visible("#claim-section") and page.is_visible("#sheet-section") and page.is_visible("#cards")
    assert not page.is_visible("#claim-S") and not page.is_visible("#claim-W") and page.is_visible("#claim-E")
    assert page.eval_on_selector_all("#claim-side option", "os => os.map(o => o.value)") == ["N", "E"]
    fill_hand(page, (("N", "nil", "0"), ("E", "5", "13")))
    text = ruling_text(page)
    assert "N: +100 points" in text and "E: +58 points" in text, text
    assert_accessible(page, shots, "seats-two-player")

    page.select_option("#variant", "standard")
    page.locator("#bid-W").wait_for(state="visible")
    assert page.is_visible("#bid-S") and page.is_visible("#score-NS")


def leaders(page) -> list[str]:
    return page.eval_on_selector_all("#leader option:not([disabled])", "os => os.map(o => o.value)")


def ask_trick(page, leader: str, cards: list[str]) -> str:
    page.select_option("#leader", leader)
    for i, card in enumerate(cards):
        page.fill(f"#trick-{i}", card)
    page.click("#trick-form button[type=submit]")
    verdict = page.locator("#trick-answer .verdict")
    verdict.wait_for()
    return verdict.inner_text()


def ask_legal(page, hand: str, trick: str, card: str) -> str:
    """The legal-card panel's answer to this question (waited for until it is not the answer before it: the
    previous answer's verdict would satisfy a plain wait at once)."""
    before = page.inner_text("#legal-answer")
    page.fill("#legal-hand", hand)
    page.fill("#legal-trick", trick)
    page.fill("#legal-card", card)
    page.click("#legal-form button[type=submit]")
    page.wait_for_function("""([old]) => { const e = document.querySelector('#legal-answer');
        return e && e.innerText !== old && e.querySelector('.verdict, .error'); }""", arg=[before])
    return page.inner_text("#legal-answer")


def test_cut_throat_tricks_have_three_cards_and_a_card_is_judged_at_the_table(page, shots):
    page.select_option("#variant", "cutthroat")
    page.locator("#table-note").filter(has_text="3 players, each alone").wait_for()
    assert leaders(page) == ["N", "E", "S"]
    assert page.is_visible("#trick-2") and not page.is_visible("#trick-3")
    page.select_option("#leader", "S")
    assert [page.inner_text(f"#trick-{i}-label") for i in range(3)] == ["Led by South", "Card 2: North", "Card 3: East"]
    # S leads the 2H, N plays the 3H, E ruffs: East wins; the card picker fills the trick's three boxes only
    page.click("#trick-0")
    for card in ("2H", "3H", "5S"):
        page.click(f"#picker button[data-card='{card}']")
    assert [page.input_value(f"#trick-{i}") for i in range(4)] == ["2H", "3H", "5S", ""]
    page.click("#trick-form button[type=submit]")
    page.locator("#trick-answer .verdict").filter(has_text="East wins the trick with 5♠.").wait_for()
    answer = page.inner_text("#trick-answer")
    assert "partner" not in answer.lower() and "NS" not in answer and "EW" not in answer, answer
    keep(page, shots, "seats-cutthroat-trick")
    assert_accessible(page, shots, "seats-cutthroat-trick")

    # side by side with standard: standard wants four cards, and says so in its own column
    page.click("#compare-box summary")
    page.check("#compare input[value='standard']")
    page.click("#trick-form button[type=submit]")
    page.locator("#trick-answer .ruling.differs .error").filter(has_text="4 cards").wait_for()
    assert "East wins the trick with 5♠." in page.inner_text("#trick-answer .ruling >> nth=0")
    assert_accessible(page, shots, "seats-cutthroat-trick-compared")
    page.uncheck("#compare input[value='standard']")

    # may S discard the 2S on a heart led by N with a heart still in hand? two cards already in the trick of three
    text = ask_legal(page, "AH 2S", "KH QH", "2S")
    assert page.inner_text("#legal-answer .verdict").startswith("No: 2♠ may not be played: hearts were led"), text
    assert "Cards allowed: A♥" in text and "partner" not in text.lower()
    assert page.get_attribute("#legal-trick", "data-cards") == "2"
    assert_accessible(page, shots, "seats-cutthroat-legal")
    # three cards already played is a whole trick at three seats: refused at its box, in words
    text = ask_legal(page, "AH 2S", "KH QH JH", "AH")
    assert "Cards already played to the trick: the trick so far has at most 2 cards" in text, text
    assert page.get_attribute("#legal-trick", "aria-invalid") == "true"
    keep(page, shots, "seats-cutthroat-legal-refused")
    assert_accessible(page, shots, "seats-cutthroat-legal-refused")

    page.select_option("#variant", "standard")
    page.locator("#trick-3").wait_for(state="visible")
    assert leaders(page) == ["N", "E", "S", "W"]


def test_two_player_tricks_have_two_cards(page, shots):
    page.select_option("#variant", "two-player")
    page.locator("#table-note").filter(has_text="2 players, each alone").wait_for()
    assert leaders(page) == ["N", "E"]
    assert page.is_visible("#trick-1") and not page.is_visible("#trick-2") and not page.is_visible("#trick-3")
    assert ask_trick(page, "E", ["KD", "AD"]) == "North wins the trick with A♦."
    assert page.inner_text("#trick-1-label") == "Card 2: North"
    keep(page, shots, "seats-two-player-trick")
    assert_accessible(page, shots, "seats-two-player-trick")
    text = ask_legal(page, "2S 3H", "KD", "2S")
    assert "Yes: 2♠ may be played." in text and "partner" not in text.lower(), text
    assert page.get_attribute("#legal-trick", "data-cards") == "1"
    assert_accessible(page, shots, "seats-two-player-legal")


CUT_HANDS = ({"bids": {"N": "5", "E": "nil", "S": "6"}, "tricks": {"N": "6", "E": "0", "S": "11"}},
             {"bids": {"N": "10", "E": "3", "S": "3"}, "tricks": {"N": "11", "E": "3", "S": "3"}})



def fill_hand(page, entries) -> None:
    """Each (seat, bid, tricks won) of a hand entered in the page's boxes."""
    for seat, bid, won in entries:
        page.select_option(f"#bid-{seat}", bid)
        page.fill(f"#tricks-{seat}", won)


def ruling_text(page) -> str:
    """The page's ruling of what is entered, once it is shown."""
    rule(page)
    page.locator("#ruling .ruling").first.wait_for()
    return page.inner_text("#ruling")

def enter(page, hand):
    for seat, bid in hand["bids"].items():
        page.select_option(f"#bid-{seat}", bid)
    for seat, won in hand["tricks"].items():
        page.fill(f"#tricks-{seat}", won)


def test_cut_throat_game_on_its_own_score_sheet(page, shots, tmp_path):
    page.select_option("#variant", "cutthroat")
    page.locator("#sheet-table").filter(has_text="3 players, each alone").wait_for()
    page.fill("#score-N", "400")
    enter(page, CUT_HANDS[0])
    rule(page)
    page.locator("#add-hand").filter(has_text="Add this hand to game 1 (scored under cutthroat), "
                                              "starting from North 400 · East 0 · South 0").wait_for()
    page.click("#add-hand")
    page.locator("#sheet-status").filter(has_text="Hand 1 added to game 1").wait_for()
    assert page.eval_on_selector_all("table.sheet thead th", "ts => ts.map(t => t.textContent)") == [
        "#", "North", "East", "South"]
    assert "This game started from North 400 · East 0 · South 0." in page.inner_text(".sheet-game")
    # Before the hand comes from the sheet, a box per player
    assert [page.input_value(f"#score-{s}") for s in "NES"] == ["451", "100", "65"]
    assert [page.input_value(f"#bags-{s}") for s in "NES"] == ["1", "0", "5"]
    enter(page, CUT_HANDS[1])
    rule(page)
    page.locator("#add-hand").filter(has_text="Add this hand to game 1 (scored under cutthroat)").wait_for()
    page.click("#add-hand")
    page.locator("#sheet-status").filter(has_text="Hand 2 added to game 1").wait_for()
    game = page.locator(".sheet-game").first
    assert "Game over after 2 hand(s): North won. North 552 (2 bags), East 130 (0 bags), South 95 (5 bags)." \
        in game.inner_text(), game.inner_text()
    rows = page.locator("table.sheet tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).inner_text().split() == ["1", "451", "(+51)", "bags", "1", "N", "5", "(6)",
                                                "100", "(+100)", "bags", "0", "E", "nil", "(0)",
                                                "65", "(+65)", "bags", "5", "S", "6", "(11)"]
    # no other bundled book plays at three seats alone: said instead of offering books of other tables
    assert page.locator("#rescore-0").count() == 0
    assert "No other bundled rule book is played at a table of 3 players, each alone" in game.inner_text()
    assert "Game over: North wins" in page.inner_text("#ruling")
    page.locator("#sheet-section").evaluate("(el) => el.scrollIntoView({block: 'start'})")
    keep(page, shots, "seats-cutthroat-sheet")
    assert_accessible(page, shots, "seats-cutthroat-sheet")

    exported = tmp_path / "cutthroat-sheet.json"
    data = export_sheet(page, exported)
    assert data["table"] == {"seats": 3, "sides": ["N", "E", "S"]}
    assert data["games"][0]["before"] == {"N": {"score": 400, "bags": 0}, "E": {"score": 0, "bags": 0},
                                          "S": {"score": 0, "bags": 0}}
    assert [h["bids"] for h in data["games"][0]["hands"]] == [{"N": 5, "E": "nil", "S": 6},
                                                             {"N": 10, "E": 3, "S": 3}]

    # standard has its own sheet (empty here), and will not take the cut-throat sheet
    page.select_option("#variant", "standard")
    page.locator("#sheet-table").wait_for(state="hidden")
    assert "No hands yet" in page.inner_text("#sheet")
    page.set_input_files("#import", str(exported))
    page.locator("#sheet-status").filter(has_text="is the score sheet of a table of 3 players, each alone").wait_for()
    assert "No hands yet" in page.inner_text("#sheet")
    assert_accessible(page, shots, "seats-sheet-import-refused")

    # back at three seats, the game is still there after a reload; an import of the sheet replaces it
    page.select_option("#variant", "cutthroat")
    page.locator("table.sheet tbody tr").nth(1).wait_for()
    page.reload()
    page.locator("table.sheet tbody tr").nth(1).wait_for()
    assert page.input_value("#variant") == "cutthroat"
    page.on("dialog", lambda dialog: dialog.accept())
    page.set_input_files("#import", str(exported))
    page.locator("#sheet-status").filter(has_text="Imported 1 game(s), 2 hand(s)").wait_for()
    assert "North won" in page.inner_text(".sheet-game")
    assert_accessible(page, shots, "seats-cutthroat-sheet-imported")


def test_two_player_game_on_its_own_score_sheet(page, shots):
    page.select_option("#variant", "two-player")
    page.locator("#sheet-table").filter(has_text="2 players, each alone (North, East)").wait_for()
    fill_hand(page, (("N", "nil", "0"), ("E", "5", "13")))
    rule(page)
    page.click("#add-hand")
    page.locator("#sheet-status").filter(has_text="Hand 1 added to game 1").wait_for()
    assert "After 1 hand(s): North 100 (0 bags), East 58 (8 bags)." in page.inner_text(".sheet-game")
    assert page.input_value("#score-E") == "58" and page.input_value("#bags-E") == "8"
    assert_accessible(page, shots, "seats-two-player-sheet")


# House rules at a table of three: a nil is worth 75 (cut-throat's is 100).
CUT_HOUSE = """id: our-cut
extends: cutthroat
source: {doc: house, title: Our cut-throat table}
rules:
  nil.made: 75 @ house §Nil
"""


def test_house_rules_of_three_seats_rescored_under_cut_throat(page, shots):
    page.select_option("#variant", MINE)
    page.fill("#house-yaml", CUT_HOUSE)
    page.locator("#house-status").filter(has_text="✓ our-cut").wait_for()
    page.locator("#table-note").filter(has_text="3 players, each alone").wait_for()
    enter(page, CUT_HANDS[0])
    rule(page)
    page.click("#add-hand")
    page.locator("#sheet-status").filter(has_text="Hand 1 added to game 1").wait_for()
    # only the books of the same table are offered: cut-throat, not standard nor solo
    assert page.eval_on_selector_all("#rescore-0 option", "os => os.map(o => o.value)") == ["cutthroat"]
    page.click("#rescore-0-go")
    rescored = page.locator("table.rescore")
    rescored.wait_for()
    assert rescored.locator("thead th").all_inner_texts() == ["#", "N", "E", "S"]
    east = rescored.locator("tbody td").nth(1)
    assert east.inner_text().split() == ["75", "(0)", "cutthroat:", "100", "(0)"]
    assert "differs" in east.get_attribute("class") and "differs" not in (
        rescored.locator("tbody td").nth(0).get_attribute("class") or "")
    assert "Under cutthroat: After 1 hand(s): North 51 (1 bag), East 100 (0 bags), South 65 (5 bags)." \
        in page.inner_text(".rescored")
    page.locator(".sheet-game").first.evaluate("(el) => el.scrollIntoView({block: 'start'})")
    keep(page, shots, "seats-house-rescored")
    assert_accessible(page, shots, "seats-house-rescored")


def test_six_handed_draws_six_seats_and_three_partnerships(page, shots):
    """Six-handed (005 §Six-handed): six seats, N E S W X Y, a score box per partnership of opposite seats (NW, EX,
    SY), the hand ruled per partnership, a trick of six cards, a claim by a partnership of three."""
    page.select_option("#variant", "six-handed")
    page.locator("#score-NW").wait_for(state="visible")
    assert all(page.is_visible(f"#bid-{s}") for s in "NESWXY")
    assert not page.is_visible("#score-NS") and not page.is_visible("#score-N") and page.is_visible("#score-SY")
    assert page.eval_on_selector_all("#claim-side option", "os => os.map(o => o.value)") == ["NW", "EX", "SY"]
    fill_hand(page, (("N", "nil", "0"), ("E", "2", "1"), ("S", "3", "1"), ("W", "3", "3"), ("X", "1", "1"),
                           ("Y", "2", "2")))
    text = ruling_text(page)
    assert "NW: +130 points" in text and "EX: −30 points" in text and "SY: −50 points" in text, text
    assert_accessible(page, shots, "seats-six-handed")

    assert leaders(page) == list("NESWXY") and page.is_visible("#trick-5")
    # X leads the KH, Y the AH, N ruffs with the 2S: North wins
    verdict = ask_trick(page, "X", ["KH", "AH", "2S", "3H", "QH", "JH"])
    assert verdict == "North wins the trick with 2♠.", verdict
    assert_accessible(page, shots, "seats-six-handed-trick")

    page.select_option("#variant", "standard")
    page.locator("#score-NS").wait_for(state="visible")
    assert not page.is_visible("#bid-X") and not page.is_visible("#trick-4") and not page.is_visible("#score-NW")
    assert leaders(page) == list("NESW")


def test_five_handed_draws_five_players_alone(page, shots):
    page.select_option("#variant", "five-handed")
    page.locator("#table-note").filter(has_text="5 players, each alone").wait_for()
    assert page.is_visible("#bid-X") and not page.is_visible("#bid-Y") and page.is_visible("#score-X")
    assert page.eval_on_selector_all("#claim-side option", "os => os.map(o => o.value)") == list("NESWX")
    fill_hand(page, (("N", "nil", "1"), ("E", "2", "2"), ("S", "3", "3"), ("W", "1", "2"), ("X", "2", "2")))
    text = ruling_text(page)
    assert "N: −99 points" in text and "W: +11 points" in text, text
    verdict = ask_trick(page, "X", ["10D", "6D", "QS", "LJ", "5C"])
    assert verdict.startswith("South wins the trick with"), verdict
    assert_accessible(page, shots, "seats-five-handed")


def test_six_handed_game_on_its_own_score_sheet(page, shots, tmp_path):
    """The sheet of six seats in partnerships is its own (not four seats' NS and EW), a column per partnership,
    its game won by the partnership alone at the top."""
    page.select_option("#variant", "six-handed")
    page.locator("#sheet-table").filter(has_text="6 seats in partnerships (NW, EX, SY)").wait_for()
    page.fill("#score-NW", "470")
    page.fill("#score-EX", "480")
    enter(page, {"bids": {"N": "2", "E": "2", "S": "1", "W": "1", "X": "2", "Y": "nil"},
                 "tricks": {"N": "2", "E": "2", "S": "0", "W": "1", "X": "2", "Y": "1"}})
    rule(page)
    page.locator("#add-hand").filter(has_text="Add this hand to game 1 (scored under six-handed)").wait_for()
    page.click("#add-hand")
    page.locator("#sheet-status").filter(has_text="Hand 1 added to game 1").wait_for()
    assert page.eval_on_selector_all("table.sheet thead th", "ts => ts.map(t => t.textContent)") == [
        "#", "NW", "EX", "SY"]
    game = page.locator(".sheet-game").first
    assert "Game over after 1 hand(s): EX won." in game.inner_text(), game.inner_text()
    assert "N 2 (2) · W 1 (1)" in page.inner_text("table.sheet tbody tr")
    keep(page, shots, "seats-six-handed-sheet")
    assert_accessible(page, shots, "seats-six-handed-sheet")
    data = export_sheet(page, tmp_path / "six-sheet.json")
    assert data["table"] == {"seats": 6, "sides": ["NW", "EX", "SY"]}
    page.select_option("#variant", "standard")
    page.locator("#sheet-table").wait_for(state="hidden")
    assert "No hands yet" in page.inner_text("#sheet")
