"""Word alignment in stages (exact, stem, synonym), optimal or NLTK-greedy.

Both aligners take the normalised token lists (already lower-cased when the config says so)
and return ``Alignment``: the matches sorted by hypothesis position, each with its stage and
``via``, the word, stem or WordNet synset that links the two tokens.
"""
from __future__ import annotations

from collections import defaultdict
from itertools import filterfalse
from operator import itemgetter
from typing import NamedTuple, Sequence

from . import resources
from .config import MeteorConfig
from .search import Budget, solve_classes, solve_stage, split_classes


class Match(NamedTuple):
    hyp_index: int
    ref_index: int
    stage: str  # "exact" | "stem" | "synonym" | "paraphrase"
    via: str  # the shared word, the shared stem, the WordNet synset, or the paraphrase pair
    # Paraphrase matches link phrases: hyp_index .. hyp_index + hyp_length - 1 to the ref span.
    hyp_length: int = 1
    ref_length: int = 1

    @property
    def hyp_positions(self) -> range:
        return range(self.hyp_index, self.hyp_index + self.hyp_length)

    @property
    def ref_positions(self) -> range:
        return range(self.ref_index, self.ref_index + self.ref_length)

    def to_dict(self) -> dict:
        d = {"hyp_index": self.hyp_index, "ref_index": self.ref_index, "stage": self.stage, "via": self.via}
        if self.hyp_length != 1 or self.ref_length != 1:
            d["hyp_length"], d["ref_length"] = self.hyp_length, self.ref_length
        return d


class Alignment(NamedTuple):
    # Sorted by hypothesis position; each a Match or a plain tuple of Match's six fields (the
    # optimal aligner's: cheaper to make, and the garbage collector can stop tracking them).
    matches: tuple[tuple, ...]
    optimal: bool  # True when the search proved the alignment optimal (greedy: False)


def align(hyp: list[str], ref: list[str], config: MeteorConfig, budget: Budget | None = None) -> Alignment:
    if config.uses_synonyms:
        resources.wordnet()  # fail loudly, before any work, when WordNet is missing
    if config.aligner == "greedy":
        return _align_greedy(hyp, ref, config)
    if config.aligner == "meteor-beam":
        from .beam import align_meteor_beam  # imports this module: resolve at call time
        return align_meteor_beam(hyp, ref, config)
    return _align_optimal(hyp, ref, config, budget or Budget.for_seconds(0.5))


# --- the paper's aligner -------------------------------------------------------------------


def _align_optimal(hyp, ref, config: MeteorConfig, budget: Budget) -> Alignment:
    free_h: Sequence[int] = range(len(hyp))  # still-unmatched positions, in increasing order
    free_r: Sequence[int] = range(len(ref))
    fixed: list[tuple[int, int]] = []
    matches: list[tuple] = []  # Match's fields as plain tuples (see Alignment)
    proven = True
    stem = resources.stemmer(config.stemmer)
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
            keys_h = list(map(stem, map(hyp.__getitem__, free_h)))
            keys_r = list(map(stem, map(ref.__getitem__, free_r)))
            if set(keys_h).isdisjoint(keys_r):  # the usual case: no stem left to share
                continue
            pairs, ok = solve_classes(*split_classes(free_h, keys_h, free_r, keys_r), fixed, budget)
            matches += [(i, j, stage, stem(hyp[i]), 1, 1) for i, j in pairs]
        else:
            pairs, ok = solve_stage(_synonym_candidates(hyp, ref, free_h, free_r, config), fixed, budget)
            matches += [(i, j, stage, _via(stage, hyp[i], ref[j], stem, config), 1, 1) for i, j in pairs]
        proven = proven and ok
        if pairs and stage != config.stages[-1]:  # the next stage works on what is left
            fixed += pairs
            free_h = list(filterfalse(set(map(_first, pairs)).__contains__, free_h))
            free_r = list(filterfalse(set(map(_second, pairs)).__contains__, free_r))
    matches.sort()  # by hypothesis position (each position is matched once)
    return Alignment(tuple(matches), proven)


_first, _second = itemgetter(0), itemgetter(1)


def _index(keys_by_position) -> dict[str, list[int]]:
    index = defaultdict(list)
    for j, key in keys_by_position:
        index[key].append(j)
    return index


