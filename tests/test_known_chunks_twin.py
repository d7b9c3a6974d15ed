"""punct's known chunks against their C twin (_known_chunks.pyx): a ChunkSet holds what a Python
set holds, and splits a line as str.split() does (every Unicode space, every storage width),
saying whether every chunk is known and handing back its own objects for those it knows.
(tests/test_tokenize.py checks the tokens; tests/test_accel.py the whole TED set.)"""
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_core import _accel, tokenize

TWIN = _accel.twin("meteor_core._known_chunks")
needs_twin = pytest.mark.skipif(TWIN is None and not os.environ.get("METEOR_REQUIRE_ACCEL"),
                                reason="the C twin is not built (python build_accel.py)")

# Spaces str.split() cuts at (ASCII, the separators \x1c-\x1f, no-break and ideographic spaces,
# a line separator) and characters of every storage width (1, 2 and 4 bytes a character).
SPACES = " \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u2003\u2028\u3000"
LETTERS = "ab.'é€漢\U0001F600-"
texts = st.text(alphabet=SPACES + LETTERS, max_size=40)
words = st.text(alphabet=LETTERS, min_size=1, max_size=4)


@needs_twin
@settings(max_examples=3_000, deadline=None, derandomize=True)
@given(st.lists(words, max_size=12), texts)
def test_a_chunk_set_splits_and_knows_as_a_python_set(known, text):
    chunks = TWIN.ChunkSet()
    chunks.update(known)
    expected = text.split()
    found, all_known = chunks.split(text)
    assert found == expected and all(type(c) is str for c in found)
    assert all_known == set(known).issuperset(expected)
    for chunk in found:
        assert (chunk in chunks) == (chunk in set(known))
        if chunk in chunks:  # the set's own object: its hash is already cached
            assert any(chunk is k for k in chunks)
    assert len(chunks) == len(set(known)) and set(chunks) == set(known)


@needs_twin
def test_a_chunk_set_grows_and_empties():
    chunks = TWIN.ChunkSet()
    many = [f"w{k}" for k in range(20_000)]  # past several doublings of the table
    chunks.update(many)
    chunks.add("w7")  # already there
    assert len(chunks) == 20_000 and all(w in chunks for w in many) and "w20000" not in chunks
    assert chunks.split("w1 w19999 x") == (["w1", "w19999", "x"], False)
    assert 3 not in chunks and None not in chunks  # not a string: never in it
    with pytest.raises(TypeError):
        chunks.add(None)
    with pytest.raises(TypeError):
        chunks.split(None)
    chunks.clear()
    assert len(chunks) == 0 and "w1" not in chunks and chunks.split(" w1 ") == (["w1"], False)


@needs_twin
def test_punct_uses_the_twin_and_knows_the_same_chunks():
    assert isinstance(tokenize._whole_chunks, TWIN.ChunkSet)
    line = "the cat , n't K. Miller"
    assert tokenize.punct(line) == ["the", "cat", ",", "n't", "K.", "Miller"]
    assert all(chunk in tokenize._whole_chunks for chunk in ("the", "cat", ",", "n't", "Miller"))
    assert "K." not in tokenize._whole_chunks  # an initial depends on the next word: never known
    assert tokenize._known_split(line)[1] is False and tokenize._known_split("the cat ,")[1] is True
