"""Score a hypothesis file against one or more reference files.

    python -m meteor_core [score] --hyp FILE --ref FILE [--ref FILE ...] [--preset meteor2005|nltk|meteor15]
                                  [--lang LANG] [--task TASK] [--modules M ...] [--weights W ...]
                                  [--format text|tsv|jsonl] [--no-synonyms] [--alpha A --beta B --gamma G]
                                  [--jobs N | --scheduler tcp://HOST:PORT]

Segments are read, scored and written one by one (tsv and jsonl rows appear as they are
scored), so memory does not grow with the corpus; the corpus line comes from the summed
statistics. Regular files are checked in full (encoding, line counts) before any output; a
pipe, which cannot be read twice, when the scoring reaches its problem.
"""
from __future__ import annotations

import argparse
import logging
import sys
from itertools import tee
from pathlib import Path
from typing import Iterable, Iterator, TextIO

from ..config import MeteorConfig
from ..dask_runner import CONNECT_SECONDS  # (a number: dask is imported only to use it)
from ..safe_export import delimited_row, json_text
from ..scorer import CorpusResult, SegmentResult, corpus_from_stats, score_segments
from ..stats import MeteorStats
from ..notes import NOTE_SAMPLE, config_notes
from ..textio import iter_segments, zip_same_length
from .common import (USER_ERRORS, add_config_arguments, add_jobs_argument, build_config, fail,
                     silence_stdout)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hyp", required=True, help="hypothesis file, one segment a line")
    parser.add_argument("--ref", required=True, action="append", help="reference file (repeat for several)")
    parser.add_argument("--format", default="text", choices=["text", "tsv", "jsonl"])
    add_config_arguments(parser)
    add_jobs_argument(parser)
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="score on a Dask cluster instead (e.g. tcp://HOST:8786; needs dask[distributed]); an address "
                             f"that does not answer as a Dask scheduler within {CONNECT_SECONDS} s is an error")


class Totals:
    """What the corpus lines need, added up segment by segment (the segments are not kept)."""

    def __init__(self, stages: tuple[str, ...]):
        self.segments = 0
        self.stats = MeteorStats()
        self.score_sum = 0.0
        self.stopped = {"work": 0, "time": 0}  # segments whose search was cut, by why (stopped_by)
        self.stages = dict.fromkeys(stages, 0)  # every stage the configuration runs, found or not

    def add(self, segment: SegmentResult) -> None:
        self.segments += 1
        self.stats += segment.stats
        self.score_sum += segment.score
        if segment.stopped_by is not None:
            self.stopped[segment.stopped_by] += 1
        for stage, count in segment.matches_by_stage.items():
            if count:  # (a segment lists the three classic stages whether they ran or not)
                self.stages[stage] = self.stages.get(stage, 0) + count


def format_text(totals: Totals, corpus: CorpusResult, config: MeteorConfig) -> str:
    lines = [
        f"METEOR = {corpus.score:.4f}  ({totals.segments} segments, mean segment score "
        f"{totals.score_sum / totals.segments:.4f})",
        f"  precision {corpus.precision:.4f}  recall {corpus.recall:.4f}  fmean {corpus.fmean:.4f}",
        f"  matches {corpus.matches} ({', '.join(f'{k} {v}' for k, v in totals.stages.items())})"
        f"  chunks {corpus.chunks}  fragmentation {corpus.fragmentation:.4f}  penalty {corpus.penalty:.4f}",
        f"  signature {corpus.signature}",
    ]
    found = "not proven optimal" if config.aligner == "optimal" else "not the jar's full beam search"
    if totals.stopped["work"]:
        lines.append(f"  note: {totals.stopped['work']} segment(s) hit the search's work budget; their alignment is {found}"
                     " (the same on every machine)")
    if totals.stopped["time"]:
        lines.append(f"  note: {totals.stopped['time']} segment(s) hit the safety time limit; their alignment is {found}"
                     " (and may differ on another machine)")
    return "\n".join(lines) + "\n"


TSV_COLUMNS = ["segment", "score", "precision", "recall", "fmean", "penalty", "chunks", "matches",
               "hyp_len", "ref_len", "crossings", "best_reference", "optimal", "stopped_by"]


