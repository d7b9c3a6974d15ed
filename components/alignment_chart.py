"""The alignment drawing: candidate tokens on the top row, reference tokens on the bottom row,
one line per match coloured by stage, chunks as numbered shaded bands, unmatched tokens grey.

Token text goes through html.escape: Plotly renders a small HTML subset in labels and hovers,
and user text must show as typed, never as markup.
"""
from __future__ import annotations

from html import escape as _html_escape

import plotly.graph_objects as go

STAGE_COLORS = {"exact": "#1f77b4", "stem": "#2ca02c", "synonym": "#ff7f0e", "paraphrase": "#9467bd"}
STAGE_VIA = {"exact": "same word", "stem": "shared stem", "synonym": "WordNet synset", "paraphrase": "paraphrase"}
CHUNK_FILLS = ("#c6dbef", "#fdd0a2", "#c7e9c0", "#dadaeb", "#fcbba1", "#d9d9d9")
UNMATCHED = "#9e9e9e"

def escape(text: str) -> str:
    """Plotly decodes &lt; &gt; &amp; but shows &quot; literally: escape only what makes markup."""
    return _html_escape(text, quote=False)


HYP_Y, REF_Y = 1.0, 0.0
CHAR_PX, GAP_PX = 7.5, 14.0  # label widths at the 13px font used below
SLOT_PX = 24.0  # spacing per token when labels are turned on their side
MAX_FLAT_PX = 1100.0  # wider than this and labels are rotated instead of laid flat
VIEW_PX = 800.0  # wider drawings show this much at a time, at full scale, and pan (range slider)


def _layout(tokens: list[str], rotated: bool) -> tuple[list[float], list[tuple[float, float]]]:
    """x centre and (left, right) extent of each token: by label width when flat, evenly
    spaced when rotated."""
    centres, extents, x = [], [], 0.0
    for t in tokens:
        w = SLOT_PX if rotated else max(len(t), 2) * CHAR_PX + GAP_PX
        centres.append(x + w / 2)
        extents.append((x + 2, x + w - 2))
        x += w
    return centres, extents


def _row_width(tokens: list[str]) -> float:
    return sum(max(len(t), 2) * CHAR_PX + GAP_PX for t in tokens)


