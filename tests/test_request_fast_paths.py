"""The request layer's fast paths give the answers of the plain code: seats, cards, bids, JSON bodies
with their nesting bound, and whole /v1/score answers (values, key order, errors with their fields),
each checked against a straightforward reference kept here."""
from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping

import pytest

from rulespec.app.conditions import game_end
from rulespec.app import answers as A
from rulespec.app import fields as F
from rulespec.app import reasons as R
from rulespec.core import cards as C
from rulespec import game as E
from rulespec.errors import CardError, GameError
from rulespec.model.ruleset import load_ruleset
from rulespec.model.variants import bundled_ids
from service.app import create_app
from service.bodies import MAX_DEPTH, DuplicateKey, parse_json, read_float
from service.problems import ApiProblem
from api_requests import BLIND_NIL_BEHIND, TRANSFER_RENEGE, played_hand


# --------------------------------------------------------------------------- references
def plain_parse_seat(text) -> int:
    if isinstance(text, str):
        word = text.strip().upper()
        for seat, names in enumerate((("N", "NORTH"), ("E", "EAST"), ("S", "SOUTH"), ("W", "WEST"))):
            if word in names:
                return seat
    raise CardError(f"not a seat: {text!r} (use N, E, S or W)")


def plain_seat(value, field: str) -> int:
    try:
        return plain_parse_seat(value)
    except CardError as exc:
        raise A.InputError(str(exc), field) from None


def plain_bid(value, field: str) -> E.Bid:
    try:
        return E.parse_bid(value, field)
    except GameError as exc:
        raise A.InputError(exc.message, field) from None


def plain_per_seat(value, field: str, parse: Callable[[object, str], object]) -> list:
    if not isinstance(value, Mapping):
        raise A.InputError("expected an object with one entry per seat: N, E, S, W", field)
    out = [None] * 4
    for key, item in value.items():
        seat = plain_seat(key, f"{field}.{key}")
        out[seat] = parse(item, f"{field}.{key}")
    missing = [C.SEATS[s] for s in range(4) if out[s] is None]
    if missing:
        raise A.InputError(f"missing seat(s): {', '.join(missing)}", field)
    return out


def plain_before(req: Mapping) -> tuple[tuple[int, int], tuple[int, int]]:
    before = req.get("before") or {}
    if not isinstance(before, Mapping):
        raise A.InputError("expected {\"NS\": {\"score\": …, \"bags\": …}, \"EW\": {…}}", "before")
    scores, bags = [0, 0], [0, 0]
    for key, item in before.items():
        if key not in C.TEAMS:
            raise A.InputError(f"unknown team '{key}' (teams are NS and EW)", f"before.{key}")
        item = F.obj(item, f"before.{key}")
        for sub in item:
            if sub not in ("score", "bags"):
                raise A.InputError(f"unknown key '{sub}' (use score and bags)", f"before.{key}.{sub}")
        t = C.TEAMS.index(key)
        scores[t] = F.whole(item.get("score", 0), f"before.{key}.score", -100_000, 100_000)
        bags[t] = F.whole(item.get("bags", 0), f"before.{key}.bags", 0, 1000)
    return (scores[0], scores[1]), (bags[0], bags[1])


def plain_validate_bids(rs, bids: list[E.Bid], scores, bags, dealer: int | None) -> None:
    first = E.seat_rule(rs, "deal.first_bidder", dealer) if dealer is not None else 0
    for k in range(4):
        seat = (first + k) % 4
        alone = [None] * 4
        refusals = E.bid_refusals(rs, seat, bids[seat], hand=None, dealer=dealer if dealer is not None else 3,
                                  bids=alone, scores=scores, bags=bags)
        if refusals:
            r = refusals[0]
            why = A._bid_reason(rs, r, seat, bids[seat], "", scores, refused=True)
            raise A.InputError(f"{R.SEAT_NAMES[C.SEATS[seat]]} may not bid {bids[seat]}: {why}",
                               f"bids.{C.SEATS[seat]}", r["rule"], r["cite"])
    for team in (0, 1):
        pair = [bids[team], bids[team + 2]]
        refusals = E.team_refusals(rs, pair, scores, bags, team)
        if refusals:
            r = refusals[0]
            why = A._bid_reason(rs, r, team, pair[0], f"{C.SEATS[team]} {pair[0]}, {C.SEATS[team + 2]} {pair[1]}",
                                scores, refused=True)
            raise A.InputError(f"{C.TEAMS[team]}'s bids are not allowed together: {why}", "bids",
                               r["rule"], r["cite"])
    so_far: list = [None] * 4           # the rule over every bid so far, in bidding order
    for k in range(4):
        seat = (first + k) % 4
        for r in E.bid_refusals(rs, seat, bids[seat], hand=None, dealer=dealer if dealer is not None else 3,
                                bids=so_far, scores=scores, bags=bags):
            if r["rule"] == "bid.table_valid":
                raise A.InputError(f"{R.SEAT_NAMES[C.SEATS[seat]]} may not bid {bids[seat]}: {r['why']}",
                                   f"bids.{C.SEATS[seat]}", r["rule"], r["cite"])
        so_far[seat] = bids[seat]


