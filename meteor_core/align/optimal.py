"""The paper's aligner (Banerjee & Lavie 2005): stage by stage (exact, stem, synonym), each
stage's alignment with the most mappings, then the fewest crossings, found by an exact search
(``search.py``) over the words the earlier stages left unmatched."""
from __future__ import annotations

from collections import defaultdict
from operator import itemgetter
from typing import Sequence

from .. import _accel, resources
from ..config import MeteorConfig
from .search import Budget, solve_classes, solve_stage, split_classes
from .types import Alignment


def align_optimal(hyp, ref, config: MeteorConfig, budget: Budget) -> Alignment:
    free_h: Sequence[int] = range(len(hyp))  # still-unmatched positions, in increasing order
    free_r: Sequence[int] = range(len(ref))
    fixed: list[tuple[int, int]] = []
    matches: list[tuple] = []  # Match's fields as plain tuples (see Alignment)
    proven = True
    stem = resources.stemmer(config.stemmer, config.language) if "stem" in config.stages else None
    for stage in config.stages:
        if not free_h or not free_r:
            break
        if stage == "exact":
            if len(free_h) == len(hyp) and len(free_r) == len(ref):  # the usual first stage
                keys_h, keys_r = hyp, ref
            else:
                keys_h, keys_r = list(map(hyp.__getitem__, free_h)), list(map(ref.__getitem__, free_r))
            pairs, ok = solve_classes(*split_classes(free_h, keys_h, free_r, keys_r), fixed, budget)
            matches += [(i, j, stage, hyp[i], 1, 1) for i, j in pairs]
        elif stage == "stem":
            if _C_STEM_KEYS is not None and config.stemmer in STEMMERS_KEEPING_INITIAL:  # the same on int ids
                found = _C_STEM_KEYS.stem_keys(hyp, ref, free_h, free_r, stem, resources.MEMO_LIMIT)
                if found is None:
                    continue
                stem_h, keys_h, stem_r, keys_r = found
            else:
                stem_h, stem_r = _may_share_stem(hyp, ref, free_h, free_r, config.stemmer)
                if not stem_h:
                    continue
                keys_h = list(map(stem, map(hyp.__getitem__, stem_h)))
                keys_r = list(map(stem, map(ref.__getitem__, stem_r)))
                if set(keys_h).isdisjoint(keys_r):  # the usual case: no stem left to share
                    continue
            pairs, ok = solve_classes(*split_classes(stem_h, keys_h, stem_r, keys_r), fixed, budget)
            matches += [(i, j, stage, stem(hyp[i]), 1, 1) for i, j in pairs]
        else:
            if budget.clock_started:  # loading once is not the segment's search time (before the clock
                # starts, a load inside the stage is not counted anyway; asking costs µs a segment)
                budget.extend(resources.load_synonyms(config.synonym_source))
            candidates = _synonym_candidates(hyp, ref, free_h, free_r, config)
            pairs, ok = solve_stage(candidates, fixed, budget) if candidates else ([], True)  # (most often none)
            matches += [(i, j, stage, _via(stage, hyp[i], ref[j], stem, config), 1, 1) for i, j in pairs]
        proven = proven and ok
        if pairs and stage != config.stages[-1]:  # the next stage works on what is left
            fixed += pairs
            free_h, free_r = _left_free(free_h, free_r, pairs)
    matches.sort()  # by hypothesis position (each position is matched once)
    return _new(Alignment, (tuple(matches), proven))


def _left_free(free_h, free_r, pairs) -> tuple[list[int], list[int]]:
    """The positions of ``free_h`` and ``free_r`` (increasing) that no pair takes, in order."""
    if _C_STEM_KEYS is not None:  # the same lists, with marks in a C array instead of two sets
        return _C_STEM_KEYS.left_free(free_h, free_r, pairs)
    # (set tests in comprehensions: compiled, each is a C call, not a call of __contains__)
    taken_h, taken_r = set(map(_first, pairs)), set(map(_second, pairs))
    return [i for i in free_h if i not in taken_h], [j for j in free_r if j not in taken_r]


_first, _second = itemgetter(0), itemgetter(1)
_new = tuple.__new__  # Alignment(...) at C speed (a NamedTuple's own __new__ is Python code)

