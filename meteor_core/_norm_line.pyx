# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Meteor 1.5's -norm replacements on C data: the compiled twin of tokenize._spaced_line for
English, which stays the reference (tests hold both lines identical, character for character),
and of the tests tokenize._has_odd_space and _has_dotted_word make with regexes.

The same passes in the same order, each a scan of the line's code points into a new C buffer:
every one of tokenize's patterns is three characters long with a fixed middle (a comma, a
hyphen, an apostrophe), so re.sub's leftmost, non-overlapping matches are found by trying each
position in turn and stepping past a match's three characters; the character classes are the
jar's (tokenize._ALPHA's ranges, ASCII digits, Java's \\s). A line with a run of dots (or the
jar's escape "DOTMULTI") answers None: tokenize's own code protects the dots.
"""
from cpython.unicode cimport PyUnicode_GET_LENGTH
from libc.stdlib cimport free, malloc

cdef extern from "Python.h":
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)
    Py_UCS4 PyUnicode_READ_CHAR(object text, Py_ssize_t index)

# The classes a pattern's first or last character is tested against.
cdef enum Class:
    NOT_DIGIT       # [^0-9]
    DIGIT           # [0-9]
    NOT_ALPHA       # [^ALPHA]
    ALPHA           # [ALPHA]
    NOT_ALPHA_DIGIT  # [^ALPHA0-9]
    ALNUM_OR_DOT    # [ALNUM.]
    ALNUM           # [ALNUM]
    LETTER_S        # s

# What a match becomes (l, m, r: its three characters).
cdef enum Replacement:
    SPACED   # "l m r" (" , ", " ' ")
    BEFORE   # "l mr"  (" 's")
    DROPPED  # "l r"   (a hyphen removed)


cdef inline bint is_alpha(Py_UCS4 c) noexcept nogil:
    """tokenize._ALPHA: A-Za-zŠŽšžŸÀ-ÖØ-öø-žЀ-ӿԀ-ԧꙀ-ꙮ꙾-ꚗᴀ-ᵿ."""
    if c < 0x80:
        return (0x41 <= c <= 0x5A) or (0x61 <= c <= 0x7A)
    return (c == 0x160 or c == 0x17D or c == 0x161 or c == 0x17E or c == 0x178
            or 0xC0 <= c <= 0xD6 or 0xD8 <= c <= 0xF6 or 0xF8 <= c <= 0x17E
            or 0x400 <= c <= 0x4FF or 0x500 <= c <= 0x527 or 0xA640 <= c <= 0xA66E
            or 0xA67E <= c <= 0xA697 or 0x1D00 <= c <= 0x1D7F)


cdef inline bint is_digit(Py_UCS4 c) noexcept nogil:
    return 0x30 <= c <= 0x39


cdef inline bint is_java_space(Py_UCS4 c) noexcept nogil:
    return c == 0x20 or 0x09 <= c <= 0x0D  # space \t \n \x0b \f \r


cdef inline bint is_separate(Py_UCS4 c) noexcept nogil:
    """tokenize._SEP_OTHER: neither a letter or digit of the jar's, nor Java's \\s, nor . ' ` , - ‘ ’."""
    if is_digit(c) or is_alpha(c) or is_java_space(c):
        return False
    return not (c == 0x2E or c == 0x27 or c == 0x60 or c == 0x2C or c == 0x2D or c == 0x2018 or c == 0x2019)


cdef inline bint in_class(Py_UCS4 c, Class kind) noexcept nogil:
    if kind == NOT_DIGIT:
        return not is_digit(c)
    if kind == DIGIT:
        return is_digit(c)
    if kind == NOT_ALPHA:
        return not is_alpha(c)
    if kind == ALPHA:
        return is_alpha(c)
    if kind == NOT_ALPHA_DIGIT:
        return not (is_alpha(c) or is_digit(c))
    if kind == ALNUM_OR_DOT:
        return is_alpha(c) or is_digit(c) or c == 0x2E
    if kind == ALNUM:
        return is_alpha(c) or is_digit(c)
    return c == 0x73  # LETTER_S


