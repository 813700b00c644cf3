"""An endplay script that solves the position in FILE (the JSON ``rulespec solve`` reads: four full hands
and the leader, spades trumps) with DDS in its one-value mode (``SolveMode.OptimalOne``) and prints the
tricks each side takes: the peer of ``rulespec solve`` as a whole process."""
import json
import sys

from endplay.dds import solve_board
from endplay.dds.solve import SolveMode
from endplay.types import Deal, Denom, Player

with open(sys.argv[1], encoding="utf-8") as f:
    position = json.load(f)
suits = "SHDC"
hands = []
for seat in "NESW":
    by_suit = {suit: [] for suit in suits}
    for card in position["hands"][seat]:
        by_suit[card[-1]].append(card[:-1].replace("10", "T"))
    hands.append(".".join("".join(sorted(by_suit[suit], key="AKQJT98765432".index)) for suit in suits))
leader = "NESW".index(position["leader"])
deal = Deal("N:" + " ".join(hands), first=Player(leader), trump=Denom.spades)
best = max(tricks for _, tricks in solve_board(deal, SolveMode.OptimalOne))
left = len(position["hands"][position["leader"]])
ns = best if leader % 2 == 0 else left - best
print(json.dumps({"tricks": {"NS": ns, "EW": left - ns}}))
