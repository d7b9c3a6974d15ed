"""Sufficient statistics and the METEOR formula.

A corpus score is the formula applied to the *sum* of the segments' statistics (as the paper
and Meteor 1.5 do), so statistics add and the formula lives here once for both levels.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

from .config import MeteorConfig


@dataclass(frozen=True)
class MeteorStats:
    matches: int = 0
    hyp_len: int = 0
    ref_len: int = 0
    chunks: int = 0

    def __add__(self, other: "MeteorStats") -> "MeteorStats":
        return MeteorStats(
            self.matches + other.matches,
            self.hyp_len + other.hyp_len,
            self.ref_len + other.ref_len,
            self.chunks + other.chunks,
        )

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Scores:
    precision: float
    recall: float
    fmean: float
    fragmentation: float  # chunks / matches
    penalty: float
    score: float


def compute(stats: MeteorStats, config: MeteorConfig) -> Scores:
    """P, R, Fmean = P·R / (α·P + (1−α)·R), penalty = γ·(c/m)^β, score = Fmean·(1 − penalty).

    With α = 0.9 Fmean is the paper's 10PR/(R+9P); the operations are ordered as NLTK orders
    them so that the NLTK preset agrees with it to the last bit.
    """
    m = stats.matches
    if m == 0:
        return Scores(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    precision = float(m) / stats.hyp_len
    recall = float(m) / stats.ref_len
    denominator = config.alpha * precision + (1 - config.alpha) * recall
    fmean = (precision * recall) / denominator if denominator else 0.0
    fragmentation = float(stats.chunks) / m
    penalty = config.gamma * fragmentation**config.beta
    return Scores(precision, recall, fmean, fragmentation, penalty, (1 - penalty) * fmean)
