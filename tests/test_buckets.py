"""METEOR by reference-length and word-frequency bucket, with bootstrap intervals."""
import pytest

from conftest import ted_lines
from meteor_core import MeteorConfig, score_corpus
from meteor_core.analysis.buckets import (
    FREQUENCY_CUTOFFS, LENGTH_CUTOFFS, bucket_labels, frequency_buckets, length_buckets)
from meteor_core.analysis.compare import compare_systems

EXACT = MeteorConfig.meteor2005(stages=("exact",))


def test_labels_as_compare_mt_names_them():
    assert bucket_labels(LENGTH_CUTOFFS) == ["<10", "[10,20)", "[20,30)", "[30,40)", "[40,50)", "[50,60)", ">=60"]
    assert bucket_labels(FREQUENCY_CUTOFFS) == ["0", "1", "2", "3", "4", "[5,10)", "[10,100)", "[100,1000)", ">=1000"]


def test_length_buckets_are_corpus_meteor_of_their_segments():
    refs = [["one two three"], ["a b c d e"], ["w " * 12], ["x " * 15], ["the cat sat"]]
    hyps = ["one three two", "a b c", "w " * 10, "x y " * 5, "the cat sat"]
    c = compare_systems({"s": hyps}, refs, EXACT)
    rows = {r["bucket"]: r for r in length_buckets(c, cutoffs=(5, 10), samples=200)}
    assert set(rows) == {"<5", "[5,10)", ">=10"}  # no empty bucket listed
    assert rows["<5"]["segments"] == 2 and rows["[5,10)"]["segments"] == 1 and rows[">=10"]["segments"] == 2
    short = score_corpus([hyps[0], hyps[4]], [refs[0], refs[4]], EXACT).score
    assert rows["<5"]["METEOR"] == pytest.approx(short)
    assert rows["<5"]["ci_low"] <= short <= rows["<5"]["ci_high"]
    # one segment: every resample is that segment, the interval is a point
    assert rows["[5,10)"]["ci_low"] == pytest.approx(rows["[5,10)"]["METEOR"]) == pytest.approx(rows["[5,10)"]["ci_high"])


def test_frequency_buckets_by_hand():
    # reference counts: a 3, b 1, c 1; "d" is in no reference (bucket "0")
    refs, hyps = [["a a b"], ["a c"]], ["a b d", "a c"]
    c = compare_systems({"s": hyps}, refs, EXACT)
    rows = {r["bucket"]: r for r in frequency_buckets(c, samples=100)}
    assert set(rows) == {"0", "1", "3"}
    assert (rows["0"]["hyp words"], rows["0"]["ref words"], rows["0"]["precision"]) == (1, 0, 0.0)
    assert rows["0"]["recall"] is None and rows["0"]["fmean"] is None and rows["0"]["ci_low"] is None
    assert (rows["1"]["precision"], rows["1"]["recall"], rows["1"]["fmean"]) == (1.0, 1.0, 1.0)
    # "a": hyp 2 of 2 matched, ref 2 of 3 (seg 1 has two a's, the hypothesis one)
    p, r = 1.0, 2 / 3
    assert rows["3"]["precision"] == p and rows["3"]["recall"] == pytest.approx(r)
    assert rows["3"]["fmean"] == pytest.approx(p * r / (0.9 * p + 0.1 * r))


def test_ted_buckets_cover_everything_and_intervals_bracket():
    ref, s1, s2 = (ted_lines(name)[:200] for name in ("ref", "sys1", "sys2"))
    c = compare_systems({"sys1": s1, "sys2": s2}, [[r] for r in ref], MeteorConfig.meteor2005())
    lengths = length_buckets(c, samples=300)
    for name in ("sys1", "sys2"):
        mine = [r for r in lengths if r["system"] == name]
        assert sum(r["segments"] for r in mine) == 200
        for r in mine:
            assert r["ci_low"] <= r["ci_high"]
            if r["segments"] >= 20:
                assert r["ci_low"] <= r["METEOR"] <= r["ci_high"]
    words = frequency_buckets(c, samples=300)
    total_ref_words = sum(len(s.ref_tokens) for s in c.results["sys1"].segments)
    assert sum(r["ref words"] for r in words if r["system"] == "sys1") == total_ref_words
    for r in words:
        if r["ref words"] >= 200 and r["hyp words"]:
            assert r["ci_low"] <= r["fmean"] <= r["ci_high"]
    # rare words are harder than frequent ones for these systems
    by_bucket = {r["bucket"]: r for r in words if r["system"] == "sys1"}
    assert by_bucket["1"]["recall"] < by_bucket["[10,100)"]["recall"]
