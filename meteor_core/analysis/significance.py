"""Is one system really better than another? Paired approximate randomization (sacrebleu's
procedure) beside the paired bootstrap of ``compare``, for a baseline against every system and
for every pair of systems.

Approximate randomization (Riezler & Maxwell 2005; sacrebleu's ``_paired_ar_test``, itself from
multeval): under the null hypothesis the two systems are interchangeable, so each trial swaps
the two systems' outputs of every segment with probability 1/2, sums each pseudo-system's
segment statistics, and scores both. The p-value is the share of trials whose |score difference|
is at least the observed one, +1 smoothed: (c + 1) / (trials + 1). The swap masks are drawn
exactly as sacrebleu draws them (``default_rng(seed).integers(2, size=(trials, n), dtype=bool)``),
so with the same seed and the same statistics the p-value is sacrebleu's to the last digit
(tested on BLEU and on METEOR through sacrebleu's own code). One deliberate difference: a trial
that *ties* the observed difference counts here (the textbook rule); sacrebleu counts only
strictly larger ones, which makes a system "significantly" different from itself (p = 1/(trials+1)
where this gives 1). Ties need swaps that change nothing, so real test sets rarely have any.

Many pairs, many tests: with k systems there are k(k-1)/2 pairs, and at 0.05 each some will come
out "significant" by chance. Every pairwise result therefore also carries Holm-adjusted p-values
(family-wise error over all the pairs of that test).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Callable

import numpy as np

from . import verdict
from .compare import (
    DEFAULT_SAMPLES, DEFAULT_SEED, BootstrapResult, SystemComparison, paired_bootstrap, sample_scores, stat_matrix)

DEFAULT_TRIALS = 10_000
TESTS = ("bootstrap", "ar", "both")
MULTIPLE_COMPARISONS_NOTE = (
    "With k systems there are k(k-1)/2 pairs; tested at 0.05 each, about one pair in twenty of equal "
    "systems comes out 'significant' by chance. p (Holm) controls the family-wise error over all the "
    "pairs: read significance across many pairs from it, not from the raw p-values.")
_P_LABELS = [("p_bootstrap", "p bootstrap"), ("p_bootstrap_holm", "p bootstrap (Holm)"),
             ("p_ar", "p AR"), ("p_ar_holm", "p AR (Holm)")]
_CHUNK_FLOATS = 4_000_000  # float copies of swap masks scored at a time (32 MB), at most 1,000 trials
# The swap masks are drawn at once, as sacrebleu draws them (a byte a segment a trial; drawing them
# in pieces would change them), so trials x segments is bounded, and trials on their own.
MAX_TRIALS = 100_000
MAX_MASK_BYTES = 512 * 2**20


def check_trials(trials, segments: int) -> int:
    """``trials`` as an int if within bounds for a test set of ``segments``; else ValueError
    saying the bounds (before any scoring, so the CLI can refuse at once)."""
    if isinstance(trials, bool) or not isinstance(trials, (int, np.integer)) or not 1 <= trials <= MAX_TRIALS:
        raise ValueError(f"randomization trials must be a whole number from 1 to {MAX_TRIALS:,} "
                         f"({DEFAULT_TRIALS:,} is the usual choice); got {trials!r}"[:160])
    if trials * segments > MAX_MASK_BYTES:
        raise ValueError(f"{trials:,} randomization trials over {segments:,} segments would hold "
                         f"{trials * segments / 2**20:,.0f} MiB of swap masks at once (the limit is "
                         f"{MAX_MASK_BYTES // 2**20} MiB): take at most {MAX_MASK_BYTES // segments:,} trials, "
                         "or the bootstrap")
    return int(trials)


def approximate_randomization_p(stats_a: np.ndarray, stats_b: np.ndarray,
                                score_of_sums: Callable[[np.ndarray], np.ndarray],
                                trials: int = DEFAULT_TRIALS, seed: int | None = DEFAULT_SEED,
                                check: Callable[[], None] | None = None) -> float:
    """p-value of the paired approximate randomization test of two systems.

    ``stats_a``, ``stats_b``: segments x statistics (rows that add up to a corpus);
    ``score_of_sums``: the corpus score of each row of summed statistics (vectorised);
    ``check``, if given, is called between chunks of trials and may raise to stop the test."""
    stats_a, stats_b = np.asarray(stats_a, dtype=np.float64), np.asarray(stats_b, dtype=np.float64)
    trials = check_trials(trials, len(stats_a))
    if stats_a.shape != stats_b.shape:
        raise ValueError("the two systems need statistics for the same segments")
    total_a, total_b = stats_a.sum(axis=0), stats_b.sum(axis=0)
    observed = abs(score_of_sums(total_a[None])[0] - score_of_sums(total_b[None])[0])
    rng = np.random.default_rng(seed)
    keep = rng.integers(2, size=(trials, len(stats_a)), dtype=bool)  # as sacrebleu draws them
    # pseudo-system A takes A's segment where keep is True and B's elsewhere; B the opposite.
    # A's sum = total_b + keep @ (a - b) (integer sums, so exact in float64 like sacrebleu's).
    difference = stats_a - stats_b
    exceed = 0
    chunk = max(1, min(1000, _CHUNK_FLOATS // max(len(stats_a), 1)))
    for start in range(0, trials, chunk):
        if check is not None:
            check()
        moved = keep[start:start + chunk].astype(np.float64) @ difference
        scores_a = score_of_sums(total_b + moved)
        scores_b = score_of_sums(total_a - moved)
        exceed += int(np.count_nonzero(np.abs(scores_a - scores_b) >= observed))
    return (exceed + 1) / (trials + 1)


@dataclass(frozen=True)
class RandomizationResult:
    baseline: str
    system: str
    baseline_score: float
    system_score: float
    delta: float  # system - baseline
    p_value: float
    trials: int
    seed: int | None

    def to_dict(self) -> dict:
        return dict(self.__dict__)

    def summary(self) -> str:
        said = "significant" if verdict.significant(self.p_value) else "not significant"
        return (f"{self.system} - {self.baseline} = {self.delta:+.4f}, p = {self.p_value:.4f}: {said} at 0.05 "
                f"(paired approximate randomization, {self.trials} trials, seed {self.seed})")


def paired_ar(comparison: SystemComparison, baseline: str, system: str,
              trials: int = DEFAULT_TRIALS, seed: int | None = DEFAULT_SEED,
              check: Callable[[], None] | None = None) -> RandomizationResult:
    """Approximate randomization of corpus METEOR, ``system`` against ``baseline``."""
    a = stat_matrix(comparison.results[baseline].segments)
    b = stat_matrix(comparison.results[system].segments)
    p = approximate_randomization_p(a, b, lambda sums: sample_scores(sums, comparison.config), trials, seed, check)
    base, other = comparison.results[baseline].score, comparison.results[system].score
    return RandomizationResult(baseline, system, base, other, other - base, p, trials, seed)


def holm(p_values: list[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (step-down, kept monotone, capped at 1), in the given order."""
    order = sorted(range(len(p_values)), key=lambda k: p_values[k])
    adjusted, running = [0.0] * len(p_values), 0.0
    for rank, k in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[k]))
        adjusted[k] = running
    return adjusted


