"""Whole-set speed: meteor_core's presets against NLTK's meteor_score (and the Meteor 1.5 jar
where Java and the jar are present), measured as a user's run, on every segment of the shared
TED set (1,200 segments x 2 systems, tokenised, every length). The jar runs in batch mode (its
fastest), its start-up and resource loading subtracted.

Each scorer runs in a fresh process per round: resources are loaded first (WordNet, the jar's
JVM and its files), then the whole set is scored once with per-word caches cold, one segment at a
time, each segment timed ("cold"), then the same pairs again in the same process ("warm": per-word caches
filled). Rounds rotate the order of the scorers, so a slow moment of this noisy machine falls on
all of them alike. Printed:
* the headline: each scorer's whole-set time, cold and warm, and its speed ratio to NLTK (median
  over rounds of the ratio measured in the same round);
* the jar's CPU time (all its threads, from the operating system's account of the child) with and
  without its start-up, against the meteor15 preset's CPU time;
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
# The shared TED set beside the checkout or beside its parent folder (a main checkout and its
# worktrees, as the project's machines lay them out); METEOR_BENCH_DATA names another folder.
_BESIDE = [up / "shared" / "data" / "ted-slk-eng" for up in (ROOT.parent, ROOT.parent.parent)]
DATA = Path(os.environ.get("METEOR_BENCH_DATA") or next((d for d in _BESIDE if d.is_dir()), _BESIDE[0]))
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
    import meteor_core.align.pairwise  # noqa: F401  (numpy, which the pure search imports when a long segment first needs it)
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


JAR_ARGS = ["-l", "en", "-norm"]  # the jar's default modules (exact stem synonym paraphrase), as the meteor15 preset


def jar_child() -> None:
    """The jar scores files in one batch (its fastest way): the whole set, minus a one-segment
    run's time (the JVM's start and the loading of its resources). No per-segment timing."""
    import resource
    import tempfile

    jar = _find_jar()
    pairs = load_pairs()

    def run(subset) -> tuple[float, float]:
        """Wall seconds and CPU seconds (user + system, every JVM thread) of one batch."""
        with tempfile.TemporaryDirectory() as tmp:
            hyp, ref = Path(tmp, "hyp"), Path(tmp, "ref")
            hyp.write_text("".join(h + "\n" for h, _ in subset), encoding="utf-8")
            ref.write_text("".join(r + "\n" for _, r in subset), encoding="utf-8")
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(["java", "-Xmx2G", "-Dfile.encoding=UTF-8", "-jar", str(jar), str(hyp), str(ref),
                            *JAR_ARGS], cwd=str(jar.parent), check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    startup_wall, startup_cpu = min(run(pairs[:1]) for _ in range(2))
    wall, cpu = run(pairs)
    print(json.dumps({"total": max(wall - startup_wall, 1e-9), "cpu": cpu - startup_cpu, "cpu_with_startup": cpu,
                      "warm": None, "per_bucket": None, "warm_per_bucket": None, "counts": [0] * len(BUCKETS),
                      "proven": 0, "unproven": 0, "worst": None}))


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
    counts = [0] * len(BUCKETS)
    proven = unproven = 0
    worst = (0.0, -1)

    buckets = [bucket_of(r) for _, r in pairs]  # (before the clock: the harness's own work)

    def one_pass(first: bool) -> tuple[float, float, list[float]]:
        nonlocal proven, unproven, worst
        per_bucket = [0.0] * len(BUCKETS)
        start, cpu_start = time.perf_counter(), time.process_time()
        for k, (h, r) in enumerate(pairs):
            t = time.perf_counter()
            _, optimal = run(h, r)
            dt = time.perf_counter() - t
            b = buckets[k]
            per_bucket[b] += dt
            if first:
                counts[b] += 1
                worst = max(worst, (dt, k))
                if optimal is not None:
                    proven += optimal
                    unproven += not optimal
        return time.perf_counter() - start, time.process_time() - cpu_start, per_bucket

    total, cpu, per_bucket = one_pass(True)  # a user's run: caches cold
    warm, _, warm_per_bucket = one_pass(False)  # the same pairs again in this process
    print(json.dumps({"total": total, "cpu": cpu, "warm": warm, "per_bucket": per_bucket,
                      "warm_per_bucket": warm_per_bucket, "counts": counts, "proven": proven,
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
    print("Cold: a user's run (a fresh process, resources loaded before the clock, per-word caches empty);"
          " warm: the same pairs again in that process.")
    print(f"\n{'scorer':26s}{'cold':>10s}{'us/seg':>8s}{'vs NLTK':>9s}{'warm':>10s}{'vs NLTK':>9s}"
          f"{'proven optimal':>16s}")
    for s in scorers:
        runs = results[s]
        total = statistics.median(x["total"] for x in runs)
        ratio = statistics.median(b["total"] / x["total"] for b, x in zip(base, runs))
        if runs[0]["warm"] is None:
            warm_cells = f"{'-':>10s}{'-':>9s}"
        else:
            warm = statistics.median(x["warm"] for x in runs)
            warm_ratio = statistics.median(b["warm"] / x["warm"] for b, x in zip(base, runs))
            warm_cells = f"{warm:8.3f} s{warm_ratio:8.2f}x"
        proven = runs[0]["proven"], runs[0]["unproven"]
        shown = f"{proven[0]}/{sum(proven)}" if s[0] == "meteor2005" else ""
        print(f"{label[s]:26s}{total:8.3f} s{1e6 * total / n:8.0f}{ratio:8.2f}x{warm_cells}{shown:>16s}")
    jar = results.get(("jar", False))
    ours = results.get(("meteor15", False))
    if jar and ours:
        cpu = statistics.median(x["cpu"] for x in jar)
        with_startup = statistics.median(x["cpu_with_startup"] for x in jar)
        mine = statistics.median(x["cpu"] for x in ours)
        ratio = statistics.median(j["cpu"] / x["cpu"] for j, x in zip(jar, ours))
        ratio_startup = statistics.median(j["cpu_with_startup"] / x["cpu"] for j, x in zip(jar, ours))
        print(f"\nCPU time, meteor15 preset (cold, one thread) {mine:.3f} s; the jar (every JVM thread) "
              f"{cpu:.3f} s without its start-up ({ratio:.2f}x), {with_startup:.3f} s with it ({ratio_startup:.2f}x)")
    for key, title in (("per_bucket", "cold"), ("warm_per_bucket", "warm")):
        print(f"\nPer reference-length bucket, {title}: median seconds (ratio to NLTK in the same round)")
        header = "".join(f"{bucket_name(b) + f' ({c})':>22s}" for b, c in zip(BUCKETS, base[0]["counts"]))
        print(f"{'scorer':26s}{header}")
        for s in scorers:
            runs = results[s]
            if runs[0][key] is None:  # the jar in batch mode: whole set only
                continue
            cells = []
            for k in range(len(BUCKETS)):
                seconds = statistics.median(x[key][k] for x in runs)
                ratio = statistics.median(b[key][k] / x[key][k] for b, x in zip(base, runs))
                cells.append(f"{seconds:8.3f} s ({ratio:5.2f}x)")
            print(f"{label[s]:26s}" + "".join(f"{c:>22s}" for c in cells))
    if not args.no_adversarial:
        adversarial(presets, args.compiled_too)


if __name__ == "__main__":
    main()
