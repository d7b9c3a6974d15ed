"""User strings (system, file and column names, sentences, messages quoting them) made safe for
the two places that would read them as markup.

Streamlit reads Markdown in widget labels, tab names, metrics, captions, headers, alerts and
radio options (links, images fetched by the browser, KaTeX between dollars, :color[...] and
:emoji: directives); it does not in st.text, st.code, st.dataframe cells and headers, or
selectbox options. Plotly reads a subset of HTML in titles, axis titles, legend names, labels
and hovers, and ``%{...}`` in hover templates.

``markdown_literal`` escapes every ASCII punctuation character (CommonMark allows a backslash
before any of them) and puts an invisible WORD JOINER (U+2060) where GitHub-flavoured Markdown
would otherwise turn plain text into a link (after a colon, as in http: or mailto:, before an
@, after www). The text then shows exactly as typed. ``plotly_literal`` escapes <, > and & as
entities and % as &#37;, which Plotly shows as the characters.
"""
from __future__ import annotations

import html
import re

WORD_JOINER = "\u2060"
_MARKDOWN_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation character
_AUTOLINK_STARTS = re.compile(r"(:)|(@)|(?<=www)(?=\.)", re.IGNORECASE)


def _break_autolinks(match: re.Match) -> str:
    if match.group(1):
        return ":" + WORD_JOINER
    if match.group(2):
        return WORD_JOINER + "@"
    return WORD_JOINER


def markdown_literal(text: str) -> str:
    """``text`` for a Streamlit label, caption or alert: shown as typed, never as markup."""
    text = _AUTOLINK_STARTS.sub(_break_autolinks, str(text))
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", text)


def label_literal(text: str) -> str:
    """``markdown_literal`` on one line (labels, tab names, metric names)."""
    return markdown_literal(" ".join(str(text).split()))


def plotly_literal(text: str) -> str:
    """``text`` for a Plotly title, axis title, legend name, label or hover template."""
    return html.escape(str(text), quote=False).replace("%", "&#37;")


_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def shown_text(markdown: str) -> str:
    """What a reader sees of a ``markdown_literal`` (its inverse): for tests and for logs."""
    return _ESCAPED.sub(r"\1", markdown.replace(WORD_JOINER, ""))
