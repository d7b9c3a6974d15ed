"""The Snowball stemmers of the Meteor 1.5 jar (``Constants.newStemmer``: ``new
SnowballStemmerWrapper(new <language>Stemmer())``), each giving exactly the jar's stem of any
string, English included (the jar's englishStemmer: "realization" -> "realiz", where NLTK's
Snowball gives "realize"; "Running" -> "Running", since it does not lower-case).

    >>> from meteor_core.snowball_langs import stemmer
    >>> stemmer("german")("häuser")
    'haus'

A language's module is imported on its first lookup. The stemmers do not lower-case (the jar's
do not either: Meteor lower-cases the text before it stems, with -lower or -norm). English has a
C twin (_english_stem.pyx: english.py's routines and the runtime's operations on a C buffer),
which gives its stems when it is built and up to date.
"""
from __future__ import annotations

import importlib
from typing import Callable

from .. import _accel

# Languages whose stemmer has a C twin (the same stems, tested over WordNet's lemmas and random strings).
C_TWINS = {"english": "meteor_core.snowball_langs._english_stem"}
# The jar's language names (Constants.normLanguageName), one module each.
LANGUAGES = ("danish", "dutch", "english", "finnish", "french", "german", "hungarian", "italian", "norwegian",
             "portuguese", "romanian", "russian", "spanish", "swedish", "turkish")


def stemmer(language: str) -> Callable[[str], str]:
    """The stem function of ``language``, one of LANGUAGES."""
    if language not in LANGUAGES:
        raise ValueError(f"no Snowball stemmer for {language!r}: choose one of {', '.join(LANGUAGES)}")
    twin = _accel.twin(C_TWINS[language]) if language in C_TWINS else None
    return twin.stem if twin is not None else importlib.import_module(f"{__name__}.{language}").stem
