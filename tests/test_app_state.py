"""Issue 16 through AppTest: state across pages and reruns, the links and URLs between the
explorer and the difference page, and one test per defect the issue lists."""
import time

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from components.examples import BY_TITLE
from conftest import ROOT, ted_lines
from meteor_core import MeteorConfig, score
from meteor_core.analysis.difference import Difference, Step, explain_difference, summarise

from test_app import at, metric, view  # noqa: F401 (at is a fixture)
from test_app_compare import BAD, GOOD, REF

EXPLORE, COMPARE, DIFFERENCE = "app_pages/explore.py", "app_pages/compare.py", "app_pages/difference.py"


def texts(at):
    return [t.value for t in at.text]


# --- state across pages ---------------------------------------------------------------------


def test_explorer_keeps_texts_references_preset_and_parameters_across_pages(at):
    next(b for b in at.button if b.label == "Add reference").click().run()
    at.text_area(key="hyp").input("a cat sat on a mat")
    at.text_area(key="ref_0").input("the cat sat on the mat")
    at.text_area(key="ref_1").input("a cat was on a mat").run()
    at.selectbox(key="preset").set_value("nltk").run()
    at.slider(key="gamma").set_value(0.3).run()
    at.checkbox(key="stage_stem").uncheck().run()
    view(at, "Words")
    before = metric(at, "METEOR")
    for page in (COMPARE, DIFFERENCE):
        at.switch_page(page).run()
        assert not at.exception
        at.switch_page(EXPLORE).run()
        assert not at.exception
        assert at.text_area(key="hyp").value == "a cat sat on a mat"
        assert [at.text_area(key=f"ref_{k}").value for k in range(2)] == ["the cat sat on the mat", "a cat was on a mat"]
        assert at.selectbox(key="preset").value == "nltk" and at.slider(key="gamma").value == 0.3
        assert not at.checkbox(key="stage_stem").value and metric(at, "METEOR") == before
        assert at.session_state["view"] == "Words" and len(at.dataframe) == 1


def test_compare_keeps_uploads_and_selections_across_pages(at):
    at.switch_page(COMPARE).run()
    at.radio(key="cmp_source").set_value(at.radio(key="cmp_source").options[1]).run()
    at.file_uploader(key="cmp_refs").upload("ref.txt", REF.encode()).run()
    at.file_uploader(key="cmp_systems").upload("good.txt", GOOD.encode()).upload("bad.txt", BAD.encode()).run()
    at.number_input(key="cmp_segment").set_value(3).run()
    at.text_input(key="cmp_query").input("dog").run()
    assert len(at.dataframe[1].value) == 1
    at.switch_page(EXPLORE).run()
    at.switch_page(COMPARE).run()
    assert not at.exception and not at.warning
    assert list(at.dataframe[0].value.system) == ["good", "bad"]  # the files are back, scored
    assert any("uploaded earlier" in c.value for c in at.caption)
    assert at.number_input(key="cmp_segment").value == 3 and "Reference: it is raining today" in texts(at)
    assert at.text_input(key="cmp_query").value == "dog" and len(at.dataframe[1].value) == 1
    at.number_input(key="cmp_segment").set_value(2).run()  # further reruns keep using them
    assert not at.warning and "Reference: a dog ran in the park" in texts(at)
    at.button(key="forget_cmp_systems").click().run()  # and they can be let go of
    assert any("Upload two or more system" in w.value for w in at.warning)
    at.file_uploader(key="cmp_systems").upload("good.txt", GOOD.encode()).upload("bad.txt", BAD.encode()).run()
    assert not at.warning
    at.file_uploader(key="cmp_systems").clear().run()  # files removed from the uploader are gone
    assert any("Upload two or more system" in w.value for w in at.warning)


def test_difference_page_keeps_its_inputs_across_pages(at):
    at.switch_page(DIFFERENCE).run()
    at.text_area(key="dif_hyp").input("the big cat").run()
    at.selectbox(key="dif_B").set_value("meteor2005").run()
    at.slider(key="dif_A_gamma").set_value(0.2).run()
    at.switch_page(EXPLORE).run()
    at.switch_page(DIFFERENCE).run()
    assert at.text_area(key="dif_hyp").value == "the big cat" and at.selectbox(key="dif_B").value == "meteor2005"
    assert at.slider(key="dif_A_gamma").value == 0.2 and metric(at, "A: nltk (custom)")


# --- links and URLs -------------------------------------------------------------------------


