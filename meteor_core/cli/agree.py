"""How well METEOR (every preset, or your configuration), BLEU, chrF and TER agree with human
judgments, at system and segment level, with 95% bootstrap intervals; optionally tune α, β, γ
(δ) on a training split and check the result on the held-out rows.

    python -m meteor_core agree --table FILE --human mqm
        [--metrics meteor2005,nltk,meteor15,bleu,chrf,ter] [--samples 1000] [--seed 12345]
        [--preset P --alpha A --beta B --gamma G --delta D --no-synonyms]   # adds it as "custom"
        [--tune alpha,beta,gamma[,delta] --objective segment.kendall --steps 11 --split-column COL]
        [--format text|json]

The table (JSONL, TSV or CSV, .gz allowed): one row per (segment, system) with columns system,
seg_id, hypothesis, reference (reference2, … for more), optional source, and the human score
column named by --human. TER is negated (higher is better everywhere). Tuning starts from --preset
(with any --alpha/--beta/--gamma/--delta), trains on the lower half of the sorted seg_ids (or the rows
the split column marks train) and reports the held-out figure of the best and of the default.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import replace

from ..analysis import agreement as agree
from ..analysis import tuning, verdict
from ..analysis.compare import MAX_SAMPLES, MAX_SEED, check_samples
from ..analysis.judgments import DEFAULT_HUMAN, read_judgments
from ..config import PARAMETER_RANGES
from ..config import PRESET_NAMES
from ..notes import NOTE_SAMPLE, config_notes
from .common import USER_ERRORS, add_config_arguments, add_time_limit_argument, build_config, fail, time_limit
from .compare import format_table

CUSTOM = "custom"
SHOWN_TESTS = ("system.pearson", "segment.kendall", "segment.kendall_grouped")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--table", required=True, help="JSONL/TSV/CSV (.gz allowed) of system outputs with human scores")
    parser.add_argument("--human", default=DEFAULT_HUMAN, help=f"the human-score column (default {DEFAULT_HUMAN!r})")
    parser.add_argument("--metrics", default=",".join(agree.METRIC_NAMES),
                        help=f"comma-separated, from {','.join(agree.METRIC_NAMES)} (default: all)")
    add_config_arguments(parser)
    parser.add_argument("--samples", type=int, default=agree.DEFAULT_SAMPLES,
                        help=f"bootstrap samples (default {agree.DEFAULT_SAMPLES:,}, at most {MAX_SAMPLES:,})")
    parser.add_argument("--seed", type=int, default=agree.DEFAULT_SEED, help=f"0 to {MAX_SEED:,}")
    parser.add_argument("--tune", help="parameters to tune, e.g. alpha,beta,gamma (and delta for meteor15)")
    parser.add_argument("--objective", default=tuning.DEFAULT_OBJECTIVE, choices=agree.MEASURES,
                        help=f"the figure tuning maximises on the training rows (default {tuning.DEFAULT_OBJECTIVE})")
    parser.add_argument("--steps", type=int, default=tuning.DEFAULT_STEPS,
                        help=f"grid values per tuned parameter, plus its default (default {tuning.DEFAULT_STEPS}, "
                             f"at most {tuning.MAX_STEPS})")
    parser.add_argument("--split-column", help="column marking rows train or heldout (default: by seg_id)")
    parser.add_argument("--format", default="text", choices=["text", "json"])
    add_time_limit_argument(parser)


def _metric_list(text: str) -> list[str]:
    names = list(dict.fromkeys(n.strip().lower() for n in text.split(",") if n.strip()))
    unknown = [n for n in names if n not in agree.METRIC_NAMES]
    if not names or unknown:
        raise ValueError(f"unknown metric(s) {', '.join(unknown) or '(none given)'}; "
                         f"choose from {', '.join(agree.METRIC_NAMES)}")
    return names


def _has_overrides(args) -> bool:
    return bool(args.no_synonyms or args.synonyms_from
                or any(getattr(args, k) is not None for k in PARAMETER_RANGES))


def _progress(label: str):
    """A one-line progress display on a terminal's stderr; nothing when stderr is a file."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        end = "\n" if done >= total else ""
        print(f"\r{label}: {done:,}/{total:,}", end=end, file=sys.stderr, flush=True)
    return show


def _score_all(table, args, budget):
    """Every requested metric's scores, plus "custom" (the configuration the flags set) when any
    parameter flag is given; returns them and the scores tuning starts from."""
    names = _metric_list(args.metrics)
    scored = [agree.score_metric(table, name, budget.progress(_progress(f"scoring {name}")), language=args.lang)
              for name in names]
    tuned_from = None
    config = build_config(args)
    if _has_overrides(args):
        custom = agree.score_meteor(table, replace(config, name=CUSTOM), CUSTOM,
                                    budget.progress(_progress("scoring custom")))
        scored.append(custom)
        tuned_from = custom
    elif args.tune:
        tuned_from = next((s for s in scored if s.name == args.preset), None) or \
            agree.score_meteor(table, config, progress=budget.progress(_progress(f"scoring {args.preset}")))
    return scored, tuned_from


