"""Flask test-client tests: every endpoint, every class of error."""
from __future__ import annotations

import copy

import pytest

from rulespec.app.disputes import answer
from service.app import create_app
from api_requests import (BID, BLIND_NIL_BEHIND, GAME, LEGAL, NO_OVERTRICK_POINTS, SCORE, SEATS, TRANSFER_RENEGE,
                          TRICK, played_hand)

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def problem(resp, status: int, slug: str, field: str | None = None) -> dict:
    """Assert an RFC 9457 problem of this type; return its body."""
    assert resp.status_code == status, resp.get_data(as_text=True)
    assert resp.mimetype == PROBLEM
    body = resp.get_json(force=True)
    assert body["type"] == f"/api#problem-{slug}"
    assert body["status"] == status and body["title"] and body["detail"]
    assert "Traceback" not in resp.get_data(as_text=True)
    if field is not None:
        assert body["field"] == field, body
    return body


def cited(steps: list[dict]) -> None:
    """Every explanation line names its rule and carries a citation or says why there is none."""
    assert steps
    for step in steps:
        assert step["rule"]
        assert step["cite"] or step.get("note")


# --------------------------------------------------------------------------- service
def test_healthz_openapi_and_page(client):
    assert client.get("/healthz").get_json() == {"status": "ok"}
    spec = client.get("/openapi.json").get_json()
    assert spec["openapi"].startswith("3.1")
    assert {"/v1/trick", "/v1/legal", "/v1/bid", "/v1/score", "/v1/game", "/v1/compare", "/v1/diff",
            "/v1/variants", "/v1/variants/{id}", "/v1/variants/check", "/healthz",
            "/openapi.json"} <= set(spec["paths"])
    page = client.get("/api")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "POST /v1/score" in html and 'id="problem-rule-refusal"' in html and "<script" not in html


# --------------------------------------------------------------------------- variants
def test_variants_list_and_detail(client):
    listed = {v["id"]: v for v in client.get("/v1/variants").get_json()["variants"]}
    assert {"standard", "classic"} <= set(listed)
    detail = client.get("/v1/variants/classic").get_json()
    assert detail["chain"][-1] == "classic" and detail["extends"] == "standard"
    rules = {r["name"]: r for r in detail["rules"]}
    inherited = [r for r in rules.values() if r["inherited"]]
    own = [r for r in rules.values() if not r["inherited"]]
    assert inherited and own
    assert all(r["origin"] != "classic" for r in inherited) and all(r["origin"] == "classic" for r in own)
    for rule in rules.values():
        assert rule["text"] and (rule["cite"] or rule["unspecified"])
        assert {"note", "choices", "unspecified"} <= set(rule)


def test_variants_name_their_table(client):
    """Each variant's summary names its seats and the sides that score (the page's panels follow them)."""
    listed = {v["id"]: v["table"] for v in client.get("/v1/variants").get_json()["variants"]}
    assert listed["standard"] == listed["classic"] == {"seats": 4, "sides": ["NS", "EW"]}
    assert listed["cutthroat"] == {"seats": 3, "sides": ["N", "E", "S"]}
    assert listed["solo"] == {"seats": 4, "sides": ["N", "E", "S", "W"]}
    assert listed["two-player"] == {"seats": 2, "sides": ["N", "E"]}
    assert client.get("/v1/variants/cutthroat").get_json()["table"] == listed["cutthroat"]
    checked = client.post("/v1/variants/check", data="id: mine\nextends: two-player\n", content_type="text/yaml")
    assert checked.get_json()["table"] == listed["two-player"]


def test_unknown_variant_404(client):
    body = problem(client.get("/v1/variants/no-such"), 404, "unknown-variant", "id")
    assert "standard" in body["known"]


def test_check_yaml_ok_raw_and_json(client):
    text = "id: my-house\nextends: classic\nrules:\n  nil.made: 75 @ house §Nil\n"
    for resp in (client.post("/v1/variants/check", data=text, content_type="text/yaml"),
                 client.post("/v1/variants/check", json={"yaml": text})):
        body = resp.get_json()
        assert resp.status_code == 200 and body["ok"] is True and body["id"] == "my-house"
        assert body["chain"] == ["standard", "classic", "my-house"]
        nil = next(r for r in body["rules"] if r["name"] == "nil.made")
        assert nil["text"] == "75" and nil["cite"] == "house §Nil" and not nil["inherited"]


