"""The compare page's research views as pure functions: heatmap, bucket bars, metric and source
columns, exports."""
from io import BytesIO

import pandas as pd
import pytest

from components import compare_views, research_views
from conftest import ted_lines
from meteor_core import MeteorConfig
from meteor_core.analysis.buckets import length_buckets
from meteor_core.analysis.compare import compare_systems
from meteor_core.analysis.significance import significance_report

EXACT = MeteorConfig.meteor2005(stages=("exact",))


@pytest.fixture(scope="module")
def three():
    ref, s1, s2 = (ted_lines(name)[:80] for name in ("ref", "sys1", "sys2"))
    systems = {"sys1": s1, "<b>sys2</b>": s2, "rev": [" ".join(h.split()[::-1]) for h in s1]}
    references = [[r] for r in ref]
    c = compare_systems(systems, references, EXACT)
    return c, systems, references, significance_report(c, test="both", samples=100, trials=300)


def test_heatmap_cells_are_column_minus_row_and_names_are_escaped(three):
    c, _, _, report = three
    fig = research_views.significance_heatmap(report, c.names)
    z, labels = fig.data[0].z, list(fig.data[0].x)
    assert labels[1] == "&lt;b&gt;sys2&lt;/b&gt;"  # user text is never markup
    assert z[0][0] is None or pd.isna(z[0][0])
    assert z[0][2] == pytest.approx(c.results["rev"].score - c.results["sys1"].score)
    assert z[2][0] == pytest.approx(-z[0][2])
    text = fig.data[0].text[0][2]
    assert "p AR" in text and "p bootstrap" in text and f"{z[0][2]:+.4f}" in text
    assert "Holm" in fig.layout.title.text


def test_bucket_bars_have_asymmetric_error_bars(three):
    c, *_ = three
    rows = length_buckets(c, samples=100)
    fig = research_views.bucket_figure(rows, "METEOR", "By reference length", "corpus METEOR")
    assert len(fig.data) == 3 and fig.layout.barmode == "group"
    first = fig.data[0]
    mine = [r for r in rows if r["system"] == "sys1"]
    assert list(first.x) == [r["bucket"] for r in mine]
    assert list(first.error_y.array) == pytest.approx([r["ci_high"] - r["METEOR"] for r in mine])
    assert list(first.error_y.arrayminus) == pytest.approx([r["METEOR"] - r["ci_low"] for r in mine])
    assert fig.data[1].name == "&lt;b&gt;sys2&lt;/b&gt;"
    from meteor_core.analysis.buckets import frequency_buckets
    words = frequency_buckets(c, samples=50)
    fig = research_views.bucket_figure(words, "fmean", "By frequency", "Fmean")
    assert "0" not in fig.data[0].x  # no reference has those words: no Fmean, no bar


def test_metric_source_and_signature_columns(three):
    c, systems, references, _ = three
    corpus = research_views.with_metrics(compare_views.corpus_table(c),
                                         {n: {"bleu": 10.0 + k} for k, n in enumerate(c.names)}, {"bleu": "BLEU"})
    assert list(corpus["BLEU"]) == [10.0, 11.0, 12.0]
    assert list(corpus.columns[:3]) == ["system", "corpus METEOR", "BLEU"]  # beside METEOR, not off the right edge
    segments = compare_views.segment_table(c, "sys1", "rev", references, systems)
    shown = segments[segments["segment"].isin([3, 7])]
    sentence = {n: {"chrf": [float(k) for k in range(80)]} for n in c.names}
    with_scores = research_views.with_segment_metrics(shown, sentence, {"chrf": "chrF"})
    assert list(with_scores["rev chrF"]) == [2.0, 6.0]  # matched by segment number, not position
    columns = list(with_scores.columns)
    assert all(columns[columns.index(n) + 1] == f"{n} chrF" for n in c.names)  # each beside its METEOR
    sourced = research_views.with_sources(shown, [f"src {k}" for k in range(1, 81)])
    assert list(sourced.columns[:2]) == ["segment", "source"] and list(sourced["source"]) == ["src 3", "src 7"]
    assert research_views.with_sources(shown, None) is shown
    signed = research_views.with_signature(shown, c.config.signature())
    assert set(signed["signature"]) == {c.config.signature()}


def test_exports(three):
    c, _, _, report = three
    corpus = compare_views.corpus_table(c)
    tex = research_views.latex_table(corpus, report, {"METEOR": c.config.signature()})
    assert "\\toprule" in tex and "\\&lt;" not in tex and "\\textless{}b\\textgreater{}sys2" in tex
    assert "paired approximate randomization, 300 trials" in tex
    from openpyxl import load_workbook
    data = research_views.xlsx_tables({"corpus": corpus, "significance": research_views.pairwise_table(report)},
                                      {"METEOR": c.config.signature()}, {"seed": 12345})
    book = load_workbook(BytesIO(data))
    assert book.sheetnames == ["signature", "corpus", "significance"]
    assert book["corpus"].max_row == 4 and book["significance"]["C1"].value == "B - A"
