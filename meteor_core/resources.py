"""Linguistic resources: stemmers and WordNet, loaded once, when first needed, and cached per word.

Matching calls these for every token of every segment, so each lookup is memoised;
the caches are bounded by the vocabulary, not by the corpus size. Nothing is loaded at import:
a stemmer when a stem stage first has words left (meteor_core's own ports: NLTK is not imported),
WordNet when a synonym stage first does.
"""
from __future__ import annotations

import gc
import time
import zipfile
from functools import lru_cache, partial
from pathlib import Path
from typing import Callable, Iterable

from . import jar_resources, languages, porter
from .wordnet import WordNet, locate as locate_wordnet


class WordNetMissingError(RuntimeError):
    """Raised when the synonym stage is asked for but WordNet 3.0 cannot be loaded."""


WORDNET_FIX = (
    "WordNet 3.0 is not installed where NLTK looks (nltk.data.path / NLTK_DATA). "
    "Fix: run `python -m meteor_core setup` (it uses nltk.download where the hub is reachable, "
    "otherwise Debian's wordnet-base), or turn the synonym stage off explicitly "
    "(stages=('exact', 'stem') or --no-synonyms on the command line)."
)


def _make_stemmer(name: str, language: str = "en") -> Callable[[str], str]:
    lang = languages.language(language)
    if name in ("porter", "porter-original") and lang.code != "en":
        raise languages.LanguageError(f"the Porter stemmer is English; for {lang.display} use stemmer='snowball' "
                                      "(or leave the stem stage out)")
    if name == "porter":
        return porter.stem  # NLTK's PorterStemmer in its default mode (meteor_score's), without NLTK
    if name == "porter-original":
        return partial(porter.stem, nltk_extensions=False)  # its ORIGINAL_ALGORITHM mode
    if name == "snowball":
        if lang.stemmer != "snowball":
            raise languages.LanguageError(f"No stemmer for language ({lang.jar_name}): Meteor 1.5 has no Snowball "
                                          f"stemmer for {lang.display}")
        from .snowball_langs import stemmer as snowball_stemmer  # (imported when first asked for)
        return snowball_stemmer(lang.jar_name)
    if name == "table":
        if lang.stemmer != "table":
            raise languages.LanguageError(f"Meteor 1.5 has no stem table for {lang.display}")
        return partial(jar_resources.lookup_stem, jar_resources.stem_table(lang.code))
    raise ValueError(f"unknown stemmer {name!r}")


# porter: NLTK's Porter (English); snowball: the Snowball stemmer of the configuration's language,
# as the Meteor 1.5 jar stems; table: the jar's stem table (Arabic, Buckwalter reduced).
STEMMERS = ("porter", "porter-original", "snowball", "table")


class WordMemo(dict):
    """word -> compute(word), computed once per word. A hit is a plain dict lookup, which
    ``map(memo.__getitem__, words)`` runs at C speed (faster than lru_cache or even
    str.lower); the table is emptied when it reaches MEMO_LIMIT words."""

    def __init__(self, compute: Callable[[str], object]):
        super().__init__()
        self.compute = compute

    def __missing__(self, word):
        # (remember's lines, not a call of it: a first lookup is most of a cold run's word work)
        if len(self) >= MEMO_LIMIT:
            self.clear()
        value = self[word] = self.compute(word)
        return value

    def remember(self, word, value):
        """Keep ``value`` as ``word``'s (for a caller that computed it another way), and return it."""
        if len(self) >= MEMO_LIMIT:
            self.clear()
        self[word] = value
        return value


MEMO_LIMIT = 500_000


@lru_cache(maxsize=None)
def stemmer(name: str, language: str = "en") -> Callable[[str], str]:
    """A memoised stem function for the named stemmer in ``language`` (a code of
    meteor_core.languages). LanguageError where the pair does not exist (Porter is English; the
    jar has no stemmer for Czech or 'other')."""
    return WordMemo(unmemoised_stemmer(name, language)).__getitem__


@lru_cache(maxsize=None)
def unmemoised_stemmer(name: str, language: str = "en") -> Callable[[str], str]:
    """stemmer(name, language) without its memo, for a caller that keeps each word's stem itself
    (the greedy aligner's C twin)."""
    if name not in STEMMERS:
        raise ValueError(f"unknown stemmer {name!r}")
    return _make_stemmer(name, languages.language(language).code)


