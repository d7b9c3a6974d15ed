"""How well metrics agree with human judgments, at system and at segment level.

For each metric (METEOR under any configuration; BLEU, chrF and TER through sacrebleu, TER with
its sign flipped so that higher is better everywhere):

* system level: the metric's corpus score (METEOR: the formula on summed statistics; the others:
  sacrebleu's corpus score) against the mean human score of each system: Pearson, Spearman,
  Kendall (tau-b) and pairwise accuracy (the share of system pairs the metric orders as the
  humans do);
* segment level: Kendall's tau-b of sentence scores against human scores over all rated rows,
  and "grouped by item": tau-b across the systems of each segment, averaged over the segments
  where it is defined (the others are counted and left out).

The figures are scipy's (``pearsonr``, ``spearmanr``, ``kendalltau``). Their 95% intervals come
from a bootstrap over segments: seg_ids are drawn with replacement (seeded), every row of a drawn
segment comes along, and each figure is recomputed on the sample (vectorised, ``correlation``).
The same samples serve every metric, so two metrics' figures can be compared pairwise (paired
bootstrap; the p-value as sacrebleu's paired bootstrap computes it).

Rows without a human score are scored (they count in the metric's corpus score of their system)
but left out of every correlation.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

import numpy as np
from scipy import stats as scipy_stats

from ..config import PRESET_NAMES, MeteorConfig
from ..scorer import SegmentTooLong, score
from . import sacrebleu_metrics
from .compare import check_samples
from .correlation import Pairs, kendall_b, pairwise_accuracy, pearson, spearman
from .judgments import JudgedTable, row_indices
from . import verdict
from .significance import holm
from .stat_arrays import COLUMNS, meteor_scores, stat_matrix

SYSTEM_MEASURES = ("pearson", "spearman", "kendall", "pairwise_accuracy")
SEGMENT_MEASURES = ("kendall", "kendall_grouped")
MEASURES = tuple(f"system.{m}" for m in SYSTEM_MEASURES) + tuple(f"segment.{m}" for m in SEGMENT_MEASURES)
METRIC_NAMES = PRESET_NAMES + sacrebleu_metrics.METRICS
DEFAULT_SAMPLES = 1000
DEFAULT_SEED = 12345

Progress = Callable[[int, int], None]


# --- every row's score under one metric -------------------------------------------------------

@dataclass
class MetricScores:
    """One metric on every row of a table: sentence scores and additive corpus statistics."""

    name: str
    signature: str
    segment: np.ndarray  # (rows,) sentence scores, higher is better
    stats: np.ndarray  # (rows, k): summed over a system's rows they give its corpus score
    config: MeteorConfig | None = None  # METEOR
    sacrebleu_name: str | None = None  # BLEU, chrF, TER
    # METEOR: every reference's statistics (rows, references, k), NaN where a row has fewer
    # references; the best reference depends on α, β, γ, δ, so rescoring needs them all.
    reference_stats: np.ndarray | None = None

    def corpus(self, sums: np.ndarray) -> np.ndarray:
        """Corpus scores of summed statistics (..., k), higher is better."""
        if self.config is not None:
            return meteor_scores(sums, self.config)
        scores = sacrebleu_metrics.scores_from_statistics(self.sacrebleu_name, sums)
        return scores if sacrebleu_metrics.HIGHER_IS_BETTER[self.sacrebleu_name] else -scores

    def subset(self, keep: np.ndarray) -> "MetricScores":
        """Rows by boolean mask or by index, as ``JudgedTable.subset``."""
        idx = row_indices(keep)
        return replace(self, segment=self.segment[idx], stats=self.stats[idx],
                       reference_stats=None if self.reference_stats is None else self.reference_stats[idx])


def score_meteor(table: JudgedTable, config: MeteorConfig, name: str | None = None,
                 progress: Progress | None = None) -> MetricScores:
    """METEOR on every row (each distinct hypothesis and references once)."""
    keys = list(zip(table.hypotheses, table.references))
    distinct = list(dict.fromkeys(keys))
    results = {}
    for k, (hyp, refs) in enumerate(distinct):
        try:
            results[(hyp, refs)] = score(hyp, list(refs), config)
        except SegmentTooLong as exc:
            row = keys.index((hyp, refs))
            raise SegmentTooLong(f"system {table.systems[row]!r}, seg_id {table.seg_ids[row]!r}: {exc}") from None
        if progress and (k % 50 == 0 or k == len(distinct) - 1):
            progress(k + 1, len(distinct))
    width = max(len(refs) for refs in table.references)
    per_reference = np.full((len(keys), width, len(COLUMNS)), np.nan)
    for row, key in enumerate(keys):
        found = stat_matrix(r.stats for r in results[key].per_reference)
        per_reference[row, :len(found)] = found
    return MetricScores(name or config.name, config.signature(),
                        np.array([results[key].score for key in keys], dtype=np.float64),
                        stat_matrix(results[key].stats for key in keys), config=config,
                        reference_stats=per_reference)


def score_sacrebleu(table: JudgedTable, name: str, progress: Progress | None = None) -> MetricScores:
    stats = sacrebleu_metrics.segment_statistics(name, table.hypotheses, table.references, progress)
    sentence = sacrebleu_metrics.scores_from_statistics(name, stats, sentence=True)
    sign = 1.0 if sacrebleu_metrics.HIGHER_IS_BETTER[name] else -1.0
    label = sacrebleu_metrics.signature(name, sentence=False)
    return MetricScores(name, label if sign > 0 else f"-{label} (sign flipped: higher is better)",
                        sign * sentence, stats, sacrebleu_name=name)


def score_metric(table: JudgedTable, metric: str | MeteorConfig, progress: Progress | None = None,
                 language: str = "en") -> MetricScores:
    """A metric by name (a METEOR preset, in ``language``; bleu, chrf, ter) or a METEOR configuration."""
    if isinstance(metric, MeteorConfig):
        return score_meteor(table, metric, progress=progress)
    if metric in PRESET_NAMES:
        return score_meteor(table, MeteorConfig.preset(metric, language=language), progress=progress)
    if metric in sacrebleu_metrics.METRICS:
        return score_sacrebleu(table, metric, progress)
    raise ValueError(f"unknown metric {metric!r}; choose from {', '.join(METRIC_NAMES)}")


def best_reference_scores(reference_stats: np.ndarray, config: MeteorConfig, **params) -> tuple[np.ndarray, np.ndarray]:
    """Each row's best score over its references and that reference's index, under ``config``
    with α, β, γ, δ replaced by ``params`` (arrays broadcast in front: (G, 1, 1) -> (G, rows))."""
    scores = meteor_scores(reference_stats, config, **params)
    scores = np.where(np.isnan(reference_stats[..., 0]), -np.inf, scores)  # padding never wins
    best = scores.argmax(axis=-1)  # the first of equal scores, as score() keeps it
    return np.take_along_axis(scores, best[..., None], axis=-1)[..., 0], best


def rescored(scores: MetricScores, name: str | None = None, **params) -> MetricScores:
    """A METEOR metric's scores under other α, β, γ, δ, from its statistics (no aligning)."""
    if scores.config is None or scores.reference_stats is None:
        raise ValueError(f"{scores.name} is not METEOR: only METEOR can be rescored")
    config = replace(scores.config, **params)  # validates the values
    segment, best = best_reference_scores(scores.reference_stats, config)
    stats = np.take_along_axis(scores.reference_stats, best[:, None, None], axis=1)[:, 0]
    return MetricScores(name or scores.name, config.signature(), segment, stats, config=config,
                        reference_stats=scores.reference_stats)


