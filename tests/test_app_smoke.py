from streamlit.testing.v1 import AppTest

from conftest import ROOT


def test_app_scores_default_pair():
    at = AppTest.from_file(str(ROOT / "app.py")).run(timeout=60)
    assert not at.exception
    assert at.metric[0].label == "METEOR" and float(at.metric[0].value) > 0.5
    at.text_area[0].input("").run(timeout=60)
    assert at.warning and not at.exception
