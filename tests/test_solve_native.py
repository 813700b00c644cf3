"""The compiled search (``solve.native``): the same values as the Python search and plain minimax under
every bundled variant, as the Python search on longer positions, DDS's trick counts on bridge deals,
the same API answers, budgets spent inside compiled code, and the Python search where a ruleset cannot
be compiled."""
from __future__ import annotations

import random

import pytest

from rulespec.app.answers import inline_variant

from rulespec.app.disputes import answer
from rulespec.core import cards as C
from rulespec.errors import NativeRuleError, SearchBudgetError
from rulespec.model.ruleset import load_ruleset, ruleset_from_text
from rulespec.solve.native import NativeSearch, native_module, searcher
from rulespec.solve.search import Budget, Goal, Search
from solve_helpers import (BRIDGE_SPADES, EW, NS, at_position, dds_tricks, hands_body, house_variant, minimax,
                           random_position, searched_ids)

VARIANTS = searched_ids()      # (the search plays four partnership seats only)
# a lead rule with no form in numba's subset (a number beyond 64-bit arithmetic): the Python search
TOO_LARGE = ("id: too-large\nsource: {doc: house, title: t}\nextends: standard\nparams:\n"
             "  huge.factor: 999999 * 999999 @ house §1\nrules:\n  deal.hand_size: 4 @ house §1\n"
             "  play.lead: if huge.factor > 1 then hand else hand @ house §1\n")


@pytest.fixture(scope="session")
def compiled() -> dict[str, object]:
    """Every bundled variant and the bridge test variant, each ruleset's search compiled once per session
    (the bundled variants share four rule sources, so four compiles and bridge's, or loads from the cache)."""
    out = {}
    for variant in (*VARIANTS, BRIDGE_SPADES):
        rs = load_ruleset(variant)
        native_module(rs)
        out[variant] = rs
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_equals_python_and_minimax(compiled, variant):
    rs = compiled[variant]
    rng = random.Random(f"native-{variant}")
    for _ in range(12):
        pos = random_position(rs, rng, rng.randint(1, 3))
        for goal in (NS, EW, Goal.of_team(1, 1 << rng.randrange(4))):
            search = searcher(rs, pos, goal)
            assert isinstance(search, NativeSearch)
            value = search.value()
            assert value == Search(rs, pos, goal).value() == minimax(at_position(rs, pos), goal), (pos, goal)


@pytest.mark.parametrize("variant", ["standard", BRIDGE_SPADES])
def test_compiled_equals_python_on_longer_positions(compiled, variant):
    """Four to seven tricks, where the relevant-card entries decide much: the Python search is the
    reference (its entries are checked one by one in test_solve_partition).  Planted in the compiled
    engine, a trick's winner not marked or no run closure each make some of these differ."""
    rs = compiled[variant]
    rng = random.Random(9)
    for _ in range(60):
        pos = random_position(rs, rng, rng.randint(4, 7))
        for goal in (NS, Goal.of_team(1, 1 << rng.randrange(4))):
            assert searcher(rs, pos, goal).value() == Search(rs, pos, goal).value(), (pos, goal)


@pytest.mark.parametrize("variant", ["tournament", "pirates"])
def test_first_trick_rules_compiled(compiled, variant):
    """The first trick's own rules (lowest club, no trumps, no spade lead) in three-card hands."""
    rs = inline_variant({"extends": variant, "rules": {"deal.hand_size": 3}}, "variant")
    rng = random.Random(7)
    for _ in range(15):
        pos = random_position(rs, rng, 3)
        assert pos.number == 1
        search = searcher(rs, pos, NS)
        assert isinstance(search, NativeSearch)
        assert search.value() == minimax(at_position(rs, pos), NS)


def test_tables_given_back_are_emptied_for_the_next_search(compiled):
    """A finished search's tables serve the next search of their size (the same arrays), emptied: each
    value equals the Python search's, each position asked for one side, then the other, then one seat's
    tricks (the same positions in the table, other goals).  Planted, not emptying the bounds makes some of
    these differ (the depth lists only say where to look: stale ones cost probes, not answers)."""
    rs = compiled[BRIDGE_SPADES]
    rng = random.Random(17)
    previous = None
    reused = 0
    for _ in range(8):
        pos = random_position(rs, rng, 6)
        for goal in (NS, EW, Goal.of_team(0, 1 << rng.randrange(4))):
            search = searcher(rs, pos, goal)
            reused += previous is not None and search.tk is previous
            assert search.value() == Search(rs, pos, goal).value(), (pos, goal)
            previous = search.tk
            del search
    assert reused == 23