def _link(at, words):
    from urllib.parse import parse_qs

    link = next(p.proto for p in at.get("page_link") if words in p.proto.label)
    return {k: v if len(v) > 1 else v[0] for k, v in parse_qs(link.query_string).items()}


def test_one_click_takes_the_explorers_pair_to_the_difference_page(at):
    at.text_area(key="hyp").input("the big cat sat").run()
    at.slider(key="beta").set_value(2.0).run()
    params = _link(at, "difference page")
    assert params["hyp"] == "the big cat sat" and params["ref"] == "the large dog barked at the mailman"
    assert params["a"] == "meteor2005" and params["a_beta"] == "2"
    at.query_params.clear()
    at.query_params.update(params)  # what the link does: the page with these parameters
    at.switch_page(DIFFERENCE).run()
    assert at.text_area(key="dif_hyp").value == "the big cat sat"
    assert at.selectbox(key="dif_A").value == "meteor2005" and at.slider(key="dif_A_beta").value == 2.0
    expected = score("the big cat sat", ["the large dog barked at the mailman"], MeteorConfig.meteor2005(beta=2.0))
    assert metric(at, "A: meteor2005 (custom)") == f"{expected.score:.4f}"
    back = _link(at, "in the explorer")  # and back: the pair, configuration A
    assert back["hyp"] == "the big cat sat" and back["preset"] == "meteor2005" and back["beta"] == "2"


def test_difference_page_has_a_shareable_url():
    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"hyp": "a big dog", "ref": "a large dog", "a": "nltk", "b": "meteor2005",
                            "b_gamma": "0.25", "order": "gamma,alpha"})
    at.switch_page(DIFFERENCE).run()  # the link opens this page first
    assert not at.exception
    assert at.text_area(key="dif_hyp").value == "a big dog" and at.slider(key="dif_B_gamma").value == 0.25
    assert at.multiselect(key="dif_order").value == ["gamma", "alpha"]
    at.text_area(key="dif_ref").input("a huge dog").run()
    url = {k: at.query_params[k] for k in ("ref", "b_gamma", "a", "order")}
    assert url == {"ref": "a huge dog", "b_gamma": "0.25", "a": "nltk", "order": "gamma,alpha"}


# --- the defects ----------------------------------------------------------------------------


def test_example_selector_follows_edits(at):
    at.selectbox(key="example").set_value("Stem match").run()
    assert "Stem match" in at.info[0].value
    at.text_area(key="hyp").input("the children were playing in the garden").run()
    assert at.selectbox(key="example").value == "(your own text)"
    assert not any("Example:" in i.value for i in at.info)
    at.selectbox(key="example").set_value("Stem match").run()  # choosing it again loads it again
    assert at.text_area(key="hyp").value == BY_TITLE["Stem match"].hypothesis


def test_stem_example_on_the_page_matches_its_lesson(at):
    at.selectbox(key="example").set_value("Stem match").run()
    lesson = at.info[0].value
    words = view(at, "Words").dataframe[0].value
    stage = {t: s for t, s in zip(words.token, words.stage)}
    assert stage["children"] == "synonym" and "synonym stage joins" in lesson
    assert stage["playing"] == "stem" and "playing/played" in lesson


def test_score_row_follows_the_selected_reference(at):
    next(b for b in at.button if b.label == "Add reference").click().run()
    at.text_area(key="hyp").input("the cat sat on the mat")
    at.text_area(key="ref_0").input("a dog ran")
    at.text_area(key="ref_1").input("the cat sat on a mat").run()
    r = score("the cat sat on the mat", ["a dog ran", "the cat sat on a mat"])
    assert metric(at, "METEOR") == f"{r.per_reference[1].score:.4f}"  # the best one is shown first
    at.selectbox(key="shown_reference_2").set_value(0).run()
    assert metric(at, "METEOR") == f"{r.per_reference[0].score:.4f}" == "0.0000"
    assert metric(at, "Chunks / matches") == "0 / 0"
    assert any(f"best of 2 references: reference 2 ({r.score:.4f})" in c.value for c in at.caption)


@pytest.mark.parametrize("names", [("ref.en", "sys1.de", "sys2.de"), ("test.ref", "a.hyp", "b.hyp"),
                                   ("newstest.de-en.en", "x.out", "y.txt")])
