"""The compare page's bundled test set (TED Slovak->English, 1,200 segments, 2 systems), read and
scored once per server and configuration, and shared by every session.

Its first scoring in a process costs the most (the scorer's modules, WordNet and the stemmer's
memos come with it: ~1 s against ~0.5 s later), so ``warm_in_background`` starts it in a thread
when the server's first session runs any page, for the configuration the compare page opens with.
A visitor who then opens that page reads the result, or waits for the same computation (the
cache computes an entry once; a second caller waits for it), never a second one.
"""
from __future__ import annotations

import threading
from pathlib import Path

import streamlit as st

from meteor_core import MeteorConfig
from meteor_core.textio import read_segments

FOLDER = Path(__file__).resolve().parent.parent / "demo" / "ted-slk-eng"
DEFAULT_LANGUAGE = "en"  # the compare page's first screen: this language's first preset, synonyms on


@st.cache_data(show_spinner=False)  # read once, not on every rerun that a filter causes
def texts() -> tuple[dict[str, list[str]], list[list[str]]]:
    """(systems, references) of the bundled set."""
    refs = read_segments(FOLDER / "ted.ref.detok.eng")  # capped like every read
    systems = {name: read_segments(FOLDER / f"ted.{name}.detok.eng") for name in ("sys1", "sys2")}
    return systems, [[r] for r in refs]


# One entry per configuration asked for; a few (the presets in a language or two) stay. The value
# is read only: every session draws from the same comparison.
@st.cache_resource(show_spinner=False, max_entries=4)
def comparison(config: dict, _progress=None):
    """The bundled set scored under ``config`` (a ``MeteorConfig.to_dict()``). ``_progress(done,
    total)``, when this call scores, may raise to stop (the request's budget): nothing is kept then."""
    from meteor_core.analysis.compare import compare_systems

    systems, references = texts()
    return compare_systems(systems, references, MeteorConfig.from_dict(config), progress=_progress, jobs=1)


def default_config() -> MeteorConfig:
    from components.language_choice import presets

    return MeteorConfig.preset(presets(DEFAULT_LANGUAGE)[0], language=DEFAULT_LANGUAGE)


_started = threading.Event()
_start_lock = threading.Lock()
warming: list[threading.Thread] = []  # the thread, once started (tests wait for it)


def warm_in_background() -> threading.Thread | None:
    """Score the bundled set for the compare page's first screen in a daemon thread, once per
    process (later calls do nothing and return None)."""
    with _start_lock:
        if _started.is_set():
            return None
        _started.set()
    thread = threading.Thread(target=_warm, name="meteor-demo-warmup", daemon=True)
    warming.append(thread)
    thread.start()
    return thread


def _warm() -> None:
    try:
        comparison(default_config().to_dict())
    except Exception:  # a missing resource, say: the page says what, when it is opened
        pass
