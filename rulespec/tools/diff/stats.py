"""Small statistics for the reports: Wilson intervals and histograms."""
from __future__ import annotations

import math


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def summary(values: list[int]) -> dict:
    """Count, mean, median, 90th percentile, min and max of a list of numbers."""
    if not values:
        return {"count": 0}
    ordered = sorted(values)
    n = len(ordered)
    return {"count": n, "mean": round(sum(ordered) / n, 2), "median": ordered[n // 2],
            "p90": ordered[min(n - 1, int(0.9 * n))], "min": ordered[0], "max": ordered[-1]}


def histogram(values: list[int], bins: int = 12) -> list[dict]:
    """Equal-width bins over the values' range: [{lo, hi, count}] (both ends inclusive).  Where the range
    holds 0, "no change" is a bin of its own (the bin around it is split), so that it does not hide the
    small changes next to it."""
    if not values:
        return []
    lo, hi = min(values), max(values)
    if lo == hi:
        return [{"lo": lo, "hi": hi, "count": len(values)}]
    width = max(1, math.ceil((hi - lo + 1) / bins))
    edges = list(range(lo, hi + 1, width))
    counts = [0] * len(edges)
    for v in values:
        counts[min(len(edges) - 1, (v - lo) // width)] += 1
    out = []
    for e, c in zip(edges, counts):
        top = min(hi, e + width - 1)
        out += _split_at_zero(e, top, values) if e <= 0 <= top and (e, top) != (0, 0) else [
            {"lo": e, "hi": top, "count": c}]
    return out


def _split_at_zero(lo: int, hi: int, values: list[int]) -> list[dict]:
    """The bin [lo, hi] around 0 as [lo, -1], [0, 0] and [1, hi] (each part only where it has room)."""
    parts = [(lo, -1), (0, 0), (1, hi)]
    return [{"lo": a, "hi": b, "count": sum(1 for v in values if a <= v <= b)} for a, b in parts if a <= b]
