"""The DDS library called directly through ctypes (``SolveBoard`` as DDS's ``dll.h`` declares it, one value:
``solutions=1``), on the position in FILE (the JSON ``rulespec solve`` reads), printing each side's tricks:
the peer of ``rulespec solve`` at its fastest as a whole process.  It loads the ``libdds.so`` that the
endplay wheel carries without importing endplay (whose package import loads matplotlib and numpy, about
half a second)."""
import ctypes
import importlib.util
import json
import sys
from pathlib import Path


class Deal(ctypes.Structure):
    _fields_ = [("trump", ctypes.c_int), ("first", ctypes.c_int), ("currentTrickSuit", ctypes.c_int * 3),
                ("currentTrickRank", ctypes.c_int * 3), ("remainCards", (ctypes.c_uint * 4) * 4)]


class FutureTricks(ctypes.Structure):
    _fields_ = [("nodes", ctypes.c_int), ("cards", ctypes.c_int), ("suit", ctypes.c_int * 13),
                ("rank", ctypes.c_int * 13), ("equals", ctypes.c_int * 13), ("score", ctypes.c_int * 13)]


RANKS = {"J": 11, "Q": 12, "K": 13, "A": 14}
library = Path(importlib.util.find_spec("endplay").origin).parent / "_dds" / "libdds.so"
dds = ctypes.CDLL(str(library))
dds.SetMaxThreads(0)
with open(sys.argv[1], encoding="utf-8") as f:
    position = json.load(f)
deal = Deal(trump=0, first="NESW".index(position["leader"]))     # DDS's suits: 0 spades, 1 hearts, 2 diamonds, 3 clubs
for hand, seat in enumerate("NESW"):
    for card in position["hands"][seat]:
        rank = RANKS.get(card[:-1]) or int(card[:-1])
        deal.remainCards[hand]["SHDC".index(card[-1])] |= 1 << rank
future = FutureTricks()
code = dds.SolveBoard(deal, -1, 1, 1, ctypes.byref(future), 0)
if code != 1:
    sys.exit(f"SolveBoard failed with code {code}")
left = len(position["hands"][position["leader"]])
best = future.score[0]                # the tricks of the side on lead, with its best card
ns = best if deal.first % 2 == 0 else left - best
print(json.dumps({"tricks": {"NS": ns, "EW": left - ns}}))
