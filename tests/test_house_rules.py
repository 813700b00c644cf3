"""House-rule files: loading by id and path, scenario cases, `rulespec test`."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.cli import main
from rulespec.game import simulate
from rulespec.model.ruleset import load_ruleset
from rulespec.errors import ScenarioFileError
from rulespec.app.scenarios import load_cases, match, run_case, run_files

HOUSE = """\
    id: our-table
    source: {doc: house, title: Our table}
    extends: standard
    rules:
      nil.made: 75 @ house §Nil
      nil.failed: -75 @ house §Nil
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def cli(*args, input=None):
    return CliRunner().invoke(main, list(map(str, args)), input=input)


# --------------------------------------------------------------------------- loading
def test_bundled_by_id_user_by_path(tmp_path):
    rs = load_ruleset(write(tmp_path / "anywhere" / "ours.yaml", HOUSE))
    assert rs.id == "our-table" and rs.chain == ["standard", "our-table"]
    assert rs.params["bags.limit"] == load_ruleset("standard").params["bags.limit"]
    assert rs.rules["nil.made"].origin == "our-table" and rs.rules["bags.limit"].origin == "standard"


def test_user_file_extends_user_file_by_relative_path(tmp_path):
    write(tmp_path / "club" / "base.yaml", HOUSE)
    child = write(tmp_path / "club" / "friday" / "friday.yaml", """\
        id: friday
        source: {doc: house, title: Friday nights}
        extends: ../base.yaml
        rules:
          bags.penalty: -50 @ house §Bags
        """)
    rs = load_ruleset(child)
    assert rs.chain == ["standard", "our-table", "friday"]
    assert rs.rules["nil.made"].origin == "our-table" and rs.params["bags.penalty"] == -50


# --------------------------------------------------------------------------- scenarios
def test_tests_section_runs_against_its_variant(tmp_path):
    path = write(tmp_path / "ours.yaml", HOUSE + """\
    tests:
      - name: nil is 75
        input: {bids: {N: nil, E: 3, S: 4, W: 3}, tricks: {N: 0, E: 4, S: 5, W: 4}}
        output: {teams: {NS: {points: 116}}}
        cite: house §Nil
    """)
    [result] = run_files([path])
    assert result.passed, result.mismatches
    assert result.case.line == 8 and result.case.where == f"{path}:8"


def test_separate_case_file_names_the_variant(tmp_path):
    write(tmp_path / "rules" / "ours.yaml", HOUSE)
    cases = write(tmp_path / "tests" / "ours-cases.yaml", """\
        variant: ../rules/ours.yaml
        cases:
          - name: failed nil
            input: {bids: {N: nil, E: 3, S: 4, W: 3}, tricks: {N: 1, E: 4, S: 4, W: 4}}
            output: {teams: {NS: {points: -34, score: -34, bags: 1}}}
          - name: under standard it costs 100
            variant: standard
            input: {bids: {N: nil, E: 3, S: 4, W: 3}, tricks: {N: 1, E: 4, S: 4, W: 4}}
            output: {teams: {NS: {points: -59}}}
          - name: the books disagree
            input: {bids: {N: nil, E: 3, S: 4, W: 3}, tricks: {N: 0, E: 4, S: 5, W: 4}}
            expect:
              ../rules/ours.yaml: {output: {teams: {NS: {points: 116}}}, cite: house §Nil}
              standard: {output: {teams: {NS: {points: 141}}}, cite: 001 §Nil bids}
        """)
    results = run_files([cases])
    assert [r.passed for r in results] == [True] * 4, [r.mismatches for r in results]


