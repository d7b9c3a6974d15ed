"""Approximate randomization, the all-pairs report and Holm's adjustment: hand-worked cases,
brute force over every swap pattern, and sacrebleu's own AR on the same data."""
from itertools import product

import numpy as np
import pytest

from conftest import ted_lines
from meteor_core import METEOR, MeteorConfig, score_corpus
from meteor_core.analysis.compare import compare_systems
from meteor_core.analysis.significance import (
    approximate_randomization_p, holm, paired_ar, significance_report)

EXACT = MeteorConfig.meteor2005(stages=("exact",))


def _sum_score(sums):
    return sums[:, 0]  # a "metric" that is the sum of one statistic: easy to work by hand


def _masks(trials, n, seed):
    """The swap masks the test draws (sacrebleu's way of drawing them)."""
    return np.random.default_rng(seed).integers(2, size=(trials, n), dtype=bool)


def test_identical_systems_are_never_significant():
    stats = np.array([[3.0], [1.0], [4.0]])
    assert approximate_randomization_p(stats, stats, _sum_score, trials=500, seed=1) == 1.0


def test_hand_worked_three_segments():
    # A beats B by 1 on each of three segments: observed |3 - 0| = 3. A trial reaches |3| only
    # when it swaps all three segments or none (2 of the 8 patterns), so p -> 1/4; exactly, the
    # count is the number of drawn masks that are all True or all False.
    a, b = np.array([[1.0], [1.0], [1.0]]), np.zeros((3, 1))
    p = approximate_randomization_p(a, b, _sum_score, trials=10_000, seed=7)
    masks = _masks(10_000, 3, 7)
    extreme = np.count_nonzero(masks.all(axis=1) | (~masks).all(axis=1))
    assert p == (extreme + 1) / 10_001
    assert p == pytest.approx(0.25, abs=0.015)


def test_hand_worked_mixed_signs():
    # differences +2 and -1: observed |1|; the patterns give |±2 ± 1| = 3, 1, 1, 3: all >= 1, p = 1
    a, b = np.array([[2.0], [0.0]]), np.array([[0.0], [1.0]])
    assert approximate_randomization_p(a, b, _sum_score, trials=1000, seed=3) == 1.0
    # differences +3, +1: observed 4; |±3 ± 1| = 4, 2, 2, 4: half the patterns
    a, b = np.array([[3.0], [1.0]]), np.zeros((2, 1))
    p = approximate_randomization_p(a, b, _sum_score, trials=10_000, seed=3)
    masks = _masks(10_000, 2, 3)
    assert p == (np.count_nonzero(masks[:, 0] == masks[:, 1]) + 1) / 10_001


def test_meteor_ar_equals_brute_force_over_every_swap_pattern():
    """Four segments: rescore every one of the 16 pseudo-system pairs with score_corpus (the slow,
    independent path), then count the drawn masks whose pattern reaches the observed difference."""
    refs = [["the cat sat on the mat"], ["a dog ran in the park"], ["it is raining today"], ["we like tea"]]
    sys_a = ["the cat sat on the mat", "dog ran in park", "it rains today", "we like green tea"]
    sys_b = ["cat on the mat sat", "a dog ran in the park", "raining it is", "we like tea"]
    c = compare_systems({"A": sys_a, "B": sys_b}, refs, EXACT)
    observed = abs(c.results["A"].score - c.results["B"].score)
    reaches = {}
    for keep in product((True, False), repeat=4):
        pa = [x if k else y for x, y, k in zip(sys_a, sys_b, keep)]
        pb = [y if k else x for x, y, k in zip(sys_a, sys_b, keep)]
        diff = abs(score_corpus(pa, refs, EXACT).score - score_corpus(pb, refs, EXACT).score)
        reaches[keep] = diff >= observed - 1e-12
    trials, seed = 2000, 11
    expected = sum(reaches[tuple(bool(v) for v in row)] for row in _masks(trials, 4, seed))
    result = paired_ar(c, "A", "B", trials=trials, seed=seed)
    assert result.p_value == (expected + 1) / (trials + 1)
    assert result.delta == pytest.approx(c.results["B"].score - c.results["A"].score)
    assert 0 < sum(reaches.values()) < 16  # the case is not trivial


def _sacrebleu_ar(metric, baseline, system, refs, trials, seed):
    from sacrebleu.significance import Result, _paired_ar_test
    bl_stats = metric._extract_corpus_statistics(baseline, refs)
    info = {"m": (bl_stats, Result(metric._aggregate_and_compute(bl_stats).score))}
    return _paired_ar_test(info, "sys", system, refs, {"m": metric}, n_samples=trials, seed=seed)[1]["m"].p_value