def plain_answer_score(rs, req: Mapping) -> dict:
    """answer_score as first written (the deal-and-play replay is shared: see the _per_seat test)."""
    bids = plain_per_seat(F.get(req, "bids", ""), "bids", plain_bid)
    scores, bags = plain_before(req)
    dealer = plain_seat(req["dealer"], "dealer") if req.get("dealer") is not None else None
    plain_validate_bids(rs, bids, scores, bags, dealer)
    size = rs.params["deal.hand_size"]
    reneges: list[int] = []
    irregular: list[dict] = []
    last = None
    if req.get("deal") is not None or req.get("play") is not None:
        if req.get("tricks") is not None:
            raise A.InputError("give either tricks per seat or the deal and play, not both", "tricks")
        if req.get("deal") is None or req.get("play") is None:
            raise A.InputError("the deal and the play go together", "deal" if req.get("deal") is None else "play")
        tricks, reneges, last, unplayed = A._replay(rs, req, bids, irregular)
        if unplayed:
            tricks = A._fill_dead_hand(tricks, unplayed, reneges, bids)
    else:
        tricks = plain_per_seat(F.get(req, "tricks", ""), "tricks", lambda v, f: F.whole(v, f, 0, size))
        if sum(tricks) != size:
            raise A.InputError(f"tricks add up to {sum(tricks)}; a hand has {size}", "tricks")
        last = A._last_trick(rs, req)
    for i, event in enumerate(req.get("events") or []):
        event = F.obj(event, f"events[{i}]")
        if event.get("type") != "renege":
            raise A.InputError("the only event is {\"type\": \"renege\", \"seat\": …}", f"events[{i}].type")
        reneges.append(plain_seat(F.get(event, "seat", f"events[{i}]"), f"events[{i}].seat"))
    try:
        results = E.score_hand(rs, bids, tricks, scores, bags, reneges, last)
    except GameError as exc:
        raise A.InputError(exc.message, exc.field, exc.rule, exc.cite) from None
    new_scores = (results[0].score, results[1].score)
    new_bags = (results[0].bags, results[1].bags)
    hands = F.whole(req.get("hands_played", 0), "hands_played", 0, 10_000) + 1
    history = E.NO_HISTORY.after(results)           # a hand on its own: the game so far is this hand
    game = E.game_status(rs, new_scores, new_bags, hands, explain=True, history=history)
    if game["over"] and game.get("rule", {}).get("rule") == "game.mercy":     # the early end said in words
        game["reason"] = game_end(rs, game, new_scores) or A._history_end(rs, history) or game["reason"]
    explanation = []
    for t, r in enumerate(results):
        team = C.TEAMS[t]
        for line, facts in zip(r.lines, r.facts):
            detail = R.hand_detail(line["rule"], facts, [str(b) for b in bids])
            line["reason"] = R.reason(line["rule"], R.hand_facts(line["rule"], team, line["points"], detail))
        pair = [bids[t], bids[t + 2]]
        for seat in (s for s in (t, t + 2) if bids[s].kind == E.REGULAR and bids[s].n == 0):
            explanation.append(dict(rs.step("bid.zero", True, f"{C.SEATS[seat]}'s zero is an ordinary bid of no "
                                            "tricks"), team=team,
                                    reason=f"{R.SEAT_NAMES[C.SEATS[seat]]} bid zero: a contract of no tricks, "
                                           "not a nil"))
        if any(b.kind == E.REGULAR for b in pair):
            contract = E.team_contract(rs, pair, scores, bags, t)
            parts = " + ".join(f"{C.SEATS[s]} {bids[s]}" for s in (t, t + 2) if bids[s].kind == E.REGULAR)
            explanation.append(dict(rs.step("bid.team_contract", contract, parts), team=team,
                                    reason=R.reason("bid.team_contract", R.team_bid_facts(team, parts, contract))))
        if any(b.is_nil for b in pair):
            value = rs.params["nil.tricks_count"]
            facts = R.hand_facts("nil.tricks_count", team, None, "", value)
            explanation.append(dict(rs.step("nil.tricks_count", value,
                                            "whether the nil bidder's tricks count toward the contract"),
                                    team=team, reason=R.reason("nil.tricks_count", facts)))
            value = rs.params["nil.tricks_bags"]
            explanation.append(dict(rs.step("nil.tricks_bags", value,
                                            "whether the nil bidder's tricks count as overtricks (bags)"),
                                    team=team, reason=R.reason("nil.tricks_bags",
                                                               R.hand_facts("nil.tricks_bags", team, None, "", value))))
        explanation += [dict(line, team=team) for line in r.lines]
    for step in game["explanation"]:
        step["reason"] = R.reason(step["rule"], R.game_facts(new_scores, rs.params["game.target"], step["value"]),
                                  refused=step["value"] in (False, None))
    explanation += game.pop("explanation")
    out = {"variant": rs.id, "bids": {C.SEATS[s]: str(b) for s, b in enumerate(bids)},
           "tricks": {C.SEATS[s]: tricks[s] for s in range(4)},
           "teams": {C.TEAMS[t]: r.as_dict() for t, r in enumerate(results)},
           "game": game, "explanation": explanation}
    if irregular:
        out["irregularities"] = irregular
    return out


