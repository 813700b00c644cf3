"""Every kind of bid beside every other, under every bundled variant: a ruling or a 422 that says why,
never a 500 (issue 31: a blind 7 beside the partner's ordinary bid raised KeyError under 000)."""
from __future__ import annotations

import itertools
import json

import pytest

from rulespec.app.disputes import answer
from rulespec.core import cards as C
from rulespec.errors import InputError
from rulespec.model.ruleset import load_ruleset
from rulespec.model.variants import bundled_ids
from service.app import create_app

KINDS = [1, 2, 4, 13, "nil", "blind nil", "blind 6", "blind 7", "blind 8", "blind 10", "blind 13"]
BEFORE = [{}, {"NS": {"score": -250}, "EW": {"score": 0}}, {"NS": {"score": 0}, "EW": {"score": -250}}]
TRICKS = {"N": 3, "E": 4, "S": 3, "W": 3}


def _ruling(kind: str, request: dict) -> dict | None:
    """The answer, or None for a refusal; a refusal must say what was wrong and where."""
    try:
        return answer(kind, request)
    except InputError as exc:
        assert exc.message.strip() and exc.field, (request, exc.message, exc.field)
        assert "Traceback" not in exc.message and "KeyError" not in exc.message
        return None


def _plain_pair(variant: str) -> tuple:
    """A pair of ordinary bids the variant accepts for a side (suicide wants a nil in each side)."""
    for pair in ((4, 4), (4, "nil")):
        bids = {"N": pair[0], "S": pair[1], "E": pair[0], "W": pair[1]}
        if _ruling("score", {"variant": variant, "bids": bids, "tricks": TRICKS}) is not None:
            return pair
    raise AssertionError(f"no plain pair of bids under {variant}")


PARTNERSHIPS = [vid for vid in bundled_ids() if C.table_of(load_ruleset(vid).params) is C.FOUR]   # (pairs of bids)


@pytest.mark.parametrize("variant", PARTNERSHIPS)
def test_every_pair_of_bid_kinds_is_scored_or_refused_in_words(variant):
    scored = refused = 0
    plain = _plain_pair(variant)
    for first, second in itertools.product(KINDS, repeat=2):
        for side, before in itertools.product(("NS", "EW"), BEFORE):
            seats = ("N", "S") if side == "NS" else ("E", "W")
            others = dict(zip(("N", "S") if side == "EW" else ("E", "W"), plain))
            bids = {seats[0]: first, seats[1]: second, **others}
            result = _ruling("score", {"variant": variant, "bids": bids, "tricks": TRICKS, "before": before})
            scored, refused = scored + (result is not None), refused + (result is None)
    assert scored and refused


@pytest.mark.parametrize("variant", bundled_ids())
def test_every_bid_beside_every_partner_bid_is_ruled(variant):
    for bid, partner in itertools.product(KINDS, [None, *KINDS]):
        for before in BEFORE:
            request = {"variant": variant, "seat": "S", "bid": bid, "dealer": "W", "before": before,
                       **({"bids": {"N": partner}} if partner is not None else {})}
            result = _ruling("bid", request)
            if result is not None:
                assert all(step.get("reason") for step in result["refusals"] + result["explanation"]), request


def test_a_blind_seven_beside_an_ordinary_bid_is_a_422_that_says_why():
    client = create_app().test_client()
    for partner in (3, "nil", "blind nil", "blind 8"):
        body = {"variant": "tournament", "bids": {"N": "blind 7", "S": partner, "E": 4, "W": 4},
                "tricks": TRICKS, "before": {"NS": {"score": 0}, "EW": {"score": 300}}}
        resp = client.post("/v1/score", data=json.dumps(body), content_type="application/json")
        assert resp.status_code == 422, (partner, resp.get_data(as_text=True))
        problem = resp.get_json(force=True)
        assert problem["field"] == "bids" and problem["rule"] == "blind_bid.allowed"
        assert "blind bid is NS's bid as a side, made by both partners together (blind 7)" in problem["detail"]
        resp = client.post("/v1/bid", data=json.dumps({"variant": "tournament", "seat": "S", "bid": partner,
                                                       "bids": {"N": "blind 7"}}), content_type="application/json")
        assert resp.status_code == 200
        assert resp.get_json()["allowed"] is False
    both = {"variant": "tournament", "bids": {"N": "blind 7", "S": "blind 7", "E": 4, "W": 4},
            "tricks": {"N": 4, "E": 3, "S": 4, "W": 2}}
    resp = client.post("/v1/score", data=json.dumps(both), content_type="application/json")
    assert resp.status_code == 200 and resp.get_json()["teams"]["NS"]["points"] == 140