def test_bridge_deals_equal_dds(compiled):
    rs = compiled[BRIDGE_SPADES]
    rng = random.Random(11)
    for size in (13, 13, 13, 9, 9, 9, 9, 9, 8, 8, 8, 8, 8, 7, 7, 7, 7, 6, 6, 6):
        pos = random_position(rs, rng, size)
        while pos.trick:
            pos = random_position(rs, rng, size)
        assert searcher(rs, pos, NS).value() == dds_tricks(pos), pos


def test_value_is_the_same_from_any_first_guess(compiled):
    """``NativeSearch.value`` asks first at the playout's guess (from ``_GUESS_FROM`` tricks left), then one
    above or below, then bisects: the answer is the bisection's whatever the guess (each one, out of range,
    and none: -1)."""
    from rulespec.solve.native import _GUESS_FROM
    rs = compiled[BRIDGE_SPADES]
    rng = random.Random(21)
    for _ in range(3):
        pos = random_position(rs, rng, rng.randint(_GUESS_FROM, _GUESS_FROM + 1))
        while pos.trick:
            pos = random_position(rs, rng, rng.randint(_GUESS_FROM, _GUESS_FROM + 1))
        expected = Search(rs, pos, NS).value()
        for guess in range(-1, pos.hands[0].bit_count() + 2):
            search = searcher(rs, pos, NS)
            search.module = _Guessing(search.module, guess)
            assert search.value() == expected, (pos, guess)


def test_playout_is_a_played_out_hand(compiled):
    """The compiled playout (the bisection's guess) counts the tricks of a hand played out: on one-trick
    positions, where every card is forced, it is the value; longer, within the tricks left; the hands as
    they were after it.  Both entry points are compiled when a module is loaded (a service request then
    compiles nothing)."""
    for variant in (*VARIANTS, BRIDGE_SPADES):
        rs = compiled[variant]
        module = native_module(rs)
        assert module.playout.signatures and module.search.signatures, variant
        rng = random.Random(f"playout-{variant}")
        for tricks in (1, 1, 1, 4, 6):
            pos = random_position(rs, rng, tricks)
            while pos.trick:
                pos = random_position(rs, rng, tricks)
            search = searcher(rs, pos, NS)
            search.st[:4] = pos.hands
            count = module.playout(search.st, search.mv, pos.leader, pos.number, pos.broken, pos.played)
            assert list(search.st[:4]) == pos.hands
            if tricks == 1:
                assert count == minimax(at_position(rs, pos), NS), (variant, pos)
            assert 0 <= count <= tricks


class _Guessing:
    """A compiled module whose playout guesses ``guess``."""

    def __init__(self, module, guess: int):
        self.search, self.guess = module.search, guess

    def playout(self, *args) -> int:
        return self.guess


def test_api_answers_equal_the_python_search(compiled, monkeypatch):
    """Value, line, claim verdict, nil answer, conflicts and dead ends: all but the node count."""
    rs = compiled["standard"]
    rng = random.Random(3)
    for _ in range(6):
        pos = random_position(rs, rng, rng.randint(2, 5))
        body = hands_body("standard", pos)
        asks = [("solve", body), ("claim", {**body, "claim": {"side": "EW", "tricks": rng.randint(0, 3)}}),
                ("nil", {**body, "nil": C.SEATS[rng.randrange(4)]})]
        ours = [answer(kind, ask) for kind, ask in asks]
        monkeypatch.setenv("RULESPEC_SOLVER", "python")
        python = [answer(kind, ask) for kind, ask in asks]
        monkeypatch.delenv("RULESPEC_SOLVER")
        for a, b in zip(ours, python):
            a.pop("nodes"), b.pop("nodes")
            assert a == b


def test_budget_spent_in_compiled_code(compiled):
    rs = compiled[BRIDGE_SPADES]
    pos = random_position(rs, random.Random(2), 13)
    search = searcher(rs, pos, NS, Budget(nodes=5_000))
    with pytest.raises(SearchBudgetError) as info:
        search.value()
    assert info.value.details["nodes"] == 5_001
    timed = searcher(rs, pos, NS, Budget(seconds=0.0))
    with pytest.raises(SearchBudgetError) as info:
        timed.value()
    assert "0 s" in str(info.value)
    # a search stopped between chunks and resumed from its root keeps its answer
    small = random_position(rs, random.Random(5), 7)
    chunked = searcher(rs, small, NS, Budget(seconds=60.0))
    chunked.chunk = 64
    assert chunked.value() == Search(rs, small, NS).value()
    assert chunked.nodes > 64



