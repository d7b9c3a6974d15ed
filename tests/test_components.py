"""The views as functions: figures and tables built from meteor_core results, no browser."""
import pandas as pd
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


def test_chunk_shapes_match_the_result(mixed):
    fig = alignment_figure(mixed)
    rects = [s for s in fig.layout.shapes if s.type == "rect"]
    assert len(rects) == 2 * mixed.chunks  # one band on each row per chunk
    labels = [a.text for a in fig.layout.annotations if a.name == "chunk-label"]
    assert sorted(labels) == sorted([str(k + 1) for k in range(mixed.chunks)] * 2)
    # each band covers exactly its chunk's tokens
    hx = list(_traces(fig, "tokens")[0].x)
    for span, rect in zip(mixed.chunk_spans, rects[::2]):
        inside = [k for k, x in enumerate(hx) if rect.x0 <= x <= rect.x1]
        assert inside == list(range(span.hyp_start, span.hyp_end))


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


def test_long_sentences_rotate_labels_and_keep_them_apart():
    hyp = " ".join(f"token{k}" for k in range(45))
    r = score(hyp, [hyp], C)
    fig = alignment_figure(r)
    labels = [a for a in fig.layout.annotations if a.name == "hyp-token"]
    assert len(labels) == 45 and all(a.textangle == -60 for a in labels)
    xs = sorted(a.x for a in labels)
    assert min(b - a for a, b in zip(xs, xs[1:])) >= 20  # no two labels share a slot
    shown = fig.layout.xaxis.range[1] - fig.layout.xaxis.range[0]
    assert shown <= fig.layout.width - 100  # at most one data unit per pixel: labels stay apart
    assert fig.layout.meta["windowed"] == (xs[-1] > shown)
    assert fig.layout.xaxis.rangeslider.visible == fig.layout.meta["windowed"]  # pan along the rest
    short = alignment_figure(score("a cat", ["a cat"], C))
    assert all(a.textangle in (None, 0) for a in short.layout.annotations if a.name == "hyp-token")


def test_user_text_is_escaped_in_the_figure():
    r = score("<script>alert(1)</script> ok", ["ok"], MeteorConfig.meteor2005(tokenizer="whitespace"))
    fig = alignment_figure(r)
    texts = [a.text for a in fig.layout.annotations] + [h for t in fig.data if t.hovertext for h in t.hovertext]
    assert not any("<script>" in t for t in texts)
    assert any("&lt;script&gt;" in t for t in texts)
    quoted = alignment_figure(score('" say "', ['" say "'], C))
    assert all("&quot;" not in a.text for a in quoted.layout.annotations)  # Plotly would show it raw


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
    assert not quiet.matched and pd.isna(quiet.partner) and pd.isna(quiet.chunk)
    assert set(df.chunk.dropna()) == set(range(1, mixed.chunks + 1))


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
    assert stem.matches_by_stage["stem"] >= 2
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