def _tsv_row(values: list) -> str:
    """Exact numbers (each reads back as the float that was scored), through safe_export."""
    return delimited_row(values, "\t")


def write_text(results: Iterable[SegmentResult], config: MeteorConfig, out: TextIO) -> None:
    totals = Totals(config.stages)
    for segment in results:
        totals.add(segment)
    out.write(format_text(totals, corpus_from_stats(totals.stats, config), config))


def write_tsv(results: Iterable[SegmentResult], config: MeteorConfig, out: TextIO) -> None:
    totals = Totals(config.stages)
    out.write(_tsv_row(TSV_COLUMNS))
    for s in results:
        totals.add(s)
        out.write(_tsv_row([totals.segments, s.score, s.precision, s.recall, s.fmean, s.penalty, s.chunks,
                            s.matches, s.stats.hyp_len, s.stats.ref_len, s.crossings, s.best_reference, s.optimal,
                            s.stopped_by]))
    c = corpus_from_stats(totals.stats, config)
    out.write(_tsv_row(["corpus", c.score, c.precision, c.recall, c.fmean, c.penalty, c.chunks, c.matches,
                        c.stats.hyp_len, c.stats.ref_len, None, None, None, None]))
    out.write(_tsv_row(["signature", c.signature]))  # like the corpus row: a label in the first column


def write_jsonl(results: Iterable[SegmentResult], config: MeteorConfig, out: TextIO) -> None:
    totals = Totals(config.stages)
    for segment in results:
        totals.add(segment)
        out.write(json_text(segment.to_dict()) + "\n")
    corpus = corpus_from_stats(totals.stats, config).to_dict()
    corpus["segments"] = totals.segments  # the count; the segments themselves were written above
    out.write(json_text({"corpus": corpus}) + "\n")


WRITERS = {"text": write_text, "tsv": write_tsv, "jsonl": write_jsonl}


def _segments(args: argparse.Namespace) -> Iterator[tuple[str, ...]]:
    """(hypothesis, reference, ...) per segment, read lazily from the files."""
    named = {args.hyp: args.hyp, **{f"{p} (ref {k + 1})": p for k, p in enumerate(args.ref)}}
    return zip_same_length({name: iter_segments(path) for name, path in named.items()})


def _results(args: argparse.Namespace, config: MeteorConfig) -> Iterator[SegmentResult]:
    hyp_rows, ref_rows = tee(_segments(args))  # read in step: tee holds one row at most
    hyps = (row[0] for row in hyp_rows)
    refs = (list(row[1:]) for row in ref_rows)
    if args.scheduler:
        from ..dask_runner import score_segments_dask

        _quiet_dask_logs()
        return score_segments_dask(args.scheduler, hyps, refs, config)
    return score_segments(hyps, refs, config, jobs=args.jobs)


def _quiet_dask_logs() -> None:
    """Only errors worth a traceback from distributed's loggers: the CLI says in one line what
    went wrong with the cluster, and distributed would log it again, traceback and all."""
    try:
        import distributed  # noqa: F401 (its import sets its loggers' levels from dask's configuration)
    except ImportError:
        return  # score_segments_dask says what to install
    for name in [n for n in logging.root.manager.loggerDict if n.split(".")[0] == "distributed"]:
        logging.getLogger(name).setLevel(logging.CRITICAL)


def run(args: argparse.Namespace) -> int:
    try:
        config = build_config(args)
        sample: list[str] = []  # the first segments' texts, for the notes on the input
        if all(Path(p).is_file() for p in [args.hyp, *args.ref]):  # a pipe cannot be read twice
            for k, row in enumerate(_segments(args)):  # a first pass, in constant memory: bad files fail before any output
                if k < NOTE_SAMPLE:
                    sample += row
        for note in config_notes(config, sample, modules_chosen=args.modules is not None):
            print(f"note: {note}", file=sys.stderr)
        WRITERS[args.format](_results(args, config), config, sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into head: stop scoring, say nothing
        silence_stdout()  # no second error at exit
    # --scheduler: ConnectionError when no scheduler answers, ImportError when dask is missing
    except USER_ERRORS + (ConnectionError, ImportError) as exc:
        return fail(str(exc))
    return 0
