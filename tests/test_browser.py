"""Real browser: streamlit run on a free port, Debian's Chromium driven by Playwright."""
import json

import pytest

from browser import ARTIFACTS, browser_page, rss_mib, wait_for_run
from meteor_core import score

pytestmark = pytest.mark.browser


def type_into(page, label, text):
    box = page.get_by_label(label, exact=True)
    box.fill(text)
    box.press("Control+Enter")  # Streamlit applies a text area on Ctrl+Enter
    wait_for_run(page)


def test_type_a_pair_and_see_the_alignment(server):
    server, _ = server
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
        # (2 px wide; the chunk bands' outlines are 1 px)
        paths = chart.locator("g.scatterlayer .trace path.js-line").evaluate_all(
            "ps => ps.filter(p => p.style.strokeWidth === '2px')"
            "        .map(p => (p.getAttribute('d') || '').split('M').length - 1)")
        assert sum(paths) == expected.matches
        page.screenshot(path=str(ARTIFACTS / "explorer.png"), full_page=True)
        assert not errors, errors


def test_compare_upload_two_systems_and_open_a_segment(server, tmp_path):
    server, _ = server
    ref = ["the cat sat on the mat", "a dog ran in the park", "it is raining today", "we like green tea"]
    good = ["the cat sat on the mat", "a dog ran in a park", "it rains today", "we like tea"]
    bad = ["cat the mat", "dog park", "raining it", "tea"]
    for name, lines in (("ref.txt", ref), ("good.txt", good), ("bad.txt", bad)):
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    with browser_page(height=2400) as (page, errors):
        page.goto(server + "/compare")
        page.get_by_text("Upload files (one segment a line)").click()
        wait_for_run(page)
        uploaders = page.locator('[data-testid="stFileUploader"]')
        uploaders.nth(0).locator("input[type=file]").set_input_files(str(tmp_path / "ref.txt"))
        wait_for_run(page)
        uploaders.nth(1).locator("input[type=file]").set_input_files([str(tmp_path / "good.txt"), str(tmp_path / "bad.txt")])
        wait_for_run(page)
        page.get_by_text("bad − good").first.wait_for(timeout=30_000)  # system names drop the extension
        # open segment 3 by selecting its row in the segment table (a canvas grid: click the row's cell).
        # The table is found by its key (Streamlit's st-key-* class: other tables render above it as
        # the page's sections finish), and clicked once its position has settled.
        grid = page.locator('.st-key-segments_table [data-testid="stDataFrame"]')
        segment = page.get_by_label("Segment", exact=True)
        row_height = 35
        for _ in range(3):
            wait_for_run(page)
            grid.scroll_into_view_if_needed()
            box = grid.bounding_box()
            page.wait_for_timeout(300)
            if grid.bounding_box() != box:  # still moving: sections above are still drawing
                continue
            page.mouse.click(box["x"] + 15, box["y"] + row_height * 3 + row_height / 2)  # header + rows 1, 2
            wait_for_run(page)
            if segment.input_value() == "3":
                break
        page.wait_for_function("el => el.value === '3'", arg=segment.element_handle(), timeout=15_000)
        page.get_by_text("Reference: it is raining today").wait_for(timeout=15_000)
        # opening a segment draws it: one drawing per system (the charts are a closed expander)
        page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot').length >= 2", timeout=15_000)
        page.screenshot(path=str(ARTIFACTS / "compare.png"), full_page=True)
        assert not errors, errors


SOAK_EDITS = 50
SOAK_MAX_GROWTH_MIB = 150  # server memory after 50 edits vs after the first 5 (caches warm)


def test_soak_fifty_edits(server):
    url, proc = server
    with browser_page() as (page, errors):
        page.goto(url)
        page.wait_for_selector(".js-plotly-plot", timeout=60_000)
        box = page.get_by_label("Candidate translation", exact=True)
        words = "the big dog barked loudly at a postman near the old red door".split()
        baseline = None
        for k in range(SOAK_EDITS):
            text = " ".join(words[: 3 + k % 10]) + f" edit {k}"
            box.fill(text)
            box.press("Control+Enter")
            wait_for_run(page)
            if k == 4:
                baseline = rss_mib(proc.pid)
        expected = f"{score(text, ['the large dog barked at the mailman']).score:.4f}"
        assert box.input_value() == text
        try:
            page.wait_for_function(
                "v => [...document.querySelectorAll('[data-testid=\"stMetricValue\"]')].some(e => e.innerText.trim() === v)",
                arg=expected, timeout=30_000)
        except Exception:  # a flake seen once in ~8 runs: keep what the page showed
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "soak-failure.png"), full_page=True)
            shown = page.locator('[data-testid="stMetricValue"]').all_inner_texts()
            raise AssertionError(f"score {expected} not shown after the last edit; metrics shown: {shown}") from None
        growth = rss_mib(proc.pid) - baseline
        assert page.locator('[data-testid="stException"]').count() == 0
        assert not errors, errors
        assert growth < SOAK_MAX_GROWTH_MIB, f"server grew {growth:.0f} MiB over {SOAK_EDITS} edits"
        print(f"soak: {SOAK_EDITS} edits, server RSS growth {growth:.1f} MiB")


