"""Score breakdown views: the terms table, the waterfall from a perfect 1.0 down to the score,
and the per-stage contribution table. Inputs are meteor_core results; outputs are a pandas
DataFrame or a Plotly figure, so they are testable without a browser."""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from meteor_core.explain import score_terms, stage_contributions


def terms_table(result, config) -> pd.DataFrame:
    rows = [{"term": t.name, "symbol": t.symbol, "formula": t.formula, "with the numbers": t.substituted,
             "value": "" if t.value is None else str(t.value) if isinstance(t.value, int) else f"{t.value:.4f}"}
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
        text=["1.0000", f"−{1 - f:.4f}", f"{f:.4f}", f"−{f * pen:.4f}", f"{s:.4f}"],
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
             "score with stages so far": round(c.score, 4), "score gained": round(c.gain, 4)}
            for c in stage_contributions(result, config)]
    return pd.DataFrame(rows)
