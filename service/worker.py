"""The service's gunicorn worker: gunicorn's threaded worker (``gthread``), except that each request is read in
full by the worker's own event loop before a thread takes it, and that the server's own errors are problem+json.

Why (issue 28; measured in docs/performance.md, *Slow clients*): gthread hands a connection to a thread
as soon as its first byte arrives, and the thread then reads the headers and the body with blocking
reads that have no time limit, so a client that sends a byte a second holds a thread for as long as it
likes: eight such clients took every thread of ``make serve``.  Here the loop that accepts connections
also reads them (non-blocking) into a buffer until the head and the whole body are in
(``request_state``), then hands the connection to a thread with the bytes already read, so a slow client
costs a buffer and a socket, never a thread.  A request that has not arrived in full ``READ_SECONDS``
after it began is answered 408 and its connection closed.  Keep-alive connections and pipelined
requests go through the same reading.  A head larger than ``MAX_HEAD_BYTES`` or a body larger than
``MAX_BUFFERED_BODY`` is handed on as it stands (gunicorn answers 431 or 414 at once; the app answers a
body over its limit, 413, without reading it).

gunicorn's own error answers (a malformed request line or header: 400; a request line too long: 414;
headers too large: 431; …) are RFC 9457 problems like the app's (``problem``), not HTML.

This subclasses gunicorn's worker (``enqueue_req``, ``murder_pending``, ``handle_error``, the connection's
``parser``): pyproject.toml pins the gunicorn releases it was written and tested against.
"""
from __future__ import annotations

import json
import selectors
import socket
import time
from collections import deque
from functools import partial
from http import HTTPStatus

from gunicorn.http import errors as E
from gunicorn.util import write_nonblock
from gunicorn.workers.gthread import ThreadWorker

from .problems import PROBLEM_JSON, PROBLEM_TYPES, type_uri

READ_SECONDS = 10.0               # a request's head and body arrive within this from its first byte
MAX_HEAD_BYTES = 64 * 1024        # gunicorn refuses far less (a line of 4,094 bytes, 100 fields of 8,190)
MAX_BUFFERED_BODY = 1024 * 1024   # beyond the app's own limit (256 KiB): it refuses such a body unread
RECV_BYTES = 64 * 1024

MORE, COMPLETE, CONTINUE = "more", "complete", "continue"


def _chunked_end(buf: bytes | bytearray, pos: int) -> str:
    """Whether a chunked body starting at ``pos`` is all in ``buf``: ``COMPLETE`` at its last chunk and
    trailers (or when it is malformed or too large: gunicorn and the app say so), else ``MORE``."""
    while True:
        eol = buf.find(b"\r\n", pos)
        if eol < 0:
            return MORE if len(buf) - pos <= 1024 else COMPLETE
        size_text = bytes(buf[pos:eol]).split(b";", 1)[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            return COMPLETE
        if size == 0:
            return COMPLETE if buf.startswith(b"\r\n", eol + 2) or buf.find(b"\r\n\r\n", eol) >= 0 else MORE
        pos = eol + 2 + size + 2
        if pos > MAX_BUFFERED_BODY:
            return COMPLETE
        if pos > len(buf):
            return MORE


def request_state(buf: bytes | bytearray) -> str:
    """How far the request at the start of ``buf`` has arrived: ``MORE`` to wait for, ``COMPLETE`` to
    hand on (whole, or beyond what is worth buffering), or ``CONTINUE`` (its head asks for a 100 Continue
    before the client sends the body)."""
    end = buf.find(b"\r\n\r\n")
    if end < 0:
        return MORE if len(buf) <= MAX_HEAD_BYTES else COMPLETE
    headers: dict[str, str] = {}
    for line in bytes(buf[:end]).decode("latin-1").split("\r\n")[1:]:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), value.strip().lower())
    if "chunked" in headers.get("transfer-encoding", ""):
        state = _chunked_end(buf, end + 4)
    else:
        length = headers.get("content-length", "0")
        if not length.isdigit() or int(length) > MAX_BUFFERED_BODY:
            return COMPLETE
        state = COMPLETE if len(buf) - end - 4 >= int(length) else MORE
    return CONTINUE if state == MORE and headers.get("expect") == "100-continue" else state


