"""The compare command on the demo set: significance (bootstrap, AR, every pair), buckets, BLEU/
chrF/TER beside METEOR, LaTeX and xlsx exports, signatures on every output."""
import json
import shutil
import subprocess
import sys

import pytest

from conftest import DEMO, ROOT, ted_lines
from meteor_core import MeteorConfig, __version__
from meteor_core.analysis import sacrebleu_metrics
from meteor_core.table_export import latex_escape, significance_mark, xlsx_workbook

N = 120  # segments of the demo set used (three systems, all analyses)


def run_cli(*args, command="compare"):
    return subprocess.run([sys.executable, "-m", "meteor_core", command, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The first N demo segments, a third system (sys1 with its words reversed: clearly worse, named
    with LaTeX specials), a source file and a line that looks like a spreadsheet formula."""
    tmp = tmp_path_factory.mktemp("demo")
    ref, s1, s2 = (ted_lines(name)[:N] for name in ("ref", "sys1", "sys2"))
    s2[0] = "=HYPERLINK(\"http://example.com\")"
    files = {"ref.txt": ref, "sys1.txt": s1, "sys2.txt": s2,
             "rev_&_100%.txt": [" ".join(h.split()[::-1]) for h in s1],
             "src.txt": [f"zdroj {k}" for k in range(N)]}
    for name, lines in files.items():
        (tmp / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp


def _args(tmp, *extra):
    return ["--ref", str(tmp / "ref.txt"), "--sys", str(tmp / "sys1.txt"), "--sys", str(tmp / "sys2.txt"),
            "--sys", str(tmp / "rev_&_100%.txt"), "--source", str(tmp / "src.txt"), "--samples", "300",
            "--trials", "2000", *extra]


@pytest.fixture(scope="module")
def full_run(demo):
    p = run_cli(*_args(demo, "--format", "json", "--metrics", "all", "--buckets", "--baseline", "sys2.txt",
                       "--latex", str(demo / "t.tex"), "--xlsx", str(demo / "t.xlsx")))
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_json_has_signatures_metrics_and_every_pair(full_run, demo):
    data = full_run
    assert data["signature"] == MeteorConfig.meteor2005().signature() and data["signature"].endswith(f"v:{__version__}")
    refs = [[r] for r in ted_lines("ref")[:N]]
    sys1 = next(r for r in data["systems"] if r["system"] == "sys1.txt")
    assert sys1["BLEU"] == sacrebleu_metrics.corpus_score("bleu", ted_lines("sys1")[:N], refs)
    assert sys1["TER"] == sacrebleu_metrics.corpus_score("ter", ted_lines("sys1")[:N], refs)
    sacrebleu_metrics.sentence_scores("bleu", ted_lines("sys1")[:2], refs[:2])  # sacrebleu signs once it has scored
    assert data["signatures"]["BLEU"] == sacrebleu_metrics.signature("bleu")
    assert data["signatures"]["BLEU sentence"] == sacrebleu_metrics.signature("bleu", sentence=True)
    assert data["baseline"] == "sys2.txt" and data["test"] == "both"
    assert [t["system"] for t in data["ar"]] == ["sys1.txt", "rev_&_100%.txt"]
    assert all(t["baseline"] == "sys2.txt" and t["trials"] == 2000 for t in data["ar"])
    pairs = {(e["a"], e["b"]): e for e in data["pairwise"]}
    assert set(pairs) == {("sys2.txt", "sys1.txt"), ("sys2.txt", "rev_&_100%.txt"), ("sys1.txt", "rev_&_100%.txt")}
    scores = {r["system"]: r["corpus METEOR"] for r in data["systems"]}
    for (a, b), e in pairs.items():
        assert e["delta"] == pytest.approx(scores[b] - scores[a])
        assert {"p_bootstrap", "p_ar", "p_bootstrap_holm", "p_ar_holm", "ci_low", "ci_high"} <= set(e)
    assert pairs[("sys1.txt", "rev_&_100%.txt")]["p_ar"] == pytest.approx(1 / 2001)  # reversed words: far worse
    assert "Holm" in data["multiple_comparisons"]
    assert {r["bucket"] for r in data["buckets"]["length"]} >= {"<10", "[10,20)"}
    assert all(r["ci_low"] <= r["ci_high"] for r in data["buckets"]["frequency"] if r["fmean"] is not None)


def test_latex_table(full_run, demo):
    tex = (demo / "t.tex").read_text(encoding="utf-8")
    assert tex.startswith("% meteor|preset:meteor2005|") and "\\toprule" in tex and "\\bottomrule" in tex
    assert "rev\\_\\&\\_100\\%.txt" in tex and "rev_&" not in tex  # the name escaped
    assert "sys2.txt (baseline)" in tex
    body = [line for line in tex.splitlines() if line.startswith("rev")][0]
    assert "$^{**}$" in body  # far worse than the baseline: p < 0.01
    assert "\\begin{tabular}{l" + "r" * 7 + "}" in tex  # METEOR, P, R, penalty, BLEU, chrF, TER
    assert "\\texttt{bleu\\textbar{}nrefs:1" in tex


def test_xlsx_workbook(full_run, demo):
    from openpyxl import load_workbook
    book = load_workbook(demo / "t.xlsx")
    assert book.sheetnames == ["signature", "corpus", "significance", "buckets by length", "buckets by frequency",
                               "segments"]
    about = {row[0].value: row[1].value for row in book["signature"].iter_rows()}
    assert about["signature METEOR"] == full_run["signature"] and about["baseline"] == "sys2.txt"
    segments = book["segments"]
    header = [c.value for c in segments[1]]
    assert header[:3] == ["segment", "source", "reference"] and "sys1.txt BLEU" in header
    assert segments.max_row == N + 1 and segments["B2"].value == "zdroj 0"
    formula = segments.cell(row=2, column=header.index("sys2.txt") + 1)
    assert formula.value.startswith("=HYPERLINK") and formula.data_type == "s"  # text, never a formula
    assert book["significance"].max_row == 4  # three pairs


def test_text_output_with_three_systems(demo):
    p = run_cli(*_args(demo, "--buckets", "--test", "ar", "--no-synonyms"))
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "signature meteor|preset:meteor2005|" in out and "|syn:none|" in out
    assert "approximate randomization, 2000 trials" in out and "paired bootstrap samples" not in out
    assert "Every pair (B - A):" in out and "p AR (Holm)" in out and "note: With k systems" in out
    assert "By reference length" in out and "By word frequency" in out and "[100,1000)" in out


@pytest.mark.parametrize("extra,message", [
    (["--baseline", "nope.txt"], "baseline 'nope.txt' is not one of the systems"),
    (["--metrics", "bleu,rouge"], "unknown metric(s) rouge"),
])
def test_bad_options_get_one_line(demo, extra, message):
    p = run_cli(*_args(demo, *extra))
    assert p.returncode == 2 and message in p.stderr and "Traceback" not in p.stderr


def test_a_thousand_systems_stop_at_the_time_limit(tmp_path):
    """Issue 30, item 12: 1,000 systems (499,500 pairs to test) ran on past 300 s; now the
    command's time limit stops it with one line saying in which step."""
    refs = [r.replace('"', "") for r in ted_lines("ref")[:20]]
    header = "ref\t" + "\t".join(f"s{k}" for k in range(1000))
    lines = ["\t".join([r] + [" ".join(r.split()[:1 + (k + j) % 9]) for k in range(1000)]) for j, r in enumerate(refs)]
    (tmp_path / "many.tsv").write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
    p = run_cli("--table", str(tmp_path / "many.tsv"), "--time-limit", "2", "--jobs", "1", "--no-synonyms")
    assert p.returncode == 2 and p.stdout == "", p.stderr
    assert p.stderr.startswith("error: compare (") and "stopped after 2 s (--time-limit; 0 for no limit)" in p.stderr
    assert len(p.stderr.splitlines()) == 1


def test_exports_to_a_full_disk_keep_the_earlier_files(demo, tiny_disk):
    """Issue 30, item 10: --latex/--xlsx on a full disk left truncated files in place of good ones."""
    folder, fill = tiny_disk
    latex, xlsx = folder / "t.tex", folder / "t.xlsx"
    latex.write_text("% an earlier good table\n")
    xlsx.write_bytes(b"an earlier good workbook")
    fill(free=1024)
    for flag, path, earlier in (("--latex", latex, b"% an earlier good table\n"),
                                ("--xlsx", xlsx, b"an earlier good workbook")):
        p = run_cli(*_args(demo, "--no-synonyms", "--test", "bootstrap", "--samples", "100", flag, str(path)))
        assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
        assert p.stderr.strip() == f"error: cannot write {path} (No space left on device); nothing was written to it"
        assert path.read_bytes() == earlier
    assert sorted(x.name for x in folder.iterdir()) == [".ballast", "t.tex", "t.xlsx"]


@pytest.mark.parametrize("command, extra", [("score", ["--format", "tsv"]), ("score", ["--format", "jsonl"]),
                                            ("score", []), ("compare", ["--format", "json"]),
                                            ("explain", ["--format", "json"])])
def test_output_to_a_full_device_is_one_line(demo, command, extra):
    """Issue 30, item 10: `--format tsv > /dev/full` was an OSError traceback."""
    files = {"score": ["--hyp", str(demo / "sys1.txt"), "--ref", str(demo / "ref.txt")],
             "compare": _args(demo, "--test", "bootstrap", "--samples", "100"),
             "explain": ["--hyp-file", str(demo / "sys1.txt"), "--ref-file", str(demo / "ref.txt")]}[command]
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "meteor_core", command, *files, "--no-synonyms", *extra], cwd=ROOT,
                           stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
    assert p.returncode == 2 and p.stderr == "error: cannot write the output (No space left on device)\n", p.stderr


def test_source_of_the_wrong_length(demo):
    (demo / "short.txt").write_text("one\n")
    p = run_cli("--ref", str(demo / "ref.txt"), "--sys", str(demo / "sys1.txt"), "--sys", str(demo / "sys2.txt"),
                "--source", str(demo / "short.txt"))
    assert p.returncode == 2 and "short.txt: 1 lines" in p.stderr


def test_score_and_explain_outputs_carry_the_signature(tmp_path, capsys):
    from meteor_core.cli import main  # in this process: WordNet is loaded once
    (tmp_path / "h.txt").write_text("the big dog\nthe cat sat\n")
    (tmp_path / "r.txt").write_text("the large dog\na cat sat\n")
    assert main(["score", "--hyp", str(tmp_path / "h.txt"), "--ref", str(tmp_path / "r.txt"), "--format", "tsv",
                 "--no-synonyms"]) == 0
    tsv = capsys.readouterr().out
    assert tsv.splitlines()[-1] == "signature\t" + MeteorConfig.meteor2005(stages=("exact", "stem")).signature()
    assert main(["explain", "--a", "nltk", "--b", "meteor15", "--hyp", "the cat sat", "--ref", "a cat sat"]) == 0
    assert f"signature B {MeteorConfig.meteor15().signature()}" in capsys.readouterr().out
    assert main(["explain", "--a", "nltk", "--b", "meteor15", "--hyp", "the cat", "--ref", "a cat",
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["signature_a"] == MeteorConfig.nltk().signature()


def test_export_helpers():
    assert latex_escape("a_b & {c}^~\\") == "a\\_b \\& \\{c\\}\\textasciicircum{}\\textasciitilde{}\\textbackslash{}"
    assert [significance_mark(p) for p in (0.001, 0.02, 0.2, None)] == ["**", "*", "", ""]
    from io import BytesIO

    from openpyxl import load_workbook
    data = xlsx_workbook({"a/b:c" * 10: [{"x": "=1+1", "y": "bell\x07"}], "A/B:C" * 10: [{"x": 1}]},
                         {"METEOR": "meteor|..."}, {"note": "=SUM(A1)"})
    book = load_workbook(BytesIO(data))
    first, second = book.sheetnames[1:]
    assert len(first) <= 31 and "/" not in first and first != second and len(second) <= 31
    assert book[first]["A2"].value == "=1+1" and book[first]["A2"].data_type == "s"
    assert book[first]["B2"].value == "bell\N{REPLACEMENT CHARACTER}"
    assert book["signature"]["B2"].data_type == "s"


HOSTILE_NAMES = ["[oops", "*star", " [spaced", "[a]{b}\\\\", "x_&%$#~^|<>", "plain"]


def _latex_rows(names):
    return [{"system": n, "corpus METEOR": 0.5 + k / 100, "precision": 0.5, "recall": 0.5,
             "fragmentation penalty": 0.1} for k, n in enumerate(names)]


def test_latex_rows_survive_names_starting_with_a_bracket_or_star():
    """Issue 30, item 11: a row after "\\\\" that starts with [ or * was taken as its argument."""
    from meteor_core.table_export import CORPUS_COLUMNS, latex_corpus_table

    text = latex_corpus_table(_latex_rows(HOSTILE_NAMES), CORPUS_COLUMNS, ["sig"], "plain", {"[oops": 0.001})
    lines = text.splitlines()
    for before, line in zip(lines, lines[1:]):
        if before.endswith("\\\\"):
            assert not line.lstrip().startswith(("[", "*")), line
    assert "{}[oops & " in text and "{}*star & " in text and "{} [spaced & " in text


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_latex_table_with_hostile_names_compiles(tmp_path):
    from meteor_core.table_export import CORPUS_COLUMNS, latex_corpus_table

    table = latex_corpus_table(_latex_rows(HOSTILE_NAMES), CORPUS_COLUMNS, ["meteor|a:0.9"], "[oops",
                               {"*star": 0.001})
    (tmp_path / "t.tex").write_text("\\documentclass{article}\\usepackage{booktabs}\\begin{document}\n" + table
                                    + "\\end{document}\n", encoding="utf-8")
    out = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout[-2000:]


def test_xlsx_cells_over_excels_limit_are_cut_visibly_and_listed():
    """Issue 30, item 14: openpyxl cut text to 32,767 characters without a word."""
    import io

    import openpyxl

    from meteor_core.table_export import XLSX_CELL_CHARS

    long_hyp, long_name = "word " * 8_000, "n" * 33_000
    book = openpyxl.load_workbook(io.BytesIO(xlsx_workbook(
        {"segments": [{"system": "a", "hypothesis": long_hyp}, {"system": long_name, "hypothesis": "short"}]},
        {"METEOR": "sig"}, {"bootstrap samples": 100})))
    assert book.sheetnames == ["signature", "segments", "notes"]
    cut = book["segments"]["B2"].value
    assert len(cut) == XLSX_CELL_CHARS and cut.endswith(" …[cut: 40,000 characters in all]")
    assert long_hyp.startswith(cut[:-len(" …[cut: 40,000 characters in all]")])
    assert book["segments"]["A3"].value.endswith(" …[cut: 33,000 characters in all]")
    assert book["segments"]["B3"].value == "short" and book["segments"]["A2"].value == "a"
    notes = list(book["notes"].iter_rows(values_only=True))
    assert "at most 32,767 characters in a cell" in notes[0][0]
    assert notes[2:] == [("segments", "B2", 40_000), ("segments", "A3", 33_000)]
    short = openpyxl.load_workbook(io.BytesIO(xlsx_workbook({"t": [{"x": "y"}]}, {"METEOR": "sig"})))
    assert short.sheetnames == ["signature", "t"]  # no notes sheet when nothing is cut