cdef class _Line:
    """A line of code points, passed from one buffer to the next."""
    cdef Py_UCS4* chars
    cdef Py_ssize_t n

    def __dealloc__(self):
        free(self.chars)

    cdef Py_UCS4* fresh(self, Py_ssize_t most) except NULL:
        """A buffer for the next pass, of ``most`` code points."""
        cdef Py_UCS4* out = <Py_UCS4*> malloc((most + 1) * sizeof(Py_UCS4))
        if out == NULL:
            raise MemoryError()
        return out

    cdef void take(self, Py_UCS4* chars, Py_ssize_t n) noexcept:
        free(self.chars)
        self.chars = chars
        self.n = n

    cdef bint has(self, Py_UCS4 c) noexcept:
        cdef Py_ssize_t k
        for k in range(self.n):
            if self.chars[k] == c:
                return True
        return False

    cdef int three(self, Py_UCS4 middle, Class left, Class right, Replacement replacement) except -1:
        """pattern.sub for the pattern (left)middle(right)."""
        cdef Py_UCS4* src = self.chars
        cdef Py_UCS4* out = self.fresh(2 * self.n)
        cdef Py_ssize_t p = 0, k = 0, n = self.n
        while p < n:
            if p + 2 < n and src[p + 1] == middle and in_class(src[p], left) and in_class(src[p + 2], right):
                out[k] = src[p]
                out[k + 1] = 0x20
                k += 2
                if replacement == SPACED:
                    out[k] = middle
                    out[k + 1] = 0x20
                    k += 2
                elif replacement == BEFORE:
                    out[k] = middle
                    k += 1
                out[k] = src[p + 2]
                k += 1
                p += 3
            else:
                out[k] = src[p]
                k += 1
                p += 1
        self.take(out, k)
        return 0


def spaced_line(str text):
    """tokenize._spaced_line(text, "en"), or None for a line with a run of dots or "DOTMULTI"."""
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text), p, k = 0
    cdef Py_UCS4 c
    cdef Py_UCS4* out
    cdef Py_UCS4* src
    cdef bint digits = False
    # which of the passes' characters the text holds (the first pass only adds spaces, so the
    # line holds the same): a pass whose character is absent is skipped without a scan
    cdef bint commas = False, quotes = False, double_quotes = False, hyphens = False
    cdef Py_ssize_t apostrophes = 0
    cdef _Line line = _Line()
    if ".." in text or "DOTMULTI" in text:
        return None
    # _SEP_OTHER: every other symbol spaced
    out = line.fresh(3 * length + 2)
    out[k] = 0x20
    k += 1
    for p in range(length):
        c = PyUnicode_READ_CHAR(text, p)
        if is_separate(c):
            out[k] = 0x20
            out[k + 1] = c
            out[k + 2] = 0x20
            k += 3
            double_quotes = double_quotes or c == 0x201C or c == 0x201D
            hyphens = hyphens or c == 0x2013
        else:
            digits = digits or is_digit(c)
            if c < 0x41 or c > 0x7A or c == 0x60:  # (not a letter of A-z: the rest there is spaced)
                commas = commas or c == 0x2C
                hyphens = hyphens or c == 0x2D or c == 0x2013
                if c == 0x27:
                    apostrophes += 1
                elif c == 0x60 or c == 0x2018 or c == 0x2019:
                    quotes = True
                    apostrophes += 1
            out[k] = c
            k += 1
    out[k] = 0x20
    k += 1
    line.take(out, k)
    if commas:  # ","
        line.three(0x2C, NOT_DIGIT, NOT_DIGIT, SPACED)
        if digits:
            line.three(0x2C, DIGIT, NOT_DIGIT, SPACED)
            line.three(0x2C, NOT_DIGIT, DIGIT, SPACED)
    if quotes:  # ` ‘ ’ -> '
        for p in range(line.n):
            c = line.chars[p]
            if c == 0x60 or c == 0x2018 or c == 0x2019:
                line.chars[p] = 0x27
    if (double_quotes or apostrophes >= 2) and _has_double_quote(line):  # “ ” '' -> " " "
        src = line.chars
        out = line.fresh(3 * line.n)
        p = k = 0
        while p < line.n:
            c = src[p]
            if c == 0x201C or c == 0x201D or (c == 0x27 and p + 1 < line.n and src[p + 1] == 0x27):
                out[k], out[k + 1], out[k + 2] = 0x20, 0x22, 0x20
                k += 3
                p += 1 if c != 0x27 else 2
            else:
                out[k] = c
                k += 1
                p += 1
        line.take(out, k)
        apostrophes = line.has(0x27)  # ('' went)
    if hyphens:  # "-" "–": "–" -> "-", "--" -> "-", then intra-word hyphens go
        src = line.chars
        out = line.fresh(line.n)
        p = k = 0
        while p < line.n:
            c = 0x2D if src[p] == 0x2013 else src[p]
            if c == 0x2D and p + 1 < line.n and (src[p + 1] == 0x2D or src[p + 1] == 0x2013):
                p += 2
            else:
                p += 1
            out[k] = c
            k += 1
        line.take(out, k)
        line.three(0x2D, ALNUM_OR_DOT, ALNUM, DROPPED)
    if apostrophes:  # English apostrophes
        line.three(0x27, NOT_ALPHA, NOT_ALPHA, SPACED)
        line.three(0x27, NOT_ALPHA_DIGIT, ALPHA, SPACED)
        line.three(0x27, ALPHA, NOT_ALPHA, SPACED)
        line.three(0x27, ALPHA, ALPHA, BEFORE)
        if digits:
            line.three(0x27, DIGIT, LETTER_S, BEFORE)
    return PyUnicode_FromKindAndData(4, line.chars, line.n)


