"""meteor15 vs NLTK's meteor_score (and the Meteor 1.5 jar where Java is present), whole TED set.

Measured as a user's run: every scorer scores all 2,400 pairs (1,200 segments x 2 systems, every
length, tokenised text) in a fresh process, after loading its resources (NLTK's WordNet; our
synonyms, function words, tokenizer), with its per-word caches cold. The scorers take turns,
ROUNDS times, in rotating order, and the figures quoted are medians over the rounds of ratios
taken within one round. CPU time of the scoring process is the headline (a busy machine stretches
wall-clock time unevenly); wall time is printed beside it. The jar (java -jar meteor-1.5.jar
-l en -norm -m "exact stem synonym") is timed on the same files, minus its own start-up (the
same command on one segment), when Java and a jar are found."""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.bench_core import BUCKETS, load_pairs  # noqa: E402  (the same whole TED set and buckets)

SCORERS = ("nltk meteor_score", "meteor15", "meteor15 (wordnet)")


def worker(name: str) -> None:
    """Score every pair once, printing per-pair (wall, cpu) seconds as JSON."""
    pairs = load_pairs()
    if name == "nltk meteor_score":
        from nltk.corpus import wordnet
        from nltk.translate.meteor_score import meteor_score
        wordnet.ensure_loaded()
        wordnet.synsets("dog")

        def one(h, r):
            return meteor_score([r.split()], h.split())
    else:
        from meteor_core import MeteorConfig, resources, score
        from meteor_core.tokenize import meteor_norm
        config = MeteorConfig.meteor15(**({"synonym_source": "wordnet"} if "wordnet" in name else {}))
        resources.load_synonyms(config.synonym_source)
        resources.function_words(config.function_words)
        meteor_norm("Mr. Smith.")  # the non-breaking prefixes

        def one(h, r):
            return score(h, [r], config)
    wall, cpu, kept = [], [], []
    clock, cpu_clock = time.perf_counter, time.process_time
    for h, r in pairs:
        w, c = clock(), cpu_clock()
        kept.append(one(h, r))  # results stay alive, as in scoring a corpus
        cpu.append(cpu_clock() - c)
        wall.append(clock() - w)
    print(json.dumps({"wall": wall, "cpu": cpu, "signature": getattr(kept[0], "signature", "")}))


def run_worker(name: str) -> dict:
    out = subprocess.run([sys.executable, __file__, "--worker", name], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def jar_seconds(jar: Path, pairs) -> tuple[float, float] | None:
    """(wall, cpu) seconds the jar spends scoring the pairs, its start-up and loading subtracted."""
    def timed(n: int) -> tuple[float, float]:
        with tempfile.TemporaryDirectory() as tmp:
            h, r = Path(tmp) / "hyp", Path(tmp) / "ref"
            h.write_text("\n".join(p[0] for p in pairs[:n]) + "\n", encoding="utf-8")
            r.write_text("\n".join(p[1] for p in pairs[:n]) + "\n", encoding="utf-8")
            before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
            subprocess.run(["java", "-Xmx2G", "-jar", str(jar), str(h), str(r), "-l", "en", "-norm",
                            "-m", "exact stem synonym"], capture_output=True, check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            return time.perf_counter() - start, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    try:
        full, one = timed(len(pairs)), timed(1)
    except (OSError, subprocess.CalledProcessError):
        return None
    return full[0] - one[0], full[1] - one[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-jar", action="store_true", help="do not time the Meteor 1.5 jar")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.worker)
    from meteor_core.jar_resources import find_jar
    pairs = load_pairs()
    jar = None if args.no_jar else find_jar()
    names = list(SCORERS) + (["jar"] if jar else [])
    lengths = [len(r.split()) for _, r in pairs]
    rounds = []
    for k in range(args.rounds):
        order = names[k % len(names):] + names[: k % len(names)]
        measured = {}
        for name in order:
            measured[name] = jar_seconds(jar, pairs) if name == "jar" else run_worker(name)
        rounds.append(measured)
        print(f"round {k + 1}: " + ", ".join(
            f"{n} {sum(m['cpu']):.2f}s cpu / {sum(m['wall']):.2f}s wall" if n != "jar" and m
            else f"jar {m[1]:.2f}s cpu / {m[0]:.2f}s wall" if m else "jar failed"
            for n, m in measured.items()), flush=True)
    print(f"\n{len(pairs)} pairs (TED, 2 systems, tokenised), {args.rounds} rounds, fresh process each, caches cold")
    print(f"signature: {rounds[0]['meteor15']['signature']}")

    def ratio(name, clock, keep=lambda k: True):
        return statistics.median(
            sum(t for k, t in enumerate(r["nltk meteor_score"][clock]) if keep(k))
            / sum(t for k, t in enumerate(r[name][clock]) if keep(k)) for r in rounds)
    print(f"\n{'speed vs NLTK (median of rounds)':34s} {'cpu':>7s} {'wall':>7s}")
    for name in SCORERS[1:]:
        print(f"{name:34s} {ratio(name, 'cpu'):6.2f}x {ratio(name, 'wall'):6.2f}x")
    if jar and all(r["jar"] for r in rounds):
        cpu = statistics.median(sum(r["nltk meteor_score"]["cpu"]) / r["jar"][1] for r in rounds)
        wall = statistics.median(sum(r["nltk meteor_score"]["wall"]) / r["jar"][0] for r in rounds)
        print(f"{'Meteor 1.5 jar (start-up excluded)':34s} {cpu:6.2f}x {wall:6.2f}x")
        ours = statistics.median(r["jar"][0] / sum(r["meteor15"]["wall"]) for r in rounds)
        print(f"meteor15 vs the jar (wall): {ours:.2f}x")
    print(f"\n{'reference tokens':18s} {'pairs':>6s}" + "".join(f" {n + ' (cpu)':>26s}" for n in SCORERS[1:]))
    for low, high in BUCKETS:
        keep = lambda k, low=low, high=high: low <= lengths[k] <= high  # noqa: E731
        label = f"{low}-{high}" if high < 10**9 else f"{low}+"
        print(f"{label:18s} {sum(map(keep, range(len(pairs)))):6d}"
              + "".join(f" {ratio(n, 'cpu', keep):25.2f}x" for n in SCORERS[1:]))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
