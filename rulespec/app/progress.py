"""How far a long command is: the ``progress(stage, done, total)`` hook its drivers call, and its drawing
on a terminal (``terminal_progress``: ``verify``, ``simulate``; ``diff`` draws its own bar the same way)."""
from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import click

# ``progress(stage, done, total)``: how far a long run is (total 0: a stage that cannot be counted).
Progress = Callable[[str, int, int], None]
T = TypeVar("T")


def counted(items: Sequence[T], stage: str, progress: Progress | None) -> Iterator[T]:
    """``items`` one by one, how many are done told to ``progress`` before each and after the last."""
    for done, item in enumerate(items):
        if progress:
            progress(stage, done, len(items))
        yield item
    if progress and items:
        progress(stage, len(items), len(items))


class TerminalProgress:
    """A long command's ``progress(stage, done, total)`` drawn on stderr, as ``diff`` draws its own: a
    click progress bar per stage with a count; a stage without one (``total`` 0: work that cannot be
    counted, such as compiling) is a line that counts the seconds until the next stage.  Made only for
    a terminal (``terminal_progress``)."""

    def __init__(self) -> None:
        self.stage: str | None = None
        self.bar = None
        self.ticking: tuple[threading.Thread, threading.Event] | None = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage != self.stage:
            self.close()
            self.stage = stage
            if total:
                self.bar = click.progressbar(length=total, label=stage, file=sys.stderr)
                self.bar.__enter__()
            else:
                stop = threading.Event()
                self.ticking = (threading.Thread(target=self._tick, args=(stage, stop), daemon=True), stop)
                self.ticking[0].start()
        if self.bar is not None and min(done, self.bar.length) > self.bar.pos:
            self.bar.update(min(done, self.bar.length) - self.bar.pos)

    @staticmethod
    def _tick(stage: str, stop: threading.Event) -> None:
        start = time.monotonic()
        while True:
            click.echo(f"\r{stage}… {time.monotonic() - start:.0f} s", err=True, nl=False)
            if stop.wait(1.0):
                click.echo(f"\r{stage}… {time.monotonic() - start:.1f} s", err=True)
                return

    def close(self) -> None:
        """End the current stage (a bar's last state stays on the screen, a line its time)."""
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None
        if self.ticking is not None:
            thread, stop = self.ticking
            stop.set()
            thread.join()
            self.ticking = None


@contextlib.contextmanager
def terminal_progress() -> Iterator[TerminalProgress | None]:
    """A progress hook when stderr is a terminal, else None (progress never goes into a pipe or a file)."""
    if not sys.stderr.isatty():
        yield None
        return
    progress = TerminalProgress()
    try:
        yield progress
    finally:
        progress.close()

