"""Complete random-legal hands per second on one core: ours (scalar: pure Python and compiled; batch) and
OpenSpiel's.

Same work on every side: deal, four bids, legal moves for every play, trick
winners, hand score.  The runners take turns in rounds (``rounds``), each
playing for ``budget`` seconds of CPU time a round, so that every ratio is of
runs side by side on the same machine at nearly the same moment.  Rates are
hands per CPU second of this process (``time.process_time``): on a shared,
loaded machine the wall clock also counts the time slices other processes got.

OpenSpiel is measured with three drivers (see docs/performance.md for the ones tried):

- ``openspiel`` (the fair driver, the one the ratios are against): the deal as a
  shuffled pack applied at the 52 chance nodes (each chance node's outcome is
  uniform over its ``legal_actions()``, the cards not yet dealt, exactly as a
  draw at each node), then ``int(random() * len(legal_actions()))`` at each bid
  and card, the draw our random policy makes;
- ``openspiel_chance_outcomes`` (the old bench's driver, kept as a record):
  ``chance_outcomes()`` at each of the 52 deal steps, ``randrange`` at each
  decision;
- ``openspiel_cpp`` (context): ``pyspiel.evaluate_bots`` with uniform random
  bots, the whole hand in C++ and nothing but the returns back in Python.
"""
from __future__ import annotations

import itertools
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

Step = Callable[[], int]
# OpenSpiel's own card-play rules (spades never broken) as a variant: the second comparison
OPENSPIEL_RULES = str(Path(__file__).with_name("openspiel-rules.yaml"))
DECISIONS = 4 + 52   # bids and cards of a hand of OpenSpiel's spades (its chance nodes: the 52 cards dealt)
COMPILED_CALL = 1000  # hands per call of the compiled engine's loop (its 'compiled' runner)


def _timed(step: Step, budget: float) -> float:
    """Hands per CPU second of ``step`` (which plays some hands and returns how many) over ``budget``
    CPU seconds."""
    hands, start = 0, time.process_time()
    while time.process_time() - start < budget:
        hands += step()
    return hands / (time.process_time() - start)


def scalar_step(variant: str = "standard") -> Step:
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
    return step


def compiled_step(variant: str = "standard", hands: int = COMPILED_CALL) -> Step:
    """The compiled scalar engine (numba code generated from the variant's rules): ``hands`` hands per call,
    each played whole, one after another in order, in one compiled loop; ``hands=1`` is one call from Python
    per hand (``play_one``).  The dealer turns round the table from call to call."""
    from rulespec.fast.compiled import CompiledEngine
    from rulespec.model.ruleset import load_ruleset
    engine = CompiledEngine(load_ruleset(variant))
    seeds, dealers = itertools.count(), itertools.cycle(range(4))

    def step() -> int:
        if hands == 1:
            engine.play_one(next(seeds), next(dealers))
        else:
            engine.play(hands, next(seeds), next(dealers))
        return hands
    return step


def batch_step(variant: str = "standard", size: int = 8192) -> Step:
    """``BatchEngine(rs).play(size)``: ``size`` hands in lockstep on numpy."""
    from rulespec.fast.batch import BatchEngine
    from rulespec.model.ruleset import load_ruleset
    engine = BatchEngine(load_ruleset(variant))
    seeds = itertools.count()

    def step() -> int:
        return len(engine.play(size, seed=next(seeds)))
    return step


def openspiel_step(driver: str = "fair") -> Step | None:
    """One OpenSpiel ``spades`` hand (one game is one hand) per call, by ``driver`` ('fair',
    'chance_outcomes' or 'cpp'); None when pyspiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    rng = random.Random(1)
    pack = list(range(52))

    def fair() -> int:
        state = game.new_initial_state()
        legal, apply, draw = state.legal_actions, state.apply_action, rng.random
        order = pack[:]
        rng.shuffle(order)
        for card in order:          # chance nodes: each draw uniform over the cards not yet dealt
            apply(card)
        for _ in range(DECISIONS):  # bids and cards: uniform over legal_actions()
            actions = legal()
            apply(actions[int(draw() * len(actions))])
        if not state.is_terminal():
            raise RuntimeError("OpenSpiel's spades hand did not end after its 56 decisions")
        state.returns()
        return 1

    def chance_outcomes() -> int:
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

    bots = [pyspiel.make_uniform_random_bot(seat, 1 + seat) for seat in range(4)]
    seeds = itertools.count(1)

    def cpp() -> int:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, next(seeds))
        return 1
    return {"fair": fair, "chance_outcomes": chance_outcomes, "cpp": cpp}[driver]


def measure(budget: float = 1.0, rounds: int = 5, variant: str = "standard", batch_size: int = 8192) -> dict:
    """Hands per CPU second of every runner in ``rounds`` rounds of ``budget`` CPU s each (the order rotated each
    round): {'runners': {name: [hands/s per round]}, 'median': {name: hands/s}, 'ratios': {ours/peer:
    {'median', 'min', 'max'} of the rounds' ratios}}.  Ours: 'scalar' (pure Python), 'compiled' (the
    compiled scalar engine, ``COMPILED_CALL`` hands per call), 'compiled_per_call' (one call per hand) and
    'batch' on ``variant``, and 'scalar_os_rules', 'compiled_os_rules' and 'batch_os_rules' on
    ``OPENSPIEL_RULES``.  OpenSpiel's runners are absent when pyspiel is not installed."""
    steps: dict[str, Step] = {"scalar": scalar_step(variant), "compiled": compiled_step(variant),
                              "compiled_per_call": compiled_step(variant, 1), "batch": batch_step(variant, batch_size),
                              "scalar_os_rules": scalar_step(OPENSPIEL_RULES),
                              "compiled_os_rules": compiled_step(OPENSPIEL_RULES),
                              "batch_os_rules": batch_step(OPENSPIEL_RULES, batch_size)}
    for driver in ("fair", "chance_outcomes", "cpp"):
        step = openspiel_step(driver)
        if step is not None:
            steps[f"openspiel_{driver}"] = step
    for step in steps.values():
        step()   # warm-up: compile, caches, tables
    runs: dict[str, list[float]] = {name: [] for name in steps}
    names = list(steps)
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            runs[name].append(_timed(steps[name], budget))
    out: dict = {"runners": runs, "median": {name: statistics.median(got) for name, got in runs.items()},
                 "rounds": rounds, "budget": budget, "ratios": {}}
    if "openspiel_fair" in runs:
        pairs = [*itertools.product(("scalar", "compiled", "batch"), ("openspiel_fair", "openspiel_chance_outcomes",
                                                                      "openspiel_cpp")),
                 ("compiled_per_call", "openspiel_fair"),
                 *((f"{ours}_os_rules", "openspiel_fair") for ours in ("scalar", "compiled", "batch"))]
        for ours, peer in pairs:
            ratios = [a / b for a, b in zip(runs[ours], runs[peer])]
            out["ratios"][f"{ours}/{peer}"] = {"median": statistics.median(ratios), "min": min(ratios),
                                               "max": max(ratios)}
    return out
