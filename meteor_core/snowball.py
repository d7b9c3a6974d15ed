"""Snowball English (Porter2) as the Meteor 1.5 jar stems: what NLTK's
``SnowballStemmer("english").stem`` gives, with R2 kept where NLTK loses it (below), for any string.

NLTK's stemmer costs ~10 us a word (it tries every suffix of a step in turn and keeps R1 and R2
as strings) and its import takes seconds; this one looks suffixes up by the word's last two letters
and keeps R1 and R2 as the positions where they start, for the same answers.

Rules that are NLTK's, kept because the answers must be the same:

* The word is lower-cased, then words of <= 2 characters are returned as they are and a fixed list
  of special words ("skis", "news", "proceeding", ...) maps to its stems; the stop-word list is
  empty (NLTK's default, ignore_stopwords=False).
* Curly apostrophes become "'", one leading apostrophe is dropped.
* NLTK's R1 and R2 are strings that each step trims or extends alongside the word; a position
  models them exactly (they always end where the word ends), with these NLTK turns: a suffix
  replaced when it lies only partly in R2 empties R2, except after "ation"/"ational"/"ator" and
  "iveness"/"iviti", where R2 becomes the final "e" of "ate"/"ive"; step 1b's added "e" joins R1
  even when R1 was empty, and R2 when the word is longer than 5 or R1 at least 3 long.

The jar's Java Snowball keeps R2 where it began when step 2 or 3 shortens a suffix that began
before R2: "realization" -> "realiz" (NLTK: "realize"). So a result that ends in "ize", "ate" or
"ive" loses its "e" when that "e" lies in R2 of the word as it was given (not lower-cased).
"""
from __future__ import annotations

import re

_VOWELS = "aeiouy"
_DOUBLES = ("bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt")
_LI_ENDING = "cdeghkmnrt"
_CURLY_APOSTROPHES = ("\u2019", "\u2018", "\u201b")
_NO_REGION = 1 << 62  # a region's start when it is empty, whatever the word's length becomes

# R1 starts after the first non-vowel that follows a vowel (after one of three prefixes if the
# word starts with it), R2 after the next such non-vowel.
_r1_r2 = re.compile("(gener|commun|arsen|[^aeiouy]*[aeiouy]+[^aeiouy])([^aeiouy]*[aeiouy]+[^aeiouy])?").match
_has_vowel = re.compile("[aeiouy]").search

_SPECIAL_WORDS = {
    "skis": "ski", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie", "idly": "idl",
    "gently": "gentl", "ugly": "ugli", "early": "earli", "only": "onli", "singly": "singl", "sky": "sky",
    "news": "news", "howe": "howe", "atlas": "atlas", "cosmos": "cosmos", "bias": "bias", "andes": "andes",
    "inning": "inning", "innings": "inning", "outing": "outing", "outings": "outing", "canning": "canning",
    "cannings": "canning", "herring": "herring", "herrings": "herring", "earring": "earring",
    "earrings": "earring", "proceed": "proceed", "proceeds": "proceed", "proceeded": "proceed",
    "proceeding": "proceed", "exceed": "exceed", "exceeds": "exceed", "exceeded": "exceed",
    "exceeding": "exceed", "succeed": "succeed", "succeeds": "succeed", "succeeded": "succeed",
    "succeeding": "succeed",
}

# What R2 becomes when a replaced suffix is not wholly inside it (NLTK's string bookkeeping):
_R2_TRIMMED = 0  # trimmed with the word (the suffix is only cut short): its start stays
_R2_EMPTIED = 1
_R2_FINAL_E = 2  # the final "e" of the replacement

# Steps 2 and 3: (suffix, replacement, R2 rule), in NLTK's order, which tries longer suffixes first.
_STEP2 = (
    ("ization", "ize", _R2_EMPTIED), ("ational", "ate", _R2_FINAL_E), ("fulness", "ful", _R2_TRIMMED),
    ("ousness", "ous", _R2_EMPTIED), ("iveness", "ive", _R2_FINAL_E), ("tional", "tion", _R2_TRIMMED),
    ("biliti", "ble", _R2_EMPTIED), ("lessli", "less", _R2_TRIMMED), ("entli", "ent", _R2_TRIMMED),
    ("ation", "ate", _R2_FINAL_E), ("alism", "al", _R2_EMPTIED), ("aliti", "al", _R2_EMPTIED),
    ("ousli", "ous", _R2_EMPTIED), ("iviti", "ive", _R2_FINAL_E), ("fulli", "ful", _R2_TRIMMED),
    ("enci", "ence", _R2_TRIMMED), ("anci", "ance", _R2_TRIMMED), ("abli", "able", _R2_TRIMMED),
    ("izer", "ize", _R2_EMPTIED), ("ator", "ate", _R2_FINAL_E), ("alli", "al", _R2_EMPTIED),
    ("bli", "ble", _R2_EMPTIED),
    ("ogi", "og", _R2_TRIMMED),  # only after an "l"
    ("li", "", _R2_TRIMMED),  # only after a letter of _LI_ENDING
)
_STEP3 = (
    ("ational", "ate", _R2_EMPTIED), ("tional", "tion", _R2_TRIMMED), ("alize", "al", _R2_TRIMMED),
    ("icate", "ic", _R2_EMPTIED), ("iciti", "ic", _R2_EMPTIED),
    ("ative", "", _R2_TRIMMED),  # only inside R2
    ("ical", "ic", _R2_EMPTIED), ("ness", "", _R2_TRIMMED), ("ful", "", _R2_TRIMMED),
)
# Step 4 deletes the first of these the word ends with, if it lies in R2 ("ion" only after s or t).
_STEP4 = ("ement", "ance", "ence", "able", "ible", "ment", "ant", "ent", "ism", "ate", "iti", "ous", "ive",
          "ize", "ion", "al", "er", "ic")


