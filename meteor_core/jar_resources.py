"""Meteor 1.5's own resources, read from the user's meteor-1.5.jar (never copied into this repo).

The jar carries its synonym dictionary (``synonym/english.synsets`` and ``.exceptions``, derived
from WordNet 3.0 with "stem synsets": a word also belongs to the synsets of its base forms), its
function-word list (``function/english.words``) and the non-breaking prefixes of its -norm
tokenizer (``nonbreaking/english.prefixes``); its English paraphrase table lies beside it
(``data/paraphrase-en.gz``). The meteor15 preset always takes its function words and -norm
prefixes from the jar (so it needs one), and by default its synonyms too (``synonym_source="jar"``;
NLTK's WordNet stays selectable with ``synonym_source="wordnet"``).

Where the jar is looked for, in order:
1. ``METEOR_JAR`` (a path; ``METEOR_JAR=none`` turns the search off),
2. the jar inside an installed ``pycocoevalcap`` package (``pip install pycocoevalcap``),
3. ``~/.cache/meteor-explorer/meteor-1.5.jar`` (where bench/meteor15_agreement.py puts it;
   ``METEOR_EXPLORER_CACHE`` moves that folder).
"""
from __future__ import annotations

import importlib.util
import os
import re
import zipfile
from functools import lru_cache
from pathlib import Path

from . import languages, paraphrase
from .cache import cache_dir

JAR_NAME = "meteor-1.5.jar"
PARAPHRASE_NAME = "paraphrase-en.gz"


class JarMissingError(RuntimeError):
    """A Meteor 1.5 resource was asked for and no jar (or its paraphrase table) was found."""


JAR_FIX = (
    "no Meteor 1.5 jar found (Meteor 1.5's function words, -norm tokenizer prefixes and "
    "synonyms are read from the user's meteor-1.5.jar, never bundled). Fix: pip install pycocoevalcap "
    "(it ships the jar), or set METEOR_JAR=/path/to/meteor-1.5.jar."
)


def _pycocoevalcap_dir() -> Path | None:
    try:
        spec = importlib.util.find_spec("pycocoevalcap")  # located, not imported
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / "meteor"


def find_jar() -> Path | None:
    """The Meteor 1.5 jar on this machine, or None (see the module docstring for where)."""
    configured = os.environ.get("METEOR_JAR")
    if configured:
        return None if configured.lower() == "none" else Path(configured)
    return _installed_jar(cache_dir())


@lru_cache(maxsize=4)
def _installed_jar(cache: Path) -> Path | None:
    """pycocoevalcap's jar or the cached one (looked for once: finding a package reads directories)."""
    candidates = [cache / JAR_NAME]
    package = _pycocoevalcap_dir()
    if package is not None:
        candidates.insert(0, package / JAR_NAME)
    return next((path for path in candidates if path.is_file()), None)


def jar_available() -> bool:
    return find_jar() is not None


def require_jar() -> Path:
    jar = find_jar()
    if jar is None:
        raise JarMissingError(JAR_FIX)
    if not jar.is_file():
        raise JarMissingError(f"METEOR_JAR={jar} is not a file. {JAR_FIX}")
    return jar


def _read(member: str) -> str:
    jar = require_jar()
    try:
        with zipfile.ZipFile(jar) as z:
            return z.read(member).decode("utf-8")
    except (OSError, KeyError, zipfile.BadZipFile, UnicodeDecodeError) as exc:
        raise JarMissingError(f"{jar}: not a readable Meteor 1.5 jar ({member}: {exc})") from None


# (language, jar, cache folder) -> the table found in the places they give: a segment asks for the
# table, and a stat of the file each time took 0.14 s over the TED set. A table not found is looked
# for again next time.
_found_tables: dict[tuple[str, Path, Path | None], Path] = {}


def paraphrase_path(language: str = "en") -> Path:
    """The jar's paraphrase table for ``language`` (a code of meteor_core.languages):
    ``data/paraphrase-<short name>.gz`` beside the jar, where the jar itself looks
    (Constants.getDefaultParaFileURL). For English also ``METEOR_PARAPHRASE`` and the copy in the
    cache folder. pycocoevalcap ships the English table only; JarMissingError names the file."""
    lang = languages.language(language)
    name = f"paraphrase-{lang.jar_short}.gz"
    if lang.code == "en" and os.environ.get("METEOR_PARAPHRASE"):
        return Path(os.environ["METEOR_PARAPHRASE"])
    jar = require_jar()
    cache = cache_dir() if lang.code == "en" else None
    found = _found_tables.get((lang.code, jar, cache))
    if found is not None:
        return found
    places = [jar.parent / "data" / name] + ([cache / name] if cache is not None else [])
    for path in places:
        if path.is_file():
            _found_tables[lang.code, jar, cache] = path
            return path
    raise JarMissingError(f"no {lang.display} paraphrase table: data/{name} is not beside {jar}"
                          + (" (set METEOR_PARAPHRASE to its path)" if lang.code == "en" else
                             " (Meteor 1.5's full release has one; pass paraphrase_table=PATH or --paraphrase-table PATH)"))


