"""The views as functions: figures and tables built from meteor_core results, no browser."""
import pytest

from components.alignment_chart import STAGE_COLORS, UNMATCHED, alignment_figure
from components.breakdown import stage_table, terms_table, waterfall_figure
from components.examples import EXAMPLES
from components.inputs import MAX_TOKENS, check_pair
from components.tables import reference_table, word_table
from meteor_core import MeteorConfig, score
from meteor_core.explain import diff_alignments, score_terms, stage_contributions

C = MeteorConfig.meteor2005()


def _traces(fig, role):
    return [t for t in fig.data if (t.meta or {}).get("role") == role]


def _line_count(fig):
    return sum(t.x.count(None) for t in _traces(fig, "match-lines"))


@pytest.fixture(scope="module")
def mixed():
    # exact (the, sat), stem (dogs/dog), synonym (big/large), an unmatched word, two chunks
    return score("the big dogs sat quietly", ["sat the large dog"], C)


def test_one_line_per_match_coloured_by_stage(mixed):
    fig = alignment_figure(mixed)
    assert _line_count(fig) == mixed.matches == 4
    by_stage = {t.meta["stage"]: t for t in _traces(fig, "match-lines")}
    assert set(by_stage) == {"exact", "stem", "synonym"}
    for stage, trace in by_stage.items():
        assert trace.line.color == STAGE_COLORS[stage]
        assert trace.meta["count"] == mixed.matches_by_stage[stage]
        assert trace.showlegend is not False and trace.name == stage
    hover = " ".join(t for tr in _traces(fig, "match-hover") for t in tr.hovertext)
    assert "big" in hover and "large" in hover and "synonym" in hover and mixed.alignment[1].via in hover


def test_lines_connect_the_aligned_tokens(mixed):
    fig = alignment_figure(mixed)
    hx = list(_traces(fig, "tokens")[0].x)
    rx = list(_traces(fig, "tokens")[1].x)
    drawn = set()
    for t in _traces(fig, "match-lines"):
        xs = list(t.x)
        for k in range(0, len(xs), 3):
            drawn.add((hx.index(xs[k]), rx.index(xs[k + 1])))
    assert drawn == {(m.hyp_index, m.ref_index) for m in mixed.alignment}


def _rectangles(trace):
    """The closed rectangles of a filled band trace: (x0, x1, y0, y1) each."""
    xs, ys, out = list(trace.x), list(trace.y), []
    for k in range(0, len(xs), 6):  # 5 corners (closed) then None
        out.append((min(xs[k:k + 5]), max(xs[k:k + 5]), min(ys[k:k + 5]), max(ys[k:k + 5])))
    return out


def test_chunk_shapes_match_the_result(mixed):
    fig = alignment_figure(mixed)
    bands = {}  # chunk number -> (candidate rectangle, reference rectangle)
    for trace in _traces(fig, "chunk-bands"):
        rects = _rectangles(trace)
        for n, chunk in enumerate(trace.meta["chunks"]):
            bands[chunk] = rects[2 * n], rects[2 * n + 1]
    assert sorted(bands) == list(range(1, mixed.chunks + 1))  # one band on each row per chunk
    (labels,) = _traces(fig, "chunk-labels")
    assert sorted(labels.text) == sorted([str(k + 1) for k in range(mixed.chunks)] * 2)
    # each band covers exactly its chunk's tokens
    hx, rx = (list(t.x) for t in _traces(fig, "tokens"))
    for k, span in enumerate(mixed.chunk_spans):
        (h0, h1, _, _), (r0, r1, _, _) = bands[k + 1]
        assert [i for i, x in enumerate(hx) if h0 <= x <= h1] == list(range(span.hyp_start, span.hyp_end))
        assert [j for j, x in enumerate(rx) if r0 <= x <= r1] == list(range(span.ref_start, span.ref_end))
    assert not fig.layout.shapes and not fig.layout.annotations  # no per-element layout objects


