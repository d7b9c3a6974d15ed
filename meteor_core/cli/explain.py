"""Why two METEOR configurations give different scores, walked one factor at a time.

    python -m meteor_core explain --a nltk --b meteor15 --hyp "candidate" --ref "reference" [--ref ...]
    python -m meteor_core explain --a nltk --b meteor15 --hyp-file H --ref-file R   # corpus score
    python -m meteor_core explain --a pycocoevalcap --b hf ...   # packages by name (compat.known)
    [--order "beta,gamma,..."] [--format text|json]

A and B are presets (meteor2005, nltk, meteor15) or the METEORs of packages, named as their
users write them, in any case: pycocoevalcap (coco), nlg-eval, gem-metrics, summeval, sacrerouge,
generationeval (webnlg), jar, nltk, hf-evaluate (hf, evaluate), vizseq. For a corpus, the walk
compares pooled scores (summed statistics); a package that reports another aggregation (the mean
of sentence scores) has its own number printed beside it.
"""
from __future__ import annotations

import argparse

from ..analysis.difference import DEFAULT_ORDER, explain_corpus_difference, explain_difference
from .. import languages
from ..compat import known
from ..config import PRESET_NAMES
from ..explain import number
from ..safe_export import json_text
from ..textio import InputError, check_same_length, read_segments
from .common import USER_ERRORS, add_jobs_argument, fail


def _name(text: str) -> str:
    try:
        return known.canonical(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{exc}; or a preset: meteor2005, nltk, meteor15") from None


def configure(p: argparse.ArgumentParser) -> None:
    named = "a preset or a package's METEOR: " + ", ".join(known.choices())
    p.add_argument("--a", default="nltk", type=_name, help=f"configuration A ({named})")
    p.add_argument("--b", default="meteor15", type=_name, help="configuration B (the same names)")
    # one sentence or one corpus: giving both is an error, not a silent choice of one
    hyp = p.add_mutually_exclusive_group()
    hyp.add_argument("--hyp", help="the candidate sentence")
    hyp.add_argument("--hyp-file", help="corpus: candidate file, one segment a line")
    ref = p.add_mutually_exclusive_group()
    ref.add_argument("--ref", action="append", help="a reference sentence (repeat for several)")
    ref.add_argument("--ref-file", action="append", help="corpus: reference file (repeat for several)")
    p.add_argument("--order", help=f"comma-separated factors (default: {','.join(DEFAULT_ORDER)})")
    p.add_argument("--no-synonyms", action="store_true", help="both configurations without the synonym stage")
    p.add_argument("--lang", "--language", dest="lang", default="en", metavar="LANG",
                   help="the language of the text, for the presets (the packages' METEORs are English)")
    p.add_argument("--format", default="text", choices=["text", "json"])
    add_jobs_argument(p)  # used for --hyp-file: the corpus is rescored once per factor


def _configuration(name: str, language: str):
    """A preset in ``language``, or a package's METEOR (English: they run the jar with -l en or NLTK)."""
    if name in PRESET_NAMES:
        return known.configuration(name, language=language)
    if languages.language(language).code != "en":
        raise ValueError(f"{name}'s METEOR is English; for {languages.language(language).display} text compare the "
                         "presets (meteor2005, meteor15)")
    return known.configuration(name)


def run(args: argparse.Namespace) -> int:
    try:
        a, b = _configuration(args.a, args.lang), _configuration(args.b, args.lang)
        if args.no_synonyms:
            a = known.configuration(args.a, stages=tuple(s for s in a.stages if s != "synonym"))
            b = known.configuration(args.b, stages=tuple(s for s in b.stages if s != "synonym"))
        order = [f.strip() for f in args.order.split(",")] if args.order else None
        if args.hyp_file or args.ref_file:
            if not (args.hyp_file and args.ref_file):
                raise InputError("give both --hyp-file and --ref-file (not --hyp or --ref with them)")
            hyps = read_segments(args.hyp_file)
            refs = [read_segments(p) for p in args.ref_file]
            check_same_length({args.hyp_file: hyps, **{f"{p} (ref)": r for p, r in zip(args.ref_file, refs)}})
            segment_refs = [list(seg) for seg in zip(*refs)]
            d = explain_corpus_difference(hyps, segment_refs, a, b, order, jobs=args.jobs)
            reported = _own_numbers(args, (a, b), hyps, segment_refs)
        else:
            if args.hyp is None or not args.ref:
                raise InputError("give --hyp and --ref (or --hyp-file and --ref-file)")
            d = explain_difference(args.hyp, args.ref, a, b, order)
            reported = {}
    except USER_ERRORS as exc:
        return fail(str(exc))
    if args.format == "json":
        print(json_text({**d.to_dict(), "signature_a": a.signature(), "signature_b": b.signature(),
                         **{f"reported_{side}": value for side, value in reported.items()}}))
        return 0
    print(f"{a.name:>12s}  {d.score_a:.4f}")
    for s in d.steps:
        print(f"{s.factor:>18s}  {number(s.delta, signed=True)}  -> {s.score:.4f}   {s.change}")
    print(f"{b.name:>12s}  {d.score_b:.4f}   (difference {number(d.total, signed=True)})")
    print()
    print(d.summary())
    for value in reported.values():
        print(f"{value['name']} itself reports {value['score']:.4f}: {_AGGREGATED[value['aggregation']]}.")
    print(f"  signature A {a.signature()}")
    print(f"  signature B {b.signature()}")
    return 0


_AGGREGATED = {"mean": "the mean of the sentence scores, not the pooled score walked above",
               "pooled-pairs": "every (hypothesis, reference) pair pooled, with no best reference"}


def _own_numbers(args, configs, hyps, refs) -> dict:
    """Side -> the number a package reports for this corpus, for packages whose aggregation is
    not the pooled score that the walk compares."""
    found = {}
    for side, name, config in zip("ab", (args.a, args.b), configs):
        try:
            entry = known.lookup(name)
        except ValueError:
            continue  # a preset: its number is the pooled one
        if entry.aggregation != "pooled":
            score = entry.score(hyps, refs, args.jobs, config)[0]
            found[side] = {"name": entry.name, "aggregation": entry.aggregation, "score": score}
    return found
