"""The Porter stemmer, giving exactly NLTK's ``PorterStemmer().stem(word)`` for every string, about
nine times faster and without importing NLTK.

NLTK's stemmer walks tables of (suffix, replacement, condition) rules, calling a lambda and building
a consonant/vowel string for each test; stemming costs ~10 us a word, and the metric stems every
new word it meets. Here each step looks at the word's last one or two letters, tests only the
suffixes that end in them, in NLTK's order, and "m > 0" or "m > 1" is one regular-expression
match. NLTK's own quirks are kept, each marked where it is kept (tests/test_porter.py checks
them against NLTK on all of WordNet's lemmas and on generated strings). Where the accelerator is
built, ASCII words are stemmed by the same steps on a C buffer (its C twin, _porter_stem.pyx).

``stem(word)`` is NLTK's default mode (NLTK_EXTENSIONS, the one meteor_score uses);
``stem(word, nltk_extensions=False)`` is its ORIGINAL_ALGORITHM mode (the 1980 paper).

Porter's definitions: a vowel is a, e, i, o, u, or a y that follows a consonant; anything else
(other letters, digits, any other character) is a consonant, and so is a y at the start of a word.
The measure m of a string is the number of times a vowel is followed by a consonant.
"""
from __future__ import annotations

import re

from . import _accel

# NLTK_EXTENSIONS' irregular forms, looked up (lower-cased) before any rule.
_IRREGULAR = {
    "sky": "sky", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie", "news": "news",
    "innings": "inning", "inning": "inning", "outings": "outing", "outing": "outing",
    "cannings": "canning", "canning": "canning", "howe": "howe", "proceed": "proceed",
    "exceed": "exceed", "succeed": "succeed",
}

# The measure, tested by matching from the start of the word: a y there is a consonant (taken
# once, possessively, so that it is never retried as a vowel), then each vowel-consonant pair is
# [non-vowels] [a vowel, y included: it follows a consonant] [a, e, i, o, u: a y after a vowel
# is a consonant] [the consonant]. Every character has one way to match, as Porter's
# definitions give it one role.
_PAIR = "[^aeiouy]*[aeiouy][aeiou]*[^aeiou]"
_measure_is_positive = re.compile(f"y?+{_PAIR}").match  # m > 0
_measure_exceeds_1 = re.compile(f"y?+{_PAIR}{_PAIR}").match  # m > 1
# A vowel: a, e, i, o, u, or a y after any character (without a, e, i, o, u, the first y of a
# run follows a consonant, and a run from the start has its vowel at position 1).
_contains_vowel = re.compile("(?s)[aeiou]|.y").search


def _is_consonant(s: str, i: int) -> bool:
    """Whether s[i] is a consonant, for i >= 0."""
    c = s[i]
    if c in "aeiou":
        return False
    if c != "y":
        return True
    # A y is the opposite of the letter before it (a consonant at the start of the word).
    j = i
    while j > 0 and s[j] == "y":
        j -= 1
    return (s[j] not in "aeiou") != ((i - j) & 1 == 1)


def _ends_cvc(s: str, nltk_extensions: bool) -> bool:
    """Porter's *o: s ends consonant-vowel-consonant, the last not w, x or y; NLTK's extension
    also counts a two-letter vowel-consonant (without the w, x, y exception)."""
    n = len(s)
    if n >= 3:
        return (s[-1] not in "wxy" and _is_consonant(s, n - 1) and not _is_consonant(s, n - 2)
                and _is_consonant(s, n - 3))
    return nltk_extensions and n == 2 and not _is_consonant(s, 0) and _is_consonant(s, 1)