# Stemmers that never change a word's first letter (after lower-casing): Porter's rules only
# replace suffixes and keep at least one letter before them, and NLTK's extensions ("dying" ->
# "die", words of one or two letters kept) keep it too (tests/test_stem_initials.py checks every
# WordNet lemma and random strings). Not the original algorithm ("s" -> "") nor Snowball, which
# drops a leading apostrophe.
STEMMERS_KEEPING_INITIAL = frozenset({"porter"})


def _may_share_stem(hyp, ref, free_h, free_r, stemmer: str) -> tuple[Sequence[int], Sequence[int]]:
    """The free positions worth stemming. Stemming a word the first time it is seen is most of
    a cold corpus run's stem stage (NLTK's Porter, ~10 µs a word); with a stemmer that keeps the
    initial letter, two words can share a stem only if they share it, and most leftover words
    share it with no leftover word of the other side."""
    if stemmer not in STEMMERS_KEEPING_INITIAL:
        return free_h, free_r
    initials_h = [_initial(hyp[i]) for i in free_h]
    initials_r = [_initial(ref[j]) for j in free_r]
    shared = set(initials_h).intersection(initials_r)
    if not shared:
        return (), ()
    return ([i for i, c in zip(free_h, initials_h) if c in shared],
            [j for j, c in zip(free_r, initials_r) if c in shared])


# A word's first letter after lower-casing, memoised: a dict hit costs less than lower() and a
# slice (which make two new strings).
_initial = resources.WordMemo(lambda word: word.lower()[:1]).__getitem__


def _index(keys_by_position) -> dict[str, list[int]]:
    index = defaultdict(list)
    for j, key in keys_by_position:
        index[key].append(j)
    return index


# The paper's synonym relation on int arrays (align/_synonym_candidates.pyx), and the stem stage's
# inputs on int ids (align/_stem_keys.pyx), when built and up to date (else None).
_C_SYNONYMS = _accel.twin("meteor_core.align._synonym_candidates")
_C_STEM_KEYS = _accel.twin("meteor_core.align._stem_keys")


def _synonym_candidates(hyp, ref, free_h, free_r, config) -> dict[int, list[int]]:
    """Hypothesis position -> reference positions the synonym stage may pair it with."""
    if config.synonym_lookup == "stems":  # NLTK's relation: ref stem is a lemma of a hyp-stem synset
        stem = resources.stemmer(config.stemmer, config.language)
        by_stem = _index((j, stem(ref[j])) for j in free_r)
        out = {}
        for i in free_h:
            js = {j for name in resources.nltk_synonyms(stem(hyp[i])) for j in by_stem.get(name, ())}
            if js:
                out[i] = sorted(js)
        return out
    # The paper's relation: the two words share a WordNet synset. Words without synsets
    # (punctuation, most function words) cannot match here: identical words matched earlier.
    if _C_SYNONYMS is not None:  # (it keeps each word's keys: no set or memo entry is made for it)
        return _C_SYNONYMS.synonym_candidates(hyp, ref, free_h, free_r, config.synonym_source,
                                              resources.unmemoised_synonym_keys(config.synonym_source),
                                              resources.MEMO_LIMIT)
    keys = resources.synonym_sets(config.synonym_source)
    ref_synsets = list(map(keys, map(ref.__getitem__, free_r)))
    anywhere = frozenset().union(*ref_synsets)  # most words share none: skip them fast
    out = {}
    of_word: dict[str, list[int]] = {}  # a word repeated on the hypothesis side is compared once
    for i in free_h:
        word = hyp[i]
        js = of_word.get(word)
        if js is None:
            mine = keys(word)
            js = of_word[word] = ([j for j, theirs in zip(free_r, ref_synsets) if not mine.isdisjoint(theirs)]
                                  if not mine.isdisjoint(anywhere) else [])
        if js:
            out[i] = js
    return out


def _via(stage, h, r, stem, config) -> str:
    if stage == "exact":
        return h
    if stage == "stem":
        return stem(h)
    if config.synonym_lookup == "stems":
        sh, sr = stem(h), stem(r)
        return resources.synset_with_lemma(sh, sr) or sh
    if _C_SYNONYMS is not None and config.synonym_source == "wordnet":  # the keys its C twin just kept
        return resources.shared_synset_of_keys(h, r, _C_SYNONYMS.shared_wordnet_keys) or h
    return resources.shared_synset_in(config.synonym_source, h, r) or h
