"""The dispute endpoints' usual request served without Flask's request machinery.

``POST /v1/<kind>`` (a kind of ``answers.KINDS``) with ``Content-Type: application/json`` and a
``Content-Length`` within ``MAX_CONTENT_LENGTH`` is answered here by the same steps as the Flask
view (``bodies.decode_text``, ``bodies.parse_json``, ``api.dispute``, the app's JSON encoder) and
the same response: status 200, ``Content-Type`` and ``Content-Length``.  Building Flask's request
context, routing, the request and response objects costs a worker more CPU than scoring a hand,
and the service's most frequent requests are these.

Anything else — another path, method or content type, a chunked or oversized body, or any request
once the app has ``before_request``/``after_request``/``teardown_request`` functions or URL value
preprocessors (this path would skip them) — goes to the Flask app unchanged, and so does a body
that cannot be read in full (``Replayed`` hands Flask the bytes read, then the rest or the error).
A request that fails once read is answered by the app's own error handlers, in a request context
of the request, so errors are exactly those of the Flask view.  Flask's ``request_started`` and
``request_finished`` signals are not sent for the requests answered here.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from flask import Flask

from rulespec.app.answers import KINDS

from .api import dispute, v1
from .bodies import decode_text, parse_json

JSON = "application/json"


class DisputeFastPath:
    """WSGI app: the usual dispute request answered directly, everything else by ``flask`` (the app's
    own ``wsgi_app``).  Install with ``app.wsgi_app = DisputeFastPath(app)``."""

    def __init__(self, app: Flask):
        self.app = app
        self.flask = app.wsgi_app
        self.kinds = {f"{v1.url_prefix}/{kind}": kind for kind in KINDS}

    def _length(self, environ: dict) -> int | None:
        """The declared body length, when this request is one to answer here."""
        if (environ["REQUEST_METHOD"] != "POST" or environ.get("CONTENT_TYPE") != JSON
                or "HTTP_TRANSFER_ENCODING" in environ):
            return None
        text = environ.get("CONTENT_LENGTH", "")
        if not (text.isascii() and text.isdigit()):
            return None
        length, limit = int(text), self.app.config["MAX_CONTENT_LENGTH"]
        return length if limit is None or length <= limit else None

    def _hooked(self) -> bool:
        """Whether the app runs functions around its requests (this path would skip them)."""
        app = self.app
        return bool(app.before_request_funcs or app.after_request_funcs or app.teardown_request_funcs
                    or app.url_value_preprocessors)

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        kind = self.kinds.get(environ.get("PATH_INFO"))
        length = None if kind is None or self._hooked() else self._length(environ)
        if length is None:
            return self.flask(environ, start_response)
        stream = environ["wsgi.input"]
        try:
            data = stream.read(length)
        except Exception as exc:   # noqa: BLE001 - Flask reads it again and meets the same error
            return self._reread(environ, start_response, b"", stream, exc)
        if len(data) != length:     # the client stopped short: Flask reads what there is
            return self._reread(environ, start_response, data, stream, None)
        try:
            body = self.app.json.encode(dispute(kind, self.app.config, lambda: parse_json(decode_text(data))))
        except Exception as exc:   # noqa: BLE001 - every error goes to the app's handlers, as in the view
            environ["wsgi.input"] = Replayed(data, stream, None)
            return self._error(environ, start_response, exc)
        start_response("200 OK", [("Content-Type", JSON), ("Content-Length", str(len(body)))])
        return [body]

    def _reread(self, environ: dict, start_response: Callable, data: bytes, stream,
                error: Exception | None) -> Iterable[bytes]:
        """A body not read in full: the request goes to Flask, its body the bytes read, then the rest."""
        environ["wsgi.input"] = Replayed(data, stream, error)
        return self.flask(environ, start_response)

    def _error(self, environ: dict, start_response: Callable, exc: Exception) -> Iterable[bytes]:
        """The response Flask gives when the view raises ``exc`` (its error handler, then the response's
        processing), in a request context of this request."""
        with self.app.request_context(environ):
            try:
                response = self.app.finalize_request(self.app.handle_user_exception(exc))
            except Exception as unhandled:   # noqa: BLE001 - as Flask.wsgi_app: the last resort handler
                response = self.app.handle_exception(unhandled)
            return response(environ, start_response)


class Replayed:
    """A request body stream: ``head`` (bytes already read from ``stream``), then what ``stream`` gives
    next, or first the ``error`` that reading it raised."""

    def __init__(self, head: bytes, stream, error: Exception | None):
        self.head, self.stream, self.error = head, stream, error

    def read(self, size: int | None = -1) -> bytes:
        if self.head and size is not None and size >= 0:
            out, self.head = self.head[:size], self.head[size:]
            return out
        head, self.head = self.head, b""
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        return head + (self.stream.read() if size is None or size < 0 else self.stream.read(size))
