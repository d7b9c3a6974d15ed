"""Start the browser loading Plotly's code while the server runs the session's first page.

Streamlit's frontend fetches and evaluates the code of an element type when the first element of
that type arrives. Plotly's is 4.7 MB, about 0.8 s of the browser's main thread to evaluate;
on the compare page the first figure arrives late in the run (after the paired bootstrap), so
a first visit waited for the server, then for Plotly's code. Every page draws Plotly figures.
``plotly_code()`` sends an empty, hidden figure as the first element of a session's first run:
the browser loads and evaluates the code while the server imports and computes, then the figure
is removed at the end of the run (``placeholder.empty()``).
"""
from __future__ import annotations

import streamlit as st

KEY = "preload_plotly"  # the hidden container's key (its CSS class is st-key-<KEY>)
_DONE = "_preloaded_plotly"  # session state: the browser has the code (one load per browser tab)
EMPTY_FIGURE = {"data": [{"type": "scatter", "x": [], "y": []}], "layout": {"height": 10}}


def plotly_code():
    """The placeholder holding the hidden figure (empty it at the end of the run), or None after
    the session's first run."""
    if st.session_state.get(_DONE):
        return None
    st.session_state[_DONE] = True
    placeholder = st.empty()
    with placeholder.container(key=KEY):
        st.html(f"<style>.st-key-{KEY} {{display: none}}</style>")
        st.plotly_chart(EMPTY_FIGURE, key=KEY + "_figure", config={"staticPlot": True})
    return placeholder
