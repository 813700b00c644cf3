"""The app on a real gunicorn server for a test (``make serve``'s settings on a free loopback port), and a
browser tab on it."""
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


@contextmanager
def tab_on(browser, server: str, ready: str, viewport: dict, timeout_ms: int, **context_options) -> Iterator:
    """A tab of ``viewport`` size on the page at ``server``, once ``ready`` (a selector) is in it; a script
    error in the page while it is open fails the test."""
    context = browser.new_context(viewport=viewport, **context_options)
    context.set_default_timeout(timeout_ms)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.goto(server)
    tab.wait_for_selector(ready, state="attached")
    yield tab
    context.close()
    assert not errors, errors
