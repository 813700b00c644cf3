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
    assert any("nested too deeply" in p.message for p in err.problems)


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
