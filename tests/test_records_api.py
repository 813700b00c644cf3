"""POST /v1/audit and /v1/review over HTTP: the answers as /openapi.json documents them, errors as 422 problems
naming the field, the record's size bounded; and ``rulespec convert`` writing a record as PBN or PTN."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema_rs
import pytest

from test_api_schema_answers import conforms
from click.testing import CliRunner

from rulespec.cli import main
from rulespec.core import cards as C
from rulespec.records import REQUEST_LIMITS, read_records
from rulespec.records.order import in_play_order
from rulespec.model.ruleset import load_ruleset
from service.app import create_app
from service.examples import RENEGE_RECORD

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "records"
RENEGE = (EXAMPLES / "renege.pbn").read_text(encoding="utf-8")
JOKERS = (EXAMPLES / "jokers-deuces.ptn").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


@pytest.fixture(scope="module")
def spec(client):
    return client.get("/openapi.json").get_json()


def test_audit_answers_as_documented(client, spec):
    for body in ({"record": JOKERS}, {"record": RENEGE, "variant": "three-trick-renege"}, {"record": RENEGE}):
        got = client.post("/v1/audit", json=body)
        assert got.status_code == 200, got.get_json()
        conforms(spec, "AuditAnswer", got.get_json())
    with pytest.raises(jsonschema_rs.ValidationError):      # the schema is not vacuous
        conforms(spec, "AuditAnswer", {**got.get_json(), "hands": [{"line": 3}]})


def test_review_answers_as_documented(client, spec):
    got = client.post("/v1/review", json={"record": RENEGE, "variant": "three-trick-renege",
                                          "budget": {"nodes": 2000}})
    assert got.status_code == 200
    body = got.get_json()
    conforms(spec, "ReviewAnswer", body)
    assert body["hands"][0]["cards"] and body["variants"][0]["id"] == "three-trick-renege"


@pytest.mark.parametrize("body, field, words", [
    ({"record": JOKERS.split("JH DA HA SA")[0]}, "record", "line 25 [Play]: the play is cut short"),
    ({"record": "[Event \"x\"]"}, "record", "no complete hand"),
    ({"record": RENEGE, "varient": "standard"}, "varient", "unknown key"),
    ({"record": RENEGE, "variant": {"extends": "standard", "rules": {"nil.made": "a +"}}}, "variant.rules.nil.made",
     ""),
    ({"record": "x" * (REQUEST_LIMITS.bytes + 1)}, "record", "the limit is"),
])
def test_errors_are_422_problems_naming_the_field(client, body, field, words):
    got = client.post("/v1/audit", json=body)
    problem = got.get_json()
    assert got.status_code == 422 and got.mimetype == "application/problem+json"
    assert problem["field"] == field and words in problem["detail"], problem


def test_review_errors_name_the_field(client):
    got = client.post("/v1/review", json={"record": RENEGE, "hands": [0]})
    assert got.status_code == 422 and got.get_json()["field"] == "hands"


def test_the_api_example_is_the_bundled_record():
    def hands(text):
        return [(h.hands, h.dealer, h.bids, [r.cards for r in h.rows], h.variant) for h in read_records(text).hands]
    assert hands(RENEGE_RECORD) == hands(RENEGE)


def test_convert_writes_each_format_and_reads_back(tmp_path):
    runner = CliRunner()
    out = tmp_path / "sim.jsonl"
    simulated = runner.invoke(main, ["simulate", "jokers-deuces", "--hands", "3", "--seed", "2", "--out", str(out)])
    assert simulated.exit_code == 0
    ptn = runner.invoke(main, ["convert", str(out), "--to", "ptn"])
    assert ptn.exit_code == 0, ptn.output
    written = read_records(ptn.output)
    assert len(written.hands) == 3 and all(h.variant == "jokers-deuces" for h in written.hands)
    rs = load_ruleset("jokers-deuces")
    simulated = [json.loads(line) for line in out.read_text().splitlines()]
    for hand, line in zip(written.hands, simulated):
        ordered, _ = in_play_order(hand, rs)
        assert [list(t.cards) for t in ordered.tricks] == [C.parse_cards(t["cards"]) for t in line["tricks"]]
    pbn = runner.invoke(main, ["convert", str(out), "--to", "pbn"])
    assert pbn.exit_code == 2 and "PBN has no jokers" in pbn.output
    back = tmp_path / "renege.ptn"
    again = runner.invoke(main, ["convert", str(EXAMPLES / "renege.pbn"), "--to", "ptn", "--out", str(back)])
    assert again.exit_code == 0 and read_records(back.read_text()).hands[0].bids == read_records(RENEGE).hands[0].bids
