"""The answers the service gives match the schemas /openapi.json documents for them, including the
parts a client is most likely to meet without the fuzz test generating them: reading notes, cards
played against the play rules (irregularities), the rules that decided a line (decided_by), and
side-by-side double-dummy rulings."""
from __future__ import annotations

from pathlib import Path

import jsonschema_rs
import pytest
import yaml

from rulespec.core.resources import data_dir
from service.app import create_app


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


@pytest.fixture(scope="module")
def spec(client):
    return client.get("/openapi.json").get_json()


def conforms(spec: dict, name: str, body: dict) -> None:
    schema = {"$ref": f"#/components/schemas/{name}", "components": spec["components"]}
    jsonschema_rs.Draft202012Validator(schema).validate(body)


def _case(name: str) -> dict:
    cases = yaml.safe_load(Path(data_dir("corpus", "cases", "faithful.yaml")).read_text(encoding="utf-8"))
    return next(case for case in cases["cases"] if case["name"] == name)


def test_score_with_readings_conforms(client, spec):
    body = {"variant": "classic", "bids": {"N": "nil", "E": 3, "S": 4, "W": 3},
            "tricks": {"N": 1, "E": 4, "S": 4, "W": 4}}
    got = client.post("/v1/score", json=body).get_json()
    assert got["readings"] and {"rule", "clause", "cite", "status", "reading", "alternative"} <= set(got["readings"][0])
    conforms(spec, "ScoreAnswer", got)


def test_irregular_card_that_stands_conforms(client, spec):
    case = _case("a club that is not the lowest on the first trick is irregular but no renege")
    got = client.post("/v1/score", json={**case["input"], "variant": "tournament"}).get_json()
    assert got["irregularities"][0]["ruling"] == "stands" and got["irregularities"][0]["decided_by"]
    conforms(spec, "ScoreAnswer", got)
    with pytest.raises(jsonschema_rs.ValidationError):      # the schema is not vacuous
        conforms(spec, "ScoreAnswer", {**got, "irregularities": [{"seat": "N"}]})


def test_decided_by_conforms(client, spec):
    body = {"variant": "tournament", "bids": {"N": 3, "E": 3, "S": 4, "W": 3},
            "tricks": {"N": 3, "E": 3, "S": 4, "W": 3}, "events": [{"type": "renege", "seat": "E"}]}
    got = client.post("/v1/score", json=body).get_json()
    assert any(step.get("decided_by") for step in got["explanation"])
    conforms(spec, "ScoreAnswer", got)


@pytest.mark.parametrize("kind,extra", [("solve", {}), ("claim", {"claim": {"side": "NS", "tricks": 2}}),
                                        ("nil", {"nil": "N"})])
def test_double_dummy_side_by_side_conforms(client, spec, kind, extra):
    position = {"hands": {"N": ["AS", "2H"], "E": ["KS", "3H"], "S": ["QS", "4H"], "W": ["JS", "5H"]},
                "leader": "N", "broken": True, **extra}
    got = client.post(f"/v1/{kind}", json={**position, "variants": ["standard", "classic"]}).get_json()
    assert got["kind"] == kind and set(got["rulings"]) == {"standard", "classic"}
    conforms(spec, "CompareAnswer", got)
    compared = client.post("/v1/compare", json={"variants": ["standard"], "kind": kind, "input": position})
    assert compared.status_code == 200, compared.get_json()
    conforms(spec, "CompareAnswer", compared.get_json())