@lru_cache(maxsize=1)
def wordnet() -> WordNet:
    """WordNet 3.0 (meteor_core.wordnet's reader over NLTK's data files), loaded on first use;
    raises WordNetMissingError with the fix if absent."""
    location = _wordnet_location()
    if location is None:
        raise WordNetMissingError(WORDNET_FIX)
    try:
        reader = WordNet(location)
    except (OSError, ValueError, IndexError, zipfile.BadZipFile) as exc:
        raise WordNetMissingError(f"{WORDNET_FIX} (found {location}, but could not read it: {exc})") from exc
    # The index keeps ~300,000 objects alive for the life of the process. Every full garbage
    # collection would walk them, and holding a corpus's results triggers one every few thousand
    # segments; the permanent generation is skipped by collections.
    gc.freeze()
    return reader


@lru_cache(maxsize=1)
def _wordnet_location() -> Path | None:
    return locate_wordnet()


def require_wordnet() -> None:
    """Fail fast, before any work, when a synonym stage will need WordNet and it is not
    installed; finding the files is cheap, loading them waits until a word needs them."""
    # (the location first: a cached call, where cache_info() makes a named tuple, and scoring
    # asks twice a segment)
    if _wordnet_location() is None and wordnet.cache_info().currsize == 0:
        _wordnet_location.cache_clear()  # let a later setup be picked up without a restart
        raise WordNetMissingError(WORDNET_FIX)


def load_wordnet() -> float:
    """Load WordNet now if it is not loaded yet; returns the seconds that took (0 when it was
    loaded already), so that a search budget can leave loading out."""
    if wordnet.cache_info().currsize:
        return 0.0
    start = time.perf_counter()
    wordnet()
    return time.perf_counter() - start


def wordnet_available() -> bool:
    try:
        require_wordnet()
        return True
    except WordNetMissingError:
        return False


def _synsets_of(word: str) -> frozenset[int]:
    return frozenset(wordnet().synset_keys(word))


# synsets_of(word): the synsets a word belongs to, as integer keys (data-file offset and part of
# speech): exactly the synsets ``wordnet.synsets(word)`` returns (WordNet's morphy finds base
# forms). Integers hash and compare faster than names in the synonym stage's set tests;
# ``synset_name`` names a key.
synsets_of: Callable[[str], frozenset[int]] = WordMemo(_synsets_of).__getitem__


@lru_cache(maxsize=100_000)
def synset_name(key: int) -> str:
    """The WordNet name of a synset key from synsets_of, e.g. 5528346 (offset 1382086, 'a') -> 'large.a.01'."""
    return wordnet().synset_name(key)


def require_synonyms(source: str) -> None:
    """Fail fast when the synonym source ("wordnet" or "jar") is not on this machine; loading
    waits until a word needs it (see load_synonyms)."""
    if source == "jar":
        # Until the jar's synonyms are loaded, every segment asks (twice): the jar is looked for
        # each time (the environment may name another), but the file system only for a new path.
        if not _jar_synsets.cache_info().currsize:
            jar = jar_resources.find_jar()
            if jar is None or jar != _jar_found[0]:
                _jar_found[0] = jar_resources.require_jar()
    else:
        require_wordnet()


_jar_found: list[Path | None] = [None]  # the jar require_synonyms last found present


def load_synonyms(source: str) -> float:
    """Load the synonym source now if it is not loaded yet; returns the seconds that took."""
    if source != "jar":
        return load_wordnet()
    if _jar_synsets.cache_info().currsize:
        return 0.0
    start = time.perf_counter()
    _jar_synsets()
    return time.perf_counter() - start


def synonym_sets(source: str) -> Callable[[str], frozenset[int]]:
    """word -> its synset keys, memoised: from WordNet ("wordnet", synsets_of) or from the Meteor
    1.5 jar's own synonym dictionary ("jar", WordNet offsets; see jar_resources)."""
    return _jar_synsets()[0] if source == "jar" else synsets_of


def distinct_synonym_keys(source: str) -> Callable[[str], Iterable]:
    """word -> its synset keys, each once, for a caller that keeps them itself (meteor15's
    candidates twin): from the jar, the offsets as its file spells them (str: no int parsed, no
    set built, nothing memoised: about a third of a new word's lookup); from WordNet, synonym_sets."""
    return _jar_synsets()[1] if source == "jar" else synsets_of


def unmemoised_synonym_keys(source: str) -> Callable[[str], Iterable[int]]:
    """synonym_sets(source) for a caller that keeps each word's keys itself (the synonym stage's C
    twin): from WordNet, a word's keys as ``synset_keys`` lists them (a key may repeat), with no
    set built and nothing memoised here; the jar's sets are memoised as loaded."""
    return _jar_synsets()[0] if source == "jar" else _wordnet_synset_keys


def _wordnet_synset_keys(word: str) -> list[int]:
    return wordnet().synset_keys(word)


@lru_cache(maxsize=1)
def _jar_synsets() -> tuple[Callable[[str], frozenset[int]], Callable[[str], list[str]]]:
    """The jar's dictionary, loaded once: its memoised synsets and its unmemoised offsets (one
    object each, so that the candidates twin's per-function vocabulary is found again)."""
    dictionary = jar_resources.synonyms()
    return WordMemo(dictionary.synsets).__getitem__, dictionary.offsets


