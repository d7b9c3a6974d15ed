"""Meteor-format paraphrase tables, read once and then looked up from a compact form.

A table is a text file (gzip or plain) of line triplets: probability, phrase, paraphrase. Meteor
1.5's ParaphraseTransducer keeps, for each phrase, its paraphrases in file order; the matcher looks
each sentence's phrases up in turn (``paths``), so both directions are covered.

The jar's English table (data/paraphrase-en.gz, 61 MB; 272 MB and 5.3 M pairs once decompressed)
took ~10 s to parse and ~0.5 GB as Python dicts. Here a table becomes flat arrays instead:

* every distinct string once, UTF-8, in one byte pool with an offset array;
* the phrases in an open-addressing hash table (CRC-32 of the phrase's bytes, linear probing),
  each slot holding the phrase's CRC-32 beside its index, so that a probe passes over another
  phrase's slot without reading that phrase's bytes (a lookup of a word sequence that is no
  phrase, most of them, read three scattered places of the file per occupied slot it met);
* each phrase's paraphrases as a run of string ids, in file order;
* a bit array marking (by CRC-32) the word sequences that begin a longer phrase, so that a lookup
  stops extending a phrase where the jar's ParaphraseTransducer, a trie, stops (a false mark only
  costs one more lookup: the paraphrases found are the same);
* beside each paraphrase of the runs, its 16-bit filter key (``_target_keys``): what the compiled
  matcher tests against a sentence's n-grams before it reads the paraphrase's bytes, read in a
  row rather than computed from bytes scattered over the pool.

A large table (``CACHED_MIN_BYTES`` or more: the jar's) is parsed once and written to the cache
folder in that form; later processes map the file (``mmap``) and are ready in milliseconds, and
memory grows only with the pages lookups touch (shared between processes by the page cache).
Smaller tables (uploads) are parsed into the same arrays in memory, so one lookup path serves all.

Reading is bounded whatever the path names (a pipe, ``/dev/zero``, a gzip bomb): at most
``MAX_TABLE_BYTES`` decompressed, lines of at most ``MAX_LINE_BYTES``, ``MAX_PAIRS`` pairs.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import mmap
import os
import re
import struct
import time
import zlib
from array import array
from functools import lru_cache
from pathlib import Path

from .cache import cache_dir

MAX_TABLE_BYTES = 1 << 30  # decompressed; the jar's English table is 272 MB
MAX_LINE_BYTES = 1 << 16  # a phrase of a few words; the jar's longest line is ~100 bytes
MAX_PAIRS = 20_000_000  # the jar's English table has 5.3 M
# Tables this large get a parsed copy in the cache folder (the jar's; an upload, at most 20 MiB,
# never does), and the KEPT_PARSED most recently used copies are kept.
CACHED_MIN_BYTES = 32 * 2**20
KEPT_PARSED = 4
_MAGIC = b"METEOR-PARAPHRASES-4\n"  # (part of a copy's name: one in another format is never read)
# The jar reads a phrase's words with java.util.StringTokenizer: separated by space, tab, newline,
# carriage return or form feed only.
_JAVA_TOKENS = re.compile(rb"[^ \t\n\r\f]+").findall
_ARRAYS = (("offsets", "I"), ("slots", "Q"), ("phrase_string", "I"), ("phrase_start", "I"), ("targets", "I"),
           ("prefix_bits", "B"), ("target_keys", "H"))


class TableError(ValueError):
    """A paraphrase table that cannot be read (the message names the file and the reason)."""


FOUND_PHRASES, FOUND_PARAPHRASES = 200_000, 1_000_000  # what a table keeps of its lookups, at most


class ParaphraseTable:
    """A parsed table. ``lookup(phrase)`` gives the paraphrases of a phrase in file order;
    ``paths(words, start)`` what Meteor's ParaphraseTransducer.getReferencePaths gives."""

    def __init__(self, pool, arrays: dict, max_words: int, pairs: int, name: str = ""):
        self._pool = pool
        self._offsets, self._slots = arrays["offsets"], arrays["slots"]
        self._phrase_string, self._phrase_start, self._targets = (
            arrays["phrase_string"], arrays["phrase_start"], arrays["targets"])
        self._prefix_bits = arrays["prefix_bits"]
        self._target_keys = arrays["target_keys"]
        self._prefix_mask = len(self._prefix_bits) * 8 - 1
        self._mask = len(self._slots) - 1
        self.max_words = max_words
        self.pairs = pairs  # how many (phrase, paraphrase) pairs the table holds
        self.phrases = len(self._phrase_string)
        self.name = name
        # (phrase, limit) -> its paraphrases: the same phrases recur from segment to segment, most
        # of them ("of the", "a") with paraphrases; bounded by the paraphrases it holds.
        self._found: dict[tuple[str, int | None], tuple[str, ...]] = {}
        self._found_size = 0

    def arrays(self) -> dict:
        """The compact form's arrays by name (see _ARRAYS), and the byte pool as "pool": what
        the compiled paraphrase matcher (align/_paraphrase_match.pyx) reads."""
        arrays = {name: getattr(self, "_" + name) for name, _ in _ARRAYS}
        arrays["pool"] = self._pool
        return arrays

    def _string(self, k: int) -> str:
        return str(self._pool[self._offsets[k]:self._offsets[k + 1]], "utf-8")

    def _phrase_index(self, phrase: str) -> int:
        data = phrase.encode("utf-8")
        h = zlib.crc32(data)
        slot = h & self._mask
        slots, offsets, pool, phrase_string = self._slots, self._offsets, self._pool, self._phrase_string
        while True:
            entry = slots[slot]  # (0: empty; else the phrase's CRC-32 << 32 | its index + 1)
            if not entry:
                return -1
            if entry >> 32 == h:
                p = (entry & 0xFFFFFFFF) - 1
                s = phrase_string[p]
                if pool[offsets[s]:offsets[s + 1]] == data:
                    return p
            slot = (slot + 1) & self._mask

    @property
    def most_paraphrases(self) -> int:
        """The largest number of paraphrases one phrase has."""
        starts = self._phrase_start
        return max((starts[p + 1] - starts[p] for p in range(self.phrases)), default=0)

    def count(self, phrase: str) -> int:
        """How many paraphrases ``phrase`` has (without decoding them)."""
        p = self._phrase_index(phrase)
        return 0 if p < 0 else self._phrase_start[p + 1] - self._phrase_start[p]

    def lookup(self, phrase: str, limit: int | None = None) -> tuple[str, ...]:
        """The paraphrases of ``phrase`` in file order (the first ``limit`` of them if given)."""
        key = (phrase, limit)
        found = self._found.get(key)
        if found is not None:
            return found
        p = self._phrase_index(phrase)
        if p < 0:
            found = ()
        else:
            start, end = self._phrase_start[p], self._phrase_start[p + 1]
            if limit is not None:
                end = min(end, start + limit)
            found = tuple(map(self._string, self._targets[start:end]))
        if len(self._found) >= FOUND_PHRASES or self._found_size >= FOUND_PARAPHRASES:
            self._found.clear()
            self._found_size = 0
        self._found[key] = found
        self._found_size += len(found)
        return found

    def begins_a_longer_phrase(self, phrase: str) -> bool:
        """Whether some phrase of the table starts with these words and has more (or, rarely, a
        hash collision says so)."""
        bit = zlib.crc32(phrase.encode("utf-8")) & self._prefix_mask
        return bool(self._prefix_bits[bit >> 3] >> (bit & 7) & 1)

    def paths(self, words: list[str], start: int, most: int | None = None) -> list[tuple[int, str]]:
        """(phrase length, paraphrase) for the phrases starting at ``start``, shortest phrase first,
        each phrase's paraphrases in file order (only its first ``most`` if given)."""
        found = []
        for end in range(start + 1, min(start + self.max_words, len(words)) + 1):
            phrase = " ".join(words[start:end])
            paraphrases = self.lookup(phrase, most)
            if paraphrases:
                found += [(end - start, p) for p in paraphrases]
            if end < len(words) and not self.begins_a_longer_phrase(phrase):
                break  # (the jar's trie has no path on)
        return found

    def items(self):
        """Every (phrase, its paraphrases), in no particular order (tests, exports)."""
        for p in range(self.phrases):
            phrase = self._string(self._phrase_string[p])
            yield phrase, self.lookup(phrase)


