"""Real browser, issue 31: every download of the compare page arrives and is a valid file; what
the widgets show is what the results used; the key numbers can be read at 800 px; the console
stays clean offline (no favicon from the web, no 404s on a deep link)."""
import csv
import io
import json

import pytest

from browser import ARTIFACTS, browser_page, wait_for_run
from conftest import ted_lines

pytestmark = pytest.mark.browser

DOWNLOADS = ("Corpus table (CSV)", "Corpus table and bootstrap (JSON)", "Segment table (CSV)",
             "Corpus table (LaTeX)", "Every table (xlsx)")


def _download(page, label: str, timeout: float = 30_000) -> tuple[str, bytes]:
    """Click the download button ``label`` and return (file name, bytes) of what arrives."""
    button = page.locator('[data-testid="stDownloadButton"] button', has_text=label).first
    button.scroll_into_view_if_needed()
    with page.expect_download(timeout=timeout) as info:
        button.click()
    download = info.value
    return download.suggested_filename, open(download.path(), "rb").read()


def _check_file(name: str, data: bytes, systems: list[str]) -> None:
    """The file is what its name says, and it names the systems."""
    if name.endswith(".csv"):
        rows = list(csv.DictReader(io.StringIO(data.decode("utf-8"))))
        assert rows and "signature" in rows[0]
        assert all(s in data.decode("utf-8") for s in systems)
    elif name.endswith(".json"):
        loaded = json.loads(data)
        assert [row["system"] for row in loaded["systems"]] == systems and "bootstrap" in loaded
    elif name.endswith(".tex"):
        text = data.decode("utf-8")
        assert "\\begin{tabular}" in text and "\\end{tabular}" in text
        assert all(s in text for s in systems)
    elif name.endswith(".xlsx"):
        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(data), read_only=True)
        assert {"corpus", "significance", "segments"} <= set(book.sheetnames)
        corpus = [row for row in book["corpus"].iter_rows(values_only=True)]
        assert [row[0] for row in corpus[1:]] == systems
    else:
        raise AssertionError(f"unexpected file {name}")


def _every_download(page, systems: list[str]) -> dict[str, str]:
    names = {}
    for label in DOWNLOADS:
        name, data = _download(page, label)
        _check_file(name, data, systems)
        names[label] = name
    return names


def test_every_download_of_the_compare_page_arrives_demo_set(server):
    url, proc = server
    with browser_page(height=1400) as (page, errors):
        page.goto(url + "/compare")
        page.get_by_text("sys2 − sys1").first.wait_for(timeout=120_000)
        wait_for_run(page, timeout=120_000)
        page.get_by_text("Every table (xlsx)").wait_for(timeout=120_000)
        names = _every_download(page, ["sys1", "sys2"])
        assert sorted(names.values()) == ["corpus.csv", "corpus.json", "corpus.tex", "meteor-compare.xlsx",
                                          "segments.csv"]
        assert not errors, errors


def _upload_files(page, url, tmp_path, n=30):
    refs, sys1, sys2 = (ted_lines(name)[:n] for name in ("ref", "sys1", "sys2"))
    for name, lines in (("ref.txt", refs), ("alpha.txt", sys1), ("beta.txt", sys2)):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    page.goto(url + "/compare")
    page.get_by_text("sys2 − sys1").first.wait_for(timeout=120_000)  # the demo set's results first
    wait_for_run(page, timeout=120_000)
    page.get_by_text("Upload files (one segment a line)").click()
    wait_for_run(page)
    uploaders = page.locator('[data-testid="stFileUploader"]')
    uploaders.nth(0).locator("input[type=file]").set_input_files(str(tmp_path / "ref.txt"))
    wait_for_run(page)
    uploaders.nth(1).locator("input[type=file]").set_input_files([str(tmp_path / "alpha.txt"),
                                                                 str(tmp_path / "beta.txt")])
    page.get_by_text("beta − alpha").first.wait_for(timeout=60_000)
    wait_for_run(page, timeout=60_000)


def test_every_download_of_the_compare_page_arrives_upload(server, tmp_path):
    url, _ = server
    with browser_page(height=1400) as (page, errors):
        _upload_files(page, url, tmp_path)
        page.get_by_text("Every table (xlsx)").wait_for(timeout=60_000)
        _every_download(page, ["alpha", "beta"])
        assert not errors, errors


def _shown_settings(page) -> dict:
    """What the compare page's number inputs and selectboxes show, by label (read in one go:
    the page may be redrawing)."""
    wait_for_run(page)
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        'input[type=number], [data-testid="stSelectbox"] input[role=combobox]')]
        .map(i => [i.getAttribute('aria-label'), i.value]))""")


def test_after_an_upload_the_widgets_show_the_settings_the_results_used(server, tmp_path):
    """Issue 31, item 2: the widgets came back showing their own defaults (samples 100, seed 0,
    "paired bootstrap", meteor2005 twice) while the results used 1000 samples and seed 12345."""
    url, _ = server
    with browser_page(height=1400) as (page, errors):
        _upload_files(page, url, tmp_path)
        shown = _shown_settings(page)
        assert (shown["Bootstrap samples"], shown["Seed"]) == ("1000", "12345"), shown
        assert shown["Randomization trials"] == "10000" and shown["Test"] == "both", shown
        assert (shown["Configuration A"], shown["Configuration B"]) == ("nltk", "meteor15"), shown
        summary = page.get_by_text("paired bootstrap samples, seed").first.inner_text()
        assert "1000 paired bootstrap samples, seed 12345" in summary, summary
        # the next rerun keeps them (it used to switch to what the widgets showed)
        page.get_by_role("checkbox", name="BLEU, chrF and TER", exact=False).check(force=True)
        page.get_by_text("chrF").first.wait_for(timeout=60_000)
        wait_for_run(page, timeout=60_000)
        assert _shown_settings(page) == shown
        assert page.get_by_text("paired bootstrap samples, seed").first.inner_text() == summary
        assert not errors, errors
