"""Searches of one deal take the tables the one before left (``solve.native``: what each entry's bounds are about
is the compiled module, the goal, the hand's length and the cards out of play; see docs/solver.md): the four
leaders of a deal and the positions along a line of play keep every answer, and learn from each other; a search
in another context never reads the entries (planted: reused across rulesets, goals or hand lengths, answers
differ); a search of another deal empties them first (they would hold, but serve that deal little)."""
from __future__ import annotations

import random

import pytest

from rulespec.app.answers import inline_variant
from rulespec.core import cards as C
from rulespec.model.ruleset import load_ruleset
from rulespec.solve import native as N
from rulespec.solve.native import NativeSearch, forget, native_module, same_deal, searcher
from rulespec.solve.search import Goal, Position, Search
from solve_helpers import BRIDGE_SPADES, EW, NS, at_position, dds_tricks, random_position


@pytest.fixture(scope="module")
def bridge():
    rs = load_ruleset(BRIDGE_SPADES)
    native_module(rs)
    return rs


def _deal(rs, rng: random.Random, size: int) -> Position:
    pos = random_position(rs, rng, size)
    while pos.trick:
        pos = random_position(rs, rng, size)
    return pos


def _leaders(pos: Position) -> list[Position]:
    return [Position(list(pos.hands), (pos.leader + k) % 4, [], pos.number, pos.broken, pos.played) for k in range(4)]


def _line_of_play(rs, pos: Position, rng: random.Random) -> list[Position]:
    """The positions of a hand played out from ``pos`` by random legal cards, ``pos`` first."""
    state, out = at_position(rs, pos), []
    while not state.over:
        out.append(Position(list(state.hands), state.leader, list(state.trick), state.number, state.broken,
                            state.played))
        state.play(rng.choice(C.card_list(state.legal())))
        if len(state.trick) == 4:
            state.finish_trick()
    return out


def _solved(rs, positions: list[Position], goal: Goal = NS) -> tuple[list[int], int, int]:
    """Each position's value searched one after the other (each search given back before the next), the nodes
    in all, and how many searches took the tables of the one before."""
    values, nodes, taken, previous = [], 0, 0, (None, 0)
    for pos in positions:
        search = searcher(rs, pos, goal)
        assert isinstance(search, NativeSearch)
        taken += search.tk is previous[0] and search.kept.generation == previous[1]
        previous = (search.tk, search.kept.generation)
        values.append(search.value())
        nodes += search.nodes
        del search
    return values, nodes, taken


def test_the_four_leaders_of_a_deal_share_one_table(bridge):
    """Each leader's value is DDS's; the second to fourth search take the first's table as it was, and the four
    search fewer nodes than four fresh searches."""
    rng = random.Random(31)
    shared = fresh = 0
    for size in (8, 8, 9, 9):
        leaders = _leaders(_deal(bridge, rng, size))
        forget()
        values, nodes, taken = _solved(bridge, leaders)
        assert values == [dds_tricks(pos) for pos in leaders]
        assert taken == 3
        shared += nodes
        for pos in leaders:
            forget()
            fresh += _solved(bridge, [pos])[1]
    assert shared < 0.8 * fresh, (shared, fresh)


def test_a_hand_reviewed_card_by_card_keeps_every_answer(bridge):
    """The positions after each card of a hand played at random (mid-trick ones included): each value equals
    the Python search's, every search after the first takes the tables along, and all of them search fewer
    nodes than fresh searches would."""
    rng = random.Random(32)
    for size in (6, 7):
        line = _line_of_play(bridge, _deal(bridge, rng, size), rng)
        forget()
        values, nodes, taken = _solved(bridge, line)
        assert values == [Search(bridge, pos, NS).value() for pos in line]
        assert taken == len(line) - 1
        fresh = 0
        for pos in line:
            forget()
            fresh += _solved(bridge, [pos])[1]
        assert nodes < fresh


def test_a_search_under_other_rules_never_reads_the_entries(bridge):
    """One deal's positions asked in turns under bridge play and under standard (trumps led only once broken):
    each value equals that ruleset's Python search.  Planted, a table kept whatever the module makes some of
    these differ."""
    standard = load_ruleset("standard")
    native_module(standard)
    rng = random.Random(33)
    for _ in range(6):
        line = _line_of_play(bridge, _deal(bridge, rng, 6), rng)[::4]
        forget()
        for pos in line:
            for rs in (bridge, standard):
                assert _solved(rs, [pos])[0] == [Search(rs, pos, NS).value()], (rs.id, pos)


