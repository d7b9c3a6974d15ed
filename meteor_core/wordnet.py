"""WordNet 3.0 read straight from NLTK's data files: only what METEOR asks of it.

NLTK's reader builds Synset and Lemma objects for every synset it touches and needs ~3 s and
~250 MB to load its index (and `import nltk` alone pulls in scipy.stats when scipy is installed).
METEOR needs four things, which this reader gives exactly as NLTK would:

* ``synset_keys(word)``: the synsets ``wordnet.synsets(word)`` returns (morphy's base forms and
  exception lists included), as integers ``offset * 4 + part of speech`` (offsets are unique
  within a part of speech's data file);
* ``lemma_names(key)``: ``synset.lemma_names()`` (adjective markers such as "(a)" stripped);
* ``lemma_keys(name)``: the synsets whose lemma names include ``name`` (in any case), from the index;
* ``synset_name(key)``: ``synset.name()``, e.g. "large.a.01" or, for adjective satellites, "big.s.02".

The index (four files, ~155,000 lemmas) is parsed once into one table, lemma -> the keys of its
synsets in every part of speech (one lookup finds a word wherever it is); a synset's line is read from the
memory-mapped data file when first asked for and remembered. Reads use no shared file position,
so threads (Streamlit's sessions) can share the reader. The files are found where NLTK looks
(``NLTK_DATA``, ``~/nltk_data``, ``sys.prefix``'s and the system's nltk_data folders), as a
``corpora/wordnet`` folder or ``corpora/wordnet.zip``.
"""
from __future__ import annotations

import mmap
import os
import re
import sys
import threading
import zipfile
from functools import cached_property
from pathlib import Path