def test_check_yaml_reports_every_problem(client):
    text = "id: h\nextends: classic\nrules:\n  nil.made: 75\n  nill.failed: -75 @ house §Nil\n"
    body = problem(client.post("/v1/variants/check", data=text, content_type="application/yaml"),
                   422, "variant-problems", "yaml")
    problems = body["problems"]
    assert len(problems) == 2
    assert [p["line"] for p in problems] == [4, 5] and all(p["column"] for p in problems)
    assert "citation" in problems[0]["message"]
    assert "nil.failed" in problems[1]["suggestion"]


@pytest.mark.parametrize("text, needle", [
    ("id: h\nextends: /etc/standard.yaml\n", "bundled variant id"),
    ("id: h\nextends: ../variants/standard.yaml\n", "bundled variant id"),
    ("id: h\nextends: nosuch\n", "unknown variant"),
    ("id: [h\n", "not valid YAML"),
    ("id: h\nextends: standard\nrules:\n  nil.made: " + "1 + " * 600 + "1 @ house §x\n", "2000"),
])
def test_check_yaml_refusals(client, text, needle):
    body = problem(client.post("/v1/variants/check", data=text, content_type="text/yaml"), 422, "variant-problems")
    assert needle in " ".join(p["message"] for p in body["problems"])


def test_check_yaml_bad_bodies(client):
    problem(client.post("/v1/variants/check", json={"text": "x"}), 422, "invalid-input", "yaml")
    problem(client.post("/v1/variants/check", json={"yaml": "x", "more": 1}), 422, "invalid-input", "more")
    problem(client.post("/v1/variants/check", data="x", content_type="image/png"), 415, "unsupported-media-type")


# --------------------------------------------------------------------------- disputes
def test_trick(client):
    body = client.post("/v1/trick", json=TRICK).get_json()
    assert body["winner"] == "E" and body["card"] == "2S"
    cited(body["explanation"])


def test_legal(client):
    body = client.post("/v1/legal", json=LEGAL).get_json()
    assert body["legal"] == ["KH", "AH"]
    assert {i["card"] for i in body["illegal"]} == {"3C", "2S"}
    assert body["illegal"][0]["reasons"][0]["rule"] == "play.follow"
    cited(body["explanation"])


def test_bid_blind_nil_depends_on_being_behind(client):
    body = client.post("/v1/bid", json=BID).get_json()
    assert body["allowed"] is True
    level = {**BID, "before": {"NS": {"score": 200}, "EW": {"score": 250}}}
    body = client.post("/v1/bid", json=level).get_json()
    assert body["allowed"] is False and body["refusals"][0]["rule"] == "blind_nil.allowed"
    cited(body["refusals"])


def test_score_from_tricks(client):
    body = client.post("/v1/score", json=SCORE).get_json()
    assert body == answer("score", SCORE)
    assert body["teams"]["EW"]["points"] == 70
    cited(body["explanation"])


def test_score_from_deal_and_play(client):
    request, _, _ = played_hand()
    body = client.post("/v1/score", json=request).get_json()
    assert sum(body["tricks"].values()) == 13
    cited(body["explanation"])


def test_game(client):
    body = client.post("/v1/game", json=GAME).get_json()
    assert len(body["sheet"]) == 2 and body["result"]["after_hand"] == 2
    cited(body["sheet"][0]["lines"])


def test_side_by_side_and_compare(client):
    request = {**{k: v for k, v in SCORE.items() if k != "variant"}, "variants": ["standard", NO_OVERTRICK_POINTS]}
    side = client.post("/v1/score", json=request).get_json()
    compared = client.post("/v1/compare", json={"variants": request["variants"], "kind": "score",
                                                "input": {k: v for k, v in request.items() if k != "variants"}})
    assert side == compared.get_json()
    assert side["agree"] is False and len(side["rulings"]) == 2
    (diff,) = side["differences"]
    assert "teams.NS.points" in [f["field"] for f in diff["fields"]]
    (rule,) = diff["rules"]
    assert rule["rule"] == "scoring.overtrick_points"
    assert rule["inline-1"]["cite"] == "house §Bags"


