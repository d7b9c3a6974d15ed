"""components/session_memo: what the compare page derives from an uploaded test set lives in the
session's caches and goes when the session does; what it derives from the demo set is shared."""
import pytest
import streamlit as st
from streamlit.runtime.caching import clear_session_data_cache, clear_session_resource_cache
from streamlit.testing.v1 import AppTest

from components import compare_views, session_memo
from conftest import ROOT

ROWS = "ref\tgood\tbad\n" + "".join(f"{r}\t{r}\t{r.split()[0]}\n" for r in (
    "the cat sat on the mat", "a dog ran in the park", "it is raining today"))


def _compare_page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    return at.switch_page("app_pages/compare.py").run()


def _upload(at: AppTest) -> AppTest:
    at = at.radio(key="cmp_source").set_value(at.radio(key="cmp_source").options[2]).run()
    at = at.file_uploader(key="cmp_table").upload("set.tsv", ROWS.encode()).run()
    assert not at.exception and list(at.dataframe[0].value.system) == ["good", "bad"]
    return at


def _close_session(at: AppTest) -> None:
    """What Streamlit does to a session's caches when its browser disconnects (AppTest has one
    session id for every AppTest)."""
    clear_session_data_cache("test session id")
    clear_session_resource_cache("test session id")


def test_an_uploaded_sets_tables_go_with_the_session_and_the_demos_are_shared(monkeypatch):
    built = []
    real = compare_views.segment_table
    monkeypatch.setattr(compare_views, "segment_table", lambda *a, **k: built.append(len(a[3])) or real(*a, **k))
    st.cache_data.clear()
    at = _compare_page()
    assert built == [1200]  # the demo set's table
    at = _upload(at)
    assert built == [1200, 3]
    at.text_input(key="cmp_query").input("cat").run()  # a rerun of the same session reuses it
    assert not at.exception and built == [1200, 3]
    _close_session(at)

    at = _upload(_compare_page())  # another session, the same demo, the same upload
    assert built == [1200, 3, 3]  # the demo's table was shared; the upload's had gone with its session
    # (before: the shared cache handed the closed session's table to the next one, and kept it)


def test_outside_a_session_and_for_shared_keys_the_global_cache_serves():
    calls = []

    @session_memo.session_or_shared(st.cache_data, 4, 2)
    def double(_payload, key: str, x: int):
        calls.append(x)
        return 2 * x

    assert double(None, "k-outside", 3) == 6 and double(None, "k-outside", 3) == 6
    assert calls == [3]  # no script run: the global cache
    session_memo.share("k-shared")
    assert session_memo.is_shared("k-shared") and not session_memo.is_shared("k-outside")


def test_the_key_must_be_the_second_argument():
    with pytest.raises(TypeError, match="second argument"):
        session_memo.session_or_shared(st.cache_data, 4, 2)(lambda _a, b: b)
