"""Issue 4's target: 3,000 segments x 2 systems scored (meteor2005) and bootstrapped in under 30 s.

The TED demo set (1,200 segments, all lengths, 2 systems) is repeated to 3,000 segments. Prints
the wall time of scoring, of the 1,000-sample paired bootstrap and of the two together."""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from meteor_core import MeteorConfig  # noqa: E402
from meteor_core.analysis.compare import compare_systems, paired_bootstrap  # noqa: E402
from meteor_core.resources import wordnet  # noqa: E402

DEMO = Path(__file__).resolve().parent.parent / "demo" / "ted-slk-eng"
N = 3000


def main():
    def lines(name):
        text = (DEMO / name).read_text().splitlines()
        return (text * (N // len(text) + 1))[:N]

    refs = [[r] for r in lines("ted.ref.detok.eng")]
    systems = {"sys1": lines("ted.sys1.detok.eng"), "sys2": lines("ted.sys2.detok.eng")}
    t0 = time.perf_counter()
    wordnet()
    t1 = time.perf_counter()
    comparison = compare_systems(systems, refs, MeteorConfig.meteor2005())
    t2 = time.perf_counter()
    test = paired_bootstrap(comparison, "sys1", "sys2", samples=1000)
    t3 = time.perf_counter()
    unproven = sum(not s.optimal for r in comparison.results.values() for s in r.segments)
    print(f"{N} segments x 2 systems (meteor2005, optimal search)")
    print(f"WordNet load      {t1 - t0:6.2f} s")
    print(f"scoring           {t2 - t1:6.2f} s  ({2 * N / (t2 - t1):,.0f} segments/s; {unproven} not proven optimal)")
    print(f"bootstrap (1000)  {t3 - t2:6.2f} s")
    print(f"total             {t3 - t0:6.2f} s  (target < 30 s: {'met' if t3 - t0 < 30 else 'NOT met'})")
    print(test.summary())


if __name__ == "__main__":
    main()
