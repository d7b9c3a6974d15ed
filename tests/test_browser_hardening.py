"""Real browser: hostile names fetch nothing and render as text; eight sessions at once upload
and filter for a minute while the server's memory stays bounded; eight closed sessions give their
memory back."""
import csv
import http.server
import socketserver
import threading
import time

import pytest

from browser import ARTIFACTS, browser_page, rss_mib, wait_for_run
from conftest import ted_lines

pytestmark = pytest.mark.browser


@pytest.fixture
def trap():
    """A local HTTP server that records every request: a hostile name pointing at it must not
    make the browser fetch anything."""
    hits = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the stdlib's name)
            hits.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *args):
            pass

    httpd = socketserver.TCPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", hits
    finally:
        httpd.shutdown()
        httpd.server_close()


def _table(path, names, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([["ref", *names], *rows])


def _upload_table(page, url, path):
    page.goto(url + "/compare")
    page.get_by_text("Upload one table (TSV, CSV or JSONL)").click()
    wait_for_run(page)
    page.locator('[data-testid="stFileUploader"] input[type=file]').set_input_files(str(path))


def test_hostile_names_fetch_nothing_and_show_as_text(server, trap, tmp_path):
    url, _ = server
    trap_url, hits = trap
    name_a = f"![img]({trap_url}/image.png) **a**"
    name_b = f"[b]({trap_url}/link) $x^2$ :red[b]"
    refs, sys1, sys2 = (ted_lines(n)[:20] for n in ("ref", "sys1", "sys2"))
    _table(tmp_path / "set.csv", [name_a, name_b], zip(refs, sys1, sys2))
    with browser_page(height=2400) as (page, errors):
        _upload_table(page, url, tmp_path / "set.csv")
        wait_for_run(page)
        # the metric's label, shown as typed (invisible word joiners aside) once the page is drawn
        page.wait_for_function("t => document.body.innerText.replaceAll('\u2060', '').includes(t)",
                               arg=f"{name_b} − {name_a}", timeout=90_000)
        wait_for_run(page)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "hostile-names.png"), full_page=True)
        assert page.locator(f'img[src^="{trap_url}"]').count() == 0
        assert page.locator(f'a[href^="{trap_url}"]').count() == 0
        assert page.locator(".katex").count() == 0
        assert not errors, errors
    assert hits == []



def test_a_link_over_streamlits_limits_is_a_message(server):
    """Issue 30, item 15: Streamlit ignores a whole query string of more than 1,000 parameters
    (on the server, before the page runs): a link with 1,001 references opened the default
    example without a word. The explorer now says so; a link within the limit opens as before."""
    url, _ = server
    with browser_page() as (page, errors):
        page.goto(url + "/?hyp=mine&" + "&".join(f"ref=r{k}" for k in range(1001)))
        page.wait_for_function("() => document.body.innerText.includes('over Streamlit')", timeout=60_000)
        wait_for_run(page)
        text = page.inner_text("body").replace("\u2060", "")
        assert "This link has 1,002 parameters" in text and "Streamlit ignored all of it" in text
        page.goto(url + "/?hyp=mine&" + "&".join(f"ref=r{k}" for k in range(998)))  # 999: within the limit
        page.get_by_text("The link has 998 references; the first 16 are used.").wait_for(timeout=60_000)
        wait_for_run(page)
        assert "over Streamlit" not in page.inner_text("body")
        assert not errors, errors


SESSIONS = 8
SOAK_SECONDS = 60
SOAK_MAX_GROWTH_MIB = 250  # server memory at the end vs after every session's first upload
LARGE_ROWS = 2_445  # the soak: eight sessions of 2,445 rows each
# What eight closed sessions may leave above a server that has served one visitor (who opened the
# compare page on the bundled set), the server started as run.sh and `meteor app` start it
# (PYTHONMALLOC=malloc): measured 0 MiB with bench/soak_census.py, 18-77 MiB here (the printout
# gives each run's figures; the soak's sessions also upload and filter, code paths the one visitor
# does not load); 158 MiB with Python's own allocator, whose arenas the objects that outlive a visit
# keep. Issue 30's bound: 100.
LEFT_BEHIND_MAX_MIB = 100