# --- the figures ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Figure:
    value: float
    ci_low: float = float("nan")
    ci_high: float = float("nan")

    def to_dict(self) -> dict:
        return {k: _json_number(v) for k, v in self.__dict__.items()}


def _json_number(value: float):
    return None if value is None or not np.isfinite(value) else float(value)


def statistic_or_nan(function, x, y) -> float:
    """scipy's statistic; NaN (not a warning) when a side is constant."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if len(x) < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
            return float("nan")
        return float(function(x, y).statistic)


@dataclass
class RowLayout:
    """Where each system's and segment's rows are, shared by every metric of a table."""

    systems: list[str]
    system_rows: list[np.ndarray]
    seg_index: np.ndarray  # each row's position in table.segment_order
    rated: np.ndarray
    human: np.ndarray
    item_rows: list[np.ndarray]  # per segment: its rated rows

    @classmethod
    def of(cls, table: JudgedTable) -> "RowLayout":
        systems = table.system_names
        position = {s: k for k, s in enumerate(table.segment_order)}
        seg_index = np.array([position[s] for s in table.seg_ids], dtype=np.int64)
        names = np.array(table.systems, dtype=object)
        rated = table.rated
        rated_rows = np.flatnonzero(rated)
        order = np.argsort(seg_index[rated_rows], kind="stable")
        bounds = np.searchsorted(seg_index[rated_rows][order], np.arange(len(table.segment_order) + 1))
        items = [rated_rows[order[bounds[k]:bounds[k + 1]]] for k in range(len(table.segment_order))]
        return cls(systems, [np.flatnonzero(names == s) for s in systems], seg_index, rated, table.human, items)

    def human_means(self, weights: np.ndarray | None = None) -> np.ndarray:
        """Mean human score per system (over its rated rows); with row ``weights`` (B, rows),
        one row of means per sample. NaN for a system without a rated row."""
        out = []
        for rows in self.system_rows:
            rows = rows[self.rated[rows]]
            if weights is None:
                out.append(self.human[rows].mean() if len(rows) else np.nan)
            else:
                with np.errstate(divide="ignore", invalid="ignore"):
                    out.append(weights[:, rows] @ self.human[rows] / weights[:, rows].sum(axis=1))
        return np.array(out) if weights is None else np.stack(out, axis=-1)

    def corpus_scores(self, scores: MetricScores, weights: np.ndarray | None = None) -> np.ndarray:
        """Each system's corpus score over all its rows (rated or not); with ``weights`` per sample."""
        out = []
        for rows in self.system_rows:
            sums = scores.stats[rows].sum(axis=0) if weights is None else weights[:, rows] @ scores.stats[rows]
            out.append(scores.corpus(sums))
        return np.array(out) if weights is None else np.stack(out, axis=-1)


