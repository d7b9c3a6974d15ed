"""METEOR with sacrebleu's object API, for users who know BLEU/chrF/TER there:

    >>> from meteor_core import METEOR
    >>> meteor = METEOR(preset="meteor15", alpha=0.85)            # any MeteorConfig field overrides
    >>> meteor.corpus_score(hyps, [refs_1, refs_2])               # reference *streams*, as in sacrebleu
    >>> meteor.sentence_score(hyp, [ref_a, ref_b]).score
    >>> meteor.get_signature()   # meteor|preset:meteor15|a:0.85|b:0.2|g:0.6|d:0.75|w:1,0.6,0.8,0.6|...

Scores stay on METEOR's own 0-1 scale (the Meteor jar's and NLTK's), not sacrebleu's 0-100.

The class also answers sacrebleu's internal ``Metric`` calls (segment statistics as rows of
numbers, a score from summed rows), so sacrebleu's own significance code can run on METEOR:
``tests/test_significance.py`` runs sacrebleu's approximate randomization on it and gets the
same p-value as ``analysis.significance``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from .config import MeteorConfig
from .scorer import CorpusResult, SegmentResult, score, score_corpus
from .stats import MeteorStats, compute

# (field, width) of each MeteorStats field in a flat row: 0 for a number, n for an n-tuple
_ROW_LAYOUT = [(name, len(v) if isinstance(v, tuple) else 0) for name, v in zip(MeteorStats._fields, MeteorStats())]


def stats_row(stats: MeteorStats) -> list[int]:
    """Every statistic in one flat row: matches, hyp_len, ref_len, chunks, then the Meteor 1.x ones.
    Rows add up as the statistics do, so a corpus (or a resampled corpus) is a sum of rows (a
    segment's row is what it adds to a corpus: ``MeteorStats.corpus_part``)."""
    row = []
    for value in stats.corpus_part():
        row.extend(value if isinstance(value, tuple) else (value,))
    return row


def stats_from_row(row) -> MeteorStats:
    """The inverse of ``stats_row`` (float sums of integer rows are exact, so int() is safe)."""
    values, k = [], 0
    for _, width in _ROW_LAYOUT:
        if width:
            values.append(tuple(int(v) for v in row[k:k + width]))
            k += width
        else:
            values.append(int(row[k]))
            k += 1
    return MeteorStats(*values)


@dataclass(frozen=True)
class MeteorScore:
    """A corpus or sentence score: ``.score`` plus the statistics that explain it."""

    score: float
    precision: float
    recall: float
    fmean: float
    fragmentation: float
    penalty: float
    chunks: int
    matches: int
    stats: MeteorStats
    signature: str
    # The scorer's own result (alignments, per-segment results) when one was computed; a score
    # made from summed statistics alone (resampling, sacrebleu's significance code) has none.
    result: CorpusResult | SegmentResult | None = field(default=None, repr=False, compare=False)
    name: str = "METEOR"

    @classmethod
    def from_result(cls, result: CorpusResult | SegmentResult) -> "MeteorScore":
        return cls(result.score, result.precision, result.recall, result.fmean, result.fragmentation,
                   result.penalty, result.chunks, result.matches, result.stats, result.signature, result)

    def format(self, width: int = 4, signature: bool = False) -> str:
        """``METEOR = 0.2849 (P 0.6695 R 0.5981 Fmean 0.6078 frag 0.3000 penalty 0.1234 chunks 9 matches 30)``."""
        text = (f"{self.name} = {self.score:.{width}f} (P {self.precision:.{width}f} R {self.recall:.{width}f} "
                f"Fmean {self.fmean:.{width}f} frag {self.fragmentation:.{width}f} penalty {self.penalty:.{width}f} "
                f"chunks {self.chunks} matches {self.matches})")
        return f"{text} {self.signature}" if signature else text

    def __str__(self) -> str:
        return self.format()


def reference_sets(references: Sequence[Sequence[str | None]], n_segments: int) -> list[list[str]]:
    """sacrebleu's reference streams (``references[k][i]``: segment i's k-th reference) turned into
    meteor_core's per-segment lists. ``None`` marks a segment with fewer references in that stream."""
    if isinstance(references, str) or any(isinstance(stream, str) for stream in references):
        raise TypeError("references must be a list of reference streams (lists of strings), as in sacrebleu")
    if not references:
        raise ValueError("no reference stream given")
    for k, stream in enumerate(references):
        if len(stream) != n_segments:
            raise ValueError(f"reference stream {k + 1} has {len(stream)} segments, the hypotheses {n_segments}")
    per_segment = [[ref for ref in refs if ref is not None] for refs in zip(*references)]
    missing = next((i for i, refs in enumerate(per_segment) if not refs), None)
    if missing is not None:
        raise ValueError(f"segment {missing + 1} has no reference")
    return per_segment


class METEOR:
    """``METEOR(preset="meteor15", **params)``: a preset (meteor2005, nltk, meteor15) and any
    ``MeteorConfig`` field to override (alpha, beta, gamma, delta, stages, ...)."""

    def __init__(self, preset: str = "meteor15", **params):
        self.config = MeteorConfig.preset(preset, **params)

    def get_signature(self) -> str:
        return self.config.signature()

    def corpus_score(self, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]],
                     jobs: int | None = 1) -> MeteorScore:
        """Corpus METEOR from summed segment statistics; ``references`` are reference streams;
        ``jobs`` processes (None or 0: every core), the same result as one."""
        if isinstance(hypotheses, str):
            raise TypeError("hypotheses must be a list of strings, one a segment")
        hypotheses = list(hypotheses)
        return MeteorScore.from_result(score_corpus(hypotheses, reference_sets(references, len(hypotheses)), self.config,
                                                    jobs=jobs))

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> MeteorScore:
        """One segment against its references (the best reference counts, as in Meteor and NLTK)."""
        if not isinstance(hypothesis, str):
            raise TypeError("hypothesis must be a string")
        if isinstance(references, str):
            raise TypeError("references must be a list of strings")
        return MeteorScore.from_result(score(hypothesis, list(references), self.config))

    # --- sacrebleu's Metric interface (what sacrebleu.significance calls) ---
    def _extract_corpus_statistics(self, hypotheses, references) -> list[list[int]]:
        result = score_corpus(list(hypotheses), reference_sets(references, len(hypotheses)), self.config)
        return [stats_row(s.stats) for s in result.segments]

    def _compute_score_from_stats(self, stats) -> MeteorScore:
        """The score of one row of *summed* statistics."""
        total = stats_from_row(stats)
        s = compute(total, self.config)
        return MeteorScore(s.score, s.precision, s.recall, s.fmean, s.fragmentation, s.penalty, total.chunks,
                           total.matches, total, self.get_signature())

    def _aggregate_and_compute(self, stats) -> MeteorScore:
        """The score of segment rows added up."""
        rows = [list(map(float, row)) for row in stats]
        return self._compute_score_from_stats([sum(col) for col in zip(*rows)] if rows else stats_row(MeteorStats()))


__all__ = ["METEOR", "MeteorScore", "reference_sets", "stats_from_row", "stats_row"]
