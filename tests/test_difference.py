"""The difference waterfall: steps add up exactly, identical configs give none, each factor
moves only its own terms; the CLI and the page."""
import json
import subprocess
import sys

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from conftest import ROOT
from meteor_core import MeteorConfig, explain_corpus_difference, explain_difference, score

HYP = "Alimentum is located in the city centre. It is not family-friendly."
REF = "There is a place in the city centre, Alimentum, that is not family-friendly."
PRESETS = [MeteorConfig.meteor2005(), MeteorConfig.nltk(), MeteorConfig.meteor15()]


@pytest.mark.parametrize("a", PRESETS, ids=lambda c: c.name)
@pytest.mark.parametrize("b", PRESETS, ids=lambda c: c.name)
def test_steps_end_exactly_at_b(a, b):
    d = explain_difference(HYP, [REF], a, b)
    assert d.score_a == score(HYP, [REF], a).score and d.score_b == score(HYP, [REF], b).score
    assert d.score_a + sum(s.delta for s in d.steps) == pytest.approx(d.score_b, abs=1e-12)
    if d.steps:
        assert d.steps[-1].score == d.score_b
    if a == b:
        assert d.steps == [] and "score the same way" in d.summary()


def test_factors_cover_every_setting():
    from dataclasses import fields
    from meteor_core.analysis.difference import FACTORS
    covered = {f for group in FACTORS.values() for f in group}
    assert covered == {f.name for f in fields(MeteorConfig)} - {"name"}


def test_the_issue_example_nltk_number():
    d = explain_difference(HYP, [REF], MeteorConfig.nltk(), MeteorConfig.meteor15())
    assert round(d.score_a, 4) == 0.5254  # what NLTK 3.10 prints for this pair
    top = max(d.steps, key=lambda s: abs(s.delta))
    assert top.factor == "beta" and "beta 3 → 0.2" in top.change and top.factor in d.summary()


def test_each_factor_moves_only_its_own_terms():
    base = MeteorConfig.meteor2005()
    r0 = score(HYP, [REF], base)
    for field, value, unchanged in [
        ("gamma", 0.2, ("matches", "chunks", "precision", "recall", "fmean")),
        ("beta", 1.0, ("matches", "chunks", "precision", "recall", "fmean")),
        ("alpha", 0.5, ("matches", "chunks", "precision", "recall", "penalty")),
    ]:
        d = explain_difference(HYP, [REF], base, MeteorConfig.meteor2005(**{field: value}))
        (step,) = d.steps
        assert step.factor == field
        for term in unchanged:
            assert step.terms[term] == getattr(r0, term)
        assert step.terms["score"] != r0.score


def test_order_changes_the_attribution_not_the_total():
    a, b = MeteorConfig.nltk(), MeteorConfig.meteor15()
    d1 = explain_difference(HYP, [REF], a, b)
    d2 = explain_difference(HYP, [REF], a, b, order=["gamma", "beta", "alpha", "tokenisation"])
    assert [s.factor for s in d2.steps][:2] == ["gamma", "beta"]
    assert d1.total == pytest.approx(d2.total)
    assert {s.factor: s.delta for s in d1.steps}["gamma"] != pytest.approx({s.factor: s.delta for s in d2.steps}["gamma"])
    with pytest.raises(ValueError, match="order"):
        explain_difference(HYP, [REF], a, b, order=["nonsense"])


def test_corpus_waterfall():
    hyps = ["the cat sat on the mat", "a big dog ran"]
    refs = [["the cat was sitting on the mat"], ["the large dog runs"]]
    d = explain_corpus_difference(hyps, refs, MeteorConfig.nltk(), MeteorConfig.meteor15())
    from meteor_core import score_corpus
    assert d.score_b == score_corpus(hyps, refs, MeteorConfig.meteor15()).score
    assert d.score_a + sum(s.delta for s in d.steps) == pytest.approx(d.score_b, abs=1e-12)


def test_cli_explain():
    p = subprocess.run([sys.executable, "-m", "meteor_core", "explain", "--a", "nltk", "--b", "meteor15",
                        "--hyp", HYP, "--ref", REF, "--format", "json"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["score_a"] + sum(s["delta"] for s in data["steps"]) == pytest.approx(data["score_b"])
    text = subprocess.run([sys.executable, "-m", "meteor_core", "explain", "--hyp", HYP, "--ref", REF],
                          cwd=ROOT, capture_output=True, text=True)
    assert "beta" in text.stdout and "difference" in text.stdout
    bad = subprocess.run([sys.executable, "-m", "meteor_core", "explain", "--hyp", HYP], cwd=ROOT,
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


@pytest.fixture
def page():
    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    return at.switch_page("app_pages/difference.py").run()


def test_page_shows_the_waterfall_for_two_presets(page):
    at = page
    assert not at.exception
    assert [m.value for m in at.metric] == ["0.5254", f"{score(HYP, [REF], MeteorConfig.meteor15()).score:.4f}",
                                            f"{score(HYP, [REF], MeteorConfig.meteor15()).score - 0.5253507653061225:+.4f}"]
    assert "beta" in at.info[0].value
    steps = at.dataframe[0].value
    assert steps.factor.iloc[0] == "A: nltk" and "beta" in set(steps.factor)
    at.selectbox(key="dif_B").set_value("meteor2005").run()
    d = explain_difference(HYP, [REF], MeteorConfig.nltk(), MeteorConfig.meteor2005())
    assert at.metric[1].value == f"{d.score_b:.4f}"
    assert len(at.dataframe[0].value) == len(d.steps) + 1
    at.selectbox(key="dif_B").set_value("nltk").run()
    assert "score the same way" in at.info[0].value


def test_difference_carries_both_results():
    d = explain_difference(HYP, [REF], MeteorConfig.nltk(), MeteorConfig.meteor15())
    assert d.result_a.to_dict() == score(HYP, [REF], MeteorConfig.nltk()).to_dict()
    assert d.result_b.score == d.score_b


def test_page_takes_packages_by_name_from_the_url():
    from meteor_core.compat import known
    from meteor_core.jar_resources import jar_available

    if not jar_available():
        pytest.skip("needs a Meteor 1.5 jar")
    from app_pages.difference import EXAMPLE_HYP, EXAMPLE_REF

    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"a": "COCO", "b": "vizseq"})
    at.switch_page("app_pages/difference.py").run()
    assert not at.exception and not at.warning
    assert (at.selectbox(key="dif_A").value, at.selectbox(key="dif_B").value) == ("pycocoevalcap", "vizseq")
    coco = score(EXAMPLE_HYP, [EXAMPLE_REF], known.configuration("pycocoevalcap")).score
    assert [m.label for m in at.metric[:2]] == ["A: pycocoevalcap", "B: vizseq"]
    assert at.metric[0].value == f"{coco:.4f}" and "pycocoevalcap" in at.info[0].value
    assert {"pycocoevalcap", "hf-evaluate", "nltk", "meteor15"} <= set(at.selectbox(key="dif_A").options)
    assert at.query_params["a"] == "pycocoevalcap"  # the link names it as listed
    at.selectbox(key="dif_B").set_value("hf-evaluate").run()  # NLTK's word_tokenize: punkt_tab, maybe missing
    assert not at.exception
    assert at.metric or "is not installed" in at.error[0].value  # (shown as plain text: escaped)
