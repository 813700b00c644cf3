"""service/worker.py without a server: when a request has arrived in full, and the 408 for one that does not
(issue 28, item 4; the worker under a real server is tested in test_api_hardening.py)."""
from __future__ import annotations

import json
from collections import deque

import pytest

from service import worker as W

HEAD = b"POST /v1/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"


@pytest.mark.parametrize("data, state", [
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\n", W.MORE),                       # headers still coming
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", W.COMPLETE),
    (HEAD + b"Content-Length: 5\r\n\r\nabc", W.MORE),                       # the body still coming
    (HEAD + b"Content-Length: 5\r\n\r\nabcde", W.COMPLETE),
    (HEAD + b"Content-Length: 5\r\n\r\nabcdeGET / HTTP/1.1\r\n", W.COMPLETE),  # the next request behind it
    (HEAD + b"Content-Length: 5\r\nExpect: 100-continue\r\n\r\n", W.CONTINUE),
    (HEAD + b"Content-Length: x\r\n\r\n", W.COMPLETE),                      # gunicorn refuses it at once
    (HEAD + b"Content-Length: 99999999\r\n\r\n", W.COMPLETE),               # the app refuses it unread (413)
    (HEAD + b"Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n", W.MORE),
    (HEAD + b"Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", W.COMPLETE),
    (HEAD + b"Transfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n0\r\nTrailer: 1\r\n\r\n", W.COMPLETE),
    (HEAD + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n", W.COMPLETE),       # malformed: gunicorn says so
    (b"GET /" + b"a" * (W.MAX_HEAD_BYTES + 1), W.COMPLETE),                 # too long to wait for: 414 or 431
])
def test_request_state(data, state):
    assert W.request_state(data) == state


class _Sock:
    def __init__(self):
        self.sent, self.closed = b"", False

    def send(self, data: bytes) -> int:
        self.sent += data
        return len(data)


class _Conn:
    def __init__(self, read_by: float):
        self.sock, self.held, self.read_by = _Sock(), bytearray(b"POST"), read_by

    def close(self) -> None:
        self.sock.closed = True


class _Poller:
    def unregister(self, sock) -> None:
        pass


def test_a_request_not_in_by_its_deadline_is_answered_408_and_closed():
    w = object.__new__(W.BufferedThreadWorker)       # the worker's own state only: no process, no sockets
    w.pending_conns, w.reading, w.poller, w.nr_conns = deque(), deque(), _Poller(), 2
    late, early = _Conn(0.0), _Conn(float("inf"))
    w.reading.extend([(late.read_by, late), (early.read_by, early)])
    w.murder_pending()
    head, _, body = late.sock.sent.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 Request Timeout") and b"Content-Type: application/problem+json" in head
    assert json.loads(body)["type"] == "/api#problem-request-timeout" and late.sock.closed
    assert not early.sock.sent and not early.sock.closed and w.nr_conns == 1
    assert list(w.reading) == [(early.read_by, early)]


def test_a_connection_read_again_keeps_only_its_new_deadline():
    """A keep-alive connection handed on and read again has two entries: the old one no longer counts."""
    w = object.__new__(W.BufferedThreadWorker)
    w.pending_conns, w.reading, w.poller, w.nr_conns = deque(), deque(), _Poller(), 1
    conn = _Conn(float("inf"))
    w.reading.extend([(0.0, conn), (conn.read_by, conn)])
    w.murder_pending()
    assert not conn.sock.closed and w.nr_conns == 1
