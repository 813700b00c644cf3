"""The mutation tool (devtools/mutate.py, ``make mutation``) samples, plants and names its mutants."""
from __future__ import annotations

import ast
import json
import sys

import pytest

from devtools import mutate
from devtools.mutate import COPIED, GROUPS, ROOT, mutated_source, sample


def test_every_group_is_sampled_and_every_mutant_is_a_real_change():
    items = sample(2, 1)
    assert {group for group, _ in items} == set(GROUPS)
    assert sample(2, 1) == items                                   # the same seed, the same mutants
    for _, mutant in items:
        source = mutated_source(mutant)
        ast.parse(source)
        original = ast.unparse(ast.parse((ROOT / mutant.module).read_text(encoding="utf-8")))
        assert source != original, mutant.id


def test_what_the_tool_copies_and_runs_exists():
    assert all((ROOT / part).exists() for part in COPIED)
    assert all((ROOT / module).is_file() for modules, _ in GROUPS.values() for module in modules)
    assert all((ROOT / test).is_file() for _, tests in GROUPS.values() for test in tests)


def test_listed_equivalents_are_reported_apart_and_left_out_of_the_score(monkeypatch, tmp_path, capsys):
    group, mutant = sample(1, 3)[0]
    monkeypatch.setattr(mutate, "equivalent", lambda: {mutant.id: "cannot be told apart"})
    monkeypatch.setattr(sys, "argv", ["mutate", "--only", mutant.id, "--jobs", "1", "--out", str(tmp_path / "m.json")])
    mutate.main()                                                  # the only mutant is listed: nothing runs
    printed = capsys.readouterr().out
    assert f"equivalent (not scored): {mutant.id}  cannot be told apart" in printed
    assert "survived:" not in printed
    [record] = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))["results"]
    assert record["killed"] is None and record["equivalent"] == "cannot be told apart" and record["group"] == group


def test_the_score_counts_killed_over_run_mutants_and_equivalents_apart():
    results = [{"module": "a.py", "group": "scoring", "id": "k", "killed": True},
               {"module": "a.py", "group": "scoring", "id": "s", "killed": False},
               {"module": "b.py", "group": "answers", "id": "k2", "killed": True},
               {"module": "a.py", "group": "scoring", "id": "e", "killed": None, "equivalent": "same value"}]
    counts = mutate.summary(results)
    assert counts["module"]["a.py"] == {"killed": 1, "survived": 1, "equivalent": 1}
    assert counts["group"]["answers"] == {"killed": 1}
    lines = mutate.report(results).splitlines()
    assert any(line.startswith("group scoring") and "1 / 2" in line and "50%" in line and "1 equivalent" in line
               for line in lines)
    assert any(line.startswith("procedure + scoring + compiler") and "1 / 2" in line for line in lines)
    assert any(line.startswith("all ") and "2 / 3" in line and "67%" in line for line in lines)
    assert "survived: s" in lines and "equivalent (not scored): e  same value" in lines


def test_every_listed_equivalent_is_a_current_mutant_with_a_reason():
    listed = mutate.equivalent()
    known = mutate.all_mutants()
    assert [i for i in listed if i not in known] == []             # a stale id (the code moved) must be re-checked
    assert all(len(reason.split()) >= 4 for reason in listed.values())


def test_no_score_when_the_tests_fail_with_no_mutant_planted(monkeypatch, tmp_path):
    module = "rulespec/procedure/card_play.py"
    monkeypatch.setattr(mutate, "GROUPS", {"procedure": ((module,), ("tests/no_such_test_file.py",))})
    mutant = mutate.enumerate_mutants(module)[0]
    monkeypatch.setattr(sys, "argv", ["mutate", "--only", mutant.id, "--jobs", "1", "--out", str(tmp_path / "m.json")])
    with pytest.raises(SystemExit, match="the tests of procedure fail with no mutant planted"):
        mutate.main()
    assert not (tmp_path / "m.json").exists()
