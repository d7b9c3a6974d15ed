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
