"""Links too long for Streamlit: a message instead of a silent default page.

Streamlit ignores a whole query string of more than 1,000 parameters or 512 Ki characters
(``streamlit.runtime.state.query_params.sanitize_query_string``, on the server, before any page
runs): a link with 1,001 ``ref=`` opens the default example and says nothing. The string never
reaches the script; only the browser still has it, as the URL the document was loaded from
(``performance``'s navigation entry: the pages rewrite the address bar as the inputs change).
A small component (``st.components.v2``, JavaScript in the page) measures that URL once per page
load and reports it back when it is over Streamlit's limits.
"""
from __future__ import annotations

import streamlit as st
from streamlit.runtime.state import query_params as _streamlit_limits

# Streamlit's limits, read from it (its own numbers where it has them; 1.67's otherwise)
MAX_FIELDS = getattr(_streamlit_limits, "CLIENT_STATE_QUERY_STRING_MAX_FIELDS", 1000)
MAX_CHARS = getattr(_streamlit_limits, "CLIENT_STATE_QUERY_STRING_MAX_LENGTH", 512 * 1024)

_JS = """
export default function (component) {
    const { data, setTriggerValue } = component;
    if (window.__meteorLinkChecked) { return; }  // once per page load, whichever page mounts it
    window.__meteorLinkChecked = true;
    const entry = performance.getEntriesByType("navigation")[0];
    const query = new URL(entry ? entry.name : window.location.href).search.replace(/^\\?/, "");
    if (!query) { return; }
    const fields = query.split("&").length;  // as Streamlit counts them
    if (fields > data.max_fields || query.length > data.max_chars) {
        setTriggerValue("dropped", { fields: fields, chars: query.length });
    }
}
"""
_checker = st.components.v2.component("meteor_link_check", js=_JS)


def dropped_link_message() -> str | None:
    """Mount the check (call it on every run of a page that links open); the message to show
    on the run after it found the page's link over Streamlit's limits, else None."""
    result = _checker(key="meteor_link_check", data={"max_fields": MAX_FIELDS, "max_chars": MAX_CHARS},
                      on_dropped_change=lambda: None)
    dropped = getattr(result, "dropped", None)
    if not isinstance(dropped, dict):
        return None
    fields, chars = int(dropped.get("fields", 0)), int(dropped.get("chars", 0))
    return (f"This link has {fields:,} parameters ({chars:,} characters): over Streamlit's limit of {MAX_FIELDS:,} "
            f"parameters or {MAX_CHARS:,} characters, so Streamlit ignored all of it and the page shows its "
            "default example. Make the link shorter (the explorer takes at most 16 references).")
