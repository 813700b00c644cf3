"""The corpus: clause indexes, bundled variants and their dispute cases."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.core import cards as C
from rulespec import game as E
from rulespec.model.clauses import clauses_dir
from rulespec.tools.coverage import STATUSES, check
from rulespec.model.ruleset import load_ruleset
from rulespec.app.scenarios import Case, load_cases, run_case
from rulespec.model.variants import bundled_ids

ROOT = Path(__file__).resolve().parent.parent
CLAUSES = ROOT / "corpus" / "clauses"
CASES = [case for path in sorted((ROOT / "corpus" / "cases").glob("*.yaml"))
         for case in load_cases(path)]


def test_coverage_passes_with_every_clause_accounted_for():
    report = check(CLAUSES)
    assert [i.format() for i in report.issues] == []
    assert [d.doc for d in report.docs] == ["000", "001", "002", "003", "004", "005"]
    for doc in report.docs:
        assert doc.total > (30 if doc.doc < "005" else 4)      # (005: the catalogue of table options)
        assert set(doc.counts) == set(STATUSES)


def test_coverage_reads_the_corpus_clause_indexes_by_default(monkeypatch):
    monkeypatch.delenv("RULESPEC_CLAUSES", raising=False)
    assert clauses_dir() == CLAUSES
    assert check().ok


def test_known_conflicts_are_marked():
    report = check(CLAUSES)
    import yaml
    status = {}
    for path in CLAUSES.glob("*.yaml"):
        for clause in yaml.safe_load(path.read_text(encoding="utf-8"))["clauses"]:
            status[clause["id"]] = clause["status"]
    assert report.ok
    assert status["000/play/first-trick-lowest-club"] == "conflicting"
    assert status["000/play/no-spade-lead"] == "conflicting"
    assert status["002/winning/target"] == "unspecified"
    assert status["003/p16/min-four"] == "conflicting"
    assert status["004/sandbagging/last-digit"] == "ambiguous"


@pytest.mark.parametrize("vid", bundled_ids())
def test_every_bundled_variant_compiles(vid):
    rs = load_ruleset(vid)
    assert rs.id == vid
    assert any(rule.origin == vid for rule in rs.rules.values())


def _index(tmp_path: Path, name: str, text: str) -> Path:
    folder = tmp_path / "clauses"
    folder.mkdir(exist_ok=True)
    for real in CLAUSES.glob("*.yaml"):
        if real.name != name:
            (folder / real.name).write_text(real.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_malformed_index_is_rejected(tmp_path):
    original = (CLAUSES / "002.yaml").read_text(encoding="utf-8")
    broken = original.replace(
        "    status: procedural\n    reason: a feature of the online client, not a rule of play\n",
        "    status: maybe\n", 1)
    broken = broken.replace("rules: [pirates:nil.made, pirates:nil.failed]",
                            "rules: [pirates:nil.mad, nosuch:nil.made]", 1)
    assert broken != original
    report = check(_index(tmp_path, "002.yaml", broken))
    messages = [i.format() for i in report.issues]
    assert not report.ok
    assert any("002/playing/timer" in m and "status 'maybe'" in m for m in messages)
    assert any("002/scoring/nil" in m and "has no rule 'nil.mad'" in m for m in messages)
    assert any("002/scoring/nil" in m and "variant 'nosuch' cannot be loaded" in m for m in messages)


def test_missing_fields_and_dangling_sections_are_rejected(tmp_path):
    text = """doc: "001"
title: cut down
kind: how-to page
file: 001.txt
clauses:
  - id: 001/scoring/made
    section: Scoring
    text: made contracts
    status: encoded
  - id: 001/scoring/odd
    section: Scoring
    text: something open
    status: unspecified
  - id: 001/scoring/clash
    section: Scoring
    text: a clash
    status: conflicting
    reason: clashes
"""
    report = check(_index(tmp_path, "001.yaml", text))
    messages = [i.format() for i in report.issues]
    assert any("001/scoring/made" in m and "must name the rules" in m for m in messages)
    assert any("001/scoring/odd" in m and "needs a 'reason'" in m for m in messages)
    assert any("001/scoring/clash" in m and "conflicts_with" in m for m in messages)
    # standard cites 001 §Setup, §Turns, ... which this cut-down index no longer has
    assert any("cites '001 §Setup'" in m for m in messages)


def _bids(*values):
    return [E.parse_bid(v) for v in values]


def test_classic_ends_past_the_target_not_at_it():
    classic = load_ruleset("classic")
    assert not E.game_status(classic, (500, 80))["over"]
    status = E.game_status(classic, (501, 80))
    assert status["over"] and status["winner"] == "NS"
    assert E.game_status(load_ruleset("standard"), (500, 80))["over"]


def test_tournament_overtricks_score_nothing_but_are_bags():
    rs = load_ruleset("tournament")
    ns, _ = E.score_hand(rs, _bids(3, 4, 2, 4), [4, 3, 4, 2])  # N S E W order: N=3 E=4 S=2 W=4
    assert (ns.points, ns.bags_added) == (50, 3)


def test_tournament_mercy_and_pirates_floor():
    assert E.game_status(load_ruleset("tournament"), (480, -20))["winner"] == "NS"
    assert not E.game_status(load_ruleset("tournament"), (480, -19))["over"]
    pirates = load_ruleset("pirates")
    assert E.game_status(pirates, (50, -500))["winner"] == "NS"
    assert not E.game_status(pirates, (50, -499))["over"]


def test_jokers_deuces_pack_and_ranking():
    rs = load_ruleset("jokers-deuces")
    assert rs.deck.bit_count() == 52
    assert not rs.deck >> C.parse_card("2C") & 1 and rs.deck >> C.parse_card("BJ") & 1
    trick = C.parse_cards("AS 2S 2D LJ")
    index, _ = E.trick_winner(rs, trick)
    assert C.card_name(trick[index]) == "LJ"


def test_first_trick_dead_end_reported_for_tournament():
    rs = load_ruleset("tournament")
    hand = C.mask_of(C.parse_cards("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"))
    legal = E.legal_cards(rs, hand, C.parse_cards("4C"), 1, False)
    assert legal.cards == hand
    assert [d["rule"] for d in legal.dead_ends] == ["play.first_trick_trump"]


def test_the_corpus_has_its_cases():
    assert len(CASES) >= 150


def _case_id(case: Case) -> str:
    return f"{case.variant}: {case.name}"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_corpus_case(case: Case):
    """Each case of ``corpus/cases/*.yaml`` is its own item, named by variant and case."""
    result = run_case(case)
    assert (result.error, result.mismatches) == (None, [])
    assert result.passed
