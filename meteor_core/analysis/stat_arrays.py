"""METEOR's formulas (``stats.compute``) over numpy arrays of sufficient statistics.

A ``MeteorStats`` flattens to one row of numbers (``COLUMNS``); a corpus, a bootstrap sample or
one system's output is the sum of its rows. ``meteor_scores`` applies the 2005 or the Meteor 1.x
formula to many rows at once, and takes α, β, γ and δ as arrays too: a whole parameter grid is
rescored from statistics gathered once, since the alignments do not depend on these four (the
module weights do, through Meteor 1.5's beam, so they are not among them).

The operations follow ``stats.compute`` one for one, in the same order, so a row scores the same
float here as there but for the last bit of numpy's power (a test holds them together).
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

from ..config import STAGES, MeteorConfig
from ..metric import stats_row
from ..stats import MeteorStats

# Parameters that can be rescored from the statistics without aligning again.
RESCORABLE = ("alpha", "beta", "gamma", "delta")

# One column per number of a MeteorStats, per-stage tuples spread out in STAGES order (the
# layout of ``metric.stats_row``).
COLUMNS = tuple(
    f"{name}.{stage}" if isinstance(value, tuple) else name
    for name, value in zip(MeteorStats._fields, MeteorStats())
    for stage in (STAGES if isinstance(value, tuple) else (None,))
)
_AT = {name: k for k, name in enumerate(COLUMNS)}


def resampled_sums(matrix: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """``matrix[ids].sum(axis=1)``: each row of ``ids`` is a resample of ``matrix``'s rows (a
    bootstrap sample of segments), summed. When every statistic is a whole number (every preset's
    but meteor15's, whose weighted matches are fractions) the sum is taken as how often each row
    was drawn times the row: products and sums of whole numbers below 2**53 are exact in any
    order, so the result is the same to the bit, and the matrix is read once per block instead of
    copied once per resample (the bundled TED set's 1,000 samples: 0.01 s against 0.05 s). The
    counts take resamples x rows numbers, so only where a resample draws as many rows as the
    matrix has (the callers bound resamples x draws)."""
    draws, rows = ids.shape[1], matrix.shape[0]
    whole = rows <= draws and matrix.size and float(np.abs(matrix).max()) * draws < 2 ** 53 \
        and not np.any(np.mod(matrix, 1))
    if not whole:
        return matrix[ids].sum(axis=1)
    offsets = (np.arange(len(ids)) * rows)[:, None]  # resample r's counts at r * rows + row
    counts = np.bincount((ids + offsets).ravel(), minlength=len(ids) * rows).reshape(len(ids), rows)
    summed = counts.astype(np.float64) @ matrix.reshape(rows, -1)  # (a row may be a table: flattened)
    return summed.reshape(len(ids), *matrix.shape[1:])


def stat_matrix(stats: Iterable[MeteorStats]) -> np.ndarray:
    """Rows of statistics -> a float matrix, one ``metric.stats_row`` each, ``COLUMNS`` wide."""
    rows = [stats_row(s) for s in stats]
    return np.array(rows, dtype=np.float64).reshape(len(rows), len(COLUMNS))


def _column(sums: np.ndarray, name: str) -> np.ndarray:
    return sums[..., _AT[name]]


def _weighted(sums: np.ndarray, side: str, delta, weights) -> np.ndarray:
    """Σ_stage content·w·δ, then Σ_stage function·w·(1 − δ), in the order and with the
    operations of ``stats.weighted_matches`` (the jar's), so the rounding is the same."""
    total = 0.0
    for kind, share in (("content", delta), ("function", 1.0 - delta)):
        for s, stage in enumerate(STAGES):
            total = total + _column(sums, f"{side}_{kind}_matches.{stage}") * weights[s] * share
    return total


def _matched_words(sums: np.ndarray, side: str) -> np.ndarray:
    return sum(_column(sums, f"{side}_{kind}_matches.{stage}") for kind in ("content", "function") for stage in STAGES)


def meteor_scores(sums: np.ndarray, config: MeteorConfig, **params) -> np.ndarray:
    """``stats.compute(row, config).score`` for every row of ``sums`` (last axis: ``COLUMNS``).

    ``params`` overrides α, β, γ, δ with scalars or arrays that broadcast against
    ``sums[..., 0]``: with ``sums`` of shape (rows, k) and ``alpha`` of shape (G, 1) the result
    is (G, rows).
    """
    unknown = set(params) - set(RESCORABLE)
    if unknown:
        raise ValueError(f"cannot rescore {sorted(unknown)} from statistics; only {', '.join(RESCORABLE)}")
    alpha, beta, gamma, delta = (np.asarray(params.get(p, getattr(config, p)), dtype=np.float64) for p in RESCORABLE)
    m, chunks = _column(sums, "matches"), _column(sums, "chunks")
    hyp_len, ref_len = _column(sums, "hyp_len"), _column(sums, "ref_len")
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if config.scoring == "meteor1x":
            score = _scores_1x(sums, config, alpha, beta, gamma, delta, chunks, hyp_len, ref_len)
        else:
            precision, recall = m / hyp_len, m / ref_len
            denominator = alpha * precision + (1 - alpha) * recall
            fmean = np.where(denominator != 0, (precision * recall) / denominator, 0.0)
            penalty = gamma * (chunks / m) ** beta
            score = (1 - penalty) * fmean
    return np.where(m > 0, score, 0.0)


def _scores_1x(sums, config, alpha, beta, gamma, delta, chunks, hyp_len, ref_len) -> np.ndarray:
    """``stats._compute_1x`` (the jar's MeteorScorer.computeMetrics) over arrays. A row may be a
    perfect segment's corpus part (``metric.stats_row``: chunks 0): scored alone it gives the
    segment's own score, since both make the penalty γ·0^β."""
    w = config.module_weights
    hyp_f, ref_f = _column(sums, "hyp_function"), _column(sums, "ref_function")
    hyp_l = delta * (hyp_len - hyp_f) + (1.0 - delta) * hyp_f
    ref_l = delta * (ref_len - ref_f) + (1.0 - delta) * ref_f
    hyp_m, ref_m = _weighted(sums, "hyp", delta, w), _weighted(sums, "ref", delta, w)
    precision = np.where(hyp_l != 0, hyp_m / hyp_l, 0.0)
    recall = np.where(ref_l != 0, ref_m / ref_l, 0.0)
    both = (precision != 0) & (recall != 0)
    fmean = np.where(both, 1.0 / ((1.0 - alpha) / precision + alpha / recall), 0.0)
    hyp_total, ref_total = _matched_words(sums, "hyp"), _matched_words(sums, "ref")
    words = (_column(sums, "hyp_words_matched") + _column(sums, "ref_words_matched") if config.char_based
             else hyp_total + ref_total)  # (character-based: totals in characters, words kept apart)
    fragmentation = np.where(words != 0, chunks / (words / 2), 0.0)
    perfect = (hyp_total == hyp_len) & (ref_total == ref_len) & (chunks == 1)
    penalty = gamma * np.where(perfect, 0.0, fragmentation) ** beta
    return np.maximum(fmean * (1.0 - penalty), 0.0)
