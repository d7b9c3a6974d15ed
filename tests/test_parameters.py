"""Every parameter has one checked range (finite, within bounds), the same in the library, the CLI,
the URL and the app; bootstrap samples are capped; output files are strict JSON and TSV."""
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as hs

from conftest import ROOT
from meteor_core import MeteorConfig, score
from meteor_core.analysis import compare as compare_module
from meteor_core.analysis.compare import MAX_SAMPLES, compare_systems, paired_bootstrap
from meteor_core.config import MODULE_WEIGHT_RANGE, PARAMETER_RANGES, check_parameter
from meteor_core.safe_export import read_json_strict

BAD_VALUES = ["nan", "inf", "-inf", "-0.1", "10.5", "abc", "", True, None]


@pytest.mark.parametrize("name", list(PARAMETER_RANGES))
@pytest.mark.parametrize("value", BAD_VALUES)
def test_library_refuses_every_bad_value(name, value):
    low, high = PARAMETER_RANGES[name]
    if isinstance(value, str) and value not in ("abc", ""):
        value = float(value)
        if low <= value <= high:
            pytest.skip("in range for this parameter")
    with pytest.raises(ValueError, match=f"{name} must be a finite number from {low:g} to {high:g}"):
        MeteorConfig(**{name: value})


def test_nan_beta_no_longer_gives_nan_scores():
    with pytest.raises(ValueError, match="beta must be a finite number"):
        score("a b", ["b a"], MeteorConfig.meteor2005(beta=float("nan")))


@pytest.mark.parametrize("weights", [(1.0, 1.5, 0.8, 0.6), (1.0, float("nan"), 0.8, 0.6), (1.0, -0.1, 0.8, 0.6),
                                     (1.0, 0.6), ("a", 1, 1, 1)])
def test_module_weights_are_checked(weights):
    with pytest.raises(ValueError, match="module_weights needs 4 weights"):
        MeteorConfig.meteor15(module_weights=weights)


WORDS = ["the", "cat", "cats", "sat", "sits", "on", "mat", "a", "dog"]


@settings(max_examples=80, deadline=None)
@given(hs.lists(hs.floats(*MODULE_WEIGHT_RANGE), min_size=4, max_size=4),
       hs.lists(hs.sampled_from(WORDS), min_size=1, max_size=8), hs.lists(hs.sampled_from(WORDS), min_size=1, max_size=8),
       hs.floats(0, 1), hs.floats(*PARAMETER_RANGES["beta"]), hs.floats(0, 1), hs.floats(0, 1))
def test_any_valid_parameters_keep_the_score_in_0_1(weights, hyp, ref, alpha, beta, gamma, delta):
    config = MeteorConfig.meteor15(module_weights=weights, alpha=alpha, beta=beta, gamma=gamma, delta=delta,
                                   stages=("exact", "stem"))
    r = score(" ".join(hyp), [" ".join(ref)], config)
    assert 0.0 <= r.score <= 1.0 and 0.0 <= r.penalty <= 1.0


def test_text_values_as_from_a_url_or_the_command_line():
    assert check_parameter("gamma", " 0.25 ") == 0.25 and check_parameter("beta", "6") == 6.0
    with pytest.raises(ValueError, match="gamma must be a finite number from 0 to 1; got nan"):
        check_parameter("gamma", "nan")