def test_same_p_value_as_sacrebleu_on_bleu():
    """Our AR driven with BLEU's statistics and formula gives sacrebleu's AR p-value exactly."""
    from sacrebleu.metrics import BLEU
    ref, s1, s2 = (ted_lines(name)[:300] for name in ("ref", "sys1", "sys2"))
    bleu = BLEU()
    theirs = _sacrebleu_ar(bleu, s1, s2, [ref], 2000, 12345)
    a = np.array(bleu._extract_corpus_statistics(s1, [ref]), dtype=float)
    b = np.array(bleu._extract_corpus_statistics(s2, [ref]), dtype=float)
    ours = approximate_randomization_p(
        a, b, lambda sums: np.array([bleu._compute_score_from_stats(list(row)).score for row in sums]), 2000, 12345)
    assert ours == theirs
    assert 0.0005 < ours < 1  # a real comparison, not a degenerate one


@pytest.mark.parametrize("preset", ["meteor2005", "meteor15"])
def test_same_p_value_as_sacrebleu_on_meteor(preset):
    """sacrebleu's own AR code runs on the METEOR class (its Metric interface) and agrees."""
    ref, s1, s2 = (ted_lines(name)[600:720] for name in ("ref", "sys1", "sys2"))  # p near 0.4-0.5 there
    metric = METEOR(preset=preset)
    theirs = _sacrebleu_ar(metric, s1, s2, [ref], 1000, 99)
    c = compare_systems({"sys1": s1, "sys2": s2}, [[r] for r in ref], metric.config)
    assert paired_ar(c, "sys1", "sys2", trials=1000, seed=99).p_value == theirs
    assert 0.1 < theirs < 0.9


def test_sacrebleu_counts_a_system_against_itself_as_significant_and_we_do_not():
    from sacrebleu.metrics import BLEU
    ref, s1 = ted_lines("ref")[:50], ted_lines("sys1")[:50]
    assert _sacrebleu_ar(BLEU(), s1, s1, [ref], 200, 1) == 1 / 201  # strictly-greater rule
    c = compare_systems({"x": s1, "y": list(s1)}, [[r] for r in ref], EXACT)
    assert paired_ar(c, "x", "y", trials=200, seed=1).p_value == 1.0


def test_holm_by_hand():
    # sorted 0.01, 0.02, 0.04 with 3 tests: 0.03, max(0.03, 0.04) = 0.04, max(0.04, 0.04) = 0.04
    assert holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])  # capped at 1
    assert holm([]) == []


def test_report_with_three_systems_has_every_pair():
    ref, s1, s2 = (ted_lines(name)[:150] for name in ("ref", "sys1", "sys2"))
    s3 = [" ".join(h.split()[::-1]) for h in s1]  # sys1 reversed: clearly worse
    c = compare_systems({"sys1": s1, "sys2": s2, "rev": s3}, [[r] for r in ref], EXACT)
    report = significance_report(c, baseline="sys2", test="both", samples=200, trials=500, seed=5)
    pairs = {(e["a"], e["b"]) for e in report.pairwise}
    assert pairs == {("sys2", "sys1"), ("sys2", "rev"), ("sys1", "rev")}
    assert [e["b"] for e in report.against_baseline] == ["sys1", "rev"]
    for e in report.pairwise:
        assert e["delta"] == pytest.approx(c.results[e["b"]].score - c.results[e["a"]].score)
        assert e["p_ar_holm"] >= e["p_ar"] and e["p_bootstrap_holm"] >= e["p_bootstrap"]
        assert e["ci_low"] <= e["delta"] <= e["ci_high"]
    worst = next(e for e in report.pairwise if e["b"] == "rev" and e["a"] == "sys1")
    assert worst["delta"] < 0 and worst["p_ar"] < 0.01
    matrix = report.p_matrix(["sys1", "sys2", "rev"], "delta")
    assert matrix[0][0] is None and matrix[0][2] == pytest.approx(worst["delta"])
    assert matrix[2][0] == pytest.approx(-worst["delta"])
    only_ar = significance_report(c, test="ar", trials=100)
    assert "p_bootstrap" not in only_ar.pairwise[0] and only_ar.baseline == "sys1"
    with pytest.raises(ValueError, match="baseline"):
        significance_report(c, baseline="nope")