def _plain_too_deep(value) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return False


def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _plain_pairs(pairs):
    keys = [k for k, _ in pairs]
    for i, key in enumerate(keys):
        if key in keys[:i]:
            raise DuplicateKey(f"the key {key[:80]!r} appears twice in one object")
    return dict(pairs)


def plain_parse_json(text: str):
    try:
        value = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_plain_pairs,
                           parse_float=read_float)
    except DuplicateKey as exc:
        raise ApiProblem("invalid-json", f"the body is ambiguous: {exc}", "body") from None
    except (ValueError, RecursionError) as exc:
        raise ApiProblem("invalid-json", f"the body is not valid JSON: {exc}", "body") from None
    if _plain_too_deep(value):
        raise ApiProblem("invalid-json", f"the body nests deeper than {MAX_DEPTH} levels", "body")
    return value


# --------------------------------------------------------------------------- outcomes
def outcome(fn: Callable, *args) -> tuple:
    """What a call gives: its value as exact JSON-ish text (types and key order count), or its error."""
    try:
        value = fn(*args)
    except A.InputError as exc:
        return "InputError", exc.message, exc.field, exc.rule, exc.cite, exc.details
    except ApiProblem as exc:
        return "ApiProblem", exc.slug, exc.detail, exc.field, exc.status, exc.extra
    except CardError as exc:
        return "CardError", str(exc)
    return "ok", repr(value) if isinstance(value, (int, E.Bid)) else json.dumps(value, default=repr)


SEAT_TEXTS = ["N", "E", "S", "W", "n", "e", "s", "w", " N", "W ", "\tS\n", "North", "NORTH", "north", " east ",
              "South", "wEsT", "No", "Nor", "Northwest", "NE", "X", "", " ", "ſ", "ſouth", "eaﬅ", "weﬅ", "Ｎ",
              "ñ", "N.", "1", "0", None, 0, 1, True, 2.0, ["N"], {"N": 1}]


@pytest.mark.parametrize("text", SEAT_TEXTS, ids=repr)
def test_parse_seat_matches_the_plain_rule(text):
    assert outcome(C.parse_seat, text) == outcome(plain_parse_seat, text)


def plain_parse_card(text) -> int:
    if not isinstance(text, str):
        raise CardError(f"a card must be a string such as 'AS' or '10H', not {text!r}")
    raw = text.strip().upper()
    if raw in C._JOKER_NAMES:
        return C._JOKER_NAMES[raw]
    if len(raw) >= 2:
        for rank_part, suit_part in ((raw[:-1], raw[-1]), (raw[1:], raw[0])):
            if rank_part in C._RANK_PARSE and suit_part in C._SUIT_PARSE:
                return C.make_card(C._SUIT_PARSE[suit_part], C._RANK_PARSE[rank_part])
    raise CardError(
        f"not a card: {text!r} (write rank then suit, e.g. 'AS', '10H' or 'TH', 'Q♦'; jokers 'BJ' and 'LJ')")


