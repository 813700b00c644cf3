"""The real server: gunicorn in a subprocess on a free port, called over HTTP,
end to end and with hundreds of concurrent mixed requests."""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from rulespec.app.disputes import answer, compare
from serve_helpers import served
from api_requests import BID, GAME, LEGAL, NO_OVERTRICK_POINTS, SCORE, TRICK, played_hand


def call(base: str, method: str, path: str, body=None, content_type: str = "application/json"):
    """(status, content type, parsed body) of one HTTP request."""
    data = None if body is None else body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": content_type} if data is not None else {})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            status, ctype, raw = resp.status, resp.headers.get_content_type(), resp.read()
    except urllib.error.HTTPError as exc:
        status, ctype, raw = exc.code, exc.headers.get_content_type(), exc.read()
    return status, ctype, json.loads(raw) if "json" in ctype else raw.decode()


@pytest.fixture(scope="module")
def server():
    with served(workers=2, threads=4) as base:
        yield base


def test_end_to_end(server):
    assert call(server, "GET", "/healthz") == (200, "application/json", {"status": "ok"})
    status, ctype, spec = call(server, "GET", "/openapi.json")
    assert status == 200 and spec["openapi"] == "3.1.0"
    status, ctype, page = call(server, "GET", "/api")
    assert status == 200 and ctype == "text/html" and "/v1/diff" in page
    status, _, body = call(server, "POST", "/v1/score", SCORE)
    assert status == 200 and body == answer("score", SCORE)
    status, ctype, body = call(server, "POST", "/v1/score", {**SCORE, "tricks": {"N": 1, "E": 1, "S": 1, "W": 1}})
    assert (status, ctype, body["field"]) == (422, "application/problem+json", "tricks")
    status, ctype, body = call(server, "POST", "/v1/score", b"x" * (300 * 1024))
    assert (status, ctype, body["status"]) == (413, "application/problem+json", 413)
    status, ctype, body = call(server, "DELETE", "/v1/score")
    assert (status, ctype) == (405, "application/problem+json")
    status, _, body = call(server, "POST", "/v1/variants/check", b"id: h\nextends: nope\n", "text/yaml")
    assert status == 422 and body["problems"][0]["line"] == 2


def test_concurrent_mixed_requests(server):
    """Hundreds of mixed requests from several threads, each answered exactly as in-process."""
    deal, _, _ = played_hand()
    compare_req = {"variants": ["standard", NO_OVERTRICK_POINTS], "kind": "score",
                   "input": {k: v for k, v in SCORE.items() if k != "variant"}}
    cases = [("trick", TRICK), ("legal", LEGAL), ("bid", BID), ("score", SCORE), ("score", deal), ("game", GAME)]
    expected = [(f"/v1/{kind}", req, 200, answer(kind, req)) for kind, req in cases]
    expected.append(("/v1/compare", compare_req, 200, compare(compare_req)))
    expected.append(("/v1/trick", {**TRICK, "cards": ["AH", "AH", "KH", "3H"]}, 422, "cards[1]"))
    expected.append(("/v1/score", {**SCORE, "variant": "nosuch"}, 422, "variant"))
    work = [expected[i % len(expected)] for i in range(360)]

    def run(item):
        path, req, status, want = item
        got_status, _, body = call(server, "POST", path, req)
        return got_status == status and (body == want if status == 200 else body.get("field") == want)

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(run, work))
    assert all(results), f"{results.count(False)} of {len(results)} wrong"
