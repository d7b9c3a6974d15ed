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
import zipfile
from functools import lru_cache
from pathlib import Path

JAR_NAME = "meteor-1.5.jar"
PARAPHRASE_NAME = "paraphrase-en.gz"


class JarMissingError(RuntimeError):
    """A Meteor 1.5 resource was asked for and no jar (or its paraphrase table) was found."""


JAR_FIX = (
    "no Meteor 1.5 jar found (Meteor 1.5's function words, -norm tokenizer prefixes and "
    "synonyms are read from the user's meteor-1.5.jar, never bundled). Fix: pip install pycocoevalcap "
    "(it ships the jar), or set METEOR_JAR=/path/to/meteor-1.5.jar."
)


def cache_dir() -> Path:
    configured = os.environ.get("METEOR_EXPLORER_CACHE")
    return Path(configured) if configured else _default_cache_dir(os.environ.get("HOME", ""))


@lru_cache(maxsize=4)
def _default_cache_dir(home: str) -> Path:
    """~/.cache/meteor-explorer, made once per HOME: Path.home() takes ~10 us, and finding the jar
    asks for this folder on every segment until the jar's synonyms are loaded."""
    return Path.home() / ".cache" / "meteor-explorer"


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


def paraphrase_path() -> Path:
    """The jar's English paraphrase table: ``data/paraphrase-en.gz`` beside the jar (where the
    jar itself looks), or ``METEOR_PARAPHRASE``, or the copy in the cache folder."""
    if os.environ.get("METEOR_PARAPHRASE"):
        return Path(os.environ["METEOR_PARAPHRASE"])
    jar = require_jar()
    for path in (jar.parent / "data" / PARAPHRASE_NAME, cache_dir() / PARAPHRASE_NAME):
        if path.is_file():
            return path
    raise JarMissingError(f"the paraphrase table data/{PARAPHRASE_NAME} is not beside {jar} "
                          "(set METEOR_PARAPHRASE to its path)")


@lru_cache(maxsize=1)
def function_words() -> frozenset[str]:
    """``function/english.words``: the words Meteor 1.5 weighs by 1 - delta."""
    return frozenset(_read("function/english.words").split())


@lru_cache(maxsize=1)
def nonbreaking_prefixes() -> dict[str, int]:
    """``nonbreaking/english.prefixes`` (Moses' list, as Meteor 1.5's -norm Normalizer reads it):
    prefix -> 1 if it always keeps its dot ("Mr."), 2 if only before a number ("No. 5")."""
    out = {}
    for line in _read("nonbreaking/english.prefixes").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, flag = line.partition(" ")
            out[word] = 2 if "#NUMERIC_ONLY#" in flag else 1
    return out


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


@lru_cache(maxsize=1)
def synonyms() -> JarSynonyms:
    """The jar's English synonym dictionary, loaded once (~0.3 s)."""
    return JarSynonyms(_read("synonym/english.synsets"), _read("synonym/english.exceptions"))


def clear() -> None:
    """Forget what was read (tests that switch METEOR_JAR)."""
    for cached in (function_words, nonbreaking_prefixes, synonyms, _installed_jar):
        cached.cache_clear()


class ParaphraseTable:
    """A Meteor-format paraphrase table as the jar's ParaphraseTransducer holds it: phrase ->
    its paraphrases, in file order, in the direction the file gives (the matcher looks each
    sentence's phrases up in turn, so both directions are covered)."""

    def __init__(self, pairs: dict[str, tuple[str, ...]]):
        self.pairs = pairs
        self.max_words = max((p.count(" ") + 1 for p in pairs), default=0)

    def paths(self, words: list[str], start: int, most: int | None = None) -> list[tuple[int, str]]:
        """getReferencePaths: (phrase length, paraphrase) for the phrases starting at ``start``,
        shortest phrase first, each phrase's paraphrases in file order (only its first ``most`` if
        given)."""
        found = []
        for end in range(start + 1, min(start + self.max_words, len(words)) + 1):
            paraphrases = self.pairs.get(" ".join(words[start:end]))
            if paraphrases:
                found += [(end - start, p) for p in paraphrases[:most]]
        return found


# A parsed copy is kept on disk only for tables this large (the jar's English table is 61 MB):
# smaller ones parse in a few seconds, and every table a visitor uploads (20 MiB at most) would
# otherwise leave a copy behind. The KEPT_PARSED most recently used copies are kept.
PARSED_CACHE_MIN_BYTES = 32 * 2**20
KEPT_PARSED = 4


@lru_cache(maxsize=2)
def paraphrase_table(path: str) -> ParaphraseTable:
    """Load a table of line triplets (probability, phrase, paraphrase), gzip or plain text.
    Meteor 1.5's English table (5.3M entries) takes ~10 s to read and ~0.5 GB; a parsed copy of a
    large table is kept in the cache folder (METEOR_EXPLORER_CACHE), which loads in ~2 s the
    next time."""
    import gzip
    import hashlib
    import marshal

    try:
        stat = os.stat(path)
    except OSError as exc:
        raise ValueError(f"{path}: not a readable Meteor paraphrase table ({exc})") from None
    tag = hashlib.sha1(f"{os.path.abspath(path)}|{stat.st_size}|{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    cached = cache_dir() / f"paraphrases-{tag}.marshal"
    keep_copy = stat.st_size >= PARSED_CACHE_MIN_BYTES
    if keep_copy:
        try:
            with open(cached, "rb") as f:
                table = marshal.load(f)
            os.utime(cached)  # recently used: the last to be forgotten
            return ParaphraseTable(table)
        except (OSError, EOFError, ValueError, TypeError):
            pass
    opener = gzip.open if str(path).endswith(".gz") else open
    pairs: dict[str, list[str]] = {}
    strings: dict[str, str] = {}  # one object per distinct phrase (smaller in memory and on disk)
    try:
        with opener(path, "rt", encoding="utf-8") as f:
            lines = iter(f)
            for _probability in lines:
                phrase, paraphrase = " ".join(next(lines).split()), " ".join(next(lines).split())
                if phrase and paraphrase:
                    phrase = strings.setdefault(phrase, phrase)
                    pairs.setdefault(phrase, []).append(strings.setdefault(paraphrase, paraphrase))
    except (OSError, UnicodeDecodeError, EOFError, StopIteration) as exc:
        raise ValueError(f"{path}: not a readable Meteor paraphrase table ({exc or 'truncated'})") from None
    table = {phrase: tuple(found) for phrase, found in pairs.items()}
    if keep_copy:
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            partial = cached.with_suffix(f".{os.getpid()}.tmp")
            with open(partial, "wb") as f:
                marshal.dump(table, f)
            os.replace(partial, cached)
            _forget_old_copies(cached.parent)
        except OSError:
            pass  # no cache folder: read the table again next time
    return ParaphraseTable(table)


def _forget_old_copies(folder: Path) -> None:
    """Delete all but the KEPT_PARSED most recently used parsed tables."""
    copies = []
    for path in folder.glob("paraphrases-*.marshal"):
        try:
            copies.append((path.stat().st_mtime, path))
        except OSError:
            pass  # deleted meanwhile by another process
    for _, path in sorted(copies, reverse=True)[KEPT_PARSED:]:
        try:
            path.unlink()
        except OSError:
            pass
