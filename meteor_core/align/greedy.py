"""NLTK's greedy aligner (nltk.translate.meteor_score), reproduced step by step, quirks included:
the stem stage replaces the left-over words by their stems, and the synonym stage looks those
stems up in WordNet."""
from __future__ import annotations

from collections import defaultdict

from .. import resources
from ..config import MeteorConfig
from .types import Alignment, Match


def _greedy_pass(hyp_items, ref_items, related=None):
    """NLTK's _match_enums / _enum_wordnetsyn_match: hypothesis right to left, each taking the
    right-most free reference word it relates to (``related(word)`` lists the forms; None: the
    word itself, as in the exact and stem stages, without a call per word). Items are (original
    position, current form)."""
    ref_positions = defaultdict(list)
    for k, (_, word) in enumerate(ref_items):
        ref_positions[word].append(k)
    pairs, used_h, used_r = [], set(), set()
    for k in range(len(hyp_items) - 1, -1, -1):
        if related is None:
            positions = ref_positions.get(hyp_items[k][1])
            best_k = positions.pop() if positions else -1
        else:
            best_k, best_word = -1, None
            for word in related(hyp_items[k][1]):
                positions = ref_positions.get(word)
                if positions and positions[-1] > best_k:
                    best_k, best_word = positions[-1], word
            if best_word is not None:
                ref_positions[best_word].pop()
        if best_k >= 0:
            used_h.add(k)
            used_r.add(best_k)
            pairs.append((hyp_items[k], ref_items[best_k]))
    if not pairs:
        return pairs, hyp_items, ref_items
    rest_h = [item for k, item in enumerate(hyp_items) if k not in used_h]
    rest_r = [item for k, item in enumerate(ref_items) if k not in used_r]
    return pairs, rest_h, rest_r


def align_greedy(hyp, ref, config: MeteorConfig) -> Alignment:
    stem = resources.stemmer(config.stemmer)
    hyp_items = list(enumerate(hyp))
    ref_items = list(enumerate(ref))
    matches = []
    for stage in config.stages:
        if stage == "exact":
            pairs, hyp_items, ref_items = _greedy_pass(hyp_items, ref_items)
            matches += [Match(h[0], r[0], stage, h[1]) for h, r in pairs]
        elif stage == "stem":
            # NLTK's quirk: the left-over words are *replaced* by their stems from here on.
            hyp_items = [(i, stem(w)) for i, w in hyp_items]
            ref_items = [(j, stem(w)) for j, w in ref_items]
            pairs, hyp_items, ref_items = _greedy_pass(hyp_items, ref_items)
            matches += [Match(h[0], r[0], stage, h[1]) for h, r in pairs]
        elif config.synonym_lookup == "stems":
            pairs, hyp_items, ref_items = _greedy_pass(hyp_items, ref_items, resources.nltk_synonyms)
            matches += [
                Match(h[0], r[0], stage, resources.synset_with_lemma(h[1], r[1]) or h[1]) for h, r in pairs
            ]
        else:  # greedy order, but the paper's relation: the two words share a synset
            synsets = resources.synonym_sets(config.synonym_source)
            syn_of = {w: synsets(w) for _, w in ref_items}
            related = lambda w: (w, *[x for x, s in syn_of.items() if s & synsets(w)])
            pairs, hyp_items, ref_items = _greedy_pass(hyp_items, ref_items, related)
            matches += [Match(h[0], r[0], stage, resources.shared_synset_in(config.synonym_source, h[1], r[1]) or h[1])
                        for h, r in pairs]
    return Alignment(tuple(sorted(matches, key=lambda m: m.hyp_index)), False)
