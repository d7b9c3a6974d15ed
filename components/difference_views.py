"""Views of a Difference (meteor_core.analysis.difference): the waterfall and the terms side by side."""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from meteor_core.explain import number

TERMS = ("matches", "chunks", "precision", "recall", "fmean", "penalty", "score")


def waterfall_figure(d) -> go.Figure:
    """A's score, one bar per factor that changed, B's score; the bars add up exactly."""
    x = [f"A: {d.config_a.name}"] + [s.factor for s in d.steps] + [f"B: {d.config_b.name}"]
    y = [d.score_a] + [s.delta for s in d.steps] + [0]
    text = [number(d.score_a)] + [number(s.delta, signed=True) for s in d.steps] + [number(d.score_b)]
    fig = go.Figure(go.Waterfall(
        x=x, y=y, text=text, textposition="outside", measure=["absolute"] + ["relative"] * len(d.steps) + ["total"],
        hovertext=[d.config_a.signature()] + [s.change for s in d.steps] + [d.config_b.signature()], hoverinfo="text",
        connector=dict(line=dict(color="#999", width=1)), decreasing=dict(marker=dict(color="#d62728")),
        increasing=dict(marker=dict(color="#2ca02c")), totals=dict(marker=dict(color="#1f77b4")),
    ))
    top = max([d.score_a, d.score_b] + [s.score for s in d.steps] + [0.1])
    fig.update_layout(title=dict(text=f"From {d.config_a.name} to {d.config_b.name}, one factor at a time", x=0.01),
                      yaxis=dict(range=[0, min(1.15, top * 1.2 + 0.05)], title="score"), height=420,
                      margin=dict(l=20, r=20, t=50, b=20), showlegend=False)
    return fig


def steps_table(d) -> pd.DataFrame:
    """Row 0 is A; then one row per step. "share of the gap" is text (signed, 4 decimals, empty
    for A): a float column would show A's missing share as "None" and tiny negatives as -0.0000."""
    rows = [{"step": 0, "factor": f"A: {d.config_a.name}", "change": "", "share of the gap": "",
             **{t: d.terms_a[t] for t in TERMS}}]
    for k, s in enumerate(d.steps, start=1):
        rows.append({"step": k, "factor": s.factor, "change": s.change,
                     "share of the gap": number(s.delta, signed=True), **{t: s.terms[t] for t in TERMS}})
    return pd.DataFrame(rows)


def _fmt(v) -> str:
    return number(v) if isinstance(v, float) else str(v)


def terms_side_by_side(d, result_a, result_b) -> pd.DataFrame:
    """Every term under A and under B, and B − A (as text: the rows mix tokens and numbers)."""
    def row(name, a, b):
        diff = "" if isinstance(a, str) else (number(b - a, signed=True) if isinstance(a, float) else f"{b - a:+d}")
        return {"term": name, f"A: {d.config_a.name}": _fmt(a), f"B: {d.config_b.name}": _fmt(b), "B − A": diff}

    rows = [row("tokens (candidate)", " ".join(result_a.hyp_tokens), " ".join(result_b.hyp_tokens)),
            row("tokens (reference)", " ".join(result_a.ref_tokens), " ".join(result_b.ref_tokens))]
    for stage in ("exact", "stem", "synonym"):
        rows.append(row(f"matches by {stage}", result_a.matches_by_stage[stage], result_b.matches_by_stage[stage]))
    for t in TERMS:
        rows.append(row(t, getattr(result_a, t), getattr(result_b, t)))
    return pd.DataFrame(rows)
