import pytest
import json
import subprocess
import sys

from conftest import ROOT


def run(*args):
    return subprocess.run([sys.executable, "-m", "meteor_core", *args], cwd=ROOT, capture_output=True, text=True)


def test_jsonl_and_text(tmp_path):
    (tmp_path / "h").write_text("the big dog\nthe cat sat\n")
    (tmp_path / "r").write_text("the large dog\nthe cat sat\n")
    out = run("--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r"), "--format", "jsonl")
    assert out.returncode == 0, out.stderr
    rows = [json.loads(x) for x in out.stdout.splitlines()]
    assert len(rows) == 3 and "corpus" in rows[-1] and rows[0]["matches"] == 3
    text = run("--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r"), "--preset", "nltk")
    assert text.returncode == 0 and "METEOR =" in text.stdout
    tsv = run("--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r"), "--format", "tsv")
    assert tsv.stdout.splitlines()[0].startswith("segment\tscore")


def test_the_summary_counts_the_matches_of_every_stage_that_ran(tmp_path):
    """meteor15's summary said "(exact 5, stem 0, synonym 0)": its paraphrase stage ran and was
    not named; --no-synonyms named a synonym stage that did not run."""
    (tmp_path / "h").write_text("the children were playing in the gardens\n")
    (tmp_path / "r").write_text("the child played in the garden\n")
    files = ["--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r")]
    meteor15 = run(*files, "--preset", "meteor15")
    assert "matches 6 (exact 3, stem 1, synonym 1, paraphrase 1)" in meteor15.stdout, meteor15.stdout
    (tmp_path / "same").write_text("the cat sat\n")
    none_found = run("--hyp", str(tmp_path / "same"), "--ref", str(tmp_path / "same"), "--preset", "meteor15")
    assert "(exact 3, stem 0, synonym 0, paraphrase 0)" in none_found.stdout, none_found.stdout
    two_stages = run(*files, "--no-synonyms")
    assert "(exact 3, stem 2)" in two_stages.stdout, two_stages.stdout


def test_bad_files(tmp_path):
    (tmp_path / "h").write_text("a\nb\n")
    (tmp_path / "r").write_text("a\n")
    (tmp_path / "bin").write_bytes(b"caf\xe9\n")
    for args, needle in [
        (["--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r")], "line counts differ"),
        (["--hyp", str(tmp_path / "nope"), "--ref", str(tmp_path / "r")], "cannot read"),
        (["--hyp", str(tmp_path / "bin"), "--ref", str(tmp_path / "bin")], "not UTF-8"),
    ]:
        out = run(*args)
        assert out.returncode != 0 and needle in out.stderr
        assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_explain_takes_a_sentence_or_a_corpus_not_both(tmp_path):
    """Issue 30, item 17: --hyp was silently ignored when --hyp-file was given (and --ref with
    --ref-file)."""
    (tmp_path / "h").write_text("the big dog\n")
    for args in (["--hyp", "a cat", "--hyp-file", str(tmp_path / "h"), "--ref-file", str(tmp_path / "h")],
                 ["--hyp-file", str(tmp_path / "h"), "--ref-file", str(tmp_path / "h"), "--ref", "a dog"]):
        out = run("explain", *args)
        assert out.returncode == 2 and out.stdout == "" and "not allowed with argument" in out.stderr, out.stderr
    out = run("explain", "--hyp-file", str(tmp_path / "h"), "--ref", "a dog")
    assert out.returncode == 2 and "give both --hyp-file and --ref-file" in out.stderr
    assert run("explain", "--hyp-file", str(tmp_path / "h"), "--ref-file", str(tmp_path / "h")).returncode == 0


@pytest.mark.parametrize("command", [
    "explain --a meteor2005 --b nltk --hyp 'the cat sat on the mat' --ref 'a cat sat on a mat'",
    "--hyp demo/ted-slk-eng/ted.sys1.detok.eng --ref demo/ted-slk-eng/ted.ref.detok.eng --format tsv --preset nltk",
])
def test_a_reader_that_goes_away_ends_the_run_quietly(command):
    """Piped into `head -1`: no traceback, whatever the subcommand."""
    import subprocess
    import sys
    from conftest import ROOT
    out = subprocess.run(f"{sys.executable} -m meteor_core {command} | head -1", shell=True, cwd=ROOT,
                         capture_output=True, text=True)
    assert out.stdout.count("\n") == 1 and "Traceback" not in out.stderr and "Error" not in out.stderr, out.stderr
