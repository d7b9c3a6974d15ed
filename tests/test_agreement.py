"""Agreement with human judgments: the table reader, the vectorised formulas and correlations,
the figures against an independent scipy/sacrebleu computation on the bundled MQM set, the
bootstrap, paired tests, and bad tables."""
import gzip
import json
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from sacrebleu.metrics import BLEU, CHRF, TER
from scipy import stats

from conftest import ROOT, ted_lines
from meteor_core import MeteorConfig, score, score_corpus
from meteor_core.analysis import agreement as agree
from meteor_core.analysis import sacrebleu_metrics
from meteor_core.analysis.correlation import Pairs, kendall_b, pairwise_accuracy, pearson, spearman
from meteor_core.analysis.judgments import load_judgments, read_judgments, read_table
from meteor_core.analysis.stat_arrays import meteor_scores, stat_matrix
from meteor_core.metric import stats_from_row as from_row
from meteor_core.stats import compute
from meteor_core.textio import InputError

MQM = ROOT / "demo" / "mqm-ted-zhen-part" / "segments.jsonl.gz"
EXACT = MeteorConfig.meteor2005(stages=("exact",))


def jsonl(rows) -> bytes:
    return "\n".join(json.dumps(r) for r in rows).encode()


def ladder(n_systems=4, n_segments=6, human=lambda k: -k):
    """System k drops its last k words of the reference: worse by construction at both levels."""
    refs = ["the cat sat on the warm mat today", "a dog ran quickly in the big park",
            "it is raining over the old town now", "we like green tea with some milk",
            "they walked home along the quiet river", "she reads a long book every single night"]
    rows = []
    for s in range(n_segments):
        words = refs[s].split()
        for k in range(n_systems):
            rows.append({"system": f"sys{k}", "seg_id": s, "reference": refs[s],
                         "hypothesis": " ".join(words[:len(words) - k]), "human": human(k)})
    return rows


# --- the vectorised formulas -----------------------------------------------------------------

def _scored_stats(config, n=60):
    refs, hyps = ted_lines("ref")[:n], ted_lines("sys1")[:n]
    return [score(h, [r], config).stats for h, r in zip(hyps, refs)]


@pytest.mark.parametrize("preset", ["meteor2005", "meteor15"])
def test_meteor_scores_equal_compute_row_by_row_and_summed(preset):
    config = MeteorConfig.preset(preset)
    found = _scored_stats(config)
    matrix = stat_matrix(found)
    # a row is what the segment adds to a corpus (a perfect Meteor 1.x segment adds no chunk)
    assert [from_row(row) for row in matrix] == [s.corpus_part() for s in found]
    assert preset == "meteor2005" or any(s.corpus_part() != s for s in found)  # the case is in the data
    # numpy's power may differ from Python's in the last bit, nothing more
    assert np.allclose(meteor_scores(matrix, config), [compute(s, config).score for s in found], rtol=1e-15, atol=0)
    total = sum(found[1:], found[0])
    assert meteor_scores(matrix.sum(axis=0), config) == pytest.approx(compute(total, config).score, abs=1e-15)


@pytest.mark.parametrize("preset", ["meteor2005", "meteor15"])
def test_parameter_arrays_broadcast_over_rows(preset):
    config = MeteorConfig.preset(preset)
    matrix = stat_matrix(_scored_stats(config, 30))
    grid = [(0.3, 1.0, 0.2, 0.5), (1.0, 0.0, 0.9, 1.0), (0.0, 4.0, 1.0, 0.0)]
    a, b, g, d = (np.array(v)[:, None] for v in zip(*grid))
    params = dict(alpha=a, beta=b, gamma=g) | ({"delta": d} if preset == "meteor15" else {})
    got = meteor_scores(matrix, config, **params)
    assert got.shape == (3, 30)
    for k, (alpha, beta, gamma, delta) in enumerate(grid):
        other = MeteorConfig.preset(preset, alpha=alpha, beta=beta, gamma=gamma,
                                    **({"delta": delta} if preset == "meteor15" else {}))
        assert np.allclose(got[k], [compute(from_row(r), other).score for r in matrix], atol=1e-12, rtol=0)
    with pytest.raises(ValueError, match="cannot rescore"):
        meteor_scores(matrix, config, module_weights=1.0)


# --- sacrebleu statistics --------------------------------------------------------------------

