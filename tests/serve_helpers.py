"""The app on a real gunicorn server for a test (``make serve``'s settings on a free loopback port)."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from service.local import ServerError, gunicorn


@contextmanager
def served(workers: int, threads: int) -> Iterator[str]:
    """The app on gunicorn (``make serve``'s settings, these workers and threads); a server that does not
    come up fails the test with the end of its log."""
    try:
        with gunicorn(workers=workers, threads=threads) as base:
            yield base
    except ServerError as exc:
        pytest.fail(str(exc))
