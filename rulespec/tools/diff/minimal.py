"""Minimal examples: the smallest situation of one kind that shows a rule's effect.

Each scenario kind (score, trick, legal, bid, game) has an evaluator that
answers its input under a ruleset, a measure of how far the input is from
the default situation (fewest non-default inputs first, then smallest
values), and a list of simpler neighbours.  ``shrink`` walks greedily to
simpler inputs for as long as the property still holds, the way Hypothesis
shrinks a failing example; it starts from a situation the replay really met.
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Iterator

import yaml

from ...core import cards as C
from ...app.answers import KINDS
from ...errors import InputError, RulespecError
from ...model.ruleset import Ruleset

KIND_OF_STAGE = {"draw": "draw", "kitty": "score", "bid": "bid", "exchange": "exchange", "legal": "legal",
                 "trick": "trick", "score": "score", "bags": "score", "game": "game"}
# the request kind of each example kind that is not one ("exchange": a bid's answer, as to the cards it passes;
# "draw": a score replayed from a deal given as the stock and the draw's choices, which a variant that deals its
# hands refuses, naming rule deal.draw: its answer is that refusal)
ANSWER_KIND = {"exchange": "bid", "draw": "score"}
# --------------------------------------------------------------------------- evaluators
_ZERO = {"NS": {"score": 0, "bags": 0}, "EW": {"score": 0, "bags": 0}}


def _project(kind: str, answer: dict) -> dict:
    """The comparable part of an answer of ``rulespec.app.answers`` (what a scenario's output checks)."""
    if kind in ("score", "draw"):
        return {"teams": {t: {k: answer["teams"][t][k] for k in ("points", "bags")} for t in answer["teams"]}}
    if kind == "game":
        return {"result": {k: answer["result"][k] for k in ("over", "winner", "scores")}}
    if kind == "exchange":
        return {"exchange": answer["exchange"] and {"cards": answer["exchange"]["cards"]}}
    key = {"trick": "winner", "legal": "legal", "bid": "allowed"}[kind]
    return {key: answer[key]}


def evaluate(rs: Ruleset, kind: str, inp: dict) -> dict | None:
    """The answer of ``rs`` to a scenario input, as ``rulespec test`` and the API see it; None when refused."""
    try:
        return _project(kind, KINDS[ANSWER_KIND.get(kind, kind)](rs, inp))
    except InputError as exc:
        return {"error": {"field": exc.field, "rule": exc.rule}} if kind == "draw" else None
    except RulespecError:
        return None


# --------------------------------------------------------------------------- measures and neighbours
def _before_size(inp: dict) -> tuple[int, int]:
    before = inp.get("before") or _ZERO
    values = [side[k] for side in before.values() for k in ("score", "bags")]
    return sum(1 for v in values if v), sum(abs(v) for v in values)


_DEFAULT_BID = 3                     # the plain bid a shrunk example falls back to
_DEFAULT_TRICKS = (4, 3, 3, 3)       # N E S W: an ordinary hand's split of 13 tricks


def _bid_size(bid) -> int:
    return abs(bid - _DEFAULT_BID) if isinstance(bid, int) else 20


def measure(kind: str, inp: dict) -> tuple:
    """Smaller is simpler: (non-default inputs, magnitude)."""
    if kind == "score":
        nd, mag = _before_size(inp)
        nd += sum(1 for b in inp["bids"].values() if not isinstance(b, int)) + bool(inp.get("last_trick"))
        nd += len(inp.get("events", ()))
        return nd, mag + sum(_bid_size(b) for b in inp["bids"].values()) + sum(
            abs(inp["tricks"][s] - d) for s, d in zip(C.SEATS, _DEFAULT_TRICKS) if s in inp["tricks"])
    if kind == "bid":
        nd, mag = _before_size(inp)
        return nd + len(inp.get("bids") or {}) + ("dealer" in inp), mag + _bid_size(inp["bid"])
    if kind == "legal":
        return len(inp["trick"]) + bool(inp["broken"]), len(inp["hand"]), sum(C.parse_cards(inp["trick"]))
    if kind == "trick":
        return (inp["leader"] != "N") + (inp["number"] != 1), sum(C.parse_cards(inp["cards"]))
    return len(inp["hands"]), sum(measure("score", {"before": None, **h})[1] for h in inp["hands"])


def _with(inp: dict, path: tuple, value) -> dict:
    out = copy.deepcopy(inp)
    node = out
    for key in path[:-1]:
        node = node[key]
    if value is _DROP:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return out


_DROP = object()


def _before_neighbours(inp: dict) -> Iterator[dict]:
    before = inp.get("before") or _ZERO
    for team in before:
        for key in ("score", "bags"):
            value = before[team][key]
            sign = 1 if value > 0 else -1
            for smaller in dict.fromkeys((0, value // 2, value - 10 * sign, value - sign)):
                if abs(smaller) < abs(value):
                    yield _with({**inp, "before": copy.deepcopy(before)}, ("before", team, key), smaller)


def _bids_neighbours(inp: dict, key: str) -> Iterator[dict]:
    for seat, bid in (inp.get(key) or {}).items():
        step = bid + (1 if bid < _DEFAULT_BID else -1) if isinstance(bid, int) else "nil"
        for simpler in dict.fromkeys((_DEFAULT_BID, step)):
            if simpler != bid:
                yield _with(inp, (key, seat), simpler)


def _score_neighbours(inp: dict) -> Iterator[dict]:
    if inp.get("events"):
        yield _with(inp, ("events",), _DROP)
    if inp.get("last_trick"):
        yield _with(inp, ("last_trick",), _DROP)
    yield from _before_neighbours(inp)
    yield from _bids_neighbours(inp, "bids")
    tricks = inp["tricks"]
    seats = [seat for seat in C.SEATS if seat in tricks]
    for src in seats:
        for dst in seats:
            if tricks[src] and src != dst:
                yield _with(_with(inp, ("tricks", src), tricks[src] - 1), ("tricks", dst), tricks[dst] + 1)


def _bid_neighbours(inp: dict) -> Iterator[dict]:
    for seat in list(inp.get("bids") or {}):
        yield _with(inp, ("bids", seat), _DROP)
    if "dealer" in inp:
        yield _with(inp, ("dealer",), _DROP)
    yield from _before_neighbours(inp)
    if isinstance(inp["bid"], int) and inp["bid"] != _DEFAULT_BID:
        yield _with(inp, ("bid",), _DEFAULT_BID)


def _legal_neighbours(inp: dict) -> Iterator[dict]:
    for i in range(len(inp["trick"])):
        yield _with(inp, ("trick",), inp["trick"][:i])
    if inp["broken"]:
        yield _with(inp, ("broken",), False)
    for card in inp["hand"]:   # a smaller hand is a later trick
        yield {**inp, "hand": [c for c in inp["hand"] if c != card], "number": inp["number"] + 1}


def _trick_neighbours(inp: dict) -> Iterator[dict]:
    for field, value in (("leader", "N"), ("number", 1)):
        yield _with(inp, (field,), value)
    cards = C.parse_cards(inp["cards"])
    for pos, card in enumerate(cards):
        for lower in range(card):
            if lower not in cards:
                yield _with(inp, ("cards", pos), C.card_name(lower))


def _game_neighbours(inp: dict) -> Iterator[dict]:
    for i in range(len(inp["hands"])):
        yield {**inp, "hands": inp["hands"][:i] + inp["hands"][i + 1:]}


_NEIGHBOURS = {"score": _score_neighbours, "bid": _bid_neighbours, "legal": _legal_neighbours,
               "trick": _trick_neighbours}


def neighbours(kind: str, inp: dict) -> Iterator[dict]:
    """Inputs one step simpler than ``inp`` (a request of ``kind``; any other kind is a game)."""
    return _NEIGHBOURS.get(kind, _game_neighbours)(inp)


def shrink(kind: str, inp: dict, holds: Callable[[dict], bool], budget: int = 3000) -> dict:
    """Greedily the simplest neighbour that still ``holds``, until none does (or the budget is spent)."""
    current, size = inp, measure(kind, inp)
    progress = True
    while progress and budget > 0:
        progress = False
        for cand in neighbours(kind, current):
            budget -= 1
            cand_size = measure(kind, cand)
            if cand_size < size and holds(cand):
                current, size, progress = cand, cand_size, True
                break
            if budget <= 0:
                break
    return current


# --------------------------------------------------------------------------- emission
def differing(a, b):
    """The parts of two outputs that differ (whole values below the first non-dict level)."""
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        keys = [k for k in a if k in b and a[k] != b[k]]
        out_a, out_b = {}, {}
        for key in keys:
            out_a[key], out_b[key] = differing(a[key], b[key])
        return out_a, out_b
    return a, b


def minimal_example(kind: str, inp: dict, a: Ruleset, b: Ruleset, a_with_rule: Ruleset) -> dict | None:
    """Shrink ``inp`` while A and B disagree and A with the rule alone answers as B does."""
    def holds(x: dict) -> bool:
        out_a, out_b = evaluate(a, kind, x), evaluate(b, kind, x)
        return out_a is not None and out_b is not None and out_a != out_b and evaluate(a_with_rule, kind, x) == out_b
    if not holds(inp):
        return None
    request = ANSWER_KIND.get(kind, kind)
    small = inp if kind == "draw" else shrink(request, inp, holds)    # (a drawn deal is the whole hand's)
    return {"kind": request, "input": small, "output": {a.id: evaluate(a, kind, small), b.id: evaluate(b, kind, small)}}


def scenario_yaml(cases: list[dict]) -> str:
    """Cases in the scenario-file layout (block for the case, flow style inside its parts)."""
    lines = ["cases:"]
    for case in cases:
        lines.append(f"  - name: {_flow(case['name'])}")
        lines.append(f"    kind: {case['kind']}")
        lines.append(f"    input: {_flow(case['input'])}")
        lines.append("    expect:")
        lines += [f"      {vid}: {_flow(exp)}" for vid, exp in case["expect"].items()]
    return "\n".join(lines) + "\n"


def _flow(value) -> str:
    return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10_000, sort_keys=False).strip()


def scenario(name: str, example: dict, ids: tuple[str, str]) -> dict:
    """The example as a ``rulespec test`` case and the ``POST /v1/compare`` request that reproduces it."""
    out_a, out_b = differing(example["output"][ids[0]], example["output"][ids[1]])
    case = {"name": name, "kind": example["kind"], "input": example["input"],
            "expect": {ids[0]: {"output": out_a}, ids[1]: {"output": out_b}}}
    request = {"method": "POST", "path": "/v1/compare",
               "body": {"variants": list(ids), "kind": example["kind"], "input": example["input"]}}
    return {"case": case, "yaml": scenario_yaml([case]),
            "request": request}
