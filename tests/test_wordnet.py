"""meteor_core's WordNet reader on inflected forms: synset_keys spells NLTK's morphy out (a direct
lookup when no exception or suffix rule applies, the rules ending in the word's last letter
otherwise), so it is checked against NLTK's own wordnet.synsets on words that take every rule."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_core import resources

# Every suffix some rule of morphy removes or rewrites, and endings no rule touches.
ENDINGS = ["s", "es", "ies", "ses", "ves", "xes", "zes", "ches", "shes", "men", "ed", "ing", "er", "est", "ly", ""]


def test_synset_keys_agree_with_nltk_on_inflected_forms():
    from nltk.corpus import wordnet as wn

    reader = resources.wordnet()
    rng = random.Random(7)
    lemmas = sorted(set().union(*(reader.index[pos] for pos in "nvar")))
    words = [lemma + ending for lemma in rng.sample(lemmas, 150) for ending in ENDINGS]
    words += rng.sample(sorted(set().union(*reader.exceptions.values())), 200)  # irregular forms: geese, ran
    words += ["", "s", "men", "Running", "BOXES", "ladies", "wolves", "women", "better", "was"]
    for word in words:
        keys = reader.synset_keys(word)
        assert [reader.synset_name(k) for k in keys] == [s.name() for s in wn.synsets(word)], word


def morphy_keys(reader, word):
    """NLTK's wordnet.synsets(word) as keys, the plain way: per part of speech, the word and its
    exception's forms, or else the word and every form its rules make, each once, those indexed."""
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    substitutions = WordNetCorpusReader.MORPHOLOGICAL_SUBSTITUTIONS
    word = word.lower()
    keys = []
    for p, pos in enumerate("nvar"):
        exceptions = reader.exceptions[pos]
        if word in exceptions:
            forms = [word, *exceptions[word]]
        else:
            forms = [word] + [word[: -len(old)] + new for old, new in substitutions[pos] if word.endswith(old)]
        for form in dict.fromkeys(forms):
            keys += [key for key in reader.lemma_keys(form) if key & 3 == p]
    return keys


def test_synset_keys_are_morphy_on_every_lemma_and_its_inflections():
    reader = resources.wordnet()
    irregular = sorted(set().union(*reader.exceptions.values()))
    for lemma in sorted(set().union(*(reader.index[pos] for pos in "nvar"))) + irregular:
        for word in (lemma, lemma + "s", lemma + "es", lemma + "ed", lemma + "ing", lemma + "er", lemma + "est",
                     lemma + "men", lemma[:-1] + "ies", lemma.upper()):
            assert reader.synset_keys(word) == morphy_keys(reader, word), word


@settings(max_examples=10_000, deadline=None, derandomize=True)
@given(st.text(alphabet="aeiouybcdfghlmnrstvwxzA-'_ .É", max_size=10))
def test_synset_keys_are_morphy_on_random_strings(word):
    reader = resources.wordnet()
    assert reader.synset_keys(word) == morphy_keys(reader, word)


def test_the_unmemoised_synonym_keys_are_the_memoised_sets_and_fill_no_memo():
    """The synonym stage's C twin keeps each word's keys itself: from WordNet it is handed the
    reader's keys as they are, the same synsets as synonym_sets, and the word-to-set memo stays as it was."""
    keys = resources.unmemoised_synonym_keys("wordnet")
    words = ["big", "Large", "running", "geese", "boxes", "the", ",", "", "xqzv"]
    memo = resources.synsets_of.__self__
    before = dict(memo)
    found = [frozenset(keys(word)) for word in words]
    assert dict(memo) == before
    assert found == [resources.synonym_sets("wordnet")(word) for word in words]
    assert found[0] and found[1] & found[0] and not found[5] and not found[-1]


def test_a_synsets_head_is_its_entrys_type_and_first_lemma_for_every_synset():
    """synset_name reads only the start of a synset's data line (_head); a fresh reader (nothing
    remembered from whole lines) gives, for every synset of every part of speech, the type and
    first lemma name the whole line gives (adjective markers stripped, long first words included)."""
    from meteor_core.wordnet import WordNet

    reader = resources.wordnet()
    fresh = WordNet(reader.location)
    keys = sorted({key for keys in reader._keys_of.values() for key in keys})
    assert len(keys) > 100_000
    for key in keys:
        kind, names = reader._entry(key)
        assert fresh._head(key) == (kind, names[0]), key
    assert fresh._lines.keys() <= {key for key in keys if len(fresh._head(key)[1]) > 40}  # (read whole: long words only)