CARD_TEXTS = [*C.NAMES, *(name.lower() for name in C.NAMES), *(f" {name}\t" for name in C.NAMES), "TH", "th", "A♠",
              "♠A", "10♥", "♡Q", "SJ", "HJ", "lj", "J", "1H", "11H", "AX", "SA", "HS", "10", "", " ", "JOKER", "ＡＳ",
              None, 14, ["AS"]]


@pytest.mark.parametrize("text", CARD_TEXTS, ids=repr)
def test_parse_card_matches_the_plain_rule(text):
    assert outcome(C.parse_card, text) == outcome(plain_parse_card, text)


BID_VALUES = [0, 1, 3, 13, 14, 63, 64, 1000, -1, True, False, None, 3.0, "3", " 4 ", "05", "13", "nil", "NIL",
              " Nil", "null", "naught", "blind nil", "blind_nil", "blindnil", "Blind Nil", "blind 5", "blind5",
              "blind 0", "blind", "lots", "", [3], {"n": 3}]


@pytest.mark.parametrize("value", BID_VALUES, ids=repr)
def test_bids_match_parse_bid(value):
    assert outcome(F.bid_of, value, "bids.N") == outcome(plain_bid, value, "bids.N")


def _per_seat_cases(rng: random.Random) -> list:
    keys = [k for k in SEAT_TEXTS if isinstance(k, str)]
    cases = [None, [], "NESW", {}, {"N": 1, "E": 2, "S": 3}]
    for _ in range(300):
        chosen = rng.sample(keys, rng.randint(3, 6)) if rng.random() < 0.3 else list("NESW")
        cases.append({k: rng.choice([0, 1, 4, 13, 14, -1, "3", None, True, "nil", ["AS"], ["AS", "ZZ"]])
                      for k in chosen})
    return cases


def test_per_seat_matches_the_plain_loop():
    rs = load_ruleset("standard")
    parsers = [lambda v, f: F.whole(v, f, 0, 13), plain_bid,
               lambda v, f: C.mask_of(F.cards_of(v, f, rs)), lambda v, f: F.cards_of([v], f, rs)[0]]
    for case in _per_seat_cases(random.Random(3)):
        for parse in parsers:
            assert outcome(F.per_seat, case, "deal", parse) == outcome(plain_per_seat, case, "deal", parse), case


JSON_TEXTS = ["{}", "[]", "null", "3", '"x"', "{not json", "", " ", '{"x": NaN}', '{"x": Infinity}',
              '{"x": -Infinity}', "\ufeff{}", '{"a": 1} x', "1e400", '{"a": 1, "a": 2}', '"\\ud800"', "[1, 2.0, true]",
              '"' + "[" * 40 + '"', '{"k": "' + "{" * 40 + '"}', "[" * 2000 + "]" * 2000]
