"""One way for every page to say that a resource is missing (WordNet, the Meteor 1.5 jar) and
what the visitor can do about it."""
from __future__ import annotations

import streamlit as st

from components.plain_text import markdown_literal
from meteor_core import JarMissingError, WordNetMissingError
from meteor_core.tokenize import NltkDataMissingError

MISSING_RESOURCES = (WordNetMissingError, JarMissingError, NltkDataMissingError)


def show_missing(exc: Exception, doing: str | None = None) -> None:
    """An error box with the message; for WordNet, also how to ``doing`` ("score", "compare")
    without it. WordNet's message is this project's own and uses Markdown (code spans); the
    others' may name a path (METEOR_JAR) or hold code (NLTK's download), so they are shown as plain text."""
    st.error(str(exc) if isinstance(exc, WordNetMissingError) else markdown_literal(str(exc)))
    if doing and isinstance(exc, WordNetMissingError):
        st.caption(f"Untick the synonym stage in the sidebar to {doing} without WordNet.")
