"""The Snowball runtime the Meteor 1.5 jar's stemmers run on: a port of
``org/tartarus/snowball/{SnowballProgram,Among}.java`` as compiled into the jar (the Java source is
in the Meteor repository, ``src/org/tartarus/snowball/``).

Java quirks kept, because the jar's stems depend on them:

* Positions count UTF-16 code units (Java's ``char``): a character outside the BMP is two
  positions, each a surrogate that no letter grouping contains. ``stem`` splits such characters
  into their surrogates before stemming and joins the pairs again after.
* ``Among`` entries that name a routine (only Finnish has them: "r_VI", "r_LONG") never match: the
  jar's ``find_among`` calls the routine through reflection, and the call of a private method from
  another class fails with ``IllegalAccessException``, which it counts as a failed condition, so the
  search goes on to the entry's ``substring_i``.
* The result is the whole buffer (``getCurrent`` returns ``current.toString()``), not the part up
  to ``limit``.
* ``StringBuffer.replace`` clamps an end past the buffer's length (Python's slices do too).

Each generated stemmer keeps its state on a fresh object per word (the jar reuses one object per
language; no stemmer reads a field before setting it for the word, so the results are the same).
"""
from __future__ import annotations

from typing import NamedTuple


class Among(NamedTuple):
    """One string of a ``substring``/``among`` list (org/tartarus/snowball/Among.java)."""
    s: str
    substring_i: int  # the entry that is the longest prefix (suffix, backwards) of this one, or -1
    result: int
    method: str  # "" for none; an entry with a routine never matches (module docstring)


class AmongTable:
    """A ``substring``/``among`` list (Java's ``Among[]``), looked up by string.

    Java's find_among binary-searches the sorted list for the longest entry found at the cursor
    and, if that entry names a routine (which fails: module docstring), follows ``substring_i`` to
    the next longest, and so on. Here ``found`` maps each entry's string straight to where that
    walk ends: (result, length), the length being how far the cursor moves (a walk that ends on no
    entry returns 0 and leaves the cursor where the last routine entry put it, as in Java).
    ``lengths``: the entries' lengths, longest first."""
    __slots__ = ("entries", "found", "lengths")

    def __init__(self, *entries: Among):
        self.entries = entries
        self.found: dict[str, tuple[int, int]] = {}
        for entry in entries:
            if entry.s in self.found:
                raise ValueError(f"{entry.s!r} twice in one among list")
            walk = entry
            while walk.method:  # a routine entry never matches: on to the next longest entry
                if walk.substring_i < 0:
                    break
                walk = entries[walk.substring_i]
            self.found[entry.s] = (0 if walk.method else walk.result, len(walk.s))
        self.lengths = tuple(sorted({len(e.s) for e in entries}, reverse=True))


def grouping(min_char: int, max_char: int, bits: tuple[int, ...]) -> frozenset[str]:
    """The characters of a Java grouping: ``bits`` is its ``char[]`` bitmap from ``min_char``;
    Java tests ``min <= ch <= max`` and then the bit."""
    return frozenset(chr(min_char + k) for k in range(max_char - min_char + 1) if bits[k >> 3] & (1 << (k & 7)))


def to_java_chars(word: str) -> str:
    """``word`` as Java's UTF-16 string: each character outside the BMP as its two surrogates."""
    if word.isascii() or max(word) <= "\uffff":
        return word
    out = []
    for char in word:
        code = ord(char)
        if code > 0xFFFF:
            code -= 0x10000
            out.append(chr(0xD800 + (code >> 10)))
            out.append(chr(0xDC00 + (code & 0x3FF)))
        else:
            out.append(char)
    return "".join(out)


def from_java_chars(chars: str) -> str:
    """The inverse of to_java_chars: each high surrogate followed by a low one joined into one
    character; a lone surrogate stays as it is."""
    return chars.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


class SnowballProgram:
    """org/tartarus/snowball/SnowballProgram.java: the string, its cursor and limits, and the
    operations the generated stemmers call (same names, same semantics)."""
    __slots__ = ("current", "cursor", "limit", "limit_backward", "bra", "ket")

    def __init__(self, value: str):  # setCurrent
        self.current = value
        self.cursor = 0
        self.limit = len(value)
        self.limit_backward = 0
        self.bra = 0
        self.ket = self.limit

    def in_grouping(self, chars: frozenset) -> bool:
        if self.cursor >= self.limit or self.current[self.cursor] not in chars:
            return False
        self.cursor += 1
        return True

    def in_grouping_b(self, chars: frozenset) -> bool:
        if self.cursor <= self.limit_backward or self.current[self.cursor - 1] not in chars:
            return False
        self.cursor -= 1
        return True

    def out_grouping(self, chars: frozenset) -> bool:
        if self.cursor >= self.limit or self.current[self.cursor] in chars:
            return False
        self.cursor += 1
        return True

    def out_grouping_b(self, chars: frozenset) -> bool:
        if self.cursor <= self.limit_backward or self.current[self.cursor - 1] in chars:
            return False
        self.cursor -= 1
        return True

    def eq_s(self, s: str) -> bool:
        if not self.current.startswith(s, self.cursor, self.limit):
            return False
        self.cursor += len(s)
        return True

    def eq_s_b(self, s: str) -> bool:
        if not self.current.endswith(s, self.limit_backward, self.cursor):
            return False
        self.cursor -= len(s)
        return True

    eq_v = eq_s
    eq_v_b = eq_s_b

    def find_among(self, table: AmongTable) -> int:
        """The result of the longest entry of ``table`` that starts at the cursor and ends by the
        limit (0: none); the cursor moves past it."""
        c = self.cursor
        room = self.limit - c
        current = self.current
        for n in table.lengths:
            if n <= room:
                found = table.found.get(current[c:c + n])
                if found is not None:
                    self.cursor = c + found[1]
                    return found[0]
        return 0

    def find_among_b(self, table: AmongTable) -> int:
        """find_among backwards: the longest entry that ends at the cursor, not before limit_backward."""
        c = self.cursor
        room = c - self.limit_backward
        current = self.current
        for n in table.lengths:
            if n <= room:
                found = table.found.get(current[c - n:c])
                if found is not None:
                    self.cursor = c - found[1]
                    return found[0]
        return 0

    def replace_s(self, c_bra: int, c_ket: int, s: str) -> int:
        """Replace the characters from c_bra to c_ket by s; the cursor and limit follow."""
        if c_bra < 0 or c_bra > len(self.current) or c_bra > c_ket:
            # StringBuffer.replace throws here; no stemmer of the jar gets here
            raise IndexError(f"replace({c_bra}, {c_ket}) in a string of {len(self.current)}")
        adjustment = len(s) - (c_ket - c_bra)
        self.current = self.current[:c_bra] + s + self.current[c_ket:]
        self.limit += adjustment
        if self.cursor >= c_ket:
            self.cursor += adjustment
        elif self.cursor > c_bra:
            self.cursor = c_bra
        return adjustment

    def slice_from(self, s: str) -> None:
        # (slice_check only prints "faulty slice operation" to stderr and goes on)
        self.replace_s(self.bra, self.ket, s)

    def slice_del(self) -> None:
        self.replace_s(self.bra, self.ket, "")

    def insert(self, c_bra: int, c_ket: int, s: str) -> None:
        adjustment = self.replace_s(c_bra, c_ket, s)
        if c_bra <= self.bra:
            self.bra += adjustment
        if c_bra <= self.ket:
            self.ket += adjustment

    def slice_to(self) -> str:
        return self.current[self.bra:self.ket]
