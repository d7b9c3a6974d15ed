"""Caches shared by every session of a server: keys that name all of their value, unambiguously.

Two AppTest sessions in one process share Streamlit's caches exactly as two visitors of one
server do, so each test below runs two sessions whose inputs collided under the old key.
"""
import pytest
import streamlit as st
from hypothesis import given
from hypothesis import strategies as hs
from streamlit.testing.v1 import AppTest

from components.cache_keys import digest
from conftest import ROOT
from meteor_core import MeteorConfig, score_corpus

SYSTEMS = ("the cat sat on the mat", "a dog barked"), ("cat the mat on sat", "dog a barked")


def _table(header: list[str], rows: list[list[str]]) -> bytes:
    """A CSV table (csv rules: a cell holding a tab, comma or quote is quoted)."""
    import csv
    import io
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *rows])
    return out.getvalue().encode()


def _session_with_table(data: bytes):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at = at.switch_page("app_pages/compare.py").run()
    at.radio(key="cmp_source").set_value(at.radio(key="cmp_source").options[2]).run()
    at.file_uploader(key="cmp_table").upload("set.csv", data).run()
    assert not at.exception, at.exception
    return at


def _segment_table(at):
    return next(d.value for d in at.dataframe if "segment" in d.value.columns)


@pytest.fixture(autouse=True)
def _fresh_caches():
    st.cache_data.clear()
    st.cache_resource.clear()
    yield


def test_sources_of_one_visitor_never_reach_another():
    refs = ["the cat sat on the mat", "a dog barked"]

    def rows(sources):
        return [[src, ref, good, bad] for src, ref, good, bad in zip(sources, refs, *SYSTEMS)]

    first = _session_with_table(_table(["source", "ref", "good", "bad"], rows(["secret A one", "secret A two"])))
    assert list(_segment_table(first)["source"]) == ["secret A one", "secret A two"]
    second = _session_with_table(_table(["source", "ref", "good", "bad"], rows(["B one", "B two"])))
    assert list(_segment_table(second)["source"]) == ["B one", "B two"]
    # a third visitor with the same systems and references but no source column sees no source at all
    third = _session_with_table(_table(["ref", "good", "bad"], [r[1:] for r in rows(["x", "y"])]))
    assert "source" not in _segment_table(third).columns


def test_a_cell_holding_a_tab_is_not_two_reference_columns():
    hyps = ["x y", "x y"], ["y", "x"]
    one_column = _table(["ref", "good", "bad"], [["x\ty", hyps[0][k], hyps[1][k]] for k in range(2)])
    two_columns = _table(["ref1", "ref2", "good", "bad"], [["x", "y", hyps[0][k], hyps[1][k]] for k in range(2)])
    first = _session_with_table(one_column)
    second = _session_with_table(two_columns)
    assert list(_segment_table(first)["reference"]) == ["x\ty", "x\ty"]
    assert list(_segment_table(second)["reference"]) == ["x", "x"]
    config = MeteorConfig.meteor2005()
    for at, refs in ((first, [["x\ty"]] * 2), (second, [["x", "y"]] * 2)):
        table = _segment_table(at)
        for system, lines in zip(("good", "bad"), hyps):
            expected = [s.score for s in score_corpus(lines, refs, config).segments]
            assert list(table[system]) == expected


def test_other_settings_are_other_keys():
    a = MeteorConfig.meteor2005()
    b = MeteorConfig.meteor2005(paraphrase_table=None, lowercase=False)
    assert digest(a.to_dict()) != digest(b.to_dict())


texts = hs.lists(hs.text(max_size=4), max_size=4)


@given(hs.lists(texts, max_size=4), hs.lists(texts, max_size=4))
def test_digest_equal_only_for_equal_values(x, y):
    assert (digest(x) == digest(y)) == (x == y)


@given(texts, texts)
def test_joined_texts_never_collide(x, y):
    """The old keys joined texts with separators: ["a\\tb"] and ["a", "b"] gave one key."""
    if x != y:
        assert digest(x) != digest(y)
        assert digest({"s": x}) != digest({"s": y})


def test_types_are_part_of_the_value():
    assert len({digest(v) for v in (None, 0, False, 0.0, "", b"", [], (), {}, "0", ["0"])}) == 11 - 1  # [] == ()
    with pytest.raises(TypeError):
        digest(object())
