"""Views of a system comparison: corpus and segment tables, filters and charts (pure functions
of meteor_core results, so they are testable without a browser)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from components.plain_text import plotly_literal as esc  # system names are user strings
from meteor_core.analysis.compare import SystemComparison
from meteor_core.safe_export import json_text


def corpus_table(comparison: SystemComparison) -> pd.DataFrame:
    return pd.DataFrame(comparison.corpus_rows())


def corpus_json(comparison: SystemComparison, bootstrap=None) -> str:
    data = {"segments": comparison.n_segments, "signature": comparison.config.signature(),
            "systems": comparison.corpus_rows()}
    if bootstrap is not None:
        data["bootstrap"] = bootstrap.to_dict()
    return json_text(data, indent=2)


def segment_table(comparison: SystemComparison, a: str, b: str, references: list[list[str]],
                  systems: dict[str, list[str]]) -> pd.DataFrame:
    """One row per segment: id (from 1), every system's score, B − A, lengths and the texts."""
    df = pd.DataFrame({"segment": np.arange(1, comparison.n_segments + 1)})
    for name in comparison.names:
        df[name] = comparison.segment_scores(name)
    df[f"{b} − {a}"] = df[b] - df[a]
    df["reference length"] = [len(s.ref_tokens) for s in comparison.results[a].segments]
    df["reference"] = [refs[0] for refs in references]
    for name in comparison.names:
        df[f"{name} output"] = systems[name]
    return df


def filter_segments(df: pd.DataFrame, a: str, b: str, score_range=(0.0, 1.0), diff_range=(-1.0, 1.0),
                    query: str = "") -> pd.DataFrame:
    """Rows where A or B scores within ``score_range``, B − A is within ``diff_range`` and every
    word of ``query`` occurs (case-insensitively) in the reference or an output."""
    lo, hi = score_range
    keep = df[a].between(lo, hi) | df[b].between(lo, hi)
    keep &= df[f"{b} − {a}"].between(*diff_range)
    words = query.lower().split()
    if words:
        text_columns = [c for c in df.columns if c == "reference" or c.endswith(" output")]
        text = df[text_columns].astype(str).agg(" ".join, axis=1).str.lower()
        for w in words:
            keep &= text.str.contains(w, regex=False)
    return df[keep]


def scatter_figure(df: pd.DataFrame, a: str, b: str) -> go.Figure:
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", line=dict(color="#aaa", dash="dot"),
                             name="equal", hoverinfo="skip"))
    fig.add_trace(go.Scatter(x=df[a], y=df[b], mode="markers", name="segments", customdata=df["segment"],
                             marker=dict(size=6, opacity=0.6, color=df[b] - df[a], colorscale="RdBu",
                                         cmin=-0.5, cmax=0.5, colorbar=dict(title=esc(f"{b} − {a}"))),
                             hovertemplate="segment %{customdata}<br>" + f"{esc(a)}: " + "%{x:.4f}<br>"
                                           + f"{esc(b)}: " + "%{y:.4f}<extra></extra>"))
    fig.update_layout(title=esc(f"Segment scores: {a} vs {b}"),
                      xaxis=dict(title=esc(a), range=[0, 1], constrain="domain"),
                      yaxis=dict(title=esc(b), range=[0, 1], scaleanchor="x", constrain="domain"), height=480,
                      showlegend=False)
    return fig


def diff_histogram(df: pd.DataFrame, a: str, b: str) -> go.Figure:
    d = df[f"{b} − {a}"]
    fig = go.Figure(go.Histogram(x=d, xbins=dict(start=-1, end=1, size=0.05), marker_color="#1f77b4"))
    fig.add_vline(x=0, line=dict(color="#555", dash="dot"))
    fig.update_layout(title=esc(f"Differences {b} − {a} (mean {d.mean():+.4f})"), xaxis_title=esc(f"{b} − {a}"),
                      yaxis_title="segments", height=380, bargap=0.05)
    return fig


def length_figure(df: pd.DataFrame, names: list[str]) -> go.Figure:
    """Score against reference length, per system: the points and the mean per length bin."""
    fig = go.Figure()
    bins = pd.cut(df["reference length"], bins=[0, 5, 10, 15, 20, 30, 40, 60, 1000])
    for name in names:
        fig.add_trace(go.Scatter(x=df["reference length"], y=df[name], mode="markers", name=esc(name),
                                 marker=dict(size=5, opacity=0.35), legendgroup=name))
        means = df.groupby(bins, observed=True)[name].mean()
        centres = df.groupby(bins, observed=True)["reference length"].mean()
        fig.add_trace(go.Scatter(x=centres, y=means, mode="lines+markers", name=esc(f"{name} (mean per length bin)"),
                                 legendgroup=name, line=dict(width=3)))
    fig.update_layout(title="Score vs reference length", xaxis_title="reference tokens", yaxis_title="METEOR",
                      yaxis_range=[0, 1], height=420)
    return fig