@dataclass
class Observed:
    """A metric's figures on one table (no intervals), with what they were computed from."""

    figures: dict[str, float]  # measure -> value
    human_means: np.ndarray  # per system
    metric_scores: np.ndarray  # per system
    item_taus: np.ndarray  # per segment, NaN where undefined

    @property
    def items_used(self) -> int:
        return int(np.count_nonzero(~np.isnan(self.item_taus)))


def observe(table: JudgedTable, scores: MetricScores, layout: RowLayout | None = None) -> Observed:
    """The six figures of ``scores`` on ``table`` with scipy."""
    layout = layout or RowLayout.of(table)
    human, metric = layout.human_means(), layout.corpus_scores(scores)
    judged = ~np.isnan(human)
    h, m = human[judged], metric[judged]
    figures = {
        "system.pearson": statistic_or_nan(scipy_stats.pearsonr, m, h),
        "system.spearman": statistic_or_nan(scipy_stats.spearmanr, m, h),
        "system.kendall": statistic_or_nan(scipy_stats.kendalltau, m, h),
        "system.pairwise_accuracy": float(pairwise_accuracy(m, h, Pairs.all_of(len(h)))[0]) if len(h) >= 2 else np.nan,
    }
    rated = layout.rated
    figures["segment.kendall"] = statistic_or_nan(scipy_stats.kendalltau, scores.segment[rated], table.human[rated])
    taus = np.array([statistic_or_nan(scipy_stats.kendalltau, scores.segment[rows], table.human[rows]) for rows in layout.item_rows])
    figures["segment.kendall_grouped"] = float(np.nanmean(taus)) if (~np.isnan(taus)).any() else np.nan
    return Observed(figures, human, metric, taus)


def _bootstrap_weights(rng: np.random.Generator, samples: int, n_segments: int) -> np.ndarray:
    """(samples, n_segments): how often each segment is drawn in each sample."""
    draws = rng.integers(0, n_segments, size=(samples, n_segments))
    counts = np.zeros((samples, n_segments))
    np.add.at(counts, (np.repeat(np.arange(samples), n_segments), draws.ravel()), 1)
    return counts


def _sample_figures(layout: RowLayout, scores: MetricScores, observed: Observed, weights: np.ndarray,
                    row_weights: np.ndarray, human_means: np.ndarray, repeated_human: list) -> dict[str, np.ndarray]:
    """Each figure on each bootstrap sample (the rows of ``weights``)."""
    metric = layout.corpus_scores(scores, row_weights)
    judged = ~np.isnan(observed.human_means)
    h, m = human_means[:, judged], metric[:, judged]
    pairs = Pairs.all_of(int(judged.sum()))
    out = {
        "system.pearson": pearson(m, h), "system.spearman": spearman(m, h),
        "system.kendall": kendall_b(m, h, pairs)[:, 0], "system.pairwise_accuracy": pairwise_accuracy(m, h, pairs)[:, 0],
    }
    bad = np.isnan(h).any(axis=1)  # a system missing from a sample: no system-level figure
    for key in list(out):
        out[key] = np.where(bad, np.nan, out[key])
    rated = layout.rated
    segment = scores.segment[rated]
    out["segment.kendall"] = np.array([
        statistic_or_nan(scipy_stats.kendalltau, np.repeat(segment, w), y) for w, y in zip(row_weights[:, rated].astype(int), repeated_human)])
    defined = ~np.isnan(observed.item_taus)
    with np.errstate(divide="ignore", invalid="ignore"):
        out["segment.kendall_grouped"] = (weights[:, defined] @ observed.item_taus[defined]) / weights[:, defined].sum(axis=1)
    return out


