"""Sure-trick bounds (``solve.quick``): taken only where the compiled rules are shown to be follow-suit,
trump-wins play, and always around the true value (checked against plain minimax and DDS)."""
from __future__ import annotations

import random

import pytest

from rulespec.core import cards as C
from rulespec.model.ruleset import load_ruleset
from rulespec.model.variants import bundled_ids
from rulespec.solve.quick import Shape
from rulespec.solve.search import Search
from solve_helpers import (agrees_with_minimax, at_position, BRIDGE_SPADES, dds_tricks, EW, house_variant, minimax,
                           NO_FOLLOWING, NS, random_position)




NO_TRUMPS = {"trick.winner": "highest(trick.cards & trick.led_suit)"}
LOWEST_WINS = {"trick.winner": "if trick.cards.has(trump.suit) then lowest(trick.cards & trump.suit) "
                               "else lowest(trick.cards & trick.led_suit)"}


def test_accepted_shapes():
    for variant in bundled_ids():
        shape = Shape.of(load_ruleset(variant))
        assert shape is not None and shape.trump == 3 and shape.restricted == 3, variant
    bridge = Shape.of(load_ruleset(BRIDGE_SPADES))
    assert bridge is not None and bridge.trump == 3 and bridge.restricted is None
    no_trumps = Shape.of(house_variant(NO_TRUMPS))
    assert no_trumps is not None and no_trumps.trump is None and no_trumps.restricted == 3


NEVER_LEAD_TRUMPS = {"play.lead": "if hand.only(trump.suit) then hand else hand - trump.suit"}


@pytest.mark.parametrize("rules", [NO_FOLLOWING, LOWEST_WINS, NEVER_LEAD_TRUMPS],
                         ids=["no-following", "lowest-wins", "never-lead-spades"])
def test_other_rules_are_refused(rules):
    assert Shape.of(house_variant(rules)) is None


def test_a_constraint_that_permits_the_whole_hand_leaves_the_shape(monkeypatch):
    """A play constraint at its neutral value (``hand``) narrows nothing: asked beside the others (as a new
    slot would be), the shape stays; one that narrows is still refused."""
    from rulespec.solve import quick
    asked = quick.rules_asked
    whole = house_variant({"play.first_lead": "hand"})
    monkeypatch.setattr(quick, "rules_asked", lambda rs, name, values: (*asked(rs, name, values), "play.first_lead"))
    assert Shape.of(whole) is not None
    assert Shape.of(house_variant({"play.first_lead": "hand - trump.suit"})) is None


def _bounds(rs, pos, goal):
    search = Search(rs, pos, goal)
    return search.bounds(pos.leader, pos.number, pos.broken)


@pytest.mark.parametrize("variant", ["standard", "tournament", "bridge", "no-trumps"])
def test_bounds_contain_the_minimax_value(variant):
    """At trick boundaries of up to three tricks, for either side: low <= value <= high."""
    rs = {"bridge": load_ruleset(BRIDGE_SPADES), "no-trumps": house_variant(NO_TRUMPS)}.get(variant) \
        or load_ruleset(variant)
    rng = random.Random(variant)
    checked = narrowed = 0
    while checked < 60:
        pos = random_position(rs, rng, rng.randint(1, 3))
        if pos.trick:
            continue
        for goal in (NS, EW):
            low, high = _bounds(rs, pos, goal)
            value = minimax(at_position(rs, pos), goal)
            assert low <= value <= high, (variant, goal, pos, low, high, value)
            narrowed += low > 0 or high < rs.params["deal.hand_size"] - pos.number + 1
        checked += 1
    assert narrowed > 20      # the bounds are not vacuous


def test_bounds_contain_dds_value_on_larger_deals():
    pytest.importorskip("endplay")
    rs = load_ruleset(BRIDGE_SPADES)
    rng = random.Random(8)
    for _ in range(40):
        pos = random_position(rs, rng, rng.randint(5, 9))
        if pos.trick:
            continue
        ns = dds_tricks(pos)
        low, high = _bounds(rs, pos, NS)
        assert low <= ns <= high, (pos, low, high, ns)


def test_trump_tricks_match_the_other_sides_higher_trumps():
    """A hand's trumps less those the other side's higher trumps can each beat once: A K Q 5 4 of spades
    against J 3 2 take four (the jack beats one of the 5 and 4); against J 6 3 2, three; K Q 5 4 3 against
    A J, three (the ace beats one, the jack one); a partner's trumps are not the other side's."""
    shape = Shape.of(load_ruleset(BRIDGE_SPADES))

    def mask(names: str) -> int:
        return C.mask_of([C.parse_card(name) for name in names.split()])
    for mine, theirs, partner, expected in (("AS KS QS 5S 4S", "JS 3S 2S", "", 4),
                                            ("AS KS QS 5S 4S", "JS 6S 3S 2S", "", 3),
                                            ("KS QS 5S 4S 3S", "AS JS", "", 3),
                                            ("AS KS QS 5S 4S", "JS 3S 2S", "6S", 4)):
        hands = [mask(mine), mask(theirs), mask(partner), 0]
        assert shape.trump_tricks(hands, 0)[0] == expected, (mine, theirs, partner)


def test_trump_tricks_read_every_card_they_rely_on():
    """The count holds (is no lower) wherever the trumps it read keep their holders and every seat its
    number of trumps: the others dealt afresh among their holders (what the relevant-card entries rely on)."""
    rs = load_ruleset(BRIDGE_SPADES)
    shape = Shape.of(rs)
    trumps = shape.masks[shape.trump]
    rng = random.Random(12)
    checked = 0
    for _ in range(300):
        pos = random_position(rs, rng, rng.randint(4, 13))
        for seat in range(2):
            count, read = shape.trump_tricks(pos.hands, seat, rng.choice([None, 1, 2, 3]))
            loose = C.card_list(trumps & ~read & (pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]))
            holders = [next(s for s in range(4) if pos.hands[s] >> card & 1) for card in loose]
            rng.shuffle(holders)
            hands = [hand & ~C.mask_of(loose) for hand in pos.hands]
            for card, holder in zip(loose, holders):
                hands[holder] |= 1 << card
            assert shape.trump_tricks(hands, seat)[0] >= count, (pos, seat)   # (the full count)
            checked += count > 0 and bool(loose)
    assert checked > 100


def test_compiled_trump_tricks_equal_the_python_bound():
    """The compiled engine's ``_trump_tricks`` gives ``Shape.trump_tricks``'s count and cards read, with a
    goal (the Python search asks for the full count: a goal beyond every count)."""
    import numpy as np

    from rulespec.solve.native import native_module
    for variant in ("standard", BRIDGE_SPADES):
        rs = load_ruleset(variant)
        shape, module = Shape.of(rs), native_module(rs)
        rng = random.Random(f"trumps-{variant}")
        for _ in range(200):
            pos = random_position(rs, rng, rng.randint(1, 13))
            hands = np.array(pos.hands, dtype=np.int64)
            for seat in range(2):
                assert tuple(module._trump_tricks(hands, seat, 99)) == shape.trump_tricks(pos.hands, seat), pos
                goal = rng.randint(1, 4)
                assert tuple(module._trump_tricks(hands, seat, goal)) == shape.trump_tricks(pos.hands, seat, goal)


@pytest.mark.parametrize("rules", [NO_TRUMPS, NO_FOLLOWING], ids=["no-trumps", "no-following"])
def test_solver_equals_minimax_with_other_trick_rules(rules):
    agrees_with_minimax(house_variant(rules, size=3), seed=3, positions=30, tricks=(1, 3))
