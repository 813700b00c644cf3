"""compare names every rule whose change moves a number in the answer (issue 33, item 2): not only the
rules whose swap alone into the first variant moves it, but also those whose swap back out of the other
variant does, and rules that move it only together."""
from __future__ import annotations

from click.testing import CliRunner

from rulespec.app.disputes import compare
from rulespec.cli import main

FAILED_NIL = {"bids": {"N": "nil", "E": 3, "S": 4, "W": 3}, "tricks": {"N": 1, "E": 4, "S": 4, "W": 4}}
# Our table: a nil is worth 75, and a nil bidder's tricks neither help the partner nor count as bags.
OURS = {"id": "ours", "extends": "standard", "rules": {
    "nil.made": {"value": "75", "cite": "house §Nil"}, "nil.failed": {"value": "-75", "cite": "house §Nil"},
    "nil.tricks_count": {"value": "false", "cite": "house §Nil"},
    "nil.tricks_bags": {"value": "false", "cite": "house §Nil"}}}


def test_every_rule_that_moves_the_score_or_the_bags_is_named():
    result = compare({"variants": [OURS, "standard"], "kind": "score", "input": FAILED_NIL})
    (difference,) = result["differences"]
    moved = {f["field"]: (f["ours"], f["standard"]) for f in difference["fields"]}
    assert moved["teams.NS.points"] == (-35, -59) and moved["teams.NS.bags"] == (0, 1)
    named = {r["rule"]: r["changes"] for r in difference["rules"]}
    # nil.failed alone moves the points by 25; the failed nil's trick (toward the contract, as a bag) the rest.
    assert set(named) == {"nil.failed", "nil.tricks_count", "nil.tricks_bags"}, named
    assert "teams.NS.points" in named["nil.failed"]
    assert "teams.NS.bags" in named["nil.tricks_count"] and "teams.NS.bags" in named["nil.tricks_bags"]
    explained = {f for changes in named.values() for f in changes}
    assert explained == set(moved)          # every differing number has a rule behind it
    sentences = " ".join(difference["sentences"])
    for words in ("a failed nil costs 75", "toward the partners' contract", "as the partnership's bags"):
        assert words in sentences, (words, sentences)


def test_rules_that_matter_only_together_are_named_with_each_other():
    # A made nil is worth 50 when at least two of three switches are on: one switch changed alone, in
    # either variant, moves nothing; any two together do.
    majority = ("if (nil.partner_may_raise and bags.carry) or (nil.partner_may_raise and renege.lead) "
                "or (bags.carry and renege.lead) then 50 else 100")
    switches = ("nil.partner_may_raise", "bags.carry", "renege.lead")

    def table(vid: str, on: str) -> dict:
        return {"id": vid, "extends": "standard", "rules": {
            "nil.made": {"value": majority, "cite": "house §1"},
            **{name: {"value": on, "cite": "house §2"} for name in switches}}}
    made_nil = {"bids": {"N": "nil", "E": 3, "S": 4, "W": 3}, "tricks": {"N": 0, "E": 4, "S": 5, "W": 4}}
    result = compare({"variants": [table("off", "false"), table("on", "true")], "kind": "score", "input": made_nil})
    (difference,) = result["differences"]
    assert {f["field"] for f in difference["fields"]} == {"teams.NS.points", "teams.NS.score"}
    named = {r["rule"]: r for r in difference["rules"]}
    assert set(named) == set(switches)
    for name, rule in named.items():
        assert rule["changes"] == ["teams.NS.points", "teams.NS.score"]
        assert rule["together_with"] == sorted(set(switches) - {name})
    assert len(difference["sentences"]) == 3


def test_explain_compare_lists_them_too(tmp_path):
    path = tmp_path / "ours.yaml"
    path.write_text("id: ours\nextends: standard\nsource: {doc: house, title: Our table}\nrules:\n"
                    "  nil.made: 75 @ house §Nil\n  nil.failed: -75 @ house §Nil\n"
                    "  nil.tricks_count: false @ house §Nil\n  nil.tricks_bags: false @ house §Nil\n",
                    encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", str(path), "--bids", "N=nil,E=3,S=4,W=3",
                                       "--tricks", "N=1,E=4,S=4,W=4", "--compare", "standard"])
    assert result.exit_code == 0, result.output
    rules = result.output.split("Rules that differ:")[1]
    for name in ("nil.failed", "nil.tricks_count", "nil.tricks_bags"):
        assert f"  {name}\n" in rules, rules
