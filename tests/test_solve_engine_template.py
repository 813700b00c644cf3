"""The compiled search's fixed text is a file the linters read (``solve/templates/search_engine.py``); each
name it imports on a line marked ``# generated`` must be one its generated module defines, the arrays' layout
with ``native_arrays``' values, and its stand-ins (``templates/names.py``) must be names it uses."""
from __future__ import annotations

import ast

import pytest

from rulespec.errors import NativeRuleError
from rulespec.model.ruleset import load_ruleset
from rulespec.model.variants import bundled_ids
from rulespec.solve import native_arrays, native_source, templates
from rulespec.solve.templates import names


def _top_level(source: str) -> dict[str, ast.AST]:
    """The module's top-level names: each function, and each assignment's value."""
    out: dict[str, ast.AST] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef):
            out[node.name] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = node.value
    return out


@pytest.mark.parametrize("variant", bundled_ids())
def test_the_generated_module_defines_every_name_the_template_imports(variant):
    try:
        source = native_source.source(load_ruleset(variant))
    except NativeRuleError:
        pytest.skip(f"{variant}: no compiled search")
    defined = _top_level(source)
    missing = [name for name in templates.imported("search_engine", ".names") if name not in defined]
    assert missing == []
    layout = templates.imported("search_engine", "..native_arrays")
    assert layout and all(ast.literal_eval(defined[name]) == getattr(native_arrays, name) for name in layout)
    assert source.endswith(templates.text("search_engine"))


def test_every_stand_in_is_a_name_the_template_imports():
    stand_ins = {name for name in vars(names) if not name.startswith("__") and name not in ("np", "annotations")}
    assert stand_ins == set(templates.imported("search_engine", ".names"))


def test_the_template_text_leaves_out_the_generated_lines():
    text = templates.text("search_engine")
    assert text.startswith("@njit(**ENGINE_JIT)\ndef ")
    assert "# generated" not in text and "import" not in text
