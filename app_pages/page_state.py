"""What a page keeps when the user goes to another page and comes back (not a page itself).

Streamlit forgets a widget's value once a run does not draw the widget, which is what happens to
every widget of a page while another page is shown. Each page therefore copies its widget values
to keys of its own (``_kept_<key>``, never a widget key, so Streamlit leaves them alone) on every
run, and puts them back before drawing its widgets when Streamlit has dropped them.
"""
from __future__ import annotations

from typing import Iterable

import streamlit as st

PREFIX = "_kept_"


def restore(keys: Iterable[str]) -> None:
    """Give back every dropped widget value that was kept."""
    for key in keys:
        if key not in st.session_state and PREFIX + key in st.session_state:
            st.session_state[key] = st.session_state[PREFIX + key]


def keep(keys: Iterable[str]) -> None:
    """Copy the current widget values aside (call after the widgets of this run are drawn)."""
    for key in keys:
        if key in st.session_state:
            st.session_state[PREFIX + key] = st.session_state[key]


def kept(key: str, default=None):
    return st.session_state.get(PREFIX + key, default)


def entered(page: str) -> bool:
    """True on the first run of ``page`` after another page ran (or in a new session): the
    moment a link's query parameters should take over from what was kept."""
    first = st.session_state.get("_current_page") != page
    st.session_state["_current_page"] = page
    return first
