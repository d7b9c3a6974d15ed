"""The page, driven through streamlit.testing.v1.AppTest: inputs in, numbers and elements out."""
import pytest
import streamlit as st
from nltk.translate.meteor_score import meteor_score
from streamlit.testing.v1 import AppTest

from components.examples import BY_TITLE
from conftest import ROOT
from meteor_core import MeteorConfig, resources, score

CROSSING = ("the cat sat on the mat", "the cat sat on the mat near the door")


@pytest.fixture
def at():
    st.cache_data.clear()
    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()


def metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


def view(at, name):
    """Open one of the lazy tabs (only the open one is built)."""
    at.session_state["view"] = name
    return at.run()


def caption_with(at, text):
    return next(c.value for c in at.caption if text in c.value)


def enter(at, hyp, *refs):
    at.text_area(key="hyp").input(hyp)
    for k, r in enumerate(refs):
        at.text_area(key=f"ref_{k}").input(r)
    return at.run()


def test_default_example_renders_everything(at):
    assert not at.exception
    assert metric(at, "METEOR") == "0.9985"
    assert [t.label for t in at.tabs] == ["Alignment", "Score breakdown", "Words", "References", "meteor2005 vs NLTK",
                                          "Export"]
    assert "Synonym match" in at.info[0].value
    # only the open view is built: the drawing and the penalty curve, the stage table
    assert len(at.get("plotly_chart")) == 2 and len(at.dataframe) == 1
    built = {}
    for name in ("Score breakdown", "Words", "References", "meteor2005 vs NLTK"):
        view(at, name)
        assert not at.exception
        built[name] = (len(at.get("plotly_chart")), len(at.dataframe))
    assert built == {"Score breakdown": (1, 1), "Words": (0, 1), "References": (0, 1), "meteor2005 vs NLTK": (2, 0)}


def test_typing_a_pair_updates_the_numbers(at):
    enter(at, *CROSSING)
    expected = score(*CROSSING)
    assert metric(at, "METEOR") == f"{expected.score:.4f}"
    assert metric(at, "Chunks / matches") == "1 / 6"
    assert "6 matches in 1 chunk, 0 crossing lines" in caption_with(at, "crossing line")
    words = view(at, "Words").dataframe[0].value
    assert list(words.token[:6]) == "the cat sat on the mat".split()


def test_parameters_change_the_score(at):
    enter(at, "on the mat sat the cat", "the cat sat on the mat")
    before = float(metric(at, "METEOR"))
    at.slider(key="gamma").set_value(0.0).run()
    assert float(metric(at, "Penalty")) == 0.0
    assert metric(at, "METEOR") == metric(at, "Fmean") and float(metric(at, "METEOR")) > before
    at.slider(key="beta").set_value(1.0).run()
    at.slider(key="gamma").set_value(0.5).run()
    r = score("on the mat sat the cat", ["the cat sat on the mat"], MeteorConfig.meteor2005(beta=1.0))
    assert metric(at, "METEOR") == f"{r.score:.4f}"
    at.button[-1].click().run()  # reset to the preset
    assert at.slider(key="beta").value == 3.0


def test_turning_a_stage_off(at):
    at.checkbox(key="stage_synonym").uncheck().run()
    r = score("the big dog barked at the postman", ["the large dog barked at the mailman"],
              MeteorConfig.meteor2005(stages=("exact", "stem")))
    assert metric(at, "METEOR") == f"{r.score:.4f}" and r.score < 0.9
    assert at.query_params["stages"] == "exact,stem"


def test_nltk_preset_agrees_with_nltk(at):
    at.selectbox(key="preset").set_value("nltk").run()
    hyp, ref = "the big dog barked at the postman", "the large dog barked at the mailman"
    assert metric(at, "METEOR") == f"{meteor_score([ref.split()], hyp.split()):.4f}"


def test_several_references_and_switching_the_drawing(at):
    add = next(b for b in at.button if b.label == "Add reference")
    add.click().run()
    assert len(at.text_area) == 3
    enter(at, "the cat sat on the mat", "a dog ran", "the cat sat on a mat")
    assert "reference 2" in " ".join(c.value for c in at.caption)
    refs = view(at, "References").dataframe[0].value
    assert list(refs.best) == [False, True]
    view(at, "Alignment")
    chooser = at.selectbox(key="shown_reference_2")
    assert chooser.value == 1
    chooser.set_value(0).run()
    assert "0 matches in 0 chunks" in caption_with(at, "crossing line")
    remove = next(b for b in at.button if b.label == "Remove last reference")
    remove.click().run()
    assert len(at.text_area) == 2 and not at.exception


