"""The compiled engine's random players (``fast.native_hand``): each decision uniform among the legal options,
from numba's generator (seeded in ``native_hand.py``'s ``play``)."""
import numba
import numpy as np

from .names import lowest_card, popcount  # generated


@numba.njit(cache=True, no_cpython_wrapper=True)
def _kth(options, k):
    """The index of the k-th true entry of ``options``."""
    for c in range(len(options)):
        if options[c]:
            if k == 0:
                return c
            k -= 1
    return -1


@numba.njit(cache=True, no_cpython_wrapper=True)
def _choose_bid(seat, options, count, hand, kind, num, scores):
    return _kth(options, int(np.random.random() * count))


@numba.njit(cache=True, no_cpython_wrapper=True)
def _choose_raise(seat, options, count, hand):
    return _kth(options, int(np.random.random() * count))


@numba.njit(cache=True, no_cpython_wrapper=True)
def _choose_cards(seat, mask, count, kind):
    out = 0
    for _ in range(count):
        k = int(np.random.random() * popcount(mask))
        left = mask
        while k:
            left &= left - 1
            k -= 1
        bit = left & -left
        out |= bit
        mask &= ~bit
    return out


@numba.njit(cache=True, no_cpython_wrapper=True)
def _choose_discard(seat, mask, count):
    return _choose_cards(seat, mask, count, None)


@numba.njit(cache=True, no_cpython_wrapper=True)
def _choose_keep(seat, card, hand, turn):
    return int(np.random.random() * 2)


@numba.njit(cache=True, no_cpython_wrapper=True)
def _choose_card(seat, allowed, trick, position, hand, number, kind, num, won, trick_cards, trick_led_suit,
                 played):
    k = int(np.random.random() * popcount(allowed))
    while k:
        allowed &= allowed - 1
        k -= 1
    return lowest_card(allowed)
