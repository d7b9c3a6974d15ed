"""Have the browser load Plotly's code once a session's first page is drawn.

Streamlit's frontend fetches and evaluates the code of an element type when the first element of
that type arrives. Plotly's is 4.7 MB, about 1 s of the browser's main thread to evaluate, and
nothing else is drawn meanwhile. The compare and agreement pages draw no figure on their first
screen, so their first visit does not wait for it; but the first figure opened later (a segment's
drawing, a chart) would. ``plotly_code()``, called at the end of a session's first run, sends an
empty, hidden figure: the browser loads the code after the page's own elements, and the figure
goes at the next run (a run removes what it does not send again). On a page with figures on its
first screen it costs nothing: the code is loaded for them already.
"""
from __future__ import annotations

import streamlit as st

KEY = "preload_plotly"  # the hidden container's key (its CSS class is st-key-<KEY>)
_DONE = "_preloaded_plotly"  # session state: the browser has the code (one load per browser tab)
EMPTY_FIGURE = {"data": [{"type": "scatter", "x": [], "y": []}], "layout": {"height": 10}}


def plotly_code() -> None:
    """The hidden figure, on a session's first run only (call it after the page)."""
    if st.session_state.get(_DONE):
        return
    st.session_state[_DONE] = True
    with st.container(key=KEY):
        st.html(f"<style>.st-key-{KEY} {{display: none}}</style>")
        st.plotly_chart(EMPTY_FIGURE, key=KEY + "_figure", config={"staticPlot": True})
