"""Adversarial segments, one definition for the benchmark (bench_core.py prints their times) and
the tests (tests/test_bounds.py asserts a generous bound on them): repeated words, tiny
vocabularies, 1,000 tokens a side."""
import random


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
