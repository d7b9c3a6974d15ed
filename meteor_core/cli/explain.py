"""Why two METEOR configurations give different scores, walked one factor at a time.

    python -m meteor_core explain --a nltk --b meteor15 --hyp "candidate" --ref "reference" [--ref ...]
    python -m meteor_core explain --a nltk --b meteor15 --hyp-file H --ref-file R   # corpus score
    [--order "beta,gamma,..."] [--format text|json]
"""
from __future__ import annotations

import argparse

from ..analysis.difference import DEFAULT_ORDER, explain_corpus_difference, explain_difference
from ..config import PRESET_NAMES as PRESETS, MeteorConfig
from ..safe_export import json_text
from ..textio import InputError, check_same_length, read_segments
from .common import USER_ERRORS, add_jobs_argument, fail


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--a", default="nltk", choices=PRESETS, help="configuration A (a preset)")
    p.add_argument("--b", default="meteor15", choices=PRESETS, help="configuration B (a preset)")
    # one sentence or one corpus: giving both is an error, not a silent choice of one
    hyp = p.add_mutually_exclusive_group()
    hyp.add_argument("--hyp", help="the candidate sentence")
    hyp.add_argument("--hyp-file", help="corpus: candidate file, one segment a line")
    ref = p.add_mutually_exclusive_group()
    ref.add_argument("--ref", action="append", help="a reference sentence (repeat for several)")
    ref.add_argument("--ref-file", action="append", help="corpus: reference file (repeat for several)")
    p.add_argument("--order", help=f"comma-separated factors (default: {','.join(DEFAULT_ORDER)})")
    p.add_argument("--no-synonyms", action="store_true", help="both configurations without the synonym stage")
    p.add_argument("--format", default="text", choices=["text", "json"])
    add_jobs_argument(p)  # used for --hyp-file: the corpus is rescored once per factor


def run(args: argparse.Namespace) -> int:
    try:
        a, b = MeteorConfig.preset(args.a), MeteorConfig.preset(args.b)
        if args.no_synonyms:
            a = MeteorConfig.preset(args.a, stages=("exact", "stem"))
            b = MeteorConfig.preset(args.b, stages=("exact", "stem"))
        order = [f.strip() for f in args.order.split(",")] if args.order else None
        if args.hyp_file or args.ref_file:
            if not (args.hyp_file and args.ref_file):
                raise InputError("give both --hyp-file and --ref-file (not --hyp or --ref with them)")
            hyps = read_segments(args.hyp_file)
            refs = [read_segments(p) for p in args.ref_file]
            check_same_length({args.hyp_file: hyps, **{f"{p} (ref)": r for p, r in zip(args.ref_file, refs)}})
            d = explain_corpus_difference(hyps, [list(seg) for seg in zip(*refs)], a, b, order, jobs=args.jobs)
        else:
            if args.hyp is None or not args.ref:
                raise InputError("give --hyp and --ref (or --hyp-file and --ref-file)")
            d = explain_difference(args.hyp, args.ref, a, b, order)
    except USER_ERRORS as exc:
        return fail(str(exc))
    if args.format == "json":
        print(json_text({**d.to_dict(), "signature_a": a.signature(), "signature_b": b.signature()}))
        return 0
    print(f"{a.name:>12s}  {d.score_a:.4f}")
    for s in d.steps:
        print(f"{s.factor:>18s}  {s.delta:+.4f}  -> {s.score:.4f}   {s.change}")
    print(f"{b.name:>12s}  {d.score_b:.4f}   (difference {d.total:+.4f})")
    print()
    print(d.summary())
    print(f"  signature A {a.signature()}")
    print(f"  signature B {b.signature()}")
    return 0
