"""Issue 28, item 1: nothing a request sends can make the server open a file.

A house rule sent inline is built field by field (no YAML is written from the request's text), and
every way a request names a variant extends bundled variants only (``bundled_only``)."""
from __future__ import annotations

import pytest

from rulespec.app.disputes import answer
from rulespec.errors import InputError, RulesFileError
from rulespec.model import variants
from rulespec.model.ruleset import compile_spec
from rulespec.model.variants import VariantSpec, read_variant_text
from service.app import create_app
from api_requests import SCORE

# every character YAML (or a text reader) takes as a line break
BREAKS = ("\n", "\r", "\r\n", "\u2028", "\u2029", "\u0085", "\x0b", "\x0c")


@pytest.fixture
def opened(monkeypatch, tmp_path):
    """Every variant file read outside the bundled folder (the test fails on any), and a variant file
    that a successful attack would load (its id would show in the answer)."""
    seen: list[str] = []
    real = variants.read_variant_file

    def watch(path):
        if variants.Path(path).parent.resolve() != variants.bundled_dir().resolve():
            seen.append(str(path))
        return real(path)
    monkeypatch.setattr(variants, "read_variant_file", watch)
    planted = tmp_path / "planted.yaml"
    planted.write_text((variants.bundled_dir() / "standard.yaml").read_text().replace("id: standard", "id: planted"))
    return seen, str(planted)


def _attempts(path: str):
    """Inline house rules that try to add a top-level ``extends: PATH`` through a string field."""
    for br in BREAKS:
        tail = f"{br}extends: {path}"
        yield {"extends": "standard", "rules": {"nil.made": f"75 @ house §Nil{tail}"}}
        yield {"extends": "standard", "rules": {"nil.made": {"value": 75, "cite": f"house §Nil{tail}"}}}
        yield {"extends": "standard", "rules": {"nil.made": {"value": 75, "note": f"n{tail}"}}}
        yield {"extends": "standard", "rules": {"nil.made": {"value": 75, "unspecified": f"u{tail}"}}}
        yield {"extends": "standard", "rules": {"nil.made": {"value": 75, "choices": [f"c{tail}"]}}}
        yield {"extends": "standard", "params": {"my.p": f"1{tail}"}}
        yield {"extends": "standard", "title": f"t{tail}"}
        yield {"extends": "standard", "notes": f"n{tail}"}
        yield {"extends": f"standard{tail}"}
        yield {"extends": "standard", "id": f"x{tail}"}
        yield {"extends": "standard", "rules": {f"nil.made{tail}": 75}}


def test_no_inline_string_field_can_name_a_file(opened):
    seen, planted = opened
    count = 0
    for variant in _attempts(planted):
        count += 1
        try:
            result = answer("score", {**SCORE, "variant": variant})
        except InputError:
            continue        # (its problem may quote the request's own text, path and all: that is no read)
        assert "planted" not in result["variant"] and "planted" not in repr(result.get("chain"))
    assert count == 11 * len(BREAKS) and seen == []


@pytest.mark.parametrize("br", BREAKS)
def test_a_line_break_in_a_rule_text_stays_inside_the_rule(br):
    """The text is the rule's: a break in it is a break in the expression (here the citation's section
    runs to the end of the text), never a new key of the variant."""
    with pytest.raises(InputError) as info:
        answer("score", {**SCORE, "variant": {"extends": "standard",
                                             "rules": {"nil.made": f"75{br}extends: /proc/self/status"}}})
    assert info.value.field.startswith("variant.rules.nil.made")


def test_a_spec_built_by_hand_with_a_path_is_refused_at_resolution(opened):
    seen, planted = opened
    spec = VariantSpec(id="x", title="x", source={"doc": "house"}, extends=planted, notes="", file="variant")
    with pytest.raises(RulesFileError) as info:
        compile_spec(spec, bundled_only=True)
    assert "bundled variant id" in info.value.problems[0].message and seen == []
    for ref in ("/proc/self/status", "../variants/standard", "a\\b", "standard.yaml"):
        spec.extends = ref
        with pytest.raises(RulesFileError):
            compile_spec(spec, bundled_only=True)
    assert seen == []


def test_yaml_forms_extend_bundled_variants_only(opened):
    seen, planted = opened
    text = f"id: x\nextends: standard\nextends: {planted}\n"
    with pytest.raises(InputError) as info:
        answer("score", {**SCORE, "variant": {"yaml": text}})
    assert info.value.field == "variant.yaml"
    client = create_app().test_client()
    resp = client.post("/v1/variants/check", data=text, content_type="text/yaml")
    assert resp.status_code == 422 and "planted" not in resp.get_data(as_text=True).split("extends:")[0]
    assert seen == []


def test_duplicate_keys_in_yaml_are_refused_where_they_stand():
    with pytest.raises(RulesFileError) as info:
        compile_spec(read_variant_text("id: x\nextends: standard\nextends: classic\n", "t.yaml"))
    (p,) = info.value.problems
    assert (p.line, p.column) == (3, 1) and "'extends' is given twice" in p.message
    with pytest.raises(RulesFileError) as info:
        compile_spec(read_variant_text("id: x\nextends: standard\nrules:\n  nil.made:\n    value: 75\n"
                                       "    cite: house §A\n    cite: house §B\n", "t.yaml"))
    (p,) = info.value.problems
    assert (p.line, "'cite' is given twice" in p.message) == (7, True)
    with pytest.raises(RulesFileError) as info:       # a rule twice keeps its own message, with the rule
        compile_spec(read_variant_text("id: x\nextends: standard\nrules:\n  nil.made: 75 @ house §A\n"
                                       "  nil.made: 70 @ house §A\n", "t.yaml"))
    (p,) = info.value.problems
    assert "defined twice in 'rules'" in p.message and p.rule == "nil.made"