# --- reading a table ---------------------------------------------------------------------------


def _lines(path: str):
    """The table's lines as bytes without their end, read in bounded pieces."""
    try:
        with open(path, "rb") as raw:
            head = raw.read(2)
    except OSError as exc:
        raise TableError(f"{path}: not a readable paraphrase table ({exc.strerror or exc})") from None
    opener = gzip.open if head == b"\x1f\x8b" else open
    total = 0
    try:
        with opener(path, "rb") as f:
            while True:
                line = f.readline(MAX_LINE_BYTES + 1)
                if not line:
                    return
                total += len(line)
                if total > MAX_TABLE_BYTES:
                    raise TableError(f"{path}: over {MAX_TABLE_BYTES // 2**20:,} MiB (decompressed); "
                                     "the limit for a paraphrase table")
                if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                    raise TableError(f"{path}: a line longer than {MAX_LINE_BYTES:,} bytes; not a Meteor paraphrase table")
                yield line.rstrip(b"\r\n")
    except (OSError, EOFError, zlib.error) as exc:
        raise TableError(f"{path}: not a readable paraphrase table ({exc})") from None


def _words(line: bytes) -> bytes:
    """The line's words, one space apart (bytes.split is the C fast path; it also splits at a
    vertical tab, which the jar's tokenizer keeps inside a word)."""
    return b" ".join(line.split() if b"\x0b" not in line else _JAVA_TOKENS(line))