def _shared_synset(words: tuple[str, str]) -> str | None:
    return _first_synset_name(synsets_of(words[0]) & synsets_of(words[1]))


def _first_synset_name(keys) -> str | None:
    return min(map(synset_name, keys)) if keys else None


_shared_synsets = WordMemo(_shared_synset)  # word pairs recur: name their synset once


def shared_synset(a: str, b: str) -> str | None:
    """A synset both words belong to (the alphabetically first name, for a stable answer)."""
    return _shared_synsets[a, b]


def shared_synset_of_keys(a: str, b: str, shared_keys: Callable[[str, str], Iterable[int] | None]) -> str | None:
    """shared_synset(a, b) for a caller that keeps the words' WordNet keys itself (the synonym
    stage's C twin): a new pair is named from ``shared_keys(a, b)``, the keys the two words share,
    with no set of either word's synsets made for it; from synsets_of when that gives None."""
    name = _shared_synsets.get((a, b), _NOT_KEPT)
    if name is not _NOT_KEPT:
        return name
    common = shared_keys(a, b)
    if common is None:
        return _shared_synsets[a, b]
    return _shared_synsets.remember((a, b), _first_synset_name(common))


_NOT_KEPT = object()


def shared_synset_in(source: str, a: str, b: str) -> str | None:
    """shared_synset for a synonym source: WordNet's name, or the jar's synset number."""
    if source == "jar":
        sets = synonym_sets("jar")
        common = sets(a) & sets(b)
        return f"synset {min(common):08d}" if common else None
    return _shared_synsets[a, b]


def _nltk_synonyms(word: str) -> frozenset[str]:
    reader = wordnet()
    names = {name for key in reader.synset_keys(word) for name in reader.lemma_names(key) if "_" not in name}
    names.add(word)
    return frozenset(names)


# nltk_synonyms(word): exactly the set NLTK's meteor_score compares against: the one-word lemma
# names of the word's synsets, and the word itself.
nltk_synonyms: Callable[[str], frozenset[str]] = WordMemo(_nltk_synonyms).__getitem__


def _lemma_synsets(word: str) -> frozenset[int]:
    return frozenset(wordnet().lemma_keys(word))


# lemma_synsets(word): the synsets that list ``word`` among their lemma names (in any case), read
# from WordNet's index alone: a synset whose lemma names include a word is among that word's
# lemma_synsets, so a synset outside them need not be read to know it does not list the word.
lemma_synsets: Callable[[str], frozenset[int]] = WordMemo(_lemma_synsets).__getitem__


def _synset_with_lemma(words: tuple[str, str]) -> str | None:
    word, lemma_name = words
    reader = wordnet()
    listing = lemma_synsets(lemma_name)  # the only synsets that can list it: the others are not read
    for key in reader.synset_keys(word):
        if key in listing and lemma_name in reader.lemma_names(key):
            return synset_name(key)
    return None


_synsets_with_lemma = WordMemo(_synset_with_lemma)  # word pairs recur: find their synset once


def synset_with_lemma(word: str, lemma_name: str) -> str | None:
    """The first synset of ``word`` (in NLTK's order) that lists ``lemma_name`` (explains an
    NLTK synonym match)."""
    return _synsets_with_lemma[word, lemma_name]


@lru_cache(maxsize=None)
def function_words(name: str, language: str = "en") -> frozenset[str]:
    """A function-word list by name, read from the user's meteor-1.5.jar (nothing of the jar is
    copied into this package; without a jar: ``jar_resources.JarMissingError``):
    "none"; "jar" (also called "meteor-en"): the list the jar itself uses, ``function/english.words``,
    in every language (its MeteorConfiguration sets the word list for English and setLanguage never
    changes it: ``-l de`` weighs English function words); "language": the language's own list
    (``function/<language>.words``, what the jar's ``-s`` would give it; empty for most languages)."""
    if name == "none":
        return frozenset()
    if name in ("jar", "meteor-en"):
        return jar_resources.function_words("en")
    if name == "language":
        return jar_resources.function_words(languages.language(language).code)
    raise ValueError(f"unknown function-word list {name!r}")


def nonbreaking_prefixes(language: str = "en") -> dict[str, int]:
    """Meteor 1.5's non-breaking prefixes for its -norm tokenizer (``nonbreaking/<language>.prefixes``
    in the user's jar, read once): 1 = always keeps its dot, 2 = only before a number.
    Without a jar: ``jar_resources.JarMissingError``."""
    return jar_resources.nonbreaking_prefixes(languages.language(language).code)
