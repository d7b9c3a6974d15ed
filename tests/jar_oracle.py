"""The Meteor 1.5 jar's own stemmers as an oracle: its main class ``Stemmer`` (src/Stemmer.java)
stems standard input line by line with ``Constants.newStemmer(language)``, the stemmer the scorer
uses. One Java process stems a whole list.

What the jar's ``Stemmer`` cannot pass through, and so :func:`jar_stems` refuses (see
:func:`passes_through`):

* a token made only of digits (Java's ``Character.isDigit``), ``,``, ``.`` and ``-``: printed
  unstemmed (the empty string too);
* a character that ``StringTokenizer`` or ``readLine`` splits at (space, tab, line ends, form feed),
  or any character up to U+0020 (``String.trim`` drops those at either end of the printed line);
* a lone surrogate (not UTF-8).

Java 17 reads and writes its default charset, which is not always UTF-8: the process runs with
``-Dfile.encoding=UTF-8`` and both directions are UTF-8 bytes here.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import unicodedata

from meteor_core import jar_resources

def java_status() -> str | None:
    """None when Java and the jar can run the oracle, else why not."""
    if shutil.which("java") is None:
        return "Java is not installed"
    if jar_resources.find_jar() is None:
        return "the Meteor 1.5 jar is not installed"
    return None


def java_required() -> bool:
    """METEOR_REQUIRE_JAVA=1: a missing Java or jar is a failure, not a skip."""
    return os.environ.get("METEOR_REQUIRE_JAVA") == "1"


def _java_is_digit(char: str) -> bool:
    """Character.isDigit(char): Unicode's decimal digits (general category Nd), BMP only (a
    surrogate is never a digit)."""
    return char <= "\uffff" and unicodedata.category(char) == "Nd"


def passes_through(word: str) -> bool:
    """Whether the jar's Stemmer main stems ``word`` and prints the stem as it is (module docstring)."""
    if all(_java_is_digit(c) or c in ",.-" for c in word):
        return False
    return not any(c <= " " or "\ud800" <= c <= "\udfff" for c in word)


def jar_stems(language: str, words: list[str], timeout: float = 120) -> list[str]:
    """The jar's stems of ``words`` (each one a line) for a language name of Constants.newStemmer
    ("danish", "german", ...), in one Java process."""
    bad = [w for w in words if not passes_through(w)]
    if bad:
        raise ValueError(f"the jar's Stemmer cannot pass {len(bad)} of these words through, e.g. {bad[0]!r}")
    jar = jar_resources.require_jar()
    data = "".join(w + "\n" for w in words).encode("utf-8")
    done = subprocess.run(["java", "-Xmx512m", "-Dfile.encoding=UTF-8", "-cp", str(jar), "Stemmer", language],
                          input=data, capture_output=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"java Stemmer {language} failed: {done.stderr.decode('utf-8', 'replace')[-500:]}")
    stems = done.stdout.decode("utf-8").split("\n")
    if stems[-1] == "":
        stems.pop()
    if len(stems) != len(words):
        raise RuntimeError(f"java Stemmer {language} printed {len(stems)} lines for {len(words)} words")
    return stems


# ---------------------------------------------------------------------------------------------
# What to ask the oracle: real words of each language and strings made from them.

WORDFREQ_CODES = {"danish": "da", "dutch": "nl", "finnish": "fi", "french": "fr", "german": "de", "hungarian": "hu",
                  "italian": "it", "norwegian": "nb", "portuguese": "pt", "romanian": "ro", "russian": "ru",
                  "spanish": "es", "swedish": "sv", "turkish": "tr", "english": "en"}
_ACCENTED = {"a": "áàâäãåą", "e": "éèêëě", "i": "íìîïı", "o": "óòôöõøő", "u": "úùûüű", "y": "ýÿ", "c": "çč",
             "n": "ñň", "s": "şșš", "t": "ţț", "g": "ğ", "z": "ž", "r": "ř", "l": "ł", "д": "ђ", "е": "ё", "и": "й"}
