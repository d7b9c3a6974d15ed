"""Tuning α, β, γ, δ from statistics: rescoring equals scoring, the grid's objective equals the
scipy figures, the split, the held-out report, and the agree CLI."""
import gzip
import json
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT
from meteor_core import MeteorConfig, score
from meteor_core.analysis import agreement as agree
from meteor_core.analysis.judgments import load_judgments, read_judgments
from meteor_core.analysis.stat_arrays import stat_matrix
from meteor_core.analysis.tuning import default_grid, parse_parameters, split_rows, tune
from meteor_core.cli import main

MQM = ROOT / "demo" / "mqm-ted-zhen-part" / "segments.jsonl.gz"


def mqm_rows(below: int | None = None) -> list[dict]:
    with gzip.open(MQM, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    return [r for r in rows if below is None or r["seg_id"] < below]


def as_table(rows, **kwargs):
    return load_judgments("\n".join(json.dumps(r) for r in rows).encode(), "t.jsonl", human="mqm", **kwargs)


@pytest.fixture(scope="module")
def small():
    """26 segments x 14 systems of the bundled MQM set."""
    return as_table(mqm_rows(below=110))


@pytest.mark.parametrize("preset", ["meteor2005", "nltk", "meteor15"])
def test_rescoring_from_statistics_equals_scoring_again(small, preset):
    scores = agree.score_metric(small, preset)
    same = agree.rescored(scores)
    assert np.allclose(same.segment, scores.segment, rtol=1e-15, atol=0)
    params = {"alpha": 0.5, "beta": 1.0, "gamma": 0.3} | ({"delta": 0.5} if preset == "meteor15" else {})
    other = agree.rescored(scores, **params)
    config = MeteorConfig.preset(preset, **params)
    want = [score(h, list(r), config).score for h, r in zip(small.hypotheses[:60], small.references[:60])]
    assert np.allclose(other.segment[:60], want, rtol=1e-12, atol=1e-15)
    assert other.signature == config.signature()


def test_the_best_reference_is_chosen_again_for_each_parameter_set():
    # reference 1: the words in one chunk but twice as long (recall 1/2); reference 2: the same
    # words in reverse order (recall 1, four chunks). Which one scores higher depends on how α
    # weighs recall against how much γ and β punish the chunks.
    rows = [{"system": s, "seg_id": 1, "hypothesis": "a b c d", "reference": "a b c d x y z w",
             "reference2": "d c b a", "human": h} for s, h in (("A", 1), ("B", 0))]
    rows += [{"system": s, "seg_id": 2, "hypothesis": "p q", "reference": "p q", "human": h} for s, h in (("A", 1), ("B", 0))]
    table = load_judgments("\n".join(json.dumps(r) for r in rows).encode(), "t.jsonl")
    config = MeteorConfig.meteor2005(stages=("exact",))
    scores = agree.score_metric(table, config)
    chosen = set()
    for params in ({"alpha": 0.9, "beta": 3.0, "gamma": 0.5}, {"alpha": 0.1, "beta": 0.5, "gamma": 1.0},
                   {"alpha": 0.9, "beta": 0.0, "gamma": 0.9}):
        other = MeteorConfig.meteor2005(stages=("exact",), **params)
        want = score("a b c d", ["a b c d x y z w", "d c b a"], other)
        chosen.add(want.best_reference)
        got = agree.rescored(scores, **params)
        assert got.segment[0] == pytest.approx(want.score, abs=1e-15)
        assert list(got.stats[0]) == list(stat_matrix([want.stats])[0])
    assert chosen == {0, 1}


@pytest.mark.parametrize("objective", agree.MEASURES)
def test_the_grid_objective_is_the_scipy_figure_on_the_training_rows(small, objective):
    scores = agree.score_metric(small, "meteor2005")
    result = tune(small, scores, ("alpha", "gamma"), objective, steps=5, samples=0)
    train, _ = split_rows(small)
    for params, value in ((result.default, result.default_train), (result.best, result.best_train)):
        want = agree.observe(small.subset(train), agree.rescored(scores.subset(train), **params)).figures[objective]
        assert value == pytest.approx(want, abs=1e-12)
    assert np.nanmax(result.values) == pytest.approx(result.best_train)
    heldout = agree.observe(small.subset(~train), agree.rescored(scores.subset(~train), **result.best))
    assert result.best_heldout == pytest.approx(heldout.figures[objective])


def test_grid_split_and_report(small):
    assert parse_parameters("alpha, Beta,gamma") == ("alpha", "beta", "gamma")
    with pytest.raises(ValueError, match="can tune"):
        parse_parameters("alpha,weights")
    grid = default_grid({"alpha": 0.85, "beta": 0.2}, ("alpha", "beta"), steps=11)
    assert 0.85 in grid["alpha"] and 0.2 in grid["beta"] and len(grid["alpha"]) == 12 and grid["beta"].max() == 5.0
    train, rule = split_rows(small)
    ids = sorted({int(s) for s in small.seg_ids})
    assert {int(s) for s, t in zip(small.seg_ids, train) if t} == set(ids[:13]) and "lower half" in rule
    scores = agree.score_metric(small, "meteor15")
    result = tune(small, scores, ("alpha", "beta", "gamma", "delta"), steps=4, samples=100)
    assert result.values.shape == tuple(len(result.grid[p]) for p in result.parameters)
    assert result.default == {"alpha": 0.85, "beta": 0.2, "gamma": 0.6, "delta": 0.75}
    assert result.best_train >= result.default_train
    data = result.to_dict()
    assert set(data) >= {"objective", "split", "best", "default"}
    assert set(data["best"]) == {"params", "train", "heldout"} and data["split"]["train_segments"] == 13
    assert result.heldout_test.measure == "segment.kendall"
    assert result.heldout_test.delta == pytest.approx(result.best_heldout - result.default_heldout)
    plane = result.plane("alpha", "gamma")
    assert plane.shape == (len(result.grid["gamma"]), len(result.grid["alpha"]))
    assert np.nanmax(plane) == pytest.approx(result.best_train)


def test_split_column(small):
    rows = mqm_rows(below=110)
    for r in rows:
        r["part"] = "test" if r["seg_id"] % 2 else "train"
    table = as_table(rows, split_column="part")
    train, rule = split_rows(table)
    assert all((int(s) % 2 == 0) == t for s, t in zip(table.seg_ids, train)) and "split column" in rule
    only_train = as_table([r | {"part": "train"} for r in rows], split_column="part")
    with pytest.raises(ValueError, match="training and held-out rows"):
        split_rows(only_train)


def test_a_thousand_point_grid_over_the_bundled_set_takes_seconds():
    table = read_judgments(MQM, human="mqm")
    scores = agree.score_metric(table, "meteor2005")
    result = tune(table, scores, ("alpha", "beta", "gamma"), samples=0)
    assert result.points == 11 * 11 * 11 and len(table) == 3696
    assert result.seconds < 60  # a bound against a hang; bench/bench_tuning.py measures the speed


# --- the command line ------------------------------------------------------------------------

def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "meteor_core", "agree", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def test_agree_cli_json(tmp_path):
    rows = mqm_rows(below=100)
    rows[0]["mqm"] = None
    (tmp_path / "t.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    p = run_cli("--table", str(tmp_path / "t.jsonl"), "--human", "mqm", "--samples", "100", "--format", "json",
                "--tune", "alpha,beta,gamma", "--steps", "4")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert list(data["metrics"]) == ["meteor2005", "nltk", "meteor15", "bleu", "chrf", "ter"]
    for metric in data["metrics"].values():
        assert set(metric["system"]) == {"pearson", "spearman", "kendall", "pairwise_accuracy"}
        assert set(metric["segment"]) == {"kendall", "kendall_grouped"}
        assert set(metric["system"]["pearson"]) == {"value", "ci_low", "ci_high"}
        assert set(metric["systems"]["refB"]) == {"human", "metric", "rows", "rated"}
    assert data["table"]["rows_without_human"] == 1 and "1 of 224 rows have no human score" in data["notes"][0]
    assert data["metrics"]["ter"]["systems"]["refB"]["metric"] < 0
    tuning = data["tuning"]
    assert tuning["objective"] == "segment.kendall" and tuning["default"]["params"] == {"alpha": 0.9, "beta": 3.0, "gamma": 0.5}
    assert set(tuning["best"]) == {"params", "train", "heldout"}


def test_agree_cli_text_and_custom_configuration(tmp_path):
    (tmp_path / "t.jsonl.gz").write_bytes(gzip.compress("\n".join(json.dumps(r) for r in mqm_rows(below=95)).encode()))
    p = run_cli("--table", str(tmp_path / "t.jsonl.gz"), "--human", "mqm", "--samples", "50",
                "--metrics", "meteor2005,bleu", "--alpha", "0.5", "--tune", "gamma", "--objective", "system.pearson")
    assert p.returncode == 0, p.stderr
    assert "meteor2005" in p.stdout and "custom" in p.stdout and "segment Kendall grouped" in p.stdout
    assert "tuning custom on system.pearson" in p.stdout and "held out" in p.stdout


@pytest.mark.parametrize("rows,args,message", [
    (None, ["--human", "nope"], "no human-score column 'nope'"),
    ([{"system": "A", "seg_id": 1, "hypothesis": "a", "reference": "a", "human": "high"}], [], "must hold numbers"),
    ([{"system": "A", "seg_id": k, "hypothesis": "a", "reference": "a", "human": k} for k in range(3)], [], "one system only"),
    ([{"system": s, "seg_id": 1, "hypothesis": "a", "reference": "a", "human": 1} for s in "AB"], [], "every human score"),
    (None, ["--human", "mqm", "--metrics", "rouge"], "unknown metric(s) rouge"),
    (None, ["--human", "mqm", "--tune", "delta"], "tune it with --preset meteor15"),
    (None, ["--human", "mqm", "--tune", "alpha", "--steps", "1"], "--steps must be from 2 to 41"),
    # issue 30, items 12 and 17: the pages' caps, the seed range of compare, and a time budget
    (None, ["--human", "mqm", "--tune", "alpha,beta,gamma", "--steps", "200"], "--steps must be from 2 to 41 (grid values per parameter); got 200"),
    (None, ["--human", "mqm", "--samples", "10000000"], "bootstrap samples must be a whole number from 1 to 10,000"),
    (None, ["--human", "mqm", "--seed", "99999999999"], "the bootstrap seed must be a whole number from 0 to 4,294,967,295"),
    (None, ["--human", "mqm", "--tune", "alpha,beta,gamma", "--steps", "41", "--time-limit", "0.5"],
     "stopped after 0.5 s (--time-limit; 0 for no limit)"),
])
def test_agree_cli_errors_are_one_line(tmp_path, capsys, rows, args, message):
    rows = rows if rows is not None else mqm_rows(below=86)
    (tmp_path / "t.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    code = main(["agree", "--table", str(tmp_path / "t.jsonl"), "--samples", "20", "--metrics", "bleu", *args])
    err = capsys.readouterr().err
    assert code == 2 and message in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert main(["agree", "--table", str(tmp_path / "absent.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
