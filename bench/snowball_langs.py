"""meteor_core.snowball_langs against the Meteor 1.5 jar's stemmers and NLTK's, per language.

    python bench/snowball_langs.py [LANGUAGE ...] [--wordlist large] [--repeats N]

Printed per language (Java and the jar needed for the agreement columns):
  real       : wordfreq's list of the language (--wordlist: "small", the test's, 26k-63k words, or
               "large", 267k-734k words, where wordfreq has one: not for da, hu, ro, tr)
  made-up    : the made-up strings of tests/jar_oracle.py (made from the real words)
  port != jar: how many real and made-up words the port stems differently from the jar (0 is the target)
  nltk != jar: how many real words NLTK's SnowballStemmer stems differently from the jar
  us/word    : median time per word over the first 20,000 real words, the port and NLTK, measured
               in the same run (one warm-up pass each, so the first-use costs are not counted),
               and their ratio
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
import jar_oracle  # noqa: E402
from meteor_core import snowball_langs  # noqa: E402


def _per_word_us(stem, words, repeats: int) -> float:
    for w in words:  # warm-up
        stem(w)
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        for w in words:
            stem(w)
        runs.append(time.perf_counter() - start)
    return statistics.median(runs) / len(words) * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("languages", nargs="*", default=list(snowball_langs.LANGUAGES))
    parser.add_argument("--wordlist", choices=("small", "large"), default="small")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    from nltk.stem.snowball import SnowballStemmer

    java = jar_oracle.java_status() is None
    if not java:
        print(f"(no agreement columns: {jar_oracle.java_status()})")
    print(f"{'language':<11} {'real':>7} {'made-up':>8} {'port != jar':>12} {'nltk != jar':>12} "
          f"{'port us':>8} {'nltk us':>8} {'ratio':>6}")
    import wordfreq

    for language in args.languages:
        if jar_oracle.WORDFREQ_CODES[language] not in wordfreq.available_languages(args.wordlist):
            print(f"{language:<11} (wordfreq has no {args.wordlist} list)")
            continue
        stem = snowball_langs.stemmer(language)
        real = jar_oracle.real_words(language, args.wordlist)
        made = jar_oracle.made_up_words(language, real)
        nltk_stem = SnowballStemmer(language).stem if language in SnowballStemmer.languages else None
        port_differs = nltk_differs = "-"
        if java:
            words = real + made
            expected = jar_oracle.jar_stems(language, words, timeout=900)
            port_differs = sum(stem(w) != e for w, e in zip(words, expected))
            if nltk_stem:
                nltk_differs = sum(nltk_stem(w) != e for w, e in zip(real, expected))
        port_us = _per_word_us(stem, real[:20_000], args.repeats)
        nltk_us = _per_word_us(nltk_stem, real[:20_000], args.repeats) if nltk_stem else None
        print(f"{language:<11} {len(real):>7} {len(made):>8} {port_differs:>12} {nltk_differs:>12} {port_us:>8.1f} "
              + (f"{nltk_us:>8.1f} {port_us / nltk_us:>6.2f}" if nltk_us else f"{'(none)':>8} {'-':>6}"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