@dataclass
class MetricAgreement:
    name: str
    signature: str
    figures: dict[str, Figure]
    systems: list[dict]  # system, human (mean), metric (corpus score), rows, rated
    items_used: int
    items_left_out: int
    samples: dict[str, np.ndarray] = field(repr=False, default_factory=dict)  # bootstrap values per measure

    def to_dict(self) -> dict:
        system = {m: self.figures[f"system.{m}"].to_dict() for m in SYSTEM_MEASURES}
        segment = {m: self.figures[f"segment.{m}"].to_dict() for m in SEGMENT_MEASURES}
        segment["kendall_grouped"].update(segments=self.items_used, segments_left_out=self.items_left_out)
        return {"signature": self.signature, "system": system, "segment": segment,
                "systems": {s["system"]: {k: _json_number(v) if isinstance(v, float) else v
                                          for k, v in s.items() if k != "system"} for s in self.systems}}


@dataclass(frozen=True)
class PairedTest:
    """Does metric ``a`` agree better than ``b`` on ``measure``? delta = a − b."""

    measure: str
    a: str
    b: str
    delta: float
    ci_low: float
    ci_high: float
    p_value: float
    # Holm-adjusted over every pair of metrics on the same figure (set by ``paired_tests``)
    p_holm: float = float("nan")

    @property
    def p_verdict(self) -> float:
        """The p-value a verdict reads: Holm-adjusted when the test is one of several pairs."""
        return self.p_value if np.isnan(self.p_holm) else self.p_holm

    @property
    def significant(self) -> bool:
        return verdict.significant(self.p_verdict, self.ci_low, self.ci_high)

    def to_dict(self) -> dict:
        return {"measure": self.measure, "a": self.a, "b": self.b,
                **{k: _json_number(getattr(self, k)) for k in ("delta", "ci_low", "ci_high", "p_value", "p_holm")},
                "significant": self.significant}


@dataclass
class AgreementReport:
    metrics: dict[str, MetricAgreement]
    human_column: str
    rows: int
    rated: int
    systems: int
    segments: int
    samples: int
    seed: int
    notes: list[str]

    def paired_test(self, a: str, b: str, measure: str) -> PairedTest:
        """Paired bootstrap over segments of figure ``measure``: metric a − metric b."""
        fa, fb = self.metrics[a].figures[measure].value, self.metrics[b].figures[measure].value
        deltas = self.metrics[a].samples[measure] - self.metrics[b].samples[measure]
        deltas = deltas[~np.isnan(deltas)]
        observed = fa - fb
        if not len(deltas) or np.isnan(observed):
            return PairedTest(measure, a, b, observed, np.nan, np.nan, np.nan)
        centred = np.abs(deltas - deltas.mean())
        p_value = (np.count_nonzero(centred >= abs(observed)) + 1) / (len(deltas) + 1)
        low, high = np.percentile(deltas, [2.5, 97.5])
        return PairedTest(measure, a, b, float(observed), float(low), float(high), float(p_value))

    def paired_tests(self, measures: Sequence[str] = MEASURES) -> list[PairedTest]:
        """Every pair of metrics on each figure, with p-values Holm-adjusted over the pairs of
        that figure (15 pairs for six metrics: a raw p of 0.01 alone is weak evidence)."""
        names = list(self.metrics)
        out = []
        for m in measures:
            tests = [self.paired_test(a, b, m) for i, a in enumerate(names) for b in names[i + 1:]]
            defined = [t for t in tests if not np.isnan(t.p_value)]
            adjusted = dict(zip(map(id, defined), holm([t.p_value for t in defined])))
            out.extend(replace(t, p_holm=adjusted.get(id(t), np.nan)) for t in tests)
        return out

    def best(self, measure: str) -> str | None:
        """The metric with the highest figure on ``measure``."""
        values = {n: a.figures[measure].value for n, a in self.metrics.items() if not np.isnan(a.figures[measure].value)}
        return max(values, key=values.get) if values else None

    def to_dict(self, measures: Sequence[str] = MEASURES) -> dict:
        return {
            "table": {"human": self.human_column, "rows": self.rows, "rated_rows": self.rated,
                      "rows_without_human": self.rows - self.rated, "systems": self.systems, "segments": self.segments},
            "bootstrap": {"samples": self.samples, "seed": self.seed, "resampled": "seg_id"},
            "metrics": {name: a.to_dict() for name, a in self.metrics.items()},
            "paired_tests": [t.to_dict() for t in self.paired_tests(measures)],
            "notes": list(self.notes),
        }


