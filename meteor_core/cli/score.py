"""Score a hypothesis file against one or more reference files.

    python -m meteor_core [score] --hyp FILE --ref FILE [--ref FILE ...] [--preset meteor2005|nltk|meteor15]
                                  [--format text|tsv|jsonl] [--no-synonyms] [--alpha A --beta B --gamma G]
"""
from __future__ import annotations

import argparse

from ..config import MeteorConfig
from ..safe_export import jsonl_text, tsv_text
from ..scorer import CorpusResult, score_corpus
from ..textio import check_same_length, read_segments
from .common import USER_ERRORS, add_config_arguments, build_config, fail


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hyp", required=True, help="hypothesis file, one segment a line")
    parser.add_argument("--ref", required=True, action="append", help="reference file (repeat for several)")
    parser.add_argument("--format", default="text", choices=["text", "tsv", "jsonl"])
    add_config_arguments(parser)


def format_text(result: CorpusResult, config: MeteorConfig) -> str:
    segs = result.segments
    mean = sum(s.score for s in segs) / len(segs)
    unproven = sum(not s.optimal for s in segs)
    stages = dict.fromkeys(("exact", "stem", "synonym"), 0)
    for s in segs:
        for k, v in s.matches_by_stage.items():
            stages[k] = stages.get(k, 0) + v
    lines = [
        f"METEOR = {result.score:.4f}  ({len(segs)} segments, mean segment score {mean:.4f})",
        f"  precision {result.precision:.4f}  recall {result.recall:.4f}  fmean {result.fmean:.4f}",
        f"  matches {result.matches} ({', '.join(f'{k} {v}' for k, v in stages.items())})"
        f"  chunks {result.chunks}  fragmentation {result.fragmentation:.4f}  penalty {result.penalty:.4f}",
        f"  signature {result.signature}",
    ]
    if unproven and config.aligner == "optimal":
        lines.append(f"  note: {unproven} segment(s) hit the search budget; their alignment is not proven optimal")
    return "\n".join(lines)


TSV_COLUMNS = ["segment", "score", "precision", "recall", "fmean", "penalty", "chunks", "matches",
               "hyp_len", "ref_len", "crossings", "best_reference", "optimal"]


def format_tsv(result: CorpusResult, config: MeteorConfig) -> str:
    """Exact numbers (each reads back as the float that was scored), through safe_export."""
    rows = []
    for k, s in enumerate(result.segments):
        rows.append([k + 1, s.score, s.precision, s.recall, s.fmean, s.penalty, s.chunks, s.matches,
                     s.stats.hyp_len, s.stats.ref_len, s.crossings, s.best_reference, s.optimal])
    c = result
    rows.append(["corpus", c.score, c.precision, c.recall, c.fmean, c.penalty, c.chunks, c.matches,
                 c.stats.hyp_len, c.stats.ref_len, None, None, None])
    rows.append(["signature", c.signature])  # like the corpus row: a label in the first column
    return tsv_text((TSV_COLUMNS, rows)).rstrip("\n")


def format_jsonl(result: CorpusResult, config: MeteorConfig) -> str:
    return jsonl_text([*(s.to_dict() for s in result.segments), {"corpus": result.to_dict()}])


FORMATTERS = {"text": format_text, "tsv": format_tsv, "jsonl": format_jsonl}


def run(args: argparse.Namespace) -> int:
    try:
        config = build_config(args)
        hyps = read_segments(args.hyp)
        refs = [read_segments(path) for path in args.ref]
        check_same_length({args.hyp: hyps, **{f"{p} (ref {k + 1})": r for k, (p, r) in enumerate(zip(args.ref, refs))}})
        result = score_corpus(hyps, [list(seg_refs) for seg_refs in zip(*refs)], config)
    except USER_ERRORS as exc:
        return fail(str(exc))
    try:
        print(FORMATTERS[args.format](result, config))
    except BrokenPipeError:  # e.g. piped into head
        pass
    return 0
