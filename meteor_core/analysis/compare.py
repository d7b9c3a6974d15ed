"""Comparing MT systems over one test set: corpus scores, segment wins and paired bootstrap.

Corpus METEOR comes from summed sufficient statistics, so a bootstrap sample is a sum of
segment statistics over resampled segment ids: cheap with numpy, and exactly the corpus
formula of ``stats.compute`` (checked by a test).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ..config import MeteorConfig
from ..scorer import CorpusResult, SegmentResult, score_corpus
from . import verdict
from .stat_arrays import meteor_scores, resampled_sums
from .stat_arrays import stat_matrix as _stat_rows

DEFAULT_SAMPLES = 1000
DEFAULT_SEED = 12345
# Bounds of the bootstrap, the same in the library, the CLI and the app. 10,000 samples are ten
# times the usual 1,000; the seed is what numpy takes as one 32-bit word.
MAX_SAMPLES = 10_000
MAX_SEED = 2**32 - 1
RESAMPLE_BLOCK_FLOATS = 4_000_000  # resampled statistics held at once (32 MB), whatever the test set's size


def check_samples(samples, seed) -> tuple[int, int]:
    """(samples, seed) as ints if within bounds, else ValueError saying the bounds."""
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or not 1 <= samples <= MAX_SAMPLES:
        raise ValueError(f"bootstrap samples must be a whole number from 1 to {MAX_SAMPLES:,} "
                         f"({DEFAULT_SAMPLES:,} is the usual choice); got {samples!r}"[:160])
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
                             or not 0 <= seed <= MAX_SEED):  # None: numpy's fresh entropy
        raise ValueError(f"the bootstrap seed must be a whole number from 0 to {MAX_SEED:,}; got {seed!r}"[:160])
    return int(samples), None if seed is None else int(seed)


@dataclass
class SystemComparison:
    names: list[str]
    results: dict[str, CorpusResult]
    config: MeteorConfig

    @property
    def n_segments(self) -> int:
        return len(next(iter(self.results.values())).segments)

    def segment_scores(self, name: str) -> list[float]:
        return [s.score for s in self.results[name].segments]

    def corpus_rows(self) -> list[dict]:
        """One row per system: the numbers of the corpus table (wins when exactly two systems)."""
        rows = []
        for name in self.names:
            r = self.results[name]
            scores = self.segment_scores(name)
            rows.append({
                "system": name, "corpus METEOR": r.score, "mean segment score": sum(scores) / len(scores),
                "precision": r.precision, "recall": r.recall, "fmean": r.fmean,
                "fragmentation penalty": r.penalty, "matches": r.matches, "chunks": r.chunks,
            })
        if len(self.names) == 2:
            a, b = (self.segment_scores(n) for n in self.names)
            wins_a = sum(x > y for x, y in zip(a, b))
            wins_b = sum(y > x for x, y in zip(a, b))
            rows[0]["segments won"], rows[1]["segments won"] = wins_a, wins_b
            rows[0]["ties"] = rows[1]["ties"] = len(a) - wins_a - wins_b
        return rows


def compare_systems(systems: dict[str, Sequence[str]], references: Sequence[Sequence[str]],
                    config: MeteorConfig | None = None,
                    progress: Callable[[int, int], None] | None = None, jobs: int | None = 1) -> SystemComparison:
    """``systems``: name -> one hypothesis per segment; ``references[k]``: segment k's references.
    ``jobs``: processes to score in, as in ``score_corpus``."""
    config = config or MeteorConfig.meteor2005()
    if len(systems) < 1:
        raise ValueError("no system outputs given")
    total = len(systems) * len(references)
    results = {}
    for k, (name, hyps) in enumerate(systems.items()):
        done = k * len(references)
        report = (lambda d, _t, done=done: progress(done + d, total)) if progress else None
        results[name] = score_corpus(list(hyps), references, config, progress=report, jobs=jobs)
    return SystemComparison(list(systems), results, config)


def stat_matrix(segments: Sequence[SegmentResult]) -> np.ndarray:
    """Segments x statistics (``stat_arrays.COLUMNS``: matches, hyp_len, ref_len, chunks first)."""
    return _stat_rows(s.stats for s in segments)


def sample_scores(sums: np.ndarray, config: MeteorConfig) -> np.ndarray:
    """Corpus METEOR of each row of summed statistics (a resampled or shuffled corpus), either
    formula, vectorised (``stat_arrays.meteor_scores``, held to ``stats.compute`` by tests)."""
    return meteor_scores(sums, config)


corpus_scores = sample_scores  # its first name, from when it knew the 2005 formula only


@dataclass(frozen=True)
class BootstrapResult:
    baseline: str
    system: str
    baseline_score: float
    system_score: float
    delta: float  # system - baseline, on the full test set
    ci_low: float  # 95% interval of the delta over the bootstrap samples
    ci_high: float
    p_value: float  # chance of a delta this large if the systems were equal
    samples: int
    seed: int

    def to_dict(self) -> dict:
        return dict(self.__dict__)

    @property
    def significant(self) -> bool:
        return verdict.significant(self.p_value, self.ci_low, self.ci_high)

    def summary(self) -> str:
        if self.significant:
            said = "significant"
        elif self.p_value < verdict.LEVEL:
            said = "not significant (the 95% interval contains 0)"
        else:
            said = "not significant"
        return (f"{self.system} - {self.baseline} = {self.delta:+.4f} "
                f"(95% CI {self.ci_low:+.4f} .. {self.ci_high:+.4f}), p = {self.p_value:.4f}: "
                f"{said} at 0.05 ({self.samples} paired bootstrap samples, seed {self.seed})")


def paired_bootstrap(comparison: SystemComparison, baseline: str, system: str,
                     samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
                     check: Callable[[], None] | None = None) -> BootstrapResult:
    """Paired bootstrap resampling (Koehn 2004). The p-value is the share of samples whose delta,
    centred on the mean sample delta, is at least as far from zero as the observed delta (with
    +1 smoothing); sacrebleu's ``_paired_bs_test`` centres |delta| instead and counts only larger
    ones, so its p-values differ somewhat. ``check``, if given, is called between blocks of
    samples and may raise to cut the work short (a caller's time budget)."""
    samples, seed = check_samples(samples, seed)
    a, b = stat_matrix(comparison.results[baseline].segments), stat_matrix(comparison.results[system].segments)
    n = len(a)
    rng = np.random.default_rng(seed)
    deltas = np.empty(samples)
    # 100 samples at a time (fewer for large test sets: b[ids] holds block x n x statistics floats)
    block = max(1, min(100, RESAMPLE_BLOCK_FLOATS // (n * a.shape[1])))
    for start in range(0, samples, block):
        if check is not None:
            check()
        ids = rng.integers(0, n, size=(min(block, samples - start), n))
        deltas[start:start + len(ids)] = (sample_scores(resampled_sums(b, ids), comparison.config)
                                          - sample_scores(resampled_sums(a, ids), comparison.config))
    observed = comparison.results[system].score - comparison.results[baseline].score
    centred = np.abs(deltas - deltas.mean())
    p_value = (np.count_nonzero(centred >= abs(observed)) + 1) / (samples + 1)
    low, high = np.percentile(deltas, [2.5, 97.5])
    return BootstrapResult(baseline, system, comparison.results[baseline].score, comparison.results[system].score,
                           observed, float(low), float(high), float(p_value), samples, seed)


def segment_rows(comparison: SystemComparison, systems: dict[str, Sequence[str]],
                 references: Sequence[Sequence[str]], sources: Sequence[str] | None = None,
                 sentence_metrics: dict[str, dict[str, list[float]]] | None = None,
                 metric_names: dict[str, str] | None = None) -> list[dict]:
    """The segment table: number, source (when given), references, then per system its output,
    its METEOR and, when given, its sentence scores under other metrics (``sentence_metrics[system]
    [metric]``, headed ``metric_names[metric]``)."""
    width = max(len(r) for r in references)
    rows = []
    for k in range(comparison.n_segments):
        row: dict = {"segment": k + 1}
        if sources is not None:
            row["source"] = sources[k]
        for j in range(width):
            row["reference" if width == 1 else f"reference {j + 1}"] = references[k][j] if j < len(references[k]) else ""
        for name in comparison.names:
            row[name] = systems[name][k]
            row[f"{name} METEOR"] = comparison.results[name].segments[k].score
            for metric, scores in (sentence_metrics or {}).get(name, {}).items():
                row[f"{name} {(metric_names or {}).get(metric, metric)}"] = scores[k]
        rows.append(row)
    return rows
