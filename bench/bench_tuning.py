"""Tuning METEOR on human judgments: the grid rescored from statistics against its peers.

Data: the bundled MQM set (demo/mqm-ted-zhen-part, 3,696 rows) and the same set twice (7,392
rows, the copy's seg_ids shifted). For each preset, after one scoring pass, three ways of
computing the objective (segment-level Kendall on the training half) at a grid point, measured
in the same run:

* vectorised: ``tuning.tune``'s grid loop, 1,331 points (11 values of α, β, γ), per point;
* scalar formula: ``stats.compute`` row by row on the same statistics, then scipy (a sample of
  grid points);
* aligning again: ``score()`` of every training row under the point's configuration, then scipy
  (one grid point), which is what tuning without kept statistics costs.

Prints seconds per grid point (median of 3 repeats) and the ratios, and what a 1,331-point grid
takes each way.
"""
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from scipy.stats import kendalltau

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from meteor_core import MeteorConfig, score  # noqa: E402
from meteor_core.analysis import agreement, tuning  # noqa: E402
from meteor_core.analysis.judgments import JudgedTable, read_judgments  # noqa: E402
from meteor_core.metric import stats_from_row as from_row  # noqa: E402
from meteor_core.stats import compute  # noqa: E402

MQM = Path(__file__).resolve().parent.parent / "demo" / "mqm-ted-zhen-part" / "segments.jsonl.gz"
REPEATS = 3
SCALAR_POINTS = 5


def doubled(table: JudgedTable) -> JudgedTable:
    shift = max(int(s) for s in table.seg_ids) + 1
    seg_ids = table.seg_ids + tuple(str(int(s) + shift) for s in table.seg_ids)
    return JudgedTable(table.systems * 2, seg_ids, table.hypotheses * 2, table.references * 2,
                       np.concatenate([table.human, table.human]), table.human_column, None, table.name,
                       tuple(sorted(set(seg_ids), key=int)))


def per_point_vectorised(table, scores) -> float:
    result = tuning.tune(table, scores, ("alpha", "beta", "gamma"), samples=0)
    return result.seconds / result.points


def per_point_scalar(table, scores, points) -> float:
    train, _ = tuning.split_rows(table)
    rows = [from_row(r) for r in scores.stats[train]]
    human = table.human[train]
    started = time.perf_counter()
    for alpha, beta, gamma in points:
        config = replace(scores.config, alpha=alpha, beta=beta, gamma=gamma)
        kendalltau([compute(s, config).score for s in rows], human)
    return (time.perf_counter() - started) / len(points)


def per_point_realigned(table, scores, point) -> float:
    train, _ = tuning.split_rows(table)
    config = replace(scores.config, alpha=point[0], beta=point[1], gamma=point[2])
    started = time.perf_counter()
    segment = [score(h, list(r), config).score for h, r, keep in zip(table.hypotheses, table.references, train) if keep]
    kendalltau(segment, table.human[train])
    return time.perf_counter() - started


def main():
    base = read_judgments(MQM, human="mqm")
    rng = np.random.default_rng(0)
    grid = tuning.default_grid({"alpha": 0.9, "beta": 3.0, "gamma": 0.5}, ("alpha", "beta", "gamma"))
    sample = [(rng.choice(grid["alpha"]), rng.choice(grid["beta"]), rng.choice(grid["gamma"])) for _ in range(SCALAR_POINTS)]
    for table in (base, doubled(base)):
        for preset in ("meteor2005", "meteor15"):
            scores = agreement.score_metric(table, MeteorConfig.preset(preset))
            times = {"vectorised": [], "scalar formula": [], "aligning again": []}
            for _ in range(REPEATS):
                times["vectorised"].append(per_point_vectorised(table, scores))
                times["scalar formula"].append(per_point_scalar(table, scores, sample))
                times["aligning again"].append(per_point_realigned(table, scores, sample[0]))
            medians = {k: statistics.median(v) for k, v in times.items()}
            print(f"{len(table):,} rows ({len(table) // 2:,} training), {preset}: seconds per grid point, "
                  f"median of {REPEATS}")
            for name, value in medians.items():
                ratio = value / medians["vectorised"]
                print(f"  {name:15s} {value * 1e3:10.3f} ms  x{ratio:9.1f}   1,331 points: {value * 1331:9.1f} s")


if __name__ == "__main__":
    main()