def problem(status: int, slug: str, detail: str) -> bytes:
    """A whole HTTP response: the problem ``slug`` (``service.problems``) with ``detail``, connection closed."""
    body = json.dumps({"type": type_uri(slug), "title": PROBLEM_TYPES[slug][1], "status": status,
                       "detail": detail[:300]}).encode()
    head = (f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\nConnection: close\r\nContent-Type: {PROBLEM_JSON}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


# gunicorn's request errors -> (status, problem type); any other client error is a 400 bad-request
_ERRORS = ((E.LimitRequestLine, 414, "uri-too-long"), (E.LimitRequestHeaders, 431, "header-fields-too-large"),
           (E.UnsupportedTransferCoding, 501, "not-implemented"), (E.ExpectationFailed, 417, "expectation-failed"),
           (E.ForbiddenProxyRequest, 403, "forbidden"))
_CLIENT_ERRORS = (E.InvalidRequestLine, E.InvalidRequestMethod, E.InvalidHTTPVersion, E.InvalidHeader,
                  E.InvalidHeaderName, E.LimitRequestLine, E.LimitRequestHeaders, E.InvalidProxyLine,
                  E.ForbiddenProxyRequest, E.InvalidSchemeHeaders, E.UnsupportedTransferCoding,
                  E.ObsoleteFolding, E.ExpectationFailed, E.InvalidChunkSize, E.ChunkMissingTerminator,
                  E.InvalidChunkExtension)


class BufferedThreadWorker(ThreadWorker):
    """``gthread`` that reads each request in full before a thread takes it (see the module's text)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.reading: deque = deque()      # (deadline, connection) being read, the earliest first

    def enqueue_req(self, conn) -> None:
        """``conn`` has (or will have) a request: read it here until it is whole, then give it to a thread."""
        held = conn.parser.unreader.take_buffered() if conn.parser is not None else b""
        conn.held, conn.read_by, conn.continued = bytearray(held), time.monotonic() + READ_SECONDS, False
        if held and request_state(conn.held) == COMPLETE:     # a pipelined request, read with the one before
            self._hand_on(conn)
            return
        conn.sock.setblocking(False)
        if self._read(conn) != MORE:     # usually the whole request is there already: no waiting on the poller
            return
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._readable, conn))
        self.reading.append((conn.read_by, conn))

    def _read(self, conn, registered: bool = False) -> str:
        """Read what the socket holds now; hand the connection on (``COMPLETE``), drop it (the client went
        away: ``""``), or leave it to wait (``MORE``, after a 100 Continue where the head asks for one).
        ``registered``: the socket is on the poller (taken off it when the connection is done here)."""
        try:
            data = conn.sock.recv(RECV_BYTES)
        except (BlockingIOError, InterruptedError):
            data = None
        except OSError:
            data = b""
        if data == b"":
            self._drop(conn, registered)
            return ""
        if data:
            conn.held += data
        state = request_state(conn.held)
        if state == COMPLETE:
            if registered:
                self.poller.unregister(conn.sock)
            self._hand_on(conn)
            return COMPLETE
        if state == CONTINUE and not conn.continued:
            conn.continued = True
            try:
                conn.sock.send(b"HTTP/1.1 100 Continue\r\n\r\n")
            except OSError:
                self._drop(conn, registered)
                return ""
        return MORE

    def _readable(self, conn, sock: socket.socket) -> None:
        self._read(conn, registered=True)

    def _hand_on(self, conn) -> None:
        """To a thread, with the bytes read so far in front of what the socket gives next."""
        held, conn.held = bytes(conn.held), None
        conn.init()                      # the HTTP parser over the socket (no TLS here: nothing is read)
        conn.parser.unreader.unread(held)
        conn.data_ready = True
        super().enqueue_req(conn)

    def _drop(self, conn, registered: bool = True, answer: bytes = b"") -> None:
        if registered:
            try:
                self.poller.unregister(conn.sock)
            except (KeyError, ValueError, OSError):
                pass
        conn.held = None
        if answer:
            try:
                conn.sock.send(answer)
            except OSError:
                pass
        self.nr_conns -= 1
        conn.close()

    def murder_pending(self) -> None:
        """Also answer 408 and close the connections whose request has not arrived in time."""
        super().murder_pending()
        now = time.monotonic()
        while self.reading and self.reading[0][0] <= now:
            read_by, conn = self.reading.popleft()
            if conn.held is not None and conn.read_by == read_by:     # (else handed on since, or read again)
                self._drop(conn, answer=problem(408, "request-timeout", f"the request did not arrive in full "
                                                                        f"within {READ_SECONDS:g} s"))

    def handle_error(self, req, client, addr, exc) -> None:
        """gunicorn's answer to a request it cannot parse (or to an error of its own), as problem+json."""
        addr = addr or ("", -1)
        status, slug = next(((code, name) for kind, code, name in _ERRORS if isinstance(exc, kind)),
                            (400, "bad-request"))
        if isinstance(exc, _CLIENT_ERRORS):
            self.log.warning("Invalid request from ip=%s: %s", addr[0], exc)
            detail = str(exc) or PROBLEM_TYPES[slug][1]
            if isinstance(exc, E.LimitRequestHeaders):
                detail = (f"the request's header fields are too many or too large (at most "
                          f"{self.cfg.limit_request_fields} fields of at most {self.cfg.limit_request_field_size} "
                          "bytes each)")
        else:
            self.log.exception("Error handling request %s", getattr(req, "uri", "(no URI read)"))
            status, slug = 500, "internal-error"
            detail = "the server could not answer this request; it has been logged"
        try:
            write_nonblock(client, problem(status, slug, detail))
        except Exception:   # noqa: BLE001 - as gunicorn: the client may be gone
            self.log.debug("Failed to send error message.")
