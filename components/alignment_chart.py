"""The alignment drawing: candidate tokens on the top row, reference tokens on the bottom row,
one line per match coloured by stage, chunks as numbered shaded bands, unmatched tokens grey.

Built in time linear in tokens and matches: a fixed number of traces whatever the length (the
chunk bands of one colour are one filled trace, all labels one text trace, all chunk numbers one
trace), no per-element shapes or annotations (each of those copies Plotly's whole layout list,
which made the drawing quadratic: 35 s for 130 tokens). Positions come from alignment_layout,
so the SVG and TikZ exports show the same picture.

Token text goes through html.escape: Plotly renders a small HTML subset in labels and hovers,
and user text must show as typed, never as markup.
"""
from __future__ import annotations

from bisect import bisect, insort
from html import escape as _html_escape

import plotly.graph_objects as go

from components.alignment_layout import BADGE_OFFSET_PX, BAND_HALF_PX, LABEL_OFFSET_PX, Layout, layout

STAGE_COLORS = {"exact": "#1f77b4", "stem": "#2ca02c", "synonym": "#ff7f0e", "paraphrase": "#9467bd"}
STAGE_VIA = {"exact": "same word", "stem": "shared stem", "synonym": "WordNet synset", "paraphrase": "paraphrase"}
CHUNK_FILLS = ("#c6dbef", "#fdd0a2", "#c7e9c0", "#dadaeb", "#fcbba1", "#d9d9d9")
UNMATCHED = "#9e9e9e"
NARROW_PX = 368.0  # the plot area at 800 px wide (sidebar open): a wider drawing may have to pan
TICK_EVERY = 10  # drawings that may pan number every 10th candidate token on the x axis (where am I?)
BADGE_PX = 17.0  # a chunk number's square and the room it needs beside the next one


def escape(text: str) -> str:
    """Plotly decodes &lt; &gt; &amp; but shows &quot; literally: escape only what makes markup."""
    return _html_escape(text, quote=False)


def stage_order(stage: str) -> int:
    return list(STAGE_COLORS).index(stage) if stage in STAGE_COLORS else len(STAGE_COLORS)


def match_groups(result, marked) -> list[tuple[tuple[str, bool], list]]:
    """Matches grouped by (stage, marked), in stage order: one line trace each."""
    groups: dict[tuple[str, bool], list] = {}
    for m in result.alignment:
        groups.setdefault((m.stage, (m.hyp_index, m.ref_index) in marked), []).append(m)
    return sorted(groups.items(), key=lambda kv: (stage_order(kv[0][0]), kv[0][1]))


def line_ends(m, lay: Layout) -> tuple[float, float]:
    """x of a match's line at the candidate row and at the reference row (phrases: centre to centre)."""
    x0 = sum(lay.hyp.x[i] for i in m.hyp_positions) / m.hyp_length
    x1 = sum(lay.ref.x[j] for j in m.ref_positions) / m.ref_length
    return x0, x1


def _room(xs: list[float], x: float) -> bool:
    """Whether a badge at ``x`` keeps BADGE_PX from every badge at ``xs`` (sorted)."""
    k = bisect(xs, x)
    return (k == 0 or x - xs[k - 1] >= BADGE_PX) and (k == len(xs) or xs[k] - x >= BADGE_PX)