for _depth in range(MAX_DEPTH - 2, MAX_DEPTH + 3):
    for _inner in ("", "1", "[]", "{}", '"x"'):
        JSON_TEXTS += ["[" * _depth + _inner + "]" * _depth, '{"a": ' * _depth + (_inner or "0") + "}" * _depth,
                       '[{"a": ' * (_depth // 2) + (_inner or "0") + "}]" * (_depth // 2),
                       "[1, " + "[" * _depth + _inner + "]" * _depth + ', {"b": [2]}]']


@pytest.mark.parametrize("text", JSON_TEXTS, ids=range(len(JSON_TEXTS)))
def test_parse_json_matches_json_loads_and_a_full_walk(text):
    assert outcome(parse_json, text) == outcome(plain_parse_json, text)


# --------------------------------------------------------------------------- whole answers
SEAT_KEYS = ["N", "E", "S", "W", "n", " s", "North", "EAST", "west ", "X", "", "NE"]
BIDS = [0, 1, 2, 3, 4, 5, 6, 13, 14, -1, "3", "nil", "blind nil", "blind 5", "blind 6", "lots", True, None, 2.5]
SCORES = [0, 120, 480, 499, -200, 250, -10_000, 100_001, "5", None]
BAGS = [0, 3, 8, 9, 10, 19, -1, 1001, None]


def _tricks(rng: random.Random) -> list[int]:
    won = [0, 0, 0, 0]
    for _ in range(13):
        won[rng.randrange(4)] += 1
    return won


def score_requests(count: int, seed: int = 11) -> list[dict]:
    """Varied score requests over every bundled variant: most valid, many refused or malformed."""
    rng = random.Random(seed)
    # (the reference below scores four seats in partnerships; the other tables are pinned by corpus/cases/)
    variants = [*(v for v in bundled_ids() if C.table_of(load_ruleset(v).params) is C.FOUR), BLIND_NIL_BEHIND,
                TRANSFER_RENEGE]
    deal_play, _, _ = played_hand()
    renege, _, _ = played_hand(renege=True)
    out: list[dict] = []
    for i in range(count):
        req: dict = {"variant": variants[i % len(variants)]}
        keys = rng.sample(SEAT_KEYS, 4) if rng.random() < 0.15 else list("NESW")
        plain = rng.random() < 0.6
        req["bids"] = {k: rng.randint(1, 5) if plain else rng.choice(BIDS) for k in keys}
        if rng.random() < 0.1:
            req["bids"]["NESW"[rng.randrange(4)]] = rng.choice(["nil", 0, "blind nil"])
        won = _tricks(rng)
        req["tricks"] = {k: won[j] for j, k in enumerate("NESW")}
        if rng.random() < 0.05:
            req["tricks"]["NESW"[rng.randrange(4)]] = rng.choice([14, -1, "3", None])
        if rng.random() < 0.6:
            req["before"] = {team: {k: rng.choice(SCORES if k == "score" else BAGS)
                                    for k in rng.sample(["score", "bags"], rng.randint(0, 2))}
                             for team in rng.sample(["NS", "EW"], rng.randint(0, 2))}
            if rng.random() < 0.05:
                req["before"] = rng.choice([[1], {"XX": {}}, {"NS": {"extra": 1}}, {"NS": 3}])
        if rng.random() < 0.3:
            req["dealer"] = rng.choice([*SEAT_KEYS, None, 1])
        if rng.random() < 0.08:
            req["events"] = rng.choice([[{"type": "renege", "seat": rng.choice("NESW")}], [{"type": "x"}], [1],
                                        [{"type": "renege", "seat": "N"}, {"type": "renege", "seat": "E"}]])
        if rng.random() < 0.15:
            req["hands_played"] = rng.choice([0, 5, 10_000, 10_001, -1, "2", None])
        if rng.random() < 0.05:
            req["last_trick"] = {"winner": rng.choice("NESW"), "cards": {"N": "AS", "E": "2S", "S": "3S", "W": "4S"}}
        if rng.random() < 0.04:   # a played hand: of 'standard', or of a variant that may refuse its play
            req = {**rng.choice([deal_play, renege]), **({"variant": req["variant"]} if rng.random() < 0.5 else {})}
        out.append(req)
    return out


def test_score_answers_match_the_reference():
    rulesets: dict[str, object] = {}
    outcomes = set()
    for req in score_requests(1200):
        key = json.dumps(req["variant"])
        if key not in rulesets:
            rulesets[key] = A.resolve_variant(req["variant"])
        rs = rulesets[key]
        got, want = outcome(A.answer_score, rs, req), outcome(plain_answer_score, rs, req)
        assert got == want, req
        outcomes.add(got[0] if got[0] == "ok" else got[2])
    # the corpus is varied
    assert {"ok", "bids", "bids.N", "tricks.N", "before.NS.score", "dealer", "events[0].type"} <= outcomes


def test_score_over_http_matches_the_reference():
    client = create_app().test_client()
    for req in score_requests(150, seed=12):
        resp = client.post("/v1/score", data=json.dumps(req), content_type="application/json")
        given = {k: v for k, v in req.items() if v is not None}     # over the API a null field is one left out
        kind, *rest = outcome(lambda rs, r: A.with_readings(rs, plain_answer_score(rs, r)),   # the API adds readings
                              A.resolve_variant(req["variant"]), given)
        if kind == "ok":
            assert resp.status_code == 200
            assert json.loads(resp.get_data(), object_pairs_hook=list) == json.loads(rest[0], object_pairs_hook=list)
        else:
            body = resp.get_json(force=True)
            assert resp.status_code == 422 and (body["detail"], body["field"]) == (rest[0], rest[1] or "body")