def test_uploads_with_mt_file_extensions_are_accepted(at, names):
    at.switch_page(COMPARE).run()
    at.radio(key="cmp_source").set_value(at.radio(key="cmp_source").options[1]).run()
    assert at.file_uploader(key="cmp_refs").allowed_type == [] == at.file_uploader(key="cmp_systems").allowed_type
    at.file_uploader(key="cmp_refs").upload(names[0], REF.encode()).run()
    at.file_uploader(key="cmp_systems").upload(names[1], GOOD.encode()).upload(names[2], BAD.encode()).run()
    assert not at.exception and not at.warning
    assert list(at.dataframe[0].value.system) == [names[1].rsplit(".", 1)[0], names[2].rsplit(".", 1)[0]]


def test_system_names_lose_their_extension_unless_that_makes_two_alike():
    from components.inputs import system_names

    assert system_names(["sysA.txt", "sysB.hyp"]) == ["sysA", "sysB"]
    assert system_names(["newstest.de-en.hyp", ".hidden", "plain"]) == ["newstest.de-en", ".hidden", "plain"]
    assert system_names(["a.txt", "a.hyp", "b.txt"]) == ["a.txt", "a.hyp", "b"]


def _difference_with(deltas):
    config = MeteorConfig.nltk()
    terms = {"precision": 0.5, "recall": 0.5, "fmean": 0.5, "penalty": 0.0, "matches": 1, "chunks": 1, "score": 0.5}
    steps = [Step(f, f"{f} x → y", 0.5, d, terms, config) for f, d in deltas]
    return Difference(config, config, 0.5, 0.5 + sum(d for _, d in deltas), terms, terms,
                      tuple(f for f, _ in deltas), steps)


def test_no_negative_zero_anywhere_in_the_difference_views():
    from components.difference_views import steps_table, waterfall_figure

    d = _difference_with([("alpha", 0.25), ("beta", -4e-17), ("gamma", -0.00004)])
    shown = list(steps_table(d)["share of the gap"]) + list(waterfall_figure(d).data[0].text) + [summarise(d)]
    assert not any("-0.0000" in s for s in shown)
    assert list(steps_table(d)["share of the gap"]) == ["", "+0.2500", "+0.0000", "+0.0000"]


def test_a_visible_step_is_never_called_no_visible_difference():
    d = _difference_with([("alpha", 0.25), ("beta", 0.0004), ("gamma", 0.00004)])
    text = summarise(d)
    assert "Then beta +0.0004." in text and "Changing gamma makes no visible difference here." in text


def test_the_issue_case_of_plus_0_0004_on_the_page(at):
    # (the issue's pair was TED line 42, whose alpha share the paraphrase module, now on by
    # default in meteor15, moved; line 62's is as small)
    hyp, ref = ted_lines("sys1")[61], ted_lines("ref")[61]  # alpha's share is -0.0003 here
    d = explain_difference(hyp, [ref], MeteorConfig.nltk(), MeteorConfig.meteor15())
    assert f"{next(s.delta for s in d.steps if s.factor == 'alpha'):+.4f}" == "-0.0003"
    at.switch_page(DIFFERENCE).run()
    at.text_area(key="dif_hyp").input(hyp)
    at.text_area(key="dif_ref").input(ref).run()
    summary = at.info[0].value
    assert "alpha -0.0003" in summary and "alpha makes no visible" not in summary
    assert "-0.0003" in list(at.dataframe[0].value["share of the gap"])


def _raw_none(df) -> list[str]:
    """Columns with a missing value (text or number) or the string "None": the table widget
    shows each as "None"."""
    return [c for c in df.columns if df[c].isna().any() or (df[c].astype(str) == "None").any()]


def test_tables_show_no_raw_none(at):
    at.text_area(key="hyp").input("the big dogs sat quietly")
    at.text_area(key="ref_0").input("sat the large dog").run()
    for name in ("Score breakdown", "Words", "References", "Alignment"):
        view(at, name)
        for frame in at.dataframe:
            assert not _raw_none(frame.value), (name, frame.value)
    at.switch_page(DIFFERENCE).run()
    steps = at.dataframe[0].value
    assert not _raw_none(steps) and steps["share of the gap"][0] == ""


def test_meteor15_lessons_and_labels_give_its_meaning_of_beta_and_gamma(at):
    at.selectbox(key="example").set_value("Word-order penalty").run()
    at.selectbox(key="preset").set_value("meteor15").run()
    info = at.info[-1].value
    assert "Meteor 1.5's aligner takes the one with fewer chunks" in info  # meteor15's own lesson
    said = " ".join(texts(at))
    assert "β = 0.2 makes the penalty jump at the first break" in said and "γ = 0.6 is the most" in said
    assert "cube" not in said
    r = score("on the mat sat the cat", ["the cat sat on the mat"], MeteorConfig.meteor15())
    assert f"{r.chunks} chunks:" in said and metric(at, "Chunks / matches") == f"{r.chunks} / {r.matches}"
    beta = at.slider(key="beta")
    assert "shape" in beta.label and "β < 1" in beta.help