def test_sacrebleu_statistics_give_corpus_and_sentence_scores():
    hyps = ["the cat sat on the mat", "a dog barked loudly", "hello world", ""]
    refs = [["the cat sat on a mat", "a cat was sitting on the mat"], ["the dog barked"], ["hello there world"], ["x"]]
    for name in sacrebleu_metrics.METRICS:
        rows = sacrebleu_metrics.segment_statistics(name, hyps, refs, block=2)
        assert rows.shape[0] == 4
        corpus = sacrebleu_metrics.scores_from_statistics(name, rows.sum(axis=0))
        assert corpus == pytest.approx(sacrebleu_metrics.corpus_score(name, hyps, refs), abs=1e-12)
        assert list(sacrebleu_metrics.scores_from_statistics(name, rows, sentence=True)) == \
            pytest.approx(sacrebleu_metrics.sentence_scores(name, hyps, refs), abs=1e-12)


# --- correlations over stacked rows ----------------------------------------------------------

def test_stacked_correlations_equal_scipy_with_ties_and_constants():
    rng = np.random.default_rng(5)
    x = rng.integers(0, 4, size=(40, 9)).astype(float)  # many ties
    y = rng.normal(size=(40, 9)).round(1)
    x[0] = 2.0  # constant: undefined
    pairs = Pairs.all_of(9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k in range(40):
            for mine, theirs in ((pearson(x, y)[k], stats.pearsonr(x[k], y[k]).statistic),
                                 (spearman(x, y)[k], stats.spearmanr(x[k], y[k]).statistic),
                                 (kendall_b(x, y, pairs)[k, 0], stats.kendalltau(x[k], y[k]).statistic)):
                if k == 0:
                    assert np.isnan(mine)
                else:
                    assert mine == pytest.approx(theirs, abs=1e-12)


def test_grouped_kendall_and_pairwise_accuracy_by_hand():
    # group 0: x orders (1,2,3) as y (1,3,2) in 2 of 3 pairs: tau = (2 - 1) / 3; group 1: one row only
    x = np.array([1.0, 2.0, 3.0, 5.0])
    y = np.array([1.0, 3.0, 2.0, 0.0])
    pairs = Pairs([0, 0, 0, 1])
    tau = kendall_b(x, y, pairs)
    assert tau[0] == pytest.approx(1 / 3) and np.isnan(tau[1])
    assert pairwise_accuracy(x, y, pairs)[0] == pytest.approx(2 / 3)
    # a tie on one side only counts as a disagreement
    assert pairwise_accuracy(np.array([1.0, 1.0]), np.array([1.0, 2.0]), Pairs.all_of(2))[0] == 0.0


# --- reading tables --------------------------------------------------------------------------

def test_reader_formats_missing_scores_and_more_references():
    rows = ladder(2, 2)
    rows[1]["human"] = None
    rows[2]["reference2"] = "another reference"
    table = load_judgments(jsonl(rows), "t.jsonl")
    assert table.system_names == ["sys0", "sys1"] and table.segment_order == ("0", "1")
    assert np.isnan(table.human[1]) and int(table.rated.sum()) == 3
    assert table.references[2] == (rows[2]["reference"], "another reference") and len(table.references[0]) == 1
    tsv = "system\tseg_id\thypothesis\treference\tscore\nA\t10\ta b\ta b\t-1\nB\t10\ta\ta b\t\nA\t9\tc\tc\tNA\nB\t9\tc\tc\t2.5\n"
    t = load_judgments(tsv.encode(), "t.tsv", human="score")
    assert t.segment_order == ("9", "10")  # numeric order
    assert list(np.isnan(t.human)) == [False, True, True, False]
    csv_ = load_judgments(b'system,seg_id,hypothesis,reference,human\nA,1,"x, y",x,1\nB,1,x,x,0\n', "t.csv")
    assert csv_.hypotheses == ("x, y", "x")
    gz = load_judgments(gzip.compress(jsonl(ladder(2, 2))), "t.jsonl.gz")
    assert len(gz) == 4
    assert read_table(jsonl(ladder(2, 2)), "t.jsonl").numeric_columns() == ["human"]


@pytest.mark.parametrize("change,human,message", [
    (lambda rows: [{k: v for k, v in r.items() if k != "human"} for r in rows], "human",
     "no human-score column 'human'"),
    (lambda rows: rows, "mqm", "no human-score column 'mqm'"),
    (lambda rows: [r | {"human": "good"} if k == 3 else r for k, r in enumerate(rows)], "human",
     "must hold numbers; row 4 has 'good'"),
    (lambda rows: [r | {"system": "only"} | {"seg_id": k} for k, r in enumerate(rows)], "human", "one system only"),
    (lambda rows: [r | {"human": 0} for r in rows], "human", "every human score in 'human' is 0"),
    (lambda rows: [r | {"human": None} for r in rows], "human", "no row has a human score"),
    (lambda rows: [{k: v for k, v in r.items() if k != "seg_id"} for r in rows], "human", "no column 'seg_id'"),
    (lambda rows: rows + rows[:1], "human", "repeats system 'sys0' on seg_id '0'"),
    (lambda rows: [r | {"reference": ""} if k == 2 else r for k, r in enumerate(rows)], "human", "row 3 has no reference"),
    (lambda rows: [r | {"human": float("inf")} if k == 0 else r for k, r in enumerate(rows)], "human", "must hold numbers"),
    (lambda rows: rows, "reference", "is a text column"),
])
def test_bad_tables_get_clear_messages(change, human, message):
    with pytest.raises(InputError, match=message):
        load_judgments(jsonl(change(ladder(3, 2))), "t.jsonl", human=human)


def test_bad_files():
    with pytest.raises(InputError, match="not a readable gzip"):
        load_judgments(b"not gzip", "t.jsonl.gz")
    with pytest.raises(InputError, match="line 2 is not JSON"):
        load_judgments(b'{"a": 1}\n{"a"\n', "t.jsonl")
    with pytest.raises(InputError, match="not UTF-8"):
        load_judgments(b"system,seg_id\n\xff,1\n", "t.csv")
    with pytest.raises(InputError, match="split column 'part' must say train or heldout"):
        load_judgments(jsonl([r | {"part": "dev"} for r in ladder(2, 2)]), "t.jsonl", split_column="part")


def test_a_too_long_segment_names_its_row():
    rows = [r | {"hypothesis": "a " * 5001} if k == 5 else r for k, r in enumerate(ladder(3, 2))]
    table = load_judgments(jsonl(rows), "t.jsonl")
    with pytest.raises(ValueError, match="system 'sys2', seg_id '1': a sentence has 5,001 tokens"):
        agree.score_metric(table, EXACT)


# --- figures on hand-made tables -------------------------------------------------------------

def test_a_metric_that_orders_as_people_do_agrees_perfectly():
    table = load_judgments(jsonl(ladder()), "ladder.jsonl")
    scores = agree.score_metric(table, EXACT)
    report = agree.agreement(table, [scores], samples=200, seed=1)
    f = report.metrics["meteor2005"].figures
    for measure in ("system.spearman", "system.kendall", "system.pairwise_accuracy", "segment.kendall_grouped"):
        assert f[measure].value == pytest.approx(1.0), measure
    assert f["system.pearson"].value > 0.9 and f["segment.kendall"].value > 0.5
    # people who prefer the shorter outputs: the same metric now disagrees completely
    reverse = load_judgments(jsonl(ladder(human=lambda k: k)), "reverse.jsonl")
    f = agree.agreement(reverse, [agree.score_metric(reverse, EXACT)], samples=50).metrics["meteor2005"].figures
    assert f["system.kendall"].value == pytest.approx(-1.0) and f["system.pairwise_accuracy"].value == 0.0
    assert f["segment.kendall_grouped"].value == pytest.approx(-1.0)


def test_unrated_rows_count_for_the_metric_but_not_the_correlation():
    rows = ladder()
    rows[0]["human"] = None  # sys0 on segment 0
    table = load_judgments(jsonl(rows), "t.jsonl")
    scores = agree.score_metric(table, EXACT)
    report = agree.agreement(table, [scores], samples=20)
    assert report.rated == len(rows) - 1 and "1 of 24 rows have no human score" in report.notes[0]
    sys0 = report.metrics["meteor2005"].systems[0]
    assert sys0["rows"] == 6 and sys0["rated"] == 5
    assert sys0["human"] == 0.0  # mean over the rated rows
    rows_sys0 = [k for k, s in enumerate(table.systems) if s == "sys0"]
    assert sys0["metric"] == pytest.approx(score_corpus([table.hypotheses[k] for k in rows_sys0],
                                                        [list(table.references[k]) for k in rows_sys0], EXACT).score)


def test_a_constant_metric_is_undefined_not_an_error():
    rows = [r | {"hypothesis": "zzz"} for r in ladder()]  # no match anywhere: every score is 0
    table = load_judgments(jsonl(rows), "t.jsonl")
    report = agree.agreement(table, [agree.score_metric(table, EXACT)], samples=20)
    f = report.metrics["meteor2005"].figures
    assert np.isnan(f["segment.kendall"].value) and np.isnan(f["system.pearson"].value)
    assert any("same score" in n for n in report.notes)
    json.dumps(report.to_dict(), allow_nan=False)  # NaN -> null


# --- the bundled MQM set against an independent computation ---------------------------------

@pytest.fixture(scope="module")
def mqm():
    table = read_judgments(MQM, human="mqm")
    scored = [agree.score_metric(table, name) for name in ("meteor2005", "bleu", "chrf")]
    return table, scored, agree.agreement(table, scored, samples=200, seed=12345)


@pytest.fixture(scope="module")
def frame():
    with gzip.open(MQM, "rt", encoding="utf-8") as f:
        return pd.DataFrame([json.loads(line) for line in f])


def _independent(df: pd.DataFrame, segment: pd.Series, corpus: dict) -> dict:
    """The six figures from a data frame, scipy and per-system corpus scores computed elsewhere."""
    human = df.groupby("system", sort=False)["mqm"].mean()
    metric = pd.Series(corpus)[human.index]
    sign = np.sign(np.subtract.outer(metric.values, metric.values)) == np.sign(np.subtract.outer(human.values, human.values))
    n = len(human)
    taus = df.assign(m=segment).groupby("seg_id").apply(
        lambda g: stats.kendalltau(g["m"], g["mqm"]).statistic, include_groups=False)
    return {"system.pearson": stats.pearsonr(metric, human).statistic,
            "system.spearman": stats.spearmanr(metric, human).statistic,
            "system.kendall": stats.kendalltau(metric, human).statistic,
            "system.pairwise_accuracy": (sign.sum() - n) / (n * (n - 1)),
            "segment.kendall": stats.kendalltau(segment, df["mqm"]).statistic,
            "segment.kendall_grouped": taus.mean()}  # pandas' mean skips the undefined (NaN) segments


def test_mqm_figures_equal_scipy_sacrebleu_and_score_corpus(mqm, frame):
    table, _, report = mqm
    assert report.rows == 3696 and report.systems == 14 and report.segments == 264 and report.rated == 3696
    by_system = {name: g for name, g in frame.groupby("system", sort=False)}
    meteor = {name: score_corpus(list(g.hypothesis), [[r] for r in g.reference]).score for name, g in by_system.items()}
    bleu = {name: BLEU().corpus_score(list(g.hypothesis), [list(g.reference)]).score for name, g in by_system.items()}
    chrf = {name: CHRF().corpus_score(list(g.hypothesis), [list(g.reference)]).score for name, g in by_system.items()}
    sentence_bleu = BLEU(effective_order=True)
    segments = {
        "meteor2005": pd.Series([score(h, [r]).score for h, r in zip(frame.hypothesis, frame.reference)]),
        "bleu": pd.Series([sentence_bleu.sentence_score(h, [r]).score for h, r in zip(frame.hypothesis, frame.reference)]),
        "chrf": pd.Series([CHRF().sentence_score(h, [r]).score for h, r in zip(frame.hypothesis, frame.reference)]),
    }
    for name, corpus in (("meteor2005", meteor), ("bleu", bleu), ("chrf", chrf)):
        want = _independent(frame, segments[name], corpus)
        got = report.metrics[name]
        for measure, value in want.items():
            assert got.figures[measure].value == pytest.approx(value, abs=1e-9), (name, measure)
        for row in got.systems:
            assert row["metric"] == pytest.approx(corpus[row["system"]], abs=1e-9)
            assert row["human"] == pytest.approx(frame.mqm[frame.system == row["system"]].mean())


def test_ter_is_negated_everywhere(frame):
    small = frame[frame.seg_id < 100]
    table = load_judgments(jsonl(small.to_dict("records")), "small.jsonl", human="mqm")
    ter = agree.score_metric(table, "ter")
    assert list(ter.segment) == pytest.approx([-TER().sentence_score(h, [r]).score
                                               for h, r in zip(small.hypothesis, small.reference)])
    report = agree.agreement(table, [ter], samples=20)
    refb = next(r for r in report.metrics["ter"].systems if r["system"] == "refB")
    g = small[small.system == "refB"]
    assert refb["metric"] == pytest.approx(-TER().corpus_score(list(g.hypothesis), [list(g.reference)]).score)
    assert "sign flipped" in report.metrics["ter"].signature


def test_bootstrap_samples_are_the_figures_of_resampled_segments(mqm):
    table, scored, report = mqm
    # the first sample, drawn again: the same seg_ids with their rows, computed with scipy
    rng = np.random.default_rng(12345)
    drawn = rng.integers(0, len(table.segment_order), size=(100, len(table.segment_order)))[0]
    ids = [table.segment_order[k] for k in drawn]
    rows = np.concatenate([np.flatnonzero(np.array(table.seg_ids) == s) for s in ids])
    sample = table.subset(rows)
    for scores in scored:
        want = agree.observe(sample, scores.subset(rows))
        for measure in ("system.pearson", "system.spearman", "system.kendall", "system.pairwise_accuracy",
                        "segment.kendall"):
            assert report.metrics[scores.name].samples[measure][0] == pytest.approx(want.figures[measure], abs=1e-9), measure


def test_intervals_are_seeded_and_hold_the_figure(mqm):
    table, scored, report = mqm
    again = agree.agreement(table, scored[:1], samples=200, seed=12345)
    assert again.metrics["meteor2005"].figures == report.metrics["meteor2005"].figures
    other = agree.agreement(table, scored[:1], samples=200, seed=1)
    assert other.metrics["meteor2005"].figures["system.pearson"] != report.metrics["meteor2005"].figures["system.pearson"]
    for metric in report.metrics.values():
        for measure, f in metric.figures.items():
            assert f.ci_low <= f.value <= f.ci_high, (metric.name, measure)


def test_paired_tests(mqm):
    table, scored, report = mqm
    same = report.paired_test("bleu", "bleu", "segment.kendall")
    assert same.delta == 0 and same.p_value == 1.0 and not same.significant
    # a metric against noise: significantly better at segment level
    noise = agree.MetricScores("noise", "noise", np.random.default_rng(0).random(len(table)), scored[0].stats,
                               config=scored[0].config)
    both = agree.agreement(table, [scored[0], noise], samples=200)
    t = both.paired_test("meteor2005", "noise", "segment.kendall")
    assert t.delta > 0 and t.significant and t.ci_low > 0
    tests = report.paired_tests()
    assert len(tests) == 3 * len(agree.MEASURES)
    # Holm over the three pairs of each figure: the smallest p times 3, then monotone
    for measure in agree.MEASURES:
        ps = sorted((t.p_value, t.p_holm) for t in tests if t.measure == measure)
        assert ps[0][1] == pytest.approx(min(1.0, 3 * ps[0][0]))
        assert ps[1][1] == pytest.approx(max(ps[0][1], min(1.0, 2 * ps[1][0])))
        assert ps[2][1] == pytest.approx(max(ps[1][1], ps[2][0]))


# --- hostile tables (issue 30, items 6, 7, 13) -----------------------------------------------

def many_rows() -> list[dict]:
    """288 rows: the ladder's 6 segments 12 times over, under 72 seg_ids."""
    return [r | {"seg_id": r["seg_id"] + 6 * k} for k in range(12) for r in ladder(4, 6)]


def test_every_member_of_a_multi_member_gzip_is_read():
    """Item 6: two gzip members concatenated (as `cat a.gz b.gz` makes them) were read as the
    first one only: 140 of 280 rows, without a word."""
    rows = many_rows()
    text = jsonl(rows)
    half = text.index(b"\n", len(text) // 2) + 1
    table = load_judgments(gzip.compress(text[:half]) + gzip.compress(text[half:]), "t.jsonl.gz")
    assert len(table) == len(rows) == 288
    assert table.hypotheses == tuple(r["hypothesis"] for r in rows)


def test_a_truncated_gzip_is_refused_and_says_so():
    """Item 6 and 17: `gzip -t` rejects it; it was read as 200 of 280 rows (or reported as "the
    file is empty" when cut inside the first block)."""
    whole = gzip.compress(jsonl(many_rows()))
    for cut in (len(whole) - 4, len(whole) // 2, 12):
        with pytest.raises(InputError, match="t.jsonl.gz: the gzip file is truncated") as caught:
            load_judgments(whole[:cut], "t.jsonl.gz")
        assert "empty" not in str(caught.value)
    with pytest.raises(InputError, match="not a readable gzip file"):
        load_judgments(whole[:10] + b"\xff" * 50 + whole[60:], "t.jsonl.gz")
    with pytest.raises(InputError, match="t.jsonl: the file is empty"):  # (as it is)
        load_judgments(gzip.compress(b""), "t.jsonl.gz")


@pytest.mark.parametrize("score, shown", [
    (10 ** 400, "401 digits"),  # item 7: OverflowError
    (1.7e308, "1.7e+308"),  # item 13: means and correlations overflowed into a false note
    (-1.7e308, "-1.7e+308"),
    (2e100, "2e+100"),
], ids=["400 digits", "1.7e308", "-1.7e308", "2e100"])
def test_human_scores_beyond_the_floats_range_are_refused(score, shown):
    rows = ladder(3, 4)
    rows[5]["human"] = score
    with pytest.raises(InputError, match=f"must hold numbers within ±1e\\+100; row 6 has .*{re.escape(shown)}"):
        load_judgments(jsonl(rows), "t.jsonl")
    tsv = "system\tseg_id\thypothesis\treference\thuman\n" + "".join(
        f"{r['system']}\t{r['seg_id']}\t{r['hypothesis']}\t{r['reference']}\t{score if k == 5 else r['human']}\n"
        for k, r in enumerate(rows))
    with pytest.raises(InputError, match="must hold numbers within"):
        load_judgments(tsv.encode(), "t.tsv")
    raw = read_table(jsonl(rows), "t.jsonl")
    assert raw.numeric_columns() == []  # (the agreement page's choice of columns: no OverflowError either)
    rows[5]["human"] = 1e100  # the bound itself is a score
    assert load_judgments(jsonl(rows), "t.jsonl").human[5] == 1e100


def test_an_integer_longer_than_python_reads_is_a_message():
    with pytest.raises(InputError, match="t.jsonl: line 1 cannot be read"):
        load_judgments(b'{"human": ' + b"1" * 5000 + b"}\n", "t.jsonl")


def test_json_number_seg_ids_name_their_segment_by_value():
    """Item 13: seg_ids 84.0 and 84 were two segments."""
    rows = ladder(2, 3)
    for k, row in enumerate(rows):
        row["seg_id"] = 84.0 + row["seg_id"] if k % 2 else 84 + row["seg_id"]
    table = load_judgments(jsonl(rows), "t.jsonl")
    assert table.segment_order == ("84", "85", "86") and set(table.seg_ids) == {"84", "85", "86"}
    rows[1]["seg_id"] = 84.5
    assert "84.5" in load_judgments(jsonl(rows), "t.jsonl").seg_ids


@pytest.mark.parametrize("first, second", [("84", "84.0"), ("7", "007"), ("84", " 84")])
def test_text_seg_ids_that_spell_one_number_two_ways_are_refused(first, second):
    tsv = ("system\tseg_id\thypothesis\treference\thuman\n"
           f"A\t{first}\ta b\ta b\t1\nB\t{first}\ta\ta b\t0\nA\t{second}\tc\tc\t1\nB\t{second}\td\tc\t0\n")
    with pytest.raises(InputError, match=f"the seg_ids {first!r} \\(row 1\\) and {second!r} \\(row 3\\) are the same "
                                         "number written two ways"):
        load_judgments(tsv.encode(), "t.tsv")


@pytest.mark.parametrize("column, value, kind", [
    ("hypothesis", 5, "a number \\(5\\)"),
    ("reference", {"a": 1}, "an object"),
    ("system", ["x"], "a list"),
    ("system", True, "true or false"),
    ("source", 3.5, "a number"),
    ("reference2", 7, "a number"),
    ("seg_id", {"id": 1}, "an object"),
])
def test_numbers_or_objects_where_text_is_expected_are_refused(column, value, kind):
    """Item 13: they were scored as their str()."""
    rows = ladder(3, 2)
    rows[4][column] = value
    with pytest.raises(InputError, match=f"t.jsonl: row 5, column {column!r}: {kind}"):
        load_judgments(jsonl(rows), "t.jsonl")


def test_library_bootstrap_takes_the_bounds_of_every_bootstrap():
    """Item 12: the library's agreement() took any number of samples and any seed."""
    table = load_judgments(jsonl(ladder(3, 4)), "t.jsonl")
    scored = [agree.score_metric(table, "bleu")]
    for samples, seed, message in [(10_000_001, 1, "from 1 to 10,000"), (0, 1, "from 1 to 10,000"),
                                   (10, 99_999_999_999, "from 0 to 4,294,967,295")]:
        with pytest.raises(ValueError, match=message):
            agree.agreement(table, scored, samples, seed)