def test_a_time_allowance_cuts_each_chunk_to_the_time_left(compiled):
    """With a time allowance, a chunk of nodes is no longer than the time left allows at the pace measured
    (at least ``_SMALLEST_CHUNK``), so the allowance is overrun by little rather than by a whole chunk."""
    import rulespec.solve.native as N
    from rulespec.solve import native_arrays as S
    rs = compiled[BRIDGE_SPADES]
    pos = random_position(rs, random.Random(5), 7)
    limits = []
    for pace in (60.0 / 1000, 1e-9):       # as if the 60 s left allowed 1,000 nodes; then billions
        search = searcher(rs, pos, NS, Budget(seconds=60.0))
        search.node_seconds = pace
        module = search.module

        class Spy:
            def __getattr__(self, name):
                return getattr(module, name)

            def search(self, st, *args):
                limits.append(int(st[S.ST_LIMIT]))
                return module.search(st, *args)
        search.module = Spy()
        assert search.can(1) == Search(rs, pos, NS).can(1)
    assert limits[0] == N._SMALLEST_CHUNK and N._FIRST_CHUNK in limits


def test_a_ruleset_numba_cannot_compile_uses_the_python_search():
    rs = ruleset_from_text(TOO_LARGE)
    with pytest.raises(NativeRuleError) as info:
        native_module(rs)
    assert info.value.rule == "play.lead"
    pos = random_position(rs, random.Random(1), 2)
    search = searcher(rs, pos, NS)
    assert type(search) is Search
    assert search.value() == minimax(at_position(rs, pos), NS)


def test_a_winner_outside_the_trick_is_the_same_error(compiled):
    rs = house_variant({"trick.winner": "AS"}, size=2)
    pos = random_position(rs, random.Random(3), 2)
    while pos.trick or any(pos.hands[s] >> C.parse_card("AS") & 1 for s in range(4)):
        pos = random_position(rs, random.Random(pos.played), 2)
    errors = []
    for search in (searcher(rs, pos, NS), Search(rs, pos, NS)):
        with pytest.raises(ValueError) as info:
            search.value()
        errors.append((type(info.value), str(info.value)))
    assert isinstance(searcher(rs, pos, NS), NativeSearch)
    assert errors[0] == errors[1]


def test_a_service_request_never_compiles(monkeypatch, tmp_path):
    """``compile_now=False`` (under a request's allowance): a ruleset whose module is not ready is searched
    in Python; a bundled variant's module is compiled in another process, once, and a house rule's not."""
    import rulespec.solve.native as N
    monkeypatch.setenv("RULESPEC_CACHE", str(tmp_path))
    monkeypatch.delenv("RULESPEC_PRECOMPILE", raising=False)      # (the suite's conftest turns it off)
    launched = []
    monkeypatch.setattr(N.subprocess, "Popen", lambda args, **kw: launched.append(args) or _Done())
    monkeypatch.setattr(N, "_LAUNCHED", {})
    house = house_variant({"play.first_lead": "hand - {3D}"}, vid="never-compiled")   # a search of its own
    pos = random_position(house, random.Random(3), 2)
    assert not N.ready(house)
    search = searcher(house, pos, NS, compile_now=False)
    assert type(search) is Search and not launched          # a house rule: searched in Python, nothing launched
    assert search.value() == minimax(at_position(house, pos), NS)
    fresh = load_ruleset("whiz")
    monkeypatch.setattr(N, "ready", lambda rs: False)        # as on a machine where it was never compiled
    assert type(searcher(fresh, random_position(fresh, random.Random(4), 2), NS, compile_now=False)) is Search
    searcher(fresh, random_position(fresh, random.Random(5), 2), NS, compile_now=False)
    assert len(launched) == 1 and launched[0][-1] == "whiz"  # compiled elsewhere, once
    monkeypatch.setattr(N, "_LAUNCHED", {})
    monkeypatch.setenv("RULESPEC_PRECOMPILE", "off")
    searcher(fresh, random_position(fresh, random.Random(6), 2), NS, compile_now=False)
    assert len(launched) == 1                                 # off: never
    assert type(searcher(load_ruleset("standard"), pos, NS)) is NativeSearch   # the CLI's default compiles


class _Done:
    def poll(self) -> int:
        return 0
