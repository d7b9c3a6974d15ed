"""Instructions executed per segment by a preset (meteor2005 by default; scoring only), counted by
valgrind's callgrind: deterministic to ~0.1%, where timings on a shared machine drift by 10-50%.
Compare two versions by running this in each checkout. Needs valgrind (apt-get install valgrind);
takes about a minute.

The script runs itself under callgrind with instrumentation off, loads WordNet and warms the
caches, then switches instrumentation on for the timed passes only. With --cold the per-word
caches stay cold and one pass is counted, as bench_core.py's user's run has it (resources loaded
first: WordNet, the tokenizer's tables)."""
import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def child(segments: int, passes: int, preset: str, ready: Path, go: Path, cold: bool = False) -> None:
    from bench_core import _scorer, load_pairs
    from meteor_core import MeteorConfig, score

    pairs, config = load_pairs()[:segments], MeteorConfig.preset(preset)  # the shared TED set, in file order
    if cold:
        _scorer(preset)  # resources loaded as bench_core loads them; word caches left cold
    else:
        for h, r in pairs:  # warm-up: WordNet loaded, word caches filled
            score(h, [r], config)
    ready.touch()
    while not go.exists():
        time.sleep(0.1)
    kept = []  # results stay alive, as in a corpus run
    for _ in range(passes):
        kept.append([score(h, [r], config) for h, r in pairs])
    cut = sum(not result.optimal for result in kept[-1])
    if cut:
        print(f"warning: {cut} segments cut by the search budget", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--segments", type=int, default=2400, help="the first N pairs of the whole TED set (2,400)")
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--preset", default="meteor2005", choices=["meteor2005", "nltk", "meteor15"])
    parser.add_argument("--cold", action="store_true", help="one pass with the per-word caches cold (a user's run)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold:
        args.passes = 1
    if args.child:
        return child(args.segments, args.passes, args.preset, Path(args.child[0]), Path(args.child[1]), args.cold)
    with tempfile.TemporaryDirectory() as tmp:
        ready, go, out = Path(tmp, "ready"), Path(tmp, "go"), Path(tmp, "callgrind.out")
        proc = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
             sys.executable, __file__, "--segments", str(args.segments), "--passes", str(args.passes),
             "--preset", args.preset, *(["--cold"] if args.cold else []),
             "--child", str(ready), str(go)], stderr=subprocess.DEVNULL)
        while not ready.exists():
            if proc.poll() is not None:
                sys.exit("the scoring process ended early (is valgrind installed?)")
            time.sleep(0.5)
        subprocess.run(["callgrind_control", "-i", "on", str(proc.pid)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        go.touch()
        proc.wait()
        totals = [line for line in out.read_text().splitlines() if line.startswith(("summary:", "totals:"))]
        instructions = int(totals[0].split()[1])
    segments = min(args.segments, 2400)
    print(f"{args.preset}: {instructions / (segments * args.passes):,.0f} instructions a segment "
          f"({segments} segments x {args.passes} passes, {'caches cold, ' if args.cold else ''}scoring only)")


if __name__ == "__main__":
    main()
