"""scorer's statistics against their C twin (_pair_stats.pyx): Meteor 1.x's word counts and the
chunks and crossings, the same on random alignments (phrases, every stage, crossing and touching
matches, tuples and Match objects), and handed back (None) where scorer.py must count itself.
(tests/test_accel.py holds every to_dict field compiled against pure over the whole TED set.)"""
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_core import _accel, scorer
from meteor_core.align import Match
from meteor_core.config import STAGES

TWIN = _accel.twin("meteor_core._pair_stats")
needs_twin = pytest.mark.skipif(TWIN is None and not os.environ.get("METEOR_REQUIRE_ACCEL"),
                                reason="the C twin is not built (python build_accel.py)")
FUNCTION_WORDS = frozenset({"the", "of", "a"})
WORDS = ["the", "of", "a", "cat", "sat", "mat"]


def _pure_chunks_and_crossings(matches, monkeypatch):
    with monkeypatch.context() as patch:
        patch.setattr(scorer, "_C_STATS", None)
        return scorer._chunks_and_crossings(matches)


@st.composite
def alignments(draw):
    hyp = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=30))
    ref = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=30))
    matches = []
    for _ in range(draw(st.integers(0, 40))):
        nh, nr = draw(st.sampled_from([(1, 1), (1, 1), (1, 2), (2, 1), (3, 2)]))
        i = draw(st.integers(0, max(0, len(hyp) - nh)))
        j = draw(st.integers(0, max(0, len(ref) - nr)))
        if i + nh <= len(hyp) and j + nr <= len(ref):
            match = (i, j, draw(st.sampled_from(STAGES)), "via", nh, nr)
            matches.append(Match(*match) if draw(st.booleans()) else match)
    return hyp, ref, matches


@needs_twin
@settings(max_examples=5_000, deadline=None, derandomize=True)
@given(alignments())
def test_random_alignments_count_alike_in_c(alignment):
    hyp, ref, matches = alignment
    found = TWIN.word_counts(matches, hyp, ref, FUNCTION_WORDS, scorer._STAGE_INDEX, len(STAGES))
    assert found == scorer._word_counts(matches, hyp, ref, FUNCTION_WORDS)
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert TWIN.chunks_and_crossings(matches) == _pure_chunks_and_crossings(matches, monkeypatch)
        monkeypatch.setattr(scorer, "_C_STATS", None)
        assert TWIN.packed(matches) == scorer._packed(matches) == tuple(x for m in matches for x in m)


@needs_twin
def test_hand_computed_chunks_crossings_and_counts():
    # hyp "the cat sat", ref "cat the sat": the -> the, cat -> cat (crossing), sat -> sat (stem)
    matches = [(0, 1, "exact", "the", 1, 1), (1, 0, "exact", "cat", 1, 1), (2, 2, "stem", "sat", 1, 1)]
    assert TWIN.chunks_and_crossings(matches) == (3, 1)
    counts = TWIN.word_counts(matches, ["the", "cat", "sat"], ["cat", "the", "sat"], FUNCTION_WORDS,
                              scorer._STAGE_INDEX, len(STAGES))
    assert counts == ((1, 1, 0, 0), (1, 0, 0, 0), (1, 1, 0, 0), (1, 0, 0, 0), 1, 1)


@needs_twin
def test_packed_lays_the_matches_fields_end_to_end():
    matches = [(0, 1, "exact", "the", 1, 1), Match(2, 2, "stem", "sat", 1, 1)]
    packed = TWIN.packed(matches)
    assert packed == (0, 1, "exact", "the", 1, 1, 2, 2, "stem", "sat", 1, 1) and type(packed) is tuple
    assert TWIN.packed([]) == () and TWIN.packed(iter(matches)) == packed  # any iterable of matches
    assert TWIN.packed([[0, 1, "exact", "a", 1, 1]]) == (0, 1, "exact", "a", 1, 1)  # a list: Python's way


@needs_twin
def test_what_the_twin_cannot_count_goes_back_to_scorer(monkeypatch):
    # a match past the sentence's end: scorer.py's own code decides (its slices stop at the end)
    outside = [(2, 0, "exact", "x", 2, 1)]
    assert TWIN.word_counts(outside, ["a", "b", "c"], ["c"], FUNCTION_WORDS, scorer._STAGE_INDEX, 4) is None
    # more chunks than the quadratic count suits: scorer.py's Fenwick tree, the same answer
    many = [(k, 400 - k, "exact", "w", 1, 1) for k in range(300)]
    assert TWIN.chunks_and_crossings(many) is None
    assert scorer._chunks_and_crossings(many) == _pure_chunks_and_crossings(many, monkeypatch) == (300, 300 * 299 // 2)