def test_examples_menu_loads_an_example(at):
    at.selectbox(key="example").set_value("Stem match").run()
    assert at.text_area(key="hyp").value == "the children were playing in the gardens"
    assert at.info[0].value == "Example: Stem match. " + BY_TITLE["Stem match"].lesson("meteor2005").shown()


def test_the_example_s_lesson_is_the_preset_s_and_says_when_the_parameters_are_not(at):
    """Issue 31, item 4: the lesson is told for the preset in use (meteor15 draws 3 chunks for the
    word-order example, meteor2005 6); with parameters of one's own it says the numbers are not its."""
    at.selectbox(key="example").set_value("Word-order penalty").run()
    word_order = BY_TITLE["Word-order penalty"]
    assert at.info[0].value == "Example: Word-order penalty. " + word_order.lesson("meteor2005").shown()
    at.selectbox(key="preset").set_value("meteor15").run()
    assert at.info[-1].value == "Example: Word-order penalty. " + word_order.lesson("meteor15").shown()
    at.slider(key="gamma").set_value(0.3).run()
    assert at.info[-1].value.endswith("(Told for meteor15's own parameters and stages; the numbers below use yours.)")


def test_a_preset_change_says_which_parameters_it_replaced(at):
    """Issue 31, item 7: changing the preset silently reset α, β, γ."""
    at.slider(key="alpha").set_value(0.5).run()
    at.selectbox(key="preset").set_value("meteor15").run()
    assert at.slider(key="alpha").value == 0.85  # the preset's own
    assert at.info[0].value == ("meteor15's own parameters and stages are set: α 0.5 → 0.85, β 3 → 0.2, γ 0.5 → 0.6, "
                                "paraphrase on, Unicode NFC off. Move the sliders again for values of your own.")
    at.run()
    assert not any("own parameters and stages are set" in i.value for i in at.info)  # said once


def test_the_difference_page_s_link_back_keeps_the_example_s_lesson():
    """Issue 31, item 7: coming back from the difference page (its link carries the pair) dropped
    the example's lesson."""
    stem = BY_TITLE["Stem match"]
    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update(hyp=stem.hypothesis, ref=list(stem.references), preset="meteor2005")
    at.run()
    assert at.selectbox(key="example").value == "Stem match"
    assert at.info[0].value == "Example: Stem match. " + stem.lesson("meteor2005").shown()


def test_the_open_view_is_in_the_url():
    """Issue 31, item 7: a reload lost the open tab."""
    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    assert "view" not in at.query_params  # the first view is the default
    at.session_state["view"] = "Words"
    at.run()
    assert at.query_params["view"] in ("Words", ["Words"])
    reloaded = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    reloaded.query_params.update({k: v for k, v in at.query_params.items()})
    reloaded.run()
    assert reloaded.session_state["view"] == "Words"
    assert reloaded.dataframe[0].value.columns[0] == "side"  # the Words table is what is drawn


def test_state_comes_from_and_goes_to_the_url():
    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["hyp"] = "a b c"
    at.query_params["ref"] = ["a b c", "c b a"]
    at.query_params["gamma"] = "0.25"
    at.run()
    assert at.text_area(key="hyp").value == "a b c" and at.text_area(key="ref_1").value == "c b a"
    assert at.slider(key="gamma").value == 0.25
    at.text_area(key="hyp").input("a b").run()
    assert at.query_params["hyp"] == "a b" and at.query_params["ref"] == ["a b c", "c b a"]


def test_bad_url_values_fall_back():
    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["alpha"] = "lots"
    at.query_params["beta"] = "99"
    at.query_params["preset"] = "nonsense"
    at.run()
    assert not at.exception  # out of range: the preset's value and a message (tests/test_app_hardening.py)
    assert at.slider(key="alpha").value == 0.9 and at.slider(key="beta").value == 3.0


def test_compare_tab_marks_the_differences(at):
    view(at, "meteor2005 vs NLTK")
    enter(at, *CROSSING)
    info = " ".join(i.value for i in at.info)
    assert "2 matches only in meteor2005, 2 only in NLTK" in info
    assert metric(at, "nltk") == f"{score(*CROSSING, MeteorConfig.nltk()).score:.4f}"
    enter(at, "Hello, world.", "Hello world.")
    assert "tokenisations differ" in " ".join(i.value for i in at.info)
    at.toggle[0].set_value(True).run()
    assert "tokenisations differ" not in " ".join(i.value for i in at.info)