def _by_last_two_letters(rules: tuple) -> dict[str, tuple]:
    """The rules grouped by the last two letters of their suffix, each group in the given order:
    the first rule of a word's group that it ends with is the first of all rules it ends with."""
    table: dict[str, list] = {}
    for rule in rules:
        suffix = rule if isinstance(rule, str) else rule[0]
        table.setdefault(suffix[-2:], []).append(rule)
    return {ending: tuple(group) for ending, group in table.items()}


_NO_RULES = ((), (), ())
_STEP2_BY_ENDING = _by_last_two_letters(_STEP2)
_STEP3_BY_ENDING = _by_last_two_letters(_STEP3)
_STEP4_BY_ENDING = _by_last_two_letters(_STEP4)
# A word's last two letters -> the rules of steps 2, 3 and 4 its suffix may match: one lookup.
_RULES_BY_ENDING = {ending: (_STEP2_BY_ENDING.get(ending, ()), _STEP3_BY_ENDING.get(ending, ()),
                             _STEP4_BY_ENDING.get(ending, ()))
                    for ending in {*_STEP2_BY_ENDING, *_STEP3_BY_ENDING, *_STEP4_BY_ENDING}}


_VOWEL_Y = tuple((vowel + "y", vowel + "Y") for vowel in "aeiou")


def _mark_consonant_y(word: str) -> str:
    """Porter2's prelude: a y that starts the word or follows a vowel is a consonant, "Y"."""
    if "yy" not in word:  # then no y follows a y, and a y after a vowel is one of these pairs
        if word[0] == "y":
            word = "Y" + word[1:]
        for vowel_y, vowel_consonant_y in _VOWEL_Y:
            if vowel_y in word:
                word = word.replace(vowel_y, vowel_consonant_y)
        return word
    chars = list(word)  # a y after a y: after a consonant Y it stays a vowel
    previous = ""
    for k, char in enumerate(chars):
        if char == "y" and (k == 0 or previous in _VOWELS):
            char = chars[k] = "Y"
        previous = char
    return "".join(chars)


def _regions(word: str) -> tuple[int, int]:
    """Where R1 and R2 start in a y-marked word (len(word) for an empty region)."""
    found = _r1_r2(word)
    if found is None:
        return len(word), len(word)
    r1, r2 = found.end(1), found.end()
    return r1, (r2 if r2 > r1 else len(word))


