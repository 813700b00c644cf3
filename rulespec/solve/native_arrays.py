"""The compiled search's arrays and codes: where each word of its state, frame and table arrays lives, what
its functions return, the modes of its explicit stack.  The engine (``templates/search_engine.py``) names them;
``native_source`` writes their values into each generated module; ``native`` sizes and reads the arrays."""
from __future__ import annotations

# codes the search returns besides 0 (not reached) and 1 (reached)
ABORT, BAD_WINNER = 2, 3
# the search's state array: hands, the trick's cards, counters and the question's constants
ST_TRICK = 4          # hands at 0-3, the trick's cards at 4-7
ST_NODES, ST_LIMIT, ST_TEAM, ST_COUNTED, ST_LAST, ST_QUICK, ST_BAD, ST_TTMASK, ST_REL, ST_GEN = range(8, 18)
ST_SIZE = 18
# a table entry: four key words and its bounds word (``TT_WIDTH`` words): the low and the high bound, the tricks
# left + 1 (0: never written) and the generation of the tables (``ST_GEN``) it was written in; an entry of
# another generation, and a depth list (its count word: the count and the generation), is empty
TT_BOUNDS, TT_WIDTH, GEN_SHIFT = 4, 5, 24
# a row of the per-card frame array: the cards to try, their ordering keys, the position's table key, the
# position (leader, trick so far, suit and card led, broken, cards played, tricks needed), the hand, the
# number of cards to try and the next, the answer so far, the trick's first three cards (kept over the next)
KEYS, TTKEY = 32, 64
F_LEADER, F_MASK, F_LED, F_LEAD, F_BROKEN, F_PLAYED, F_NEED, F_HAND, F_N, F_I, F_RESULT, F_ALLOWED, F_OUTER, \
    F_SAVED = range(68, 82)
F_KILLER = 84              # 1 + the card that last cut this row's search short (0: none)
CODES = 85                 # 4 x 16: each suit's holder codes (``_codes``)
REPLIES = CODES + 64      # 4: the leader's forecast replies by suit led (``_moves``)
WEIGHTS = REPLIES + 4     # 4: the leads' weights by suit (``_moves``)
F_REL_IN = WEIGHTS + 4    # the cards that matter as the frame was entered (each card tried starts from them)
F_REL_ALL = WEIGHTS + 5   # the cards that mattered to any card tried so far
MV_WIDTH = WEIGHTS + 6
DEPTHS = 32                # depth vectors listed per bucket of relevant-card entries (the most recent)
PARTITION_KEY = 1 << 62    # marks a relevant-card entry's key (an exact key never has this bit)
ENTER, NEXT, RETURN, FINISH = range(4)