def test_difference_page_waterfall(server):
    url, _ = server
    with browser_page(height=2200) as (page, errors):
        page.goto(url + "/difference")
        page.get_by_text("Going from nltk to meteor15").wait_for(timeout=60_000)
        page.wait_for_selector(".js-plotly-plot g.waterfalllayer", timeout=30_000)
        bars = page.locator(".js-plotly-plot g.waterfalllayer g.point").count()
        assert bars >= 5  # A, several factors, B
        wait_for_run(page)
        page.screenshot(path=str(ARTIFACTS / "difference.png"), full_page=True)
        assert not errors, errors


def _forty_token_pair():
    from conftest import ted_lines
    from meteor_core import MeteorConfig
    from meteor_core.tokenize import tokenize

    tokenizer = MeteorConfig.meteor2005().tokenizer
    return next((h, r) for h, r in zip(ted_lines("sys1"), ted_lines("ref")) if len(tokenize(r, tokenizer)) == 40)


EDITS = 20
DRAWING_SECONDS = 1.0  # issue 16: each new drawing on screen within 1 s of the edit


def _oversubscription() -> float:
    """Runnable processes per core (at least 1). This 2-core machine is shared by several test
    suites at once; at a load of 8 a process gets a quarter of a core, and a wall-clock bound
    has to grow with that or it measures the neighbours. On a machine of its own this is 1."""
    import os

    return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))


def test_twenty_edits_of_a_forty_token_pair_each_drawn_within_a_second(server):
    import time

    url, _ = server
    hyp, ref = _forty_token_pair()
    with browser_page() as (page, errors):
        page.goto(url)
        page.wait_for_selector(".js-plotly-plot", timeout=60_000)
        type_into(page, "Reference 1", ref)
        type_into(page, "Candidate translation", hyp)
        box = page.get_by_label("Candidate translation", exact=True)
        seconds, load = [], _oversubscription()
        for k in range(EDITS):
            word = f"edit{k}x"  # first, so it is inside the shown window of the drawing
            box.fill(f"{word} {hyp}")
            start = time.monotonic()
            box.press("Control+Enter")
            page.wait_for_function(
                "w => [...document.querySelectorAll('.js-plotly-plot g.textpoint text')].some(t => t.textContent === w)",
                arg=word, timeout=30_000)
            seconds.append(time.monotonic() - start)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "explorer-40-tokens.png"), full_page=True)
        assert not errors, errors
        load = max(load, _oversubscription())
        print(f"edit -> drawing on screen (s, load {load:.1f} per core): " + " ".join(f"{s:.2f}" for s in seconds))
        assert max(seconds) < DRAWING_SECONDS * load, (load, seconds)


def test_compare_demo_set_filter_and_segment_in_the_browser(server):
    import time

    url, _ = server
    with browser_page(height=2600) as (page, errors):
        page.goto(url + "/compare")
        page.get_by_text("sys2 − sys1").first.wait_for(timeout=120_000)
        wait_for_run(page, timeout=120_000)
        load = _oversubscription()
        segment = page.get_by_label("Segment", exact=True)
        timings = {}
        start = time.monotonic()
        segment.fill("7")
        segment.press("Enter")
        seventh = "Reference: " + __import__("conftest").ted_lines("ref")[6]
        page.get_by_text(seventh[:60]).first.wait_for(timeout=60_000)
        timings["open segment 7"] = time.monotonic() - start
        page.wait_for_selector(".js-plotly-plot", timeout=60_000)  # choosing a segment draws it
        query = page.get_by_label("Search words (reference or outputs)", exact=True)
        start = time.monotonic()
        query.fill("laughter")
        query.press("Enter")
        page.get_by_text("segments. Click a column header").first.wait_for(timeout=60_000)
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=\"stCaptionContainer\"]')]"
            ".some(e => /^\\d+ of 1,200 segments/.test(e.innerText) && !e.innerText.startsWith('1,200 of'))",
            timeout=60_000)
        timings["filter by a word"] = time.monotonic() - start
        wait_for_run(page)
        page.screenshot(path=str(ARTIFACTS / "compare-demo.png"), full_page=True)
        assert not errors, errors
        load = max(load, _oversubscription())
        print(f"compare page in Chromium (s, load {load:.1f} per core): "
              + ", ".join(f"{k} {v:.2f}" for k, v in timings.items()))
        assert max(timings.values()) < 3.0 * load, (load, timings)  # target 1 s; bench_app.py measures


