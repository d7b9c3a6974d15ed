"""System comparison: corpus table, wins, paired bootstrap, table input and the compare CLI."""
import json
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT, ted_lines
from meteor_core import MeteorConfig
from meteor_core.analysis.compare import compare_systems, corpus_scores, paired_bootstrap
from meteor_core.stats import MeteorStats, compute
from meteor_core.textio import InputError, decode_table

EXACT = MeteorConfig.meteor2005(stages=("exact",))
REFS = [["the cat sat on the mat"], ["a dog ran in the park"], ["it is raining today"], ["we like green tea"]] * 5
GOOD = ["the cat sat on the mat", "a dog ran in the park", "it is raining today", "we like green tea"] * 5
BAD = ["cat the mat", "dog park", "raining it", "tea we"] * 5


def test_corpus_rows_and_wins():
    c = compare_systems({"good": GOOD, "bad": BAD}, REFS, EXACT)
    rows = {r["system"]: r for r in c.corpus_rows()}
    # identical to the references: m = 100 tokens, 20 chunks (one a segment), P = R = 1
    assert rows["good"]["corpus METEOR"] == pytest.approx(1 - 0.5 * (20 / 100) ** 3)
    assert rows["good"]["segments won"] == 20 and rows["bad"]["segments won"] == 0 and rows["good"]["ties"] == 0
    assert rows["good"]["corpus METEOR"] > rows["bad"]["corpus METEOR"]
    # corpus score from summed statistics, not the mean of segment scores
    assert rows["bad"]["corpus METEOR"] == pytest.approx(c.results["bad"].score)
    assert rows["good"]["matches"] == 100 and rows["good"]["chunks"] == 20


def test_vectorised_formula_equals_compute():
    rng = np.random.default_rng(0)
    for config in (EXACT, MeteorConfig.meteor2005(alpha=0.5, beta=2.0, gamma=0.3)):
        rows = rng.integers(0, 40, size=(200, 4)).astype(float)
        rows[:, 1:3] += rows[:, [0]]  # lengths >= matches
        rows[:, 3] = np.minimum(rows[:, 3], rows[:, 0])
        rows[:, 3] = np.where(rows[:, 0] > 0, np.maximum(rows[:, 3], 1), 0)
        got = corpus_scores(rows, config)
        want = [compute(MeteorStats(*map(int, r)), config).score for r in rows]
        assert np.allclose(got, want, atol=1e-12)


def test_bootstrap_is_reproducible_and_signed():
    c = compare_systems({"good": GOOD, "bad": BAD}, REFS, EXACT)
    t1 = paired_bootstrap(c, "bad", "good", samples=300, seed=7)
    t2 = paired_bootstrap(c, "bad", "good", samples=300, seed=7)
    assert t1 == t2
    assert t1.delta == pytest.approx(c.results["good"].score - c.results["bad"].score) and t1.delta > 0
    assert 0 < t1.ci_low <= t1.ci_high and t1.p_value < 0.01
    reverse = paired_bootstrap(c, "good", "bad", samples=300, seed=7)
    assert reverse.delta == pytest.approx(-t1.delta) and reverse.ci_high < 0
    other_seed = paired_bootstrap(c, "bad", "good", samples=300, seed=8)
    assert other_seed.ci_low != t1.ci_low


def test_bootstrap_of_equal_systems_is_not_significant():
    mixed_a = GOOD[:10] + BAD[10:]
    mixed_b = BAD[:10] + GOOD[10:]
    c = compare_systems({"a": mixed_a, "b": mixed_b}, REFS, EXACT)
    t = paired_bootstrap(c, "a", "b", samples=500, seed=1)
    assert t.ci_low < 0 < t.ci_high and t.p_value > 0.05


def test_decode_table_formats():
    tsv = decode_table(b"source\tref\tA\tB\nx\ta b\ta\tb\ny\tc\tc\td\n", "t.tsv")
    assert tsv.references == [["a b"], ["c"]] and tsv.systems == {"A": ["a", "c"], "B": ["b", "d"]}
    assert tsv.sources == ["x", "y"]
    csv_ = decode_table(b'ref1,ref2,sysA,sysB\n"a, b",c,a,b\n', "t.csv")
    assert csv_.references == [["a, b", "c"]] and list(csv_.systems) == ["sysA", "sysB"]
    jsonl = decode_table(b'{"ref": "a", "A": "a", "B": "b"}\n{"ref": "c", "A": "c", "B": ""}\n', "t.jsonl")
    assert jsonl.systems["B"] == ["b", ""]


