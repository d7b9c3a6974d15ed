"""Segments per second: meteor_core (meteor2005 and nltk presets) vs NLTK's meteor_score,
measured in the same run on realistic TED segments (15-40 reference tokens). Prints medians."""
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from nltk.translate.meteor_score import meteor_score  # noqa: E402

from meteor_core import MeteorConfig, score  # noqa: E402

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "ted-slk-eng"


def main():
    ref = (DATA / "ted.ref.eng").read_text().splitlines()
    pairs = [(h, r) for f in ("ted.sys1.eng", "ted.sys2.eng")
             for h, r in zip((DATA / f).read_text().splitlines(), ref) if 15 <= len(r.split()) <= 40]
    while len(pairs) < 2000:
        pairs += pairs[: 2000 - len(pairs)]
    c05, cn = MeteorConfig.meteor2005(), MeteorConfig.nltk()
    for h, r in pairs[:200]:  # warm WordNet and caches for everyone
        score(h, [r], c05); meteor_score([r.split()], h.split())

    def rate(fn, runs=3):
        times = []
        for _ in range(runs):
            t = time.perf_counter(); fn(); times.append(time.perf_counter() - t)
        return len(pairs) / statistics.median(times)

    nltk_rate = rate(lambda: [meteor_score([r.split()], h.split()) for h, r in pairs])
    ours = rate(lambda: [score(h, [r], c05) for h, r in pairs])
    ours_nltk = rate(lambda: [score(h, [r], cn) for h, r in pairs])
    print(f"{len(pairs)} segments")
    print(f"nltk meteor_score   {nltk_rate:8.0f} seg/s")
    print(f"meteor2005 (optimal){ours:8.0f} seg/s  ratio {ours / nltk_rate:.2f}x")
    print(f"nltk preset         {ours_nltk:8.0f} seg/s  ratio {ours_nltk / nltk_rate:.2f}x")


if __name__ == "__main__":
    main()
