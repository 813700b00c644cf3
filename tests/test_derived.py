"""rulespec.core.derived: what the package derives from its own code, kept on disk between processes."""
from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest

from rulespec.core import derived
from rulespec.procedure.form import _Expander, form


@pytest.fixture()
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path))
    return tmp_path / "derived"


def test_worked_out_once_then_read_from_disk(folder):
    made = []

    def make():
        made.append(1)
        return ("value", frozenset({("a", "b")}))
    assert derived.kept("t", "k", make) == ("value", frozenset({("a", "b")}))
    assert derived.kept("t", "k", make) == ("value", frozenset({("a", "b")}))
    assert made == [1] and len(list(folder.iterdir())) == 1
    assert derived.kept("t", "other key", make) and made == [1, 1]


def test_an_unreadable_entry_is_worked_out_again_and_replaced(folder):
    derived.kept("t", "k", lambda: [1, 2, 3], fmt="pickle")
    (entry,) = folder.iterdir()
    entry.write_bytes(b"\x80\x05not a pickle")
    assert derived.kept("t", "k", lambda: [4], fmt="pickle") == [4]
    assert derived.kept("t", "k", lambda: [5], fmt="pickle") == [4]


def test_no_writable_folder_still_answers(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("RULESPEC_CACHE", str(blocked))
    monkeypatch.setattr(derived, "cache_root", lambda: blocked / "jit")
    assert derived.kept("t", "k", lambda: 7) == 7


def test_a_changed_source_file_is_another_entry(folder, monkeypatch):
    derived.kept("t", "k", lambda: 1)
    monkeypatch.setattr(derived, "source_digest", lambda: "another package")
    assert derived.kept("t", "k", lambda: 2) == 2


def _text(expander: _Expander, name: str) -> str:
    return ast.unparse(expander.function(name))


def test_a_function_expands_the_same_whichever_was_expanded_before(monkeypatch):
    """The names an expansion gives the variables of the functions written in are numbered per function: the
    text (and so the compiled engines' cache keys) never depends on what the process expanded first."""
    monkeypatch.setattr(derived, "kept", lambda kind, key, make, fmt="marshal": make())     # (no disk entries)
    functions = [name for name, fn in form().functions.items() if not fn.inline]
    first, last = functions[0], functions[-1]
    one = _Expander(frozenset({"*"}), frozenset())
    one.function(first)
    other = _Expander(frozenset({"*"}), frozenset())
    assert _text(one, last) == _text(other, last)


def test_a_new_process_reads_the_steps_from_disk(folder):
    """Two processes build the standard ruleset's scalar steps; the second finds them on disk and gives the same
    score (what every command and service worker does at start)."""
    script = ("from rulespec.model.ruleset import load_ruleset\n"
              "from rulespec.game.scoring import score_hand\nfrom rulespec.game.bids import parse_bid\n"
              "rs = load_ruleset('standard')\n"
              "print(score_hand(rs, [parse_bid(b) for b in (3, 'nil', 4, 2)], [4, 1, 5, 3])[0].points)\n")
    env = {**os.environ, "RULESPEC_CACHE": str(folder.parent)}
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120,
                           check=True).stdout for _ in range(2)]
    assert runs[0] == runs[1] and runs[0].strip()
    assert any(path.name.startswith("steps-") for path in folder.iterdir())


def test_a_variant_files_array_engine_is_lowered_once_then_read_from_disk(folder, monkeypatch):
    from rulespec.fast.array_hand import ArrayModule
    from rulespec.model.ruleset import load_ruleset
    rs = load_ruleset("standard")
    first = ArrayModule(rs)
    first.whole_hand                                    # lowered on first use, with what it calls
    assert "sensible_card" not in first.__dict__ and "bid_refusal" not in first.__dict__
    assert [p.name for p in folder.iterdir() if p.name.startswith("arrays-")]

    def refuse(self, entries):
        raise AssertionError(f"lowered again: {entries}")
    monkeypatch.setattr(ArrayModule, "_lowered_text", refuse)
    again = ArrayModule(rs)
    assert again.whole_hand is not None and again.choosers["whole_hand"] == first.choosers["whole_hand"]


def test_an_array_engine_of_a_variant_sent_with_a_request_is_not_kept(folder):
    from rulespec.app.inline import compile_inline
    from rulespec.fast.array_hand import ArrayModule
    rs = compile_inline({"extends": "standard", "rules": {"nil.made": "75 @ house §Nil"}}, "variant", 10)
    assert rs.sent
    ArrayModule(rs).whole_hand
    assert not folder.exists() or not [p for p in folder.iterdir() if p.name.startswith("array")]


def test_a_ruleset_that_differs_in_a_rule_lowers_again_only_the_functions_that_read_it(folder, monkeypatch):
    """Each array function is kept under what it reads of the rules (a parameter's value, the context names of
    any other rule): a house rule that changes only the nil's value lowers nothing again, one whose nil value
    reads the bid lowers the score again and takes every other function of the whole hand from disk, and a
    parameter's new value lowers again the functions it is folded into; each module is the one lowered from
    scratch."""
    from rulespec.fast import array_hand
    from rulespec.model.ruleset import load_ruleset, ruleset_from_text
    array_hand.ArrayModule(load_ruleset("standard")).whole_hand
    lowered: list[str] = []
    real = array_hand._Vectorize.__init__

    def record(self, node, same, functions):
        lowered.append(node.name)
        real(self, node, same, functions)
    monkeypatch.setattr(array_hand._Vectorize, "__init__", record)
    houses = {"nil.made: 75 @ house §Nil": [], "nil.made: 100 + 10 * player.tricks @ house §Nil": ["score_team"]}
    for rules, again in houses.items():
        lowered.clear()
        house = ruleset_from_text(f"id: h\nextends: standard\nrules:\n  {rules}\n")
        kept = array_hand.ArrayModule(house)
        kept.whole_hand
        assert lowered == again, rules
        with monkeypatch.context() as scratch:
            scratch.setattr(derived, "kept", lambda kind, key, make, fmt="marshal", keep=True: make())
            assert array_hand.ArrayModule(house).source == kept.source
    lowered.clear()
    array_hand.ArrayModule(ruleset_from_text("id: h\nextends: standard\nrules:\n  bags.limit: 7 @ house §Bags\n")
                           ).whole_hand
    assert lowered and "score_team" in lowered and "play_card" not in lowered


def test_rulesets_that_differ_in_what_the_lowering_reads_have_different_array_digests():
    from rulespec.fast.array_hand import _digest
    from rulespec.model.ruleset import load_ruleset, ruleset_from_text

    def house(rule: str):
        return ruleset_from_text(f"id: h\nextends: standard\nrules:\n  {rule}\n")
    standard = _digest(load_ruleset("standard"))
    assert _digest(house("nil.made: 75 @ house §Nil")) == standard == _digest(load_ruleset("standard"))
    assert _digest(house("nil.made: 100 + 10 * player.tricks @ house §Nil")) != standard
    assert _digest(house("play.first_lead: hand - trump.suit @ house §Lead")) != standard
