"""Correlations over the last axis of arrays: many bootstrap samples or grid points at once.

scipy.stats computes one correlation per call; the bootstrap needs ~1,000 of them per metric and
the tuning grid ~1,000 per objective, so these take stacked inputs (shape (..., n)) and return
one value per leading index, NaN where the correlation is undefined (a constant side). They
compute what scipy does (``pearsonr``, ``spearmanr``, ``kendalltau`` with its default variant
'b'); tests compare them with scipy on random and tied data.

Kendall's tau-b over pairs: tau_b = Σ sign(Δx)·sign(Δy) / sqrt(#pairs untied in x · #pairs
untied in y), which is (concordant − discordant) / sqrt((n0 − n1)(n0 − n2)). For small groups
(14 systems; the systems of one segment) listing the pairs is cheap and vectorises over the
leading axes; a whole test set's rows are left to scipy.
"""
from __future__ import annotations

import numpy as np
from scipy.stats import rankdata


def pearson(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    x, y = np.broadcast_arrays(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64))
    xc = x - x.mean(axis=-1, keepdims=True)
    yc = y - y.mean(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (xc * yc).sum(axis=-1) / np.sqrt((xc * xc).sum(axis=-1) * (yc * yc).sum(axis=-1))
    return np.clip(r, -1.0, 1.0)


def spearman(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson of the ranks (ties get their average rank), as scipy's spearmanr."""
    x, y = np.broadcast_arrays(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64))
    return pearson(rankdata(x, axis=-1), rankdata(y, axis=-1))


class Pairs:
    """Every pair of positions within the same group (groups: one label per position), ordered
    by group, for tau-b and pairwise accuracy per group."""

    def __init__(self, groups) -> None:
        groups = np.asarray(groups)
        labels, codes = np.unique(groups, return_inverse=True)
        self.n_groups = len(labels)
        order = np.argsort(codes, kind="stable")
        counts = np.bincount(codes, minlength=self.n_groups)
        firsts, seconds, owners = [], [], []
        start = 0
        for g, c in enumerate(counts):
            if c >= 2:
                members = order[start:start + c]
                a, b = np.triu_indices(c, 1)
                firsts.append(members[a])
                seconds.append(members[b])
                owners.append(np.full(len(a), g))
            start += c
        self.first = np.concatenate(firsts) if firsts else np.zeros(0, dtype=int)
        self.second = np.concatenate(seconds) if seconds else np.zeros(0, dtype=int)
        owner = np.concatenate(owners) if owners else np.zeros(0, dtype=int)
        # groups that have pairs, and where each one's pairs start (for np.add.reduceat)
        self.with_pairs, self.starts = np.unique(owner, return_index=True)

    @classmethod
    def all_of(cls, n: int) -> "Pairs":
        return cls(np.zeros(n, dtype=int))

    def _per_group(self, values: np.ndarray) -> np.ndarray:
        """Sum ``values`` (..., pairs) per group -> (..., n_groups), NaN for groups without pairs."""
        out = np.full(values.shape[:-1] + (self.n_groups,), np.nan)
        if len(self.starts):
            out[..., self.with_pairs] = np.add.reduceat(values, self.starts, axis=-1)
        return out

    def signs(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=np.float64)
        return np.sign(x[..., self.first] - x[..., self.second])


def kendall_b(x: np.ndarray, y: np.ndarray, pairs: Pairs) -> np.ndarray:
    """Kendall's tau-b per group (..., n_groups); NaN where a side is constant within the group."""
    sx, sy = pairs.signs(x), pairs.signs(y)
    sx, sy = np.broadcast_arrays(sx, sy)
    concordance = pairs._per_group(sx * sy)
    untied_x, untied_y = pairs._per_group(np.abs(sx)), pairs._per_group(np.abs(sy))
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = concordance / np.sqrt(untied_x * untied_y)
    return np.where((untied_x > 0) & (untied_y > 0), tau, np.nan)


def pairwise_accuracy(x: np.ndarray, y: np.ndarray, pairs: Pairs) -> np.ndarray:
    """Share of pairs that x orders as y does, per group (a tie agrees only with a tie)."""
    sx, sy = np.broadcast_arrays(pairs.signs(x), pairs.signs(y))
    agree = pairs._per_group((sx == sy).astype(np.float64))
    total = pairs._per_group(np.ones(sx.shape))
    return agree / total