def alignment_figure(result, title: str | None = None, marked: set[tuple[int, int]] | None = None,
                     hyp_label: str = "candidate", ref_label: str = "reference") -> go.Figure:
    """Draw ``result`` (a PairResult). ``marked``: (hyp, ref) pairs drawn dashed and thick,
    e.g. the matches another alignment does not have."""
    hyp, ref = result.hyp_tokens, result.ref_tokens
    marked = marked or set()
    rotated = max(_row_width(hyp), _row_width(ref)) > MAX_FLAT_PX
    (hx, hext), (rx, rext) = _layout(hyp, rotated), _layout(ref, rotated)
    fig = go.Figure()
    by_hyp, by_ref = result.token_matches()
    chunk_of_hyp, chunk_of_ref = result.token_chunks()

    # Chunks first, so they sit behind lines and tokens.
    for k, span in enumerate(result.chunk_spans):
        fill = CHUNK_FILLS[k % len(CHUNK_FILLS)]
        for ext, start, end, y in ((hext, span.hyp_start, span.hyp_end, HYP_Y), (rext, span.ref_start, span.ref_end, REF_Y)):
            fig.add_shape(type="rect", x0=ext[start][0], x1=ext[end - 1][1], y0=y - 0.07, y1=y + 0.07,
                          fillcolor=fill, line=dict(width=1, color="#8c8c8c"), layer="below", name=f"chunk {k + 1}")
        for ext, start, y, anchor in ((hext, span.hyp_start, HYP_Y - 0.15, "top"), (rext, span.ref_start, REF_Y + 0.15, "bottom")):
            fig.add_annotation(x=ext[start][0], y=y, text=f"{k + 1}", showarrow=False, xanchor="left", yanchor=anchor,
                               font=dict(size=10, color="#333"), bgcolor=fill, bordercolor="#8c8c8c",
                               borderwidth=1, borderpad=1, name="chunk-label")

    # One line trace per (stage, marked) so the legend shows stages; a hover point mid-line.
    groups: dict[tuple[str, bool], list] = {}
    for m in result.alignment:
        groups.setdefault((m.stage, (m.hyp_index, m.ref_index) in marked), []).append(m)
    for (stage, is_marked), ms in sorted(groups.items(), key=lambda kv: (list(STAGE_COLORS).index(kv[0][0]), kv[0][1])):
        xs, ys, mx, my, hover = [], [], [], [], []
        for m in ms:
            x0 = sum(hx[i] for i in m.hyp_positions) / m.hyp_length  # phrases: from centre to centre
            x1 = sum(rx[j] for j in m.ref_positions) / m.ref_length
            xs += [x0, x1, None]
            ys += [HYP_Y, REF_Y, None]
            mx.append((x0 + x1) / 2)
            my.append((HYP_Y + REF_Y) / 2)
            h_text = " ".join(hyp[i] for i in m.hyp_positions)
            r_text = " ".join(ref[j] for j in m.ref_positions)
            hover.append(f"<b>{escape(h_text)}</b> ↔ <b>{escape(r_text)}</b><br>"
                         f"stage: {stage}<br>{STAGE_VIA.get(stage, 'via')}: {escape(m.via)}"
                         + ("<br><i>not in the other alignment</i>" if is_marked else ""))
        name = stage + (" (differs)" if is_marked else "")
        color = STAGE_COLORS.get(stage, "#333")
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=name, legendgroup=name, hoverinfo="skip",
                                 line=dict(color=color, width=4 if is_marked else 2, dash="dash" if is_marked else "solid"),
                                 meta={"role": "match-lines", "stage": stage, "marked": is_marked, "count": len(ms)}))
        fig.add_trace(go.Scatter(x=mx, y=my, mode="markers", showlegend=False, legendgroup=name, hovertext=hover,
                                 hoverinfo="text", marker=dict(size=14, color=color, opacity=0.0),
                                 meta={"role": "match-hover"}))

    # Tokens: markers (hover) and labels (annotations, which can be rotated).
    for tokens, xs, y, side, partner_tokens, match_of, chunk_of in (
        (hyp, hx, HYP_Y, hyp_label, ref, by_hyp, chunk_of_hyp),
        (ref, rx, REF_Y, ref_label, hyp, by_ref, chunk_of_ref),
    ):
        colors, symbols, hover = [], [], []
        for k, t in enumerate(tokens):
            m = match_of.get(k)
            if m is None:
                colors.append(UNMATCHED)
                symbols.append("circle-open")
                hover.append(f"{side} #{k}: <b>{escape(t)}</b><br>unmatched")
            else:
                others = m.ref_positions if side == hyp_label else m.hyp_positions
                colors.append(STAGE_COLORS.get(m.stage, "#333"))
                symbols.append("circle")
                partner = " ".join(partner_tokens[o] for o in others)
                hover.append(f"{side} #{k}: <b>{escape(t)}</b><br>{m.stage} match with "
                             f"<b>{escape(partner)}</b> (#{others[0]})<br>chunk {chunk_of[k] + 1}")
            above = y == HYP_Y
            fig.add_annotation(
                x=xs[k], y=y + (0.1 if above else -0.1), text=escape(t), showarrow=False,
                textangle=-60 if rotated else 0,
                xanchor="left" if rotated and above else ("right" if rotated else "center"),
                yanchor="bottom" if above else "top",
                font=dict(size=13, color="#111" if m is not None else UNMATCHED),
                name=f"{'hyp' if above else 'ref'}-token",
            )
        fig.add_trace(go.Scatter(x=xs, y=[y] * len(tokens), mode="markers", showlegend=False, hovertext=hover,
                                 hoverinfo="text", marker=dict(size=9, color=colors, symbol=symbols,
                                                                line=dict(width=1.5, color=colors)),
                                 meta={"role": "tokens", "side": "hyp" if y == HYP_Y else "ref"}))

    natural_px = max(hext[-1][1] if hext else 0, rext[-1][1] if rext else 0) + 40
    windowed = natural_px > VIEW_PX  # keep one data unit = one pixel, show a window, let it pan
    width_px = min(max(natural_px, 420), VIEW_PX)
    longest = max((len(t) for t in hyp + ref), default=1)
    label_px = (longest * CHAR_PX * 0.87 + 10) if rotated else 24
    plot_px = 180
    height = int(plot_px + 2 * label_px + (60 if title else 40) + (60 if windowed else 0))
    pad = label_px / plot_px  # data units above and below the rows that the labels need
    fig.update_layout(
        title=dict(text=escape(title), x=0.01) if title else None,
        width=int(width_px + 100), height=height, margin=dict(l=90, r=10, t=50 if title else 30, b=10),
        plot_bgcolor="white", hovermode="closest", dragmode="pan",
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=1, xanchor="right", title_text="stage"),
        xaxis=dict(visible=windowed, showticklabels=False, showgrid=False, zeroline=False, range=[-10, width_px - 10],
                   rangeslider=dict(visible=windowed, thickness=0.08, range=[-10, natural_px])),
        yaxis=dict(visible=False, range=[REF_Y - 0.15 - pad, HYP_Y + 0.15 + pad], fixedrange=True),
        meta={"windowed": windowed, "natural_px": natural_px},
    )
    for y, label in ((HYP_Y, hyp_label), (REF_Y, ref_label)):
        fig.add_annotation(xref="paper", x=0, y=y, text=escape(label), showarrow=False, xanchor="right",
                           font=dict(size=12, color="#555"), name="row-label")
    return fig