def parse(path: str, name: str = "") -> ParaphraseTable:
    """Read a table (bounded, see the module docstring) into its compact form, in memory."""
    strings: dict[bytes, int] = {}  # every distinct phrase and paraphrase -> its id
    order: list[bytes] = []
    phrases: dict[int, array] = {}  # phrase id -> paraphrase ids in file order (dicts keep order)
    pairs = max_words = 0
    lines = _lines(path)
    for _probability in lines:
        try:
            phrase, paraphrase = next(lines), next(lines)
        except StopIteration:
            raise TableError(f"{path}: ends inside an entry (a table is line triplets: probability, phrase, "
                             "paraphrase)") from None
        phrase, paraphrase = _words(phrase), _words(paraphrase)
        if not phrase or not paraphrase:
            continue
        k = strings.get(phrase)
        if k is None:
            k = strings[phrase] = len(order)
            order.append(phrase)
        j = strings.get(paraphrase)
        if j is None:
            j = strings[paraphrase] = len(order)
            order.append(paraphrase)
        found = phrases.get(k)
        if found is None:
            phrases[k] = array("I", (j,))
        else:
            found.append(j)
        pairs += 1
        if pairs > MAX_PAIRS:
            raise TableError(f"{path}: over {MAX_PAIRS:,} pairs; the limit for a paraphrase table")
    del strings  # (not needed to build the arrays: its memory goes before theirs is taken)
    for k in phrases:
        max_words = max(max_words, order[k].count(b" ") + 1)
    return _build(order, phrases, pairs, max_words, name or Path(path).name)


def _check_utf8(pool: bytes, name: str) -> None:
    import codecs
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        for start in range(0, len(pool), 1 << 20):
            decoder.decode(pool[start:start + (1 << 20)])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError as exc:
        raise TableError(f"{name}: not UTF-8 ({exc.reason}); save the table as UTF-8") from None


