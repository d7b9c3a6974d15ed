"""Explanations of a result as plain data: every term of the score with its formula and the
numbers substituted, what each alignment stage contributed, and how two alignments differ.

The app renders these; the CLI and notebooks can print them. Nothing here recomputes the
alignment: stages are applied in order and never revisit earlier choices, so the score after
stage k is exactly the score of the matches of stages 1..k.
"""
from __future__ import annotations

from dataclasses import dataclass

from .align import Match
from .config import STAGES, MeteorConfig
from .scorer import PairResult, chunk_spans, pair_stats
from .stats import compute, weighted_matches


@dataclass(frozen=True)
class Term:
    name: str
    symbol: str
    formula: str
    substituted: str
    value: float | int | None  # None: a row that only states settings


def _f(x: float) -> str:
    return f"{x:.4f}"


def score_terms(result: PairResult, config: MeteorConfig) -> list[Term]:
    """P, R, Fmean, chunks, fragmentation, penalty and score, each with its numbers."""
    m, h, r, c = result.matches, len(result.hyp_tokens), len(result.ref_tokens), result.chunks
    a, b, g = config.alpha, config.beta, config.gamma
    by_stage = ", ".join(f"{k} {v}" for k, v in result.matches_by_stage.items() if v) or "none"
    P, R, F = result.precision, result.recall, result.fmean
    if a == 0.9 and config.scoring != "meteor1x":
        fmean_formula = "10·P·R / (R + 9·P)"
        fmean_numbers = f"10·{_f(P)}·{_f(R)} / ({_f(R)} + 9·{_f(P)})"
    else:
        fmean_formula = "P·R / (α·P + (1−α)·R)"
        fmean_numbers = f"{_f(P)}·{_f(R)} / ({a:g}·{_f(P)} + {1 - a:g}·{_f(R)})"
    if m == 0:
        return [
            Term("Matches", "m", "aligned unigram pairs", "0 (no word matched)", 0),
            Term("Precision", "P", "m / candidate length", f"0 / {h}", 0.0),
            Term("Recall", "R", "m / reference length", f"0 / {r}", 0.0),
            Term("Score", "METEOR", "0 when nothing matches", "0", 0.0),
        ]
    if config.scoring == "meteor1x":
        d, w = config.delta, config.module_weights
        hyp_m, hyp_l, ref_m, ref_l = weighted_matches(result.stats, config)
        st_ = result.stats
        weights = ", ".join(f"{stage} {w[k]:g}" for k, stage in enumerate(STAGES) if stage in config.stages)
        per_stage = " + ".join(f"{w[k]:g}·({d:g}·{st_.hyp_content_matches[k]} + {1 - d:g}·{st_.hyp_function_matches[k]})"
                               for k, stage in enumerate(STAGES) if stage in config.stages)
        per_stage_r = " + ".join(f"{w[k]:g}·({d:g}·{st_.ref_content_matches[k]} + {1 - d:g}·{st_.ref_function_matches[k]})"
                                 for k, stage in enumerate(STAGES) if stage in config.stages)
        head = [
            Term("Matches", "m", "aligned unigram pairs", f"{m} ({by_stage})", m),
            Term("Module weights", "w", "per stage", weights, None),
            Term("Content weight", "δ", "content words count δ, function words 1 − δ", f"δ = {d:g}", d),
            Term("Weighted candidate matches", "m_h", "Σ w·(δ·content + (1−δ)·function) matched", per_stage, hyp_m),
            Term("Weighted candidate length", "|h|", "δ·content + (1−δ)·function words",
                 f"{d:g}·{h - st_.hyp_function} + {1 - d:g}·{st_.hyp_function}", hyp_l),
            Term("Weighted reference matches", "m_r", "Σ w·(δ·content + (1−δ)·function) matched", per_stage_r, ref_m),
            Term("Weighted reference length", "|r|", "δ·content + (1−δ)·function words",
                 f"{d:g}·{r - st_.ref_function} + {1 - d:g}·{st_.ref_function}", ref_l),
            Term("Precision", "P", "m_h / |h|", f"{_f(hyp_m)} / {_f(hyp_l)}", P),
            Term("Recall", "R", "m_r / |r|", f"{_f(ref_m)} / {_f(ref_l)}", R),
        ]
    else:
        head = [
            Term("Matches", "m", "aligned unigram pairs", f"{m} ({by_stage})", m),
            Term("Precision", "P", "m / candidate length", f"{m} / {h}", P),
            Term("Recall", "R", "m / reference length", f"{m} / {r}", R),
        ]
    # Read off the result rather than re-deciding it: stats.compute zeroes Meteor 1.5's penalty
    # for identical sentences; and its c/m divides by matched words (phrases count per word).
    perfect = result.penalty == 0 and g > 0 and result.fragmentation > 0
    words = c / result.fragmentation
    return head + [
        Term("Fmean", "Fmean", fmean_formula, fmean_numbers, F),
        Term("Chunks", "c", "fewest runs adjacent and in order on both sides", f"{c}", c),
        Term("Fragmentation", "c/m", "chunks / matches", f"{c} / {words:g}", result.fragmentation),
        Term("Penalty", "Pen", "γ·(c/m)^β" + (" (0: identical sentences, as in Meteor 1.5)" if perfect else ""),
             f"{g:g}·{_f(result.fragmentation)}^{b:g}", result.penalty),
        Term("Score", "METEOR", "Fmean·(1 − Pen)", f"{_f(F)}·(1 − {_f(result.penalty)})", result.score),
    ]


