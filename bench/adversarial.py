"""Adversarial segments, one definition for the benchmark (bench_core.py prints their times) and
the tests (tests/test_bounds.py bounds them): repeated words, tiny vocabularies, 1,000 tokens a
side.

Run directly, it prints per case and preset the CPU time, the search's work units
(align.search.Budget) and why the search stopped, in this process's build (compiled where
built, pure Python with METEOR_PURE=1):

    .venv/bin/python bench/adversarial.py [--presets meteor2005,meteor15] [--calibrate]

--calibrate runs each case with a budget ten times larger and prints, per place in the code
that spends work, the units it spent and the CPU time between its calls and the call before:
every place should cost about the same time per unit (the unit costs are chosen for that), and
WORK_LIMIT is set so that the slowest case ends within ~0.3 s of CPU in pure Python.
"""
import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path


def _word_among_crossing_pairs(copies: int, pairs: int) -> tuple[str, str]:
    """A word ``copies`` times against one copy fewer, with ``pairs`` other words (twice in the
    hypothesis, once in the reference) placed so that they cross it: one group of parts whose
    large part has ~copies² candidate pairs."""
    hyp, ref = ["the"] * copies, ["the"] * (copies - 1)
    for k in range(pairs):
        at_h, at_r = k * 5 % len(hyp), (k * 7 + 3) % len(ref)
        hyp[at_h:at_h] = [f"w{k}", f"w{k}"]
        ref[at_r:at_r] = [f"w{k}"]
    return " ".join(hyp), " ".join(ref)


def cases() -> dict[str, tuple[str, str]]:
    """Case name -> (hypothesis, reference); the same text on every call (seeded)."""
    rng = random.Random(1)
    vocab4 = ["the", "a", "of", "cat"]
    words = [f"w{k % 300}" for k in range(1000)]
    rng.shuffle(words)
    return {
        '400 x "the"': (" ".join(["the"] * 400), " ".join(["the"] * 390)),
        "1,000 tokens, 4 words": (" ".join(rng.choice(vocab4) for _ in range(1000)),
                                  " ".join(rng.choice(vocab4) for _ in range(1000))),
        "1,000 tokens, 300 words": (" ".join(words), " ".join(sorted(words))),
        "1,000 tokens, 2 words, stems and synonyms": (" ".join(rng.choice(["big", "large"]) for _ in range(1000)),
                                                      " ".join(rng.choice(["bigger", "larger", "big"]) for _ in range(1000))),
        "repeated phrase": (" ".join(["the cat sat on the mat ."] * 100), " ".join(["on the mat the cat sat ."] * 90)),
        # One word 999 times against 998, then a word that can link to it: only links decide
        # (search._best_links), over a part whose short side is 998 tokens deep.
        # ~300,000 candidate pairs in one part: its cost matrix against the others took 1.5 GB.
        '548 x "the" among 100 crossing words': _word_among_crossing_pairs(548, 100),
        "999 x \"the\" then a link": (" ".join(["the"] * 999 + ["end", "end"]), " ".join(["the"] * 998 + ["end"])),
    }


def _ready(presets: list[str]) -> None:
    """Resources loaded and numpy imported before any clock: a user's run loads them once."""
    import meteor_core.align.pairwise  # noqa: F401
    from meteor_core import MeteorConfig, resources, score

    for preset in presets:
        config = MeteorConfig.preset(preset)
        if config.uses_synonyms:
            resources.load_synonyms(config.synonym_source)
        score("Mr. Smith left.", ["Mr. Smith left."], config)


def measure(presets: list[str], budget_class=None) -> list[tuple]:
    """(case, preset, CPU seconds, work units, stopped_by) for every case and preset."""
    from meteor_core import MeteorConfig, score, scorer
    from meteor_core.align import search

    made = []

    class Counted(budget_class or search.Budget):
        __slots__ = ()

        def __init__(self, *args):
            super().__init__(*args)
            made.append(self)

    real = scorer.Budget
    scorer.Budget = Counted
    rows = []
    try:
        for name, (hyp, ref) in cases().items():
            for preset in presets:
                made.clear()
                start = time.thread_time()
                result = score(hyp, [ref], MeteorConfig.preset(preset))
                seconds = time.thread_time() - start
                rows.append((name, preset, seconds, made[0].used if made else 0, result.stopped_by))
    finally:
        scorer.Budget = real
    return rows


def calibrate(presets: list[str]) -> None:
    from meteor_core.align import search

    sites = defaultdict(lambda: [0, 0.0, 0])  # code name -> [units, seconds, calls]

    class Timed(search.Budget):
        """A budget ten times the limit that times the work between two calls of spend()."""

        __slots__ = ("last",)

        def __init__(self):
            super().__init__(10 * search.WORK_LIMIT)
            self.last = time.thread_time()

        def spend(self, units):
            now = time.thread_time()
            site = sites[sys._getframe(1).f_code.co_name]
            site[0] += units
            site[1] += now - self.last
            site[2] += 1
            exhausted = search.Budget.spend(self, units)
            self.last = time.thread_time()
            return exhausted

    rows = measure(presets, Timed)
    print(f"{'case':44s}{'preset':>12s}{'CPU s':>9s}{'units':>13s}{'us/unit':>9s}")
    for name, preset, seconds, units, _ in rows:
        print(f"{name:44s}{preset:>12s}{seconds:9.3f}{units:13,d}{1e6 * seconds / max(units, 1):9.3f}")
    print(f"\n{'where (function)':32s}{'units':>14s}{'CPU s':>9s}{'calls':>11s}{'us/unit':>9s}")
    for name, (units, seconds, calls) in sorted(sites.items(), key=lambda item: -item[1][1]):
        print(f"{name:32s}{units:14,d}{seconds:9.3f}{calls:11,d}{1e6 * seconds / max(units, 1):9.3f}")


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presets", default="meteor2005,meteor15")
    parser.add_argument("--calibrate", action="store_true")
    args = parser.parse_args()
    presets = [p for p in args.presets.split(",") if p]
    from meteor_core import _accel
    from meteor_core.align import search

    _ready(presets)
    compiled = _accel.compiled_modules()
    print(f"{'compiled: ' + ', '.join(m.rsplit('.', 1)[-1] for m in compiled) if compiled else 'pure Python'}; "
          f"work limit {search.WORK_LIMIT:,} units a segment")
    if args.calibrate:
        return calibrate(presets)
    print(f"{'case':44s}{'preset':>12s}{'CPU s':>9s}{'units':>13s}  stopped_by")
    for name, preset, seconds, units, stopped_by in measure(presets):
        print(f"{name:44s}{preset:>12s}{seconds:9.3f}{units:13,d}  {stopped_by}")


if __name__ == "__main__":
    main()
