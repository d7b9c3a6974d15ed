"""serve.py, how run.sh, `meteor app` and the browser tests start the explorer: Streamlit's own
command line with the pages' libraries imported before the first visitor arrives (a fresh
server's first visit to /compare spent ~0.7 s importing them)."""
import sys

import pytest

from browser import streamlit_server
from conftest import ROOT

import serve


def _mapped(pid: int) -> str:
    with open(f"/proc/{pid}/maps") as maps:
        return maps.read()


LOADED_BY_PAGES = ("pandas/_libs/", "scipy/stats/", "lxml/")  # pandas, scipy.stats, sacrebleu (lxml)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("launcher", ["serve.py", "streamlit run"])
def test_the_libraries_are_loaded_before_the_first_visitor(launcher):
    launch = None if launcher == "serve.py" else [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py")]
    with streamlit_server(launch=launch) as (_url, proc):  # (no page has been opened)
        mapped = _mapped(proc.pid)
    loaded = [lib for lib in LOADED_BY_PAGES if lib in mapped]
    # plain `streamlit run` loads none of them until a page imports them: the check can fail
    assert loaded == (list(LOADED_BY_PAGES) if launcher == "serve.py" else [])


def test_every_module_of_the_app_is_named():
    names = serve.preloaded_modules()
    assert {"pandas", "scipy.stats", "sacrebleu.metrics", "components.compare_views", "components.demo_set",
            "meteor_core.analysis.agreement", "meteor_core.analysis.ter"} <= set(names)
    assert len(names) == len(set(names))
    assert not [n for n in names if n.startswith("app_pages")]  # a page runs when imported: never preloaded