def _synonym_candidates(hyp, ref, free_h, free_r, config) -> dict[int, list[int]]:
    """Hypothesis position -> reference positions the synonym stage may pair it with."""
    if config.synonym_lookup == "stems":  # NLTK's relation: ref stem is a lemma of a hyp-stem synset
        stem = resources.stemmer(config.stemmer)
        by_stem = _index((j, stem(ref[j])) for j in free_r)
        out = {}
        for i in free_h:
            js = {j for name in resources.nltk_synonyms(stem(hyp[i])) for j in by_stem.get(name, ())}
            if js:
                out[i] = sorted(js)
        return out
    # The paper's relation: the two words share a WordNet synset. Words without synsets
    # (punctuation, most function words) cannot match here: identical words matched earlier.
    keys = resources.synsets_of
    ref_synsets = list(map(keys, map(ref.__getitem__, free_r)))
    anywhere = frozenset().union(*ref_synsets)  # most words share none: skip them fast
    out = {}
    for i, mine in zip(free_h, map(keys, map(hyp.__getitem__, free_h))):
        if not mine.isdisjoint(anywhere):
            out[i] = [j for j, theirs in zip(free_r, ref_synsets) if not mine.isdisjoint(theirs)]
    return out


def _via(stage, h, r, stem, config) -> str:
    if stage == "exact":
        return h
    if stage == "stem":
        return stem(h)
    if config.synonym_lookup == "stems":
        sh, sr = stem(h), stem(r)
        return resources.synset_with_lemma(sh, sr) or sh
    return resources.shared_synset(h, r) or h


# --- NLTK's greedy aligner, reproduced step by step ------------------------------------------


def _greedy_pass(hyp_items, ref_items, related):
    """NLTK's _match_enums / _enum_wordnetsyn_match: hypothesis right to left, each taking the
    right-most free reference word it relates to. Items are (original position, current form)."""
    ref_positions = defaultdict(list)
    for k, (_, word) in enumerate(ref_items):
        ref_positions[word].append(k)
    pairs, used_h, used_r = [], set(), set()
    for k in range(len(hyp_items) - 1, -1, -1):
        best_k, best_word = -1, None
        for word in related(hyp_items[k][1]):
            positions = ref_positions.get(word)
            if positions and positions[-1] > best_k:
                best_k, best_word = positions[-1], word
        if best_word is not None:
            ref_positions[best_word].pop()
            used_h.add(k)
            used_r.add(best_k)
            pairs.append((hyp_items[k], ref_items[best_k]))
    rest_h = [item for k, item in enumerate(hyp_items) if k not in used_h]
    rest_r = [item for k, item in enumerate(ref_items) if k not in used_r]
    return pairs, rest_h, rest_r


def _align_greedy(hyp, ref, config: MeteorConfig) -> Alignment:
    stem = resources.stemmer(config.stemmer)
    hyp_items = list(enumerate(hyp))
    ref_items = list(enumerate(ref))
    matches = []
    for stage in config.stages:
        if stage == "exact":
            pairs, hyp_items, ref_items = _greedy_pass(hyp_items, ref_items, lambda w: (w,))
            matches += [Match(h[0], r[0], stage, h[1]) for h, r in pairs]
        elif stage == "stem":
            # NLTK's quirk: the left-over words are *replaced* by their stems from here on.
            hyp_items = [(i, stem(w)) for i, w in hyp_items]
            ref_items = [(j, stem(w)) for j, w in ref_items]
            pairs, hyp_items, ref_items = _greedy_pass(hyp_items, ref_items, lambda w: (w,))
            matches += [Match(h[0], r[0], stage, h[1]) for h, r in pairs]
        elif config.synonym_lookup == "stems":
            pairs, hyp_items, ref_items = _greedy_pass(hyp_items, ref_items, resources.nltk_synonyms)
            matches += [
                Match(h[0], r[0], stage, resources.synset_with_lemma(h[1], r[1]) or h[1]) for h, r in pairs
            ]
        else:  # greedy order, but the paper's relation: the two words share a synset
            syn_of = {w: resources.synsets_of(w) for _, w in ref_items}
            related = lambda w: (w, *[x for x, s in syn_of.items() if s & resources.synsets_of(w)])
            pairs, hyp_items, ref_items = _greedy_pass(hyp_items, ref_items, related)
            matches += [Match(h[0], r[0], stage, resources.shared_synset(h[1], r[1]) or h[1]) for h, r in pairs]
    return Alignment(tuple(sorted(matches, key=lambda m: m.hyp_index)), False)
