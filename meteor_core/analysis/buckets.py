"""Where does a system win or lose? METEOR by bucket, compare-mt style, each with a 95% bootstrap
interval:

* by reference length (tokens of the first reference; compare-mt's cut-offs 10, 20, ..., 60):
  corpus METEOR of the segments in each bucket, from their summed statistics;
* by word frequency (how often the word occurs in all the references, compare-mt's cut-offs
  1, 2, 3, 4, 5, 10, 100, 1000; a hypothesis word that no reference has falls in "0"): METEOR's
  word matches per bucket: precision (matched hypothesis words of the bucket / its hypothesis
  words), recall (the same on the reference side) and their Fmean with the configuration's α.
  compare-mt reports a word F-measure per frequency bucket with exact matches; this one counts
  METEOR's matches (stems, synonyms and paraphrases too), on the best reference's alignment.
  A bucket with words on one side only (always "0": no reference has them) has that side's
  ratio and None for the other and for the Fmean and its interval.

The interval: segments are resampled with replacement (within the bucket for length buckets,
over the whole test set for frequency buckets, whose words are spread over all segments), and
the 2.5th and 97.5th percentiles of the resampled scores are reported. Buckets with nothing in
them are left out.
"""
from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from typing import Callable

import numpy as np

from .compare import (DEFAULT_SAMPLES, DEFAULT_SEED, RESAMPLE_BLOCK_FLOATS, SystemComparison, sample_scores,
                      stat_matrix)
from .stat_arrays import resampled_sums

LENGTH_CUTOFFS = (10, 20, 30, 40, 50, 60)
FREQUENCY_CUTOFFS = (1, 2, 3, 4, 5, 10, 100, 1000)


def bucket_labels(cutoffs) -> list[str]:
    """compare-mt's labels: "<10", "[10,20)", ..., ">=60"; a cut-off one above the previous
    one names its single value ("1", "2"), and "<1" reads "0"."""
    labels, low = [], None
    for high in cutoffs:
        if low is None:
            labels.append("0" if high == 1 else f"<{high}")
        elif high == low + 1:
            labels.append(str(low))
        else:
            labels.append(f"[{low},{high})")
        low = high
    labels.append(f">={low}")
    return labels


def bucket_of(value: float, cutoffs) -> int:
    return bisect_right(cutoffs, value)


def _interval(values: np.ndarray) -> tuple[float, float]:
    low, high = np.percentile(values, [2.5, 97.5])
    return float(low), float(high)


def length_buckets(comparison: SystemComparison, cutoffs=LENGTH_CUTOFFS, samples: int = DEFAULT_SAMPLES,
                   seed: int = DEFAULT_SEED, check: Callable[[], None] | None = None) -> list[dict]:
    """One row per system and non-empty bucket: segments, corpus METEOR of the bucket, 95% interval."""
    labels = bucket_labels(cutoffs)
    first = comparison.results[comparison.names[0]].segments
    lengths = [len(s.per_reference[0].ref_tokens) for s in first]
    bucket = np.array([bucket_of(n, cutoffs) for n in lengths])
    rows = []
    for name in comparison.names:
        stats = stat_matrix(comparison.results[name].segments)
        rng = np.random.default_rng(seed)  # the same resamples for every system: intervals compare
        for b, label in enumerate(labels):
            members = np.flatnonzero(bucket == b)
            if not len(members):
                continue
            score = float(sample_scores(stats[members].sum(axis=0, keepdims=True), comparison.config)[0])
            scores = np.empty(samples)
            block = max(1, min(samples, RESAMPLE_BLOCK_FLOATS // (len(members) * stats.shape[1])))
            for start in range(0, samples, block):  # bounded memory; the same draws as all at once
                if check is not None:
                    check()  # a caller's time budget may stop the intervals here
                ids = members[rng.integers(0, len(members), size=(min(block, samples - start), len(members)))]
                scores[start:start + len(ids)] = sample_scores(stats[ids].sum(axis=1), comparison.config)
            low, high = _interval(scores)
            rows.append({"system": name, "bucket": label, "segments": len(members), "METEOR": score,
                         "ci_low": low, "ci_high": high})
    return rows


def _word_counts(segments, frequency: Counter, cutoffs, lowercase: bool) -> np.ndarray:
    """segments x buckets x (matched hyp words, hyp words, matched ref words, ref words)."""
    out = np.zeros((len(segments), len(cutoffs) + 1, 4))
    fold = str.lower if lowercase else str
    for k, s in enumerate(segments):
        hyp_matched, ref_matched = s.token_matches()
        for i, token in enumerate(s.hyp_tokens):
            b = bucket_of(frequency[fold(token)], cutoffs)
            out[k, b, 1] += 1
            out[k, b, 0] += i in hyp_matched
        for j, token in enumerate(s.ref_tokens):
            b = bucket_of(frequency[fold(token)], cutoffs)
            out[k, b, 3] += 1
            out[k, b, 2] += j in ref_matched
    return out


def _fmean(counts: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and Fmean from (..., 4) counts; 0 where a side has no word."""
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(counts[..., 1] > 0, counts[..., 0] / counts[..., 1], 0.0)
        r = np.where(counts[..., 3] > 0, counts[..., 2] / counts[..., 3], 0.0)
        denominator = alpha * p + (1 - alpha) * r
        f = np.where(denominator > 0, p * r / denominator, 0.0)
    return p, r, f


def reference_frequencies(comparison: SystemComparison) -> Counter:
    """How often each word occurs over all the references (case-folded when the metric folds case)."""
    fold = str.lower if comparison.config.lowercase else str
    return Counter(fold(t) for s in comparison.results[comparison.names[0]].segments
                   for ref in s.per_reference for t in ref.ref_tokens)


def frequency_buckets(comparison: SystemComparison, cutoffs=FREQUENCY_CUTOFFS, samples: int = DEFAULT_SAMPLES,
                      seed: int = DEFAULT_SEED, check: Callable[[], None] | None = None) -> list[dict]:
    """One row per system and non-empty bucket: words on each side, precision, recall, Fmean and
    the Fmean's 95% interval."""
    labels = bucket_labels(cutoffs)
    frequency = reference_frequencies(comparison)
    rows = []
    for name in comparison.names:
        segments = comparison.results[name].segments
        counts = _word_counts(segments, frequency, cutoffs, comparison.config.lowercase)
        total = counts.sum(axis=0)
        p, r, f = _fmean(total, comparison.config.alpha)
        rng = np.random.default_rng(seed)
        resampled = np.empty((samples, len(labels)))
        block = max(1, min(100, RESAMPLE_BLOCK_FLOATS // counts[0].size // len(segments)))
        for start in range(0, samples, block):  # bounded memory; the same draws as 100 at a time
            if check is not None:
                check()
            ids = rng.integers(0, len(segments), size=(min(block, samples - start), len(segments)))
            resampled[start:start + len(ids)] = _fmean(resampled_sums(counts, ids), comparison.config.alpha)[2]
        for b, label in enumerate(labels):
            hyp_words, ref_words = int(total[b, 1]), int(total[b, 3])
            if not hyp_words and not ref_words:
                continue
            # a side without words has no precision (recall); without both, no Fmean: None, not 0
            low, high = _interval(resampled[:, b]) if hyp_words and ref_words else (None, None)
            rows.append({"system": name, "bucket": label, "hyp words": hyp_words, "ref words": ref_words,
                         "precision": float(p[b]) if hyp_words else None, "recall": float(r[b]) if ref_words else None,
                         "fmean": float(f[b]) if hyp_words and ref_words else None, "ci_low": low, "ci_high": high})
    return rows
