"""The rules language: grammar, checking, and safety of compiled rules."""
import pytest

from rulespec.errors import CompileError, RulesFileError
from rulespec.lang.compiler import compile_tree, parse
from rulespec.core.schema import SLOTS

from rulespec.model.ruleset import ruleset_from_text as compile_text

BASE = "id: h\nextends: standard\nrules:\n"


def check(rules: str) -> RulesFileError:
    with pytest.raises(RulesFileError) as info:
        compile_text(BASE + rules)
    return info.value


@pytest.mark.parametrize("text", [
    "if hand.has(trick.led_suit) then hand & trick.led_suit else hand",
    "count(c in hand where c.suit == clubs) >= 2 and not trump_broken",
    "{lowest(hand & clubs)} | {AS, 10H, TH, Q♦, BJ}",
    "-10 * team.contract + (team.overtricks / 2) % 3",
    "x in [7, 8] or ♠ == spades",
])
def test_grammar_accepts_the_language(text):
    assert parse(text) is not None


def test_syntax_error_has_position_caret_and_expectation():
    err = check("  scoring.made: 10 * * team.contract @ 001 §Scoring\n")
    problem = err.problems[0]
    assert (problem.line, problem.column) == (4, 22)
    assert "unexpected '*'" in problem.message
    text = problem.format()
    assert "<string>:4:22" in text and text.splitlines()[-2].strip() == "^"
    assert "expected a value" in problem.message and problem.suggestion == "complete the expression with a value here"


def test_unknown_name_suggests_the_right_one():
    problem = check("  scoring.made: 10 * team.contrct @ 001 §Scoring\n").problems[0]
    assert "unknown name 'team.contrct'" in problem.message
    assert problem.suggestion == "did you mean 'team.contract'?"
    assert problem.rule == "scoring.made"


def test_unknown_rule_name_overrides_nothing():
    problem = check("  nil.mad: 75 @ house §Nil\n").problems[0]
    assert "overrides nothing" in problem.message and "nil.made" in problem.suggestion


def test_wrong_type_is_reported():
    problem = check("  nil.allowed: 3 @ house §Nil\n").problems[0]
    assert "must give a boolean" in problem.message


def test_every_problem_reported_in_one_run():
    err = check("  nil.made: 10 * * 2 @ h §a\n  nil.failed: team.x @ h §a\n  bags.limit: true @ h §a\n"
                "  nil.vaule: 1 @ h §a\n")
    assert len(err.problems) == 4
    assert [p.line for p in err.problems] == [4, 5, 6, 7]


def test_missing_citation_is_an_error():
    assert "no citation" in check("  nil.made: 75\n").problems[0].message


def test_params_can_refer_to_each_other_but_not_in_a_cycle():
    rs = compile_text(BASE + "  nil.made: nil.value @ h §n\n  nil.failed: -nil.value @ h §n\n"
                      "params:\n  nil.value: 75 @ h §n\n")
    assert rs.params["nil.value"] == 75
    err = check("  nil.made: a.b @ h §n\nparams:\n  a.b: a.c @ h §n\n  a.c: a.b + 1 @ h §n\n")
    assert any("cycle" in p.message for p in err.problems)


@pytest.mark.parametrize("attack", [
    "__import__('os')",
    "hand.__class__",
    "().__class__.__bases__",
    "open('/etc/passwd')",
    "eval('1')",
    "exec",
    "__builtins__",
    "hand.has.__globals__",
    "lambda: 1",
    "[c for c in hand]",
    "hand; import os",
])
def test_injection_attempts_are_rejected(attack):
    err = check(f"  play.lead: \"{attack}\"\n")
    assert err.problems and all(p.kind == "error" for p in err.problems)


def test_generated_code_has_no_builtins():
    slot = SLOTS["bags.limit"]
    compiled = compile_tree(parse("10").children[0], slot, {}, {})
    assert compiled.fn.__globals__["__builtins__"] == {}


def test_size_and_depth_are_bounded():
    with pytest.raises(CompileError, match="limit"):
        parse("1 + " * 600 + "1")
    deep = "-(" * 45 + "1" + ")" * 45
    err = check(f"  bags.limit: \"{deep}\"\n")
    assert any("nests 46 levels deep (45 of them minus signs)" in p.message for p in err.problems)


