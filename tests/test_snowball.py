"""meteor15's English stemmer is the jar's englishStemmer (meteor_core/snowball_langs/english.py,
translated from the jar's generated Java like the other languages): its stems against the jar on
the TED tokens, WordNet's lemmas and every word of the jar's synonym dictionary, as they are and
capitalised. NLTK's SnowballStemmer differs from it ("realization": NLTK "realize", the jar
"realiz"; NLTK lower-cases, the jar does not), which is why NLTK's is not used."""
import itertools
import os
import subprocess
import sys

import pytest

from conftest import DEMO, ROOT
from jar_oracle import java_status, jar_stems, passes_through
from meteor_core import jar_resources, resources, snowball_langs
from meteor_core.snowball_langs import english

needs_java = pytest.mark.skipif(java_status() is not None and os.environ.get("METEOR_REQUIRE_JAVA") != "1",
                                reason=str(java_status()))


def test_the_meteor15_stemmer_is_the_jars_english_and_needs_no_nltk():
    code = ("import sys; from meteor_core import resources; stem = resources.stemmer('snowball'); "
            "print(stem('realization'), stem('REALIZATION'), stem('running'), 'nltk' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT, check=True).stdout.split()
    assert out == ["realiz", "REALIZATION", "run", "False"]
    assert resources._make_stemmer("snowball") is snowball_langs.stemmer("english")  # english.stem or its C twin


@pytest.mark.parametrize("word,expected", [
    # checked against the jar (java -cp meteor-1.5.jar Stemmer en)
    ("running", "run"), ("generously", "generous"), ("generalization", "general"), ("communism", "communism"),
    ("arsenal", "arsenal"), ("realization", "realiz"), ("irrationality", "irrat"), ("skis", "ski"),
    ("skies", "sky"), ("news", "news"), ("proceeding", "proceed"), ("dying", "die"), ("cries", "cri"),
    ("ties", "tie"), ("saying", "say"), ("hoped", "hope"), ("hopping", "hop"), ("fully", "fulli"),
    ("separativeed", "separative"), ("dog's", "dog"),
])
def test_known_stems(word, expected):
    assert english.stem(word) == expected


def _words_of_english() -> list[str]:
    words = {t for path in DEMO.glob("*.eng") for line in path.read_text(encoding="utf-8").splitlines()
             for t in line.split()}
    if resources.wordnet_available():
        index = resources.wordnet().index
        words |= {lemma for pos in index for lemma in index[pos]}
    if jar_resources.jar_available():
        synonyms = jar_resources.synonyms()
        words |= {*synonyms._raw, *synonyms._bases, *itertools.chain.from_iterable(synonyms._bases.values()),
                  *jar_resources.function_words()}
    words |= {w.lower() for w in words} | {w.capitalize() for w in words}
    return sorted(w for w in words if passes_through(w))


@needs_java
def test_every_english_word_we_have_stems_as_the_jar():
    words = _words_of_english()
    assert len(words) > 300_000
    expected = jar_stems("english", words, timeout=900)
    differ = [(w, english.stem(w), e) for w, e in zip(words, expected) if english.stem(w) != e]
    assert differ == [], differ[:20]