def agreement(table: JudgedTable, metrics: Sequence[MetricScores], samples: int = DEFAULT_SAMPLES,
              seed: int = DEFAULT_SEED, progress: Progress | None = None) -> AgreementReport:
    """Every figure of every metric with 95% bootstrap intervals (``samples`` resamplings of the
    seg_ids, the same for every metric)."""
    samples, seed = check_samples(samples, seed)  # the bounds of every bootstrap here
    if not metrics:
        raise ValueError("no metric to correlate")
    layout = RowLayout.of(table)
    observed = {s.name: observe(table, s, layout) for s in metrics}
    collected: dict[str, dict[str, list]] = {s.name: {m: [] for m in MEASURES} for s in metrics}
    rng = np.random.default_rng(seed)
    rated = layout.rated
    done = 0
    while done < samples:
        block = min(100, samples - done)  # 100 samples at a time keeps the row weights small
        weights = _bootstrap_weights(rng, block, len(table.segment_order))
        row_weights = weights[:, layout.seg_index]
        human_means = layout.human_means(row_weights)
        repeated_human = [np.repeat(table.human[rated], w) for w in row_weights[:, rated].astype(int)]
        for s in metrics:
            for measure, values in _sample_figures(layout, s, observed[s.name], weights, row_weights,
                                                   human_means, repeated_human).items():
                collected[s.name][measure].append(values)
        done += block
        if progress:
            progress(done, samples)

    results = {}
    for s in metrics:
        obs, draws = observed[s.name], {m: np.concatenate(v) for m, v in collected[s.name].items()}
        figures = {}
        for measure in MEASURES:
            values = draws[measure][~np.isnan(draws[measure])]
            low, high = np.percentile(values, [2.5, 97.5]) if len(values) and not np.isnan(obs.figures[measure]) else (np.nan, np.nan)
            figures[measure] = Figure(obs.figures[measure], float(low), float(high))
        rows_rated = [int(np.count_nonzero(rated[rows])) for rows in layout.system_rows]
        systems = [{"system": name, "human": float(h), "metric": float(m), "rows": len(rows), "rated": n}
                   for name, h, m, rows, n in zip(layout.systems, obs.human_means, obs.metric_scores,
                                                  layout.system_rows, rows_rated)]
        results[s.name] = MetricAgreement(s.name, s.signature, figures, systems, obs.items_used,
                                          len(obs.item_taus) - obs.items_used, draws)
    return AgreementReport(results, table.human_column, len(table), int(rated.sum()), len(layout.systems),
                           len(table.segment_order), samples, seed, _notes(table, layout, results))


def _notes(table: JudgedTable, layout: RowLayout, results: dict[str, MetricAgreement]) -> list[str]:
    """What the reader must know to read the figures right (plain sentences)."""
    notes = []
    unrated = len(table) - int(layout.rated.sum())
    if unrated:
        notes.append(f"{unrated:,} of {len(table):,} rows have no human score in {table.human_column!r}: "
                     "they count in their system's corpus score but are left out of every correlation.")
    unjudged = [s for s, rows in zip(layout.systems, layout.system_rows) if not layout.rated[rows].any()]
    if unjudged:
        notes.append(f"{len(unjudged)} system(s) without any human score are left out of the system level: "
                     + ", ".join(repr(s) for s in unjudged) + ".")
    judged = len(layout.systems) - len(unjudged)
    if judged < 3:
        notes.append(f"Only {judged} system(s) have human scores: system-level figures rest on {judged} point(s) "
                     "and say little.")
    left_out = {name: r.items_left_out for name, r in results.items() if r.items_left_out}
    if left_out:
        counts = sorted(set(left_out.values()))
        notes.append(f"Kendall grouped by segment leaves out segments where it is undefined (fewer than two "
                     f"rated systems, or all of them rated alike, or a metric scoring them alike): "
                     + "; ".join(f"{n} of {len(table.segment_order)} for {', '.join(k for k, v in left_out.items() if v == n)}"
                                 for n in counts) + ".")
    for name, r in results.items():
        if np.isnan(r.figures["segment.kendall"].value):
            notes.append(f"{name} gives every rated row the same score: its segment-level correlation is undefined.")
        elif np.isnan(r.figures["system.pearson"].value) and judged >= 2:
            notes.append(f"{name} (or the human mean) is the same for every system: its system-level correlation is undefined.")
    return notes
