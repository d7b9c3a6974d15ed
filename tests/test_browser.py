"""Real browser: streamlit run on a free port, Debian's Chromium driven by Playwright."""
import pytest

from browser import ARTIFACTS, browser_page, require_browser, streamlit_server, wait_for_run
from meteor_core import score

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server():
    require_browser()
    with streamlit_server() as (url, proc):
        yield url


def type_into(page, label, text):
    box = page.get_by_label(label, exact=True)
    box.fill(text)
    box.press("Control+Enter")  # Streamlit applies a text area on Ctrl+Enter
    wait_for_run(page)


def test_type_a_pair_and_see_the_alignment(server):
    hyp, ref = "the big cat sat on the mat", "the large cat was sitting on a mat"
    expected = score(hyp, [ref])
    ARTIFACTS.mkdir(exist_ok=True)
    with browser_page() as (page, errors):
        page.goto(server)
        page.wait_for_selector(".js-plotly-plot", timeout=60_000)
        type_into(page, "Candidate translation", hyp)
        type_into(page, "Reference 1", ref)
        page.wait_for_function(
            "v => [...document.querySelectorAll('[data-testid=\"stMetricValue\"]')].some(e => e.innerText.trim() === v)",
            arg=f"{expected.score:.4f}", timeout=30_000)
        chart = page.locator(".js-plotly-plot").first
        chart.wait_for()
        svg_text = chart.inner_text() + " ".join(chart.locator("text").all_text_contents())
        for word in ("big", "large", "sitting"):
            assert word in svg_text
        # one drawn line per match: Plotly draws each stage's lines as one path with M...L pieces
        paths = chart.locator("g.scatterlayer .trace path.js-line").evaluate_all(
            "ps => ps.map(p => (p.getAttribute('d') || '').split('M').length - 1)")
        assert sum(paths) == expected.matches
        page.screenshot(path=str(ARTIFACTS / "explorer.png"), full_page=True)
        assert not errors, errors
