"""The explorer's server: `python serve.py run app.py [streamlit options]`, which is Streamlit's
own command line (`python -m streamlit ...`) with the pages' libraries imported first.

Streamlit runs a page's script only when a visitor opens it, so on a fresh server the first
visitor waited for pandas, sacrebleu, Plotly, scipy and the scorer to be imported (~0.7 s of a
3.7 s first visit to /compare, measured with py-spy). Here they are imported before the server
starts listening: the server is ready about that much later, and every page opens as fast for
its first visitor as for the next. run.sh and `meteor app` start the explorer this way;
`streamlit run app.py` still works, only the first visit is slower.

Three more costs of Streamlit's defaults are settled here, each measured on a first visit:
* The explorer is served, not developed, so it does not watch its source files
  (``server.fileWatcherType`` "none"). Streamlit's watcher ran on the server's event loop for
  every new session: it looked at each of the ~2,000 loaded modules' paths and hashed the app's
  files, about 0.3 s when a session opened and 0.15-0.3 s after its first run (py-spy, CPU),
  while the browser waited for messages. A developer passes ``--server.fileWatcherType auto``.
* The preloaded objects are frozen (``gc.freeze``): Streamlit collects garbage after every run
  of a page (``runner.postScriptGC``), and a full collection over the libraries' ~160,000
  objects took 0.12 s of every run; over what the runs add it takes ~0.005 s.
* Streamlit's first element in a process calls ``inspect.stack()``, whose first call finds every
  loaded module's file (0.06-0.08 s); done here, the first visitor's run does not pay it.

The scorer's resources are read here too, by scoring one short pair with each preset: WordNet
(0.17 s) and the jar's word lists, which the first visitor's page read before it could show a
score. Not the jar's paraphrase table: the first use on a machine parses it (about 16 s, once),
which must not hold up the server's start; once parsed it is mapped in under a millisecond.
"""
from __future__ import annotations

import gc
import importlib
import inspect
import os
import pkgutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent

# What the pages import, and what they import on first use (sacrebleu for BLEU/chrF/TER):
# pandas ~0.4 s, scipy ~1 s (the agreement page), sacrebleu ~0.3 s, numpy, Plotly, the views, PIL
# (st.set_page_config reads the favicon with it).
LIBRARIES = ("numpy", "pandas", "plotly.graph_objects", "scipy.stats", "sacrebleu.metrics", "PIL.Image")
PACKAGES = ("components", "meteor_core.analysis")  # every module of these (each is an import, no work)


def preloaded_modules() -> list[str]:
    """The libraries, then every module of the app's packages, by name."""
    names = list(LIBRARIES)
    for package in PACKAGES:
        try:
            folders = importlib.import_module(package).__path__
        except ImportError:  # (the page that needs it says so when it is opened)
            continue
        names += [f"{package}.{info.name}" for info in pkgutil.iter_modules(folders)]
    return names


def preload() -> None:
    for name in preloaded_modules():
        try:
            importlib.import_module(name)
        except Exception:  # (a missing or broken module: the page that needs it says so when opened)
            pass


WARM_UP_PAIR = ("The cat sat on the mat .", "A cat was sitting on the mat .")


def warm_up_scorer() -> None:
    """Score WARM_UP_PAIR with every preset (English, no paraphrase stage): each reads its
    resources once."""
    try:
        from meteor_core import MeteorConfig, score
        from meteor_core.config import PRESET_NAMES
    except Exception:  # (the pages say what is wrong when opened)
        return
    hypothesis, reference = WARM_UP_PAIR
    for preset in PRESET_NAMES:
        try:
            stages = tuple(s for s in MeteorConfig.preset(preset).stages if s != "paraphrase")
            score(hypothesis, [reference], MeteorConfig.preset(preset, stages=stages))
        except Exception:  # a missing resource (no jar, no WordNet): the page that needs it says so
            pass


# Defaults of this server, as Streamlit's environment variables: a command-line flag or the
# user's own environment still decides.
SERVER_DEFAULTS = {"STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none"}


def prepare() -> None:
    """Everything before Streamlit's command line takes over (see the module's docstring)."""
    sys.path.insert(0, str(ROOT))  # as app.py does: the pages import meteor_core and components
    for name, value in SERVER_DEFAULTS.items():
        os.environ.setdefault(name, value)
    preload()
    warm_up_scorer()
    inspect.stack()  # fills inspect's table of module files
    gc.freeze()


def main() -> None:
    prepare()
    from streamlit.web import cli

    cli.main(prog_name="streamlit")


if __name__ == "__main__":
    main()
