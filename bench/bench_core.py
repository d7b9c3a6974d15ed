"""Whole-set speed: meteor_core's presets against NLTK's meteor_score (and the Meteor 1.5 jar
where Java and the jar are present), measured as a user's run, on every segment of the shared
TED set (1,200 segments x 2 systems, tokenised, every length). The jar runs in batch mode (its
fastest), its start-up and resource loading subtracted.

Each scorer runs in a fresh process per round: resources are loaded first (WordNet, the jar's
JVM and its files), then the whole set is scored once with per-word caches cold, one segment at a
time, each segment timed. Rounds rotate the order of the scorers, so a slow moment of this noisy
machine falls on all of them alike. Printed:
* the headline: each scorer's whole-set time and its speed ratio to NLTK (median over rounds of
  the ratio measured in the same round);
* a table per reference-length bucket (1-14, 15-40, 41-80, 81+ tokens): time and ratio to NLTK;
* the share of segments whose alignment was proven optimal (meteor2005);
* with --compiled-too, the pure-Python modules (METEOR_PURE=1) beside the compiled ones;
* adversarial input (repeated words, tiny vocabularies, 1,000 tokens) per searching preset:
  CPU seconds, the search's work units and why it stopped (bench/adversarial.py).

    .venv/bin/python bench/bench_core.py [--rounds 5] [--presets meteor2005,nltk,meteor15] [--compiled-too]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# The shared TED set beside the checkout (as the project's machines lay it out); METEOR_BENCH_DATA
# names another folder with the same files.
DATA = Path(os.environ.get("METEOR_BENCH_DATA", ROOT.parent / "shared" / "data" / "ted-slk-eng"))
BUCKETS = ((1, 14), (15, 40), (41, 80), (81, 10**9))


def bucket_name(b: tuple[int, int]) -> str:
    return f"{b[0]}+" if b[1] > 10**6 else f"{b[0]}-{b[1]}"


def load_pairs() -> list[tuple[str, str]]:
    ref = (DATA / "ted.ref.eng").read_text(encoding="utf-8").splitlines()
    return [(h, r) for name in ("ted.sys1.eng", "ted.sys2.eng")
            for h, r in zip((DATA / name).read_text(encoding="utf-8").splitlines(), ref)]


def bucket_of(ref: str) -> int:
    n = len(ref.split())
    return next(k for k, (lo, hi) in enumerate(BUCKETS) if lo <= n <= hi)


# --- the child: one scorer over the whole set, in a fresh process -----------------------------


def _scorer(name: str):
    """A function (hyp, ref) -> (score, proven or None), with its resources loaded."""
    if name == "NLTK":
        from nltk.corpus import wordnet
        from nltk.translate.meteor_score import meteor_score

        wordnet.ensure_loaded()
        wordnet.synsets("dog")  # NLTK's lazy reader: load before the clock, as ours is
        return lambda h, r: (meteor_score([r.split()], h.split()), None)
    import meteor_core.align.pairwise  # noqa: F401  (numpy, imported when a long segment first needs it)
    from meteor_core import MeteorConfig, resources, score

    config = MeteorConfig.preset(name)
    if config.uses_synonyms:  # resources load lazily; a user's run loads them once, before timing here
        resources.load_synonyms(config.synonym_source)
    resources.function_words(config.function_words)
    score("Mr. Smith left.", ["Mr. Smith left."], config)  # the tokenizer's own tables (non-breaking prefixes)

    def run(h, r):
        result = score(h, [r], config)
        return result.score, result.optimal

    return run


JAR_ARGS = ["-l", "en", "-norm", "-m", "exact stem synonym"]  # what the meteor15 preset computes


def jar_child() -> None:
    """The jar scores files in one batch (its fastest way): the whole set, minus a one-segment
    run's time (the JVM's start and the loading of its resources). No per-segment timing."""
    import tempfile

    jar = _find_jar()
    pairs = load_pairs()

    def run(subset) -> float:
        with tempfile.TemporaryDirectory() as tmp:
            hyp, ref = Path(tmp, "hyp"), Path(tmp, "ref")
            hyp.write_text("".join(h + "\n" for h, _ in subset), encoding="utf-8")
            ref.write_text("".join(r + "\n" for _, r in subset), encoding="utf-8")
            start = time.perf_counter()
            subprocess.run(["java", "-Xmx2G", "-jar", str(jar), str(hyp), str(ref), *JAR_ARGS], cwd=str(jar.parent),
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            return time.perf_counter() - start

    startup = min(run(pairs[:1]) for _ in range(2))
    total = max(run(pairs) - startup, 1e-9)
    print(json.dumps({"total": total, "per_bucket": None, "counts": [0] * len(BUCKETS), "proven": 0,
                      "unproven": 0, "worst": None}))


def _jar_available() -> bool:
    import shutil

    try:
        return shutil.which("java") is not None and _find_jar().is_file()
    except FileNotFoundError:
        return False


def _find_jar() -> Path:
    """METEOR_JAR, else the copy bench/meteor15_agreement.py fetched (pycocoevalcap's), else the
    installed pycocoevalcap package's."""
    if os.environ.get("METEOR_JAR"):
        return Path(os.environ["METEOR_JAR"])
    cache = Path(os.environ.get("METEOR_EXPLORER_CACHE", Path.home() / ".cache" / "meteor-explorer"))
    if (cache / "meteor-1.5.jar").is_file():
        return cache / "meteor-1.5.jar"
    import importlib.util

    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("no Meteor 1.5 jar: set METEOR_JAR or run bench/meteor15_agreement.py once")
    return Path(next(iter(spec.submodule_search_locations))) / "meteor" / "meteor-1.5.jar"


def child(name: str) -> None:
    if name == "jar":
        return jar_child()
    run = _scorer(name)
    pairs = load_pairs()
    per_bucket = [0.0] * len(BUCKETS)
    counts = [0] * len(BUCKETS)
    proven = unproven = 0
    worst = (0.0, -1)
    start = time.perf_counter()
    for k, (h, r) in enumerate(pairs):
        t = time.perf_counter()
        _, optimal = run(h, r)
        dt = time.perf_counter() - t
        b = bucket_of(r)
        per_bucket[b] += dt
        counts[b] += 1
        worst = max(worst, (dt, k))
        if optimal is not None:
            proven += optimal
            unproven += not optimal
    total = time.perf_counter() - start
    print(json.dumps({"total": total, "per_bucket": per_bucket, "counts": counts, "proven": proven,
                      "unproven": unproven, "worst": worst}))


def _run_child(name: str, pure: bool) -> dict:
    env = dict(os.environ)
    if pure:
        env["METEOR_PURE"] = "1"
    out = subprocess.run([sys.executable, __file__, "--child", name], capture_output=True, text=True, env=env,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


# --- adversarial input -------------------------------------------------------------------------


def adversarial(presets: list[str], pure_too: bool) -> None:
    """bench/adversarial.py's table (CPU seconds, work units, why the search stopped), in a fresh
    process per build."""
    searched = ",".join(p for p in presets if p != "nltk")  # the greedy aligner does not search
    if not searched:
        return
    for pure in ([False, True] if pure_too else [False]):
        env = dict(os.environ)
        env.pop("METEOR_PURE", None)
        if pure:
            env["METEOR_PURE"] = "1"
        print("\nAdversarial input (bench/adversarial.py" + (", METEOR_PURE=1)" if pure else ")"))
        subprocess.run([sys.executable, str(ROOT / "bench" / "adversarial.py"), "--presets", searched], env=env,
                       check=True)


# --- the parent --------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--presets", default="meteor2005,nltk,meteor15")
    parser.add_argument("--no-jar", action="store_true",
                        help="leave out the Meteor 1.5 jar (measured by default where Java and the jar are present)")
    parser.add_argument("--compiled-too", action="store_true",
                        help="also the pure-Python modules (METEOR_PURE=1) beside the compiled ones")
    parser.add_argument("--no-adversarial", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child)
    presets = [p for p in args.presets.split(",") if p]
    scorers = [("NLTK", False)] + [(p, False) for p in presets]
    if args.compiled_too:
        scorers += [(p, True) for p in presets]
    if not args.no_jar and _jar_available():
        scorers.append(("jar", False))
    names = {"NLTK": "NLTK meteor_score", "jar": "Meteor 1.5 jar (batch)"}
    label = {s: f"{s[0]} (pure)" if s[1] else names.get(s[0], f"{s[0]} preset") for s in scorers}
    results: dict = {s: [] for s in scorers}
    for r in range(args.rounds):
        shift = r % len(scorers)
        for s in scorers[shift:] + scorers[:shift]:
            results[s].append(_run_child(*s))
    base = results[("NLTK", False)]
    n = sum(base[0]["counts"])
    print(f"Whole shared TED set: {n} segments (1,200 x 2 systems, tokenised, every length); "
          f"{args.rounds} rounds, each scorer in a fresh process per round, order rotating.")
    print(f"\n{'scorer':26s}{'whole set':>12s}{'us/seg':>9s}{'vs NLTK':>10s}{'proven optimal':>17s}")
    for s in scorers:
        runs = results[s]
        total = statistics.median(x["total"] for x in runs)
        ratio = statistics.median(b["total"] / x["total"] for b, x in zip(base, runs))
        proven = runs[0]["proven"], runs[0]["unproven"]
        shown = f"{proven[0]}/{sum(proven)}" if s[0] == "meteor2005" else ""
        print(f"{label[s]:26s}{total:10.3f} s{1e6 * total / n:9.0f}{ratio:9.2f}x{shown:>17s}")
    print("\nPer reference-length bucket: median seconds (ratio to NLTK in the same round)")
    header = "".join(f"{bucket_name(b) + f' ({c})':>22s}" for b, c in zip(BUCKETS, base[0]["counts"]))
    print(f"{'scorer':26s}{header}")
    for s in scorers:
        runs = results[s]
        if runs[0]["per_bucket"] is None:  # the jar in batch mode: whole set only
            print(f"{label[s]:26s}" + "".join(f"{'-':>22s}" for _ in BUCKETS))
            continue
        cells = []
        for k in range(len(BUCKETS)):
            seconds = statistics.median(x["per_bucket"][k] for x in runs)
            ratio = statistics.median(b["per_bucket"][k] / x["per_bucket"][k] for b, x in zip(base, runs))
            cells.append(f"{seconds:8.3f} s ({ratio:5.2f}x)")
        print(f"{label[s]:26s}" + "".join(f"{c:>22s}" for c in cells))
    if not args.no_adversarial:
        adversarial(presets, args.compiled_too)


if __name__ == "__main__":
    main()