def test_explorer_link_opens_the_pair_on_the_difference_page(server):
    url, _ = server
    with browser_page(height=2400) as (page, errors):
        page.goto(url)
        page.wait_for_selector(".js-plotly-plot", timeout=60_000)
        type_into(page, "Candidate translation", "the big cat sat on the mat")
        page.get_by_text("Open it in the difference page").click()
        page.get_by_text("Why do two METEORs disagree?").wait_for(timeout=30_000)
        wait_for_run(page)
        assert page.get_by_label("Candidate translation", exact=True).input_value() == "the big cat sat on the mat"
        assert "hyp=the+big+cat" in page.url and "a=meteor2005" in page.url
        page.get_by_text("Going from meteor2005 to nltk").wait_for(timeout=30_000)
        page.screenshot(path=str(ARTIFACTS / "difference-from-explorer.png"), full_page=True)
        # back through the navigation: the explorer still has the pair
        page.get_by_text("Explore a pair").first.click()
        wait_for_run(page)
        page.wait_for_function(
            "v => [...document.querySelectorAll('textarea')].some(t => t.value === v)",
            arg="the big cat sat on the mat", timeout=30_000)


# --- the "Agreement with people" page ---

AGREEMENT_REFS = ["the cat sat on the warm mat today", "a dog ran quickly in the big park",
                  "it is raining over the old town now", "we like green tea with some milk",
                  "they walked home along the quiet river", "she reads a long book every night"]
AGREEMENT_SYSTEMS = ["good", "<b>bold</b> & co", "short", "shorter"]


def test_agreement_page_upload_judgments_see_figures_and_tune(server, tmp_path):
    url, _ = server
    rows = []
    for s, ref in enumerate(AGREEMENT_REFS):
        words = ref.split()
        for k, name in enumerate(AGREEMENT_SYSTEMS):
            rows.append({"system": name, "seg_id": s + 1, "reference": ref,
                         "hypothesis": " ".join(words[:len(words) - 2 * k]), "human": -k - (s % 2) / 2})
    (tmp_path / "judged.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    ARTIFACTS.mkdir(exist_ok=True)
    with browser_page(height=3600) as (page, errors):
        page.goto(url + "/agreement")
        page.get_by_text("Upload a table (JSONL, TSV or CSV; .gz allowed)").click()  # stops scoring the bundled set
        wait_for_run(page)
        samples = page.get_by_label("Bootstrap samples")
        samples.fill("200")
        samples.press("Enter")
        wait_for_run(page)
        page.locator('[data-testid="stFileUploader"] input[type=file]').set_input_files(str(tmp_path / "judged.jsonl"))
        page.get_by_text("4 systems, 6 segments, 24 rows").wait_for(timeout=120_000)
        wait_for_run(page, timeout=120_000)
        scatter = page.locator(".js-plotly-plot").first
        scatter.wait_for()
        labels = scatter.locator("text").all_text_contents()
        assert "<b>bold</b> & co" in labels  # the name as typed, not bold text
        page.get_by_role("button", name="Tune").click()
        page.get_by_text("grid points rescored").first.wait_for(timeout=60_000)
        wait_for_run(page)
        heatmap = page.locator(".js-plotly-plot", has_text="on the training rows")  # not the density in its tab
        heatmap.wait_for(timeout=30_000)
        heatmap.scroll_into_view_if_needed()
        assert "best" in heatmap.inner_text() and "default" in heatmap.inner_text()
        page.screenshot(path=str(ARTIFACTS / "agreement.png"), full_page=True)
        # the tuning choices survive runs that stop before drawing them (the table removed, then
        # uploaded again): the browser would send back the widgets' own defaults (steps: 2)
        page.get_by_label("Remove judged.jsonl").click()
        page.get_by_text("Upload a table, or pick the bundled set above.").wait_for(timeout=30_000)
        wait_for_run(page)
        (tmp_path / "again.jsonl").write_bytes((tmp_path / "judged.jsonl").read_bytes())  # a new file for the input
        page.locator('[data-testid="stFileUploader"] input[type=file]').set_input_files(str(tmp_path / "again.jsonl"))
        page.get_by_text("4 systems, 6 segments, 24 rows").wait_for(timeout=120_000)
        wait_for_run(page, timeout=120_000)
        assert page.get_by_label("Values per parameter").input_value() == "11"
        assert not errors, errors
