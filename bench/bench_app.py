"""The app's latency, measured server side (figure builds, and page reruns through AppTest).

    .venv/bin/python bench/bench_app.py [--repeats 7] [--no-pages]

Data: the bundled TED set (demo/ted-slk-eng, detokenised, meteor2005 preset). The 40-token pair
is a real segment whose reference has 40 tokens; 130 tokens: consecutive segments joined and cut
at 130 tokens a side; 400 tokens: the same at 400 (the explorer's limit). Each figure is the
median of --repeats builds; beside it, the time to score the same pair (the peer measured in the
same run: the figure should cost about what scoring costs) and, for 40 tokens, the drawing code
this replaced (one Plotly call per label, line and band) for the ratio.

Targets (issue 16): figure 40 tokens < 100 ms, 130 < 300 ms, 400 < 1 s; an explorer rerun after an
edit of a 40-token pair < 300 ms; on the compare page (1,200 segments x 2 systems) changing a
filter and opening a segment < 1 s.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--no-pages", action="store_true", help="only the figure builds")
    args = parser.parse_args()
    bench_figures(args.repeats)
    if not args.no_pages:
        bench_explorer(args.repeats)
        bench_compare(args.repeats)


if __name__ == "__main__":
    main()