def test_diff(client):
    body = client.post("/v1/diff", json={"variants": ["standard", "classic"], "deals": 12, "seed": 7,
                                         "policies": ["random"]}).get_json()
    assert body["schema"] == "rulespec-diff-report/1"
    assert body["run"]["deals_run"] == 12 and body["run"]["stopped"] is None
    (pair,) = body["pairs"]
    assert (pair["a"], pair["b"]) == ("standard", "classic") and pair["rules"]
    assert pair["transcript"]["n"] == 12
    assert pair["transcript"]["stages"]["score"]["count"] > 0
    assert pair["transcript"]["stages"]["score"]["attribution"][0]["rule"] in pair["rules"]


def test_diff_bounds(client):
    for request, field in [({"deals": 201}, "deals"), ({"time_limit": 11}, "time_limit"),
                           ({"variants": ["standard"]}, "variants"),
                           ({"variants": ["standard", "standard"]}, "variants[1]"),
                           ({"variants": ["standard", NO_OVERTRICK_POINTS]}, "variants[1]"),
                           ({"variants": ["standard", "variants/classic.yaml"]}, "variants[1]"),
                           ({"policies": ["cheater"]}, "policies"), ({"games": 3}, "games")]:
        body = {"variants": ["standard", "classic"], **request}
        problem(client.post("/v1/diff", json=body), 422, "invalid-input", field)
    fast = create_app({"DIFF_TIME_LIMIT": 1e-9}).test_client()
    body = fast.post("/v1/diff", json={"variants": ["standard", "classic"], "deals": 200}).get_json()
    assert body["run"]["stopped"] == "time limit" and body["run"]["deals_run"] == 1


# --------------------------------------------------------------------------- bad input
def _set(request: dict, path: str, value) -> dict:
    out = copy.deepcopy(request)
    *head, last = path.split(".")
    target = out
    for key in head:
        target = target[key]
    target[last] = value
    return out


SCORE_DEAL, _, _ = played_hand()
SHORT_N = _set(_set(SCORE_DEAL, "deal.N", SCORE_DEAL["deal"]["N"][1:]), "deal.E",
               SCORE_DEAL["deal"]["E"] + SCORE_DEAL["deal"]["N"][:1])


@pytest.mark.parametrize("kind, request_, slug, field", [
    ("trick", {**TRICK, "variant": "nosuch"}, "invalid-input", "variant"),
    ("trick", {**TRICK, "variant": "variants/standard.yaml"}, "invalid-input", "variant"),
    ("trick", {**TRICK, "cards": ["AH", "ZZ", "KH", "3H"]}, "invalid-input", "cards[1]"),
    ("trick", {**TRICK, "cards": ["AH", "2S", "AH", "3H"]}, "invalid-input", "cards[2]"),
    ("trick", {**TRICK, "leader": "X"}, "invalid-input", "leader"),
    ("trick", {k: v for k, v in TRICK.items() if k != "leader"}, "invalid-input", "leader"),
    ("legal", {**LEGAL, "hand": ["AH", "2S"]}, "invalid-input", "hand"),
    ("legal", {**LEGAL, "trick": ["AH"]}, "invalid-input", "trick[0]"),
    ("bid", {**BID, "bid": "lots"}, "invalid-input", "bid"),
    ("score", _set(SCORE, "tricks.N", 6), "invalid-input", "tricks"),
    ("score", _set(SCORE, "bids.N", -1), "invalid-input", "bids.N"),
    ("score", {**_set(SCORE, "bids.N", "blind nil"), "variant": BLIND_NIL_BEHIND}, "rule-refusal", "bids.N"),
    ("score", SHORT_N, "invalid-input", "deal.N"),
    ("score", _set(SCORE_DEAL, "play", SCORE_DEAL["play"][:-4]), "invalid-input", "play"),
    ("score", _set(SCORE_DEAL, "play", [SCORE_DEAL["deal"]["N"][0]] + SCORE_DEAL["play"][1:]), "invalid-input",
     "play[0]"),
    ("game", {**GAME, "hands": []}, "invalid-input", "hands"),
    ("game", _set(GAME, "hands", [GAME["hands"][0], _set(GAME["hands"][1], "tricks.N", 9)]), "invalid-input",
     "hands[1].tricks"),
    ("score", {**SCORE, "variant": {"extends": "standard", "rules": {"nil.made": "1 +"}}}, "variant-problems",
     "variant.rules.nil.made"),
    ("score", {**SCORE, "variant": {"extends": "standard", "rules": {f"x{i}": 1 for i in range(65)}}},
     "invalid-input", "variant.rules"),
    ("score", {**SCORE, "variant": {"extends": "/etc/passwd.yaml"}}, "invalid-input", "variant.extends"),
])
def test_bad_input(client, kind, request_, slug, field):
    body = problem(client.post(f"/v1/{kind}", json=request_), 422, slug, field)
    if slug == "rule-refusal":
        assert body["rule"] == "blind_nil.allowed" and body["cite"] == "house §blind_nil.allowed"
    if slug == "variant-problems":
        assert body["problems"][0]["line"]


