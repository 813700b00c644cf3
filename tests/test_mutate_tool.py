"""The mutation tool (devtools/mutate.py, ``make mutation``) samples, plants and names its mutants."""
from __future__ import annotations

import ast

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
