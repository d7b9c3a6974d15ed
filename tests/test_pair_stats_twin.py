"""scorer's statistics against their C twin (_pair_stats.pyx): Meteor 1.x's word counts and the
chunks and crossings, the same on random alignments (phrases, every stage, crossing and touching
matches, tuples and Match objects), and handed back (None) where scorer.py must count itself;
stats' Meteor 1.x formula, the same bits on random statistics and settings.
(tests/test_accel.py holds every to_dict field compiled against pure over the whole TED set.)"""
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_core import _accel, scorer
from meteor_core import stats as stats_module
from meteor_core.align import Match
from meteor_core.config import STAGES, MeteorConfig
from meteor_core.stats import MeteorStats

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


def _pure_scores_1x(statistics, config):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stats_module, "_C_STATS", None)
        return stats_module.compute(statistics, config)


@st.composite
def meteor1x_stats(draw):
    """Statistics of one segment or a corpus, with the per-stage counts inside the lengths (or
    not: a sum of segments need not look like one), and a Meteor 1.x configuration."""
    counts = st.tuples(*[st.integers(0, 60)] * len(STAGES))
    hc, hf, rc, rf = draw(counts), draw(counts), draw(counts), draw(counts)
    hyp_len = sum(hc) + sum(hf) + draw(st.integers(0, 30))
    ref_len = sum(rc) + sum(rf) + draw(st.integers(0, 30))
    matches = draw(st.integers(1, 60))
    statistics = MeteorStats(matches, hyp_len, ref_len, draw(st.integers(1, matches)),
                             draw(st.integers(0, hyp_len)), draw(st.integers(0, ref_len)), hc, hf, rc, rf,
                             draw(st.integers(0, 200)), draw(st.integers(0, 200)))
    unit = st.floats(0.0, 1.0)
    config = MeteorConfig.meteor15(alpha=draw(unit), beta=draw(st.floats(0.0, 10.0)), gamma=draw(unit),
                                   delta=draw(unit), char_based=draw(st.booleans()),
                                   module_weights=draw(st.tuples(*[unit] * len(STAGES))))
    return statistics, config


@needs_twin
@settings(max_examples=3_000, deadline=None, derandomize=True)
@given(meteor1x_stats())
def test_the_meteor1x_formula_gives_the_same_bits_in_c(case):
    """stats._compute_1x on C doubles against its Python: every field equal to the last bit."""
    statistics, config = case
    found = stats_module.compute(statistics, config)
    assert found == _pure_scores_1x(statistics, config)
    assert TWIN.scores_1x(statistics, config.delta, config.module_weights, config.alpha, config.beta,
                          config.gamma, config.char_based) == tuple(found)


@needs_twin
def test_the_meteor1x_formula_by_hand_in_c():
    # 2 of 3 hyp words and 2 of 4 ref words matched exactly, no function words, 1 chunk; the
    # jar's English defaults: alpha 0.85, beta 0.2, gamma 0.6, delta 0.75, weights 1 0.6 0.8 0.6.
    statistics = MeteorStats(2, 3, 4, 1, 0, 0, (2, 0, 0, 0), (0, 0, 0, 0), (2, 0, 0, 0), (0, 0, 0, 0))
    precision, recall, fmean, fragmentation, penalty, score = TWIN.scores_1x(
        statistics, 0.75, (1.0, 0.6, 0.8, 0.6), 0.85, 0.2, 0.6, False)
    assert precision == 1.5 / 2.25 and recall == 1.5 / 3.0
    assert fmean == 1.0 / (0.15 / precision + 0.85 / recall)
    assert fragmentation == 0.5 and penalty == 0.6 * 0.5 ** 0.2 and score == fmean * (1.0 - penalty)
