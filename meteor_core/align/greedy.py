"""NLTK's greedy aligner (nltk.translate.meteor_score), reproduced step by step, quirks included:
the stem stage replaces the left-over words by their stems, and the synonym stage looks those
stems up in WordNet.

A side's left-over words are two parallel lists: their positions in the sentence and their
current forms (the words, or their stems after the stem stage). Matches are plain tuples of
Match's six fields (see Alignment)."""
from __future__ import annotations

from itertools import compress

from .. import _accel, resources
from ..config import MeteorConfig
from .types import Alignment

# align_greedy with NLTK's synonym lookup on C data (align/_greedy_passes.pyx), when built.
_C_TWIN = _accel.twin("meteor_core.align._greedy_passes")


def _positions_of(words) -> dict[str, list[int]]:
    """word -> its indices in ``words``, in increasing order."""
    positions_of = {}
    for k, word in enumerate(words):
        positions = positions_of.get(word)
        if positions is None:
            positions_of[word] = [k]
        else:
            positions.append(k)
    return positions_of


def _same_word_pass(hyp_pos, hyp_words, ref_pos, ref_words, stage, matches):
    """NLTK's _match_enums: hypothesis right to left, each word taking the right-most free
    reference word equal to it. Appends the matches; returns what is left.

    (Plain loops: pairing every word's last occurrences at once with dicts built by
    dict(zip(...)), round after round while words repeat, took 1.5 times the instructions in
    pure Python and twice as many compiled.)"""
    ref_positions = _positions_of(ref_words)
    keep_h, keep_r = [True] * len(hyp_words), [True] * len(ref_words)
    found = False
    for i in range(len(hyp_words) - 1, -1, -1):
        word = hyp_words[i]
        positions = ref_positions.get(word)
        if positions:
            j = positions.pop()
            keep_h[i] = keep_r[j] = False
            found = True
            matches.append((hyp_pos[i], ref_pos[j], stage, word, 1, 1))
    if not found:
        return hyp_pos, hyp_words, ref_pos, ref_words
    return (list(compress(hyp_pos, keep_h)), list(compress(hyp_words, keep_h)),
            list(compress(ref_pos, keep_r)), list(compress(ref_words, keep_r)))


def _related_pass(hyp_pos, hyp_words, ref_pos, ref_words, related, stage, via, matches):
    """NLTK's _enum_wordnetsyn_match: hypothesis right to left, each word taking the right-most
    free reference word among ``related(word)`` (the word itself included). Appends the matches
    (``via(hyp word, ref word)`` says what links them); returns what is left."""
    ref_positions = _positions_of(ref_words)
    keep_h, keep_r = [True] * len(hyp_words), [True] * len(ref_words)
    found = False
    for i in range(len(hyp_words) - 1, -1, -1):
        best_j, best_word = -1, None
        for word in related(hyp_words[i]):
            positions = ref_positions.get(word)
            if positions and positions[-1] > best_j:
                best_j, best_word = positions[-1], word
        if best_word is not None:
            ref_positions[best_word].pop()
            keep_h[i] = keep_r[best_j] = False
            found = True
            matches.append((hyp_pos[i], ref_pos[best_j], stage, via(hyp_words[i], best_word), 1, 1))
    if not found:
        return hyp_pos, hyp_words, ref_pos, ref_words
    return (list(compress(hyp_pos, keep_h)), list(compress(hyp_words, keep_h)),
            list(compress(ref_pos, keep_r)), list(compress(ref_words, keep_r)))


def _nltk_synonyms_among(hyp_words, ref_words):
    """related(word) for NLTK's synonym stage: the word and its one-word lemma names
    (resources.nltk_synonyms), less those that cannot be among ``ref_words``; None when no
    hypothesis word can match (the usual case, found without a loop in Python).

    A lemma name is listed by WordNet's index under its lower case (resources.lemma_synsets), so
    a synset that lists a reference word is among the synsets that the reference words' own
    index entries give. A hypothesis word's synsets rarely meet those: only the shared
    synsets' lemma names are read, and a word whose synsets meet none is looked up no further."""
    ref_synsets = frozenset().union(*map(resources.lemma_synsets, ref_words))
    if (not ref_synsets or all(map(ref_synsets.isdisjoint, map(resources.synsets_of, hyp_words)))) \
            and set(ref_words).isdisjoint(hyp_words):  # (the exact and stem stages left no word on both sides)
        return None
    lemma_names = resources.wordnet().lemma_names

    def related(word):
        hyp_synsets = resources.synsets_of(word)
        if ref_synsets.isdisjoint(hyp_synsets):
            return (word,)
        return (word, *[name for key in ref_synsets.intersection(hyp_synsets)
                        for name in lemma_names(key) if "_" not in name])

    return related


def _paper_synonyms_among(ref_words, source):
    """related(word) in greedy order but with the paper's relation: the word, and the
    reference words that share a synset with it."""
    synsets = resources.synonym_sets(source)
    syn_of = {w: synsets(w) for w in ref_words}
    return lambda w: (w, *[x for x, s in syn_of.items() if s & synsets(w)])


def align_greedy(hyp, ref, config: MeteorConfig) -> Alignment:
    # (the twin knows NLTK's synonym relation only: the paper's, synonym_lookup "words", runs below)
    if _C_TWIN is not None and (config.synonym_lookup == "stems" or set(config.stages) <= {"exact", "stem"}):
        stem = resources.unmemoised_stemmer(config.stemmer, config.language) if "stem" in config.stages else None
        return _C_TWIN.align_greedy(hyp, ref, config.stages, stem)
    hyp_pos, hyp_words = list(range(len(hyp))), list(hyp)
    ref_pos, ref_words = list(range(len(ref))), list(ref)
    matches = []
    for stage in config.stages:
        if not hyp_words or not ref_words:
            break
        if stage == "exact":
            hyp_pos, hyp_words, ref_pos, ref_words = _same_word_pass(
                hyp_pos, hyp_words, ref_pos, ref_words, stage, matches)
        elif stage == "stem":
            # NLTK's quirk: the left-over words are *replaced* by their stems from here on.
            stem = resources.stemmer(config.stemmer, config.language)
            hyp_pos, hyp_words, ref_pos, ref_words = _same_word_pass(
                hyp_pos, list(map(stem, hyp_words)), ref_pos, list(map(stem, ref_words)), stage, matches)
        elif config.synonym_lookup == "stems":
            related = _nltk_synonyms_among(hyp_words, ref_words)
            if related is not None:
                hyp_pos, hyp_words, ref_pos, ref_words = _related_pass(
                    hyp_pos, hyp_words, ref_pos, ref_words, related, stage,
                    lambda h, r: resources.synset_with_lemma(h, r) or h, matches)
        else:
            source = config.synonym_source
            hyp_pos, hyp_words, ref_pos, ref_words = _related_pass(
                hyp_pos, hyp_words, ref_pos, ref_words, _paper_synonyms_among(ref_words, source), stage,
                lambda h, r: resources.shared_synset_in(source, h, r) or h, matches)
    matches.sort()  # by hypothesis position (each position is matched once)
    return Alignment(tuple(matches), False)