def test_scores_bags_before_game_over_and_winner(tmp_path):
    path = write(tmp_path / "ours.yaml", HOUSE + """\
    tests:
      - name: the tenth bag costs 100 and bags roll over
        input:
          bids: {N: 5, E: 2, S: 4, W: 2}
          tricks: {N: 6, E: 2, S: 4, W: 1}
          before: {NS: {score: 420, bags: 9}, EW: {score: 300, bags: 0}}
        output:
          teams: {NS: {points: -9, bags_added: 1, score: 411, bags: 0}, EW: {points: -40, score: 260}}
          game: {over: false, winner: null}
      - name: the target is reached
        input:
          bids: {N: 5, E: 2, S: 5, W: 1}
          tricks: {N: 6, E: 2, S: 4, W: 1}
          before: {NS: {score: 420, bags: 9}, EW: {score: 300, bags: 0}}
        output:
          teams: {NS: {points: 100, score: 520, bags: 9}, EW: {score: 330}}
          game: {over: true, winner: NS}
    """)
    results = run_files([path])
    assert all(r.passed for r in results), [r.mismatches for r in results]


def test_full_deal_and_play_case(tmp_path):
    record = next(iter(simulate(load_ruleset("standard"), 1, seed=3)))
    case = {"name": "replayed hand", "input": {"dealer": record["dealer"], "deal": record["deal"],
                                               "bids": record["bids"],
                                               "play": [t["cards"] for t in record["tricks"]]},
            "output": {"tricks": record["tricks_per_seat"],
                       "teams": {t: {"points": record["score"][t]["points"]} for t in ("NS", "EW")}}}
    import yaml
    path = tmp_path / "replay.yaml"
    path.write_text(yaml.safe_dump({"variant": "standard", "cases": [case]}), encoding="utf-8")
    [result] = run_files([path])
    assert result.passed, result.mismatches


def test_legal_trick_and_error_cases():
    results = run_files(["examples/house-rules.yaml"])
    assert len(results) == 8 and all(r.passed for r in results)
    kinds = {r.case.kind for r in results}
    assert kinds == {"score", "legal", "trick"}


def test_renege_event_under_a_variant_with_a_penalty(tmp_path):
    path = write(tmp_path / "renege.yaml", """\
        id: strict
        source: {doc: house, title: strict}
        extends: standard
        rules:
          renege.mode: forfeit @ house §Renege
        tests:
          - name: E reneges, NS make their bid and EW are set
            input:
              bids: {N: 3, E: 3, S: 3, W: 3}
              tricks: {N: 3, E: 4, S: 3, W: 3}
              events: [{type: renege, seat: E}]
            output: {teams: {NS: {points: 60}, EW: {points: -60}}}
            cite: house §Renege
        """)
    [result] = run_files([path])
    assert result.passed, (result.mismatches, result.trail())


def test_match_is_lenient_about_card_names_and_order():
    assert match({"legal": ["TH", "as"]}, {"legal": ["AS", "10H"]}) == []
    assert match({"card": "TH"}, {"card": "10H"}) == []
    assert match({"legal": ["AS"]}, {"legal": ["AS", "10H"]}) != []
    assert match({"winner": "N"}, {"winner": "S"}) == [("winner", "N", "S")]
    assert match({"teams": {"NS": {"point": 1}}}, {"teams": {"NS": {"points": 1}}}) == [
        ("teams.NS.point", 1, "(missing; did you mean 'points'?)")]


@pytest.mark.parametrize("body, message", [
    ("cases:\n  - name: x\n    inptu: {}\n", "unknown key 'inptu'; did you mean 'input'?"),
    ("cases:\n  - name: x\n    kind: scroe\n    input: {}\n    output: {}\n",
     "unknown kind 'scroe'; did you mean 'score'?"),
    ("cases:\n  - name: x\n    input: {}\n", "no variant"),
    ("variant: standard\ncases:\n  - name: x\n    input: {}\n", "needs 'output'"),
    ("variant: standard\ncases: [\n", "not valid YAML"),
])
def test_bad_case_files_say_where(tmp_path, body, message):
    path = tmp_path / "cases.yaml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(ScenarioFileError) as exc:
        load_cases(path)
    assert message in str(exc.value) and str(path) in str(exc.value)
    assert exc.value.file == str(path)