def test_enum_rule_accepts_only_its_choices():
    problem = check("  renege.mode: forfit @ 000 §Renege\n").problems[0]
    assert "one of: none, forfeit, transfer" in problem.message
    assert "forfeit" in problem.suggestion


def test_unknown_base_and_cycles(tmp_path):
    from rulespec.model.ruleset import load_ruleset
    (tmp_path / "a.yaml").write_text("id: a\nextends: b.yaml\nrules: {}\n")
    (tmp_path / "b.yaml").write_text("id: b\nextends: a.yaml\nrules: {}\n")
    with pytest.raises(RulesFileError, match="cycle: a -> b -> a"):
        load_ruleset(str(tmp_path / "a.yaml"))
    (tmp_path / "c.yaml").write_text("id: c\nextends: standrad\nrules: {}\n")
    with pytest.raises(RulesFileError, match="did you mean 'standard'"):
        load_ruleset(str(tmp_path / "c.yaml"))


def test_block_scalar_positions_point_into_the_block():
    err = check("  play.lead: >-\n    if trump_broken then hand\n    else hand - trump.sut\n    @ 001 §Turns\n")
    problem = err.problems[0]
    assert problem.line == 6 and "trump.sut" in problem.source_line, problem
    assert problem.source_line[problem.column - 1:].startswith("trump.sut")


# --------------------------------------------------------------------------- gaps found by the mutation run
@pytest.mark.parametrize("rule,position,message", [
    ("play.lead: hand & 5", (4, 21), "expected a set of cards, a suit or a card here, got a number"),
    ("play.lead: if trump_broken then hand else 5", (4, 14), "cannot combine a card set with a number"),
    ("play.lead: cards(hand, hand)", (4, 14), "cards() takes 1 argument, got 2"),
    ("play.lead: hand.has()", (4, 14), ".has() takes one argument (a suit, card or set of cards)"),
    ("play.lead: if hand in 5 then hand else hand", (4, 17),
     "'in' tests a card in a set of cards or a number in a list, not a card set in a number"),
    ("play.lead: if 5 in hand then hand else hand", (4, 17),
     "'in' tests a card in a set of cards or a number in a list, not a number in a card set"),
    ("scoring.made: 10 * ٣", (4, 22), "'٣' is not one of the digits 0-9"),
    ("scoring.made: 10 5", (4, 20), "unexpected '5'"),
])
def test_type_and_arity_errors_name_the_place_and_the_problem(rule, position, message):
    problem = check(f"  {rule} @ 001 §Scoring\n").problems[0]
    assert (problem.line, problem.column) == position and problem.message.startswith(message)


def test_an_error_on_a_later_line_of_a_block_rule_points_at_that_line():
    problem = check("  play.lead: >-\n    if trump_broken then hand\n    else hand & 5 @ 001 §Turns\n").problems[0]
    assert (problem.line, problem.column) == (6, 17)
    problem = check("  play.lead: >-\n    if trump_broken then hand\n    else hand.has() @ 001 §Turns\n").problems[0]
    assert (problem.line, problem.column) == (6, 10)


def _variant(rules: str):
    return compile_text("id: v\nsource: {doc: house, title: t}\nextends: standard\nrules:\n" + rules)


def test_set_operands_of_other_types_are_made_sets():
    from rulespec import game as E
    from rulespec.core import cards as C
    rs = _variant("  play.lead: if trump_broken then hand else clubs @ house §Play\n"
                  "  play.follow: if hand in clubs then hand - hearts else hand @ house §Play\n")
    hand = C.mask_of(C.parse_cards("2C 5C KH AS"))
    assert C.card_names(E.legal_cards(rs, hand, [], 2, False).cards) == ["2C", "5C"]       # clubs as a set
    only_clubs = C.mask_of(C.parse_cards("2C 5C"))
    assert E.legal_cards(rs, only_clubs, C.parse_cards("3H"), 2, True).cards == only_clubs  # a set in a suit


def test_a_bid_kind_is_a_value_a_rule_can_compare():
    from rulespec import game as E
    rs = _variant("  nil.allowed: partner.kind != regular @ house §Bids\n")
    bids = [None, None, E.Bid("regular", 4), None]
    assert E.bid_refusals(rs, 0, E.Bid("nil"), hand=0, dealer=3, bids=bids)[0]["rule"] == "nil.allowed"
    assert not E.bid_refusals(rs, 0, E.Bid("nil"), hand=0, dealer=3, bids=[None] * 4)


