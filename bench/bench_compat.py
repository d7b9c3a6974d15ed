"""pycocoevalcap's Meteor (Java) against its Java-free drop-in (meteor_core.compat.pycocoevalcap),
whole TED set, as a captioning user runs it.

Every run is a fresh Python process that does what a user's script does: ``Meteor()``, then
``compute_score`` on one segment (the start-up: for Java, the JVM and the jar loading its
synonyms and paraphrase table; for the drop-in, the jar's synonyms, function words and the parsed
paraphrase table, whose parsed copy the drop-in keeps in its cache folder after its first use),
then ``compute_score`` on all 1,200 segments of one system (sys1 or sys2, against the TED
reference). The drop-in runs compiled (the accelerator, when built) and as pure Python
(METEOR_PURE=1). Each round runs every scorer on both systems, in an order rotated per round;
the figures are medians over the rounds, and the ratios are taken within a round (Java's time
over the drop-in's). Wall time is the user's wait; CPU time (the process and its children, the
JVM included) is printed beside it. One unmeasured drop-in run first makes the paraphrase
table's parsed copy, as any earlier use would have.

A second part times ``meteor_score`` as a training loop calls it: eleven batches of 64 TED
segments in one process, the first call (which loads the resources) and the median of the others.

    .venv/bin/python bench/bench_compat.py [--rounds 3] [--jobs 1]
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "demo" / "ted-slk-eng"
SCORERS = ("java (pycocoevalcap)", "drop-in", "drop-in (pure Python)")
SYSTEMS = ("sys1", "sys2")


def worker(scorer: str, system: str, jobs: int) -> None:
    """One user's run; prints {"startup": s, "score": s, "value": corpus score} as JSON."""
    refs = (DEMO / "ted.ref.detok.eng").read_text(encoding="utf-8").splitlines()
    hyps = (DEMO / f"ted.{system}.detok.eng").read_text(encoding="utf-8").splitlines()
    gts, res = {k: [r] for k, r in enumerate(refs)}, {k: [h] for k, h in enumerate(hyps)}
    start = time.perf_counter()
    if scorer.startswith("java"):
        from pycocoevalcap.meteor.meteor import Meteor
        meteor = Meteor()
    else:
        sys.path.insert(0, str(ROOT))
        from meteor_core.compat.pycocoevalcap import Meteor
        meteor = Meteor(jobs=jobs)
    meteor.compute_score({0: gts[0]}, {0: res[0]})
    started = time.perf_counter()
    value, _ = meteor.compute_score(gts, res)
    done = time.perf_counter()
    print(json.dumps({"startup": started - start, "score": done - started, "value": value}))


def repeated_calls() -> None:
    """meteor_score on eleven batches of 64 segments: the first call, then the median of the rest."""
    sys.path.insert(0, str(ROOT))
    from meteor_core.compat import meteor_score

    refs = (DEMO / "ted.ref.detok.eng").read_text(encoding="utf-8").splitlines()
    hyps = (DEMO / "ted.sys1.detok.eng").read_text(encoding="utf-8").splitlines()
    for preset in ("nltk", "pycocoevalcap"):
        times = []
        for k in range(11):
            batch = slice(64 * k, 64 * (k + 1))
            start = time.perf_counter()
            meteor_score(hyps[batch], refs[batch], preset=preset)
            times.append(time.perf_counter() - start)
        print(f"  meteor_score(preset={preset!r}): first call {times[0]:.2f} s, "
              f"then {statistics.median(times[1:]) * 1000:.1f} ms per batch of 64 (median of 10)")


def run(scorer: str, system: str, jobs: int) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("METEOR_PURE", "PYTHONPATH")}
    if scorer == "drop-in (pure Python)":
        env["METEOR_PURE"] = "1"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, __file__, "--worker", scorer, "--system", system, "--jobs", str(jobs)],
                         capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # (the JVM is a child of the worker: counted)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {**json.loads(out.stdout.strip().splitlines()[-1]), "wall": wall, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1, help="the drop-in's processes (Meteor(jobs=N))")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--system", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker == "repeated":
        repeated_calls()
        return
    if args.worker:
        worker(args.worker, args.system, args.jobs)
        return
    if shutil.which("java") is None:
        sys.exit("needs Java and pycocoevalcap (the Java path is the peer)")
    sys.path.insert(0, str(ROOT))
    from meteor_core import _accel

    print(f"accelerator: {'compiled' if _accel.compiled_modules() else 'not built (both drop-in rows are pure Python)'}; "
          f"drop-in jobs {args.jobs}; {os.cpu_count()} cores; {args.rounds} rounds")
    run("drop-in", "sys1", args.jobs)  # the paraphrase table's parsed copy, as any earlier use leaves it
    results = {(s, system): [] for s in SCORERS for system in SYSTEMS}
    for r in range(args.rounds):
        order = SCORERS[r % len(SCORERS):] + SCORERS[:r % len(SCORERS)]
        for system in SYSTEMS:
            for scorer in order:
                results[scorer, system].append(run(scorer, system, args.jobs))
    print(f"\n{'scorer':24s} {'system':6s} {'start-up':>9s} {'scoring':>8s} {'process':>8s} {'cpu':>7s}  corpus score")
    for (scorer, system), runs in results.items():
        med = {k: statistics.median(x[k] for x in runs) for k in ("startup", "score", "wall", "cpu")}
        values = {x["value"] for x in runs}
        print(f"{scorer:24s} {system:6s} {med['startup']:8.2f}s {med['score']:7.2f}s {med['wall']:7.2f}s "
              f"{med['cpu']:6.1f}s  {' / '.join(map(repr, sorted(values)))}")
    print("\nJava's time / the drop-in's (median over rounds of the ratio within a round):")
    for scorer in SCORERS[1:]:
        for system in SYSTEMS:
            java, ours = results[SCORERS[0], system], results[scorer, system]
            ratio = {k: statistics.median(j[k] / o[k] for j, o in zip(java, ours)) for k in ("score", "wall", "cpu")}
            print(f"  {scorer:22s} {system}: scoring {ratio['score']:.2f}x, whole process {ratio['wall']:.2f}x, "
                  f"cpu {ratio['cpu']:.2f}x")
    print("\nRepeated calls in one process (a training loop):")
    sys.stdout.flush()
    subprocess.run([sys.executable, __file__, "--worker", "repeated"], cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
