"""Issue 29, item 3: no back end can ignore a rule slot.

For every slot of the schema in turn, a scratch variant of ``standard`` sets it to its probe (a value that
changes what it does: ``slot_probes.probe_text``).  The scalar procedure's outcomes must change (else the probe
tests nothing), and every other back end must give the scalar procedure's outcomes on its own hands: the
array engine and the compiled engine's code (each hand replayed through ``HandState``: every bid and card legal,
the same trick winners, the same score), the Python card-play loop (the same records as the steps), the Python
search and the compiled search's code (the same values as a plain minimax), and the array functions on the
states no engine plays (reneges, scores and bags before a hand, the game's end)."""
from __future__ import annotations

import functools
import random

import pytest

from rulespec.core import cards as C
from rulespec.core.schema import SLOTS
from rulespec.fast import array_hand, numba_rules
from rulespec.game.steps import ENTRIES
from rulespec.model.ruleset import load_ruleset
from rulespec.procedure.form import form, rules_asked
from rulespec.solve import native_source
from rulespec.solve.native import NativeSearch
from rulespec.solve.search import Search
from slot_probes import (array_game_end, array_hands, array_scores, as_python, game_states, loop_agrees,
                         native_hands, outcome, probed, scalar_game_end, scalar_scores, score_states, scratch)
from solve_helpers import EW, NS, at_position, minimax, random_position

pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")   # (the compiled search's
# hash wraps in 64 bits as machine code does; run as Python, numpy warns)
HANDS = 12          # hands of each engine under each probe
STATES = 60         # score and game-end states
POSITIONS = 3       # positions searched, of 2 or 3 tricks

# the slots the lowered form never asks, and why: each is checked by the tests of the one place that uses it
PYTHON_ONLY = {
    "deal.next_dealer": "who deals the next hand: the game loops (engine.simulate, answers' game sheet)",
    "renege.lead": "whether a recorded trump lead before trumps are broken is a renege: play.irregularity",
    "play.irregular": "what a recorded irregular card that is no renege does: play.irregularity",
}
# the slots every back end reads through the pack and the card tables, not through the lowered form
TABLES = {"deck.cards", "card.suit", "card.power"}


@functools.lru_cache(maxsize=None)
def asked() -> frozenset[str]:
    """Every rule a function of the lowered form asks (an inline one's in the functions that write it in)."""
    rs = load_ruleset("standard")
    return frozenset(name for fn, function in form().functions.items() if not function.inline
                     for name in rules_asked(rs, fn, {}))


@functools.lru_cache(maxsize=None)
def standard_runs() -> dict:
    rs = load_ruleset("standard")
    return {"array": array_hands(rs, HANDS, 1), "native": native_hands(rs, HANDS, 2)}


def test_every_slot_is_asked_by_the_lowered_form_or_said_why_not():
    rs = load_ruleset("standard")
    named = {name for rule in rs.rules.values() for name in rule.names}      # parameters the rules read
    unreached = [name for name in SLOTS if name not in asked() | TABLES | named | set(PYTHON_ONLY)]
    assert unreached == []
    assert set(PYTHON_ONLY).isdisjoint(asked()) and set(ENTRIES) <= set(form().functions)


def _engine_outcomes(rs, std) -> bool:
    """Every hand of each engine under ``rs`` replays through ``rs``'s ``HandState``; whether ``rs``'s scalar
    procedure makes anything else than standard's of standard's hands."""
    for result in (array_hands(rs, HANDS, 1), native_hands(rs, HANDS, 2)):
        for row in range(len(result.points)):
            outcome_ = outcome(rs, result, row)
            assert not str(outcome_).startswith("refused"), outcome_
    return any(outcome(rs, result, row) != outcome(std, result, row)
               for result in standard_runs().values() for row in range(HANDS))


