"""The README's pictures of the four pages, taken in Chromium at 1280 px wide (docs/images/*.png).

    .venv/bin/python bench/screenshots.py [--out docs/images] [--only explore,compare]

Each page as a visitor first sees it after one action: the explorer with its first built-in
example; the compare page on the bundled TED set with a segment opened from the table; the
difference page as the explorer's link opens it; the agreement page after "Score the bundled
set". The page is laid out in a tall window and cut to
what the picture is about (the compare page: its corpus table and significance, then the segment
opened). The PNGs are reduced to a 256-colour palette (Pillow) so each stays under 300 KB; the
script says the size of each and fails when one is over.
"""
from __future__ import annotations

import argparse
import io
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

WIDTH, HEIGHT = 1280, 3200  # tall: the whole of each page's first screens is laid out, then cut
MAX_BYTES = 300 * 1024
GAP = 12  # grey band between two cut-out parts of one page


def _idle(page, timeout_ms: float = 180_000) -> None:
    from browser import wait_for_run

    wait_for_run(page, timeout=timeout_ms)
    page.wait_for_timeout(1000)  # Plotly's last redraw after the run


def _y(page, heading: str, edge: str = "top") -> int:
    """Where the heading ``heading`` starts (or ends) on the page, in pixels."""
    found = page.get_by_role("heading", name=heading, exact=True).first
    return round(found.evaluate(f"e => e.getBoundingClientRect().{edge}"))


def _key_y(page, key: str, edge: str = "bottom") -> int:
    return round(page.locator(f".st-key-{key}").first.evaluate(f"e => e.getBoundingClientRect().{edge}"))


def _save(png: bytes, parts: list[tuple[int, int]], path: Path) -> int:
    """The parts (top, bottom) of the screenshot one below the other, as a palette PNG (Pillow:
    256 colours, which these flat pages barely need)."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    height = sum(b - t for t, b in parts) + GAP * (len(parts) - 1)
    out = Image.new("RGB", (image.width, height), (220, 220, 224))
    y = 0
    for top, bottom in parts:
        out.paste(image.crop((0, top, image.width, bottom)), (0, y))
        y += bottom - top + GAP
    small = out.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(path, optimize=True)
    return path.stat().st_size


def explore(page, url: str) -> list[tuple[int, int]]:
    page.goto(url + "/")
    page.get_by_text("Chunks / matches").first.wait_for(timeout=180_000)
    _idle(page)
    return [(0, _key_y(page, "alignment_chart") + 16)]


def compare(page, url: str) -> list[tuple[int, int]]:
    page.goto(url + "/compare")
    page.get_by_text("sys2 − sys1").first.wait_for(timeout=180_000)
    _idle(page)
    grid = page.locator('.st-key-segments_table [data-testid="stDataFrame"]')
    box = grid.bounding_box()
    page.mouse.click(box["x"] + 15, box["y"] + 35 * 3 + 17)  # the third row (the header is row 0)
    page.get_by_text("Reference:").first.wait_for(timeout=60_000)
    _idle(page)
    segment = _y(page, "One segment, system by system") - 24
    return [(0, _key_y(page, "dl_corpus_json") + 16), (segment, segment + 760)]


def difference(page, url: str) -> list[tuple[int, int]]:
    page.goto(url + "/")  # as a visitor gets there: the explorer's own link
    page.get_by_text("Chunks / matches").first.wait_for(timeout=180_000)
    _idle(page)
    page.get_by_text("Open it in the difference page").first.click()
    page.get_by_text("Both alignments").first.wait_for(timeout=180_000)
    _idle(page)
    return [(0, _y(page, "Both alignments") - 24)]


def agreement(page, url: str) -> list[tuple[int, int]]:
    page.goto(url + "/agreement")
    page.get_by_text("Score the bundled set").first.wait_for(timeout=180_000)
    _idle(page)
    page.get_by_text("Score the bundled set").first.click()
    page.get_by_text(re.compile(r"\d+ systems, [\d,]+ segments")).first.wait_for(timeout=600_000)
    _idle(page, 600_000)
    highest = round(page.get_by_text("Highest on each figure", exact=True).first.evaluate(
        "e => e.closest('[data-testid=stExpander]').getBoundingClientRect().top"))
    return [(0, highest - 12), (_y(page, "Plots") - 4, _key_y(page, "agr_scatter") + 16)]


PAGES = {"explore": explore, "compare": compare, "difference": difference, "agreement": agreement}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--only", default=",".join(PAGES), help="comma-separated: " + ", ".join(PAGES))
    args = parser.parse_args()
    from browser import browser_page, streamlit_server

    args.out.mkdir(parents=True, exist_ok=True)
    over = []
    launch = [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--browser.gatherUsageStats", "false",
              "--client.toolbarMode", "viewer"]  # no "Deploy" button in the pictures
    with streamlit_server(launch=launch) as (url, _):
        for name in args.only.split(","):
            with browser_page(width=WIDTH, height=HEIGHT) as (page, errors):
                start = time.monotonic()
                parts = PAGES[name](page, url)
                size = _save(page.screenshot(), parts, args.out / f"{name}.png")
                print(f"{name}.png: {size / 1024:.0f} KB ({time.monotonic() - start:.0f} s)"
                      + (f"; page errors: {errors}" if errors else ""))
                if size > MAX_BYTES:
                    over.append(name)
    if over:
        sys.exit(f"over {MAX_BYTES // 1024} KB: {', '.join(over)}")


if __name__ == "__main__":
    main()