def _cell(figure) -> str:
    if math.isnan(figure.value):
        return "undefined"
    if math.isnan(figure.ci_low):
        return f"{figure.value:+.4f}"
    return f"{figure.value:+.4f} [{figure.ci_low:+.3f}, {figure.ci_high:+.3f}]"


def format_report(report: agree.AgreementReport) -> str:
    lines = [f"{report.rows:,} rows ({report.rated:,} with a human score in {report.human_column!r}), "
             f"{report.systems} systems, {report.segments} segments; 95% intervals from {report.samples:,} "
             f"bootstrap samples over seg_ids (seed {report.seed})", ""]
    labels = {"system.pearson": "system Pearson", "system.spearman": "system Spearman",
              "system.kendall": "system Kendall", "system.pairwise_accuracy": "system pairwise acc.",
              "segment.kendall": "segment Kendall", "segment.kendall_grouped": "segment Kendall grouped"}
    rows = [{"metric": name, **{labels[m]: _cell(a.figures[m]) for m in agree.MEASURES}}
            for name, a in report.metrics.items()]
    lines.append(format_table(rows))
    lines.append("")
    for measure in agree.MEASURES:
        best = report.best(measure)
        if best:
            lines.append(f"highest on {labels[measure]}: {best}")
    if len(report.metrics) >= 2:
        significant = [t for t in report.paired_tests(SHOWN_TESTS) if t.significant]
        lines.append("")
        lines.append(f"significant differences (paired bootstrap over segments, {verdict.RULE}):" if significant
                     else "no metric agrees significantly better than another on " + ", ".join(SHOWN_TESTS)
                     + f" ({verdict.RULE})")
        for t in significant:
            winner, loser, low, high = (t.a, t.b, t.ci_low, t.ci_high) if t.delta > 0 else (t.b, t.a, -t.ci_high, -t.ci_low)
            lines.append(f"  {t.measure}: {winner} > {loser} by {abs(t.delta):.4f} "
                         f"(95% CI {low:+.4f} .. {high:+.4f}, p = {t.p_value:.4f}, Holm-adjusted {t.p_holm:.4f})")
    for note in report.notes:
        lines.append(f"note: {note}")
    return "\n".join(lines)


def format_tuning(result: tuning.TuningResult) -> str:
    def params(p):
        return ", ".join(f"{k} {v:g}" for k, v in p.items())

    lines = [f"tuning {result.metric} on {result.objective}: {result.points:,} grid points rescored in "
             f"{result.seconds:.2f} s; split: {result.split} ({result.train_segments} / {result.heldout_segments} segments)",
             f"  default ({params(result.default)}): train {result.default_train:+.4f}, held out {result.default_heldout:+.4f}",
             f"  best    ({params(result.best)}): train {result.best_train:+.4f}, held out {result.best_heldout:+.4f}"]
    t = result.heldout_test
    if t is not None and not math.isnan(t.p_value):
        verdict = "significant" if t.significant else "not significant"
        lines.append(f"  held out, best - default = {t.delta:+.4f} (95% CI {t.ci_low:+.4f} .. {t.ci_high:+.4f}), "
                     f"p = {t.p_value:.4f}: {verdict} at 0.05")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        parameters = tuning.parse_parameters(args.tune) if args.tune else None
        if parameters and "delta" in parameters and build_config(args).scoring != "meteor1x":
            raise ValueError("delta weighs content against function words in Meteor 1.x: tune it with --preset meteor15")
        if parameters and not 2 <= args.steps <= tuning.MAX_STEPS:
            raise ValueError(f"--steps must be from 2 to {tuning.MAX_STEPS} (grid values per parameter); "
                             f"got {args.steps}")
        check_samples(args.samples, args.seed)  # the bounds of compare's and the pages' (before any reading)
        budget = time_limit(args, "agree (scoring)")  # one budget; its message names the step it stopped
        table = read_judgments(args.table, args.human, args.split_column)
        sample = list(table.hypotheses[:NOTE_SAMPLE]) + [r for refs in table.references[:NOTE_SAMPLE] for r in refs]
        if set(_metric_list(args.metrics)) & set(PRESET_NAMES) or _has_overrides(args):  # (notes on METEOR's settings)
            for note in config_notes(build_config(args), sample):
                print(f"note: {note}", file=sys.stderr)
        scored, tuned_from = _score_all(table, args, budget)
        budget.what = "agree (the bootstrap)"
        report = agree.agreement(table, scored, args.samples, args.seed,
                                 budget.progress(_progress("bootstrap samples")))
        tuned = None
        if parameters:
            budget.what = "agree (tuning)"
            tuned = tuning.tune(table, tuned_from, parameters, args.objective, args.steps, samples=args.samples,
                                seed=args.seed, progress=budget.progress(_progress("grid points")))
    except USER_ERRORS as exc:
        return fail(str(exc))
    if args.format == "json":
        data = report.to_dict()
        if tuned is not None:
            data["tuning"] = tuned.to_dict()
        print(json.dumps(data, ensure_ascii=False, allow_nan=False))
        return 0
    print(format_report(report))
    if tuned is not None:
        print()
        print(format_tuning(tuned))
    return 0