def test_a_search_for_another_goal_never_reads_the_entries(bridge):
    """One position asked for N/S, for E/W and for one seat's tricks, in turns: each equals the Python search.
    Planted, a table kept whatever the goal makes some of these differ."""
    rng = random.Random(34)
    for _ in range(6):
        line = _line_of_play(bridge, _deal(bridge, rng, 6), rng)[::4]
        forget()
        for pos in line:
            for goal in (NS, EW, Goal.of_team(1, 1 << rng.randrange(4))):
                assert _solved(bridge, [pos], goal)[0] == [Search(bridge, pos, goal).value()], (pos, goal)


def test_a_hand_of_another_length_never_reads_the_entries():
    """The same cards dealt short (three cards from trick 1, where the first trick's own rules hold) and as the
    last three tricks of a full hand, asked in turns: each equals the Python search.  The rules (tournament's
    first trick, no following: exact keys at every trick) make the two differ on some; planted, a table kept
    whatever the hand's length makes those answers wrong."""
    rs = inline_variant({"extends": "tournament", "rules": {"play.follow": "hand"}}, "variant")
    native_module(rs)
    rng = random.Random(35)
    differ = 0
    for _ in range(30):
        cards = C.card_list(rs.deck)
        rng.shuffle(cards)
        hands = [C.mask_of(cards[3 * k:3 * k + 3]) for k in range(4)]
        played = rs.deck & ~(hands[0] | hands[1] | hands[2] | hands[3])
        leader, broken = rng.randrange(4), rng.random() < 0.5
        short, late = (Position(list(hands), leader, [], number, broken, played) for number in (1, 11))
        forget()
        got = [_solved(rs, [pos])[0][0] for pos in (short, late, short)]
        expected = [Search(rs, pos, NS).value() for pos in (short, late, short)]
        assert got == expected, (short, got, expected)
        differ += expected[0] != expected[1]
    assert differ >= 3


def test_a_search_of_another_deal_empties_the_tables(bridge):
    """After one deal, a search of another deal takes the tables emptied (the generation moved on) and searches
    exactly the nodes a fresh search does; two positions are of one deal when no card is held by different
    seats in them.  Planted, a table kept for any deal fails this (not the answers: see the next test)."""
    rng = random.Random(36)
    first, second = _deal(bridge, rng, 7), _deal(bridge, rng, 7)
    assert not same_deal(N._held(first), N._held(second))
    assert same_deal(N._held(first), N._held(_line_of_play(bridge, first, rng)[5]))
    forget()
    alone = _solved(bridge, [second])[1]
    forget()
    assert _solved(bridge, [first, second])[2] == 0
    forget()
    _solved(bridge, [first])
    assert _solved(bridge, [second])[1] == alone


def test_entries_hold_across_deals_too(bridge, monkeypatch):
    """What docs/solver.md proves: an entry's bounds depend on the position it keys, not on the deal it was found
    in, so a table kept across different deals (the deal check planted away) still answers every position as
    the Python search does."""
    monkeypatch.setattr(N, "same_deal", lambda a, b: True)
    rng = random.Random(37)
    positions = [random_position(bridge, rng, rng.randint(4, 6)) for _ in range(25)]
    forget()
    values, _, taken = _solved(bridge, positions)
    assert values == [Search(bridge, pos, NS).value() for pos in positions]
    assert taken > 10


def test_the_context_names_the_cards_out_of_play(bridge):
    """The same hands with other cards out of play (neither held nor played: e.g. a pack's cards never dealt)
    are another context, so rules that read the cards played never see another's entries."""
    pos = _deal(bridge, random.Random(38), 5)
    other = Position(list(pos.hands), pos.leader, [], pos.number, pos.broken, pos.played & ~(pos.played & -pos.played))
    a, b = searcher(bridge, pos, NS), searcher(bridge, other, NS)
    assert a.context != b.context and a.context[:4] == b.context[:4]
