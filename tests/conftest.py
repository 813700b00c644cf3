"""Shared fixtures."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from rulespec.model.ruleset import load_ruleset


@pytest.fixture(scope="session")
def standard():
    return load_ruleset("standard")


@pytest.fixture
def house(tmp_path: Path):
    """Compile a small house variant from YAML text (dedented)."""
    def build(text: str, name: str = "house.yaml"):
        path = tmp_path / name
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return load_ruleset(str(path))
    return build
