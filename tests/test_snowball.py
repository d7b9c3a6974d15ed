"""meteor_core.snowball (the meteor15 preset's stemmer) gives exactly what the stemmer it replaced
gave: NLTK's Snowball English plus the correction that makes it the Meteor 1.5 jar's Java
Snowball (nltk_then_jar_correction below, kept here as the reference), for every string."""
import itertools
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as hs
from nltk.stem.snowball import SnowballStemmer

from conftest import DEMO, ROOT
from meteor_core import jar_resources, resources, snowball

_nltk_stem = SnowballStemmer("english").stem
_VOWELS = frozenset("aeiouy")


def _snowball_r2(word: str) -> int:
    """Where Porter2's R2 starts in ``word`` (after its prelude marks consonant y's as Y)."""
    w = ""
    for c in word:
        w += "Y" if c == "y" and (not w or w[-1] in _VOWELS) else c

    def region(start: int) -> int:  # after the first non-vowel that follows a vowel
        return next((k + 1 for k in range(max(start, 1), len(w)) if w[k] not in _VOWELS and w[k - 1] in _VOWELS),
                    len(w))

    prefix = next((p for p in ("gener", "commun", "arsen") if w.startswith(p)), None)
    return region(len(prefix) if prefix else region(0))


def nltk_then_jar_correction(word: str) -> str:
    """The stemmer meteor15 used before (resources._english_snowball): NLTK forgets where R2
    starts when step 2 or 3 shortens a suffix that began before R2, so step 5 keeps an "e" that
    lies in R2 ("realization" -> "realize"; the jar: "realiz")."""
    out = _nltk_stem(word)
    if out.endswith(("ize", "ate", "ive")) and not word.endswith("e") and len(out) - 1 >= _snowball_r2(word):
        out = out[:-1]
    return out


def _differences(words) -> list[tuple[str, str, str]]:
    return [(w, nltk_then_jar_correction(w), snowball.stem(w)) for w in words
            if snowball.stem(w) != nltk_then_jar_correction(w)]


def test_the_meteor15_stemmer_is_this_module_and_needs_no_nltk():
    code = ("import sys; from meteor_core import resources; stem = resources.stemmer('snowball'); "
            "print(stem('REALIZATION'), stem('realization'), 'nltk' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                         check=True).stdout.split()
    assert out == ["realize", "realiz", "False"]  # (the word as given decides R2: see snowball's docstring)
    assert resources._make_stemmer("snowball") is snowball.stem


@pytest.mark.parametrize("word,expected", [
    ("running", "run"), ("generously", "generous"), ("generalization", "general"),
    ("communism", "communism"), ("arsenal", "arsenal"), ("realization", "realiz"), ("irrationality", "irrat"),
    ("skis", "ski"), ("skies", "sky"), ("sky", "sky"), ("news", "news"), ("proceeding", "proceed"),
    ("Proceeding", "proceed"), ("dying", "die"), ("cries", "cri"), ("ties", "tie"), ("ied", "ie"),
    ("is", "is"), ("as", "as"), ("ye", "ye"), ("'s", "'s"), ("dog's", "dog"), ("dogs'", "dog"),
    ("\u2019tis", "tis"), ("'''", "'"), ("''s'", ""), ("saying", "say"), ("yelled", "yell"), ("hoped", "hope"),
    ("hopping", "hop"), ("luxuriated", "luxuri"), ("fully", "fulli"), ("CAT", "cat"), ("İİİ", "i̇i̇i̇"),
])
def test_known_stems(word, expected):
    assert snowball.stem(word) == nltk_then_jar_correction(word) == expected


def test_every_token_of_the_ted_set():
    tokens = {t for path in DEMO.glob("*.eng") for line in path.read_text(encoding="utf-8").splitlines()
              for t in line.split()}
    words = tokens | {t.lower() for t in tokens}
    assert len(words) > 5000
    assert _differences(words) == []


def test_every_lemma_of_wordnet():
    if not resources.wordnet_available():
        pytest.skip("WordNet 3.0 is not installed")
    index = resources.wordnet().index
    lemmas = {lemma for pos in index for lemma in index[pos]}
    assert len(lemmas) > 140_000
    assert _differences(lemmas | {w.capitalize() for w in lemmas}) == []


def test_every_word_of_the_jars_synonym_dictionary():
    if not jar_resources.jar_available():
        pytest.skip("the Meteor 1.5 jar is not installed")
    synonyms = jar_resources.synonyms()
    words = ({*synonyms._raw, *synonyms._bases, *itertools.chain.from_iterable(synonyms._bases.values()),
              *jar_resources.function_words()})
    assert len(words) > 150_000
    assert _differences(words) == []


def test_every_short_string_over_the_letters_that_matter():
    letters = "aeysdlgi'Y"  # vowels, y and Y, the plural and -ed/-ing letters, an apostrophe
    words = ("".join(t) for n in range(5) for t in itertools.product(letters, repeat=n))
    assert _differences(words) == []


_SUFFIXES = sorted({rule[0] if isinstance(rule, tuple) else rule for rule in
                    (*snowball._STEP2, *snowball._STEP3, *snowball._STEP4)} |
                   {"s", "'s", "'s'", "'", "ly", "ed", "ing", "eed", "eedly", "ingly", "edly", "ies", "ied", "sses",
                    "us", "ss", "y", "e", "l", "ll", "at", "bl", "iz", "tt", "hop", "logi", "cli", "xli"})
_PREFIXES = ["", "gener", "commun", "arsen", "'", "\u2019", "\u2018", "\u201b", "y", "ay", "Gener", "İ"]


@settings(max_examples=3000, deadline=None, derandomize=True)
@given(hs.text(alphabet="aeiouyyyYeessslldgnbtrcxwzI'\u2019éİß", max_size=12))
def test_random_strings(word):
    assert snowball.stem(word) == nltk_then_jar_correction(word)


@settings(max_examples=3000, deadline=None, derandomize=True)
@given(hs.sampled_from(_PREFIXES), hs.text(alphabet="bcdfglmnprstvwxzaeiouy", max_size=5),
       hs.lists(hs.sampled_from(_SUFFIXES), max_size=3), hs.sampled_from([str, str.upper, str.capitalize]))
def test_random_words_made_of_suffixes(prefix, middle, suffixes, case):
    word = case(prefix + middle + "".join(suffixes))
    assert snowball.stem(word) == nltk_then_jar_correction(word)