@dataclass
class SignificanceReport:
    """What ``compare --test`` prints: every system against the baseline, and every pair."""

    baseline: str
    test: str
    against_baseline: list[dict]  # one entry per other system (the pairwise entries with the baseline)
    pairwise: list[dict]  # one entry per pair (a, b): delta = b - a, p-values per test, Holm-adjusted
    bootstrap: list[BootstrapResult]  # the baseline against each system, per test run
    randomization: list[RandomizationResult]
    note: str = MULTIPLE_COMPARISONS_NOTE

    def to_dict(self) -> dict:
        return {"baseline": self.baseline, "test": self.test, "against_baseline": self.against_baseline,
                "pairwise": self.pairwise, "multiple_comparisons": self.note}

    def table_rows(self) -> list[dict]:
        """The pairwise results as a table: A, B, B - A, then the p-values run, raw and Holm-adjusted."""
        return [{"A": e["a"], "B": e["b"], "B - A": e["delta"], **{label: e[key] for key, label in _P_LABELS if key in e}}
                for e in self.pairwise]

    def p_matrix(self, names: list[str], key: str) -> list[list[float | None]]:
        """names x names: ``key`` ("p_bootstrap", "p_ar", "p_ar_holm", "delta", ...) of row vs column,
        None on the diagonal; a delta reads column minus row."""
        index = {n: k for k, n in enumerate(names)}
        out: list[list[float | None]] = [[None] * len(names) for _ in names]
        for e in self.pairwise:
            i, j = index[e["a"]], index[e["b"]]
            value = e.get(key)
            out[i][j] = value
            out[j][i] = -value if key == "delta" and value is not None else value
        return out


def significance_report(comparison: SystemComparison, baseline: str | None = None, test: str = "both",
                        samples: int = DEFAULT_SAMPLES, trials: int = DEFAULT_TRIALS,
                        seed: int | None = DEFAULT_SEED, check: Callable[[], None] | None = None
                        ) -> SignificanceReport:
    """Every pair of systems under the chosen test(s); pairs are ordered baseline first, so the
    baseline's entries read "system - baseline". ``check`` is handed to every test (it may raise
    to stop the report: a caller's time budget)."""
    if test not in TESTS:
        raise ValueError(f"test must be one of {', '.join(TESTS)}")
    names = comparison.names
    baseline = names[0] if baseline is None else baseline
    if baseline not in names:
        raise ValueError(f"baseline {baseline!r} is not one of the systems: {', '.join(names)}")
    if len(names) < 2:
        raise ValueError("significance needs at least two systems")
    ordered = [baseline] + [n for n in names if n != baseline]
    pairwise, bootstraps, randomizations = [], [], []
    for a, b in combinations(ordered, 2):
        entry = {"a": a, "b": b, "score_a": comparison.results[a].score, "score_b": comparison.results[b].score,
                 "delta": comparison.results[b].score - comparison.results[a].score}
        if test in ("bootstrap", "both"):
            bs = paired_bootstrap(comparison, a, b, samples, seed, check)
            entry.update(p_bootstrap=bs.p_value, ci_low=bs.ci_low, ci_high=bs.ci_high, samples=samples)
            if a == baseline:
                bootstraps.append(bs)
        if test in ("ar", "both"):
            ar = paired_ar(comparison, a, b, trials, seed, check)
            entry.update(p_ar=ar.p_value, trials=trials)
            if a == baseline:
                randomizations.append(ar)
        entry["seed"] = seed
        pairwise.append(entry)
    for key in ("p_bootstrap", "p_ar"):
        if key in pairwise[0]:
            for entry, adjusted in zip(pairwise, holm([e[key] for e in pairwise])):
                entry[f"{key}_holm"] = adjusted
    return SignificanceReport(baseline, test, [e for e in pairwise if e["a"] == baseline], pairwise,
                              bootstraps, randomizations)
