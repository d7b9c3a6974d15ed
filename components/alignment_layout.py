"""Where everything of an alignment drawing goes, in pixels: one pass over the tokens, shared by
the on-screen Plotly figure and the SVG and TikZ exports, so the three show the same picture.

Candidate tokens sit on the top row, reference tokens on the bottom row. Labels lie flat. When
flat labels side by side would make a row wider than MAX_FLAT_PX, every other label moves one
line further out (staggered), so neighbours may share horizontal room and a token needs only
about half its label's width; that keeps 40-token TED sentences within a screen.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass

CHAR_PX = 7.5  # average width of a character at the 13 px label font
WIDE_CHAR_PX = 13.0  # CJK and other wide characters
GAP_PX = 10.0  # free space between two labels on the same line
MIN_STEP_PX = 16.0  # tokens never closer than this (the dots stay apart)
MAX_FLAT_PX = 1100.0  # wider than this side by side, and the labels are staggered
LINE_PX = 17.0  # one line of labels
ROW_GAP_PX = 150.0  # from the reference row up to the candidate row
LABEL_OFFSET_PX = 9.0  # from a token's dot to its near label
BAND_HALF_PX = 7.0  # half the height of a chunk band
BADGE_OFFSET_PX = 22.0  # chunk numbers sit this far inside the rows (between them)


def label_width(token: str) -> float:
    """Pixels a token's label takes at the label font (wide characters count for more)."""
    width = 0.0
    for ch in token:
        width += WIDE_CHAR_PX if unicodedata.east_asian_width(ch) in "WF" else CHAR_PX
    return max(width, 2 * CHAR_PX)


@dataclass(frozen=True)
class RowLayout:
    x: list[float]  # centre of each token
    level: list[int]  # 0: the label next to the row, 1: one line further out
    widths: list[float]  # label widths
    staggered: bool

    def extent(self, k: int) -> tuple[float, float]:
        """Left and right end of token k's slot (a chunk band covers its tokens' slots)."""
        half = (MIN_STEP_PX if self.staggered else max(self.widths[k], MIN_STEP_PX)) / 2 + 2
        return self.x[k] - half, self.x[k] + half


def _flat(widths: list[float]) -> list[float]:
    xs, left = [], 0.0
    for w in widths:
        xs.append(left + w / 2)
        left += w + GAP_PX
    return xs


def _staggered(widths: list[float]) -> list[float]:
    """Greedy, left to right: each token as far left as its neighbours on both lines allow."""
    xs: list[float] = []
    for k, w in enumerate(widths):
        x = w / 2
        if k >= 1:
            x = max(x, xs[k - 1] + MIN_STEP_PX)
        if k >= 2:  # the previous label on the same line
            x = max(x, xs[k - 2] + (widths[k - 2] + w) / 2 + GAP_PX)
        xs.append(x)
    return xs


def _row(tokens, staggered: bool) -> RowLayout:
    widths = [label_width(t) for t in tokens]
    if staggered:
        return RowLayout(_staggered(widths), [k % 2 for k in range(len(tokens))], widths, True)
    return RowLayout(_flat(widths), [0] * len(tokens), widths, False)


@dataclass(frozen=True)
class Layout:
    hyp: RowLayout
    ref: RowLayout
    staggered: bool
    width: float  # the drawing's natural width in pixels (both rows)
    hyp_y: float = ROW_GAP_PX
    ref_y: float = 0.0

    @property
    def lines_out(self) -> int:
        """Label lines beyond each row (1 flat, 2 staggered)."""
        return 2 if self.staggered else 1

    @property
    def top(self) -> float:
        return self.hyp_y + LABEL_OFFSET_PX + LINE_PX * self.lines_out + 4

    @property
    def bottom(self) -> float:
        return self.ref_y - LABEL_OFFSET_PX - LINE_PX * self.lines_out - 4

    def label_y(self, side: str, level: int) -> float:
        """Where a label is anchored: above the candidate row, below the reference row."""
        if side == "hyp":
            return self.hyp_y + LABEL_OFFSET_PX + LINE_PX * level
        return self.ref_y - LABEL_OFFSET_PX - LINE_PX * level


def layout(hyp_tokens, ref_tokens) -> Layout:
    """Positions of both rows, in time linear in the number of tokens."""
    flat_width = max(sum(label_width(t) + GAP_PX for t in tokens) for tokens in (hyp_tokens, ref_tokens))
    staggered = flat_width > MAX_FLAT_PX
    hyp, ref = _row(hyp_tokens, staggered), _row(ref_tokens, staggered)
    ends = [row.x[-1] + row.widths[-1] / 2 for row in (hyp, ref) if row.x]
    return Layout(hyp, ref, staggered, max(ends, default=0.0))