def _search_agrees(rs, std) -> bool:
    """The Python search and the compiled search's code agree with a plain minimax on a few positions; whether
    any of them is valued otherwise under standard's rules."""
    rng = random.Random(f"search:{rs.rules}")
    module = _Module(as_python(native_source.source(rs)))
    changed = False
    for _ in range(POSITIONS):
        pos = random_position(rs, rng, rng.randint(2, 3))
        for goal in (NS, EW):
            truth = minimax(at_position(rs, pos), goal)
            assert Search(rs, pos, goal).value() == truth, (pos, goal)
            assert NativeSearch(rs, pos, goal, None, module).value() == truth, (pos, goal)
            changed |= _std_value(std, pos, goal) != truth
    return changed


def _std_value(std, pos, goal):
    try:
        return minimax(at_position(std, pos), goal)
    except ValueError as exc:
        return type(exc).__name__


class _Module:
    """A generated module's namespace as a module (attributes)."""

    def __init__(self, env: dict):
        self.__dict__.update(env)


@pytest.mark.parametrize("name", list(SLOTS))
def test_every_back_end_honours_the_slot(name):
    if name in PYTHON_ONLY:
        pytest.skip(PYTHON_ONLY[name])
    check_slot(name)


# the tables past the probe of table.seats (three seats alone): six seats in three partnerships, five alone
TABLE_PROBES = {
    "six partners": {"table.seats": "6", "deal.hand_size": "8", "game.winner": "high.side"},
    "five alone": {"table.seats": "5", "table.sides": "alone", "deal.hand_size": "10", "game.winner": "high.side"},
}


@pytest.mark.parametrize("label", list(TABLE_PROBES))
def test_every_back_end_plays_the_tables_of_five_and_six_seats(label):
    check_ruleset(scratch(TABLE_PROBES[label], label), f"table.seats ({label})")


def check_slot(name: str) -> None:
    check_ruleset(probed(name), name)


def check_ruleset(rs, name: str) -> None:
    """Every back end plays and scores ``rs`` (standard with a slot probed) as the scalar steps do, and the
    change shows in something they are compared on."""
    std = load_ruleset("standard")
    changed = _engine_outcomes(rs, std)
    loop = loop_agrees(rs, 6, 3)
    changed |= loop != loop_agrees(std, 6, 3)
    states = score_states(rs, STATES, 4)
    scores = scalar_scores(rs, states)
    assert array_scores(rs, states) == scores
    same_table = C.table_of(rs.params) == C.table_of(std.params)     # (else standard's states have other shapes)
    changed |= not same_table or scores != scalar_scores(std, states)
    games = game_states(STATES, 5, C.table_of(rs.params).sides)
    ends = scalar_game_end(rs, games)
    assert array_game_end(rs, games) == ends
    changed |= ends != scalar_game_end(std, game_states(STATES, 5))
    if name in _PLAY:
        changed |= _search_agrees(rs, std)
    assert changed, f"the probe of {name} changes nothing the back ends are compared on"


_PLAY = {"play.lead", "play.follow", "trump.breaks", "trick.winner", "card.suit", "card.power", "trump.suit"}


# --------------------------------------------------------------------------- a back end that ignores a slot
def _standard_instead(rule: str, expr):
    """A rule target that writes standard's expression for ``rule`` (ignoring the variant's)."""
    std = load_ruleset("standard")

    def planted(self, rs, name, context, args):
        return expr(self, std if name == rule else rs, name, context, args)
    return planted


def test_an_array_engine_that_ignores_a_scoring_slot_fails(monkeypatch):
    """The array back end evaluating standard's nil.failed for every variant is caught."""
    real = array_hand.vector_rules

    def planted(rs):
        rules = real(rs)
        rules["nil.failed"] = real(load_ruleset("standard"))["nil.failed"]
        return rules
    monkeypatch.setattr(array_hand, "vector_rules", planted)
    with pytest.raises(AssertionError):
        check_slot("nil.failed")


def test_a_compiled_engine_that_ignores_a_play_slot_fails(monkeypatch):
    """The compiled engine's code writing standard's play.follow for every variant is caught."""
    monkeypatch.setattr(numba_rules.NativeRules, "expr", _standard_instead("play.follow", numba_rules.NativeRules.expr))
    with pytest.raises(AssertionError):
        check_slot("play.follow")