POS_LIST = ("n", "v", "a", "r")  # the order wordnet.synsets() tries (NLTK's POS_LIST)
_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
# NLTK's WordNetCorpusReader.MORPHOLOGICAL_SUBSTITUTIONS
_SUBSTITUTIONS = {
    "n": [("s", ""), ("ses", "s"), ("ves", "f"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
          ("men", "man"), ("ies", "y")],
    "v": [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")],
    "a": [("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    "r": [],
}
# Each part of speech's rules by the last letter of their suffix, in order: a word need only try
# those ending in its own last letter.
_RULES_BY_LAST = {pos: {old[-1]: [rule for rule in rules if rule[0][-1] == old[-1]] for old, _ in rules}
                  for pos, rules in _SUBSTITUTIONS.items()}
# Every part of speech's rules by the last letter of their suffix, as (part of speech's number, suffix,
# replacement), in POS_LIST order and each one's own order: a word with no exception entry tries these alone.
_ALL_RULES_BY_LAST = {last: tuple((p, old, new) for p, pos in enumerate(POS_LIST) for old, new in _SUBSTITUTIONS[pos]
                                  if old[-1] == last)
                      for last in {old[-1] for rules in _SUBSTITUTIONS.values() for old, _ in rules}}
_MARKER = re.compile(r"(.*?)(\([^()]*\))?$")  # "galore(ip)" -> "galore", as NLTK strips it
# The bytes of a data line's start that _head reads: its first six fields (a first lemma name is
# rarely longer than 40 characters; a longer one is read from the whole line).
_HEAD_BYTES = 96


def data_roots() -> list[Path]:
    """NLTK's search path (nltk.data.path), computed without importing NLTK."""
    roots = [Path(os.path.expanduser(d)) for d in os.environ.get("NLTK_DATA", "").split(os.pathsep) if d]
    if "nltk" in sys.modules and hasattr(sys.modules["nltk"], "data"):  # a path the user changed at run time
        roots += [Path(p) for p in sys.modules["nltk"].data.path if isinstance(p, str)]
    roots.append(Path(os.path.expanduser("~/nltk_data")))
    roots += [Path(sys.prefix, "nltk_data"), Path(sys.prefix, "share", "nltk_data"), Path(sys.prefix, "lib", "nltk_data"),
              Path("/usr/share/nltk_data"), Path("/usr/local/share/nltk_data"), Path("/usr/lib/nltk_data"),
              Path("/usr/local/lib/nltk_data")]
    return list(dict.fromkeys(roots))


def locate() -> Path | None:
    """The WordNet folder (or zip file) NLTK would use, or None."""
    for root in data_roots():
        folder = root / "corpora" / "wordnet"
        if (folder / "index.noun").is_file() and (folder / "data.noun").is_file():
            return folder
        archive = root / "corpora" / "wordnet.zip"
        if archive.is_file():
            return archive
    return None


class WordNet:
    """The index in memory, the data files mapped; see the module docstring."""

    def __init__(self, location: Path):
        self.location = location
        self._zip = zipfile.ZipFile(location) if location.suffix == ".zip" else None
        self._keys_of: dict[str, tuple[int, ...]] = self._read_index()
        self.exceptions: dict[str, dict[str, list[str]]] = {p: self._read_exceptions(p) for p in POS_LIST}
        # Per part of speech, in POS_LIST order, what synset_keys needs (no lookups by name).
        self._by_pos = [(p, self.exceptions[pos], _RULES_BY_LAST[pos]) for p, pos in enumerate(POS_LIST)]
        self._irregular = frozenset().union(*self.exceptions.values())  # forms with an exception entry
        self._data: dict[str, bytes | mmap.mmap] = {}
        self._lines: dict[int, tuple[str, list[str]]] = {}  # key -> (synset type, lemma names)
        self._lock = threading.Lock()  # guards the first mapping of a data file

    # --- files ---------------------------------------------------------------------------------

    def _read(self, name: str) -> bytes:
        if self._zip is not None:
            return self._zip.read(f"wordnet/{name}")
        return (self.location / name).read_bytes()

    def _read_index(self) -> dict[str, tuple[int, ...]]:
        """lemma -> the keys of its synsets, part of speech after part of speech in POS_LIST order,
        from the files index.<pos>: "lemma pos n_synsets n_pointers [pointers] n_senses n_tagged
        offset...", the offsets being the last n_synsets fields."""
        keys_of: dict[str, tuple[int, ...]] = {}
        for p, pos in enumerate(POS_LIST):
            for line in self._read(f"index.{_FILES[pos]}").decode("utf-8").splitlines():
                if not line or line[0] == " ":  # the licence header
                    continue
                fields = line.split()
                keys = tuple([int(offset) * 4 + p for offset in fields[-int(fields[2]):]])
                before = keys_of.get(fields[0])
                keys_of[fields[0]] = keys if before is None else before + keys
        return keys_of

    @cached_property
    def index(self) -> dict[str, dict[str, tuple[int, ...]]]:
        """Part of speech -> lemma -> its synsets' offsets (as in the index files), made when
        first asked for."""
        index: dict[str, dict[str, tuple[int, ...]]] = {pos: {} for pos in POS_LIST}
        for lemma, keys in self._keys_of.items():
            for p, pos in enumerate(POS_LIST):
                offsets = tuple(key >> 2 for key in keys if key & 3 == p)
                if offsets:
                    index[pos][lemma] = offsets
        return index

    def _read_exceptions(self, pos: str) -> dict[str, list[str]]:
        out = {}
        for line in self._read(f"{_FILES[pos]}.exc").decode("utf-8").splitlines():
            terms = line.split()
            if terms:
                out[terms[0]] = terms[1:]
        return out

    def _data_file(self, pos: str):
        data = self._data.get(pos)
        if data is None:
            with self._lock:
                data = self._data.get(pos)
                if data is None:
                    if self._zip is not None:
                        data = self._zip.read(f"wordnet/data.{_FILES[pos]}")
                    else:
                        with open(self.location / f"data.{_FILES[pos]}", "rb") as f:
                            data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
                    self._data[pos] = data
        return data

    def _entry(self, key: int) -> tuple[str, list[str]]:
        """A synset's type ("n", "v", "a", "s" or "r") and lemma names, read from its data line:
        "offset lex_filenum ss_type w_cnt(hex) word lex_id ... | gloss"."""
        entry = self._lines.get(key)
        if entry is None:
            offset, p = divmod(key, 4)
            data = self._data_file(POS_LIST[p])
            end = data.find(b"\n", offset)
            line = data[offset:end if end >= 0 else len(data)].decode("utf-8")
            head = line.split(None, 4)
            if len(head) < 5 or int(head[0]) != offset:
                raise ValueError(f"WordNet data file has no synset at offset {offset}")
            count = int(head[3], 16)
            # Only the lemma fields are split off; only an adjective's can end in a marker.
            words = head[4].split(None, 2 * count)[:2 * count:2]
            names = [w if w[-1] != ")" else _MARKER.match(w).group(1) for w in words]
            entry = self._lines[key] = (head[2], names)
        return entry

    def _head(self, key: int) -> tuple[str, str]:
        """A synset's type and first lemma name (as _entry gives them), read from the start of its
        data line alone: naming a synset needs no more, and the rest of the line (its other lemmas,
        pointers and gloss: hundreds of bytes) is neither searched for its end, decoded nor split."""
        entry = self._lines.get(key)
        if entry is not None:
            return entry[0], entry[1][0]
        offset, p = divmod(key, 4)
        # "offset lex_filenum ss_type w_cnt word lex_id ...": the sixth field starts in the window
        # only when the first word ends in it
        head = self._data_file(POS_LIST[p])[offset:offset + _HEAD_BYTES].split(None, 5)
        if len(head) < 6 or not head[0].isdigit() or int(head[0]) != offset:
            kind, names = self._entry(key)  # (a long first word, or no synset here: _entry says so)
            return kind, names[0]
        word = head[4].decode("utf-8")
        return head[2].decode("ascii"), word if word[-1] != ")" else _MARKER.match(word).group(1)

    def _kind(self, key: int) -> str:
        """A synset's type alone, from the start of its data line ("offset lex_filenum ss_type",
        13 characters): naming an adjective satellite asks it of every synset of its first lemma."""
        entry = self._lines.get(key)
        if entry is not None:
            return entry[0]
        offset, p = divmod(key, 4)
        head = self._data_file(POS_LIST[p])[offset:offset + 16].split(None, 3)
        if len(head) < 3 or int(head[0]) != offset:
            raise ValueError(f"WordNet data file has no synset at offset {offset}")
        return head[2].decode("ascii")

    # --- what METEOR asks -----------------------------------------------------------------------

    def synset_keys(self, word: str) -> list[int]:
        """The synsets of wordnet.synsets(word), in NLTK's order, as integer keys: for each part
        of speech, the synsets of each base form NLTK's _morphy finds (the word itself, its
        exception list's forms or the forms its suffix rules make, those the index lists, each
        once). Called once per word (resources memoises it), on the words of a corpus's first
        segments: the common cases are spelled out."""
        word = word.lower()
        own = self._keys_of.get(word, ())
        if word in self._irregular:
            return self._irregular_keys(word, own)
        return _regular_keys(self._keys_of, word, own)

    def _irregular_keys(self, word: str, own: tuple[int, ...]) -> list[int]:
        """synset_keys for a word some part of speech lists an exception for: in that part of speech
        the word and its exception's forms are the base forms, in the others the word and its rules' forms."""
        keys_of = self._keys_of
        keys: list[int] = []
        found = {}  # form -> its keys: the parts of speech's rules often make the same form
        last = word[-1:]
        for p, exceptions, rules_by_last in self._by_pos:
            forms = exceptions.get(word)
            if forms is None:
                keys += [key for key in own if key & 3 == p]
                rules = rules_by_last.get(last)
                if rules is None:
                    continue
                seen = {word}
                forms = [word[: -len(old)] + new for old, new in rules if word.endswith(old)]
            else:
                seen = set()
                forms = [word, *forms]
            for form in forms:
                if form not in seen:
                    form_keys = found.get(form)
                    if form_keys is None:
                        form_keys = found[form] = keys_of.get(form, ())
                    form_keys = [key for key in form_keys if key & 3 == p]
                    if form_keys:  # (the index lists the form in this part of speech)
                        seen.add(form)
                        keys += form_keys
        return keys

    def lemma_keys(self, name: str) -> list[int]:
        """The synsets that list ``name`` among their lemma names, in any case: its own index
        entries (no morphy). Every lemma name of every synset is indexed under its lower case."""
        return list(self._keys_of.get(name.lower(), ()))

    def lemma_names(self, key: int) -> list[str]:
        return self._entry(key)[1]

    def synset_name(self, key: int) -> str:
        """NLTK's synset name: first lemma, type, and its sense number among that lemma's synsets
        of the same type (for adjective satellites, among its satellites only)."""
        offset, p = divmod(key, 4)
        kind, first = self._head(key)
        first = first.lower()
        offsets = [k >> 2 for k in self._keys_of[first] if k & 3 == p]
        if kind == "s":
            offsets = [o for o in offsets if self._kind(o * 4 + p) == "s"]
        return f"{first}.{kind}.{offsets.index(offset) + 1:02d}"


def _regular_keys(keys_of: dict[str, tuple[int, ...]], word: str, own: tuple[int, ...]) -> list[int]:
    """WordNet.synset_keys for a word (lower-cased) no part of speech lists an exception for, its
    own keys ``own`` looked up already. (A function of the module, not a method: wordnet.pxd gives
    its containers C types, so the compiled build calls the dict's and the string's C functions.)"""
    rules = _ALL_RULES_BY_LAST.get(word[-1:])
    if rules is None:
        # No rule's suffix ends in its last letter (most words): the word is its only base form.
        return list(own)
    # The forms the rules make that the index lists, with their keys, in POS_LIST order: one
    # pass over the rules ending in the word's last letter, whatever their part of speech.
    bases = []
    for p, old, new in rules:
        if word.endswith(old):
            form = word[: -len(old)] + new
            form_keys = keys_of.get(form)
            if form_keys is not None:
                bases.append((p, form, form_keys))
    if not bases:
        return list(own)
    # Each part of speech's own keys (the word as its base form) come before its rules' forms.
    keys: list[int] = []
    seen = set()  # (part of speech, form): the rules of one part of speech can make a form twice
    n_own = 0
    for p, form, form_keys in bases:
        while n_own < len(own) and own[n_own] & 3 <= p:
            keys.append(own[n_own])
            n_own += 1
        if (p, form) not in seen:
            seen.add((p, form))
            keys += [key for key in form_keys if key & 3 == p]
    keys += own[n_own:]
    return keys