def stem(word: str, nltk_extensions: bool = True) -> str:
    """NLTK's ``PorterStemmer(mode).stem(word)`` (to_lowercase=True): mode NLTK_EXTENSIONS, or
    ORIGINAL_ALGORITHM when ``nltk_extensions`` is False."""
    if _C_STEM is not None and word.isascii():
        return _C_STEM(word, nltk_extensions)
    s = word.lower()
    if nltk_extensions:
        if s in _IRREGULAR:
            return _IRREGULAR[s]
        if len(word) <= 2:  # (NLTK measures the word as given, before lower-casing)
            return s
    # The steps run in one function, each looking at the last letter or two first: most words
    # end in none of a step's suffixes, and comparing a letter costs less than a call.
    # Step 1a: sses -> ss, ies -> i, ss -> ss, s -> ''.
    last = s[-1:]
    if last == "s":
        if nltk_extensions and len(s) == 4 and s.endswith("ies"):
            s = s[:-1]  # "ties" -> "tie", not "ti"
        elif s.endswith(("sses", "ies")):
            s = s[:-2]
        elif not s.endswith("ss"):
            s = s[:-1]
        last = s[-1:]
    # Step 1b: -eed, -ed, -ing.
    if last == "d":
        if nltk_extensions and s.endswith("ied"):
            s = s[:-1] if len(s) == 4 else s[:-2]  # "died" -> "die", "spied" -> "spi"
        elif s.endswith("eed"):
            if _measure_is_positive(s[:-3]):
                s = s[:-1]
        elif s.endswith("ed") and _contains_vowel(s[:-2]):
            s = _tidy_after_ed_or_ing(s[:-2], nltk_extensions)
        last = s[-1:]
    elif last == "g" and s.endswith("ing") and _contains_vowel(s[:-3]):
        s = _tidy_after_ed_or_ing(s[:-3], nltk_extensions)
        last = s[-1:]
    # Step 1c: y -> i, NLTK only after a consonant that is not the whole rest of the word.
    if last == "y":
        base = s[:-1]
        if (len(base) > 1 and _is_consonant(base, len(base) - 1)) if nltk_extensions else _contains_vowel(base):
            s = base + "i"
    # Steps 2 to 4 are entered by the last two letters.
    end = s[-2:]
    if end in _STEP2_ENDS:
        s = _step2(s, nltk_extensions)
        end = s[-2:]
    if end in _STEP3_ENDS:
        s = _step3(s)
        end = s[-2:]
    suffixes = _STEP4.get(end)
    if suffixes is not None:
        s = _step4(s, suffixes)
    last = s[-1:]
    # Step 5: a final e goes when m > 1, or m = 1 and the rest does not end cvc; -ll loses an l when m > 1.
    if last == "e":
        base = s[:-1]
        if _measure_exceeds_1(base) or (_measure_is_positive(base) and not _ends_cvc(base, nltk_extensions)):
            s = base
            last = s[-1:]
    if last == "l" and s.endswith("ll") and _measure_exceeds_1(s[:-1]):
        s = s[:-1]
    return s


def _tidy_after_ed_or_ing(s: str, nltk_extensions: bool) -> str:
    """Step 1b's second part, on the word without its -ed or -ing: at -> ate, bl -> ble,
    iz -> ize, a double consonant (but l, s, z) halved, or an e added when m = 1 and *o."""
    if s.endswith(("at", "bl", "iz")):
        return s + "e"
    if len(s) >= 2 and s[-1] == s[-2] and _is_consonant(s, len(s) - 1):
        return s if s[-1] in "lsz" else s[:-1]  # a double consonant loses one letter
    if s.endswith("*d"):
        # NLTK's rule table names the double-consonant rule by the suffix "*d", and tests that
        # name as a suffix too when the word ends in no double consonant: "a*d" -> "ad".
        return s[:-2] + "d"
    if _ends_cvc(s, nltk_extensions) and _measure_is_positive(s) and not _measure_exceeds_1(s):
        return s + "e"
    return s


# The last two letters of step 2's and step 3's suffixes.
_STEP2_ENDS = frozenset(("li", "al", "ci", "er", "on", "or", "sm", "ss", "ti", "gi"))
_STEP3_ENDS = frozenset(("te", "ve", "ze", "ti", "al", "ul", "ss"))