@pytest.mark.parametrize("hyp,ref,message", [
    ("", "a b", "Enter a candidate"),
    ("a b", "   ", "Enter at least one reference"),
    (" ".join(["w"] * 500), "a", "limit"),
])
def test_bad_input_warns_and_keeps_the_text(at, hyp, ref, message):
    enter(at, hyp, ref)
    assert not at.exception
    assert any(message in w.value for w in at.warning)
    assert at.text_area(key="hyp").value == hyp and at.text_area(key="ref_0").value == ref


def test_markup_is_shown_as_text(at):
    enter(at, "<b>bold</b> <script>alert(1)</script>", "bold **stars** [link](http://x)")
    assert not at.exception
    assert not at.markdown or all("<script>" not in m.value for m in at.markdown)
    assert "< script >" in " ".join(view(at, "Words").dataframe[0].value.token)  # shown, as tokens, in the word table


def test_missing_wordnet_is_said_clearly(at, monkeypatch):
    def missing():
        raise resources.WordNetMissingError(resources.WORDNET_FIX)

    st.cache_data.clear()
    monkeypatch.setattr(resources, "require_wordnet", missing)
    enter(at, "a big dog", "a large dog")
    assert any("WordNet 3.0 is not installed" in e.value for e in at.error)
    at.checkbox(key="stage_synonym").uncheck().run()
    assert not at.error and metric(at, "METEOR")


def test_missing_jar_is_said_clearly(at, monkeypatch):
    """meteor15 without a Meteor 1.5 jar: the fix, as plain text, and no traceback."""
    from meteor_core import jar_resources

    def forget():
        st.cache_data.clear()
        jar_resources.clear()
        resources.function_words.cache_clear()
        resources._jar_synsets.cache_clear()
    forget()
    monkeypatch.setenv("METEOR_JAR", "none")
    try:
        at.selectbox(key="preset").set_value("meteor15").run()
        assert not at.exception
        shown = [e.value.replace("\\", "").replace("\u2060", "") for e in at.error]  # as typed (Markdown punctuation escaped)
        assert jar_resources.JAR_FIX in shown
        assert any("meteor15 needs a Meteor 1.5 jar" in c.value for c in at.caption)
        assert not at.metric
        at.selectbox(key="preset").set_value("meteor2005").run()
        assert not at.exception and not at.error and metric(at, "METEOR")
    finally:
        monkeypatch.delenv("METEOR_JAR")
        forget()


def test_meteor15_preset_shows_the_1x_terms(at):
    at.selectbox(key="preset").set_value("meteor15").run()
    assert not at.exception
    hyp, ref = "the big dog barked at the postman", "the large dog barked at the mailman"
    assert metric(at, "METEOR") == f"{score(hyp, [ref], MeteorConfig.meteor15()).score:.4f}"
    assert at.slider(key="beta").value == 0.2 and at.slider(key="delta").value == 0.75
    terms = view(at, "Score breakdown").dataframe[0].value
    assert {"δ", "m_h", "|h|", "w"} <= set(terms.symbol)
    at.slider(key="delta").set_value(0.5).run()
    assert metric(at, "METEOR") == f"{score(hyp, [ref], MeteorConfig.meteor15(delta=0.5)).score:.4f}"
    assert at.query_params["delta"] == "0.5"


# --- languages (issue 29) ---------------------------------------------------------------------

GERMAN = ("Die Katze sitzt auf der Matte und schaut aus dem Fenster.",
          "Die Katze saß auf der Matte und sah aus dem Fenster.")


def _signature(at):
    """The signature as shown: a code block, so what a user copies is the signature itself."""
    return "Signature: " + next(c.value for c in at.code if c.value.startswith("meteor|"))