def _chunk_traces(result, lay: Layout) -> list[dict]:
    """Bands (one filled trace per fill colour, a closed rectangle per chunk and row, None between)
    and the chunk numbers (one trace of square badges)."""
    bands: dict[int, dict] = {}
    bx, by, btext, bcolor = [], [], [], []
    placed = {"hyp": [], "ref": []}  # per row and level (levels go inwards), the sorted x of the badges there
    for k, span in enumerate(result.chunk_spans):
        colour = k % len(CHUNK_FILLS)
        band = bands.setdefault(colour, {"x": [], "y": [], "chunks": []})
        band["chunks"].append(k + 1)
        for row, start, end, y in ((lay.hyp, span.hyp_start, span.hyp_end, lay.hyp_y),
                                   (lay.ref, span.ref_start, span.ref_end, lay.ref_y)):
            x0, x1 = row.extent(start)[0], row.extent(end - 1)[1]
            band["x"] += [x0, x1, x1, x0, x0, None]
            band["y"] += [y - BAND_HALF_PX, y - BAND_HALF_PX, y + BAND_HALF_PX, y + BAND_HALF_PX, y - BAND_HALF_PX, None]
        for row, x, y, inwards in (("hyp", lay.hyp.extent(span.hyp_start)[0] + 7, lay.hyp_y - BADGE_OFFSET_PX, -1),
                                   ("ref", lay.ref.extent(span.ref_start)[0] + 7, lay.ref_y + BADGE_OFFSET_PX, 1)):
            # chunks that start on neighbouring tokens would put their numbers side by side ("8 23 10"):
            # a number that would touch another one on its level goes one level further in
            levels = placed[row]
            level = next((n for n, xs in enumerate(levels) if _room(xs, x)), len(levels))
            if level == len(levels):
                levels.append([])
            insort(levels[level], x)
            bx.append(x)
            by.append(y + inwards * BADGE_PX * level)
            btext.append(str(k + 1))
            bcolor.append(CHUNK_FILLS[colour])
    traces = [dict(type="scatter", x=b["x"], y=b["y"], mode="lines", fill="toself", fillcolor=CHUNK_FILLS[c],
                   line=dict(width=1, color="#8c8c8c"), hoverinfo="skip", showlegend=False,
                   meta={"role": "chunk-bands", "chunks": b["chunks"]})
              for c, b in sorted(bands.items())]
    if bx:
        traces.append(dict(type="scatter", x=bx, y=by, mode="markers+text", text=btext, hoverinfo="skip",
                           showlegend=False, textfont=dict(size=10, color="#333"),
                           marker=dict(symbol="square", size=15, color=bcolor, line=dict(width=1, color="#8c8c8c")),
                           meta={"role": "chunk-labels"}))
    return traces


def _match_traces(result, lay: Layout, marked) -> list[dict]:
    """One line trace per (stage, marked), so the legend shows stages; a hover point mid-line."""
    hyp, ref = result.hyp_tokens, result.ref_tokens
    traces = []
    for (stage, is_marked), ms in match_groups(result, marked):
        xs, ys, mx, my, hover = [], [], [], [], []
        for m in ms:
            x0, x1 = line_ends(m, lay)
            xs += [x0, x1, None]
            ys += [lay.hyp_y, lay.ref_y, None]
            mx.append((x0 + x1) / 2)
            my.append((lay.hyp_y + lay.ref_y) / 2)
            h_text = " ".join(hyp[i] for i in m.hyp_positions)
            r_text = " ".join(ref[j] for j in m.ref_positions)
            hover.append(f"<b>{escape(h_text)}</b> ↔ <b>{escape(r_text)}</b><br>"
                         f"stage: {stage}<br>{STAGE_VIA.get(stage, 'via')}: {escape(m.via)}"
                         + ("<br><i>not in the other alignment</i>" if is_marked else ""))
        name = stage + (" (differs)" if is_marked else "")
        color = STAGE_COLORS.get(stage, "#333")
        traces.append(dict(type="scatter", x=xs, y=ys, mode="lines", name=name, legendgroup=name, hoverinfo="skip",
                           line=dict(color=color, width=4 if is_marked else 2, dash="dash" if is_marked else "solid"),
                           meta={"role": "match-lines", "stage": stage, "marked": is_marked, "count": len(ms)}))
        traces.append(dict(type="scatter", x=mx, y=my, mode="markers", showlegend=False, legendgroup=name,
                           hovertext=hover, hoverinfo="text", marker=dict(size=14, color=color, opacity=0.0),
                           meta={"role": "match-hover"}))
    return traces


