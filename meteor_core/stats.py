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

Meteor 1.x corpus statistics follow MeteorStats.addStats of the jar: a segment that matches
perfectly (every word of both sentences, one chunk) adds no chunk to the total, so a corpus of
perfect segments scores 1. The formula is computed with the jar's operations in the jar's order
(MeteorScorer.computeMetrics), so scores agree with it to the last bit.
"""
from __future__ import annotations

from operator import add
from typing import NamedTuple

from . import _accel
from .config import STAGES, MeteorConfig

_ZERO = (0,) * len(STAGES)


def _add(a: tuple, b: tuple) -> tuple:
    if b == _ZERO:  # 2005 statistics keep no per-stage counts: nothing to add
        return a
    return tuple(map(add, a, b))


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
    # Character-based statistics (Meteor 1.5's util task): the matched words of each side, which
    # its fragmentation counts while everything else counts characters; 0 (unused) otherwise.
    hyp_words_matched: int = 0
    ref_words_matched: int = 0

    def __add__(self, other: "MeteorStats") -> "MeteorStats":  # sums the statistics (not tuple +)
        # Field by field, spelled out: the CLI adds every segment to its running total.
        a, b = self.corpus_part(), other.corpus_part()
        return MeteorStats(a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5],
                           _add(a[6], b[6]), _add(a[7], b[7]), _add(a[8], b[8]), _add(a[9], b[9]),
                           a[10] + b[10], a[11] + b[11])

    def corpus_part(self) -> "MeteorStats":
        """What these statistics add to a corpus total: themselves, except that a perfectly
        matching Meteor 1.x segment (every word of both sentences, one chunk) adds no chunk, as
        in the jar's MeteorStats.addStats. A sum of segments never looks like that, so sums of
        sums add up the same; 2005 statistics have no per-stage counts and are never touched."""
        if self.chunks == 1 and (sum(self.hyp_content_matches) + sum(self.hyp_function_matches) == self.hyp_len > 0
                                 and sum(self.ref_content_matches) + sum(self.ref_function_matches) == self.ref_len):
            return self._replace(chunks=0)
        return self

    def to_dict(self) -> dict:
        return {name: (list(v) if isinstance(v, tuple) else v) for name, v in zip(self._fields, self)}


class Scores(NamedTuple):
    precision: float
    recall: float
    fmean: float
    fragmentation: float  # chunks / matches
    penalty: float
    score: float


# A NamedTuple's own __new__ is Python code; tuple.__new__ makes the same object at C speed,
# about half the cost (the scorer makes a MeteorStats and a Scores per segment).
_new = tuple.__new__
_STATS_2005_TAIL = tuple(MeteorStats())[4:]  # the fields the 2005 statistics leave at their defaults
_NO_SCORES = Scores(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
_C_STATS = _accel.twin("meteor_core._pair_stats")  # _compute_1x on C doubles (the same bits)


def stats_2005(matches: int, hyp_len: int, ref_len: int, chunks: int) -> MeteorStats:
    """MeteorStats(matches, hyp_len, ref_len, chunks), made the faster way."""
    return _new(MeteorStats, (matches, hyp_len, ref_len, chunks) + _STATS_2005_TAIL)


def weighted_matches(stats: MeteorStats, config: MeteorConfig) -> tuple[float, float, float, float]:
    """Meteor 1.x: (weighted hyp matches, weighted hyp length, weighted ref matches, weighted ref
    length), summed in MeteorScorer.computeMetrics's order (content words, then function words)."""
    d, w = config.delta, config.module_weights
    hyp_l = d * (stats.hyp_len - stats.hyp_function) + (1.0 - d) * stats.hyp_function
    ref_l = d * (stats.ref_len - stats.ref_function) + (1.0 - d) * stats.ref_function
    hyp_m = ref_m = 0.0
    for s, weight in enumerate(w):
        hyp_m += stats.hyp_content_matches[s] * weight * d
    for s, weight in enumerate(w):
        ref_m += stats.ref_content_matches[s] * weight * d
    for s, weight in enumerate(w):
        hyp_m += stats.hyp_function_matches[s] * weight * (1.0 - d)
    for s, weight in enumerate(w):
        ref_m += stats.ref_function_matches[s] * weight * (1.0 - d)
    return hyp_m, hyp_l, ref_m, ref_l


def compute(stats: MeteorStats, config: MeteorConfig) -> Scores:
    """The score of ``stats`` under ``config``'s formula (see the module docstring).

    With α = 0.9 the 2005 Fmean is the paper's 10PR/(R+9P); the operations are ordered as NLTK
    orders them so that the NLTK preset agrees with it to the last bit.
    """
    m = stats.matches
    if m == 0:
        return _NO_SCORES
    if config.scoring == "meteor1x":
        return _compute_1x(stats, config)
    precision = float(m) / stats.hyp_len
    recall = float(m) / stats.ref_len
    denominator = config.alpha * precision + (1 - config.alpha) * recall
    fmean = (precision * recall) / denominator if denominator else 0.0
    fragmentation = float(stats.chunks) / m
    penalty = config.gamma * fragmentation**config.beta
    return _new(Scores, (precision, recall, fmean, fragmentation, penalty, (1 - penalty) * fmean))


def _compute_1x(stats: MeteorStats, config: MeteorConfig) -> Scores:
    """MeteorScorer.computeMetrics, operation for operation."""
    if _C_STATS is not None:
        found = _C_STATS.scores_1x(stats, config.delta, config.module_weights, config.alpha, config.beta,
                                   config.gamma, config.char_based)
        if found is not None:
            return _new(Scores, found)
    hyp_m, hyp_l, ref_m, ref_l = weighted_matches(stats, config)
    precision = hyp_m / hyp_l if hyp_l else 0.0
    recall = ref_m / ref_l if ref_l else 0.0
    # the jar: 1 / infinity (or NaN) when nothing weighs anything, a score of 0
    fmean = 1.0 / ((1.0 - config.alpha) / precision + config.alpha / recall) if precision and recall else 0.0
    hyp_total = sum(stats.hyp_content_matches) + sum(stats.hyp_function_matches)
    ref_total = sum(stats.ref_content_matches) + sum(stats.ref_function_matches)
    # matched words averaged over both sides (a paraphrase counts every word); character-based
    # statistics count characters in the totals and keep the words apart
    hyp_words, ref_words = ((stats.hyp_words_matched, stats.ref_words_matched) if config.char_based
                            else (hyp_total, ref_total))
    fragmentation = stats.chunks / ((hyp_words + ref_words) / 2) if hyp_words + ref_words else 0.0
    perfect = hyp_total == stats.hyp_len and ref_total == stats.ref_len and stats.chunks == 1
    penalty = config.gamma * (0.0 if perfect else fragmentation) ** config.beta  # Meteor 1.5: identical -> 0
    return _new(Scores, (precision, recall, fmean, fragmentation, penalty, max(fmean * (1.0 - penalty), 0.0)))
