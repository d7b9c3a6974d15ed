"""Views of the research-grade analyses of a comparison (pure functions, testable without a
browser): the all-pairs significance table and heatmap, bucket bar charts with 95% error bars,
BLEU/chrF/TER columns beside METEOR, the source column, and the export files (LaTeX, xlsx, and
CSV carrying the signature)."""
from __future__ import annotations


import pandas as pd
import plotly.graph_objects as go

from meteor_core.analysis.significance import SignificanceReport
from meteor_core.table_export import comparison_latex, xlsx_workbook
from components.plain_text import plotly_literal as escape  # <, >, & and % (hover templates)

_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]


def pairwise_table(report: SignificanceReport) -> pd.DataFrame:
    """One row per pair: A, B, B − A and the p-values of the tests run, raw and Holm-adjusted."""
    return pd.DataFrame(report.table_rows())


def significance_heatmap(report: SignificanceReport, names: list[str]) -> go.Figure:
    """names × names: colour = column − row corpus METEOR, text = the delta and the p-values
    (AR and/or bootstrap, Holm-adjusted when there are more than one pair)."""
    deltas = report.p_matrix(names, "delta")
    adjusted = len(report.pairwise) > 1
    tests = [(f"{key}_holm" if adjusted else key, label) for key, label in (("p_ar", "AR"), ("p_bootstrap", "bootstrap"))
             if key in report.pairwise[0]]
    matrices = [(report.p_matrix(names, key), label) for key, label in tests]
    text = []
    for i in range(len(names)):
        row = []
        for j in range(len(names)):
            if deltas[i][j] is None:
                row.append("")
                continue
            parts = [f"Δ {deltas[i][j]:+.4f}"] + [f"p {label} {m[i][j]:.4f}" for m, label in matrices]
            row.append("<br>".join(parts))
        text.append(row)
    labels = [escape(n) for n in names]  # system names are user text: never markup
    bound = max((abs(v) for r in deltas for v in r if v is not None), default=0.0) or 1e-9
    fig = go.Figure(go.Heatmap(z=deltas, x=labels, y=labels, text=text, texttemplate="%{text}", hoverinfo="text",
                               colorscale="RdBu", zmid=0, zmin=-bound, zmax=bound,
                               colorbar=dict(title="column − row")))
    held = "Holm-adjusted " if adjusted else ""
    fig.update_layout(title=f"Every pair: corpus METEOR of the column minus the row, {held}p-values",
                      xaxis=dict(side="top"), yaxis=dict(autorange="reversed"),
                      height=160 + 90 * len(names), margin=dict(t=110))
    return fig


def bucket_figure(rows: list[dict], value: str, title: str, y_title: str) -> go.Figure:
    """Grouped bars, one colour per system, ``value`` per bucket with its 95% interval as error bars."""
    fig = go.Figure()
    systems = list(dict.fromkeys(r["system"] for r in rows))
    order = list(dict.fromkeys(r["bucket"] for r in rows))
    for k, name in enumerate(systems):
        mine = {r["bucket"]: r for r in rows if r["system"] == name and r[value] is not None}
        x = [b for b in order if b in mine]  # a bucket without a value (no Fmean) gets no bar
        y = [mine[b][value] for b in x]
        fig.add_trace(go.Bar(
            x=x, y=y, name=escape(name), marker_color=_COLOURS[k % len(_COLOURS)],
            error_y=dict(type="data", symmetric=False, array=[mine[b]["ci_high"] - mine[b][value] for b in x],
                         arrayminus=[mine[b][value] - mine[b]["ci_low"] for b in x]),
            hovertemplate="%{x}: %{y:.4f}<extra>" + escape(name) + "</extra>"))
    fig.update_layout(title=title, barmode="group", yaxis_title=y_title, xaxis=dict(type="category"), height=380)
    return fig


def with_metrics(corpus: pd.DataFrame, corpus_scores: dict[str, dict[str, float]], names: dict[str, str]) -> pd.DataFrame:
    """The corpus table with one column per sacrebleu metric (``corpus_scores[system][metric]``),
    right after corpus METEOR: the scores side by side, where a narrow page still shows them."""
    out = corpus.copy()
    at = list(out.columns).index("corpus METEOR") + 1 if "corpus METEOR" in out.columns else len(out.columns)
    for metric, header in names.items():
        if any(metric in scores for scores in corpus_scores.values()):
            out.insert(at, header, [corpus_scores[s].get(metric) for s in out["system"]])
            at += 1
    return out


def with_segment_metrics(segments: pd.DataFrame, sentence_scores: dict[str, dict[str, list[float]]],
                         names: dict[str, str]) -> pd.DataFrame:
    """The segment table with "<system> <metric>" columns (rows matched by segment number), each
    system's right after its METEOR column (at the end for a system without one)."""
    out = segments.copy()
    ids = out["segment"].to_numpy() - 1
    for system, by_metric in sentence_scores.items():
        at = list(out.columns).index(system) + 1 if system in out.columns else len(out.columns)
        for metric, scores in by_metric.items():
            out.insert(at, f"{system} {names.get(metric, metric)}", [scores[k] for k in ids])
            at += 1
    return out


def with_sources(segments: pd.DataFrame, sources: list[str] | None) -> pd.DataFrame:
    """The source sentence beside each segment (second column), when the test set has one."""
    if sources is None:
        return segments
    out = segments.copy()
    out.insert(1, "source", [sources[k - 1] for k in out["segment"]])
    return out


def with_signature(table: pd.DataFrame, signature: str) -> pd.DataFrame:
    """A CSV download that says how its numbers were computed: a signature column."""
    return table.assign(signature=signature)


def _rows(df: pd.DataFrame) -> list[dict]:
    return [{k: (None if pd.isna(v) else v.item() if hasattr(v, "item") else v) for k, v in row.items()}
            for row in df.to_dict("records")]


def latex_table(corpus: pd.DataFrame, report: SignificanceReport | None, signatures: dict[str, str],
                metrics: tuple[str, ...] = ()) -> str:
    """The corpus table as LaTeX (booktabs) with significance marks against the baseline."""
    return comparison_latex(_rows(corpus), signatures, report, metrics)


def xlsx_tables(tables: dict[str, pd.DataFrame], signatures: dict[str, str], settings: dict) -> bytes:
    """Every table of the page as one workbook (the first sheet: signatures and settings)."""
    return xlsx_workbook({name: _rows(df) for name, df in tables.items()}, signatures, settings)
