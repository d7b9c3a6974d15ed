"""The alignment drawing for files: SVG (drawn here, from the same layout as the on-screen
figure), PNG (that SVG rasterised by resvg, no browser needed) and TikZ for LaTeX papers and
slides. Pure functions of a PairResult; every user string is escaped for its format."""
from __future__ import annotations

from html import escape as _xml_escape

from components.alignment_chart import CHUNK_FILLS, STAGE_COLORS, UNMATCHED, line_ends, match_groups
from components.alignment_layout import BADGE_OFFSET_PX, BAND_HALF_PX, layout

FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif"
MARGIN_LEFT, MARGIN, LEGEND_PX = 95.0, 12.0, 26.0


def _x(text: str) -> str:
    return _xml_escape(text, quote=True)


def _f(v: float) -> str:
    return f"{v:.1f}"


def alignment_svg(result, title: str | None = None, marked=None, hyp_label: str = "candidate",
                  ref_label: str = "reference") -> str:
    """A standalone SVG (1 unit = 1 px): chunk bands and numbers, one line per match coloured by
    stage (dashed when marked), token dots and labels, row names, a stage legend; each line and
    token carries a <title> (a tooltip in browsers)."""
    marked = marked or set()
    lay = layout(result.hyp_tokens, result.ref_tokens)
    top_px = MARGIN + LEGEND_PX + (22 if title else 0)
    width = MARGIN_LEFT + lay.width + 2 * MARGIN
    height = top_px + (lay.top - lay.bottom) + MARGIN

    def y(v: float) -> float:  # layout y grows upwards, SVG y downwards
        return top_px + (lay.top - v)

    def x(v: float) -> float:
        return MARGIN_LEFT + v

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" height="{_f(height)}" '
           f'viewBox="0 0 {_f(width)} {_f(height)}" font-family="{FONT}">',
           f'<rect width="{_f(width)}" height="{_f(height)}" fill="white"/>']
    if title:
        out.append(f'<text x="{MARGIN}" y="{MARGIN + 14}" font-size="15" fill="#222">{_x(title)}</text>')
    legend_x = MARGIN_LEFT
    for (stage, is_marked), ms in match_groups(result, marked):
        if is_marked:
            continue
        ly = top_px - 14
        out.append(f'<line x1="{_f(legend_x)}" y1="{_f(ly)}" x2="{_f(legend_x + 22)}" y2="{_f(ly)}" '
                   f'stroke="{STAGE_COLORS.get(stage, "#333")}" stroke-width="2"/>')
        out.append(f'<text x="{_f(legend_x + 27)}" y="{_f(ly + 4)}" font-size="12" fill="#333">{_x(stage)}</text>')
        legend_x += 40 + 7.5 * len(stage)
    out.append('<g class="chunks">')
    for k, span in enumerate(result.chunk_spans):
        fill = CHUNK_FILLS[k % len(CHUNK_FILLS)]
        for row, start, end, row_y, badge_y in ((lay.hyp, span.hyp_start, span.hyp_end, lay.hyp_y, lay.hyp_y - BADGE_OFFSET_PX),
                                                (lay.ref, span.ref_start, span.ref_end, lay.ref_y, lay.ref_y + BADGE_OFFSET_PX)):
            x0, x1 = row.extent(start)[0], row.extent(end - 1)[1]
            out.append(f'<rect x="{_f(x(x0))}" y="{_f(y(row_y + BAND_HALF_PX))}" width="{_f(x1 - x0)}" '
                       f'height="{_f(2 * BAND_HALF_PX)}" fill="{fill}" stroke="#8c8c8c" stroke-width="1"/>')
            bx, by = x(x0) + 7, y(badge_y)
            out.append(f'<rect x="{_f(bx - 7)}" y="{_f(by - 7)}" width="14" height="14" fill="{fill}" stroke="#8c8c8c"/>'
                       f'<text x="{_f(bx)}" y="{_f(by + 3.5)}" font-size="10" text-anchor="middle" fill="#333">{k + 1}</text>')
    out.append('</g><g class="matches">')
    hyp, ref = result.hyp_tokens, result.ref_tokens
    for (stage, is_marked), ms in match_groups(result, marked):
        colour = STAGE_COLORS.get(stage, "#333")
        dash = ' stroke-dasharray="6 4"' if is_marked else ""
        for m in ms:
            x0, x1 = line_ends(m, lay)
            words = (" ".join(hyp[i] for i in m.hyp_positions), " ".join(ref[j] for j in m.ref_positions))
            out.append(f'<line x1="{_f(x(x0))}" y1="{_f(y(lay.hyp_y))}" x2="{_f(x(x1))}" y2="{_f(y(lay.ref_y))}" '
                       f'stroke="{colour}" stroke-width="{4 if is_marked else 2}"{dash}>'
                       f'<title>{_x(words[0])} ↔ {_x(words[1])} ({stage}: {_x(m.via)})</title></line>')
    out.append('</g><g class="tokens">')
    by_hyp, by_ref = result.token_matches()
    for side, tokens, row, matched in (("hyp", hyp, lay.hyp, by_hyp), ("ref", ref, lay.ref, by_ref)):
        row_y = lay.hyp_y if side == "hyp" else lay.ref_y
        for k, token in enumerate(tokens):
            m = matched.get(k)
            colour = UNMATCHED if m is None else STAGE_COLORS.get(m.stage, "#333")
            fill = "white" if m is None else colour
            label_y = lay.label_y(side, row.level[k])
            baseline = y(label_y) - 3 if side == "hyp" else y(label_y) + 12
            out.append(f'<circle cx="{_f(x(row.x[k]))}" cy="{_f(y(row_y))}" r="4" fill="{fill}" stroke="{colour}" '
                       f'stroke-width="1.5"/><text x="{_f(x(row.x[k]))}" y="{_f(baseline)}" font-size="13" '
                       f'text-anchor="middle" fill="{"#111" if m is not None else UNMATCHED}">{_x(token)}</text>')
    out.append("</g>")
    for label, row_y in ((hyp_label, lay.hyp_y), (ref_label, lay.ref_y)):
        out.append(f'<text x="{MARGIN_LEFT - 12}" y="{_f(y(row_y) + 4)}" font-size="12" text-anchor="end" '
                   f'fill="#555">{_x(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def alignment_png(result, scale: float = 2.0, **kwargs) -> bytes:
    """The SVG rasterised by resvg (a Rust library in the resvg-py wheel; fonts from the system)."""
    import resvg_py

    svg = alignment_svg(result, **kwargs)
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=scale))


_TEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
                "^": r"\textasciicircum{}", "_": r"\_", "%": r"\%", "~": r"\textasciitilde{}",
                "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}"}


def tex_escape(text: str) -> str:
    return "".join(_TEX_SPECIAL.get(ch, ch) for ch in text)


def alignment_tikz(result, marked=None, hyp_label: str = "candidate", ref_label: str = "reference") -> str:
    """A tikzpicture (1 layout pixel = 0.75 pt) with the stage colours defined, chunk bands,
    one \\draw per match and one node per token. Needs \\usepackage{tikz} (and xcolor); wrap it in
    \\resizebox{\\linewidth}{!}{...} (graphicx) to fit a column."""
    marked = marked or set()
    lay = layout(result.hyp_tokens, result.ref_tokens)
    names = {"exact": "mExact", "stem": "mStem", "synonym": "mSynonym", "paraphrase": "mParaphrase"}
    out = ["% METEOR alignment: \\usepackage{tikz}; scale with \\resizebox{\\linewidth}{!}{...} (graphicx)"]
    for stage, colour in STAGE_COLORS.items():
        out.append(f"\\definecolor{{{names[stage]}}}{{HTML}}{{{colour[1:].upper()}}}")
    out.append(f"\\definecolor{{mUnmatched}}{{HTML}}{{{UNMATCHED[1:].upper()}}}")
    for k, fill in enumerate(CHUNK_FILLS):
        out.append(f"\\definecolor{{mChunk{k}}}{{HTML}}{{{fill[1:].upper()}}}")
    out.append("\\begin{tikzpicture}[x=0.75pt,y=0.75pt,font=\\small]")
    for k, span in enumerate(result.chunk_spans):
        for row, start, end, row_y in ((lay.hyp, span.hyp_start, span.hyp_end, lay.hyp_y),
                                       (lay.ref, span.ref_start, span.ref_end, lay.ref_y)):
            x0, x1 = row.extent(start)[0], row.extent(end - 1)[1]
            out.append(f"  \\filldraw[fill=mChunk{k % len(CHUNK_FILLS)},draw=gray] ({_f(x0)},{_f(row_y - BAND_HALF_PX)}) "
                       f"rectangle ({_f(x1)},{_f(row_y + BAND_HALF_PX)}); % chunk {k + 1}")
    for (stage, is_marked), ms in match_groups(result, marked):
        style = f"{names.get(stage, 'black')},{'very thick,dashed' if is_marked else 'thick'}"
        for m in ms:
            x0, x1 = line_ends(m, lay)
            out.append(f"  \\draw[{style}] ({_f(x0)},{_f(lay.hyp_y)}) -- ({_f(x1)},{_f(lay.ref_y)}); % {stage}")
    by_hyp, by_ref = result.token_matches()
    for side, tokens, row, matched in (("hyp", result.hyp_tokens, lay.hyp, by_hyp),
                                       ("ref", result.ref_tokens, lay.ref, by_ref)):
        row_y = lay.hyp_y if side == "hyp" else lay.ref_y
        anchor = "south" if side == "hyp" else "north"
        for k, token in enumerate(tokens):
            m = matched.get(k)
            colour = "mUnmatched" if m is None else names.get(m.stage, "black")
            dot = f"draw={colour},fill=white" if m is None else f"fill={colour}"
            label_y = lay.label_y(side, row.level[k])
            out.append(f"  \\filldraw[{dot}] ({_f(row.x[k])},{_f(row_y)}) circle (3);"
                       f" \\node[anchor={anchor},inner sep=1pt{',text=mUnmatched' if m is None else ''}] at "
                       f"({_f(row.x[k])},{_f(label_y)}) {{\\strut {tex_escape(token)}}};")
    for label, row_y in ((hyp_label, lay.hyp_y), (ref_label, lay.ref_y)):
        out.append(f"  \\node[anchor=east,text=gray] at (-12,{_f(row_y)}) {{{tex_escape(label)}}};")
    out.append("\\end{tikzpicture}")
    return "\n".join(out) + "\n"
