"""Views of agreement with human judgments (meteor_core.analysis.agreement, .tuning): tables of
figures with intervals, paired tests, the system-level scatter, the segment-level density and the
tuning heatmap. Pure functions of results, testable without a browser. System and column names
come from the user's file: every Plotly label goes through ``escape``."""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from components.plain_text import plotly_literal as escape  # <, >, & and % (hover templates)
from meteor_core.analysis.agreement import MEASURES, SEGMENT_MEASURES, SYSTEM_MEASURES

LABELS = {"system.pearson": "Pearson", "system.spearman": "Spearman", "system.kendall": "Kendall τb",
          "system.pairwise_accuracy": "pairwise accuracy", "segment.kendall": "Kendall τb",
          "segment.kendall_grouped": "Kendall τb grouped by segment"}
MEASURE_NAMES = {m: f"{m.split('.')[0]} level: {LABELS[m]}" for m in MEASURES}
GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ"}
# What a tuned parameter at the end of its grid means (the optimum may lie at or beyond the edge).
EDGE_MEANINGS = {("alpha", 0): "Fmean is precision alone", ("alpha", 1): "Fmean is recall alone",
                 ("gamma", 0): "no fragmentation penalty at all", ("beta", 0): "the penalty is γ whatever the chunks",
                 ("delta", 0): "only function words count", ("delta", 1): "only content words count"}


def metric_label(name: str) -> str:
    """How a metric is named on the page: TER is negated here (higher is better everywhere), and
    says so."""
    return "−TER (negated)" if name == "ter" else name


def _interval(figure) -> str:
    if np.isnan(figure.ci_low):
        return ""
    return f"{figure.ci_low:+.3f} … {figure.ci_high:+.3f}"


def figures_table(report, level: str) -> pd.DataFrame:
    """One row per metric: each figure of ``level`` ("system" or "segment") and its 95% interval."""
    measures = SYSTEM_MEASURES if level == "system" else SEGMENT_MEASURES
    rows = []
    for name, metric in report.metrics.items():
        row = {"metric": metric_label(name)}
        for m in measures:
            figure = metric.figures[f"{level}.{m}"]
            row[LABELS[f"{level}.{m}"]] = None if np.isnan(figure.value) else figure.value
            row[f"{LABELS[f'{level}.{m}']} 95% CI"] = _interval(figure)
        if level == "segment":
            row["segments used (grouped)"] = metric.items_used
        rows.append(row)
    return pd.DataFrame(rows)


def _excludes_zero(figure) -> bool:
    return bool(figure.ci_low > 0 or figure.ci_high < 0)  # False for NaN intervals


def best_summary(report) -> list[str]:
    """Plain sentences, one per figure: which metric is highest, and whether that means anything.
    A metric is named as agreeing best only when it beats every other one by the verdict's rule
    (verdict.RULE, Holm-adjusted over the pairs of the figure); the highest value alone is said to
    be no more than that when the paired tests do not back it, and nothing is ranked when no
    metric's own 95% interval excludes 0."""
    lines = []
    tests = report.paired_tests() if len(report.metrics) >= 2 else []
    for measure in MEASURES:
        best = report.best(measure)
        if best is None:
            continue
        figures = {name: metric.figures[measure] for name, metric in report.metrics.items()}
        head = f"{MEASURE_NAMES[measure]}: highest is {metric_label(best)} ({figures[best].value:+.4f})"
        if not any(_excludes_zero(f) for f in figures.values()):
            lines.append(f"{head}, but no metric's 95% interval excludes 0: no metric is shown to agree with "
                         "people here, so none is ranked.")
            continue
        if len(figures) == 1:
            lines.append(head + ".")
            continue
        mine = [t for t in tests if t.measure == measure and best in (t.a, t.b)]
        not_beaten = sorted(metric_label(t.b if t.a == best else t.a) for t in mine
                            if not (t.significant and (t.delta > 0) == (t.a == best)))
        if not_beaten:
            lines.append(f"{head}, not significantly above {', '.join(not_beaten)} (paired test, Holm-adjusted): "
                         "no single best metric.")
        else:
            lines.append(f"{head}, significantly above every other metric (paired test, Holm-adjusted).")
    return lines


