"""The compiled engine's own part of a hand module (``fast.native_hand``): the deal (a Fisher-Yates shuffle
of the pack, which is also the stock where the hands are drawn) and the loop that plays ``count`` hands in
order, each by the lowered form's ``whole_hand`` (the players' decisions: ``native_random.py``, or the lowered
form's sensible player)."""
import numba
import numpy as np

from .names import PACK, PLACES, SEATS, SIDES, SIZE, whole_hand  # generated


@numba.njit(cache=True, no_cpython_wrapper=True)
def deal(pack, hands):
    for i in range(len(pack) - 1, 0, -1):
        j = int(np.random.random() * (i + 1))
        pack[i], pack[j] = pack[j], pack[i]
    for seat in range(SEATS):
        mask = 0
        for k in range(seat * SIZE, (seat + 1) * SIZE):
            mask |= 1 << pack[k]
        hands[seat] = mask


@numba.njit(cache=True)
def play(count, seed, dealer, deals, kinds, nums, openings, tricks, points, bags_added, bags_after, plays, leaders,
         winners, gave, received, kitties, stocks, draws):
    np.random.seed(seed)
    pack = PACK.copy()
    hands = np.zeros(PLACES, dtype=np.int64)
    scores = np.zeros(SIDES, dtype=np.int64)
    bags = np.zeros(SIDES, dtype=np.int64)
    options = np.zeros(2 * SIZE + 3, dtype=np.int64)
    raises = np.zeros(SIZE + 1, dtype=np.int64)
    for i in range(count):
        deal(pack, hands)
        for seat in range(SEATS):
            deals[i, seat] = hands[seat]
        for k in range(stocks.shape[1]):     # (the stock drawn from, where the hands are drawn: else no columns)
            stocks[i, k] = pack[k]
        whole_hand(hands, dealer, scores, bags, kinds[i], nums[i], openings[i], tricks[i], points[i], bags_added[i],
                   bags_after[i], plays[i], leaders[i], winners[i], gave[i], received[i], kitties[i], pack, draws[i],
                   deals[i], options, raises)
