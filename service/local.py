"""Run the production server (gunicorn) on a free loopback port: for end-to-end tests and benchmarks."""
from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVE_CONFIG = ROOT / "gunicorn.conf.py"   # make serve's settings


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServerError(RuntimeError):
    """The server did not come up; the message carries the end of its log."""


@contextmanager
def gunicorn(workers: int | None = None, threads: int | None = None, timeout: float = 30.0,
             app: str = "service.app:create_app()", options: Sequence[str] = ()) -> Iterator[str]:
    """The app served as ``make serve`` serves it (``SERVE_CONFIG``), on a free port, with ``workers``,
    ``threads`` and gunicorn's command-line ``options`` overriding its settings; yields the base URL
    once it answers."""
    port = free_port()
    cmd = [sys.executable, "-m", "gunicorn", "-c", str(SERVE_CONFIG), "--bind", f"127.0.0.1:{port}",
           "--log-level", "warning"]
    if workers is not None:
        cmd += ["--workers", str(workers)]
    if threads is not None:
        cmd += ["--threads", str(threads)]
    # the log goes to a file: a pipe nobody reads fills up (64 KiB) and then blocks the worker that logs
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen([*cmd, *options, app], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=1)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    proc.kill()
                    proc.wait(timeout=15)
                    log.seek(0)
                    output = log.read().decode(errors="replace")
                    raise ServerError(f"gunicorn did not start: {output[-2000:]}") from None
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=15)
        log.close()