@pytest.mark.timeout(900)  # a minute of soak, plus eight sessions' uploads on a shared machine
def test_soak_eight_sessions_upload_and_filter_for_a_minute(server, tmp_path):
    url, proc = server
    refs, sys1, sys2 = (ted_lines(n) for n in ("ref", "sys1", "sys2"))
    files = []
    for k in range(SESSIONS):  # each session its own 60-segment slice of the TED set
        rows = list(zip(refs, sys1, sys2))[k * 60:(k + 1) * 60]
        files.append(tmp_path / f"set{k}.csv")
        _table(files[-1], [f"sys1-{k}", f"sys2-{k}"], rows)
    words = ["the", "and", "people", "we", "world", "laughter", "is", "you", "zzz-no-match", ""]
    from playwright.sync_api import sync_playwright

    from browser import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            pages, errors = [], []
            for k in range(SESSIONS):  # a context each: separate Streamlit sessions
                page = browser.new_context(viewport={"width": 1200, "height": 1400}).new_page()
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                pages.append(page)
            for page, path in zip(pages, files):  # all eight upload at once, then wait for each
                _upload_table(page, url, path)
            for page in pages:
                page.get_by_label("Search words (reference or outputs)").wait_for(timeout=120_000)
                wait_for_run(page, timeout=120_000)
            baseline = peak = rss_mib(proc.pid)
            rounds, start = 0, time.time()
            while time.time() - start < SOAK_SECONDS:
                for k, page in enumerate(pages):  # every session edits, none waits for the others
                    box = page.get_by_label("Search words (reference or outputs)")
                    box.fill(words[(rounds + k) % len(words)])
                    box.press("Enter")
                    if (rounds + k) % 5 == 4:  # now and then a session uploads its table again
                        page.locator('[data-testid="stFileUploader"] input[type=file]').set_input_files(
                            str(files[(k + rounds) % SESSIONS]))
                for page in pages:
                    wait_for_run(page, timeout=120_000)
                peak = max(peak, rss_mib(proc.pid))
                rounds += 1
            for k, page in enumerate(pages):
                box = page.get_by_label("Search words (reference or outputs)")
                box.fill("laughter")
                box.press("Enter")
                wait_for_run(page, timeout=120_000)
                page.get_by_text("segments. Click a column header").first.wait_for(timeout=30_000)
                assert page.locator('[data-testid="stException"]').count() == 0
            ARTIFACTS.mkdir(exist_ok=True)
            pages[0].screenshot(path=str(ARTIFACTS / "soak-8-sessions.png"), full_page=True)
            growth = rss_mib(proc.pid) - baseline
            print(f"soak: {SESSIONS} sessions, {rounds} rounds in {SOAK_SECONDS} s, server RSS {baseline:.0f} MiB "
                  f"after the first uploads, peak {peak:.0f} MiB, growth {growth:.1f} MiB")
            assert not errors, errors
            assert rounds >= 3
            assert growth < SOAK_MAX_GROWTH_MIB, f"server grew {growth:.0f} MiB"
        finally:
            browser.close()


def _large_tables(folder, sessions: int = SESSIONS, rows: int = LARGE_ROWS) -> list:
    """Eight 2,445-row tables, each its own (the TED set, rotated and marked per session, so that
    no two sessions share a cache entry)."""
    refs, sys1, sys2 = (ted_lines(n) for n in ("ref", "sys1", "sys2"))
    files = []
    for k in range(sessions):
        table = []
        for j in range(rows):
            i = (j + 150 * k) % len(refs)
            table.append((refs[i], sys1[i] + ("" if j < len(refs) else f" {k}"), sys2[i]))
        files.append(folder / f"large{k}.csv")
        _table(files[-1], [f"sys1-{k}", f"sys2-{k}"], table)
    return files


def upload_and_filter(pages, url, files, measure=lambda: None) -> None:
    """The soak's steps: every session uploads its table at once, each waits for its scores, then
    every session filters its set (three searches); ``measure()`` after each wait."""
    for page, path in zip(pages, files):
        _upload_table(page, url, path)
    for page in pages:
        page.get_by_label("Search words (reference or outputs)").wait_for(timeout=900_000)
        wait_for_run(page, timeout=900_000)
        measure()
    for word in ("the", "people", ""):
        for page in pages:
            box = page.get_by_label("Search words (reference or outputs)")
            box.fill(word)
            box.press("Enter")
        for page in pages:
            wait_for_run(page, timeout=300_000)
        measure()


@pytest.mark.timeout(1500)  # eight sessions score 2,445 rows each on a shared machine, then the close
def test_eight_closed_sessions_give_their_memory_back(tmp_path):
    """Eight sessions each upload and score 2,445 rows on the compare page, then their browsers
    close: once Streamlit's reconnect window is over, the server gives back what they took
    (components/session_cleanup closes the gone sessions, empties them and trims the allocator;
    components/session_memo keeps an upload's tables and charts in session-scoped caches; the
    server runs on the C allocator)."""
    from playwright.sync_api import sync_playwright

    from browser import CHROMIUM, CHROMIUM_ARGS, require_browser, streamlit_server

    require_browser()
    files = _large_tables(tmp_path)
    from meteor_core.cli.app import server_environment

    # a server of its own (the starting memory is its own), with the allocator run.sh gives it
    with streamlit_server(env=server_environment()) as (url, proc):
        time.sleep(3)
        start = peak = rss_mib(proc.pid)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                pages = [browser.new_context(viewport={"width": 1200, "height": 1400}).new_page()
                         for _ in range(SESSIONS)]
                pages[0].goto(url + "/compare")  # one visitor: the app's modules and resources loaded, the demo
                pages[0].get_by_label("Search words (reference or outputs)").wait_for(timeout=300_000)
                wait_for_run(pages[0], timeout=300_000)
                warm = rss_mib(proc.pid)
                seen = [peak]
                upload_and_filter(pages, url, files, lambda: seen.append(rss_mib(proc.pid)))
                peak = max(seen)
                for page in pages:
                    assert page.locator('[data-testid="stException"]').count() == 0
            finally:
                browser.close()
        closed = time.time()
        from streamlit import config  # Streamlit's reconnect window: a gone session is kept so long
        window = float(config.get_option("server.disconnectedSessionTTL"))
        trace = []
        while time.time() - closed < window + 60:  # the window, the janitor's sweeps, the release
            time.sleep(10)
            trace.append(round(rss_mib(proc.pid)))
        after = rss_mib(proc.pid)
    print(f"closed sessions: {SESSIONS} sessions of {LARGE_ROWS:,} rows, server RSS {start:.0f} MiB at the start, "
          f"{warm:.0f} MiB once one visitor has opened the compare page, peak {peak:.0f} MiB, {after:.0f} MiB "
          f"{window + 60:.0f} s after the browsers closed (every 10 s: {trace})")
    assert peak - warm > 100, "the soak did not load the server (nothing measured)"
    assert after < peak - 50, "nothing was given back once the sessions had gone"
    assert after - warm < LEFT_BEHIND_MAX_MIB, f"closed sessions left {after - warm:.0f} MiB behind"
