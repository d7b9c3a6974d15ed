"""Say so when text is plainly not in the language it is scored as.

Scoring German output as English (or the reverse) gives a number without an error: the stemmer,
the function words, the -norm rules and the parameters are all the wrong ones. The check counts,
in a sample of the text, the tokens that are function words of one language only, for each
language whose function-word list the Meteor 1.5 jar carries (English, Czech, French, Spanish,
German, Russian). When another language's words are frequent and the chosen language's rare, it
names that language. It never changes a score; the CLI and the app print its note.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

from . import jar_resources, languages

SAMPLE_TOKENS = 5_000  # enough to tell, cheap to count
MIN_TOKENS = 20  # fewer: no note (a short sentence proves nothing)
# A language's words must make at least this share of the sample for a note, and the chosen
# language's at most MAX_OWN_SHARE of it (or less than a quarter of the other's share).
MIN_OTHER_SHARE = 0.15
MAX_OWN_SHARE = 0.05
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_LISTED = ("en", "cs", "fr", "es", "de", "ru")  # the jar's non-empty function-word lists


@lru_cache(maxsize=1)
def _distinctive() -> dict[str, frozenset[str]]:
    """Each listed language's function words that are letters only and in no other list."""
    lists = {code: {w for w in jar_resources.function_words(code) if _WORD.fullmatch(w)} for code in _LISTED}
    return {code: frozenset(words - set().union(*(other for c, other in lists.items() if c != code)))
            for code, words in lists.items()}


def shares(texts: Iterable[str]) -> tuple[int, dict[str, float]]:
    """(words sampled, each listed language's share of them) over the first SAMPLE_TOKENS words."""
    counts = dict.fromkeys(_LISTED, 0)
    distinctive = _distinctive()
    total = 0
    for text in texts:
        for word in _WORD.findall(text.lower()):
            total += 1
            for code, words in distinctive.items():
                if word in words:
                    counts[code] += 1
            if total >= SAMPLE_TOKENS:
                break
        if total >= SAMPLE_TOKENS:
            break
    return total, {code: (n / total if total else 0.0) for code, n in counts.items()}


def mismatch_note(texts: Iterable[str], language: str,
                  fix: str = "choose the language of the translations (--lang {code})") -> str | None:
    """A note when ``texts`` look plainly like another language than ``language``, else None
    (also None without a jar, whose function-word lists the check reads)."""
    try:
        total, found = shares(texts)
    except jar_resources.JarMissingError:
        return None
    if total < MIN_TOKENS:
        return None
    chosen = languages.language(language)
    other, share = max(((c, s) for c, s in found.items() if c != chosen.code), key=lambda cs: cs[1])
    own = found.get(chosen.code)
    if share < MIN_OTHER_SHARE or (own is not None and own > max(MAX_OWN_SHARE, share / 4)):
        return None
    guess = languages.language(other)
    return (f"the text looks like {guess.display}, not {chosen.display}: {share:.0%} of its words are "
            f"{guess.display} function words" + (f" and {own:.0%} {chosen.display} ones" if own is not None else "")
            + f". It is scored with {chosen.display} settings; " + fix.format(code=guess.code, name=guess.display))
