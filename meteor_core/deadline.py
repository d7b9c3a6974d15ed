"""A time budget for one piece of work that a user starts (scoring a test set, a bootstrap, a
corpus waterfall): it finishes, or stops with a message, once the budget is spent. The work
calls ``check()`` (or passes ``progress()`` where a progress callback is taken) every so often;
the alignment search has its own per-segment clock (``align.search.Budget``).
"""
from __future__ import annotations

import time
from typing import Callable


class OverBudget(Exception):
    """The work was stopped because its time budget was spent; the message says what was done.
    ``retry``: earlier work of the same budget had spent more than RETRY_SECONDS of it, so the
    work might finish with a budget of its own (a caller may run it again rather than keep the
    stop as its result)."""

    def __init__(self, message: str, retry: bool = False):
        super().__init__(message)
        self.retry = retry


RETRY_SECONDS = 1.0


class Deadline:
    """``seconds`` from ``start`` (time.monotonic(); now by default) for ``what``: several pieces of
    work can share one budget, each with its own Deadline from the same start. ``limit`` says in
    the message whose limit it was."""

    def __init__(self, seconds: float, what: str = "this work", start: float | None = None,
                 limit: str = "the limit per request"):
        self.seconds = seconds
        self.what = what
        self.limit = limit
        self.start = time.monotonic() if start is None else start
        self.spent_before = time.monotonic() - self.start  # by earlier work of the same budget

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def check(self, done: str = "") -> None:
        """Raise OverBudget once the budget is spent; ``done`` says how far the work got."""
        if self.elapsed() > self.seconds:
            shared = self.spent_before > RETRY_SECONDS
            raise OverBudget(f"{self.what} stopped after {self.seconds:g} s ({self.limit})"
                             + (f", {self.spent_before:.0f} s of it taken by the work before it" if shared else "")
                             + (f", {done}" if done else ""), retry=shared)

    def progress(self, report: Callable[[int, int], None] | None = None) -> Callable[[int, int], None]:
        """A progress(done, total) callback that reports (if asked) and checks the budget."""
        def progress(done: int, total: int) -> None:
            if report is not None:
                report(done, total)
            self.check(f"at {done:,} of {total:,}")
        return progress