def run_cli(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "meteor_core", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.parametrize("flag,value", [("--beta", "nan"), ("--gamma", "inf"), ("--alpha", "2"), ("--beta", "abc"),
                                        ("--delta", "-1")])
def test_cli_gives_the_library_message(tmp_path, flag, value):
    (tmp_path / "h").write_text("a b\n")
    out = run_cli("--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "h"), flag, value)
    with pytest.raises(ValueError) as library:
        check_parameter(flag[2:], value)
    assert out.returncode == 2 and out.stderr.strip() == f"error: {library.value}"


def test_cli_outputs_are_strict_json_and_tsv(tmp_path):
    (tmp_path / "h").write_text("the cat\n=1+1\n\n")
    (tmp_path / "r").write_text("the cat sat\n-2\nx\n")
    files = ["--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r"), "--no-synonyms"]
    jsonl = run_cli(*files, "--format", "jsonl")
    assert jsonl.returncode == 0, jsonl.stderr
    rows = [read_json_strict(line) for line in jsonl.stdout.splitlines()]
    assert len(rows) == 4 and rows[2]["score"] == 0.0
    tsv = run_cli(*files, "--format", "tsv")
    lines = tsv.stdout.splitlines()  # header, 3 segments, corpus, signature
    assert len(lines) == 6 and all(len(line.split("\t")) == 14 for line in lines[:5])  # (stopped_by last)
    jsonl_scores = [r["score"] for r in rows[:3]]
    assert [float(line.split("\t")[1]) for line in lines[1:4]] == pytest.approx(jsonl_scores, abs=0)  # exact


# --- the bootstrap ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def comparison():
    refs = [["the cat sat on the mat"], ["a dog ran"], ["it rains"], ["we like tea"]] * 5
    systems = {"a": ["the cat sat on a mat", "dog ran", "it rains", "tea"] * 5,
               "b": ["cat the mat", "a dog ran", "rains it", "we like tea"] * 5}
    return compare_systems(systems, refs, MeteorConfig.meteor2005(stages=("exact",)))


@pytest.mark.parametrize("samples,seed,message", [(10**9, 1, "samples must be a whole number from 1 to 10,000"),
                                                  (0, 1, "samples must be"), (1.5, 1, "samples must be"),
                                                  (100, -1, "seed must be a whole number from 0 to")])
def test_bootstrap_bounds(comparison, samples, seed, message):
    with pytest.raises(ValueError, match=message):
        paired_bootstrap(comparison, "a", "b", samples, seed)


def test_bootstrap_result_does_not_depend_on_the_block_size(comparison, monkeypatch):
    whole = paired_bootstrap(comparison, "a", "b", 250, 7)
    monkeypatch.setattr(compare_module, "RESAMPLE_BLOCK_FLOATS", 3 * len(comparison.results["a"].segments) * 4)
    assert paired_bootstrap(comparison, "a", "b", 250, 7) == whole


def test_bootstrap_check_can_cut_it_short(comparison):
    calls = []

    def check():
        calls.append(1)
        if len(calls) > 2:
            raise TimeoutError("budget")

    with pytest.raises(TimeoutError):
        paired_bootstrap(comparison, "a", "b", 1000, 1, check=check)
    assert len(calls) == 3


def test_cli_refuses_huge_samples_before_scoring(tmp_path):
    (tmp_path / "r").write_text("a b\n" * 50_000)
    out = run_cli("compare", "--ref", str(tmp_path / "r"), "--sys", str(tmp_path / "r"), "--sys", str(tmp_path / "r"),
                  "--samples", "1000000000", timeout=20)
    assert out.returncode == 2 and f"from 1 to {MAX_SAMPLES:,}" in out.stderr


def test_randomization_trials_are_bounded(comparison):
    from meteor_core.analysis.significance import MAX_MASK_BYTES, MAX_TRIALS, check_trials, paired_ar

    with pytest.raises(ValueError, match=f"trials must be a whole number from 1 to {MAX_TRIALS:,}"):
        paired_ar(comparison, "a", "b", trials=10**9)
    segments = 100_000
    with pytest.raises(ValueError, match=f"take at most {MAX_MASK_BYTES // segments:,} trials"):
        check_trials(10_000, segments)  # a GB of swap masks, drawn at once as sacrebleu does
    assert check_trials(10_000, 1_200) == 10_000


def test_bucket_intervals_do_not_depend_on_the_block_size(comparison, monkeypatch):
    from meteor_core.analysis import buckets

    whole = buckets.length_buckets(comparison, samples=200, seed=3), buckets.frequency_buckets(comparison, samples=200, seed=3)
    monkeypatch.setattr(buckets, "RESAMPLE_BLOCK_FLOATS", 50)  # one or a few samples at a time
    assert (buckets.length_buckets(comparison, samples=200, seed=3),
            buckets.frequency_buckets(comparison, samples=200, seed=3)) == whole
