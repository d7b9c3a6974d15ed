"""Compare MT systems: corpus METEOR per system and paired bootstrap.

    python -m meteor_core compare --ref REF [--ref REF2] --sys A.txt --sys B.txt
                                  [--preset meteor2005|nltk] [--samples 1000] [--seed 12345]
                                  [--format text|json]
    python -m meteor_core compare --table testset.tsv      # one TSV/CSV/JSONL with all columns
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..analysis.compare import DEFAULT_SAMPLES, DEFAULT_SEED, compare_systems, paired_bootstrap
from ..textio import InputError, decode_table, load_test_set, read_segments
from .common import USER_ERRORS, add_config_arguments, build_config, fail


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ref", action="append", help="reference file (repeat for several)")
    parser.add_argument("--sys", action="append", help="system output file (two or more)")
    parser.add_argument("--table", help="one TSV/CSV/JSONL file with ref* columns and one column per system")
    add_config_arguments(parser)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="bootstrap samples (default 1000)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--format", default="text", choices=["text", "json"])


def _load(args):
    if args.table:
        if args.ref or args.sys:
            raise InputError("give either --table or --ref/--sys files, not both")
        path = Path(args.table)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
        test_set = decode_table(data, str(path))
        return test_set.systems, test_set.references
    if not args.ref or not args.sys or len(args.sys) < 2:
        raise InputError("need --ref FILE and at least two --sys FILE (or --table FILE)")
    return load_test_set([(path, read_segments(path)) for path in args.ref],
                         [(Path(path).name, read_segments(path)) for path in args.sys])


def format_table(rows: list[dict]) -> str:
    columns = list(dict.fromkeys(k for row in rows for k in row))
    cells = [[c] + [f"{row[c]:.4f}" if isinstance(row.get(c), float) else str(row.get(c, "")) for row in rows]
             for c in columns]
    widths = [max(len(x) for x in col) for col in cells]
    lines = ["  ".join(col[k].ljust(w) for col, w in zip(cells, widths)).rstrip() for k in range(len(rows) + 1)]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        config = build_config(args)
        systems, references = _load(args)
        comparison = compare_systems(systems, references, config)
        names = comparison.names
        tests = [paired_bootstrap(comparison, names[0], other, args.samples, args.seed) for other in names[1:]]
    except USER_ERRORS as exc:
        return fail(str(exc))
    rows = comparison.corpus_rows()
    if args.format == "json":
        print(json.dumps({"segments": comparison.n_segments, "signature": config.signature(), "systems": rows,
                          "bootstrap": [t.to_dict() for t in tests]}, ensure_ascii=False))
    else:
        print(f"{comparison.n_segments} segments, signature {config.signature()}")
        print(format_table(rows))
        print()
        for t in tests:
            print(t.summary())
    return 0
