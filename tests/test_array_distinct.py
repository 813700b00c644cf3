"""fast/array_hand: a ``@distinct`` function is worked out once per distinct row, and a row's answer is remembered
from call to call (the bids of a batch of 8,192 hands are a few dozen distinct rows)."""
from __future__ import annotations

import numpy as np

from rulespec.fast import array_hand
from rulespec.fast.array_hand import _once_per_distinct_row


def _counting():
    """A pure rows function: fills ``out`` (written) with a + b per row and returns a * 10 + seat; counts the rows
    it was asked for."""
    asked: list[int] = []

    def rows_fn(_R, out, a, b, seat):
        asked.append(len(_R))
        out[...] = a + b
        return a * 10 + seat
    return rows_fn, asked


def test_each_distinct_row_once_then_from_memory():
    rows_fn, asked = _counting()
    call = _once_per_distinct_row(rows_fn, live=(1, 2, 3), written=(0,))
    a = np.array([1, 2, 1, 2, 3, 1])
    b = np.array([5, 5, 5, 5, 0, 5])
    out = np.zeros((1, 6), dtype=np.int64)
    result = call(np.arange(6), out, a, b, 2)
    assert result.tolist() == [12, 22, 12, 22, 32, 12] and out[0].tolist() == [6, 7, 6, 7, 3, 6]
    assert asked == [3]                                  # three distinct rows
    out2 = np.zeros((1, 6), dtype=np.int64)
    again = call(np.arange(6), out2, a[::-1].copy(), b[::-1].copy(), 2)
    assert again.tolist() == [12, 32, 22, 12, 22, 12] and out2[0].tolist() == [6, 3, 7, 6, 7, 6]
    assert asked == [3]                                  # every row remembered
    other_seat = call(np.arange(6), np.zeros((1, 6), dtype=np.int64), a, b, 3)
    assert other_seat.tolist() == [13, 23, 13, 23, 33, 13] and asked == [3, 3]   # a scalar is part of the key


def test_many_distinct_rows_are_not_remembered(monkeypatch):
    monkeypatch.setattr(array_hand, "MEMO_ROWS", 2)
    rows_fn, asked = _counting()
    call = _once_per_distinct_row(rows_fn, live=(1, 2, 3), written=(0,))
    a, b = np.array([1, 2, 3, 1]), np.zeros(4, dtype=np.int64)
    for _ in range(2):
        assert call(np.arange(4), np.zeros((1, 4), dtype=np.int64), a, b, 0).tolist() == [10, 20, 30, 10]
    assert asked == [3, 3]
