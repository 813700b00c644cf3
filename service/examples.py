"""One worked example per endpoint for the API page: the request as a curl command and the answer the
service itself gives to it (computed once per process by sending the request to the app, so the page
never shows an answer the code would not give)."""
from __future__ import annotations

import json
import shlex
from dataclasses import dataclass

from flask import Flask

HOST = "http://127.0.0.1:8000"   # `make serve`
MAX_LINES = 40                   # longer answers are cut on the page (the curl command gives all of it)

HOUSE_YAML = """id: our-table
extends: classic
source: {doc: house, title: Our table}
rules:
  nil.made: 75 @ house §Nil
"""

# examples/records/renege.pbn, written by this project (tests/test_records_api.py keeps the two the same)
RENEGE_RECORD = """[Event "spades-rulespec example: East does not follow suit at trick 5"]
[Dealer "N"]
[Deal "N:AQ63.K642.AT9.J7 J8..KQ8653.Q9642 KT954.AQJ53.72.3 72.T987.J4.AKT85"]
[Variant "standard"]
[Auction "E"]
3 3 2 4
[Play "E"]
D6 D7 DJ DA
D5 D2 D4 DT
C9 C3 C8 C7
C4 ST C5 CJ
DK S9 S2 S3
D3 H5 H7 H2
C2 SK CK S6
S8 HA H9 H6
CQ S5 CT HK
SJ S4 S7 SQ
D8 HJ HT SA
DQ HQ CA D9
C6 H3 H8 H4
"""


@dataclass(frozen=True)
class Example:
    operation: str          # the operationId in /openapi.json
    method: str
    path: str
    title: str
    body: dict | str | None = None
    content_type: str = "application/json"

    def curl(self) -> str:
        """The request as a command line that runs as shown."""
        parts = ["curl", "-s"]
        if self.method != "GET":
            data = self.body if isinstance(self.body, str) else json.dumps(self.body, ensure_ascii=False)
            parts += ["-H", f"Content-Type: {self.content_type}", "--data-binary", data]
        return " ".join(shlex.quote(p) for p in parts) + f" {HOST}{self.path}"


_ENDING = {"N": ["AS", "KH", "2C"], "E": ["QS", "AH", "3C"], "S": ["2S", "QH", "4C"], "W": ["3S", "JH", "5C"]}
EXAMPLES = [
    Example("healthz", "GET", "/healthz", "Is the service up?"),
    Example("openapi", "GET", "/openapi.json", "The contract as OpenAPI 3.1"),
    Example("list_variants", "GET", "/v1/variants", "Which rule books are bundled?"),
    Example("get_variant", "GET", "/v1/variants/classic", "Every rule of classic with its clause"),
    Example("check_variant", "POST", "/v1/variants/check", "Check a house rule before using it",
            HOUSE_YAML, "text/yaml"),
    Example("trick", "POST", "/v1/trick", "Who wins this trick?",
            {"variant": "standard", "leader": "N", "cards": ["AH", "2S", "KH", "3H"]}),
    Example("legal", "POST", "/v1/legal", "May I lead 2♠ with spades not broken?",
            {"variant": "standard", "hand": ["9C", "KD", "AH", "2S"], "number": 10}),
    Example("bid", "POST", "/v1/bid", "May West bid 1 under the tournament book?",
            {"variant": "tournament", "seat": "W", "bid": 1}),
    Example("score", "POST", "/v1/score", "Score a failed nil",
            {"variant": "standard", "bids": {"N": "nil", "E": 3, "S": 4, "W": 3},
             "tricks": {"N": 1, "E": 4, "S": 4, "W": 4}}),
    Example("game", "POST", "/v1/game", "Score two hands in a row",
            {"variant": "classic", "hands": [
                {"bids": {"N": 4, "E": 3, "S": 3, "W": 3}, "tricks": {"N": 5, "E": 3, "S": 3, "W": 2}},
                {"bids": {"N": "nil", "E": 4, "S": 5, "W": 3}, "tricks": {"N": 0, "E": 4, "S": 6, "W": 3}}]}),
    Example("compare", "POST", "/v1/compare", "The same failed nil under two books",
            {"variants": ["standard", "classic"], "kind": "score",
             "input": {"bids": {"N": "nil", "E": 3, "S": 4, "W": 3}, "tricks": {"N": 1, "E": 4, "S": 4, "W": 4}}}),
    Example("solve", "POST", "/v1/solve", "How many of the last three tricks does each side take?",
            {"variant": "standard", "leader": "N", "broken": True, "hands": _ENDING}),
    Example("claim", "POST", "/v1/claim", "North claims two of the last three: does it hold?",
            {"variant": "standard", "leader": "N", "broken": True, "hands": _ENDING,
             "claim": {"side": "NS", "tricks": 2}}),
    Example("nil", "POST", "/v1/nil", "Can South stay nil to the end?",
            {"variant": "standard", "leader": "N", "broken": True, "hands": _ENDING, "nil": "S"}),
    Example("audit", "POST", "/v1/audit", "Check a recorded hand: East did not follow suit at trick 5",
            {"record": RENEGE_RECORD}),
    Example("review", "POST", "/v1/review", "Which cards of the last tricks cost a trick?",
            {"record": RENEGE_RECORD, "variant": "three-trick-renege", "budget": {"nodes": 3000}}),
    Example("diff", "POST", "/v1/diff", "A small differential run",
            {"variants": ["standard", "classic"], "deals": 5, "seed": "7", "policies": ["random"]}),
]


def answer_text(app: Flask, example: Example) -> tuple[int, str]:
    """The status and answer the app gives to ``example`` (pretty JSON, cut after ``MAX_LINES`` lines)."""
    client = app.test_client()
    if example.method == "GET":
        response = client.get(example.path)
    else:
        data = example.body if isinstance(example.body, str) else json.dumps(example.body)
        response = client.post(example.path, data=data.encode(), content_type=example.content_type)
    text = json.dumps(response.get_json(), indent=2, ensure_ascii=False)
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        lines = lines[:MAX_LINES] + [f"… ({len(text.splitlines()) - MAX_LINES} more lines)"]
    return response.status_code, "\n".join(lines)