def _build(order: list[bytes], phrases: dict[int, array], pairs: int, max_words: int, name: str) -> ParaphraseTable:
    offsets = array("I", [0])
    position = 0
    for text in order:
        position += len(text)
        offsets.append(position)
    pool = b"".join(order)
    _check_utf8(pool, name)
    n_slots = 1 << max(4, (2 * len(phrases)).bit_length())  # at most half full
    slots = array("Q", [0]) * n_slots  # (0: empty; else CRC-32 << 32 | phrase index + 1)
    phrase_string, phrase_start, targets = array("I"), array("I", [0]), array("I")
    mask = n_slots - 1
    for p, (k, paraphrases) in enumerate(phrases.items()):
        h = zlib.crc32(order[k])
        slot = h & mask
        while slots[slot]:
            slot = (slot + 1) & mask
        slots[slot] = h << 32 | (p + 1)
        phrase_string.append(k)
        targets.extend(paraphrases)
        phrase_start.append(len(targets))
    prefix_bits = _prefix_bits(order[k] for k in phrases)
    del order[:]  # (the caller's list: the pool holds the text now)
    arrays = {"offsets": offsets, "slots": slots, "phrase_string": phrase_string, "phrase_start": phrase_start,
              "targets": targets, "prefix_bits": prefix_bits, "target_keys": _target_keys(pool, offsets, targets)}
    return ParaphraseTable(pool, arrays, max_words, pairs, name)