def test_the_alignment_view_teaches_with_the_pairs_numbers(at):
    at.selectbox(key="example").set_value("Word-order penalty").run()
    said = " ".join(texts(at))
    assert "6 chunks: [on] [the] [mat] [sat] [the] [cat]" in said and "fewer, longer chunks" in said
    assert "Pen = γ·(c/m)^β = 0.5·(6/6)^3 = 0.5000" in said
    curve = next(c for c in at.get("plotly_chart") if "Penalty against chunks" in c.proto.spec)
    assert '"this pair: 6"' in curve.proto.spec
    stages = at.dataframe[0].value
    assert list(stages.stage) == ["exact", "stem", "synonym"] and list(stages["matches added"]) == [6, 0, 0]


def test_export_view_offers_every_format(at):
    view(at, "Export")
    labels = [d.label for d in at.get("download_button")]
    assert labels == ["PNG", "SVG", "JSON", "TSV rows", "TikZ (LaTeX)"]
    assert "hyp_index\tref_index" in at.code[0].value


# --- generous bounds on the latency (bench/bench_app.py measures) ------------------------------


def _forty_token_pair():
    from meteor_core.tokenize import tokenize

    config = MeteorConfig.meteor2005()
    return next((h, r) for h, r in zip(ted_lines("sys1"), ted_lines("ref")) if len(tokenize(r, config.tokenizer)) == 40)


def test_an_edit_of_a_forty_token_pair_reruns_quickly(at):
    hyp, ref = _forty_token_pair()
    at.text_area(key="ref_0").input(ref)
    at.text_area(key="hyp").input(hyp).run()
    times = []
    for k in range(5):
        at.text_area(key="hyp").input(hyp + f" edit{k}")
        start = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - start)
        assert not at.exception and len(at.get("plotly_chart")) == 2
    assert sorted(times)[2] < 3.0  # target 0.3 s; measured ~0.04 s


def test_compare_filter_and_segment_rerun_quickly(at):
    at.switch_page(COMPARE).run()  # the demo set: 1,200 segments x 2 systems
    times = []
    for k in range(3):
        at.slider(key="cmp_diff_range").set_value((-0.9 + 0.1 * k, 1.0))
        start = time.perf_counter()
        at.run()
        at.number_input(key="cmp_segment").set_value(5 + k)
        at.run()
        times.append((time.perf_counter() - start) / 2)
        assert not at.exception
    assert sorted(times)[1] < 10.0  # target 1 s; measured ~0.08 s


# --- languages across pages (issue 29) -------------------------------------------------------

GERMAN = ("Die Katze sitzt auf der Matte und schaut aus dem Fenster.",
          "Die Katze saß auf der Matte und sah aus dem Fenster.")


def test_the_language_chosen_on_the_explorer_is_the_difference_page_s(at):
    at.selectbox(key="lang").set_value("de").run()
    at.switch_page(DIFFERENCE).run()
    assert not at.exception
    assert at.selectbox(key="lang").value == "de"
    assert at.selectbox(key="dif_A").options == ["meteor2005", "meteor15"]  # nltk and the packages: English
    assert at.query_params["lang"] in ("de", ["de"])
    at.text_area(key="dif_hyp").input(GERMAN[0])
    at.text_area(key="dif_ref").input(GERMAN[1]).run()
    b = score(GERMAN[0], [GERMAN[1]], MeteorConfig.meteor15(language="de")).score
    assert metric(at, "B: meteor15") == f"{b:.4f}"
    assert at.checkbox(key="dif_A_syn").disabled
    at.switch_page(EXPLORE).run()
    assert at.selectbox(key="lang").value == "de" and at.slider(key="alpha").value == MeteorConfig.meteor2005(language="de").alpha


def test_the_difference_page_opens_in_german_from_a_link():
    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page(DIFFERENCE)
    at.query_params.update(hyp=GERMAN[0], ref=GERMAN[1], a="nltk", b="meteor15", lang="de")
    at.run()
    assert not at.exception
    assert at.selectbox(key="dif_A").value == "meteor2005"
    assert any("nltk scores English only" in w.value.replace("\\", "") for w in at.warning)
    a = score(GERMAN[0], [GERMAN[1]], MeteorConfig.meteor2005(language="de")).score
    assert metric(at, "A: meteor2005") == f"{a:.4f}"