def _token_traces(result, lay: Layout, hyp_label: str, ref_label: str) -> list[dict]:
    """Per row one marker trace (colour, hollow when unmatched, hover); then every label of both
    rows as one text trace."""
    by_hyp, by_ref = result.token_matches()
    chunk_of_hyp, chunk_of_ref = result.token_chunks()
    traces = []
    lx, ly, ltext, lpos, lcolor = [], [], [], [], []
    for side, tokens, row, y, label, partners, match_of, chunk_of in (
        ("hyp", result.hyp_tokens, lay.hyp, lay.hyp_y, hyp_label, result.ref_tokens, by_hyp, chunk_of_hyp),
        ("ref", result.ref_tokens, lay.ref, lay.ref_y, ref_label, result.hyp_tokens, by_ref, chunk_of_ref),
    ):
        colors, symbols, hover = [], [], []
        for k, t in enumerate(tokens):
            m = match_of.get(k)
            if m is None:
                colors.append(UNMATCHED)
                symbols.append("circle-open")
                hover.append(f"{escape(label)} #{k}: <b>{escape(t)}</b><br>unmatched")
            else:
                others = m.ref_positions if side == "hyp" else m.hyp_positions
                colors.append(STAGE_COLORS.get(m.stage, "#333"))
                symbols.append("circle")
                partner = " ".join(partners[o] for o in others)
                hover.append(f"{escape(label)} #{k}: <b>{escape(t)}</b><br>{m.stage} match with "
                             f"<b>{escape(partner)}</b> (#{others[0]})<br>chunk {chunk_of[k] + 1}")
            level = row.level[k]
            lx.append(row.x[k])
            ly.append(lay.label_y(side, level))
            ltext.append(escape(t))
            lpos.append("top center" if side == "hyp" else "bottom center")
            lcolor.append("#111" if m is not None else UNMATCHED)
        traces.append(dict(type="scatter", x=row.x, y=[y] * len(tokens), mode="markers", showlegend=False,
                           hovertext=hover, hoverinfo="text",
                           marker=dict(size=9, color=colors, symbol=symbols, line=dict(width=1.5, color=colors)),
                           meta={"role": "tokens", "side": side}))
    traces.append(dict(type="scatter", x=lx, y=ly, mode="text", text=ltext, textposition=lpos, hoverinfo="skip",
                       showlegend=False, textfont=dict(size=13, color=lcolor),
                       meta={"role": "labels", "hyp": len(result.hyp_tokens)}))
    return traces


def alignment_figure(result, title: str | None = None, marked: set[tuple[int, int]] | None = None,
                     hyp_label: str = "candidate", ref_label: str = "reference") -> go.Figure:
    """Draw ``result`` (a PairResult). ``marked``: (hyp, ref) pairs drawn dashed and thick,
    e.g. the matches another alignment does not have."""
    lay = layout(result.hyp_tokens, result.ref_tokens)
    data = _chunk_traces(result, lay) + _match_traces(result, lay, marked or set()) \
        + _token_traces(result, lay, hyp_label, ref_label)
    natural_px = lay.width + 30
    # One data unit is one pixel on screen whatever width the page gives the figure (it has no width
    # of its own: the page's width, st.plotly_chart(width="stretch")): the x axis is tied to the y
    # axis, whose range is the drawing's height in pixels, and its range grows from the left to
    # fill the plot. A page narrower than the drawing shows part of it at full scale, the rest a
    # drag away, instead of squeezing it. (A figure drawn at one width and then narrowed would keep
    # its wider range; without a width of its own it is drawn at the page's width at once.)
    may_pan = natural_px > NARROW_PX
    top_px = 64 if title else 40  # the title and the legend above the plot, never pushing it down
    bottom_px = 34 if may_pan else 10
    height = int(lay.top - lay.bottom + top_px + bottom_px)
    ticks = list(range(0, len(lay.hyp.x), TICK_EVERY)) if may_pan else []
    fig_layout = dict(
        title=dict(text=escape(title), x=0.01, y=1, yanchor="top", yref="container", pad=dict(t=8)) if title else None,
        height=height, margin=dict(l=90, r=10, t=top_px, b=bottom_px, autoexpand=False),
        plot_bgcolor="white", hovermode="closest", dragmode="pan",
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0, xanchor="left", title_text="stage"),
        # No range slider: it draws every trace a second time (3x the browser's time for a
        # 40-token pair). Wide drawings pan by dragging; the axis numbers candidate tokens.
        xaxis=dict(visible=may_pan, showgrid=False, zeroline=False, range=[-10, 100], scaleanchor="y", scaleratio=1,
                   constrain="range", constraintoward="left", minallowed=-10,
                   tickvals=[lay.hyp.x[k] for k in ticks], ticktext=[f"#{k}" for k in ticks],
                   tickfont=dict(size=10, color="#888"),
                   title=dict(text="candidate token numbers · drag sideways where the drawing is wider than the page",
                              font=dict(size=10, color="#888"), standoff=2) if may_pan else None),
        yaxis=dict(range=[lay.bottom, lay.top], fixedrange=True, showgrid=False, zeroline=False,
                   tickvals=[lay.hyp_y, lay.ref_y], ticktext=[escape(hyp_label), escape(ref_label)],
                   tickfont=dict(size=12, color="#555"), ticks=""),
        meta={"may_pan": may_pan, "natural_px": natural_px, "staggered": lay.staggered},
    )
    return go.Figure(data=data, layout=fig_layout)
