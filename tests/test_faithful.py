"""Issue 15: irregular cards judged by kind, and reading notes tied to the rule that holds them."""
from __future__ import annotations

from rulespec import game as E
from rulespec.core import cards as C
from rulespec.game.play import irregularity
from rulespec.model.readings import readings_for
from rulespec.model.ruleset import load_ruleset, ruleset_from_text


def judge(variant: str, hand: str, trick: str, number: int, card: str, broken: bool = False) -> dict | None:
    rs = load_ruleset(variant)
    cards = C.parse_cards(trick.split()) if trick else []
    legal = E.legal_cards(rs, C.mask_of(C.parse_cards(hand.split())), cards, number, broken, explain=True)
    return irregularity(rs, legal, C.parse_card(card), not cards)


def test_a_legal_card_is_not_irregular():
    assert judge("tournament", "2C 3C 5H", "4C", 1, "2C") is None


def test_kinds_and_rulings_under_the_tournament_book():
    low_club = judge("tournament", "2C 3C 5H", "4C", 1, "3C")
    assert (low_club["kind"], low_club["renege"], low_club["ruling"]) == ("first_trick", False, "stands")
    assert low_club["broken"]["rule"] == "play.first_trick_suit"
    assert [d["rule"] for d in low_club["decided_by"]] == ["play.irregular"]
    discard = judge("tournament", "2C 3C 5H", "4C", 1, "5H")
    assert (discard["kind"], discard["renege"], discard["ruling"]) == ("renounce", True, "renege")
    early = judge("tournament", "AS 5H", "", 2, "AS")
    assert (early["kind"], early["renege"]) == ("trump_lead", True)
    assert [d["rule"] for d in early["decided_by"]] == ["renege.lead", "renege.mode"]


def test_an_early_spade_lead_is_refused_where_no_renege_is_defined():
    early = judge("standard", "AS 5H", "", 2, "AS")
    assert (early["kind"], early["renege"], early["ruling"]) == ("trump_lead", False, "refused")


def test_a_reading_note_follows_the_rule_not_the_variant_name():
    pirates = load_ruleset("pirates")
    assert [n["clause"] for n in readings_for(pirates, ["nil.tricks_bags"])] == ["002/scoring/failed-nil-bags"]
    mine = ruleset_from_text("id: mine\ntitle: t\nsource: {doc: house, title: t}\nextends: pirates\nrules:\n"
                             "  nil.tricks_bags: false @ house §Bags\n")
    assert readings_for(mine, ["nil.tricks_bags"]) == []


def test_explain_prints_the_irregular_card_and_the_readings():
    import click
    import yaml
    from pathlib import Path

    from rulespec.app.disputes import answer
    from rulespec.app.explain import render_score
    path = Path(__file__).parents[1] / "corpus" / "cases" / "faithful.yaml"
    cases = yaml.safe_load(path.read_text())["cases"]
    request = next(c["input"] for c in cases if c["name"].startswith("a club that is not the lowest"))
    text = click.unstyle("\n".join(render_score(answer("score", {**request, "variant": "tournament"}), request)))
    assert "E 3C (play[0][2]): breaking a rule of the first trick (play.first_trick_suit" in text
    assert "stands under play.irregular 000 §Renounce" in text
    assert "play.irregular (000/renege/other-irregular, 000 §Renege; unspecified)" in text
    assert "alternative: the hand forfeited as for a renege, or the record refused" in text


# --- issue 31: readings that were silent ---------------------------------------------------------------------
def test_every_rule_that_names_its_choices_is_a_reading():
    """A variant that lists other values for a rule (``choices``) records a choice its document offers: the
    answers that apply the rule say so."""
    from rulespec.model.variants import bundled_ids
    choices = [(vid, name) for vid in bundled_ids() for name, rule in load_ruleset(vid).rules.items()
               if rule.origin == vid and rule.choices]
    assert len(choices) >= 8
    silent = [(vid, name) for vid, name in choices if not readings_for(load_ruleset(vid), [name])]
    assert silent == []


def test_a_rule_rests_on_the_readings_of_the_parameters_it_names():
    rs = load_ruleset("last-trick-ace-bonus")
    notes = readings_for(rs, ["bonus.last_trick"])
    assert [(n["rule"], n["clause"]) for n in notes] == [
        ("nil.value", "003/p9/nil-value"), ("ace.bonus", "003/p9/ace-bonus"), ("nil_ace.bonus", "003/p9/nil-ace")]
    assert readings_for(rs, ["ace.bonus"])[0]["alternative"] == "a bonus of 1"


def test_an_inherited_rule_is_a_reading_only_where_its_document_is_silent():
    house = load_ruleset("house")
    [note] = readings_for(house, ["deal.next_dealer"])     # 003 never says who deals next
    assert (note["clause"], note["status"], note["cite"]) == (None, "unspecified", "001 §Setup")
    assert note["reading"] == "not stated in 003; inherited from standard: left_of(dealer)"
    assert readings_for(house, ["bid.team_contract"]) == []     # 003 ¶13 and ¶20 state it
    assert readings_for(load_ruleset("standard"), ["deal.next_dealer"]) == []
    # a house rule of one's own inherits on purpose: its document has no clause index
    mine = ruleset_from_text("id: mine\ntitle: t\nsource: {doc: house, title: t}\nextends: classic\nrules:\n"
                             "  nil.made: 60 @ house §Nil\n")
    assert readings_for(mine, ["deal.next_dealer", "nil.made"]) == []


def test_the_clauses_that_offer_a_choice_or_a_scope_are_marked():
    import yaml
    from pathlib import Path
    folder = Path(__file__).parents[1] / "corpus" / "clauses"
    status = {c["id"]: c["status"] for path in folder.glob("*.yaml")
              for c in yaml.safe_load(path.read_text(encoding="utf-8"))["clauses"]}
    offered = ["000/bidding/blind-nil-exchange", "001/variants/blind-nil", "001/variants/short-games",
               "001/variants/bag-rule-changes", "002/bidding/blind-nil-exchange", "002/scoring/failed-nil-tricks",
               "003/p6/target", "003/p7/target-choice", "003/p9/ace-bonus", "003/p9/nil-ace", "003/p10/passing",
               "003/p14/blind-nil-100", "003/p14/suicide-min-four", "003/p14/suicide-nil-needs-contract",
               "003/p16/wheels", "003/p17/pack", "003/p19/pack-options", "004/blind-nil/exchange",
               "004/winning/target-choices"]
    assert {cid: status[cid] for cid in offered} == dict.fromkeys(offered, "ambiguous")