def test_case_error_line_number(tmp_path):
    path = tmp_path / "cases.yaml"
    path.write_text("variant: standard\ncases:\n  - name: a\n    input: {}\n    output: {}\n"
                    "  - name: b\n    inptu: {}\n", encoding="utf-8")
    with pytest.raises(ScenarioFileError, match=rf"{path}:6: case 2 \(b\)") as exc:
        load_cases(path)
    assert (exc.value.file, exc.value.line) == (str(path), 6)


def test_variant_that_does_not_compile_is_an_error_not_a_mismatch(tmp_path):
    path = write(tmp_path / "typo.yaml", HOUSE.replace("nil.failed", "nil.faild") + """\
    tests:
      - name: nil is 75
        input: {bids: {N: nil, E: 3, S: 4, W: 3}, tricks: {N: 0, E: 4, S: 5, W: 4}}
        output: {teams: {NS: {points: 116}}}
    """)
    [result] = load_cases(path)
    res = run_case(result)
    assert not res.passed and "did you mean 'nil.failed'?" in res.error and f"{path}:6:" in res.error


# --------------------------------------------------------------------------- rulespec test
def test_cli_all_pass():
    result = cli("test", "examples/house-rules.yaml")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].split() == ["result", "variant", "case", "where"]
    assert "pass   kitchen-table  a made nil is worth 75" in result.stdout
    assert result.stdout.rstrip().endswith("8 case(s): 8 passed, 0 failed")
    assert "\x1b[" not in result.stdout  # no colour when not a terminal


def test_cli_failure_shows_expected_actual_and_trail(tmp_path):
    path = write(tmp_path / "ours.yaml", HOUSE + """\
    tests:
      - name: right
        input: {bids: {N: nil, E: 3, S: 4, W: 3}, tricks: {N: 0, E: 4, S: 5, W: 4}}
        output: {teams: {NS: {points: 116}}}
      - name: wrong
        input: {bids: {N: nil, E: 3, S: 4, W: 3}, tricks: {N: 1, E: 4, S: 4, W: 4}}
        output: {teams: {NS: {points: -35}}}
    """)
    result = cli("test", path)
    assert result.exit_code == 1
    out = result.stdout
    assert f"pass   our-table  right  {path}:8" in out and f"FAIL   our-table  wrong  {path}:11" in out
    assert f"FAIL {path}:11: wrong  [our-table]" in out
    assert "teams.NS.points  expected -35, got -34" in out
    assert "rules applied:" in out
    trail = [line.split() for line in out.splitlines() if line.startswith("    NS ")]
    assert ["NS", "nil.failed", "-75", "nil", "failed", "(North", "bid", "nil,", "took", "1):", "it", "costs", "75",
            "house", "§Nil"] in trail
    assert any("001 §Scoring (inherited from standard)" in line for line in out.splitlines())
    assert out.rstrip().endswith("2 case(s): 1 passed, 1 failed")


def test_cli_compile_error_and_missing_file(tmp_path):
    typo = write(tmp_path / "typo.yaml", HOUSE.replace("nil.failed", "nil.faild") + """\
    tests:
      - name: one
        input: {bids: {N: nil, E: 3, S: 4, W: 3}, tricks: {N: 0, E: 4, S: 5, W: 4}}
        output: {teams: {NS: {points: 116}}}
      - name: two
        input: {bids: {N: nil, E: 3, S: 4, W: 3}, tricks: {N: 0, E: 4, S: 5, W: 4}}
        output: {teams: {NS: {points: 116}}}
    """)
    result = cli("test", typo)
    assert result.exit_code == 1
    assert result.stdout.count("did you mean 'nil.failed'?") == 1
    assert "the variant does not compile (see above)" in result.stdout
    assert "2 case(s): 0 passed, 0 failed, 2 could not run" in result.stdout
    result = cli("test", tmp_path / "nope.yaml")
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_cli_file_without_cases(tmp_path):
    path = write(tmp_path / "ours.yaml", HOUSE)
    result = cli("test", path)
    assert result.exit_code == 2 and "no test cases" in result.stderr