def test_highest_follows_each_variants_card_powers():
    from rulespec import game as E
    from rulespec.core import cards as C
    winner = "  trick.winner: highest(trick.cards & trick.led_suit) @ house §Tricks\n"
    trick = C.parse_cards("3H QH 2H AH")
    assert E.trick_winner(_variant(winner), trick)[0] == 3
    assert E.trick_winner(_variant(winner + "  card.power: 20 - card.rank @ house §Tricks\n"), trick)[0] == 2


def test_a_parameter_cannot_rank_cards_before_the_pack_is_known():
    problem = check("  bags.limit: highest({AS, KS}).rank @ 001 §Scoring\n").problems[0]
    assert problem.message == "a parameter is worked out before the pack's cards are, so it cannot use highest()"


def test_a_call_on_a_later_line_of_a_block_rule_points_at_that_line():
    for block in (">-", "|"):                                       # folded into one line, or kept as lines
        problem = check(f"  play.lead: {block}\n    if trump_broken then hand\n"
                        "    else cards(hand, hand) @ 001 §Turns\n"
                        ).problems[0]
        assert (problem.line, problem.column, problem.message) == (6, 10, "cards() takes 1 argument, got 2")


def test_highest_and_lowest_find_a_card_whatever_the_size_of_the_powers():
    """Powers past ±10**9 (a product of two allowed numbers) once left highest() and lowest() with no card."""
    from rulespec import game as E
    from rulespec.core import cards as C
    trick = C.parse_cards("QH 3H AH 5H")
    low = _variant("  card.power: card.rank * 100000 * 100000 @ house §Tricks\n"
                   "  trick.winner: lowest(trick.cards & trick.led_suit) @ house §Tricks\n")
    assert E.trick_winner(low, trick)[0] == 1
    upside_down = _variant("  card.power: 0 - card.rank * 100000 * 100000 @ house §Tricks\n")
    assert E.trick_winner(upside_down, trick)[0] == 1                    # the standard highest(): now 3H


@pytest.mark.parametrize("rule,position,message", [
    ("scoring.made: 1000000000", (4, 17), "a number in a rule has at most 9 digits; this one has 10"),
    ("nil.allowed: count(c in hand where 5) > 1", (4, 38), "the 'where' condition must be a boolean, not a number"),
    ("play.lead: hand & {highest(hand, hand)}", (4, 22), "highest() takes 1 argument, got 2"),
    ("nil.allowed: count(5 where true) > 1", (4, 22), "write count(c in SET where CONDITION)"),
    ("play.lead: if 5 < hand then hand else hand", (4, 17), "cannot combine a number with a card set"),
    ("scoring.made: 10 * (team.contract", (4, 36), "the rule ends too early; expected ')'"),
])
def test_more_errors_name_the_place_and_the_problem(rule, position, message):
    problem = check(f"  {rule} @ 001 §Scoring\n").problems[0]
    assert (problem.message, (problem.line, problem.column)) == (message, position)


def test_a_number_in_words_on_a_later_line_is_pointed_at():
    problem = check("  scoring.made: |\n    10 *\n    seventy five @ 001 §Scoring\n").problems[0]
    assert (problem.line, problem.column, problem.message) == (
        6, 5, "'seventy five' is a number written in words; a rule needs digits")
    problem = check("  scoring.made: |\n    10 *\n    5 * seventy five @ 001 §Scoring\n").problems[0]
    assert (problem.line, problem.column) == (6, 9)


def test_a_strict_subset_is_not_the_set_itself_and_ties_go_to_the_first_card():
    from rulespec import game as E
    from rulespec.core import cards as C
    rs = _variant("  play.lead: if hand < hand then hand - clubs else hand @ house §Play\n")
    hand = C.mask_of(C.parse_cards("2C 5C KH"))
    assert E.legal_cards(rs, hand, [], 2, True).cards == hand
    flat = _variant("  card.power: 0 @ house §Tricks\n  trick.winner: highest(trick.cards) @ house §Tricks\n")
    assert E.trick_winner(flat, C.parse_cards("QH 3H AH 5H"))[0] == 1      # all equal: the lowest card id, 3H
