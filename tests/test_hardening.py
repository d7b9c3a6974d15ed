"""Bad and odd input across the core, file reading and the app; property fuzzing of the core."""
import time

import pytest
import streamlit as st
from hypothesis import given, settings, strategies as hs
from streamlit.testing.v1 import AppTest

from components.inputs import MAX_TOKENS
from conftest import ROOT
from meteor_core import MeteorConfig, score
from meteor_core.resources import wordnet
from meteor_core.align.search import count_crossings
from meteor_core.textio import MAX_FILE_BYTES, MAX_SEGMENTS, InputError, decode_segments, decode_table

ODD_PAIRS = {
    "empty candidate": ("", "the cat"),
    "empty reference": ("the cat", ""),
    "whitespace only": ("   \t ", " \n "),
    "single token": ("cat", "cat"),
    "identical": ("the cat sat on the mat .", "the cat sat on the mat ."),
    "punctuation only": ("!!! ... ?", "... !!!"),
    "emoji and mixed scripts": ("I ❤️ Bratislava 🇸🇰 — Братислава 東京 مرحبا", "I love Bratislava Братислава 東京"),
    "numbers and URLs": ("call 555-1234 or see https://example.com/a?b=1 for 3.5 %",
                         "see https://example.com/a?b=1 or call 555-1234 for 3.5 %"),
    "markup": ("<script>alert('x')</script> <b>bold</b>", "<b>bold</b> text"),
    "10k characters": (" ".join(["word"] * 2000), " ".join(["word", "other"] * 1000)),
}


@pytest.mark.parametrize("name", list(ODD_PAIRS))
@pytest.mark.parametrize("preset", ["meteor2005", "nltk"])
def test_odd_pairs_score_sanely(name, preset):
    hyp, ref = ODD_PAIRS[name]
    wordnet()  # loading WordNet is not part of a segment's time
    t = time.perf_counter()
    r = score(hyp, [ref], MeteorConfig.preset(preset))
    assert time.perf_counter() - t < 2.0
    _check_result(r)
    if name == "identical":
        assert r.chunks == 1 and r.matches == len(r.hyp_tokens) and r.score > 0.99
    if name in ("empty candidate", "empty reference", "whitespace only"):
        assert r.score == 0.0 and r.matches == 0


def _check_result(r):
    assert 0.0 <= r.score <= 1.0 and 0.0 <= r.penalty <= 1.0
    n_h, n_r = len(r.hyp_tokens), len(r.ref_tokens)
    assert all(0 <= m.hyp_index < n_h and 0 <= m.ref_index < n_r for m in r.alignment)
    assert len({m.hyp_index for m in r.alignment}) == r.matches == len({m.ref_index for m in r.alignment})
    if r.matches:
        assert r.precision == pytest.approx(r.matches / n_h) and r.recall == pytest.approx(r.matches / n_r)
        assert 1 <= r.chunks <= r.matches
        assert sum(c.size for c in r.chunk_spans) == r.matches
    else:
        assert r.chunks == 0 and r.score == 0.0
    assert r.crossings == count_crossings([(m.hyp_index, m.ref_index) for m in r.alignment])


WORDS = ["the", "a", "cat", "cats", "dog", "dogs", "big", "large", "run", "runs", "ran", ".", ",", "Cat",
         "é", "東京", "😀", "<b>", "3.5", "x"]
sentences = hs.lists(hs.sampled_from(WORDS), max_size=14).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(sentences, hs.lists(sentences, min_size=1, max_size=3))
def test_fuzz_core_properties(hyp, refs):
    r = score(hyp, refs)
    _check_result(r)
    assert r.score == max(p.score for p in r.per_reference)
    for p in r.per_reference:
        _check_result(p)
    assert score(hyp, refs).to_dict() == r.to_dict()  # deterministic