def test_unmatched_tokens_are_grey_and_open(mixed):
    fig = alignment_figure(mixed)
    hyp_tokens = _traces(fig, "tokens")[0]
    k = mixed.hyp_tokens.index("quietly")
    assert hyp_tokens.marker.color[k] == UNMATCHED and hyp_tokens.marker.symbol[k] == "circle-open"
    matched = mixed.alignment[0].hyp_index
    assert hyp_tokens.marker.symbol[matched] == "circle"


def test_crossing_lines_are_drawn_crossing():
    r = score("a b", ["b a"], MeteorConfig.meteor2005(stages=("exact",)))
    assert r.crossings == 1
    fig = alignment_figure(r)
    (lines,) = _traces(fig, "match-lines")
    xs = list(lines.x)
    (h0, r0), (h1, r1) = (xs[0], xs[1]), (xs[3], xs[4])
    assert (h0 - h1) * (r0 - r1) < 0  # the two segments swap order between the rows


def _labels(fig):
    (labels,) = _traces(fig, "labels")
    n = labels.meta["hyp"]
    return labels, n


def test_long_sentences_stagger_labels_and_keep_them_apart():
    from components.alignment_layout import label_width

    hyp = " ".join(f"token{k}" for k in range(45))
    r = score(hyp, [hyp], C)
    fig = alignment_figure(r)
    labels, n = _labels(fig)
    assert n == 45 and tuple(labels.text[:n]) == r.hyp_tokens == tuple(labels.text[n:])
    assert fig.layout.meta["staggered"]
    xs, ys = list(labels.x[:n]), list(labels.y[:n])
    assert len(set(ys)) == 2 and ys[0] != ys[1]  # neighbours alternate between two lines
    width = label_width("token10")
    for k in range(n - 2):  # two labels on the same line never overlap
        assert ys[k] == ys[k + 2] and xs[k + 2] - xs[k] >= width
    assert min(b - a for a, b in zip(xs, xs[1:])) >= 16  # the dots stay apart
    # one data unit is one pixel whatever width the page gives: y's range is the plot's height in
    # pixels, x is tied to y 1:1 and its range grows from the left (issue 31: squeezed at 800 px)
    lay = fig.layout
    assert lay.yaxis.range[1] - lay.yaxis.range[0] == lay.height - lay.margin.t - lay.margin.b
    assert (lay.xaxis.scaleanchor, lay.xaxis.scaleratio, lay.xaxis.constrain, lay.xaxis.constraintoward) == (
        "y", 1, "range", "left")
    assert lay.margin.autoexpand is False  # the legend and title never push the plot area
    assert lay.width is None  # the page's width: a figure drawn wider and then narrowed would keep its range
    assert fig.layout.meta["may_pan"]
    # pan along the rest: dragging moves the window, within the drawing; the axis numbers the tokens
    assert fig.layout.dragmode == "pan" and fig.layout.xaxis.visible
    assert fig.layout.xaxis.minallowed <= xs[0]  # (no maxallowed: it would cap a wide page's range, not 1:1)
    assert list(fig.layout.xaxis.ticktext) == [f"#{k}" for k in range(0, 45, 10)]
    assert list(fig.layout.xaxis.tickvals) == [xs[k] for k in range(0, 45, 10)]
    short = alignment_figure(score("a cat", ["a cat"], C))
    labels, n = _labels(short)
    assert not short.layout.meta["staggered"] and len(set(labels.y[:n])) == 1
    assert not short.layout.meta["may_pan"] and not short.layout.xaxis.visible


