"""service/fastpath: the usual dispute request answered without Flask's request machinery gives the
response the Flask view gives (status, headers, body), errors included; everything else reaches Flask."""
from __future__ import annotations

import io
import json

import pytest
from werkzeug.test import EnvironBuilder, run_wsgi_app

import service.api
from rulespec.solve.native import forget
from service.app import create_app
from service.examples import EXAMPLES
from service.fastpath import DisputeFastPath, Replayed
from api_requests import SCORE

JSON = "application/json"
DISPUTES = [ex for ex in EXAMPLES if ex.method == "POST" and ex.path.removeprefix("/v1/") in service.api.KINDS]


def _body(value) -> bytes:
    return value if isinstance(value, bytes) else json.dumps(value).encode()


# (name, method, path, content type, body): requests the fast path answers, and its errors
ANSWERED = [(ex.operation, "POST", ex.path, JSON, _body(ex.body)) for ex in DISPUTES] + [
    ("score-data", "POST", "/v1/score", JSON, _body(SCORE)),
    ("missing-field", "POST", "/v1/score", JSON, _body({"variant": "classic"})),
    ("not-json", "POST", "/v1/score", JSON, b"{bad"),
    ("not-utf8", "POST", "/v1/trick", JSON, b'{"variant": "\xff"}'),
    ("duplicate-key", "POST", "/v1/score", JSON, b'{"variant": "classic", "variant": "standard"}'),
    ("too-deep", "POST", "/v1/legal", JSON, b"[" * 40 + b"]" * 40),
    ("not-an-object", "POST", "/v1/bid", JSON, b"[1, 2]"),
    ("unknown-variant", "POST", "/v1/score", JSON, _body({**SCORE, "variant": "no-such"})),
    ("refused-bid", "POST", "/v1/score", JSON, _body({**SCORE, "bids": {"N": 14, "E": 3, "S": 4, "W": 3}})),
    ("bad-card", "POST", "/v1/trick", JSON, _body({"variant": "standard", "leader": "N", "cards": ["ZZ"] * 4})),
]
# requests left to Flask
PASSED_ON = [
    ("charset", "POST", "/v1/score", "application/json; charset=utf-8", _body(SCORE)),
    ("problem-json", "POST", "/v1/score", "application/problem+json", _body(SCORE)),
    ("text", "POST", "/v1/score", "text/plain", _body(SCORE)),
    ("get", "GET", "/v1/score", None, b""),
    ("slash", "POST", "/v1/score/", JSON, _body(SCORE)),
    ("compare", "POST", "/v1/compare", JSON, _body({"variants": ["classic", "standard"], "input": SCORE})),
    ("healthz", "GET", "/healthz", None, b""),
]


@pytest.fixture(scope="module")
def app():
    return create_app({"MAX_CONTENT_LENGTH": 4096})


def _call(wsgi, method: str, path: str, content_type: str | None, body: bytes, length: str | None = None):
    builder = EnvironBuilder(path=path, method=method, data=body, content_type=content_type)
    environ = builder.get_environ()
    if length is not None:
        environ["CONTENT_LENGTH"] = length
    out, status, headers = run_wsgi_app(wsgi, environ, buffered=True)
    return status, list(headers.items()), b"".join(out)


def _counted(app, monkeypatch) -> list[str]:
    """The paths that reach Flask's own ``wsgi_app`` from now on."""
    fast: DisputeFastPath = app.wsgi_app
    seen: list[str] = []
    flask = fast.flask

    def count(environ, start_response):
        seen.append(environ["PATH_INFO"])
        return flask(environ, start_response)
    monkeypatch.setattr(fast, "flask", count)
    return seen


def test_installed(app):
    assert isinstance(app.wsgi_app, DisputeFastPath)
    assert set(app.wsgi_app.kinds.values()) == set(service.api.KINDS)


@pytest.mark.parametrize("name, method, path, content_type, body", ANSWERED, ids=[r[0] for r in ANSWERED])
def test_answered_as_the_view_answers(app, monkeypatch, name, method, path, content_type, body):
    forget()        # both from empty tables (a compiled search of the same position learns from the one before)
    expected = _call(app.wsgi_app.flask, method, path, content_type, body)
    seen = _counted(app, monkeypatch)
    forget()
    assert _call(app, method, path, content_type, body) == expected
    assert seen == []       # answered, or its error rendered, without Flask's dispatch


@pytest.mark.parametrize("name, method, path, content_type, body", PASSED_ON, ids=[r[0] for r in PASSED_ON])
def test_others_reach_flask(app, monkeypatch, name, method, path, content_type, body):
    expected = _call(app.wsgi_app.flask, method, path, content_type, body)
    seen = _counted(app, monkeypatch)
    assert _call(app, method, path, content_type, body) == expected
    assert seen == [path]


@pytest.mark.parametrize("length", ["5000", "+12", "1e3", "-1", "400"])
def test_length_outside_the_usual_reaches_flask(app, monkeypatch, length):
    """Over ``MAX_CONTENT_LENGTH`` (413), not a plain count, or more than the client sent (400, the body
    cut short): Flask decides."""
    body = _body(SCORE)
    expected = _call(app.wsgi_app.flask, "POST", "/v1/score", JSON, body, length)
    seen = _counted(app, monkeypatch)
    assert _call(app, "POST", "/v1/score", JSON, body, length) == expected
    assert seen == ["/v1/score"]


def test_unexpected_error_is_the_views_500(app, monkeypatch):
    def broken(kind, body):
        raise RuntimeError("boom")
    monkeypatch.setattr(service.api, "answer", broken)
    expected = _call(app.wsgi_app.flask, "POST", "/v1/score", JSON, _body(SCORE))
    assert expected[0].startswith("500")
    assert _call(app, "POST", "/v1/score", JSON, _body(SCORE)) == expected


def test_request_hooks_send_everything_to_flask(monkeypatch):
    """An app with a function around its requests is served by Flask alone (the hook runs)."""
    app = create_app()
    app.after_request(lambda response: (response.headers.__setitem__("X-Hook", "1"), response)[1])
    seen = _counted(app, monkeypatch)
    status, headers, _ = _call(app, "POST", "/v1/score", JSON, _body(SCORE))
    assert status.startswith("200") and ("X-Hook", "1") in headers
    assert seen == ["/v1/score"]


def test_a_body_that_cannot_be_read_is_the_views_error(app):
    """A read that fails (a client gone mid-body) is answered as the view answers it."""
    class Gone:
        def read(self, *args):
            raise ConnectionResetError("client gone")

    def send(wsgi):
        environ = EnvironBuilder(path="/v1/score", method="POST", data=b"{}", content_type=JSON).get_environ()
        environ["wsgi.input"] = Gone()
        out, status, headers = run_wsgi_app(wsgi, environ, buffered=True)
        return status, list(headers.items()), b"".join(out)
    expected = send(app.wsgi_app.flask)
    assert expected[0].startswith("400")     # werkzeug's ClientDisconnected
    assert send(app) == expected


def test_replayed_gives_the_bytes_read_then_the_rest_or_the_error():
    stream = Replayed(b"abc", io.BytesIO(b"def"), None)
    assert [stream.read(2), stream.read(5), stream.read(5), stream.read(5)] == [b"ab", b"c", b"def", b""]
    assert Replayed(b"abc", io.BytesIO(b"def"), None).read() == b"abcdef"
    failing = Replayed(b"", io.BytesIO(b"def"), ConnectionResetError("gone"))
    with pytest.raises(ConnectionResetError):
        failing.read(3)