@settings(max_examples=300, deadline=None)
@given(sentences, sentences)
def test_fuzz_never_worse_than_greedy(hyp, ref):
    # Same candidate pairs on both sides (exact + stem; the synonym relation of the words),
    # so "more matches" is a fair comparison; see docs/library.md for NLTK's stem-synonym quirk.
    for stages in (("exact",), ("exact", "stem"), ("exact", "stem", "synonym")):
        best = score(hyp, [ref], MeteorConfig.meteor2005(stages=stages))
        greedy = score(hyp, [ref], MeteorConfig.nltk(tokenizer="punct", synonym_lookup="words", stages=stages))
        assert best.matches >= greedy.matches
        if len(stages) == 1 and best.matches == greedy.matches:
            assert best.crossings <= greedy.crossings  # a theorem for one stage


# --- files ---------------------------------------------------------------------------------

def test_file_decoding_survives_odd_bytes():
    assert decode_segments(b"\xef\xbb\xbfa b\r\nc d\r\n", "f") == ["a b", "c d"]  # BOM, CRLF
    assert decode_segments(b"a\n\nb", "f") == ["a", "", "b"]  # an empty segment stays a segment
    long = ("x" * 10_000 + "\n").encode()
    assert decode_segments(long, "f") == ["x" * 10_000]
    for data, message in [(b"caf\xe9\n", "not UTF-8"), (b"a\x00b\n", "NUL"), (b"", "empty"),
                          (b"a\n" * (MAX_SEGMENTS + 1), "segment limit"),
                          (b"a" * (MAX_FILE_BYTES + 1), r"is over the 20 MiB \(20,971,520-byte\) limit")]:
        with pytest.raises(InputError, match=message):
            decode_segments(data, "f")
    with pytest.raises(InputError, match="no reference column"):
        decode_table(b"hyp1,hyp2\na,b\n", "t.csv")


# --- the app -------------------------------------------------------------------------------

@pytest.fixture
def explorer():
    st.cache_data.clear()
    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()


@pytest.mark.parametrize("name", list(ODD_PAIRS))
def test_explorer_survives_odd_pairs(explorer, name):
    hyp, ref = ODD_PAIRS[name]
    explorer.text_area(key="hyp").input(hyp)
    explorer.text_area(key="ref_0").input(ref)
    explorer.run()
    assert not explorer.exception
    assert explorer.text_area(key="hyp").value == hyp and explorer.text_area(key="ref_0").value == ref
    if not hyp.strip() or not ref.strip():
        assert explorer.warning
    elif max(len(hyp.split()), len(ref.split())) > MAX_TOKENS:
        assert any("limit" in w.value for w in explorer.warning)
    else:
        assert explorer.metric  # scored, whatever the text


def test_explorer_refuses_huge_text_with_a_message(explorer):
    huge = "word " * 5000
    explorer.text_area(key="hyp").input(huge).run()
    assert not explorer.exception and any("limit" in w.value for w in explorer.warning)
    assert explorer.text_area(key="hyp").value == huge


@pytest.fixture
def compare_page():
    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("app_pages/compare.py").run()
    return at.radio(key="cmp_source").set_value(at.radio(key="cmp_source").options[1]).run()


@pytest.mark.parametrize("sys_b,message", [
    (b"a\x00b\nc\n", "NUL"),
    (b"\xef\xbb\xbfx y\r\nz\r\n", None),  # BOM + CRLF: fine
    (b"only one line\n", "line counts differ"),
])
def test_compare_upload_odd_files(compare_page, sys_b, message):
    at = compare_page
    at.file_uploader(key="cmp_refs").upload("ref.txt", b"x y\nz\n").run()
    at.file_uploader(key="cmp_systems").upload("a.txt", b"x y\nz\n").upload("b.txt", sys_b).run()
    assert not at.exception
    if message:
        assert any(message in w.value for w in at.warning)
    else:
        assert not at.warning and list(at.dataframe[0].value.system) == ["a", "b"]


def test_segments_over_the_token_limit_are_refused_by_number():
    from meteor_core import score_corpus
    from meteor_core.scorer import MAX_SEGMENT_TOKENS, SegmentTooLong

    long = " ".join(["w"] * (MAX_SEGMENT_TOKENS + 1))
    with pytest.raises(SegmentTooLong, match="segment 2: a sentence has 5,001 tokens; the limit is 5,000"):
        score_corpus(["a", long], [["a"], ["b"]])
