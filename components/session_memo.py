"""Caches whose entries go with the session that made them, except for data every visitor has.

Streamlit's caches are global by default: shared by every session and outliving them. The
tables, filtered tables and charts of a test set that one visitor uploaded stayed in the server
after the visitor had gone, until other entries pushed them out (the 8-session soak left their
pickles and figures behind). ``session_or_shared`` caches a function twice: in a
session-scoped Streamlit cache (``scope="session"``: cleared when the session disconnects) for
data of the session's own, and in the global cache for data every visitor has (the bundled demo
set, whose scores and charts are the same for all, computed once per server). A cache key is
global once ``share(key)`` has been called for it; outside a script run (no session) the global
cache is used.
"""
from __future__ import annotations

import functools
import inspect
import threading

_shared_keys: set[str] = set()  # cache keys of data every visitor has (a few: the demo set per configuration)
_lock = threading.Lock()


def share(key: str) -> None:
    """Let the values computed for cache key ``key`` go to the global cache."""
    with _lock:
        _shared_keys.add(key)


def is_shared(key: str) -> bool:
    with _lock:
        return key in _shared_keys


def _in_session() -> bool:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    return get_script_run_ctx() is not None


def session_or_shared(cache, shared_entries: int, session_entries: int, spinner: str | bool = False):
    """Decorator: ``cache`` is ``st.cache_data`` or ``st.cache_resource``; the global cache keeps
    ``shared_entries`` values, each session's cache ``session_entries``. The function's second
    argument must be the cache key (``key``) that says whether its data is shared."""
    def decorate(function):
        names = list(inspect.signature(function).parameters)
        if names[1:2] != ["key"]:
            raise TypeError(f"{function.__qualname__}: the second argument must be the cache key")
        shared = cache(show_spinner=spinner, max_entries=shared_entries)(function)
        own = cache(show_spinner=spinner, max_entries=session_entries, scope="session")(function)

        @functools.wraps(function)
        def cached(*args):
            if is_shared(args[1]) or not _in_session():
                return shared(*args)
            return own(*args)

        cached.shared, cached.own = shared, own
        return cached

    return decorate