# The variables that say where the jar and its tables are (find_jar, cache_dir, paraphrase_path).
_PLACES = ("METEOR_JAR", "METEOR_PARAPHRASE", "METEOR_EXPLORER_CACHE", "HOME")
# The same names as os.environ stores them (its encodekey: bytes on POSIX, upper case on Windows).
_ENCODED_PLACES = tuple(map(os.environ.encodekey, _PLACES)) if hasattr(os.environ, "encodekey") else None
# (language, those variables' values) -> paraphrase_path's answer: meteor15 asks on every segment,
# and the answer stats the jar (~6 us of a ~110 us segment). Forgotten by clear().
_table_paths: dict[tuple, str] = {}


def _places_now() -> tuple:
    """The values of _PLACES now (None where unset), as os.environ stores them. Read from its own
    dict: os.environ.get runs Python code and raises a KeyError inside for each unset name, 5 us
    for the four (0.012 s a pass over the 2,400 TED pairs, a segment asking once each)."""
    environ = os.environ
    stored = getattr(environ, "_data", None)
    if type(stored) is dict and _ENCODED_PLACES is not None:
        get = stored.get  # (four calls spelled out: tuple(map(...)) took twice as long)
        jar, paraphrase, cache, home = _ENCODED_PLACES
        return get(jar), get(paraphrase), get(cache), get(home)
    return tuple(map(environ.get, _PLACES))  # (an os.environ replaced by something else)


def jar_paraphrase_table(language: str = "en") -> ParaphraseTable:
    """paraphrase_table(paraphrase_path(language)), with the path found once for as long as the
    variables that place the jar and its tables stay the same."""
    key = (language, _places_now())
    path = _table_paths.get(key)
    if path is None:
        path = str(paraphrase_path(language))
        if len(_table_paths) >= 16:
            _table_paths.clear()
        _table_paths[key] = path
    return paraphrase_table(path)


def paraphrase_available(language: str = "en") -> bool:
    """Whether the jar's paraphrase table for ``language`` is on this machine."""
    try:
        return paraphrase_path(language).is_file()
    except JarMissingError:
        return False


@lru_cache(maxsize=None)
def function_words(language: str = "en") -> frozenset[str]:
    """``function/<language>.words``: the words Meteor 1.5 weighs by 1 - delta, one a line, each
    line as it is (the jar adds every line to its set). Empty for the languages the jar lists none for."""
    return frozenset(_read(f"function/{languages.language(language).jar_name}.words").splitlines())


_JAVA_SPACE = re.compile(r"[^ \t\n\r\f]+")  # java.util.StringTokenizer's default delimiters


@lru_cache(maxsize=None)
def nonbreaking_prefixes(language: str = "en") -> dict[str, int]:
    """``nonbreaking/<language>.prefixes`` (Moses' lists, as Meteor 1.5's -norm Normalizer reads
    them): prefix -> 1 if it always keeps its dot ("Mr."), 2 if only before a number ("No. 5").
    Only the languages with a -norm normaliser have one (the configuration refuses -norm for the others)."""
    out = {}
    for line in _read(f"nonbreaking/{languages.language(language).jar_name}.prefixes").splitlines():
        tokens = _JAVA_SPACE.findall(line)
        if not tokens or tokens[0].startswith("#"):
            continue
        out[tokens[0]] = 2 if len(tokens) > 1 and tokens[1] == "#NUMERIC_ONLY#" else 1
    return out


def java_hash(word: str) -> int:
    """Java's String.hashCode: over UTF-16 code units, 32-bit signed. The jar keys words by it."""
    h = 0
    for c in word:
        o = ord(c)
        if o > 0xFFFF:  # a surrogate pair: two code units
            o -= 0x10000
            h = (h * 31 + (0xD800 | o >> 10)) & 0xFFFFFFFF
            o = 0xDC00 | o & 0x3FF
        h = (h * 31 + o) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


@lru_cache(maxsize=None)
def stem_table(language: str) -> dict[int, str]:
    """The jar's stem lookup table for a language (``stem/<language>.gz``; Arabic, Buckwalter
    reduced, is the only one), as its LookupTableStemmer holds it: Java hash of the word -> stem,
    the last line of a hash winning. ``lookup_stem`` looks a word up the jar's way."""
    import gzip
    import io
    jar = require_jar()
    member = f"stem/{languages.language(language).jar_name}.gz"
    try:
        with zipfile.ZipFile(jar) as z:
            data = z.read(member)
        text = gzip.GzipFile(fileobj=io.BytesIO(data)).read().decode("utf-8")
    except (OSError, KeyError, zipfile.BadZipFile, UnicodeDecodeError, EOFError) as exc:
        raise JarMissingError(f"{jar}: not a readable Meteor 1.5 jar ({member}: {exc})") from None
    table = {}
    for line in text.splitlines():
        tokens = _JAVA_SPACE.findall(line)
        if len(tokens) >= 3:
            table[java_hash(tokens[0])] = tokens[2]
    return table


