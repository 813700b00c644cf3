"""A pyspiel script that plays HANDS random hands of OpenSpiel's spades (the fair driver of
``bench.simulation``) and prints each team's mean return: the peer of ``rulespec simulate``."""
import random
import sys

import pyspiel

hands, seed = int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 0
game, rng, pack, totals = pyspiel.load_game("spades"), random.Random(seed), list(range(52)), [0.0, 0.0]
for _ in range(hands):
    state = game.new_initial_state()
    order = pack[:]
    rng.shuffle(order)
    for card in order:                 # the deal: each chance node uniform over the cards not yet dealt
        state.apply_action(card)
    while not state.is_terminal():     # bids and cards: uniform over legal_actions()
        actions = state.legal_actions()
        state.apply_action(actions[int(rng.random() * len(actions))])
    returns = state.returns()
    totals[0] += returns[0]
    totals[1] += returns[1]
print(f"{hands} hands; mean return NS {totals[0] / hands:.2f}, EW {totals[1] / hands:.2f}")
