"""The differential tester's double-dummy stage (``rulespec diff --double-dummy``)."""
from __future__ import annotations

from rulespec.model.ablation import differing_rules
from rulespec.model.ruleset import load_ruleset
from rulespec.tools.diff import doubledummy
from rulespec.tools.diff.attribution import INTERACTION


def test_double_dummy_stage_attributes_to_the_first_trick_rules():
    a, b = load_ruleset("standard"), load_ruleset("tournament")
    section = doubledummy.run([a, b], "7", 12, 4)
    (pair,) = section["pairs"]
    differ = [i for i in range(12)
              if doubledummy.lead_side_tricks(a, "7", i, 4) != doubledummy.lead_side_tricks(b, "7", i, 4)]
    assert pair["count"] == len(differ) > 0
    assert {r["rule"] for r in pair["attribution"]} <= {*differing_rules(a, b), INTERACTION}
    assert any(r["rule"].startswith("play.first_trick") for r in pair["attribution"])
    assert "## Double-dummy results" in doubledummy.markdown(section)


def test_diff_cli_writes_the_stage_only_when_asked(tmp_path):
    from click.testing import CliRunner

    from rulespec.cli import main
    args = ["diff", "standard", "pirates", "--deals", "2", "--jobs", "1", "--attribute", "0"]
    with_stage = CliRunner().invoke(main, [*args, "--double-dummy", "3", "--dd-cards", "3",
                                           "--out", str(tmp_path / "a")])
    assert with_stage.exit_code == 0, with_stage.output
    assert "## Double-dummy results" in (tmp_path / "a" / "report.md").read_text(encoding="utf-8")
    without = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "b")])
    assert without.exit_code == 0 and "Double-dummy" not in (tmp_path / "b" / "report.md").read_text(encoding="utf-8")
