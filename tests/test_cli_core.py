"""Command line: check, show, rules, simulate."""
import json

from click.testing import CliRunner

from rulespec.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_check_bundled_ok():
    result = run("check", "standard", "variants/standard.yaml")
    assert result.exit_code == 0, result.output
    assert "ok — variant 'standard'" in result.output


def test_check_reports_problems_with_caret(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\nextends: standard\nrules:\n  nil.made: 10 * team.contrct @ house §Nil\n")
    result = run("check", str(bad))
    assert result.exit_code == 1
    assert f"{bad}:4:18" in result.output and "did you mean 'team.contract'?" in result.output
    assert "^" in result.output


def test_show_marks_inherited(tmp_path):
    child = tmp_path / "child.yaml"
    child.write_text("id: child\nextends: standard\nrules:\n  nil.made: 75 @ house §Nil\n")
    result = run("show", str(child))
    assert result.exit_code == 0
    assert "nil.made = 75" in result.output and "@ house §Nil" in result.output
    assert "[inherited from standard]" in result.output


def test_rules_lists_slots():
    result = run("rules")
    assert "trick.winner  (card)" in result.output and "context: trick.cards" in result.output


def test_simulate_writes_documented_jsonl(tmp_path):
    out = tmp_path / "hands.jsonl"
    result = run("simulate", "standard", "--hands", "3", "--seed", "5", "--out", str(out))
    assert result.exit_code == 0 and "3 hands" in result.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 3
    first = lines[0]
    assert set(first) >= {"variant", "seed", "hand", "dealer", "deal", "bids", "tricks", "tricks_per_seat",
                          "score", "totals", "game_status"}
    assert len(first["tricks"]) == 13 and sum(first["tricks_per_seat"].values()) == 13


def test_unknown_variant_is_a_clear_error():
    result = run("show", "standrad")
    assert result.exit_code == 2 and "did you mean 'standard'" in result.output


def test_lazy_commands_listed_with_their_own_short_help():
    import importlib
    from rulespec.cli import LazyGroup
    for name, (module, attr, short) in LazyGroup.LAZY.items():
        command = getattr(importlib.import_module(module), attr)
        assert command.get_short_help_str(10_000) == short, name
    result = run("--help")
    assert "diff" in result.output and "verify" in result.output
    assert run("diff", "--help").exit_code == 0 and run("verify", "--help").exit_code == 0


def test_python_dash_m_rulespec_is_the_command_line():
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "rulespec", "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.startswith("Usage: rulespec ") and "verify" in done.stdout
