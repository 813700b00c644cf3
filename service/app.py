"""Flask application factory.

The app keeps no state between requests: bundled variants are compiled once
per process and never change, so any number of workers can serve it.
"""
from __future__ import annotations

import json
from collections.abc import Mapping

import orjson
from flask import Flask, Response, jsonify
from flask.json.provider import DefaultJSONProvider

from rulespec.lang.limits import REQUEST_SECONDS, REQUEST_STEPS

from .api import v1
from .apipage import render
from .examples import EXAMPLES, answer_text
from .fastpath import DisputeFastPath
from .openapi import build_spec
from .page import page as dispute_page
from .problems import ApiProblem, register_error_handlers
from .records import records
from .reports import reports

MAX_ANSWER_BYTES = 8 * 1024 * 1024

DEFAULTS = {
    "MAX_CONTENT_LENGTH": 256 * 1024,  # bytes; larger bodies get 413
    "MAX_ANSWER_BYTES": MAX_ANSWER_BYTES,   # bytes of JSON; a larger answer is an answer-too-large problem
    "DIFF_MAX_DEALS": 200,
    "DIFF_TIME_LIMIT": 10.0,           # seconds per /v1/diff request
    "RULE_STEPS": REQUEST_STEPS,       # rule evaluation steps per request (rulespec.lang.limits)
    "RULE_SECONDS": REQUEST_SECONDS,   # rule evaluation time per request
}


class FastJSON(DefaultJSONProvider):
    """Responses encoded by orjson (several times faster than the json module on rulings with long
    trails); keys keep their order; anything orjson cannot encode falls back to the default."""

    def dumps(self, obj, **kwargs) -> str:
        if kwargs:
            return super().dumps(obj, **kwargs)
        try:
            return orjson.dumps(obj).decode()
        except TypeError:
            return self._fallback(obj)

    def _fallback(self, obj) -> str:
        return json.dumps(obj, default=self.default, ensure_ascii=False)

    def encode(self, obj) -> bytes:
        """A response body: ``obj`` as JSON and a newline, as ``jsonify`` sends it; an ``answer-too-large``
        problem when it is longer than the app's ``MAX_ANSWER_BYTES``."""
        try:      # bytes straight from orjson: no round trip through str
            body = orjson.dumps(obj, option=orjson.OPT_APPEND_NEWLINE)
        except TypeError:
            body = (self._fallback(obj) + "\n").encode()
        limit = self._app.config.get("MAX_ANSWER_BYTES")
        if limit is not None and len(body) > limit:
            raise ApiProblem("answer-too-large", f"the answer would be {len(body):,} bytes, more than the "
                             f"{limit:,} an answer may have: ask about fewer hands, variants or deals", "body")
        return body

    def response(self, *args, **kwargs) -> Response:
        return self._app.response_class(self.encode(self._prepare_response_obj(args, kwargs)), mimetype=self.mimetype)


def create_app(config: Mapping | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    app.json = FastJSON(app)
    spec = build_spec(app.config["DIFF_MAX_DEALS"], app.config["DIFF_TIME_LIMIT"], app.config["MAX_CONTENT_LENGTH"])
    page: list[str] = []    # the API page, rendered on first request (its examples ask the app itself)
    register_error_handlers(app)
    app.register_blueprint(v1)
    app.register_blueprint(records)    # /v1/audit, /v1/review
    app.register_blueprint(dispute_page)
    app.register_blueprint(reports)

    @app.get("/healthz")
    def healthz():
        return jsonify(status="ok")

    @app.get("/openapi.json")
    def openapi():
        return jsonify(spec)

    @app.get("/api")
    def api_page():
        if not page:
            page.append(render(spec, {ex.operation: (ex, *answer_text(app, ex)) for ex in EXAMPLES}))
        return Response(page[0], mimetype="text/html")

    app.wsgi_app = DisputeFastPath(app)    # the usual dispute request without Flask's request machinery
    return app
