"""The explorer's server: `python serve.py run app.py [streamlit options]`, which is Streamlit's
own command line (`python -m streamlit ...`) with the pages' libraries imported first.

Streamlit runs a page's script only when a visitor opens it, so on a fresh server the first
visitor waited for pandas, sacrebleu, Plotly, scipy and the scorer to be imported (~0.7 s of a
3.7 s first visit to /compare, measured with py-spy). Here they are imported before the server
starts listening: the server is ready about that much later, and every page opens as fast for
its first visitor as for the next. run.sh and `meteor app` start the explorer this way;
`streamlit run app.py` still works, only the first visit is slower.
"""
from __future__ import annotations

import importlib
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


def main() -> None:
    sys.path.insert(0, str(ROOT))  # as app.py does: the pages import meteor_core and components
    preload()
    from streamlit.web import cli

    cli.main(prog_name="streamlit")


if __name__ == "__main__":
    main()
