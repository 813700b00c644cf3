"""Complete random-legal hands per second on one core: ours (scalar and batch) and OpenSpiel's.

Same work on every side: deal, four bids, legal moves for every play, trick
winners, hand score.  Each runner plays for a fixed wall-clock budget.
"""
from __future__ import annotations

import itertools
import random
import time


def _timed(step, budget: float) -> float:
    """Hands per second of ``step`` (which plays some hands and returns how many) over ``budget`` s."""
    step()  # warm-up: compile, caches, tables
    hands, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget:
        hands += step()
    return hands / (time.perf_counter() - start)


def ours_scalar(variant: str = "standard", budget: float = 5.0) -> float:
    """The scalar engine with one generator for deals and play (as OpenSpiel's side), and without
    the JSON hand record or explanation lines (``record=False``), which OpenSpiel does not build."""
    from rulespec.game import deal_cards, play_hand
    from rulespec.game.policies import RandomPolicy
    from rulespec.model.ruleset import load_ruleset
    rs = load_ruleset(variant)
    rng = random.Random(1)
    policy = RandomPolicy(rng)
    dealers = itertools.cycle(range(4))

    def step() -> int:
        play_hand(rs, deal_cards(rs, rng), next(dealers), policy, record=False)
        return 1
    return _timed(step, budget)


def ours_batch(variant: str = "standard", budget: float = 5.0, size: int = 8192) -> float:
    from rulespec.fast.batch import BatchEngine
    from rulespec.model.ruleset import load_ruleset
    engine = BatchEngine(load_ruleset(variant))
    seeds = iter(range(10**9))

    def step() -> int:
        return len(engine.play(size, seed=next(seeds)))
    return _timed(step, budget)


def openspiel(budget: float = 5.0) -> float | None:
    """OpenSpiel's ``spades`` (one game is one hand), random chance and random legal actions; None if absent."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    rng = random.Random(1)

    def step() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
        state.returns()
        return 1
    return _timed(step, budget)
