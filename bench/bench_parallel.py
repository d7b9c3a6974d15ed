"""Scaling from 1 to 2 processes: local jobs (meteor_core.parallel) and Dask workers
(meteor_core.dask_runner on a LocalCluster), measured in the same run.

    .venv/bin/python bench/bench_parallel.py [--repeat 2] [--rounds 5] [--preset meteor2005] [--no-dask] [--cli]

Data: the whole shared TED set, tokenised (../shared/data/ted-slk-eng: sys1 and sys2 against
the reference, 2,400 pairs of every length), repeated ``--repeat`` times. Every runner is
started and warmed first (a pass over the data: WordNet loaded in every process, per-word
memos filled), then the runners take turns, in rotating order, for ``--rounds`` rounds; each
round gives a speed-up (time with 1 / time with 2) and the medians are printed. Results are
checked to equal the one-job run's. ``--cli`` also times whole runs of `python -m meteor_core
--jobs 1` and `--jobs 2` in fresh processes (start, WordNet, scoring, output), as a user sees them,
with the CPU time of all their processes (``--cli-only``: only those).

On a machine shared with other work, two processes get two cores only when the others are idle:
read the ratios, measured in the same run, rather than the times; the "loop" rows give the
machine's own ceiling in the same rounds (a pure-Python loop in 1 process vs 2).
"""
from __future__ import annotations

import argparse
import multiprocessing
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from meteor_core import MeteorConfig, parallel  # noqa: E402
from meteor_core.scorer import score_corpus  # noqa: E402

TED = ROOT.parent / "shared" / "data" / "ted-slk-eng"


def load(repeat: int) -> tuple[list[str], list[list[str]]]:
    refs = (TED / "ted.ref.eng").read_text(encoding="utf-8").splitlines()
    hyps = []
    for system in ("sys1", "sys2"):
        hyps += (TED / f"ted.{system}.eng").read_text(encoding="utf-8").splitlines()
    return hyps * repeat, [[r] for r in refs] * 2 * repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--preset", default="meteor2005")
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--cli", action="store_true")
    parser.add_argument("--cli-only", action="store_true", help="only the fresh-process CLI rounds")
    args = parser.parse_args()
    config = MeteorConfig.preset(args.preset)
    hyps, refs = load(args.repeat)
    if args.cli_only:
        return cli_rounds(hyps, refs, args.rounds, args.preset)
    print(f"{len(hyps):,} TED pairs (tokenised, 2,400 x {args.repeat}), preset {args.preset}, "
          f"{parallel.available_cores()} cores, {args.rounds} rounds after a warm-up pass")

    # The machine's own ceiling, measured in the same rounds: a pure-Python loop, twice in this
    # process vs once in each of 2 processes (other users' work takes cores away from both).
    loop_pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork"))
    runners = {"loop x1": lambda: [spin(LOOP) for _ in range(2)],
               "loop x2": lambda: list(loop_pool.map(spin, [LOOP, LOOP]))}
    runners.update({f"local jobs={j}": (lambda j=j: score_corpus(hyps, refs, config, jobs=j)) for j in (1, 2)})
    reference = warm_up(runners, None)  # the local pool first: it forks while no other thread runs
    clusters = []
    if not args.no_dask:
        import logging
        import warnings

        from dask.distributed import Client, LocalCluster

        logging.getLogger("distributed").setLevel(logging.ERROR)  # no INFO lines when clusters close
        warnings.filterwarnings("ignore", message="Port .* is already in use")  # a dashboard elsewhere

        from meteor_core.dask_runner import score_corpus_dask

        for n in (1, 2):
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                                   silence_logs=40)
            client = Client(cluster)
            clusters += [client, cluster]
            runner = {f"dask workers={n}": lambda c=client: score_corpus_dask(c, hyps, refs, config)}
            warm_up(runner, reference)
            runners.update(runner)

    times: dict[str, list[float]] = {name: [] for name in runners}
    names = list(runners)
    for k in range(args.rounds):
        for name in names[k % len(names):] + names[:k % len(names)]:
            started = time.perf_counter()
            runners[name]()
            times[name].append(time.perf_counter() - started)

    print(f"\n{'runner':<18} {'median s':>8} {'pairs/s':>8}")
    for name, values in times.items():
        speed = "" if name.startswith("loop") else f"{len(hyps) / statistics.median(values):8.0f}"
        print(f"{name:<18} {statistics.median(values):8.2f} {speed}")
    print("\nspeed-up from 1 to 2 processes (median of the per-round ratios):")
    pairs = [("loop x1", "loop x2"), ("local jobs=1", "local jobs=2")] + ([] if args.no_dask else [("dask workers=1", "dask workers=2"),
                                                                            ("local jobs=1", "dask workers=2")])
    for one, two in pairs:
        ratios = [a / b for a, b in zip(times[one], times[two])]
        print(f"  {two} vs {one}: {statistics.median(ratios):.2f}x  (rounds: {', '.join(f'{r:.2f}' for r in ratios)})")
    for item in clusters:
        item.close()
    loop_pool.shutdown()
    if args.cli:
        cli_rounds(hyps, refs, args.rounds, args.preset)


