"""Score breakdown views: the terms table, the waterfall from a perfect 1.0 down to the score,
and the per-stage contribution table. Inputs are meteor_core results; outputs are a pandas
DataFrame or a Plotly figure, so they are testable without a browser."""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from meteor_core.explain import number, penalty_curve, score_terms, stage_contributions


def terms_table(result, config) -> pd.DataFrame:
    rows = [{"term": t.name, "symbol": t.symbol, "formula": t.formula, "with the numbers": t.substituted,
             "value": "" if t.value is None else str(t.value) if isinstance(t.value, int) else number(t.value)}
            for t in score_terms(result, config)]
    return pd.DataFrame(rows)


def waterfall_figure(result) -> go.Figure:
    """1.0 → minus what unmatched words cost (1 − Fmean) → Fmean → minus the fragmentation
    penalty (Fmean·Pen) → the final score. The bars add up exactly to the score."""
    f, pen, s = result.fmean, result.penalty, result.score
    fig = go.Figure(go.Waterfall(
        orientation="v",
        measure=["absolute", "relative", "total", "relative", "total"],
        x=["perfect match", "unmatched words (1 − Fmean)", "Fmean", "fragmentation (Fmean·Pen)", "METEOR"],
        y=[1.0, -(1.0 - f), 0, -(f * pen), 0],
        text=["1.0000", number(-(1 - f), signed=True), number(f), number(-(f * pen), signed=True), number(s)],
        textposition="outside",
        connector=dict(line=dict(color="#999", width=1)),
        decreasing=dict(marker=dict(color="#d62728")),
        totals=dict(marker=dict(color="#1f77b4")),
        increasing=dict(marker=dict(color="#2ca02c")),
    ))
    fig.update_layout(height=360, margin=dict(l=20, r=20, t=30, b=20), yaxis=dict(range=[0, 1.12], title="score"),
                      showlegend=False, title=dict(text="From a perfect 1.0 to the score", x=0.01))
    return fig


def stage_table(result, config) -> pd.DataFrame:
    rows = [{"stage": c.stage, "matches added": c.added, "matches so far": c.matches, "chunks so far": c.chunks,
             "score with stages so far": number(c.score), "score gained": number(c.gain, signed=True)}
            for c in stage_contributions(result, config)]
    return pd.DataFrame(rows)


def penalty_curve_figure(result, config) -> go.Figure:
    """The penalty (and the score) this pair would get with 1, 2, … chunks, its own marked."""
    points = penalty_curve(result, config)
    fig = go.Figure()
    if points:
        xs = [p.chunks for p in points]
        fig.add_trace(go.Scatter(x=xs, y=[p.penalty for p in points], mode="lines+markers", name="penalty",
                                 line=dict(color="#d62728"), marker=dict(size=5),
                                 hovertemplate="%{x} chunks: penalty %{y:.4f}<extra></extra>"))
        fig.add_trace(go.Scatter(x=xs, y=[p.score for p in points], mode="lines", name="score",
                                 line=dict(color="#1f77b4", dash="dot"),
                                 hovertemplate="%{x} chunks: score %{y:.4f}<extra></extra>"))
        fig.add_trace(go.Scatter(x=[result.chunks], y=[result.penalty], mode="markers+text", name="this pair",
                                 marker=dict(size=13, color="#d62728", line=dict(width=2, color="#111")),
                                 text=[f"this pair: {result.chunks}"],  # inside the plot, never cut at its edge
                                 textposition="top right" if result.chunks <= len(points) / 2 else "top left",
                                 hovertemplate="this pair: %{x} chunks, penalty %{y:.4f}<extra></extra>"))
    fig.update_layout(height=290, margin=dict(l=10, r=10, t=36, b=10), showlegend=True,
                      legend=dict(orientation="h", y=-0.42), title=dict(text="Penalty against chunks", x=0.01),
                      xaxis=dict(title=dict(text="chunks", standoff=4), dtick=max(1, len(points) // 10) if points else 1),
                      yaxis=dict(range=[0, 1.02], title=None))
    return fig