def stem(word: str) -> str:
    """The stem of ``word``, exactly as described in the module's docstring."""
    w = word.lower()
    if len(w) <= 2:
        return w
    special = _SPECIAL_WORDS.get(w)
    if special is not None:
        return special
    as_given = w == word  # then R2 of the word as given is the R2 computed below
    if not w.isascii():
        for apostrophe in _CURLY_APOSTROPHES:
            w = w.replace(apostrophe, "'")
    if w[0] == "'":
        w = w[1:]
        as_given = False
    marked = "y" in w
    if marked:
        w = _mark_consonant_y(w)
    # r1, r2: where NLTK's R1 and R2 start in w (_NO_REGION: empty); both end where w ends.
    n = len(w)
    regions = _r1_r2(w)
    if regions is None:
        r1 = r2 = r2_as_given = _NO_REGION
    else:
        r1, r2 = regions.end(1), regions.end()
        if r1 >= n:
            r1 = _NO_REGION
        if r2 == r1 or r2 >= n:
            r2 = _NO_REGION
        r2_as_given = r2

    # Step 0: possessives.
    if "'" in w:
        if w.endswith("'"):
            w = w[:-3] if w.endswith("'s'") else w[:-1]
        elif w.endswith("'s"):
            w = w[:-2]
        n = len(w)
        if n <= 2:  # no region left, so no step below changes it
            return w.replace("Y", "y") if marked else w

    # Step 1a: plurals.
    last = w[-1]
    if last == "s":
        if w.endswith("sses"):
            w = w[:-2]
        elif w.endswith("ies"):
            w = w[:-2] if n > 4 else w[:-1]
        elif w.endswith(("us", "ss")):
            pass
        elif r1 < n or _has_vowel(w, 0, n - 2):  # (a vowel precedes R1's start by 2 or more)
            w = w[:-1]
        n = len(w)
        last = w[-1]
    elif last == "d" and w.endswith("ied"):
        w = w[:-2] if n > 4 else w[:-1]
        n = len(w)
        last = w[-1]

    # Step 1b: -ed, -ing, -eed, and their -ly forms.
    cut = 0  # the suffix's length; negative for eed and eedly, which become ee
    if last == "d":
        if w.endswith("eed"):
            cut = -3
        elif w.endswith("ed"):
            cut = 2
    elif last == "g":
        if w.endswith("ing"):
            cut = 3
    elif last == "y" and w.endswith("ly"):
        if w.endswith("eedly"):
            cut = -5
        elif w.endswith("ingly"):
            cut = 5
        elif w.endswith("edly"):
            cut = 4
    if cut < 0:  # eed, eedly -> ee when in R1
        start = n + cut
        if r1 <= start:
            w = w[:start] + "ee"
            if r2 > start:
                r2 = _NO_REGION
            n = start + 2
            last = "e"
    elif cut and (r1 < n - cut + 2 or _has_vowel(w, 0, n - cut)):  # a vowel before the suffix
        w = w[:-cut]
        n -= cut
        if w.endswith(("at", "bl", "iz")):
            w += "e"
            if r1 > n:
                r1 = n  # NLTK's R1 gains the "e" even when it was empty
            n += 1
            if n > 5 or n - r1 >= 3:
                if r2 > n - 1:
                    r2 = n - 1
            else:
                r2 = _NO_REGION  # (R2 is empty here)
        elif w.endswith(_DOUBLES):
            w = w[:-1]
            n -= 1
        elif r1 >= n and (
            (n >= 3 and w[-1] not in _VOWELS and w[-1] not in "wxY" and w[-2] in _VOWELS and w[-3] not in _VOWELS)
            or (n == 2 and w[0] in _VOWELS and w[1] not in _VOWELS)
        ):  # a short word: hop -> hope
            w += "e"
            n += 1
            r1 = r2 = _NO_REGION  # (they stay empty)
        last = w[-1]

    # Step 1c: a final y after a consonant (not the first letter) becomes i.
    if (last == "y" or last == "Y") and n > 2 and w[-2] not in _VOWELS:
        w = w[:-1] + "i"

    if r1 < n:  # (steps 2 to 5 change only R1)
        # Steps 2, 3 and 4: suffixes in R1 replaced, in R1 replaced, in R2 deleted.
        rules = _RULES_BY_ENDING.get(w[-2:])
        if rules is not None:
            for suffix, replacement, r2_rule in rules[0]:
                if w.endswith(suffix):
                    start = n - len(suffix)
                    if r1 <= start and (suffix != "ogi" or w[-4] == "l") and (suffix != "li" or w[-3] in _LI_ENDING):
                        w = w[:start] + replacement
                        n = len(w)
                        if r2 > start and r2_rule != _R2_TRIMMED:
                            r2 = n - 1 if r2_rule == _R2_FINAL_E else _NO_REGION
                        rules = _RULES_BY_ENDING.get(w[-2:], _NO_RULES)
                    break
            for suffix, replacement, r2_rule in rules[1]:
                if w.endswith(suffix):
                    start = n - len(suffix)
                    if r1 <= start and (suffix != "ative" or r2 <= start):
                        w = w[:start] + replacement
                        n = len(w)
                        if r2 > start and r2_rule != _R2_TRIMMED:
                            r2 = _NO_REGION
                        rules = _RULES_BY_ENDING.get(w[-2:], _NO_RULES)
                    break
            if r2 < n:
                for suffix in rules[2]:
                    if w.endswith(suffix):
                        start = n - len(suffix)
                        if r2 <= start and (suffix != "ion" or w[-4] in "st"):
                            w = w[:start]
                            n = start
                        break

        # Step 5: a final e or ll.
        last = w[-1]
        if last == "e":
            if r2 < n or (n >= 4 and (w[-2] in _VOWELS or w[-2] in "wxY" or w[-3] not in _VOWELS or w[-4] in _VOWELS)):
                w = w[:-1]
        elif last == "l" and r2 < n and w[-2] == "l":
            w = w[:-1]

    if marked:
        w = w.replace("Y", "y")
    if w[-1] == "e" and w.endswith(("ize", "ate", "ive")) and not word.endswith("e"):  # the jar's R2 (docstring)
        if not as_given:
            r2_as_given = _regions(_mark_consonant_y(word))[1]
        if len(w) - 1 >= r2_as_given:
            w = w[:-1]
    return w
