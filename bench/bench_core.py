"""Segments per second: meteor_core (meteor2005 and nltk presets) vs NLTK's meteor_score,
measured in the same run on realistic TED segments (15-40 reference tokens).

Every scorer first sees every segment once (WordNet's and our word caches warm up alike).
Then the segments are cut into blocks and the scorers take turns on each block, in rotating
order, ROUNDS times over: a slow moment of a noisy machine hits the scorers timed next to each
other alike. Printed: each scorer's median speed, and the median of its per-block speed ratio
to NLTK (the figure to quote)."""
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
    return pairs[:n]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--segments", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--block", type=int, default=250, help="segments per timed block")
    args = parser.parse_args()
    pairs = load_pairs(args.segments)
    c05, cn = MeteorConfig.meteor2005(), MeteorConfig.nltk()
    scorers = {
        "nltk meteor_score": lambda block: [meteor_score([r.split()], h.split()) for h, r in block],
        "meteor2005 (optimal)": lambda block: [score(h, [r], c05) for h, r in block],
        "nltk preset (greedy)": lambda block: [score(h, [r], cn) for h, r in block],
    }
    for fn in scorers.values():
        fn(pairs)  # warm-up pass
    names = list(scorers)
    blocks = [pairs[k:k + args.block] for k in range(0, len(pairs), args.block)]
    per_block = {name: [] for name in names}  # seconds per segment, block by block
    for r in range(args.rounds):
        kept = {name: [] for name in names}  # results stay alive, as in scoring a whole corpus
        for b, block in enumerate(blocks):
            shift = (r + b) % len(names)
            for name in names[shift:] + names[:shift]:
                t = time.perf_counter()
                kept[name].append(scorers[name](block))
                per_block[name].append((time.perf_counter() - t) / len(block))
    base = per_block["nltk meteor_score"]
    print(f"{len(pairs)} segments in blocks of {args.block}, {args.rounds} rounds, turns rotating")
    for name in names:
        us = statistics.median(per_block[name]) * 1e6
        ratio = statistics.median(b / t for b, t in zip(base, per_block[name]))
        print(f"{name:22s}{1e6 / us:8.0f} seg/s  {us:7.1f} us/seg  speed-up vs NLTK {ratio:.2f}x")


if __name__ == "__main__":
    main()