def test_meteor15_in_the_explorer_is_the_preset_with_the_jar_s_paraphrase_table(at):
    """The explorer's meteor15 took no paraphrase table unless one was chosen, so it differed from
    MeteorConfig.meteor15(), whose default takes the jar's table."""
    at.selectbox(key="preset").set_value("meteor15").run()
    assert at.selectbox(key="paraphrase_choice").value == "the jar's (paraphrase-en.gz)"
    assert at.selectbox(key="paraphrase_choice").options[0] == "the jar's (paraphrase-en.gz)"
    assert _signature(at) == "Signature: " + MeteorConfig.meteor15().signature()
    hyp, ref = at.text_area(key="hyp").value, at.text_area(key="ref_0").value
    assert metric(at, "METEOR") == f"{score(hyp, [ref], MeteorConfig.meteor15()).score:.4f}"
    at.selectbox(key="paraphrase_choice").set_value("(none)").run()
    assert "paraphrase" not in _signature(at)
    assert any("scores without paraphrases" in c.value for c in at.sidebar.caption)


def test_german_from_the_url_is_scored_as_german_and_kept_in_the_url():
    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update(hyp=GERMAN[0], ref=GERMAN[1], preset="meteor15", lang="de")
    at.run()
    german = MeteorConfig.meteor15(language="de")
    assert at.selectbox(key="lang").value == "de"
    assert metric(at, "METEOR") == f"{score(GERMAN[0], [GERMAN[1]], german).score:.4f}"
    assert _signature(at) == "Signature: " + german.signature()
    assert at.query_params["lang"] in ("de", ["de"])
    assert at.checkbox(key="stage_synonym").disabled and not at.checkbox(key="stage_synonym").value
    assert "nltk" not in at.selectbox(key="preset").options


def test_english_text_under_german_gets_a_note_and_nltk_gives_way(at):
    """Changing the language resets the preset's parameters for it and says so; nltk is English
    only; English text scored as German is said to look English."""
    at.selectbox(key="preset").set_value("nltk").run()
    at.selectbox(key="lang").set_value("de").run()
    assert at.selectbox(key="preset").value == "meteor15"
    infos = [i.value for i in at.info]
    assert any(v.startswith("nltk is English only") for v in infos)
    assert any(v.startswith("meteor15's own parameters and stages for German are set: α 0.9 → 0.95") for v in infos)
    assert at.slider(key="alpha").value == 0.95 and at.slider(key="beta").value == 1.0
    enter(at, "The cat is sitting on the mat and it is looking out of the window at the birds in the garden",
          "The cat sat on the mat and it looked out of the window at the birds that were in the garden")
    warnings = [w.value.replace("\\", "") for w in at.warning]
    assert any(w.startswith("The text looks like English, not German") for w in warnings)
    assert any("choose English (en) as the language in the sidebar" in w for w in warnings)


def test_a_link_asking_nltk_in_german_is_told_why_it_gets_meteor15():
    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update(hyp=GERMAN[0], ref=GERMAN[1], preset="nltk", lang="de")
    at.run()
    assert at.selectbox(key="preset").value == "meteor15"
    assert any("nltk is English only" in w.value.replace("\\", "") for w in at.warning)


@pytest.mark.parametrize("code", ["cs", "other"])
def test_meteor2005_scores_a_language_without_a_stemmer(at, code):
    """meteor2005 in Czech (or 'other') failed on every pair: the optimal aligner built a stemmer
    before looking at its stages ("No stemmer for language (czech)")."""
    at.selectbox(key="lang").set_value(code).run()
    at.selectbox(key="preset").set_value("meteor2005").run()
    assert not at.error and not at.exception
    assert at.checkbox(key="stage_stem").disabled and not at.checkbox(key="stage_stem").value
    hyp, ref = at.text_area(key="hyp").value, at.text_area(key="ref_0").value
    assert metric(at, "METEOR") == f"{score(hyp, [ref], MeteorConfig.meteor2005(language=code)).score:.4f}"


def test_text_not_in_nfc_is_said_and_the_toggle_composes_it(at):
    import unicodedata

    hyp, ref = (unicodedata.normalize("NFD", t) for t in ("le café est très bon", "le café était très bon"))
    at.selectbox(key="preset").set_value("meteor15").run()
    enter(at, hyp, ref)
    assert any(w.value.replace("\\", "").startswith("Some text is not in Unicode NFC") and
               "tick 'Unicode NFC' in the sidebar" in w.value.replace("\\", "") for w in at.warning)
    at.toggle(key="normalize").set_value(True).run()
    assert not any("Unicode NFC" in w.value for w in at.warning)
    assert metric(at, "METEOR") == f"{score(hyp, [ref], MeteorConfig.meteor15(normalize='NFC')).score:.4f}"
    assert at.query_params["nfc"] in ("1", ["1"])