@pytest.mark.parametrize("data,name,message", [
    (b"src\tA\tB\nx\ta\tb\n", "t.tsv", "no reference column"),
    (b"ref\tA\na\tb\n", "t.tsv", "two or more system columns"),
    (b"ref\tA\tB\na\tb\n", "t.tsv", "line 2 has 2 fields"),
    (b"ref\tA\tB\n", "t.tsv", "no segments"),
    (b'{"ref": "a", "A": "a", "B": "b"}\n{"ref": "c", "A": "c"}\n', "t.jsonl", "segment 2 has no value for B"),
    (b'{"ref": "a"\n', "t.jsonl", "not JSON"),
    (b"\xff\xfe r", "t.csv", "not UTF-8"),
    (b"", "t.csv", "empty"),
])
def test_decode_table_errors(data, name, message):
    with pytest.raises(InputError, match=message):
        decode_table(data, name)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "meteor_core", "compare", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_compare_cli_prints_table_and_bootstrap(tmp_path):
    (tmp_path / "ref.txt").write_text("\n".join(r[0] for r in REFS) + "\n")
    (tmp_path / "good.txt").write_text("\n".join(GOOD) + "\n")
    (tmp_path / "bad.txt").write_text("\n".join(BAD) + "\n")
    p = run_cli("--ref", str(tmp_path / "ref.txt"), "--sys", str(tmp_path / "good.txt"),
                "--sys", str(tmp_path / "bad.txt"), "--samples", "200", "--no-synonyms")
    assert p.returncode == 0, p.stderr
    assert "good.txt" in p.stdout and "segments won" in p.stdout
    assert "bad.txt - good.txt = -" in p.stdout and "significant at 0.05" in p.stdout
    j = run_cli("--ref", str(tmp_path / "ref.txt"), "--sys", str(tmp_path / "good.txt"),
                "--sys", str(tmp_path / "bad.txt"), "--samples", "200", "--no-synonyms", "--format", "json")
    data = json.loads(j.stdout)
    assert data["segments"] == 20 and data["bootstrap"][0]["delta"] < 0
    (tmp_path / "short.txt").write_text("one line\n")
    bad = run_cli("--ref", str(tmp_path / "ref.txt"), "--sys", str(tmp_path / "good.txt"), "--sys", str(tmp_path / "short.txt"))
    assert bad.returncode == 2 and "line counts differ" in bad.stderr and "Traceback" not in bad.stderr
    one = run_cli("--ref", str(tmp_path / "ref.txt"), "--sys", str(tmp_path / "good.txt"))
    assert one.returncode == 2 and "at least two --sys" in one.stderr


def test_compare_cli_on_a_table(tmp_path):
    rows = ["ref\tgood\tbad"] + [f"{r[0]}\t{g}\t{b}" for r, g, b in zip(REFS, GOOD, BAD)]
    (tmp_path / "set.tsv").write_text("\n".join(rows) + "\n")
    p = run_cli("--table", str(tmp_path / "set.tsv"), "--samples", "100", "--no-synonyms")
    assert p.returncode == 0 and "bad - good" in p.stdout


def test_ted_systems_compare():
    ref, s1, s2 = (ted_lines(name)[:200] for name in ("ref", "sys1", "sys2"))
    c = compare_systems({"sys1": s1, "sys2": s2}, [[r] for r in ref])
    t = paired_bootstrap(c, "sys1", "sys2", samples=200)
    assert t.ci_low <= t.delta <= t.ci_high


def test_bootstrap_under_meteor15_uses_the_1x_formula():
    c = compare_systems({"good": GOOD, "bad": BAD}, REFS, MeteorConfig.meteor15(stages=("exact", "stem")))
    t = paired_bootstrap(c, "bad", "good", samples=50, seed=3)
    assert t.delta == pytest.approx(c.results["good"].score - c.results["bad"].score)
    assert t.ci_low <= t.delta <= t.ci_high
    # resampling every segment exactly once gives back the corpus score
    from meteor_core.analysis.compare import sample_scores, stat_matrix
    full = stat_matrix(c.results["good"].segments).sum(axis=0, keepdims=True)
    assert sample_scores(full, c.config)[0] == pytest.approx(c.results["good"].score)


def test_resampled_sums_are_the_rows_summed_to_the_bit():
    """stat_arrays.resampled_sums sums whole-number statistics as draw counts times rows (5x
    faster): the same floats as matrix[ids].sum(axis=1), on the TED set's statistics in two
    presets (meteor15's too are counts per module: its weights come in the formula), on random
    whole numbers, on tables (the buckets' word counts), and by the row-by-row path for fractions
    and for resamples of a subset (a bucket's members)."""
    from meteor_core.analysis.compare import stat_matrix
    from meteor_core.analysis.stat_arrays import resampled_sums
    from meteor_core.scorer import score_corpus

    rng = np.random.default_rng(7)
    refs, hyps = ted_lines("ref")[:300], ted_lines("sys1")[:300]
    ted = stat_matrix(score_corpus(hyps, [[r] for r in refs], MeteorConfig.meteor2005()).segments)
    ted15 = stat_matrix(score_corpus(hyps, [[r] for r in refs], MeteorConfig.preset("meteor15")).segments)
    cases = [ted, ted15, rng.integers(0, 1000, size=(50, 7)).astype(float),
             rng.integers(0, 9, size=(40, 3, 4)).astype(float), rng.random((30, 5)) * 10]
    for matrix in cases:
        ids = rng.integers(0, len(matrix), size=(25, len(matrix)))
        assert np.array_equal(resampled_sums(matrix, ids), matrix[ids].sum(axis=1))
    members = np.array([3, 8, 9])  # a bucket's segments, resampled among themselves
    ids = members[rng.integers(0, 3, size=(20, 3))]
    assert np.array_equal(resampled_sums(ted, ids), ted[ids].sum(axis=1))
