"""meteor2005's stem stage stems only leftover words whose first letter a leftover word of the other
side shares (optimal._may_share_stem). That is exact only for stemmers that keep a word's first
letter: checked here over WordNet's lemmas and random strings, and the filtered stage must give
every TED segment the same result as stemming every leftover word."""
import pytest
from conftest import ted_lines
from hypothesis import given, settings, strategies as st

from meteor_core import MeteorConfig, resources, score
from meteor_core.align import optimal

KEEPING = sorted(optimal.STEMMERS_KEEPING_INITIAL)


@pytest.fixture(scope="module")
def lemmas():
    if not resources.wordnet_available():
        pytest.skip("WordNet is not installed")
    reader = resources.wordnet()
    words = set().union(*(reader.index[pos] for pos in "nvar"))
    return sorted(words | {w.capitalize() for w in words})


@pytest.mark.parametrize("name", KEEPING)
def test_stemmer_keeps_the_initial_of_every_wordnet_lemma(name, lemmas):
    stem = resources._make_stemmer(name)  # not the memo: 300,000 words would fill it
    changed = [(w, stem(w)) for w in lemmas if not stem(w).startswith(w.lower()[:1])]
    assert changed == []


@pytest.mark.parametrize("name", KEEPING)
@settings(max_examples=3000, deadline=None)
@given(word=st.text(alphabet=st.sampled_from("aeiouyYsSdgilnt'-İßéÅ"), max_size=9))
def test_stemmer_keeps_the_initial_of_any_string(name, word):
    assert resources._make_stemmer(name)(word).startswith(word.lower()[:1])


def test_stemmers_that_change_initials_are_not_filtered():
    # The original algorithm stems "s" to "", Snowball drops a leading apostrophe: both would
    # lose stem matches under the filter.
    assert resources._make_stemmer("porter-original")("s") == ""
    assert resources._make_stemmer("snowball")("'clock") == "clock"
    assert {"porter-original", "snowball"}.isdisjoint(optimal.STEMMERS_KEEPING_INITIAL)


def test_only_words_sharing_an_initial_are_stemmed():
    hyp, ref = "zebras quickly jumped", "a zebra jumping slowly"
    free = optimal._may_share_stem(hyp.split(), ref.split(), range(3), range(4), "porter")
    assert free == ([0, 2], [1, 2])  # "quickly" has no q-word opposite, "a" and "slowly" no partner
    assert optimal._may_share_stem(hyp.split(), ref.split(), range(3), range(4), "snowball") == (range(3), range(4))


def test_filtered_stem_stage_scores_the_ted_set_as_stemming_everything(monkeypatch):
    config = MeteorConfig.preset("meteor2005")
    pairs = list(zip(ted_lines("sys1"), ted_lines("ref")))[:600]
    filtered = [score(h, [r], config).to_dict() for h, r in pairs]
    monkeypatch.setattr(optimal, "STEMMERS_KEEPING_INITIAL", frozenset())
    everything = [score(h, [r], config).to_dict() for h, r in pairs]
    assert filtered == everything
    assert sum(d["matches_by_stage"].get("stem", 0) for d in filtered) > 20  # the stage does match
