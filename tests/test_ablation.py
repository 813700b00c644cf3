"""``differing_rules``: the rule slots whose behaviour may differ between two variants."""
import itertools
import textwrap

from rulespec.model.ablation import differing_rules
from rulespec.model.ruleset import load_ruleset, ruleset_from_text
from rulespec.model.variants import bundled_ids

ACE_BONUS_ONE = """\
    id: ace-bonus-one
    source: {doc: house, title: The ace bonus of 1}
    extends: last-trick-ace-bonus
    params:
      ace.bonus: {value: 1, cite: house §1}
"""

SPACED = """\
    id: spaced
    source: {doc: house, title: Standard's bags, spaced out}
    extends: standard
    rules:
      scoring.bags: "team.overtricks   @ house §1"
      nil.made: 100 @ house §1
"""


def test_a_parameter_a_rule_names_makes_the_rule_differ_and_white_space_does_not():
    base = load_ruleset("last-trick-ace-bonus")
    assert differing_rules(base, ruleset_from_text(textwrap.dedent(ACE_BONUS_ONE))) == ["bonus.last_trick"]
    standard = load_ruleset("standard")
    assert differing_rules(standard, ruleset_from_text(textwrap.dedent(SPACED))) == []


def test_every_pair_of_bundled_variants_alike_both_ways_and_none_with_itself():
    rss = [load_ruleset(v) for v in bundled_ids()]
    for a, b in itertools.combinations(rss, 2):
        assert differing_rules(a, b) == differing_rules(b, a), (a.id, b.id)
    assert not any(differing_rules(rs, rs) for rs in rss)
    assert differing_rules(load_ruleset("standard"), load_ruleset("tournament"))