def test_card_not_in_hand_names_seat(client):
    request = _set(SCORE_DEAL, "play", [SCORE_DEAL["deal"]["N"][0]] + SCORE_DEAL["play"][1:])
    body = problem(client.post("/v1/score", json=request), 422, "invalid-input", "play[0]")
    assert "not in E's hand" in body["detail"]


def test_illegal_play_refused_or_scored_as_renege(client):
    request, at, seat = played_hand(renege=True)
    body = problem(client.post("/v1/score", json=request), 422, "rule-refusal", f"play[{at}]")
    assert body["rule"] == "play.follow" and body["cite"]
    penalties = {}
    for tricks in (0, 3):
        variant = {**TRANSFER_RENEGE, "rules": {**TRANSFER_RENEGE["rules"], "renege.transfer_tricks": tricks}}
        resp = client.post("/v1/score", json={**request, "variant": variant})
        assert resp.status_code == 200, resp.get_data(as_text=True)
        penalties[tricks] = resp.get_json()["teams"]
    offender = "NS" if SEATS.index(seat) % 2 == 0 else "EW"
    assert penalties[3][offender]["points"] < penalties[0][offender]["points"]


def test_rule_text_too_long(client):
    variant = {"extends": "standard", "rules": {"nil.made": "1" + " + 1" * 700}}
    body = problem(client.post("/v1/score", json={**SCORE, "variant": variant}), 422, "variant-problems",
                   "variant.rules.nil.made")
    assert "2000" in body["detail"]


# --------------------------------------------------------------------------- protocol errors
def test_protocol_errors(client):
    problem(client.post("/v1/trick", data="{not json", content_type="application/json"), 400, "invalid-json", "body")
    problem(client.post("/v1/trick", data=b"\xff\xfe", content_type="application/json"), 400, "invalid-json")
    problem(client.post("/v1/trick", data="[" * 40 + "]" * 40, content_type="application/json"), 400, "invalid-json")
    problem(client.post("/v1/trick", data='{"x": NaN}', content_type="application/json"), 400, "invalid-json")
    problem(client.post("/v1/trick", data="x", content_type="text/plain"), 415, "unsupported-media-type")
    problem(client.post("/v1/trick", json=[1, 2]), 422, "invalid-input", "body")
    problem(client.get("/v1/nowhere"), 404, "not-found")
    resp = client.get("/v1/score")
    problem(resp, 405, "method-not-allowed")
    assert "POST" in resp.headers["Allow"]
    problem(client.post("/v1/score", data="x" * (300 * 1024), content_type="application/json"), 413,
            "payload-too-large")


def test_unexpected_error_is_a_problem_without_trace():
    app = create_app()

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret internals")

    resp = app.test_client().get("/boom")
    body = problem(resp, 500, "internal-error")
    assert "secret" not in resp.get_data(as_text=True) and body["instance"] == "/boom"


def test_compare_kind_must_be_a_name(client):
    """Regression: a non-string kind (found by Schemathesis) was a TypeError, a 500."""
    body = {"variants": ["standard"], "kind": {}, "input": {}}
    problem(client.post("/v1/compare", json=body), 422, "invalid-input", "kind")


@pytest.mark.parametrize("value, body", [
    ({"b": 1, "a": [True, None, "é"]}, '{"b":1,"a":[true,null,"é"]}\n'),      # orjson: keys in order, UTF-8
    ({"n": 2 ** 70}, '{"n": 1180591620717411303424}\n'),                    # too big for orjson: json module
    ({"d": __import__("decimal").Decimal("1.5")}, '{"d": "1.5"}\n'),          # Flask's default() still applies
])
def test_json_responses_are_encoded_by_orjson_or_the_fallback(value, body):
    app = create_app()
    with app.app_context():
        resp = app.json.response(value)
    assert resp.mimetype == "application/json"
    assert resp.get_data(as_text=True) == body
