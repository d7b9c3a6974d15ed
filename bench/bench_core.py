"""Segments per second: meteor_core (meteor2005 and nltk presets) vs NLTK's meteor_score,
measured in the same run on realistic TED segments (15-40 reference tokens).

Every scorer first sees every segment once (WordNet's and our word caches warm up alike);
then the scorers take turns, ROUNDS times, and the medians are compared, so that drift of
a noisy machine hits all of them equally."""
import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from nltk.translate.meteor_score import meteor_score  # noqa: E402

from meteor_core import MeteorConfig, score  # noqa: E402

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "ted-slk-eng"


def load_pairs(n: int) -> list[tuple[str, str]]:
    ref = (DATA / "ted.ref.eng").read_text().splitlines()
    pairs = [(h, r) for f in ("ted.sys1.eng", "ted.sys2.eng")
             for h, r in zip((DATA / f).read_text().splitlines(), ref) if 15 <= len(r.split()) <= 40]
    while len(pairs) < n:
        pairs += pairs[: n - len(pairs)]
    return pairs


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--segments", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    pairs = load_pairs(args.segments)
    c05, cn = MeteorConfig.meteor2005(), MeteorConfig.nltk()
    scorers = {
        "nltk meteor_score": lambda: [meteor_score([r.split()], h.split()) for h, r in pairs],
        "meteor2005 (optimal)": lambda: [score(h, [r], c05) for h, r in pairs],
        "nltk preset (greedy)": lambda: [score(h, [r], cn) for h, r in pairs],
    }
    for fn in scorers.values():
        fn()  # warm-up pass
    times = {name: [] for name in scorers}
    for _ in range(args.rounds):
        for name, fn in scorers.items():
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
    rates = {name: len(pairs) / statistics.median(ts) for name, ts in times.items()}
    base = rates["nltk meteor_score"]
    print(f"{len(pairs)} segments, median of {args.rounds} interleaved rounds")
    for name, rate in rates.items():
        print(f"{name:22s}{rate:8.0f} seg/s  {1e6 / rate:7.1f} us/seg  ratio {rate / base:.2f}x")


if __name__ == "__main__":
    main()
