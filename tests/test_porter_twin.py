"""The Porter stemmer against its C twin (_porter_stem.pyx, for ASCII words): the same stem in both
modes on all of WordNet's lemmas (as written, capitalised, upper case) and on random strings that
end in Porter's suffixes; non-ASCII words are stemmed by porter.py's own code.
(tests/test_porter.py holds porter.stem, C path included, to NLTK's own stemmer.)"""
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_core import _accel, porter, resources

TWIN = _accel.twin("meteor_core._porter_stem")
needs_twin = pytest.mark.skipif(TWIN is None and not os.environ.get("METEOR_REQUIRE_ACCEL"),
                                reason="the C twin is not built (python build_accel.py)")

SUFFIXES = ("ies sses ss s eed ed ing ied y alli bli abli entli eli ousli fulli enci anci aliti iviti biliti logi "
            "ational tional ization ation izer ator iveness fulness ousness alism icate alize ative ical ful ness "
            "iciti al ance ence er ic able ible ant ement ment ent sion tion ion ou ism ate iti ous ive ize e ll at "
            "bl iz *d").split()


def _pure(word: str, nltk_extensions: bool) -> str:
    """porter.stem's own code, whether or not the twin is built."""
    twin, porter._C_STEM = porter._C_STEM, None
    try:
        return porter.stem(word, nltk_extensions)
    finally:
        porter._C_STEM = twin


@needs_twin
@pytest.mark.skipif(not resources.wordnet_available(), reason="WordNet is not installed")
def test_every_wordnet_lemma_stems_alike_in_c():
    index = resources.wordnet().index
    lemmas = sorted({lemma for pos in index for lemma in index[pos]})
    words = [w for w in lemmas + [w.capitalize() for w in lemmas] + [w.upper() for w in lemmas] if w.isascii()]
    assert len(words) > 400_000
    for nltk_extensions in (True, False):
        different = [w for w in words if TWIN.stem(w, nltk_extensions) != _pure(w, nltk_extensions)]
        assert not different, (nltk_extensions, different[:10])


@needs_twin
@settings(max_examples=10_000, deadline=None, derandomize=True)
@given(st.text(alphabet="aeiouyYbcdlstgnmrwxzA*'-0", max_size=9),
       st.lists(st.sampled_from(SUFFIXES), max_size=3).map("".join), st.booleans())
def test_random_strings_stem_alike_in_c(start, suffixes, nltk_extensions):
    word = start + suffixes
    assert TWIN.stem(word, nltk_extensions) == _pure(word, nltk_extensions)


@needs_twin
def test_non_ascii_words_are_stemmed_by_the_pure_code():
    assert porter.stem("Naïvely") == _pure("Naïvely", True) == "naïv"
    with pytest.raises(ValueError):
        TWIN.stem("naïvely")
