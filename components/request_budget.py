"""The time budget of one request to a page: everything a visitor's run of a page starts
(scoring a test set, the bootstraps and tests, BLEU/chrF/TER, a corpus waterfall) finishes, or
stops with a message, within METEOR_REQUEST_SECONDS together (60 s unless the server's operator
sets it), so one visitor cannot hold the server. A page marks the start of its request
(``start_request``) and every piece of work takes its deadline from that start; a fragment's own
rerun is a request of its own.
"""
from __future__ import annotations

import math
import os
import time

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from meteor_core.deadline import Deadline, OverBudget

VARIABLE = "METEOR_REQUEST_SECONDS"
DEFAULT_SECONDS = 60.0
_STARTED = "_request_started"

__all__ = ["DEFAULT_SECONDS", "OverBudget", "VARIABLE", "request_deadline", "request_seconds", "start_request"]


def request_seconds(environ=os.environ) -> float:
    """The budget in seconds: the variable if it is a positive number, else the default."""
    try:
        seconds = float(environ.get(VARIABLE, DEFAULT_SECONDS))
    except ValueError:
        return DEFAULT_SECONDS
    return seconds if math.isfinite(seconds) and seconds > 0 else DEFAULT_SECONDS


def start_request(fragment: bool = False) -> None:
    """Call at the top of a page, and of a fragment with ``fragment=True``: a fragment's rerun on
    its own starts a request, while within its page's run it is part of the page's request."""
    ctx = get_script_run_ctx()
    if fragment and not (ctx is not None and ctx.fragment_ids_this_run):
        return
    st.session_state[_STARTED] = time.monotonic()


def request_deadline(what: str) -> Deadline:
    """The deadline of a piece of work: what is left of this request's budget (a budget of its
    own outside a page's run)."""
    return Deadline(request_seconds(), what, start=st.session_state.get(_STARTED))
