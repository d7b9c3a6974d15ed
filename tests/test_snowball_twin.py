"""The jar's English Snowball stemmer against its C twin (_english_stem.pyx): the same stem on all of
WordNet's lemmas (as written, capitalised, upper case), on random strings built from the stemmer's
suffixes, letters that turn its rules (y, Y, apostrophes) and characters outside ASCII and the BMP,
and the twin out of date as soon as english.py or the runtime it mirrors changes.
(tests/test_snowball.py holds english.stem to the jar itself.)"""
import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_core import _accel, resources, snowball_langs
from meteor_core.snowball_langs import english

TWIN = _accel.twin("meteor_core.snowball_langs._english_stem")
needs_twin = pytest.mark.skipif(TWIN is None and not os.environ.get("METEOR_REQUIRE_ACCEL"),
                                reason="the C twin is not built (python build_accel.py)")

# every string of english.py's among lists (_A_0 ... _A_10), and the replacements its routines write
SUFFIXES = sorted({entry.s for table in (getattr(english, f"_A_{k}") for k in range(11)) for entry in table.entries}
                  | {"Y", "ss", "ie", "ee", "e", "tion", "ence", "ance", "able", "ize", "og", "less", "ski"})


@needs_twin
def test_english_is_stemmed_by_the_twin_when_it_is_up_to_date():
    assert snowball_langs.stemmer("english") is TWIN.stem
    assert resources._make_stemmer("snowball") is TWIN.stem  # (meteor15's stem stage)
    assert snowball_langs.stemmer("german") is not TWIN.stem


@needs_twin
@pytest.mark.skipif(not resources.wordnet_available(), reason="WordNet is not installed")
def test_every_wordnet_lemma_stems_alike_in_c():
    index = resources.wordnet().index
    lemmas = sorted({lemma for pos in index for lemma in index[pos]})
    words = lemmas + [w.capitalize() for w in lemmas] + [w.upper() for w in lemmas]
    assert len(words) > 400_000
    different = [w for w in words if TWIN.stem(w) != english.stem(w)]
    assert not different, different[:10]


@needs_twin
@settings(max_examples=10_000, deadline=None, derandomize=True)
@given(st.text(alphabet="aeiouyYbcdlstgnmrwxzA'-0é\U0001F600\ud800", max_size=9),
       st.lists(st.sampled_from(SUFFIXES), max_size=3).map("".join),
       st.text(alphabet="ys'Y\U0001F600", max_size=2))
def test_random_strings_stem_alike_in_c(start, suffixes, end):
    word = start + suffixes + end
    assert TWIN.stem(word) == english.stem(word)


@needs_twin
def test_long_words_grow_the_buffer():
    for word in ("y" * 70 + "ational", "ay" * 500 + "ies", "\U0001F600" * 40 + "running"):
        assert TWIN.stem(word) == english.stem(word)
    assert TWIN.stem("running") == "run"  # (the shared buffer is intact after a larger word)


def test_the_twin_is_out_of_date_when_english_or_the_runtime_changes(tmp_path, monkeypatch):
    """The twin mirrors two modules: an edit to either (here in a copy of the three sources) makes
    its hash differ from the build's, and english.py's own code runs."""
    twin = "meteor_core.snowball_langs._english_stem"
    assert _accel.TWINS[twin] == ("meteor_core.snowball_langs.english", "meteor_core.snowball_langs._runtime")
    (tmp_path / "snowball_langs").mkdir()
    for name in ("_english_stem.pyx", "english.py", "_runtime.py"):
        (tmp_path / "snowball_langs" / name).write_bytes((_accel.PACKAGE / "snowball_langs" / name).read_bytes())
    monkeypatch.setattr(_accel, "PACKAGE", tmp_path)
    monkeypatch.setattr(_accel, "MANIFEST", tmp_path / "manifest.json")
    monkeypatch.setattr(_accel, "_has_binary", lambda m: True)
    monkeypatch.delenv("METEOR_PURE", raising=False)
    hashes = [_accel.source_hash(twin)]
    (tmp_path / "manifest.json").write_text(json.dumps({twin: hashes[0]}))
    for name in ("_runtime.py", "english.py", "_english_stem.pyx"):
        with open(tmp_path / "snowball_langs" / name, "a", encoding="utf-8") as source:
            source.write("# edited\n")
        hashes.append(_accel.source_hash(twin))
        assert _accel.twin(twin) is None, name
    assert len(set(hashes)) == 4
