"""meteor_core.porter gives exactly NLTK's PorterStemmer().stem (and its ORIGINAL_ALGORITHM mode)
for every string: on all of WordNet's lemmas, every token of the TED set, NLTK's irregular
forms, the quirks of NLTK's rule tables, and generated strings."""
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st
from nltk.stem.porter import PorterStemmer

from conftest import DEMO, ROOT
from meteor_core import porter, resources

NLTK = PorterStemmer()
NLTK_ORIGINAL = PorterStemmer(mode=PorterStemmer.ORIGINAL_ALGORITHM)


def _differences(words):
    """(word, NLTK's stem, ours) for each word where either mode differs."""
    out = [(w, NLTK.stem(w), porter.stem(w)) for w in words if porter.stem(w) != NLTK.stem(w)]
    out += [(w, NLTK_ORIGINAL.stem(w), porter.stem(w, nltk_extensions=False)) for w in words
            if porter.stem(w, nltk_extensions=False) != NLTK_ORIGINAL.stem(w)]
    return out


@pytest.mark.skipif(not resources.wordnet_available(), reason="WordNet is not installed")
def test_identical_to_nltk_on_every_wordnet_lemma():
    index = resources.wordnet().index
    lemmas = sorted({lemma for pos in ("n", "v", "a", "r") for lemma in index[pos]})
    assert len(lemmas) > 140_000
    words = lemmas + [w.capitalize() for w in lemmas] + [w.upper() for w in lemmas]
    different = _differences(words)
    assert not different, f"{len(different)} differ, first: {different[:10]}"


def test_identical_to_nltk_on_every_token_of_the_ted_set():
    files = sorted(DEMO.glob("*.eng")) + sorted((ROOT.parent / "shared" / "data" / "ted-slk-eng").glob("*.eng"))
    tokens = {t for f in files for t in f.read_text(encoding="utf-8").split()}
    assert len(tokens) > 5_000
    different = _differences(sorted(tokens))
    assert not different, f"{len(different)} differ, first: {different[:10]}"


def test_nltk_irregular_forms_and_quirks():
    pool = [form for forms in (["sky", "skies"], ["dying"], ["lying"], ["tying"], ["news"], ["innings", "inning"],
                               ["outings", "outing"], ["cannings", "canning"], ["howe"], ["proceed"], ["exceed"],
                               ["succeed"]) for form in forms]
    quirks = [
        "", "a", "I", "is", "as", "us", "ys", "İs", "İ", "ß",  # len(word) <= 2 (before lower-casing) is kept
        "ties", "dies", "flies", "spies", "died", "tied", "spied", "cried",  # -ies / -ied on four letters
        "happy", "enjoy", "sky", "spy", "fly", "try", "yy", "ay", "by", "toy", "syzygy", "yyyy", "yyyyy",  # step 1c
        "feed", "agreed", "bleed", "plastered", "bled", "motoring", "sing", "hopping", "tanned", "falling",
        "hissing", "fizzed", "failing", "filing", "axed", "oxing", "owing", "boxing", "yyyed", "ayed",
        "a*ded", "ba*ding", "*ded", "yy*ding",  # NLTK's "*d" rule name, tested as a suffix
        "\nyed", "\nying", "-yed", "1ying", "yed", "ying", "xyed", "\nyy",  # a y after any consonant is a vowel
        "rational", "relational", "conditional", "radically", "rationalli", "formalli", "fulli", "hopefulli",
        "geologi", "theologi", "logi", "bli", "abli", "conformabli", "sensibiliti", "vietnamization",
        "triplicate", "formative", "electrical", "hopeful", "goodness", "adoption", "communism", "replacement",
        "adjustment", "dependent", "cease", "rate", "probate", "controll", "roll", "generalizations",
    ]
    different = _differences(pool + quirks + [w.upper() for w in pool + quirks])
    assert not different, different
    assert porter.stem("dying") == "die" and porter.stem("a*ded") == "ad" and porter.stem("ties") == "tie"


_LETTERS = "aeiouyyyyeeessslbcdgmnrtvwxzAEYSİßéüñ0123456789'-*ſﬁ \n"


@settings(max_examples=3000, deadline=None, database=None)
@given(st.text(alphabet=_LETTERS, max_size=14))
def test_identical_to_nltk_on_generated_strings(word):
    assert porter.stem(word) == NLTK.stem(word)
    assert porter.stem(word, nltk_extensions=False) == NLTK_ORIGINAL.stem(word)


# Every suffix of every step (and the letters their rules look at), to be stacked on any characters.
_SUFFIXES = ["s", "es", "ies", "sses", "ss", "ed", "eed", "ied", "ing", "y", "at", "bl", "iz", "*d", "ational", "tional",
             "enci", "anci", "izer", "bli", "abli", "alli", "entli", "eli", "ousli", "ization", "ation", "ator", "alism",
             "iveness", "fulness", "ousness", "aliti", "iviti", "biliti", "fulli", "logi", "icate", "ative", "alize",
             "iciti", "ical", "ful", "ness", "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment",
             "ent", "sion", "tion", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize", "e", "ll", "l"]


@settings(max_examples=3000, deadline=None, database=None)
@given(st.text(max_size=6) | st.text(alphabet=_LETTERS, max_size=6),
       st.lists(st.sampled_from(_SUFFIXES), max_size=3))
def test_identical_to_nltk_on_any_characters_before_suffixes(stem, suffixes):
    word = stem + "".join(suffixes)
    assert porter.stem(word) == NLTK.stem(word)
    assert porter.stem(word, nltk_extensions=False) == NLTK_ORIGINAL.stem(word)


def test_the_porter_stemmers_are_ours_and_import_no_nltk():
    code = ("import sys\nfrom meteor_core import resources\n"
            "print(resources.stemmer('porter')('generalizations'), resources.stemmer('porter-original')('is'),"
            " 'nltk' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    assert out.stdout.split() == ["gener", "i", "False"]