def lookup_stem(table: dict[int, str], word: str) -> str:
    """LookupTableStemmer.stem: the stem listed for a word with the same Java hash, else the word."""
    return table.get(java_hash(word), word)


# WordNet's morphology as the jar's SynonymDictionary.morph applies it: suffix -> ending, tried
# in this order; the first base form that has synsets wins.
_SUFFIXES = (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
             ("men", "man"), ("ies", "y"),  # nouns
             ("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
             ("ing", ""),  # verbs
             ("er", ""), ("est", ""), ("er", "e"), ("est", "e"))  # adjectives
_SUFFIXES_BY_LAST = {}  # a word's last letter -> the rules that can apply, in order
for _suffix, _ending in _SUFFIXES:
    _SUFFIXES_BY_LAST.setdefault(_suffix[-1], []).append((_suffix, _ending))


class JarSynonyms:
    """The jar's SynonymDictionary: a word's synsets are its own plus those of its base forms
    (from the exception list, else from WordNet's suffix rules). Synsets are WordNet offsets.
    ``synsets`` computes; ``resources.synonym_sets("jar")`` is the memoised lookup to use."""

    def __init__(self, synsets_text: str, exceptions_text: str):
        lines = synsets_text.splitlines()
        self._raw = dict(zip(lines[0::2], lines[1::2]))  # word -> "offset offset ..." (parsed when asked)
        self._bases: dict[str, list[str]] = {}
        lines = exceptions_text.splitlines()
        for base, forms in zip(lines[0::2], lines[1::2]):
            for form in forms.split():
                self._bases.setdefault(form, []).append(base)

    def _own(self, word: str) -> frozenset[int]:
        raw = self._raw.get(word)
        return frozenset(map(int, raw.split())) if raw else frozenset()

    def _morph(self, word: str) -> str:
        if word.endswith("ss") or len(word) <= 2:
            return word
        for suffix, ending in _SUFFIXES_BY_LAST.get(word[-1], ()):
            if word.endswith(suffix):
                base = word[: len(word) - len(suffix)] + ending
                if base in self._raw:
                    return base
        return ""

    def synsets(self, word: str) -> frozenset[int]:
        """getSynSets(word) | getStemSynSets(word), as SynonymMatcher builds them."""
        bases = self._bases.get(word)
        stems = frozenset().union(*map(self._own, bases)) if bases is not None else self._own(self._morph(word))
        return self._own(word) | stems

    def offsets(self, word: str) -> list[str]:
        """synsets(word) as the file spells them, each once, in no set: for a caller that keeps a
        word's keys itself (meteor15's candidates twin); no int is parsed and no set built (about
        a third of a new word's lookup). Relies on what the jar's file holds (tests check it): one
        spelling per offset (8 digits) and no offset twice on a line."""
        lines = self.offset_lines(word)
        if len(lines) == 1:
            return lines[0].split()
        found = {}
        for line in lines:
            found.update(dict.fromkeys(line.split()))
        return list(found)

    def offset_lines(self, word: str) -> tuple[str, ...]:
        """The lines of offsets (space apart, as the file spells them) that offsets(word) splits:
        the word's own, then its base forms', none empty; one offset may be on two lines. (The
        candidates twin reads the offsets off these lines in C, without a string per offset.)"""
        raw = self._raw.get(word)
        bases = self._bases.get(word)
        if bases is None:
            base = self._morph(word)
            if not base or base == word:
                return (raw,) if raw else ()
            bases = (base,)
        lines = [raw] if raw else []
        for base in bases:
            theirs = self._raw.get(base)
            if theirs:
                lines.append(theirs)
        return tuple(lines)


@lru_cache(maxsize=1)
def synonyms() -> JarSynonyms:
    """The jar's English synonym dictionary, loaded once (~0.3 s)."""
    return JarSynonyms(_read("synonym/english.synsets"), _read("synonym/english.exceptions"))


def clear() -> None:
    """Forget what was read (tests that switch METEOR_JAR)."""
    for cached in (function_words, nonbreaking_prefixes, stem_table, synonyms, _installed_jar):
        cached.cache_clear()
    _found_tables.clear()
    _table_paths.clear()


# Paraphrase tables live in meteor_core.paraphrase (parsing, the compact copy, lookups); these
# names stay for callers that knew them here.
ParaphraseTable = paraphrase.ParaphraseTable
TableError = paraphrase.TableError


def paraphrase_table(path: str) -> ParaphraseTable:
    """The Meteor-format table at ``path`` (see meteor_core.paraphrase)."""
    return paraphrase.load(str(path))


paraphrase_table.cache_clear = paraphrase.load.cache_clear
