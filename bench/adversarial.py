"""Adversarial segments, one definition for the benchmark (bench_core.py prints their times) and
the tests (tests/test_bounds.py asserts a generous bound on them): repeated words, tiny
vocabularies, 1,000 tokens a side."""
import random


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
        "999 x \"the\" then a link": (" ".join(["the"] * 999 + ["end", "end"]), " ".join(["the"] * 998 + ["end"])),
    }
