"""Tuning METEOR's α, β, γ (and δ) on human judgments, with a held-out check.

The alignments do not depend on these four parameters (Meteor 1.5's beam depends on the module
weights, which are not tuned here), so every row is aligned once (``agreement.score_meteor``
keeps every reference's sufficient statistics) and the whole grid is rescored from the
statistics with numpy (``stat_arrays.meteor_scores``): the best reference of each row, the
sentence scores, the systems' corpus scores and the chosen correlation for blocks of grid points
at once. The grid holds the configuration's own values, so the defaults are scored alongside.

Training rows: the lower half of the sorted seg_ids (or the rows a split column marks
``train``); the rest are held out. The best grid point on the training rows is then scored on the
held-out rows next to the defaults, with a paired bootstrap of the difference there.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np
from scipy import stats as scipy_stats

from ..config import PARAMETER_RANGES
from .agreement import (DEFAULT_SAMPLES, DEFAULT_SEED, MEASURES, MetricScores, PairedTest, Progress, RowLayout,
                        agreement, best_reference_scores, observe, rescored, statistic_or_nan)
from .correlation import Pairs, kendall_b, pairwise_accuracy, pearson, spearman
from .judgments import TRAIN, JudgedTable
from .stat_arrays import RESCORABLE, meteor_scores

DEFAULT_OBJECTIVE = "segment.kendall"
DEFAULT_STEPS = 11
MAX_STEPS = 41  # as the agreement page allows: 42^3 grid points for three parameters
# The grid spans the library's ranges, but β stops at 5: over the library's 0-10, 11 values would
# step by 1 and miss the low β that Meteor 1.5 uses (0.2); above 5 the penalty only touches the
# most fragmented sentences.
RANGES = {**PARAMETER_RANGES, "beta": (0.0, 5.0)}
_BLOCK_CELLS = 4_000_000  # grid points x rows x statistics rescored at once (~32 MB a temporary)


def parse_parameters(text: str) -> tuple[str, ...]:
    """'alpha,beta,gamma' -> ('alpha', 'beta', 'gamma'), checked."""
    names = tuple(dict.fromkeys(p.strip().lower() for p in text.split(",") if p.strip()))
    unknown = [p for p in names if p not in RESCORABLE]
    if not names or unknown:
        raise ValueError(f"can tune {', '.join(RESCORABLE)} (comma-separated); got {text!r}")
    return names


def default_grid(defaults: dict[str, float], parameters: Sequence[str], steps: int = DEFAULT_STEPS) -> dict[str, np.ndarray]:
    """``steps`` evenly spaced values per parameter over its range, plus its default value."""
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or not 2 <= steps <= MAX_STEPS:
        raise ValueError(f"steps (grid values per tuned parameter) must be a whole number from 2 to {MAX_STEPS}; "
                         f"got {steps!r}"[:160])
    grid = {}
    for p in parameters:
        low, high = RANGES[p]
        values = np.append(np.round(np.linspace(low, high, steps), 10), defaults[p])
        grid[p] = np.unique(values)
    return grid


def split_rows(table: JudgedTable) -> tuple[np.ndarray, str]:
    """Training rows (a boolean mask) and how they were chosen."""
    if table.split is not None:
        train = np.array([s == TRAIN for s in table.split])
        rule = "the split column: rows marked train are for training, the others held out"
    else:
        order = table.segment_order
        lower = set(order[: len(order) // 2])
        train = np.array([s in lower for s in table.seg_ids])
        rule = (f"lower half of the sorted seg_ids for training ({order[0]} … {order[len(order) // 2 - 1]}), "
                f"the rest held out" if len(order) >= 2 else "")
    if not train.any() or train.all():
        raise ValueError("tuning needs training and held-out rows: "
                         + ("mark some rows train and some heldout in the split column" if table.split is not None
                            else "the table has fewer than two segments"))
    return train, rule


@dataclass
class TuningResult:
    metric: str
    objective: str
    parameters: tuple[str, ...]
    grid: dict[str, np.ndarray]
    values: np.ndarray  # the objective on the training rows, one axis per parameter (grid order)
    default: dict[str, float]
    best: dict[str, float]
    default_train: float
    default_heldout: float
    best_train: float
    best_heldout: float
    split: str
    train_segments: int
    heldout_segments: int
    heldout_test: PairedTest | None  # best − default on the held-out rows
    seconds: float  # rescoring the grid

    @property
    def points(self) -> int:
        return int(self.values.size)

    def plane(self, x: str, y: str) -> np.ndarray:
        """The objective over parameters ``x`` (columns) and ``y`` (rows), every other tuned
        parameter at its best value."""
        index = []
        for p in self.parameters:
            if p in (x, y):
                index.append(slice(None))
            else:
                index.append(int(np.flatnonzero(self.grid[p] == self.best[p])[0]))
        plane = self.values[tuple(index)]
        return plane.T if self.parameters.index(x) < self.parameters.index(y) else plane

    def to_dict(self) -> dict:
        def number(v):
            return None if v is None or not np.isfinite(v) else float(v)

        return {
            "metric": self.metric, "objective": self.objective,
            "split": {"rule": self.split, "train_segments": self.train_segments, "heldout_segments": self.heldout_segments},
            "grid": {"parameters": {p: [float(v) for v in self.grid[p]] for p in self.parameters},
                     "points": self.points, "seconds": round(self.seconds, 3)},
            "best": {"params": self.best, "train": number(self.best_train), "heldout": number(self.best_heldout)},
            "default": {"params": self.default, "train": number(self.default_train), "heldout": number(self.default_heldout)},
            "heldout_test": self.heldout_test.to_dict() if self.heldout_test else None,
        }


class _Objective:
    """One measure on one table's rows for blocks of grid points, vectorised (scipy for the
    Kendall over all rows, whose pairs are too many to list)."""

    def __init__(self, table: JudgedTable, scores: MetricScores, measure: str) -> None:
        if measure not in MEASURES:
            raise ValueError(f"unknown objective {measure!r}; choose from {', '.join(MEASURES)}")
        self.measure, self.config = measure, scores.config
        self.layout = layout = RowLayout.of(table)
        self.reference_stats = scores.reference_stats
        self.single_reference = scores.reference_stats.shape[1] == 1
        self.human = table.human
        self.rated = np.flatnonzero(layout.rated)
        human_means = layout.human_means()
        self.judged = np.flatnonzero(~np.isnan(human_means))
        self.human_means = human_means[self.judged]
        self.system_pairs = Pairs.all_of(len(self.judged))
        item_of_row = np.full(len(table), -1)
        for k, rows in enumerate(layout.item_rows):
            item_of_row[rows] = k
        self.item_pairs = Pairs(item_of_row[self.rated])
        indicator = np.zeros((len(layout.systems), len(table)))  # systems x rows, to sum per system
        for s, rows in enumerate(layout.system_rows):
            indicator[s, rows] = 1.0
        self.indicator = indicator[self.judged]
        if self.single_reference:
            self.system_sums = self.indicator @ scores.reference_stats[:, 0]

    def __call__(self, params: dict[str, np.ndarray]) -> np.ndarray:
        """The measure at each of G grid points (``params``: name -> (G,) values)."""
        as_rows = {p: v[:, None, None] for p, v in params.items()}
        segment, best = best_reference_scores(self.reference_stats[None], self.config, **as_rows)  # (G, rows)
        kind = self.measure.split(".")[1]
        if self.measure == "segment.kendall":
            human = self.human[self.rated]
            return np.array([statistic_or_nan(scipy_stats.kendalltau, s[self.rated], human) for s in segment])
        if self.measure == "segment.kendall_grouped":
            taus = kendall_b(segment[:, self.rated], self.human[self.rated], self.item_pairs)
            defined = ~np.isnan(taus)
            with np.errstate(invalid="ignore", divide="ignore"):
                return np.where(defined, taus, 0).sum(axis=1) / defined.sum(axis=1)
        if self.single_reference:
            sums = self.system_sums[None]  # (1, systems, k)
        else:
            stats = np.take_along_axis(self.reference_stats[None], best[..., None, None], axis=2)[:, :, 0]
            sums = np.einsum("sr,grk->gsk", self.indicator, stats)
        system = meteor_scores(sums, self.config, **{p: v[:, None] for p, v in params.items()})  # (G, systems)
        h = self.human_means
        if kind == "pearson":
            return pearson(system, h)
        if kind == "spearman":
            return spearman(system, h)
        if kind == "kendall":
            return kendall_b(system, h, self.system_pairs)[:, 0]
        return pairwise_accuracy(system, h, self.system_pairs)[:, 0]


def tune(table: JudgedTable, scores: MetricScores, parameters: Sequence[str], objective: str = DEFAULT_OBJECTIVE,
         steps: int = DEFAULT_STEPS, grid: dict[str, Sequence[float]] | None = None, samples: int = DEFAULT_SAMPLES,
         seed: int = DEFAULT_SEED, progress: Progress | None = None) -> TuningResult:
    """Search the grid for the parameters that maximise ``objective`` on the training rows."""
    if scores.config is None or scores.reference_stats is None:
        raise ValueError(f"only METEOR can be tuned, not {scores.name}")
    parameters = tuple(parameters)
    for p in parameters:
        if p not in RESCORABLE:
            raise ValueError(f"can tune {', '.join(RESCORABLE)}; not {p!r}")
    config = scores.config
    default = {p: float(getattr(config, p)) for p in parameters}
    if grid is None:
        grid = default_grid(default, parameters, steps)
    grid = {p: np.unique(np.append(np.asarray(grid[p], dtype=np.float64), default[p])) for p in parameters}
    for p in parameters:  # MeteorConfig refuses values out of range (e.g. alpha 1.5) with a message
        for value in (grid[p].min(), grid[p].max()):
            replace(config, **{p: float(value)})

    train, rule = split_rows(table)
    train_table, train_scores = table.subset(train), scores.subset(train)
    evaluate = _Objective(train_table, train_scores, objective)
    points = np.array(list(itertools.product(*(grid[p] for p in parameters))))  # (G, parameters)
    block = max(1, _BLOCK_CELLS // max(1, len(train_table) * scores.reference_stats.shape[1] * scores.stats.shape[1]))
    values = np.empty(len(points))
    started = time.perf_counter()
    for start in range(0, len(points), block):
        chunk = points[start:start + block]
        values[start:start + len(chunk)] = evaluate({p: chunk[:, k] for k, p in enumerate(parameters)})
        if progress:
            progress(start + len(chunk), len(points))
    seconds = time.perf_counter() - started
    if np.isnan(values).all():
        raise ValueError(f"{objective} is undefined on the training rows for every grid point")

    default_at = int(np.flatnonzero((points == np.array([default[p] for p in parameters])).all(axis=1))[0])
    best_at = int(np.nanargmax(values))
    if values[default_at] >= values[best_at]:  # keep the defaults unless something is strictly better
        best_at = default_at
    best = {p: float(points[best_at, k]) for k, p in enumerate(parameters)}

    heldout_table, heldout_scores = table.subset(~train), scores.subset(~train)
    default_held = rescored(heldout_scores, name=f"{scores.name} (defaults)", **default)
    best_held = rescored(heldout_scores, name=f"{scores.name} (tuned)", **best)
    test = None
    if samples:
        report = agreement(heldout_table, [best_held, default_held], samples, seed)
        test = report.paired_test(best_held.name, default_held.name, objective)
    shape = tuple(len(grid[p]) for p in parameters)
    return TuningResult(
        scores.name, objective, parameters, grid, values.reshape(shape), default, best,
        float(values[default_at]), observe(heldout_table, default_held).figures[objective],
        float(values[best_at]), observe(heldout_table, best_held).figures[objective],
        rule, len(train_table.segment_order), len(heldout_table.segment_order), test, seconds)

