"""METEOR Explorer, the Streamlit entry point: `streamlit run app.py` (or ./run.sh app).

Pages: explore one candidate against its references, compare systems over a test set, see why
two METEOR configurations give different scores, and check how well metrics agree with people.
"""
import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))  # pages import meteor_core and components

from components import demo_set, preload, session_cleanup  # noqa: E402

# The favicon is a file of the app's own: a page's Material icon would be fetched from the web,
# which fails offline.
st.set_page_config(page_title="METEOR Explorer", page_icon=str(ROOT / "assets" / "favicon.png"), layout="wide")
session_cleanup.track()  # a session whose browser has gone is shut down, its memory released
demo_set.warm_in_background()  # once per process: the compare page's bundled set, scored for every session
page = st.navigation([
    st.Page("app_pages/explore.py", title="Explore a pair", icon=":material/compare_arrows:", default=True),
    st.Page("app_pages/compare.py", title="Compare systems", icon=":material/leaderboard:"),
    st.Page("app_pages/difference.py", title="Why two METEORs differ", icon=":material/difference:"),
    st.Page("app_pages/agreement.py", title="Agreement with people", icon=":material/groups:"),
])
page.run()
preload.plotly_code()  # a session's first run: the browser loads Plotly's code after the page
