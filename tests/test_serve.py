"""serve.py, how run.sh, `meteor app` and the browser tests start the explorer: Streamlit's own
command line with the pages' libraries imported before the first visitor arrives (a fresh
server's first visit to /compare spent ~0.7 s importing them)."""
import os
import subprocess
import sys
from pathlib import Path

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


def _watches_files(pid: int) -> bool:
    """Whether the process holds an inotify descriptor (Streamlit's file watcher, watchdog)."""
    fds = Path(f"/proc/{pid}/fd")
    return any("inotify" in os.readlink(fd) for fd in fds.iterdir() if fd.is_symlink())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("launcher", ["serve.py", "streamlit run"])
def test_the_served_app_does_not_watch_its_files(launcher):
    """A visitor's session made Streamlit's watcher look at every loaded module and hash the app's
    files on the server's event loop (~0.3 s a new session); the served explorer does without."""
    from browser import browser_page, require_browser, wait_for_run

    require_browser()
    launch = None if launcher == "serve.py" else [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py")]
    with streamlit_server(launch=launch) as (url, proc), browser_page() as (page, _errors):
        page.goto(url)
        page.get_by_text("Explore a pair").first.wait_for(timeout=60_000)
        wait_for_run(page, timeout=60_000)
        watching = _watches_files(proc.pid)
    assert watching == (launcher == "streamlit run")  # plain `streamlit run` watches: the check can fail


def test_prepare_freezes_the_libraries_and_keeps_the_users_choice():
    """prepare(): the preloaded objects frozen (Streamlit's collection after each run skips
    them), the file watcher off unless the user's environment says otherwise."""
    script = ("import gc, os, serve; serve.prepare(); from meteor_core import resources; "
              "print(gc.get_freeze_count(), os.environ['STREAMLIT_SERVER_FILE_WATCHER_TYPE'], "
              "resources.load_synonyms('wordnet'))")

    def run(env_extra):
        env = {k: v for k, v in os.environ.items() if k != "STREAMLIT_SERVER_FILE_WATCHER_TYPE"} | env_extra
        out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                             check=True).stdout.split()
        return int(out[0]), out[1], float(out[2])

    frozen, watcher, wordnet_seconds = run({})
    assert frozen > 50_000 and watcher == "none"  # pandas, scipy, Plotly...: well over 100,000 objects
    assert wordnet_seconds == 0.0  # read by the warm-up (a fresh process takes ~0.17 s: see below)
    assert run({"STREAMLIT_SERVER_FILE_WATCHER_TYPE": "poll"})[1] == "poll"


def test_without_the_warm_up_wordnet_is_read_by_the_first_score():
    """The other side of the warm-up's check: a process that did not prepare reads WordNet."""
    script = "from meteor_core import resources; print(resources.load_synonyms('wordnet'))"
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert float(out.stdout) > 0.0
