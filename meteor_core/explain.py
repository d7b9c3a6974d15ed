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
        Term("Penalty", "Pen", "γ·(c/m)^β" + (" (0 when every word matched in one chunk, as in Meteor 1.5)"
                                             if perfect else ""),
             (f"0 (the formula would give {g:g}·{_f(result.fragmentation)}^{b:g} = "
              f"{_f(g * result.fragmentation ** b)})" if perfect else f"{g:g}·{_f(result.fragmentation)}^{b:g}"),
             result.penalty),
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




# --- numbers for people ------------------------------------------------------------------------


def number(x: float, digits: int = 4, signed: bool = False) -> str:
    """``x`` with ``digits`` decimals, never "-0.0000": a value that rounds to zero is shown as
    zero (with "+" when ``signed``), whatever the sign of the tiny number behind it."""
    text = f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"
    if float(text) == 0:
        text = f"{0.0:+.{digits}f}" if signed else f"{0.0:.{digits}f}"
    return text


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """"1 match", "7 matches": a count with its noun in the right number."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def rounds_to_zero(x: float, digits: int = 4) -> bool:
    """True when ``x`` shows as zero at ``digits`` decimals (what "no visible difference" means)."""
    return float(f"{x:.{digits}f}") == 0


# --- teaching: the pair's own chunks and penalty ----------------------------------------------


def chunk_texts(result: PairResult) -> list[tuple[str, str]]:
    """Each chunk's candidate words and reference words, in candidate order."""
    hyp, ref = result.hyp_tokens, result.ref_tokens
    return [(" ".join(hyp[s.hyp_start:s.hyp_end]), " ".join(ref[s.ref_start:s.ref_end])) for s in result.chunk_spans]


@dataclass(frozen=True)
class CurvePoint:
    chunks: int
    fragmentation: float
    penalty: float
    score: float


def penalty_curve(result: PairResult, config: MeteorConfig) -> list[CurvePoint]:
    """The penalty and the score of this pair had its matches fallen into 1, 2, … chunks (up to
    one chunk a match), everything else kept: computed by the scorer's own formula."""
    stats = result.stats
    if stats.matches == 0:
        return []
    points = []
    for c in range(1, stats.matches + 1):
        s = compute(stats._replace(chunks=c), config)
        points.append(CurvePoint(c, s.fragmentation, s.penalty, s.score))
    return points


def _bracketed(chunks: list[tuple[str, str]], limit: int = 8) -> str:
    shown = " ".join(f"[{h}]" for h, _ in chunks[:limit])
    return shown + (f" … and {len(chunks) - limit} more" if len(chunks) > limit else "")


def beta_gamma_meaning(config: MeteorConfig) -> str:
    """What β and γ do under this configuration (the same formula, very different shapes)."""
    b, g = config.beta, config.gamma
    if b > 1:
        shape = (f"β = {b:g} makes the penalty grow slowly while chunks are few and fast as c/m nears 1 "
                 "(the 2005 paper's cube: long runs cost almost nothing)")
    elif b < 1:
        shape = (f"β = {b:g} makes the penalty jump at the first break of word order and then level off "
                 "(Meteor 1.5's choice: any fragmentation costs, more of it costs little more)")
    else:
        shape = "β = 1 makes the penalty grow in proportion to c/m"
    return f"{shape}; γ = {g:g} is the most it can take off Fmean (when every match is its own chunk)."


def lesson(result: PairResult, config: MeteorConfig) -> list[str]:
    """Plain sentences about this pair with its own numbers: what matched, the chunks, how the
    penalty follows from them, and what β and γ do here."""
    m, c = result.matches, result.chunks
    if m == 0:
        return ["No word matched, so the score is 0: there are no chunks and no penalty to speak of."]
    h, r = len(result.hyp_tokens), len(result.ref_tokens)
    by_stage = ", ".join(f"{v} {k}" for k, v in result.matches_by_stage.items() if v)
    weighted = config.scoring == "meteor1x"
    out = [f"{counted(m, 'match', 'matches')} ({by_stage}) between {h} candidate and {r} reference tokens: precision "
           f"{number(result.precision)}, recall {number(result.recall)}"
           + (" (weighted by stage and by δ for content and function words)" if weighted else "")
           + f", Fmean {number(result.fmean)}."]
    chunks = chunk_texts(result)
    out.append(f"{counted(c, 'chunk')}: {_bracketed(chunks)}. A chunk is a run of matched words that "
               "stand next to each other, in the same order, in both sentences: fewer, longer chunks mean a "
               "smaller penalty.")
    curve = penalty_curve(result, config)
    words = c / result.fragmentation if result.fragmentation else m
    formula = f"Pen = γ·(c/m)^β = {config.gamma:g}·({c}/{words:g})^{config.beta:g} = {number(result.penalty)}"
    one = curve[0] if curve else None
    # stats.compute's Meteor 1.5 rule: every word of both sentences matched in one chunk, no penalty
    whole = one is not None and one.penalty == 0 and config.gamma > 0 and one.fragmentation > 0
    if whole:
        would = number(config.gamma * one.fragmentation ** config.beta)
    if whole and c == 1:
        out.append(f"Pen = 0: every word of both sentences matched in one chunk, and Meteor 1.5 takes no penalty for "
                   f"that (γ·(c/m)^β would give {would})." + (
                       f" With every match its own chunk ({len(curve)} chunks) it would be "
                       f"{number(curve[-1].penalty)} (score {number(curve[-1].score)})." if len(curve) > 1 else ""))
    elif len(curve) > 1:
        in_one = (f"In one chunk every word of both sentences would be matched in order, and Meteor 1.5 takes no "
                  f"penalty for that: 0 (score {number(one.score)}), where γ·(c/m)^β would give {would}" if whole else
                  f"In one chunk it would be {number(one.penalty)} (score {number(one.score)})")
        out.append(f"{formula}. {in_one}; with every match its own chunk ({len(curve)} chunks) "
                   f"{number(curve[-1].penalty)} (score {number(curve[-1].score)}).")
    else:
        out.append(f"{formula}. With a single match there is only one possible chunk.")
    out.append(f"The penalty takes {100 * result.penalty:.1f}% off Fmean: {number(result.fmean)}·(1 − "
               f"{number(result.penalty)}) = {number(result.score)}.")
    out.append(beta_gamma_meaning(config))
    return out
