"""Compare MT systems: corpus METEOR per system, significance, buckets and exports.

    python -m meteor_core compare --ref REF [--ref REF2] --sys A.txt --sys B.txt [--sys C.txt ...]
                                  [--source SRC.txt] [--preset meteor2005|nltk|meteor15]
                                  [--test bootstrap|ar|both] [--baseline NAME]
                                  [--samples 1000] [--trials 10000] [--seed 12345]
                                  [--metrics bleu,chrf,ter|all] [--buckets]
                                  [--latex table.tex] [--xlsx tables.xlsx] [--format text|json]
    python -m meteor_core compare --table testset.tsv      # one TSV/CSV/JSONL with all columns

Significance: the paired bootstrap (Koehn 2004) and paired approximate randomization (sacrebleu's
procedure), every system against the baseline (--baseline, default the first system) and, with
three or more systems, every pair, with Holm-adjusted p-values (see the note printed with them).
Every output carries the METEOR signature (and sacrebleu's for --metrics).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..analysis.buckets import frequency_buckets, length_buckets
from ..analysis.compare import DEFAULT_SAMPLES, DEFAULT_SEED, MAX_SAMPLES, check_samples, compare_systems, segment_rows
from ..analysis.significance import DEFAULT_TRIALS, MAX_TRIALS, TESTS, check_trials, significance_report
from ..safe_export import json_text, write_file
from ..textio import InputError, load_test_set, read_segments, read_table
from ..notes import NOTE_SAMPLE, config_notes
from .common import (USER_ERRORS, add_config_arguments, add_jobs_argument, add_time_limit_argument, build_config,
                     fail, time_limit)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ref", action="append", help="reference file (repeat for several)")
    parser.add_argument("--sys", action="append", help="system output file (two or more)")
    parser.add_argument("--source", help="source file, one segment a line (shown beside each segment in exports)")
    parser.add_argument("--table", help="one TSV/CSV/JSONL file with ref* columns and one column per system")
    add_config_arguments(parser)
    parser.add_argument("--test", default="both", choices=TESTS,
                        help="significance test(s): paired bootstrap, approximate randomization or both (default)")
    parser.add_argument("--baseline", help="the system every other one is tested against (default: the first)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES,
                        help=f"bootstrap samples (default {DEFAULT_SAMPLES:,}, at most {MAX_SAMPLES:,})")
    parser.add_argument("--trials", type=int, default=DEFAULT_TRIALS,
                        help=f"approximate randomization trials (default {DEFAULT_TRIALS:,}, at most {MAX_TRIALS:,})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--metrics", help="also BLEU, chrF, TER (sacrebleu): a comma list, or 'all'")
    parser.add_argument("--buckets", action="store_true",
                        help="METEOR by reference-length and word-frequency bucket, with 95%% intervals")
    parser.add_argument("--latex", help="write the corpus table as a LaTeX (booktabs) table to this file")
    parser.add_argument("--xlsx", help="write every table (corpus, significance, buckets, segments) to this workbook")
    parser.add_argument("--format", default="text", choices=["text", "json"])
    add_jobs_argument(parser)
    add_time_limit_argument(parser)


def _load(args):
    """(systems, references per segment, sources or None)."""
    if args.table:
        if args.ref or args.sys or args.source:
            raise InputError("give either --table or --ref/--sys/--source files, not both")
        test_set = read_table(args.table)
        return test_set.systems, test_set.references, test_set.sources
    if not args.ref or not args.sys or len(args.sys) < 2:
        raise InputError("need --ref FILE and at least two --sys FILE (or --table FILE)")
    systems, references = load_test_set([(path, read_segments(path)) for path in args.ref],
                                        [(Path(path).name, read_segments(path)) for path in args.sys])
    sources = None
    if args.source:
        sources = read_segments(args.source)
        if len(sources) != len(references):
            raise InputError(f"{args.source}: {len(sources)} lines, the references {len(references)}")
    return systems, references, sources


def format_table(rows: list[dict]) -> str:
    columns = list(dict.fromkeys(k for row in rows for k in row))
    def cell(value) -> str:
        if isinstance(value, float):
            return f"{value:.4f}"
        return "-" if value is None else str(value)

    cells = [[c] + [cell(row.get(c, "")) for row in rows] for c in columns]
    widths = [max(len(x) for x in col) for col in cells]
    lines = ["  ".join(col[k].ljust(w) for col, w in zip(cells, widths)).rstrip() for k in range(len(rows) + 1)]
    return "\n".join(lines)


def _settings(args, report) -> dict:
    return {"test": args.test, "baseline": report.baseline, "bootstrap samples": args.samples,
            "randomization trials": args.trials, "seed": args.seed}


def run(args: argparse.Namespace) -> int:
    try:
        config = build_config(args)
        check_samples(args.samples, args.seed)  # before reading and scoring, not after
        systems, references, sources = _load(args)
        sample = [t for lines in systems.values() for t in lines[:NOTE_SAMPLE]] + [r for refs in references[:NOTE_SAMPLE] for r in refs]
        for note in config_notes(config, sample, modules_chosen=args.modules is not None):
            print(f"note: {note}", file=sys.stderr)
        if args.test != "bootstrap":
            check_trials(args.trials, len(references))
        metrics = ()
        if args.metrics:
            from ..analysis.sacrebleu_metrics import parse_metrics
            metrics = parse_metrics(args.metrics)
        if args.baseline is not None and args.baseline not in systems:  # before scoring, not after
            raise ValueError(f"baseline {args.baseline!r} is not one of the systems: {', '.join(systems)}")
        budget = time_limit(args, "compare (scoring)")  # one budget; its message names the step it stopped
        comparison = compare_systems(systems, references, config, jobs=args.jobs,
                                     progress=budget.progress())
        budget.what = "compare (the significance tests)"
        report = significance_report(comparison, args.baseline, args.test, args.samples, args.trials, args.seed,
                                     check=budget.check)
        buckets = {}
        if args.buckets or args.xlsx:
            budget.what = "compare (the bucket intervals)"
            buckets = {"length": length_buckets(comparison, samples=args.samples, seed=args.seed, check=budget.check),
                       "frequency": frequency_buckets(comparison, samples=args.samples, seed=args.seed,
                                                      check=budget.check)}
        rows = comparison.corpus_rows()
        signatures = {"METEOR": config.signature()}  # label -> signature, METEOR's first
        sentence_metrics, names = {}, {}
        if metrics:
            from ..analysis.sacrebleu_metrics import NAMES, score_systems
            budget.what = "compare (BLEU, chrF, TER)"
            corpus_metrics, sentence_metrics, metric_signatures = score_systems(systems, references, metrics,
                                                                                check=budget.check)
            for row in rows:
                row.update({NAMES[m]: corpus_metrics[row["system"]][m] for m in metrics})
            signatures.update(metric_signatures)
            names = NAMES
    except USER_ERRORS as exc:
        return fail(str(exc))
    if args.latex or args.xlsx:
        written = _export(args, comparison, rows, report, buckets, signatures, systems, references, sources,
                          sentence_metrics, names, metrics)
        if written:
            return written
    if args.format == "json":
        out = {"segments": comparison.n_segments, "signature": config.signature(), "signatures": signatures,
               "systems": rows, "baseline": report.baseline, "test": args.test,
               "bootstrap": [t.to_dict() for t in report.bootstrap],
               "ar": [t.to_dict() for t in report.randomization],
               "pairwise": report.pairwise, "multiple_comparisons": report.note}
        if args.buckets:
            out["buckets"] = buckets
        print(json_text(out))
        return 0
    print(f"{comparison.n_segments} segments, signature {config.signature()}")
    for label, s in list(signatures.items())[1:]:
        print(f"  {label}: {s}")
    print(format_table(rows))
    print()
    print(f"Against the baseline {report.baseline} (seed {args.seed}):")
    for t in report.bootstrap + report.randomization:
        print(f"  {t.summary()}")
    if len(comparison.names) > 2:
        print()
        print("Every pair (B - A):")
        print(format_table(report.table_rows()))
        print(f"note: {report.note}")
    if args.buckets:
        print()
        print("By reference length (corpus METEOR of the bucket, 95% bootstrap interval):")
        print(format_table(buckets["length"]))
        print()
        print("By word frequency in the references (METEOR's word matches; fmean's 95% bootstrap interval):")
        print(format_table(buckets["frequency"]))
    return 0


def _export(args, comparison, rows, report, buckets, signatures, systems, references, sources,
            sentence_metrics, names, metrics) -> int:
    """Write the --latex and --xlsx files; 0, or the exit code of a one-line error."""
    from ..table_export import comparison_latex, xlsx_workbook
    path = args.latex
    try:
        if args.latex:
            write_file(args.latex, comparison_latex(rows, signatures, report, metrics))
        if args.xlsx:
            path = args.xlsx
            tables = {"corpus": rows, "significance": report.table_rows()}
            tables.update({f"buckets by {k}": v for k, v in buckets.items()})
            tables["segments"] = segment_rows(comparison, systems, references, sources, sentence_metrics, names)
            write_file(args.xlsx, xlsx_workbook(tables, signatures, _settings(args, report)))
    except OSError as exc:  # written whole or not at all: a file that was there is left as it was
        return fail(f"cannot write {path} ({exc.strerror or exc}); nothing was written to it")
    except ImportError:
        return fail("the xlsx export needs openpyxl: pip install 'meteor-explorer[xlsx]'")
    return 0