@dataclass(frozen=True)
class StageContribution:
    stage: str
    added: int  # matches this stage added
    matches: int  # matches after this stage
    chunks: int
    score: float  # the score if alignment stopped after this stage
    gain: float  # score - score after the previous stage


def stage_contributions(result: PairResult, config: MeteorConfig) -> list[StageContribution]:
    out, kept, previous = [], [], 0.0
    hyp, ref = (([t.lower() for t in ts] if config.lowercase else ts) for ts in (result.hyp_tokens, result.ref_tokens))
    for stage in config.stages:
        added = [m for m in result.alignment if m.stage == stage]
        kept += added
        chunks = len(chunk_spans(kept))
        s = compute(pair_stats(kept, hyp, ref, chunks, config), config).score
        out.append(StageContribution(stage, len(added), len(kept), chunks, s, s - previous))
        previous = s
    return out


@dataclass(frozen=True)
class AlignmentDiff:
    same: list[tuple[Match, Match]]  # the same pair, the same stage
    stage_differs: list[tuple[Match, Match]]  # the same pair, found by different stages
    only_a: list[Match]
    only_b: list[Match]

    @property
    def identical(self) -> bool:
        return not (self.stage_differs or self.only_a or self.only_b)

    def differing_pairs(self) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
        """(hyp, ref) pairs to mark in A's drawing and in B's: only there, or another stage."""
        a = {(m.hyp_index, m.ref_index) for m in self.only_a} | {(m.hyp_index, m.ref_index) for m, _ in self.stage_differs}
        b = {(m.hyp_index, m.ref_index) for m in self.only_b} | {(m.hyp_index, m.ref_index) for _, m in self.stage_differs}
        return a, b


def diff_alignments(a: list[Match], b: list[Match]) -> AlignmentDiff:
    """Compare two alignments of the same token positions pair by pair."""
    pairs_b = {(m.hyp_index, m.ref_index): m for m in b}
    same, differs, only_a = [], [], []
    for m in a:
        other = pairs_b.pop((m.hyp_index, m.ref_index), None)
        if other is None:
            only_a.append(m)
        elif other.stage == m.stage:
            same.append((m, other))
        else:
            differs.append((m, other))
    return AlignmentDiff(same, differs, only_a, sorted(pairs_b.values()))