def paired_table(report, measure: str) -> pd.DataFrame:
    """Every pair of metrics on one figure: A − B, its 95% interval, p-value and the verdict."""
    rows = []
    for t in report.paired_tests([measure]):
        if np.isnan(t.delta):
            verdict = "undefined"
        elif not t.significant:
            verdict = "no significant difference"
        else:
            verdict = f"{metric_label(t.a if t.delta > 0 else t.b)} agrees better"
        rows.append({"metric A": metric_label(t.a), "metric B": metric_label(t.b), "A − B": t.delta, "95% CI low": t.ci_low,
                     "95% CI high": t.ci_high, "p-value": t.p_value, "p (Holm, all pairs)": t.p_holm,
                     "verdict": verdict})
    return pd.DataFrame(rows)


def systems_table(report, metric: str) -> pd.DataFrame:
    rows = report.metrics[metric].systems
    return pd.DataFrame({"system": [r["system"] for r in rows], "human (mean)": [r["human"] for r in rows],
                         f"{metric_label(metric)} (corpus)": [r["metric"] for r in rows], "rows": [r["rows"] for r in rows],
                         "rated rows": [r["rated"] for r in rows]})


def system_scatter(report, metric: str, human_column: str) -> go.Figure:
    """Each system at (mean human score, corpus metric score), labelled with its (escaped) name."""
    rows = [r for r in report.metrics[metric].systems if r["human"] is not None and np.isfinite(r["human"])]
    names = [escape(r["system"]) for r in rows]
    x = np.array([r["human"] for r in rows])
    y = np.array([r["metric"] for r in rows])
    figure = report.metrics[metric].figures
    fig = go.Figure()
    if len(x) >= 2 and np.ptp(x) > 0:
        slope, intercept = np.polyfit(x, y, 1)
        xs = np.array([x.min(), x.max()])
        fig.add_trace(go.Scatter(x=xs, y=slope * xs + intercept, mode="lines", name="least squares",
                                 line=dict(color="#aaa", dash="dot"), hoverinfo="skip"))
    fig.add_trace(go.Scatter(
        x=x, y=y, mode="markers+text", text=names, textposition="top center", name="systems",
        marker=dict(size=10, color="#1f77b4"), customdata=names,
        hovertemplate="%{customdata}<br>human %{x:.4f}<br>" + escape(metric_label(metric)) + " %{y:.4f}<extra></extra>"))
    title = (f"{escape(metric_label(metric))} vs people, system level: Pearson {figure['system.pearson'].value:+.3f}, "
             f"Kendall {figure['system.kendall'].value:+.3f}")
    fig.update_layout(title=dict(text=title, x=0.01), height=480, showlegend=False,
                      xaxis_title=f"mean human score ({escape(human_column)})", yaxis_title=f"{escape(metric_label(metric))} corpus score",
                      margin=dict(l=20, r=20, t=50, b=20))
    return fig


def segment_density(human: np.ndarray, metric_scores: np.ndarray, metric: str, human_column: str,
                    bins: int = 30) -> go.Figure:
    """How the rated rows spread over (human score, sentence score): counts per cell, on a log
    colour scale (MQM piles most rows on 0 = no error)."""
    rated = ~np.isnan(human)
    x, y = human[rated], metric_scores[rated]
    counts, x_edges, y_edges = np.histogram2d(x, y, bins=bins)
    xc, yc = (x_edges[:-1] + x_edges[1:]) / 2, (y_edges[:-1] + y_edges[1:]) / 2
    z = np.where(counts > 0, np.log10(np.maximum(counts, 1)), np.nan).T  # rows: metric bins
    ticks = [t for t in (0, 1, 2, 3, 4) if t <= max(1, np.nanmax(z) if np.isfinite(z).any() else 1)]
    fig = go.Figure(go.Heatmap(
        x=xc, y=yc, z=z, customdata=counts.T, colorscale="Viridis",
        colorbar=dict(title="rows", tickvals=ticks, ticktext=[f"{10 ** t:,}" for t in ticks]),
        hovertemplate="human ≈ %{x:.2f}<br>" + escape(metric_label(metric)) + " ≈ %{y:.3f}<br>%{customdata:,} rows"
                      "<extra></extra>"))
    fig.update_layout(title=dict(text=f"{escape(metric_label(metric))} vs people, segment level ({len(x):,} rated rows)", x=0.01),
                      xaxis_title=f"human score ({escape(human_column)})", yaxis_title=f"{escape(metric_label(metric))} sentence score",
                      height=460, margin=dict(l=20, r=20, t=50, b=20))
    return fig


