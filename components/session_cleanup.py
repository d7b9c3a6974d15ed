"""Sessions whose browser has gone are shut down, and their memory given back.

What Streamlit does with a closed browser tab: the session is disconnected and kept for
``server.disconnectedSessionTTL`` (120 s) so that a reconnect can resume it. After that it is
only *unreachable*: the store drops it lazily, at the next disconnect of another session, and
never shuts it down, so its uploaded files stay in the server's memory for good and its
``st.session_state`` (this app's scored test sets, a few MB each) until something else
disconnects.

``track()``, called on every run of every page, notes the session. A janitor thread (one per
server process) looks every ``SWEEP_SECONDS`` at the sessions it knows: one that has been
disconnected for ``grace_seconds()`` (a little less than Streamlit's own reconnect window, so
that the session is still in its store) is shut down through Streamlit's thread-safe close
(``Runtime.clear_user_info_for_session``: for a session that exists only in storage, the close
of a logged-out session, on the event loop): its uploaded files, media and session state are
released as when a server shuts a session down. After closing any, the janitor
collects unreachable cycles (nothing else triggers a collection on an idle server) and asks the
C allocator to return free memory to the system (``malloc_trim``, glibc only), and the first
``track()`` of a process tunes glibc's allocator so that there is memory to return
(``tune_allocator``: large blocks in mmap, two arenas).

The janitor also empties a closed session's state and fragments (``_empty``: Streamlit keeps the
last session its loop served). Measured with tests/test_browser_hardening.py (8 sessions, 2,445
rows each, then closed; the server on the C allocator, as run.sh starts it): 262 MiB once one
visitor had opened the page, 613 MiB at the peak, 280 MiB three minutes after the browsers
closed. bench/soak_census.py says what the server holds at each step.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import threading
import time

SWEEP_SECONDS = 10.0
RELEASE_AFTER_SECONDS = (2.0, 15.0)
_lock = threading.Lock()
_disconnected_since: dict[str, float | None] = {}  # session id -> first seen disconnected (None: connected)
_holdings: dict[str, tuple] = {}  # session id -> (its session state, its fragment storage): emptied at its close
_janitor: threading.Thread | None = None
closed_sessions = 0  # how many the janitor closed (for tests and logs)


def grace_seconds() -> float:
    """How long a session may stay disconnected before it is closed: Streamlit's reconnect
    window less two sweeps, so that the close always finds it in Streamlit's store."""
    from streamlit import config

    window = float(config.get_option("server.disconnectedSessionTTL") or 0)
    return max(0.0, window - 2 * SWEEP_SECONDS)


def track() -> None:
    """Note the session of the current run (and start the janitor once per process)."""
    global _janitor
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None:
        return
    with _lock:
        _disconnected_since[ctx.session_id] = None
        _holdings[ctx.session_id] = (ctx.session_state, ctx.fragment_storage)
        if _janitor is None or not _janitor.is_alive():
            tune_allocator()  # once per process, before most session threads have run
            _janitor = threading.Thread(target=_sweep_forever, name="meteor-session-janitor", daemon=True)
            _janitor.start()


def _sweep_forever() -> None:
    while True:
        time.sleep(SWEEP_SECONDS)
        try:
            sweep()
        except Exception:  # noqa: BLE001 (the janitor must outlive a failed sweep; the next one retries)
            pass


def sweep(now: float | None = None) -> int:
    """Close the sessions disconnected for longer than the grace period; how many were closed."""
    global closed_sessions
    from streamlit import runtime

    if not runtime.exists():
        return 0
    server = runtime.get_instance()
    now = time.monotonic() if now is None else now
    grace = grace_seconds()
    to_close = []
    with _lock:
        for session_id, since in list(_disconnected_since.items()):
            if server.is_active_session(session_id):
                _disconnected_since[session_id] = None
            elif since is None:
                _disconnected_since[session_id] = now
            elif now - since >= grace:
                to_close.append(session_id)
                del _disconnected_since[session_id]
    for session_id in to_close:
        server.clear_user_info_for_session(session_id)  # (closes it on the event loop: see above)
        with _lock:
            holdings = _holdings.pop(session_id, None)
        if holdings is not None:
            _empty(*holdings)
    if to_close:
        closed_sessions += len(to_close)
        for delay in RELEASE_AFTER_SECONDS:  # once the event loop has closed them (not at once under load)
            threading.Timer(delay, _release_memory).start()
    return len(to_close)


def _empty(session_state, fragment_storage) -> None:
    """Empty a closed session's state and fragments. Streamlit's shutdown leaves them in the
    session object, and its runtime loop keeps the last session it sent messages to in a local
    variable until it sends to another (Runtime._loop_coroutine's ``active_session_info``): the
    8-session soak's census found that one session, its upload and its scored set (58k match
    objects) alive after every browser had gone. (Private attributes, read defensively: a Streamlit
    without them keeps the session's state, as before.)"""
    state, lock = getattr(session_state, "_state", None), getattr(session_state, "_lock", None)
    if state is not None and lock is not None and hasattr(state, "clear"):
        with lock:
            state.clear()
    if hasattr(fragment_storage, "clear"):
        fragment_storage.clear()


def _release_memory() -> None:
    from meteor_core.scorer import forget_texts

    forget_texts()  # the scorer's memos of whole lines (visitors' texts) go with the sessions
    gc.collect()
    _malloc_trim()


def tune_allocator() -> None:
    """Make the C allocator (glibc; elsewhere nothing) give freed memory back to the system.
    Measured in the 8-session soak: after the sessions had gone, glibc held 317 MiB free in its
    arenas and had next to nothing in mmap. By default a block freed from mmap raises glibc's
    threshold for mmap (up to 32 MiB), so the server's large blocks (arrays, tables, cached
    pickles, a few MB each) came from the arenas, where free space is rarely returned; and each
    Streamlit run is a thread of its own, spread over up to eight arenas a core. A fixed
    threshold keeps blocks of 256 KiB and more in mmap (unmapped when freed) and two arenas keep
    the rest together. Threads started afterwards (every later run) follow."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)
        libc.mallopt(_M_ARENA_MAX, MALLOC_ARENAS)
    except (OSError, AttributeError, TypeError):
        pass


MMAP_THRESHOLD_BYTES = 256 * 1024
MALLOC_ARENAS = 2
_M_MMAP_THRESHOLD, _M_ARENA_MAX = -3, -8  # glibc's malloc.h


def _malloc_trim() -> None:
    """Give the C allocator's free memory back to the system (glibc; elsewhere nothing)."""
    name = ctypes.util.find_library("c")
    try:
        ctypes.CDLL(name).malloc_trim(0)
    except (OSError, AttributeError, TypeError):
        pass
