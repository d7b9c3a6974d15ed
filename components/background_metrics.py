"""BLEU, chrF and TER of the compare page's test set, computed in a background thread as soon as
the set is loaded and scored, so that ticking them finds them ready or waits for the computation
already running (never a second one).

Measured in Chromium (docs/app-performance.md): computed when ticked, sacrebleu's statistics were
about 1.8 s of the 4.7 s a tick took on 2 x 2,445 segments.

- The bundled set: once per server, in a job every session shares (``demo_set.sacrebleu_scores``,
  kept on disk beside its METEOR scores: a fresh server reads them).
- An uploaded set: one job per session; a new test set cancels the last one's, and a job whose
  session has ended (closed, or its browser gone) stops at its next check.
- The job starts at the end of the page's run (``start``, the page's last call), so that the
  page is drawn first; the browser draws in its own process while the thread counts.
- A set of more than ``MAX_BACKGROUND_SEGMENTS`` segments (all systems together) is computed only
  when asked: it would hold a core for minutes (a 99,999 x 2 upload: about a minute and a half).
"""
from __future__ import annotations

import threading
from typing import Callable

import streamlit as st

MAX_BACKGROUND_SEGMENTS = 20_000  # all systems together: at most ~15 s of a core
_SESSION_JOB = "_cmp_sacrebleu_job"  # session state: the session's job (an uploaded set)
_shared: dict[str, "Job"] = {}  # cache key -> job (the bundled set: one for every session)
_lock = threading.Lock()


class Cancelled(Exception):
    """A job stopped because its test set was replaced or its session ended."""


class Job:
    """``compute(check)`` in a daemon thread; ``check`` raises Cancelled once ``cancel()`` was
    called or ``alive()`` says the session has ended."""

    def __init__(self, compute: Callable, alive: Callable[[], bool] = lambda: True):
        self._compute, self._alive = compute, alive
        self._cancelled, self.done = threading.Event(), threading.Event()
        self.result = None  # the scores, once done (None if cancelled or failed)
        self.thread = threading.Thread(target=self._run, name="meteor-sacrebleu", daemon=True)

    def start(self) -> "Job":
        self.thread.start()
        return self

    def cancel(self) -> None:
        self._cancelled.set()

    def _check(self) -> None:
        if self._cancelled.is_set() or not self._alive():
            raise Cancelled

    def _run(self) -> None:
        try:
            self.result = self._compute(self._check)
        except Exception:  # cancelled, or failed: the page computes them itself when asked (and says why)
            self.result = None
        finally:
            self._compute = None  # what it captured (a session's texts) is not kept by a finished job
            self.done.set()

    def wait(self, check: Callable[[], None]):
        """The scores (None if the job was cancelled or failed), waiting for the thread;
        ``check`` (the request's budget) is called while waiting and may raise to stop."""
        while not self.done.wait(0.05):
            check()
        return self.result


def _session_alive() -> Callable[[], bool]:
    """Whether the current run's session is still served (always, outside a server: AppTest)."""
    from streamlit import runtime
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None or not runtime.exists():
        return lambda: True
    server, session_id = runtime.get_instance(), ctx.session_id
    return lambda: server.is_active_session(session_id)


def start(key: str, compute: Callable, segments: int, shared: bool) -> Job | None:
    """Start ``compute(check)`` for the test set of cache key ``key`` unless a job for it runs or
    ran already; ``shared``: for every session (the bundled set), else for this session only
    (replacing, and cancelling, its job for another set). Returns the job, or None for a set too
    large to count in the background."""
    if segments > MAX_BACKGROUND_SEGMENTS:
        return None
    if shared:
        with _lock:
            job = _shared.get(key)
            if job is None:
                job = _shared[key] = Job(compute).start()
        return job
    kept = st.session_state.get(_SESSION_JOB)
    if kept is not None and kept[0] == key:
        return kept[1]
    if kept is not None:
        kept[1].cancel()
    job = Job(compute, _session_alive()).start()
    st.session_state[_SESSION_JOB] = (key, job)
    return job


def job_for(key: str) -> Job | None:
    """The job started for ``key`` (this session's or a shared one), if any."""
    kept = st.session_state.get(_SESSION_JOB)
    if kept is not None and kept[0] == key:
        return kept[1]
    with _lock:
        return _shared.get(key)
