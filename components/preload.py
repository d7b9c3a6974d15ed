"""Have the browser load Plotly's code once a session's first page is drawn and idle.

Streamlit's frontend fetches and evaluates the code of an element type when the first element of
that type arrives. Plotly's is 4.7 MB, about 1 s of the browser's main thread to evaluate, and
nothing else is drawn or answered meanwhile. The compare and agreement pages draw no figure on
their first screen, so their first visit need not wait for it; but the first figure opened later
(a segment's drawing, a chart) would. ``plotly_code()``, called at the end of a session's first
run, sends a small script that waits until the run is over (the app's script state) and the
page has been idle for half a second, then imports Streamlit's own Plotly module, the very file its frontend
imports for a figure: evaluated once, it is ready when the first figure comes. (Sent as a hidden
empty figure instead, the code was evaluated before the page had answered: a fresh visit to the
compare page took 4.3 s against 3.3.) If this Streamlit names that file otherwise, the hidden
figure is the fallback. On a page with figures on its first screen it costs nothing: the code is
loaded for them already.
"""
from __future__ import annotations

import functools
from pathlib import Path

import streamlit as st

KEY = "preload_plotly"  # the hidden container's key (its CSS class is st-key-<KEY>)
_DONE = "_preloaded_plotly"  # session state: the browser has the code (one load per browser tab)
EMPTY_FIGURE = {"data": [{"type": "scatter", "x": [], "y": []}], "layout": {"height": 10}}
FRONTEND_CODE = Path(st.__file__).parent / "static" / "static" / "js"  # where index.html's modules are
# The script: the file name is the only thing filled in (a constant of Streamlit's, never user text).
IMPORT_WHEN_IDLE = """<script>
(() => {
  const main = document.querySelector('script[type="module"][src*="/static/js/index."]');
  if (!main) return;
  const url = new URL("%s", main.src).href;  // resolved as the frontend's own lazy import resolves it
  const over = () => document.querySelector('[data-testid="stApp"]')?.dataset.testScriptState === "notRunning";
  const start = performance.now();
  let last = start, quietSince = null;
  const tick = () => {  // every 100 ms: a tick that comes late means the page was still busy drawing
    const now = performance.now(), busy = now - last > 150;
    last = now;
    quietSince = over() && !busy ? (quietSince ?? now) : null;
    if ((quietSince !== null && now - quietSince >= 500) || now - start > 15000) import(url);
    else setTimeout(tick, 100);
  };
  setTimeout(tick, 100);
})();
</script>"""


@functools.cache
def plotly_module() -> str | None:
    """The file name of Streamlit's Plotly module (its frontend's chunk), or None if not one."""
    found = sorted(path.name for path in FRONTEND_CODE.glob("PlotlyChart.*.js"))
    return found[0] if len(found) == 1 else None


def plotly_code() -> None:
    """On a session's first run only (call it after the page)."""
    if st.session_state.get(_DONE):
        return
    st.session_state[_DONE] = True
    with st.container(key=KEY):
        st.html(f"<style>.st-key-{KEY} {{display: none}}</style>")
        module = plotly_module()
        if module is not None:
            st.html(IMPORT_WHEN_IDLE % module, unsafe_allow_javascript=True)
        else:
            st.plotly_chart(EMPTY_FIGURE, key=KEY + "_figure", config={"staticPlot": True})
