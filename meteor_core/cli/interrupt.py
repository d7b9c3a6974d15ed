"""Ctrl-C for the command line: KeyboardInterrupt where the program can take it, every time.

Python runs a signal's handler wherever the main thread happens to be, and an exception raised
inside a garbage-collector callback or a ``__del__`` is printed as "Exception ignored" and
dropped: the run then goes on to its end as if Ctrl-C had not been pressed (the scorer has a gc
callback, called at every collection). So the handler here raises only outside such places;
inside one it asks again ``RETRY_SECONDS`` later (SIGALRM), and it keeps asking until the
program has taken the interrupt (``taken``).
"""
from __future__ import annotations

import gc
import signal
import threading
from contextlib import contextmanager

RETRY_SECONDS = 0.02


class _State:
    taken = False


def _swallows_exceptions(frame) -> bool:
    """Whether an exception raised in ``frame`` would be dropped: a gc callback or a __del__."""
    callbacks = {getattr(cb, "__code__", None) for cb in gc.callbacks}
    while frame is not None:
        if frame.f_code in callbacks or frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def _handler(signum, frame) -> None:
    if _State.taken:
        return
    if _swallows_exceptions(frame):
        signal.setitimer(signal.ITIMER_REAL, RETRY_SECONDS)
        return
    raise KeyboardInterrupt


@contextmanager
def interruptible():
    """Within: SIGINT raises KeyboardInterrupt as described above (only from the main thread and
    where SIGALRM exists; elsewhere Python's own handling stays). Call ``taken()`` first thing
    where the KeyboardInterrupt is caught."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return
    _State.taken = False
    previous = signal.signal(signal.SIGINT, _handler), signal.signal(signal.SIGALRM, _handler)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGINT, previous[0])
        signal.signal(signal.SIGALRM, previous[1])


def taken() -> None:
    """The program has the KeyboardInterrupt: no more asking."""
    _State.taken = True
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
        signal.setitimer(signal.ITIMER_REAL, 0)
