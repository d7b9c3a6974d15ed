"""Sufficient statistics and the METEOR formulas.

A corpus score is the formula applied to the *sum* of the segments' statistics (as the paper
and Meteor 1.5 do), so statistics add and the formulas live here once for both levels.

Two formulas:
* "2005" (Banerjee & Lavie 2005, NLTK): P = m/|hyp|, R = m/|ref|.
* "meteor1x" (Denkowski & Lavie 2011-2014, Meteor 1.5): matches and lengths are weighted by
  the stage's module weight w and by δ for content words, 1 − δ for function words:
  P = Σ_stage w·(δ·content + (1−δ)·function matches in hyp) / (δ·hyp content + (1−δ)·hyp function).
  Identical sentences (everything matched, one chunk) get no penalty, as in Meteor 1.5.
Both: Fmean = P·R / (α·P + (1−α)·R), penalty = γ·(c/m)^β, score = Fmean·(1 − penalty).
"""
from __future__ import annotations

from typing import NamedTuple

from .config import STAGES, MeteorConfig

_ZERO = (0,) * len(STAGES)


def _add(a: tuple, b: tuple) -> tuple:
    return tuple(x + y for x, y in zip(a, b))


class MeteorStats(NamedTuple):
    """Sufficient statistics of one segment or, summed with +, of a corpus. A NamedTuple: made
    once per segment, and a third the cost of a frozen dataclass."""

    matches: int = 0
    hyp_len: int = 0
    ref_len: int = 0
    chunks: int = 0
    # Meteor 1.x: function words in each sentence, and matched words per stage (STAGES order).
    hyp_function: int = 0
    ref_function: int = 0
    hyp_content_matches: tuple = _ZERO
    hyp_function_matches: tuple = _ZERO
    ref_content_matches: tuple = _ZERO
    ref_function_matches: tuple = _ZERO

    def __add__(self, other: "MeteorStats") -> "MeteorStats":  # sums the statistics (not tuple +)
        return MeteorStats(*[_add(a, b) if isinstance(a, tuple) else a + b for a, b in zip(self, other)])

    def to_dict(self) -> dict:
        return {name: (list(v) if isinstance(v, tuple) else v) for name, v in zip(self._fields, self)}


class Scores(NamedTuple):
    precision: float
    recall: float
    fmean: float
    fragmentation: float  # chunks / matches
    penalty: float
    score: float


def weighted_matches(stats: MeteorStats, config: MeteorConfig) -> tuple[float, float, float, float]:
    """Meteor 1.x: (weighted hyp matches, weighted hyp length, weighted ref matches, weighted ref length)."""
    d, w = config.delta, config.module_weights
    hyp_m = sum(w[s] * (d * c + (1 - d) * f) for s, (c, f) in enumerate(zip(stats.hyp_content_matches, stats.hyp_function_matches)))
    ref_m = sum(w[s] * (d * c + (1 - d) * f) for s, (c, f) in enumerate(zip(stats.ref_content_matches, stats.ref_function_matches)))
    hyp_l = d * (stats.hyp_len - stats.hyp_function) + (1 - d) * stats.hyp_function
    ref_l = d * (stats.ref_len - stats.ref_function) + (1 - d) * stats.ref_function
    return hyp_m, hyp_l, ref_m, ref_l


def compute(stats: MeteorStats, config: MeteorConfig) -> Scores:
    """The score of ``stats`` under ``config``'s formula (see the module docstring).

    With α = 0.9 the 2005 Fmean is the paper's 10PR/(R+9P); the operations are ordered as NLTK
    orders them so that the NLTK preset agrees with it to the last bit.
    """
    m = stats.matches
    if m == 0:
        return Scores(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    if config.scoring == "meteor1x":
        hyp_m, hyp_l, ref_m, ref_l = weighted_matches(stats, config)
        precision = hyp_m / hyp_l if hyp_l else 0.0
        recall = ref_m / ref_l if ref_l else 0.0
    else:
        precision = float(m) / stats.hyp_len
        recall = float(m) / stats.ref_len
    denominator = config.alpha * precision + (1 - config.alpha) * recall
    fmean = (precision * recall) / denominator if denominator else 0.0
    words = m
    if config.scoring == "meteor1x":  # matched words, averaged over both sides (phrases count per word)
        hyp_words = sum(stats.hyp_content_matches) + sum(stats.hyp_function_matches)
        ref_words = sum(stats.ref_content_matches) + sum(stats.ref_function_matches)
        words = (hyp_words + ref_words) / 2
    fragmentation = float(stats.chunks) / words
    penalty = config.gamma * fragmentation**config.beta
    if config.scoring == "meteor1x" and stats.chunks == 1 and hyp_words == stats.hyp_len and ref_words == stats.ref_len:
        penalty = 0.0  # Meteor 1.5: a perfect match is not fragmented
    return Scores(precision, recall, fmean, fragmentation, penalty, (1 - penalty) * fmean)
