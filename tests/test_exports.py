"""Alignment exports: JSON and TSV rows (meteor_core.export), SVG, PNG and TikZ
(components.alignment_export), each checked against the result it came from."""
import io
import json
import re
import xml.etree.ElementTree as ET

import pytest

from components.alignment_chart import STAGE_COLORS, UNMATCHED
from components.alignment_export import alignment_png, alignment_svg, alignment_tikz, tex_escape
from meteor_core import MeteorConfig, score
from meteor_core.export import TSV_COLUMNS, alignment_dict, alignment_json, alignment_rows, alignment_tsv

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def mixed():
    # exact (the, sat), stem (dogs/dog), synonym (big/large), an unmatched word, two chunks
    return score("the big dogs sat quietly", ["sat the large dog"])


def test_json_has_every_match_with_its_words_and_chunk(mixed):
    d = json.loads(alignment_json(mixed, signature="sig"))
    assert d["signature"] == "sig" and d["score"] == mixed.score and d["hyp_tokens"] == list(mixed.hyp_tokens)
    rows = {(m["hyp"], m["ref"]): (m["stage"], m["chunk"]) for m in d["alignment"]}
    assert rows == {("the", "the"): ("exact", 1), ("big", "large"): ("synonym", 1), ("dogs", "dog"): ("stem", 1),
                    ("sat", "sat"): ("exact", 2)}
    assert [c["hyp"] for c in d["chunk_spans"]] == ["the big dogs", "sat"]
    assert alignment_dict(mixed)["chunks"] == mixed.chunks == 2


def test_tsv_rows_matches_then_unmatched(mixed):
    text = alignment_tsv(mixed)
    lines = text.splitlines()
    assert lines[0].split("\t") == list(TSV_COLUMNS)
    rows = [line.split("\t") for line in lines[1:]]
    assert all(len(r) == len(TSV_COLUMNS) for r in rows)
    assert rows[0] == ["0", "1", "the", "the", "exact", "the", "1"]
    assert ["4", "", "quietly", "", "unmatched", "", ""] in rows
    assert len(rows) == mixed.matches + 1  # every reference token is matched here
    assert len(alignment_rows(mixed)) == len(rows)


def test_tsv_cells_never_break_rows():
    r = score("a b", ["a b"], MeteorConfig.meteor2005(tokenizer="whitespace"))
    rows = alignment_rows(r)
    assert rows and all(len(row) == len(TSV_COLUMNS) for row in rows)
    from meteor_core.safe_export import read_delimited
    formula = score("= - b", ["= x b"], MeteorConfig.meteor2005(tokenizer="whitespace"))
    header, back = read_delimited(alignment_tsv(formula), "\t")  # written by safe_export: reads back exactly
    assert header == list(TSV_COLUMNS) and [row[2] for row in back] == ["=", "b", "-", ""]  # "" : x unmatched
    cells = [c for line in alignment_tsv(formula).splitlines() for c in line.split("\t")]
    assert "'=" in cells and not any(c.startswith(("=", "-", "+", "@")) for c in cells)  # no spreadsheet formula


def _svg(result, **kw):
    return ET.fromstring(alignment_svg(result, **kw))


def test_svg_draws_each_match_and_token(mixed):
    root = _svg(mixed, title="T")
    lines = root.findall(f".//{SVG}g[@class='matches']/{SVG}line")
    assert len(lines) == mixed.matches
    assert {l.get("stroke") for l in lines} == {STAGE_COLORS[s] for s in ("exact", "stem", "synonym")}
    texts = [t.text for t in root.findall(f".//{SVG}g[@class='tokens']/{SVG}text")]
    assert texts == list(mixed.hyp_tokens) + list(mixed.ref_tokens)
    circles = root.findall(f".//{SVG}g[@class='tokens']/{SVG}circle")
    quietly = circles[mixed.hyp_tokens.index("quietly")]
    assert quietly.get("fill") == "white" and quietly.get("stroke") == UNMATCHED
    bands = root.findall(f".//{SVG}g[@class='chunks']/{SVG}rect")
    assert len(bands) == 2 * 2 * mixed.chunks  # a band and a number badge per chunk and row
    titles = [l.find(f"{SVG}title").text for l in lines]
    assert any("big ↔ large (synonym" in t for t in titles)


def test_svg_escapes_user_text():
    r = score("<script>alert('x')</script> & \"q\"", ["& ok"], MeteorConfig.meteor2005(tokenizer="whitespace"))
    svg = alignment_svg(r, title="</svg><script>", hyp_label="<b>")
    assert "<script>" not in svg and "</svg><script>" not in svg
    root = ET.fromstring(svg)  # well-formed whatever the text
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "<script>alert('x')</script>" in texts and "<b>" in texts and "</svg><script>" in texts


def test_png_is_the_svg_rasterised(mixed):
    from PIL import Image

    png = alignment_png(mixed, scale=1.0)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(png)).convert("RGB")
    root = _svg(mixed)
    assert image.size == (round(float(root.get("width"))), round(float(root.get("height"))))
    # the synonym line's orange is on the picture (the drawing is there, not a blank page)
    orange = tuple(int(STAGE_COLORS["synonym"][k:k + 2], 16) for k in (1, 3, 5))
    assert orange in {colour for _, colour in image.getcolors(maxcolors=1 << 24)}
    assert Image.open(io.BytesIO(alignment_png(mixed, scale=2.0))).size[0] == 2 * image.size[0]


def test_tikz_has_a_draw_per_match_and_a_node_per_token(mixed):
    tex = alignment_tikz(mixed)
    assert tex.count("\\begin{tikzpicture}") == 1 and tex.rstrip().endswith("\\end{tikzpicture}")
    assert len(re.findall(r"\\draw\[m(Exact|Stem|Synonym)", tex)) == mixed.matches
    assert tex.count("\\node[anchor=south") == len(mixed.hyp_tokens)
    assert tex.count("\\node[anchor=north") == len(mixed.ref_tokens)
    assert tex.count("{") == tex.count("}")


def test_tikz_escapes_latex_specials():
    assert tex_escape("50% of $x_1 & {y}#~^\\") == (
        r"50\% of \$x\_1 \& \{y\}\#\textasciitilde{}\textasciicircum{}\textbackslash{}")
    r = score("50% $x_1", ["50% $x_1"], MeteorConfig.meteor2005(tokenizer="whitespace"))
    tex = alignment_tikz(r)
    assert "{\\strut 50\\%}" in tex and "{\\strut \\$x\\_1}" in tex
    nodes = [line.split("{\\strut ", 1)[1] for line in tex.splitlines() if "{\\strut " in line]
    assert all(not re.search(r"(?<!\\)[%$_&#]", node) for node in nodes)  # no unescaped special in a label