cdef bint _has_double_quote(_Line line) noexcept:
    cdef Py_ssize_t k
    for k in range(line.n):
        if line.chars[k] == 0x201C or line.chars[k] == 0x201D:
            return True
        if line.chars[k] == 0x27 and k + 1 < line.n and line.chars[k + 1] == 0x27:
            return True
    return False


def odd_space(str text):
    """tokenize._has_odd_space: a character of tokenize._NOT_JAVA_SPACE in ``text``."""
    cdef Py_ssize_t k, n = PyUnicode_GET_LENGTH(text)
    cdef Py_UCS4 c
    for k in range(n):
        c = PyUnicode_READ_CHAR(text, k)
        if c < 0x85:
            if c == 0x0B or 0x1C <= c <= 0x1F:
                return True
        elif (c == 0x85 or c == 0xA0 or c == 0x1680 or 0x2000 <= c <= 0x200A or c == 0x2028 or c == 0x2029
              or c == 0x202F or c == 0x205F or c == 0x3000):
            return True
    return False


cdef inline bint is_token_space(Py_UCS4 c) noexcept nogil:
    return c == 0x20 or c == 0x09 or c == 0x0A or c == 0x0D or c == 0x0C  # StringTokenizer's


def dotted_word(str line):
    """tokenize._has_dotted_word: a "." after a character that is not StringTokenizer's space,
    at the end of the line or before one of its spaces (tokenize._DOTTED_WORD)."""
    cdef Py_ssize_t k, n = PyUnicode_GET_LENGTH(line)
    for k in range(1, n):
        if (PyUnicode_READ_CHAR(line, k) == 0x2E and not is_token_space(PyUnicode_READ_CHAR(line, k - 1))
                and (k + 1 == n or is_token_space(PyUnicode_READ_CHAR(line, k + 1)))):
            return True
    return False


def char_classes(Py_UCS4 c):
    """(a letter of the jar's, an ASCII digit, a symbol _SEP_OTHER spaces) for ``c``: the tests
    hold them to tokenize's regex classes over every code point."""
    return is_alpha(c), is_digit(c), is_separate(c)