def tuning_table(result) -> pd.DataFrame:
    rows = []
    for label, params, train, heldout in (("default", result.default, result.default_train, result.default_heldout),
                                          ("best on training rows", result.best, result.best_train, result.best_heldout)):
        rows.append({"": label, **{GREEK[p]: params[p] for p in result.parameters},
                     f"{MEASURE_NAMES[result.objective]}, training rows": train,
                     f"{MEASURE_NAMES[result.objective]}, held-out rows": heldout})
    return pd.DataFrame(rows)


def tuning_heatmap(result, x: str, y: str) -> go.Figure:
    """The training objective over two tuned parameters (the others at their best values: the
    slice the best point lies on), with the best grid point marked, and the default where it lies
    on that slice (otherwise the legend says on which slice it is)."""
    plane = result.plane(x, y)
    finite = plane[np.isfinite(plane)]
    objective = MEASURE_NAMES[result.objective]
    centre = dict(zmid=float(result.default_train)) if finite.size and np.ptp(finite) > 0 else {}
    fig = go.Figure(go.Heatmap(
        x=result.grid[x], y=result.grid[y], z=plane, colorscale="RdBu", **centre,
        colorbar=dict(title=LABELS[result.objective]),
        hovertemplate=f"{GREEK[x]} %{{x:g}}<br>{GREEK[y]} %{{y:g}}<br>{objective} %{{z:.4f}}<extra></extra>"))
    others = [p for p in result.parameters if p not in (x, y)]
    default_here = all(result.default[p] == result.best[p] for p in others)
    same = default_here and all(result.default[p] == result.best[p] for p in (x, y))
    off_slice = ", ".join(f"{GREEK[p]} = {result.default[p]:g}" for p in others if result.default[p] != result.best[p])
    for label, params, symbol, colour, shown in (
            ("default" if default_here else f"default (at {off_slice}, not this slice)", result.default, "circle",
             "white", default_here),
            ("best", result.best, "star", "gold", True)):
        if not shown:
            continue
        fig.add_trace(go.Scatter(x=[params[x]], y=[params[y]], mode="markers", name=label, hoverinfo="name",
                                 marker=dict(symbol=symbol, size=18, color=colour, line=dict(width=2, color="black"))))
        if same and label == "best":
            continue
        fig.add_annotation(x=params[x], y=params[y], text="default = best" if same else label, showarrow=False,
                           yshift=22, bgcolor="white", bordercolor="black", borderwidth=1, font=dict(size=12, color="black"))
    fixed = ", ".join(f"{GREEK[p]} = {result.best[p]:g}" for p in others)
    title = f"{objective} on the training rows over {GREEK[x]} and {GREEK[y]}" + (f" ({fixed})" if fixed else "")
    if not default_here:
        title += f"<br><sup>The default ({off_slice}) lies on another slice; it is not drawn here.</sup>"
    fig.update_layout(title=dict(text=title, x=0.01), xaxis_title=GREEK[x], yaxis_title=GREEK[y], height=500,
                      showlegend=False, margin=dict(l=20, r=20, t=70 if not default_here else 50, b=20))
    return fig


def edge_notes(result) -> list[str]:
    """Sentences for every tuned parameter whose best value lies at an end of its grid: the optimum
    may lie there or beyond, and some ends mean something (α = 0: precision alone)."""
    notes = []
    for p in result.parameters:
        grid, best = result.grid[p], result.best[p]
        if len(grid) < 2 or best not in (grid[0], grid[-1]):
            continue
        end = "lowest" if best == grid[0] else "highest"
        meaning = EDGE_MEANINGS.get((p, best))
        notes.append(f"The best {GREEK[p]} = {best:g} is the {end} value of the grid"
                     + (f" ({meaning})" if meaning else "")
                     + ": the optimum lies at the edge of what was tried, not inside it.")
    return notes


def tuning_line(result, x: str) -> go.Figure:
    """One tuned parameter: the training objective along it, default and best marked."""
    objective = MEASURE_NAMES[result.objective]
    fig = go.Figure(go.Scatter(x=result.grid[x], y=result.values, mode="lines+markers", name=objective))
    for label, params in (("default", result.default), ("best", result.best)):
        fig.add_vline(x=params[x], line=dict(dash="dot", color="#555"), annotation_text=label)
    fig.update_layout(title=dict(text=f"{objective} on the training rows over {GREEK[x]}", x=0.01),
                      xaxis_title=GREEK[x], yaxis_title=LABELS[result.objective], height=420, margin=dict(l=20, r=20, t=50, b=20))
    return fig