def _step2(s: str, nltk_extensions: bool) -> str:
    """Double suffixes to single ones, when the rest has m > 0. The first suffix that matches
    decides: when its condition fails no other is tried ("rational" stays, not "ration")."""
    end = s[-2:]
    if end == "li":
        if nltk_extensions and s.endswith("alli") and _measure_is_positive(s[:-4]):
            return _step2(s[:-2], nltk_extensions)  # NLTK applies alli -> al first, then step 2 again
        if nltk_extensions:
            if s.endswith("bli"):
                return s[:-1] + "e" if _measure_is_positive(s[:-3]) else s
        elif s.endswith("abli"):
            return s[:-1] + "e" if _measure_is_positive(s[:-4]) else s
        if s.endswith("alli"):
            return s[:-2] if _measure_is_positive(s[:-4]) else s
        if s.endswith("entli"):
            return s[:-2] if _measure_is_positive(s[:-5]) else s
        if s.endswith("eli"):
            return s[:-2] if _measure_is_positive(s[:-3]) else s
        if s.endswith("ousli"):
            return s[:-2] if _measure_is_positive(s[:-5]) else s
        if nltk_extensions and s.endswith("fulli"):
            return s[:-2] if _measure_is_positive(s[:-5]) else s
    elif end == "ci":
        if s.endswith(("enci", "anci")):
            return s[:-1] + "e" if _measure_is_positive(s[:-4]) else s
    elif end == "ti":
        if s.endswith("aliti"):
            return s[:-3] if _measure_is_positive(s[:-5]) else s
        if s.endswith("iviti"):
            return s[:-3] + "e" if _measure_is_positive(s[:-5]) else s
        if s.endswith("biliti"):
            return s[:-5] + "le" if _measure_is_positive(s[:-6]) else s
    elif end == "gi":
        if nltk_extensions and s.endswith("logi"):
            # NLTK keeps the l with the stem, so that "geologi" -> "geolog" like "philologi"
            return s[:-1] if _measure_is_positive(s[:-3]) else s
    elif end == "al":
        if s.endswith("ational"):
            return s[:-5] + "e" if _measure_is_positive(s[:-7]) else s
        if s.endswith("tional"):
            return s[:-2] if _measure_is_positive(s[:-6]) else s
    elif end == "on":
        if s.endswith("ization"):
            return s[:-5] + "e" if _measure_is_positive(s[:-7]) else s
        if s.endswith("ation"):
            return s[:-3] + "e" if _measure_is_positive(s[:-5]) else s
    elif end == "er":
        if s.endswith("izer"):
            return s[:-1] if _measure_is_positive(s[:-4]) else s
    elif end == "or":
        if s.endswith("ator"):
            return s[:-2] + "e" if _measure_is_positive(s[:-4]) else s
    elif end == "ss":
        if s.endswith(("iveness", "fulness", "ousness")):
            return s[:-4] if _measure_is_positive(s[:-7]) else s
    elif end == "sm":
        if s.endswith("alism"):
            return s[:-3] if _measure_is_positive(s[:-5]) else s
    return s


def _step3(s: str) -> str:
    """-icate, -ative, -alize, -iciti, -ical, -ful, -ness, when the rest has m > 0."""
    end = s[-2:]
    if end == "te" or end == "ze":
        if s.endswith(("icate", "alize")):
            return s[:-3] if _measure_is_positive(s[:-5]) else s
    elif end == "ve":
        if s.endswith("ative"):
            return s[:-5] if _measure_is_positive(s[:-5]) else s
    elif end == "al":
        if s.endswith("ical"):
            return s[:-2] if _measure_is_positive(s[:-4]) else s
    elif end == "ul":
        if s.endswith("ful"):
            return s[:-3] if _measure_is_positive(s[:-3]) else s
    elif end == "ss":
        if s.endswith("ness"):
            return s[:-4] if _measure_is_positive(s[:-4]) else s
    elif end == "ti":
        if s.endswith("iciti"):
            return s[:-3] if _measure_is_positive(s[:-5]) else s
    return s


# Step 4's suffixes by their last two letters, in NLTK's order (the first that matches decides).
_STEP4 = {
    "al": ("al",), "ce": ("ance", "ence"), "er": ("er",), "ic": ("ic",), "le": ("able", "ible"),
    "nt": ("ant", "ement", "ment", "ent"), "on": ("ion",), "ou": ("ou",), "sm": ("ism",), "te": ("ate",),
    "ti": ("iti",), "us": ("ous",), "ve": ("ive",), "ze": ("ize",),
}


def _step4(s: str, suffixes: tuple[str, ...]) -> str:
    """Removes one of ``suffixes`` (those of _STEP4 ending in s's last two letters) when the rest has
    m > 1 (-ion only after s or t)."""
    for suffix in suffixes:
        if s.endswith(suffix):
            rest = s[:-len(suffix)]
            if _measure_exceeds_1(rest) and (suffix != "ion" or rest[-1] in "st"):
                return rest
            return s
    return s


# stem for ASCII words on a C buffer (_porter_stem.pyx), when built; the code above stems the others.
_C_TWIN = _accel.twin("meteor_core._porter_stem")
_C_STEM = _C_TWIN.stem if _C_TWIN is not None else None
