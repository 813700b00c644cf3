"""`rulespec check` end to end: every problem in one run, each with
file:line:column, the line with a caret and a hint where one can be given."""
from __future__ import annotations

import textwrap
from pathlib import Path

from click.testing import CliRunner

from rulespec.cli import main


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def check(*refs) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["check", *map(str, refs)])
    return result.exit_code, result.stdout, result.stderr


def caret_under(err: str, location: str, word: str) -> None:
    """The problem at ``location`` shows its line with a caret under ``word``."""
    lines = err.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith(location))
    source, caret = lines[i + 1], lines[i + 2]
    assert caret.strip() == "^"
    assert source[caret.index("^"):].startswith(word), (source, caret)


BAD = """\
    id: bad-table
    source: {doc: house, title: ours}
    extends: standard
    rules:
      nil.maed: 75 @ house §Nil
      bags.limit: true @ house §Bags
      scoring.made: 10 * team.contrct @ house §Scoring
      play.lead: hand - trumps @ house §Leading
      game.target: {value: 300, cit: house §Game}
    """


def test_every_problem_in_one_run(tmp_path):
    path = write(tmp_path, "bad.yaml", BAD)
    code, out, err = check(path)
    assert code == 1 and out == ""
    assert f"{path}: 6 problem(s)" in err
    # a rule that overrides nothing because of a typo in its name
    assert f"{path}:5:3: error: rule 'nil.maed': unknown rule 'nil.maed': it overrides nothing" in err
    assert "hint: did you mean 'nil.made'?" in err
    caret_under(err, f"{path}:5:3", "nil.maed")    # the caret is on the misspelt name, not its value
    # wrong type, with what the rule takes
    assert (f"{path}:6:15: error: rule 'bags.limit': rule 'bags.limit' must give a number, "
            "but this gives a boolean") in err
    assert "hint: 'bags.limit' takes a number (bags that trigger a penalty" in err
    caret_under(err, f"{path}:6:15", "true")
    # unknown context names
    assert f"{path}:7:22:" in err and "unknown name 'team.contrct'" in err
    assert "hint: did you mean 'team.contract'?" in err
    caret_under(err, f"{path}:7:22", "team.contrct")
    assert f"{path}:8:21:" in err and "hint: did you mean 'trump.suit'?" in err
    caret_under(err, f"{path}:8:21", "trumps")
    # an unknown key inside a rule, and the citation it therefore lacks
    assert f"{path}:9:29:" in err and "unknown key 'cit'" in err and "hint: did you mean 'cite'?" in err
    assert f"{path}:9:24:" in err and "rule has no citation" in err


def test_problems_come_in_file_order(tmp_path):
    path = write(tmp_path, "bad.yaml", BAD)
    _, _, err = check(path)
    lines = [int(line[len(str(path)) + 1:].split(":")[0]) for line in err.splitlines()
             if line.startswith(f"{path}:") and "error:" in line]
    assert lines == sorted(lines) and len(lines) == 6


def test_unknown_base_variant(tmp_path):
    path = write(tmp_path, "nobase.yaml", """\
        id: nobase
        extends: standrd
        rules:
          nil.made: 75 @ house §Nil
        """)
    code, _, err = check(path)
    assert code == 1
    assert f"{path}:2:10: error: 'extends': unknown variant 'standrd'; did you mean 'standard'?" in err
    caret_under(err, f"{path}:2:10", "standrd")


def test_unknown_base_still_reports_reading_problems(tmp_path):
    path = write(tmp_path, "nobase.yaml", """\
        id: nobase
        extends: standrd
        rules:
          nil.made: {value: 75, cite: house §Nil, nots: x}
        """)
    _, _, err = check(path)
    assert "unknown variant 'standrd'" in err and "unknown key 'nots'" in err
    assert f"{path}: 2 problem(s)" in err


def test_unknown_base_file(tmp_path):
    path = write(tmp_path, "child.yaml", "id: child\nextends: ./missing.yaml\nrules: {}\n")
    code, _, err = check(path)
    assert code == 1 and f"{path}:2:10:" in err and "no such variant file" in err


def test_cycle_of_extends(tmp_path):
    a = write(tmp_path, "a.yaml", "id: a\nextends: b.yaml\nrules:\n  nil.made: 75 @ house §Nil\n")
    b = write(tmp_path, "b.yaml", "id: b\nextends: ./a.yaml\nrules: {}\n")
    code, _, err = check(a)
    assert code == 1
    assert f"{b}:2:10: error: 'extends' makes a cycle: a -> b -> a" in err
    caret_under(err, f"{b}:2:10", "./a.yaml")


def test_same_id_as_the_base_is_not_called_a_cycle(tmp_path):
    path = write(tmp_path, "copy.yaml", "id: standard\nextends: standard\nrules:\n  nil.made: 75 @ house §Nil\n")
    code, _, err = check(path)
    assert code == 1
    assert "names a variant with the same id 'standard'" in err and "cycle" not in err
    assert "hint: give" in err and "its own id" in err


def test_yaml_syntax_error_has_position(tmp_path):
    path = write(tmp_path, "broken.yaml", "id: x\nextends: standard\nrules:\n  nil.made: [75\n")
    code, _, err = check(path)
    assert code == 1 and f"{path}:" in err and "not valid YAML" in err


def test_unknown_top_level_key(tmp_path):
    path = write(tmp_path, "keys.yaml", "id: x\nextend: standard\nrules: {}\n")
    _, _, err = check(path)
    assert f"{path}:2:1:" in err and "unknown key 'extend'" in err and "did you mean 'extends'?" in err


def test_ok_file_and_bad_file_in_one_run(tmp_path):
    good = write(tmp_path, "good.yaml", "id: good\nextends: standard\nrules:\n  nil.made: 75 @ house §Nil\n")
    bad = write(tmp_path, "bad.yaml", BAD)
    code, out, err = check(good, bad, "standard")
    assert code == 1
    assert f"{good}: ok — variant 'good'" in out and "standard: ok" in out
    assert f"{bad}: 6 problem(s)" in err


def test_unknown_bundled_id():
    code, _, err = check("clasic")
    assert code == 1 and "unknown variant 'clasic'; did you mean 'classic'?" in err


def test_example_house_rules_check_ok():
    code, out, _ = check("examples/house-rules.yaml")
    assert code == 0 and "ok — variant 'kitchen-table'" in out and "extends standard" in out