def _target_keys(pool: bytes, offsets: array, targets: array) -> array:
    """Each paraphrase's filter key, in the order of ``targets``: its byte length and its first
    two and last two bytes, mixed by one multiplication into 16 bits (the compiled matcher's
    filter_key, align/_paraphrase_match.pyx, which a test holds equal). Made per distinct string
    (2.6 M for the jar's table, with ~0.1 GB of temporaries), then read out per paraphrase."""
    import numpy as np

    out = array("H")
    if not targets:
        return out
    data = np.frombuffer(pool, dtype=np.uint8) if pool else np.zeros(1, dtype=np.uint8)
    ends = np.frombuffer(offsets, dtype=np.uint32).astype(np.int64)
    start, end = ends[:-1], ends[1:]
    length = end - start
    last = len(data) - 1  # (indices kept inside the pool for an empty string, which has no key to find)
    longer = length > 1
    x = length.astype(np.uint64)
    for at, shift in ((start, 16), (np.where(longer, start + 1, start), 24), (end - 1, 32),
                      (np.where(longer, end - 2, start), 40)):
        x |= data[np.clip(at, 0, last)].astype(np.uint64) << np.uint64(shift)
    keys = ((x * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(48)).astype(np.uint16)  # (uint64 products wrap, as in C)
    out.frombytes(keys[np.frombuffer(targets, dtype=np.uint32)].tobytes())
    return out


def _prefix_bits(phrases) -> bytearray:
    """The bit array of ``ParaphraseTable.begins_a_longer_phrase``: each phrase's proper word
    prefixes marked by CRC-32, about 16 bits a prefix (a false mark for one word sequence in ~16)."""
    prefixes = set()
    for phrase in phrases:
        cut = phrase.find(b" ")
        while cut != -1:
            prefixes.add(zlib.crc32(phrase[:cut]))
            cut = phrase.find(b" ", cut + 1)
    n_bits = 1 << max(13, (16 * len(prefixes)).bit_length())
    bits = bytearray(n_bits // 8)
    mask = n_bits - 1
    for h in prefixes:
        h &= mask
        bits[h >> 3] |= 1 << (h & 7)
    return bits


# --- the parsed copy on disk -------------------------------------------------------------------


def _write(table: ParaphraseTable, destination: Path) -> None:
    """The table's arrays in one file: a header (JSON: sizes, where each array starts), then the
    arrays and the pool, each 8-byte aligned. Written to a temporary name and renamed."""
    parts = list(table.arrays().items())
    layout, position = {}, 0
    for name, data in parts:
        size = memoryview(data).nbytes
        layout[name] = [position, size]
        position += (size + 7) // 8 * 8
    header = json.dumps({"layout": layout, "max_words": table.max_words, "pairs": table.pairs,
                         "name": table.name, "byteorder": _byteorder()}).encode()
    start = (len(_MAGIC) + 8 + len(header) + 7) // 8 * 8
    partial = destination.with_suffix(f".{os.getpid()}.tmp")
    with open(partial, "wb") as f:
        f.write(_MAGIC + struct.pack("<Q", len(header)) + header)
        f.write(b"\0" * (start - f.tell()))
        for name, data in parts:
            f.write(memoryview(data).cast("B"))
            f.write(b"\0" * ((-memoryview(data).nbytes) % 8))
    os.replace(partial, destination)


def _byteorder() -> str:
    import sys
    return sys.byteorder


def _mapped(path: Path) -> ParaphraseTable:
    """A parsed copy, mapped into memory (nothing is read until a lookup touches it)."""
    with open(path, "rb") as f:
        mapping = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    try:
        if mapping[:len(_MAGIC)] != _MAGIC:
            raise ValueError("not a parsed paraphrase table")
        (length,) = struct.unpack_from("<Q", mapping, len(_MAGIC))
        header = json.loads(bytes(mapping[len(_MAGIC) + 8:len(_MAGIC) + 8 + length]))
        if header["byteorder"] != _byteorder():
            raise ValueError("written on a machine of the other byte order")
        start = (len(_MAGIC) + 8 + length + 7) // 8 * 8
        view = memoryview(mapping)
        arrays = {}
        for name, code in _ARRAYS + (("pool", "B"),):
            offset, size = header["layout"][name]
            arrays[name] = view[start + offset:start + offset + size].cast(code)
        return ParaphraseTable(arrays.pop("pool"), arrays, header["max_words"], header["pairs"], header["name"])
    except (ValueError, KeyError, TypeError, struct.error):
        mapping.close()
        raise


def _copy_path(path: str) -> Path | None:
    """Where the parsed copy of a large regular file goes (None: the table gets none)."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    if not os.path.isfile(path) or stat.st_size < CACHED_MIN_BYTES:
        return None
    tag = hashlib.sha1(f"{os.path.abspath(path)}|{stat.st_size}|{stat.st_mtime_ns}".encode()
                       + _MAGIC).hexdigest()[:16]
    return cache_dir() / f"paraphrases-{tag}.table"


def is_parsed(path: str) -> bool:
    """Whether loading ``path`` will map a parsed copy (fast) rather than parse the file (slow)."""
    copy = _copy_path(path)
    return copy is not None and copy.is_file()


@lru_cache(maxsize=4)
def load(path: str) -> ParaphraseTable:
    """The table at ``path``: its parsed copy mapped if there is one, else parsed (and, if large,
    a parsed copy written for the next process). TableError for anything unreadable."""
    copy = _copy_path(path)
    if copy is not None:
        try:
            table = _mapped(copy)
            os.utime(copy)  # recently used: the last to be forgotten
            return table
        except (OSError, ValueError):
            pass
    started = time.perf_counter()
    table = parse(path)
    table.parse_seconds = time.perf_counter() - started
    if copy is not None:
        try:
            copy.parent.mkdir(parents=True, exist_ok=True)
            _write(table, copy)
            _forget_old_copies(copy.parent)
            mapped = _mapped(copy)  # (the arrays in memory are released: pages come back on demand)
            mapped.parse_seconds = table.parse_seconds
            return mapped
        except OSError:
            pass  # no cache folder: parse again next time
    return table


def _forget_old_copies(folder: Path) -> None:
    """Delete all but the KEPT_PARSED most recently used parsed tables."""
    copies = []
    for path in folder.glob("paraphrases-*.table"):
        try:
            copies.append((path.stat().st_mtime, path))
        except OSError:
            pass  # deleted meanwhile by another process
    stale = [path for _, path in sorted(copies, reverse=True)[KEPT_PARSED:]]
    for path in stale + list(folder.glob("paraphrases-*.marshal")):  # (and copies in an earlier format)
        try:
            path.unlink()
        except OSError:
            pass
