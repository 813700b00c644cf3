"""The cost of a game record's audit and card-by-card review, per hand.

Hands played by the engine's random players (``rulespec simulate --out``'s records) under ``standard`` and
``jokers-deuces``: each audited (``app.audit``, one replay through the hand procedure) and reviewed
(``app.review``: one double-dummy search per card with a choice, a nil bidder's besides), in CPU seconds of
this process.  The review runs as the command line runs it (the compiled search, loaded once before any
timing, as a service request finds it once compiled), and as a service request runs under a house rule
(the Python search) within the request's budget (``claims.API_NODES``, ``API_SECONDS``): the share of a hand's
cards it reviews.

``python -m bench.records [--hands N] [--python-hands N]`` runs it on its own."""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

from rulespec.app.audit import audit
from rulespec.app.claims import allowance
from rulespec.app.recorded import judges
from rulespec.app.review import review
from rulespec.game import deal_for, play_hand
from rulespec.game.policies import RandomPolicy
from rulespec.model.ruleset import load_ruleset
from rulespec.records import read_records
from rulespec.solve.native import NativeUnavailable, native_module

from .solve import nearest_rank

VARIANTS = ("standard", "jokers-deuces")


def _record(variant: str, seed: int) -> str:
    """One hand the engine's random players play, as a JSON hand record."""
    rs = load_ruleset(variant)
    hand = play_hand(rs, deal_for(f"bench-records-{seed}", 0, rs), seed % 4, RandomPolicy(random.Random(seed)))
    return json.dumps({k: v for k, v in hand.items() if not k.startswith("_")})


def _timed(fn) -> tuple[float, dict]:
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


def _spread(values: list[float]) -> dict:
    ordered = sorted(values)
    return {"median": statistics.median(ordered), "p95": nearest_rank(ordered, 0.95), "max": ordered[-1]}


def measure(hands: int = 20, python_hands: int = 2, first: int = 0) -> dict:
    """Audit and review CPU seconds per hand, nodes per hand, and the share a budgeted Python review covers
    (``hands`` hands a variant, from deal ``first`` of the bench's seed)."""
    out: dict = {"hands": hands, "python_hands": python_hands}
    for variant in VARIANTS:
        rs = load_ruleset(variant)
        try:
            start = time.perf_counter()
            native_module(rs)
            out[f"{variant}_load_s"] = round(time.perf_counter() - start, 2)
        except NativeUnavailable:
            out[f"{variant}_load_s"] = None
        readings = [read_records(_record(variant, seed), "json") for seed in range(first, first + hands)]
        given = judges(variant)
        audits = [_timed(lambda r=r: audit(r, given))[0] for r in readings]
        reviews, nodes = [], []
        for reading in readings:
            with allowance(None, None, compiles=True):
                seconds, result = _timed(lambda r=reading: review(r, given, load_compiled=True))
            reviews.append(seconds)
            nodes.append(result["hands"][0]["nodes"])
        out[variant] = {"audit_s": _spread(audits), "review_s": _spread(reviews), "nodes": _spread(nodes)}
    out["python"] = _python_share(python_hands)
    return out


def _python_share(hands: int) -> dict:
    """The Python search (a house rule's, in the service) reviewing under the API's budget: cards covered."""
    previous = os.environ.get("RULESPEC_SOLVER")
    os.environ["RULESPEC_SOLVER"] = "python"
    shares, seconds = [], []
    try:
        given = judges("standard")
        for seed in range(hands):
            reading = read_records(_record("standard", 100 + seed), "json")
            with allowance():
                spent, result = _timed(lambda r=reading: review(r, given))
            hand = result["hands"][0]
            shares.append(len(hand["cards"]) / 52)
            seconds.append(spent)
    finally:
        if previous is None:
            os.environ.pop("RULESPEC_SOLVER", None)
        else:
            os.environ["RULESPEC_SOLVER"] = previous
    return {"share": shares, "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--python-hands", type=int, default=2)
    args = parser.parse_args()
    print(json.dumps(measure(args.hands, args.python_hands), indent=2))


if __name__ == "__main__":
    main()