def test_chunk_numbers_never_touch():
    """Issue 31, item 5: chunks starting on neighbouring tokens put their numbers side by side
    ("8 23 10"); a number that would touch another one on its row goes one level further in."""
    hyp = " ".join(f"w{k}" for k in range(40))
    ref = " ".join(f"w{k}" for k in (list(range(0, 40, 2)) + list(range(1, 40, 2))))  # every match its own chunk
    r = score(hyp, [ref], C)
    assert r.chunks >= 30
    badges = _traces(alignment_figure(r), "chunk-labels")[0]
    placed = list(zip(badges.x, badges.y, badges.text))
    assert sorted(int(t) for _, _, t in placed) == sorted(list(range(1, r.chunks + 1)) * 2)
    for i, (x1, y1, t1) in enumerate(placed):
        for x2, y2, t2 in placed[i + 1:]:
            assert abs(x1 - x2) >= 17 or abs(y1 - y2) >= 17, (t1, t2)  # squares of 15 px never touch


def test_drawing_has_a_fixed_number_of_traces_whatever_the_length():
    """Linear time: the traces do not multiply with tokens, matches or chunks (each Plotly
    shape or annotation added one by one copies the whole list: that was quadratic)."""
    import time

    counts = []
    for n in (5, 60, 400):
        hyp = " ".join(f"w{k % 37}" if k % 3 else f"x{k}" for k in range(n))
        ref = " ".join(f"w{(k * 7) % 37}" for k in range(n)) + " x0"
        r = score(hyp, [ref], MeteorConfig.meteor2005(stages=("exact",)))
        start = time.perf_counter()
        fig = alignment_figure(r)
        elapsed = time.perf_counter() - start
        counts.append(len(fig.data))
        assert not fig.layout.shapes and not fig.layout.annotations
        assert elapsed < 10.0  # a bound against a hang only: bench/bench_app.py measures (400 tokens ~50 ms)
        assert _line_count(fig) == r.matches and r.chunks >= min(n // 10, 30)
    assert max(counts) <= 12


def test_user_text_is_escaped_in_the_figure():
    r = score("<script>alert(1)</script> ok", ["ok"], MeteorConfig.meteor2005(tokenizer="whitespace"))
    fig = alignment_figure(r, title="<i>t</i>", hyp_label="<b>sys</b>.txt")
    texts = list(_labels(fig)[0].text) + [h for t in fig.data if t.hovertext for h in t.hovertext]
    texts += [fig.layout.title.text] + list(fig.layout.yaxis.ticktext)
    assert not any("<script>" in t or "<b>sys" in t or "<i>t" in t for t in texts)
    assert any("&lt;script&gt;" in t for t in texts) and "&lt;b&gt;sys&lt;/b&gt;.txt" in fig.layout.yaxis.ticktext
    quoted = alignment_figure(score('" say "', ['" say "'], C))
    assert all("&quot;" not in t for t in _labels(quoted)[0].text)  # Plotly would show it raw


def test_marked_pairs_are_dashed():
    r = score("the cat", ["the cat"], C)
    fig = alignment_figure(r, marked={(1, 1)})
    dashed = [t for t in _traces(fig, "match-lines") if t.line.dash == "dash"]
    assert len(dashed) == 1 and dashed[0].meta["count"] == 1 and "differs" in dashed[0].name


def test_terms_table_substitutes_the_numbers():
    r = score("a b c d", ["a b x c d"], MeteorConfig.meteor2005(stages=("exact",)))
    t = terms_table(r, MeteorConfig.meteor2005(stages=("exact",))).set_index("symbol")
    assert t.loc["P", "with the numbers"] == "4 / 4" and t.loc["R", "with the numbers"] == "4 / 5"
    assert t.loc["c/m", "with the numbers"] == "2 / 4"
    assert t.loc["Pen", "with the numbers"] == "0.5·0.5000^3" and t.loc["Pen", "value"] == "0.0625"
    assert float(t.loc["METEOR", "value"]) == pytest.approx(r.score, abs=5e-5)
    custom = MeteorConfig.meteor2005(alpha=0.5)
    assert "α·P" in score_terms(score("a b", ["a b"], custom), custom)[3].formula


def test_waterfall_adds_up_to_the_score(mixed):
    fig = waterfall_figure(mixed)
    (w,) = fig.data
    assert list(w.measure) == ["absolute", "relative", "total", "relative", "total"]
    assert sum(y for y in w.y) == pytest.approx(mixed.score)
    assert w.y[0] + w.y[1] == pytest.approx(mixed.fmean)


def test_stage_contributions_add_up(mixed):
    contributions = stage_contributions(mixed, C)
    assert [c.added for c in contributions] == [2, 1, 1]
    assert contributions[-1].score == pytest.approx(mixed.score)
    assert sum(c.gain for c in contributions) == pytest.approx(mixed.score)
    only_exact = score("the big dogs sat quietly", ["sat the large dog"], MeteorConfig.meteor2005(stages=("exact",)))
    assert contributions[0].score == pytest.approx(only_exact.score)
    assert list(stage_table(mixed, C)["matches so far"]) == [2, 3, 4]


def test_word_table(mixed):
    df = word_table(mixed)
    assert len(df) == len(mixed.hyp_tokens) + len(mixed.ref_tokens)
    row = df[(df.side == "candidate") & (df.token == "big")].iloc[0]
    assert row.partner == "large" and row.stage == "synonym" and row.matched
    quiet = df[df.token == "quietly"].iloc[0]
    assert not quiet.matched and quiet.partner == "" and quiet.stage == "" and quiet.chunk == ""
    assert not df.isna().any().any()  # the table widget would show a missing value as "None"
    assert {int(c) for c in df.chunk if c} == set(range(1, mixed.chunks + 1))


def test_reference_table_marks_the_best():
    r = score("the cat sat", ["a dog", "the cat sat"], C)
    df = reference_table(r)
    assert list(df.best) == [False, True] and df.score[1] == pytest.approx(r.score, abs=5e-5)


def test_diff_alignments():
    a = score("the cat sat on the mat", ["the cat sat on the mat near the door"], C)
    b = score("the cat sat on the mat", ["the cat sat on the mat near the door"],
              MeteorConfig.nltk(tokenizer="punct"))
    d = diff_alignments(a.alignment, b.alignment)
    assert not d.identical
    assert {(m.hyp_index, m.ref_index) for m in d.only_a} == {(0, 0), (4, 4)}
    assert {(m.hyp_index, m.ref_index) for m in d.only_b} == {(0, 4), (4, 7)}
    assert diff_alignments(a.alignment, a.alignment).identical


def test_examples_teach_what_they_claim():
    by = {e.title: e for e in EXAMPLES}
    syn = score(by["Synonym match"].hypothesis, list(by["Synonym match"].references))
    assert syn.matches_by_stage["synonym"] >= 2
    stem = score(by["Stem match"].hypothesis, list(by["Stem match"].references))
    assert stem.matches_by_stage["stem"] >= 2  # (tests/test_teaching.py checks every named match)
    order = score(by["Word-order penalty"].hypothesis, list(by["Word-order penalty"].references))
    assert order.matches == 6 and order.chunks >= 4 and order.penalty > 0.1
    e = by["A crossing the optimal aligner avoids"]
    best, greedy = score(e.hypothesis, list(e.references)), score(e.hypothesis, list(e.references), MeteorConfig.nltk())
    assert best.crossings == 0 and greedy.crossings > 0 and best.score > greedy.score
    multi = score(by["Several references"].hypothesis, list(by["Several references"].references))
    assert multi.best_reference == 1


def test_check_pair_messages():
    assert check_pair("", ["a"])[0] == ["Enter a candidate translation."]
    assert check_pair("a", ["", " "])[0] == ["Enter at least one reference."]
    assert "limit" in check_pair(" ".join(["w"] * (MAX_TOKENS + 1)), ["a"])[0][0]
    errors, warnings = check_pair("a", ["a", ""])
    assert not errors and "2" in warnings[0]
