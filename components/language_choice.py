"""The language choice every page shares, and the notes on a configuration and its input.

One widget key (``lang``) on every page, kept for the session: the language chosen on one page
is the language of the next. The presets offered follow the language (nltk reproduces NLTK's
English meteor_score only). The notes are meteor_core.notes', with fixes worded for the app, and
are shown as plain text: they quote nothing of the user's, but a page never renders a sentence
it did not write as Markdown.
"""
from __future__ import annotations

from itertools import islice

import streamlit as st

from components.plain_text import markdown_literal
from meteor_core.config import PRESET_NAMES
from meteor_core.languages import LANGUAGES
from meteor_core.notes import NOTE_SAMPLE, config_notes

KEY = "lang"
CODES = tuple(LANGUAGES)
ENGLISH_ONLY = ("nltk",)  # presets that exist in English only
NLTK_NOTE = "nltk is English only (it reproduces NLTK's meteor_score: Porter stems, WordNet synonyms)."
HELP = ("The language of the translations: its stemmer, function words, tokenisation and the jar's "
        "parameters for it (Meteor 1.5's 17 languages, or 'other': exact matches only). Synonyms are "
        "English only (WordNet).")

# How to act on each note, in the app's words (meteor_core.notes: the CLI's are flags).
APP_FIXES = {"paraphrase": "choose or upload a paraphrase table in the sidebar",
             "nfc": "tick 'Unicode NFC' in the sidebar to compose it first",
             "language": "choose {name} ({code}) as the language in the sidebar"}


def label(code: str) -> str:
    """A language as the selectbox shows it: its name and code."""
    if code == "other":
        return "Other (other: exact matches only)"
    return f"{LANGUAGES[code].display} ({code})"


def choose(container=None, key: str = KEY, **kwargs) -> str:
    """The language selectbox (in ``container``, default the sidebar); returns its code."""
    if st.session_state.get(key) not in CODES:
        st.session_state.pop(key, None)  # a value no longer offered: back to English
    return (container or st.sidebar).selectbox("Language", CODES, format_func=label, key=key, help=HELP,
                                               persist_state="session", **kwargs)


def presets(language: str) -> tuple[str, ...]:
    """The presets that score ``language``."""
    return PRESET_NAMES if language == "en" else tuple(p for p in PRESET_NAMES if p not in ENGLISH_ONLY)


def show_notes(configs, texts=(), modules_chosen: bool = False, fixes: dict = APP_FIXES) -> list[str]:
    """The notes on each of ``configs`` (one configuration, or several: each note once) and a
    sample of ``texts``, one alert each, as plain text; returns them."""
    sample = list(islice(texts, NOTE_SAMPLE))
    notes = dict.fromkeys(note for config in (configs if isinstance(configs, (list, tuple)) else [configs])
                          for note in config_notes(config, sample, modules_chosen=modules_chosen, fixes=fixes))
    show(notes)
    return list(notes)


def show(notes) -> None:
    """Each note as a sentence in an alert, as plain text (the CLI's notes end without a stop)."""
    for note in notes:
        sentence = note[:1].upper() + note[1:] + ("" if note.endswith(".") else ".")
        st.warning(markdown_literal(sentence), icon=":material/info:")
