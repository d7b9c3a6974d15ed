"""The app's latency, measured server side (figure builds, page reruns through AppTest) and in
Chromium (--browser: what a visitor waits for, from the click to the page being idle).

    .venv/bin/python bench/bench_app.py [--repeats 7] [--no-pages] [--browser [--skip-budget] | --budget-only
                                        | --first-visit | --tick-only]

Data: the bundled TED set (demo/ted-slk-eng, detokenised, meteor2005 preset). The 40-token pair
is a real segment whose reference has 40 tokens; 130 tokens: consecutive segments joined and cut
at 130 tokens a side; 400 tokens: the same at 400 (the explorer's limit). Each figure is the
median of --repeats builds; beside it, the time to score the same pair (the peer measured in the
same run: the figure should cost about what scoring costs) and, for 40 tokens, the drawing code
this replaced (one Plotly call per label, line and band) for the ratio.

Targets (issue 16): figure 40 tokens < 100 ms, 130 < 300 ms, 400 < 1 s; an explorer rerun after an
edit of a 40-token pair < 300 ms; on the compare page (1,200 segments x 2 systems) changing a
filter and opening a segment < 1 s.

Targets in Chromium (issue 31; docs/app-performance.md has the figures and how they were taken):
every page interactive within 3 s of opening; scoring the MQM table (3,696 rows) for agreement
under 5 s; BLEU/chrF/TER added to 2 x 2,445 segments under 3 s; a segment opened from the table
under 0.5 s; a 99,999-segment x 2-system upload to compare done or stopped within the request's
60 s. The machine's load is printed with each: the 2 cores are shared, and a load of 4 makes
every wall-clock figure about twice what it is on an idle machine.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from meteor_core import MeteorConfig, score  # noqa: E402
from meteor_core.tokenize import tokenize  # noqa: E402

DEMO = ROOT / "demo" / "ted-slk-eng"
OLD_CHART_COMMIT = "41e3a74"  # components/alignment_chart.py before issue 16


def ted(name: str) -> list[str]:
    return (DEMO / f"ted.{name}.detok.eng").read_text(encoding="utf-8").splitlines()


def pair_of_length(n: int, config: MeteorConfig) -> tuple[str, str]:
    """A real pair with an n-token reference if there is one; else consecutive segments joined
    and cut at n tokens a side."""
    refs, hyps = ted("ref"), ted("sys1")
    for h, r in zip(hyps, refs):
        if len(tokenize(r, config.tokenizer)) == n:
            return h, r
    out = []
    for side in (hyps, refs):
        tokens: list[str] = []
        for line in side:
            tokens += tokenize(line, config.tokenizer)
            if len(tokens) >= n:
                break
        out.append(" ".join(tokens[:n]))
    return out[0], out[1]


def median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times)


def old_figure_builder():
    """The drawing code before issue 16, from git (None when the history is not there)."""
    try:
        source = subprocess.run(["git", "show", f"{OLD_CHART_COMMIT}:components/alignment_chart.py"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    module = types.ModuleType("old_alignment_chart")
    exec(compile(source, "old_alignment_chart.py", "exec"), module.__dict__)
    return module.alignment_figure


def bench_figures(repeats: int) -> None:
    from components.alignment_chart import alignment_figure
    from components.alignment_export import alignment_svg

    config = MeteorConfig.meteor2005()
    old = old_figure_builder()
    print("figure builds (median of %d), TED pairs, meteor2005" % repeats)
    print(f"{'tokens (hyp/ref)':>17} {'figure ms':>10} {'score ms':>9} {'figure/score':>13} {'SVG ms':>8}  target")
    for n, target in ((40, 100), (130, 300), (400, 1000)):
        hyp, ref = pair_of_length(n, config)
        result = score(hyp, [ref], config)
        fig_ms = median_ms(lambda: alignment_figure(result).to_dict(), repeats)
        score_ms = median_ms(lambda: score(hyp, [ref], config), repeats)
        svg_ms = median_ms(lambda: alignment_svg(result), repeats)
        print(f"{len(result.hyp_tokens):>8}/{len(result.ref_tokens):<8} {fig_ms:>10.1f} {score_ms:>9.1f} "
              f"{fig_ms / score_ms:>13.2f} {svg_ms:>8.1f}  < {target} ms {'ok' if fig_ms < target else 'MISSED'}")
        if n == 40 and old is not None:
            old_ms = median_ms(lambda: old(result).to_dict(), max(3, repeats // 2))
            print(f"{'':>17} the replaced drawing code: {old_ms:.0f} ms ({old_ms / fig_ms:.0f}x slower)")


def bench_explorer(repeats: int) -> None:
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    config = MeteorConfig.meteor2005()
    hyp, ref = pair_of_length(40, config)
    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.text_area(key="ref_0").input(ref)
    at.text_area(key="hyp").input(hyp).run()
    words = hyp.split()
    times = []
    for k in range(repeats * 2):  # each edit a new text: nothing cached for it
        edited = " ".join(words[:-1] + [f"word{k}"])
        at.text_area(key="hyp").input(edited)
        t = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - t)
        assert not at.exception, at.exception
    ms = 1000 * statistics.median(times)
    print(f"explorer rerun after an edit of a 40-token pair (AppTest, median of {len(times)}): {ms:.0f} ms "
          f"(target < 300 ms: {'ok' if ms < 300 else 'MISSED'})")


def bench_compare(repeats: int) -> None:
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600).run()
    t = time.perf_counter()
    at.switch_page("app_pages/compare.py").run()
    print(f"compare page, first run with scoring (1,200 segments x 2 systems): {time.perf_counter() - t:.1f} s")
    filters, segments = [], []
    for k in range(repeats):
        at.slider(key="cmp_diff_range").set_value((-1.0 + 0.05 * (k + 1), 1.0))
        t = time.perf_counter()
        at.run()
        filters.append(time.perf_counter() - t)
        at.number_input(key="cmp_segment").set_value(10 + 37 * k)
        t = time.perf_counter()
        at.run()
        segments.append(time.perf_counter() - t)
        assert not at.exception, at.exception
    f_ms, s_ms = (1000 * statistics.median(x) for x in (filters, segments))
    print(f"compare page (AppTest, median of {repeats}): filter change {f_ms:.0f} ms, opening a segment "
          f"{s_ms:.0f} ms (target < 1000 ms: {'ok' if max(f_ms, s_ms) < 1000 else 'MISSED'})")


# --- in Chromium (issue 31) ---------------------------------------------------------------------

PAGES = {"/": "Chunks / matches", "/compare": "sys2 − sys1", "/difference": "Going from",
         "/agreement": "Score the bundled set"}
READING_MS = 5_000  # how long the first visitor stays on the explorer before opening compare
BUSY = "() => !!document.querySelector('[data-testid=\"stStatusWidget\"]')"


def _load() -> str:
    import os

    return f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


def _until_idle(page, start: float, timeout_s: float = 600) -> float:
    """Seconds from ``start`` until the page has finished its run (Streamlit's status widget gone)."""
    page.wait_for_timeout(200)
    while page.evaluate(BUSY):
        if time.monotonic() - start > timeout_s:
            break
        page.wait_for_timeout(100)
    return time.monotonic() - start


def _write_lines(path: Path, lines: list[str], n: int) -> Path:
    path.write_text("\n".join(lines[k % len(lines)] for k in range(n)) + "\n", encoding="utf-8")
    return path


def _upload_files(page, url: str, files: dict[str, Path], segments: int) -> float:
    """Upload ref and the systems on the compare page; seconds from the systems' upload until the
    page has finished (its corpus table shown, or a message, and the run over)."""
    from browser import wait_for_run

    page.goto(url + "/compare")
    page.get_by_text("sys2 − sys1").first.wait_for(timeout=180_000)
    wait_for_run(page, timeout=180_000)
    page.get_by_text("Upload files (one segment a line)").click()
    wait_for_run(page)
    uploaders = page.locator('[data-testid="stFileUploader"]')
    uploaders.nth(0).locator("input[type=file]").set_input_files(str(files["ref"]))
    wait_for_run(page, timeout=180_000)
    start = time.monotonic()
    uploaders.nth(1).locator("input[type=file]").set_input_files([str(files["sys1"]), str(files["sys2"])])
    # done: the corpus table, or a message other than the one asking for the systems' files
    page.wait_for_function("n => document.body.innerText.includes(`Corpus (${n} segments)`) || "
                           "[...document.querySelectorAll('[data-testid=stAlert]')]"
                           ".some(a => !a.innerText.includes('Upload two or more'))", arg=f"{segments:,}",
                           timeout=600_000)
    return _until_idle(page, start)


def bench_browser(repeats: int, budget: bool) -> None:
    import tempfile

    sys.path.insert(0, str(ROOT / "tests"))
    from browser import browser_page, streamlit_server, wait_for_run

    print(f"\nin Chromium, 1280 x 1200 ({_load()}); seconds from the action to the page being idle")
    # 1. opening each page: the first visit to a fresh server, then new sessions (median)
    for path, ready in PAGES.items():
        with streamlit_server() as (url, _), browser_page(width=1280, height=1200) as (page, _errors):
            times = []
            for _ in range(1 + repeats):
                start = time.monotonic()
                page.goto(url + path)
                page.get_by_text(ready).first.wait_for(timeout=180_000)
                times.append(_until_idle(page, start))
            warm = statistics.median(times[1:])
            print(f"open {path:<12} first visit {times[0]:5.2f}  later visits {warm:5.2f}  (target < 3: "
                  f"{'ok' if warm < 3 else 'MISSED'})  [{_load()}]")
    # the usual way in: a fresh server's first visitor opens the explorer (which starts scoring the
    # compare page's bundled set in the background), reads it for a few seconds, then opens compare
    with streamlit_server() as (url, _), browser_page(width=1280, height=1200) as (page, _errors):
        page.goto(url + "/")
        page.get_by_text(PAGES["/"]).first.wait_for(timeout=180_000)
        _until_idle(page, time.monotonic())
        page.wait_for_timeout(READING_MS)
        start = time.monotonic()
        page.goto(url + "/compare")
        page.get_by_text(PAGES["/compare"]).first.wait_for(timeout=180_000)
        seconds = _until_idle(page, start)
        print(f"open /compare after the explorer, first visitor: {seconds:5.2f} (target < 3: "
              f"{'ok' if seconds < 3 else 'MISSED'})  [{_load()}]")
    with streamlit_server() as (url, _), tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        # 2. the MQM table uploaded to the agreement page: scored with the six metrics, bootstrapped
        import gzip

        mqm = tmp / "segments.jsonl"
        mqm.write_bytes(gzip.decompress((ROOT / "demo" / "mqm-ted-zhen-part" / "segments.jsonl.gz").read_bytes()))
        with browser_page(width=1280, height=1200) as (page, _errors):
            page.goto(url + "/agreement")
            page.get_by_text("Score the bundled set").first.wait_for(timeout=180_000)
            page.get_by_text("Upload a table (JSONL, TSV or CSV; .gz allowed)").click()
            wait_for_run(page)
            start = time.monotonic()
            page.locator('[data-testid="stFileUploader"] input[type=file]').set_input_files(str(mqm))
            page.get_by_text("14 systems, 264 segments, 3,696 rows").wait_for(timeout=600_000)
            seconds = _until_idle(page, start)
        from meteor_core.analysis import agreement as agree
        from meteor_core.analysis.judgments import read_judgments

        table = read_judgments(mqm, human="mqm")
        scored, each = [], []
        for name in agree.METRIC_NAMES:  # one by one: which metric takes the time
            start = time.perf_counter()
            scored.append(agree.score_metric(table, name))
            each.append(f"{name} {time.perf_counter() - start:.2f}")
        scoring = sum(float(e.split()[1]) for e in each)
        start = time.perf_counter()
        agree.agreement(table, scored, agree.DEFAULT_SAMPLES, agree.DEFAULT_SEED)
        bootstrap = time.perf_counter() - start
        print(f"agreement: the MQM table (3,696 rows, 6 metrics) uploaded, figures shown {seconds:5.2f}; in one "
              f"process, scoring {scoring:.2f} (target < 5: {'ok' if scoring < 5 else 'MISSED'}), bootstrap "
              f"({agree.DEFAULT_SAMPLES:,} samples) {bootstrap:.2f}; scoring by metric: {', '.join(each)}  [{_load()}]")
        # 3. BLEU, chrF and TER added to 2 x 2,445 segments
        ted_files = {name: _write_lines(tmp / f"{name}.txt", ted(name), 2445) for name in ("ref", "sys1", "sys2")}
        at_once = _tick_after_upload(url, ted_files, 0, 1)[0]
        times = _tick_after_upload(url, ted_files, TICK_AFTER_MS, repeats if repeats > 1 else 1)
        from meteor_core.analysis import sacrebleu_metrics

        refs = [[r] for r in _read(ted_files["ref"])]
        systems = {name: _read(ted_files[name]) for name in ("sys1", "sys2")}
        start = time.perf_counter()
        sacrebleu_metrics.score_systems(systems, refs, sacrebleu_metrics.METRICS)
        ours = time.perf_counter() - start
        distinct = {name: lines[:1200] for name, lines in systems.items()}  # the set repeats its 1,200 lines
        start = time.perf_counter()
        sacrebleu_metrics.score_systems(distinct, refs[:1200], sacrebleu_metrics.METRICS)
        ours_distinct = time.perf_counter() - start
        start = time.perf_counter()
        for hyps in systems.values():  # every segment of every system counted, none shared
            for name in sacrebleu_metrics.METRICS:
                rows = sacrebleu_metrics.segment_statistics(name, hyps, refs)
                sacrebleu_metrics.scores_from_statistics(name, rows, sentence=True)
                sacrebleu_metrics.scores_from_statistics(name, rows.sum(axis=0))
        every_segment = time.perf_counter() - start
        start = time.perf_counter()
        for hyps in systems.values():  # the peer: sacrebleu's own sentence and corpus scores
            for name in sacrebleu_metrics.METRICS:
                sacrebleu_metrics.corpus_score(name, hyps, refs)
                sacrebleu_metrics.sentence_scores(name, hyps, refs)
        peer = time.perf_counter() - start
        again = f", again (scores cached) {statistics.median(times[1:]):.2f}" if len(times) > 1 else ""
        print(f"compare: BLEU/chrF/TER added to 2 x 2,445 segments, first time {TICK_AFTER_MS / 1000:.0f} s after "
              f"the upload's page {times[0]:5.2f} (target < 3: {'ok' if times[0] < 3 else 'MISSED'}), as soon as "
              f"it is drawn {at_once:5.2f}{again}; in one process {ours:.2f} (each distinct pair "
              f"counted once; every segment of every system counted: {every_segment:.2f}, "
              f"{every_segment / ours:.1f}x; 2 x 1,200 distinct segments: {ours_distinct:.2f}), sacrebleu's own "
              f"sentence and corpus calls {peer:.2f} ({peer / ours:.1f}x)  [{_load()}]")
        # 4. opening a segment from the table (the demo set)
        with browser_page(width=1280, height=2400) as (page, _errors):
            page.goto(url + "/compare")
            page.get_by_text("sys2 − sys1").first.wait_for(timeout=180_000)
            wait_for_run(page, timeout=180_000)
            grid = page.locator('.st-key-segments_table [data-testid="stDataFrame"]')
            grid.scroll_into_view_if_needed()
            page.wait_for_timeout(1000)
            box = grid.bounding_box()
            refs = ted("ref")
            times = []
            for row in range(1, 2 + repeats):  # header, then rows 1, 2, ...
                start = time.monotonic()
                page.mouse.click(box["x"] + 15, box["y"] + 35 * row + 17)
                page.get_by_text("Reference: " + refs[row - 1][:50]).first.wait_for(timeout=60_000)
                times.append(time.monotonic() - start)
                _until_idle(page, time.monotonic())
            median = statistics.median(times)
            print(f"compare: a segment opened from the table {median:5.2f} (median of {len(times)}; target < 0.5: "
                  f"{'ok' if median < 0.5 else 'MISSED'})  [{_load()}]")
        if budget:
            bench_budget(url, tmp)


TICK_AFTER_MS = 3_000  # how long a visitor looks at the uploaded set's tables before ticking BLEU, chrF and TER


def _tick_after_upload(url: str, files: dict[str, Path], wait_ms: int, rounds: int) -> list[float]:
    """A new session uploads ``files``, waits ``wait_ms`` once the page is drawn, then ticks BLEU,
    chrF and TER: the seconds until the page is idle, the first time (their count, started in the
    background at the end of the upload's run, may still be running) and, in later rounds,
    unticked and ticked again (the page's own part, the scores kept)."""
    from browser import browser_page

    with browser_page(width=1280, height=1200) as (page, _errors):
        _upload_files(page, url, files, 2445)
        page.wait_for_timeout(wait_ms)
        times = []
        for k in range(rounds):
            box = page.get_by_role("checkbox", name="BLEU, chrF and TER", exact=False)
            if k:
                box.uncheck(force=True)
                _until_idle(page, time.monotonic())
            start = time.monotonic()
            box.check(force=True)
            page.get_by_text("chrF:").first.wait_for(timeout=600_000)
            times.append(_until_idle(page, start))
    return times


def bench_budget(url: str, tmp: Path) -> None:
    """The request budget at the limits the README names: 99,999 segments x 2 systems uploaded."""
    from browser import browser_page

    big = {name: _write_lines(tmp / f"big-{name}.txt", ted(name), 99_999) for name in ("ref", "sys1", "sys2")}
    with browser_page(width=1280, height=1200) as (page, _errors):
        seconds = _upload_files(page, url, big, 99_999)
        said = " | ".join(page.locator('[data-testid="stAlert"]').all_inner_texts())[:300]
    print(f"compare: 99,999 segments x 2 systems uploaded, busy for {seconds:5.1f} (budget 60 s: "
          f"{'ok' if seconds < 70 else 'MISSED'}; the page said: {said})  [{_load()}]")


def _read(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def bench_first_visit(repeats: int) -> None:
    """A fresh server's first visitor opening /compare directly, with the bundled set's scores not
    yet kept on disk (the first server ever: it scores them and keeps them) and then kept (every
    later fresh server); and, on the latter, the first tick of BLEU, chrF and TER; then a fresh
    server's first visitor opening the explorer instead."""
    import os
    import tempfile

    sys.path.insert(0, str(ROOT / "tests"))
    from browser import browser_page, streamlit_server

    print(f"\nin Chromium, 1280 x 1200 ({_load()}); a fresh server's first visitor opens /compare directly")
    rows = {"scores not on disk": [], "scores on disk": [], "BLEU/chrF/TER ticked (2 x 1,200)": [],
            "the explorer (/) instead": []}
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, METEOR_EXPLORER_CACHE=cache)  # an empty cache folder: nothing kept yet
            for label in ("scores not on disk", "scores on disk"):
                with streamlit_server(env=env) as (url, _), browser_page(width=1280, height=1200) as (page, _e):
                    start = time.monotonic()
                    page.goto(url + "/compare")
                    page.get_by_text(PAGES["/compare"]).first.wait_for(timeout=180_000)
                    rows[label].append(_until_idle(page, start))
                    if label == "scores on disk":
                        box = page.get_by_role("checkbox", name="BLEU, chrF and TER", exact=False)
                        start = time.monotonic()
                        box.check(force=True)
                        page.get_by_text("chrF:").first.wait_for(timeout=600_000)
                        rows["BLEU/chrF/TER ticked (2 x 1,200)"].append(_until_idle(page, start))
            with streamlit_server(env=env) as (url, _), browser_page(width=1280, height=1200) as (page, _e):
                start = time.monotonic()  # a fresh server's first visitor opening the explorer
                page.goto(url + "/")
                page.get_by_text(PAGES["/"]).first.wait_for(timeout=180_000)
                rows["the explorer (/) instead"].append(_until_idle(page, start))
    for label, times in rows.items():
        print(f"{label:<32} median {statistics.median(times):5.2f}  ({', '.join(f'{t:.2f}' for t in times)})")
    print(f"[{_load()}]")


def bench_tick(repeats: int) -> None:
    """BLEU, chrF and TER ticked on 2 x 2,445 uploaded segments, each time in a new session: as
    soon as the upload's page is drawn, and TICK_AFTER_MS later."""
    import tempfile

    sys.path.insert(0, str(ROOT / "tests"))
    from browser import streamlit_server

    rows: dict[str, list[float]] = {"as soon as drawn": [], f"{TICK_AFTER_MS / 1000:.0f} s later": []}
    with streamlit_server() as (url, _), tempfile.TemporaryDirectory() as tmp:
        files = {name: _write_lines(Path(tmp) / f"{name}.txt", ted(name), 2445) for name in ("ref", "sys1", "sys2")}
        for _ in range(repeats):
            for (label, times), wait_ms in zip(rows.items(), (0, TICK_AFTER_MS)):
                times.append(_tick_after_upload(url, files, wait_ms, 1)[0])
    print(f"\nin Chromium: BLEU/chrF/TER ticked on 2 x 2,445 uploaded segments, the first time (target < 3)")
    for label, times in rows.items():
        print(f"{label:<18} median {statistics.median(times):5.2f}  ({', '.join(f'{t:.2f}' for t in times)})")
    print(f"[{_load()}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--no-pages", action="store_true", help="only the figure builds")
    parser.add_argument("--browser", action="store_true", help="only the measurements in Chromium")
    parser.add_argument("--skip-budget", action="store_true", help="in Chromium, not the 99,999-segment upload")
    parser.add_argument("--budget-only", action="store_true", help="in Chromium, only the 99,999-segment upload")
    parser.add_argument("--first-visit", action="store_true",
                        help="in Chromium, only a fresh server's first visit to /compare and the BLEU/chrF/TER tick")
    parser.add_argument("--tick-only", action="store_true",
                        help="in Chromium, only BLEU/chrF/TER ticked on 2 x 2,445 uploaded segments")
    args = parser.parse_args()
    if args.first_visit:
        bench_first_visit(args.repeats)
        return
    if args.tick_only:
        bench_tick(args.repeats)
        return
    if args.budget_only:
        import tempfile

        sys.path.insert(0, str(ROOT / "tests"))
        from browser import streamlit_server

        with streamlit_server() as (url, _), tempfile.TemporaryDirectory() as tmp:
            bench_budget(url, Path(tmp))
        return
    if args.browser:
        bench_browser(args.repeats, budget=not args.skip_budget)
        return
    bench_figures(args.repeats)
    if not args.no_pages:
        bench_explorer(args.repeats)
        bench_compare(args.repeats)


if __name__ == "__main__":
    main()