LOOP = 5_000_000


def spin(n: int) -> int:
    total = 0
    for k in range(n):
        total += k * k
    return total


def warm_up(runners, reference):
    """Run each once (start pools and workers, load resources, fill memos); check the results."""
    for name, run in runners.items():
        started = time.perf_counter()
        result = run()
        if name.startswith("loop"):
            continue
        result = [s.to_dict() for s in result.segments]
        reference = reference or result
        same = "same results" if result == reference else "RESULTS DIFFER (a segment hit the clock bound?)"
        print(f"  warm-up {name:<16} {time.perf_counter() - started:6.1f} s  {same}", flush=True)
    return reference


def cli_rounds(hyps, refs, rounds: int, preset: str) -> None:
    """Whole CLI runs in fresh processes, --jobs 1 and --jobs 2 taking turns. Besides the wall
    time, the CPU time of the CLI and its workers together: what a second process costs in
    work (per-process memos filled twice, results pickled), whatever the machine's load."""
    with tempfile.TemporaryDirectory() as tmp:
        hyp, ref = Path(tmp) / "hyp", Path(tmp) / "ref"
        hyp.write_text("\n".join(hyps) + "\n", encoding="utf-8")
        ref.write_text("\n".join(r[0] for r in refs) + "\n", encoding="utf-8")
        times, cpu = {1: [], 2: []}, {1: [], 2: []}
        for k in range(rounds):
            for jobs in ((1, 2) if k % 2 == 0 else (2, 1)):
                started, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
                subprocess.run([sys.executable, "-m", "meteor_core", "--hyp", str(hyp), "--ref", str(ref),
                                "--preset", preset, "--jobs", str(jobs), "--format", "jsonl"],
                               cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                times[jobs].append(time.perf_counter() - started)
                cpu[jobs].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    ratios = [a / b for a, b in zip(times[1], times[2])]
    work = [b / a for a, b in zip(cpu[1], cpu[2])]
    print(f"\nCLI (fresh process, --format jsonl, {len(hyps):,} pairs): --jobs 1 median {statistics.median(times[1]):.1f} s "
          f"({statistics.median(cpu[1]):.1f} CPU s), --jobs 2 median {statistics.median(times[2]):.1f} s "
          f"({statistics.median(cpu[2]):.1f} CPU s in all processes)")
    print(f"  speed-up {statistics.median(ratios):.2f}x (rounds: {', '.join(f'{r:.2f}' for r in ratios)})")
    print(f"  CPU time with 2 jobs / with 1: {statistics.median(work):.2f} (rounds: {', '.join(f'{r:.2f}' for r in work)})"
          f"; on two idle cores that allows up to {2 / statistics.median(work):.2f}x")


if __name__ == "__main__":
    main()