_OUTSIDE_BMP = ("😀", "𝐚", "𠀋", "🇩🇪", "𝔢")
_COMBINING = ("\u0301", "\u0308", "\u0327", "\u0306", "\u0323")
_SPECIAL = {  # letters a language writes in two ways, or that case-folding treats oddly
    "german": ("ß", "ẞ", "äu", "ue", "ae"), "dutch": ("ij", "ÿ", "IJ"), "turkish": ("İ", "I", "ı", "i", "'", "’"),
    "romanian": ("ş", "ș", "ţ", "ț", "Ş", "Ș"), "russian": ("ё", "Ё", "й"), "french": ("œ", "æ", "'", "qu"),
    "portuguese": ("ã", "õ", "a~", "o~"), "finnish": ("š", "ž"), "hungarian": ("ő", "ű", "cs", "dzs"),
}


def real_words(language: str, wordlist: str = "small") -> list[str]:
    """wordfreq's list of the language's most frequent words (its "small" list: 26,000 to 63,000
    words), in its order, less what the jar's Stemmer cannot pass through."""
    import wordfreq

    return [w for w in wordfreq.iter_wordlist(WORDFREQ_CODES[language], wordlist) if passes_through(w)]


def _letters(stem_module) -> list[str]:
    """The letters a stemmer's tables and groupings mention, and a-z."""
    from meteor_core.snowball_langs._runtime import AmongTable

    chars = set("abcdefghijklmnopqrstuvwxyz")
    for value in vars(stem_module).values():
        if isinstance(value, AmongTable):
            chars.update("".join(e.s for e in value.entries))
        elif isinstance(value, frozenset):
            chars.update(value)
    return sorted(c for c in chars if c.isalpha() or c in "'~")


def _suffixes(stem_module) -> list[str]:
    from meteor_core.snowball_langs._runtime import AmongTable

    return sorted({e.s for v in vars(stem_module).values() if isinstance(v, AmongTable) for e in v.entries})


def made_up_words(language: str, words: list[str], seed: int = 0) -> list[str]:
    """Strings made from ``words`` to reach the stemmer's corners: upper and title case, accents
    added and taken off, decomposed accents (combining marks), suffixes of the stemmer's own tables
    stacked, every string of one or two letters, digits and hyphens, characters outside the BMP,
    random strings over the language's letters. Deterministic for a seed."""
    import importlib
    import random
    import unicodedata as ud

    rng = random.Random(f"{language}-{seed}")
    module = importlib.import_module(f"meteor_core.snowball_langs.{language}")
    letters = _letters(module)
    suffixes = _suffixes(module)
    sample = rng.sample(words, min(3000, len(words)))
    out: list[str] = []
    out += [w.upper() for w in sample[:1500]] + [w.capitalize() for w in sample[1500:]]
    for w in words:
        if not w.isascii():
            plain = "".join(c for c in ud.normalize("NFD", w) if not ud.combining(c))
            out += [ud.normalize("NFC", plain), ud.normalize("NFD", w)]
    for w in sample:
        k = rng.randrange(len(w))
        if w[k] in _ACCENTED:
            out.append(w[:k] + rng.choice(_ACCENTED[w[k]]) + w[k + 1:])
        out.append(w[:k + 1] + rng.choice(_COMBINING) + w[k + 1:])
    for w in sample:
        out.append(w[:rng.randint(1, len(w))] + "".join(rng.choice(suffixes) for _ in range(rng.randint(1, 3))))
    out += letters + [a + b for a in letters for b in letters]
    for w in sample[:600]:
        mark = rng.choice(_OUTSIDE_BMP)
        k = rng.randrange(len(w) + 1)
        out += [w[:k] + mark + w[k:], w + mark, mark + w, f"{w}-{rng.choice(words)}", f"{w}{rng.randint(0, 99)}",
                f"{rng.randint(0, 2030)}-{w}", f"{w}-"]
    alphabet = letters + ["'", "-", "1", "ß"] + list(_SPECIAL.get(language, ()))
    out += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))) for _ in range(3000)]
    for special in _SPECIAL.get(language, ()):
        out += [w.replace(w[-2:], special) for w in sample[:200]] + [special + w for w in sample[200:300]]
    seen = set(words)
    return [w for w in dict.fromkeys(out) if w not in seen and passes_through(w)]
