# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The Porter stemmer on a C buffer, for ASCII words: the compiled twin of porter.py's stem (which
stays the reference, and stems every other word; tests hold both identical on all of WordNet's
lemmas and on random strings).

The same steps in the same order, read from porter.py; only the data differ: the word is lower-cased
into a char buffer and each step shortens or rewrites it in place (a step adds at most one letter
after removing two or more). Porter's measure m is counted from the consonant/vowel definitions
(porter._is_consonant) where porter.py matches a regular expression that encodes them, and "contains
a vowel" is porter.py's expression spelled out: a, e, i, o, u, or a y after the first letter.
"""
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, strlen


cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object text)
    const char* PyUnicode_1BYTE_DATA(object text)
    object PyUnicode_FromStringAndSize(const char* text, Py_ssize_t size)


# NLTK_EXTENSIONS' irregular forms (porter._IRREGULAR), in pairs: form, stem.
cdef const char* _IRREGULAR[32]
_IRREGULAR[:] = [b"sky", b"sky", b"skies", b"sky", b"dying", b"die", b"lying", b"lie", b"tying", b"tie",
                 b"news", b"news", b"innings", b"inning", b"inning", b"inning", b"outings", b"outing",
                 b"outing", b"outing", b"cannings", b"canning", b"canning", b"canning", b"howe", b"howe",
                 b"proceed", b"proceed", b"exceed", b"exceed", b"succeed", b"succeed"]


cdef inline bint _aeiou(char c) noexcept nogil:
    return c == b"a" or c == b"e" or c == b"i" or c == b"o" or c == b"u"


cdef bint _consonant(const char* s, int i) noexcept nogil:
    """porter._is_consonant: a y is the opposite of the letter before it (a consonant first)."""
    cdef char c = s[i]
    if _aeiou(c):
        return False
    if c != b"y":
        return True
    cdef int j = i
    while j > 0 and s[j] == b"y":
        j -= 1
    return (not _aeiou(s[j])) != ((i - j) & 1 == 1)


cdef int _measure(const char* s, int n, int enough) noexcept nogil:
    """Porter's m of s[:n] (vowel-consonant pairs), counted up to ``enough``."""
    cdef int m = 0, i
    cdef bint after_vowel = False, consonant
    for i in range(n):
        consonant = _consonant(s, i)
        if consonant and after_vowel:
            m += 1
            if m >= enough:
                return m
        after_vowel = not consonant
    return m


cdef inline bint _m_positive(const char* s, int n) noexcept nogil:
    return _measure(s, n, 1) >= 1


cdef inline bint _m_above_1(const char* s, int n) noexcept nogil:
    return _measure(s, n, 2) >= 2


cdef bint _has_vowel(const char* s, int n) noexcept nogil:
    """porter._contains_vowel on s[:n]: an a, e, i, o, u, or a y after the first letter."""
    cdef int i
    for i in range(n):
        if _aeiou(s[i]) or (i > 0 and s[i] == b"y"):
            return True
    return False


cdef inline bint _ends(const char* s, int n, const char* suffix) noexcept nogil:
    cdef int k = strlen(suffix)
    return n >= k and memcmp(s + n - k, suffix, k) == 0


cdef bint _ends_cvc(const char* s, int n, bint nltk_extensions) noexcept nogil:
    """porter._ends_cvc on s[:n]."""
    if n >= 3:
        return (s[n - 1] != b"w" and s[n - 1] != b"x" and s[n - 1] != b"y" and _consonant(s, n - 1)
                and not _consonant(s, n - 2) and _consonant(s, n - 3))
    return nltk_extensions and n == 2 and not _consonant(s, 0) and _consonant(s, 1)


cdef int _tidy_after_ed_or_ing(char* s, int n, bint nltk_extensions) noexcept nogil:
    """porter._tidy_after_ed_or_ing on s[:n] (the word without -ed or -ing); the new length."""
    if _ends(s, n, b"at") or _ends(s, n, b"bl") or _ends(s, n, b"iz"):
        s[n] = b"e"
        return n + 1
    if n >= 2 and s[n - 1] == s[n - 2] and _consonant(s, n - 1):
        return n if s[n - 1] == b"l" or s[n - 1] == b"s" or s[n - 1] == b"z" else n - 1
    if _ends(s, n, b"*d"):  # (NLTK's rule named "*d", see porter.py)
        s[n - 2] = b"d"
        return n - 1
    if _ends_cvc(s, n, nltk_extensions) and _m_positive(s, n) and not _m_above_1(s, n):
        s[n] = b"e"
        return n + 1
    return n


cdef inline int _put(char* s, int n, int cut, const char* by) noexcept nogil:
    """s[:n - cut] + by, in place; the new length."""
    cdef int k, length = strlen(by)
    for k in range(length):
        s[n - cut + k] = by[k]
    return n - cut + length


cdef int _step2(char* s, int n, bint nltk_extensions) noexcept nogil:
    """porter._step2: double suffixes to single ones when the rest has m > 0; the first suffix
    that matches decides."""
    cdef char a = s[n - 2], b = s[n - 1]
    if a == b"l" and b == b"i":
        if nltk_extensions and _ends(s, n, b"alli") and _m_positive(s, n - 4):
            return _step2(s, n - 2, nltk_extensions)
        if nltk_extensions:
            if _ends(s, n, b"bli"):
                return _put(s, n, 1, b"e") if _m_positive(s, n - 3) else n
        elif _ends(s, n, b"abli"):
            return _put(s, n, 1, b"e") if _m_positive(s, n - 4) else n
        if _ends(s, n, b"alli"):
            return n - 2 if _m_positive(s, n - 4) else n
        if _ends(s, n, b"entli"):
            return n - 2 if _m_positive(s, n - 5) else n
        if _ends(s, n, b"eli"):
            return n - 2 if _m_positive(s, n - 3) else n
        if _ends(s, n, b"ousli"):
            return n - 2 if _m_positive(s, n - 5) else n
        if nltk_extensions and _ends(s, n, b"fulli"):
            return n - 2 if _m_positive(s, n - 5) else n
    elif a == b"c" and b == b"i":
        if _ends(s, n, b"enci") or _ends(s, n, b"anci"):
            return _put(s, n, 1, b"e") if _m_positive(s, n - 4) else n
    elif a == b"t" and b == b"i":
        if _ends(s, n, b"aliti"):
            return n - 3 if _m_positive(s, n - 5) else n
        if _ends(s, n, b"iviti"):
            return _put(s, n, 3, b"e") if _m_positive(s, n - 5) else n
        if _ends(s, n, b"biliti"):
            return _put(s, n, 5, b"le") if _m_positive(s, n - 6) else n
    elif a == b"g" and b == b"i":
        if nltk_extensions and _ends(s, n, b"logi"):
            return n - 1 if _m_positive(s, n - 3) else n
    elif a == b"a" and b == b"l":
        if _ends(s, n, b"ational"):
            return _put(s, n, 5, b"e") if _m_positive(s, n - 7) else n
        if _ends(s, n, b"tional"):
            return n - 2 if _m_positive(s, n - 6) else n
    elif a == b"o" and b == b"n":
        if _ends(s, n, b"ization"):
            return _put(s, n, 5, b"e") if _m_positive(s, n - 7) else n
        if _ends(s, n, b"ation"):
            return _put(s, n, 3, b"e") if _m_positive(s, n - 5) else n
    elif a == b"e" and b == b"r":
        if _ends(s, n, b"izer"):
            return n - 1 if _m_positive(s, n - 4) else n
    elif a == b"o" and b == b"r":
        if _ends(s, n, b"ator"):
            return _put(s, n, 2, b"e") if _m_positive(s, n - 4) else n
    elif a == b"s" and b == b"s":
        if _ends(s, n, b"iveness") or _ends(s, n, b"fulness") or _ends(s, n, b"ousness"):
            return n - 4 if _m_positive(s, n - 7) else n
    elif a == b"s" and b == b"m":
        if _ends(s, n, b"alism"):
            return n - 3 if _m_positive(s, n - 5) else n
    return n


cdef int _step3(const char* s, int n) noexcept nogil:
    """porter._step3: -icate, -ative, -alize, -iciti, -ical, -ful, -ness, when the rest has m > 0."""
    cdef char a = s[n - 2], b = s[n - 1]
    if (a == b"t" or a == b"z") and b == b"e":
        if _ends(s, n, b"icate") or _ends(s, n, b"alize"):
            return n - 3 if _m_positive(s, n - 5) else n
    elif a == b"v" and b == b"e":
        if _ends(s, n, b"ative"):
            return n - 5 if _m_positive(s, n - 5) else n
    elif a == b"a" and b == b"l":
        if _ends(s, n, b"ical"):
            return n - 2 if _m_positive(s, n - 4) else n
    elif a == b"u" and b == b"l":
        if _ends(s, n, b"ful"):
            return n - 3 if _m_positive(s, n - 3) else n
    elif a == b"s" and b == b"s":
        if _ends(s, n, b"ness"):
            return n - 4 if _m_positive(s, n - 4) else n
    elif a == b"t" and b == b"i":
        if _ends(s, n, b"iciti"):
            return n - 3 if _m_positive(s, n - 5) else n
    return n


cdef int _step4(const char* s, int n) noexcept nogil:
    """porter._step4: removes the first of the suffixes ending in s's last two letters (porter._STEP4,
    in its order) that s ends in, when the rest has m > 1 (-ion only after s or t)."""
    cdef char a = s[n - 2], b = s[n - 1]
    cdef const char* suffixes[4]
    cdef int count = 1, k, rest
    if a == b"a" and b == b"l":
        suffixes[0] = b"al"
    elif a == b"c" and b == b"e":
        suffixes[0], suffixes[1], count = b"ance", b"ence", 2
    elif a == b"e" and b == b"r":
        suffixes[0] = b"er"
    elif a == b"i" and b == b"c":
        suffixes[0] = b"ic"
    elif a == b"l" and b == b"e":
        suffixes[0], suffixes[1], count = b"able", b"ible", 2
    elif a == b"n" and b == b"t":
        suffixes[0], suffixes[1], suffixes[2], suffixes[3], count = b"ant", b"ement", b"ment", b"ent", 4
    elif a == b"o" and b == b"n":
        suffixes[0] = b"ion"
    elif a == b"o" and b == b"u":
        suffixes[0] = b"ou"
    elif a == b"s" and b == b"m":
        suffixes[0] = b"ism"
    elif a == b"t" and b == b"e":
        suffixes[0] = b"ate"
    elif a == b"t" and b == b"i":
        suffixes[0] = b"iti"
    elif a == b"u" and b == b"s":
        suffixes[0] = b"ous"
    elif a == b"v" and b == b"e":
        suffixes[0] = b"ive"
    elif a == b"z" and b == b"e":
        suffixes[0] = b"ize"
    else:
        return n
    for k in range(count):
        if _ends(s, n, suffixes[k]):
            rest = n - <int> strlen(suffixes[k])
            if _m_above_1(s, rest) and (suffixes[k][0] != b"i" or suffixes[k][1] != b"o"
                                        or s[rest - 1] == b"s" or s[rest - 1] == b"t"):
                return rest
            return n
    return n


cdef int _stem(char* s, int n, bint nltk_extensions) noexcept nogil:
    """porter.stem's steps on the lower-cased word s[:n] (NLTK's irregular forms and its short
    words already dealt with); the stem's length."""
    cdef char last
    # Step 1a: sses -> ss, ies -> i, ss -> ss, s -> ''.
    if n > 0 and s[n - 1] == b"s":
        if nltk_extensions and n == 4 and _ends(s, n, b"ies"):
            n -= 1  # "ties" -> "tie", not "ti"
        elif _ends(s, n, b"sses") or _ends(s, n, b"ies"):
            n -= 2
        elif not _ends(s, n, b"ss"):
            n -= 1
    # Step 1b: -eed, -ed, -ing.
    last = s[n - 1] if n > 0 else 0
    if last == b"d":
        if nltk_extensions and _ends(s, n, b"ied"):
            n = n - 1 if n == 4 else n - 2  # "died" -> "die", "spied" -> "spi"
        elif _ends(s, n, b"eed"):
            if _m_positive(s, n - 3):
                n -= 1
        elif _ends(s, n, b"ed") and _has_vowel(s, n - 2):
            n = _tidy_after_ed_or_ing(s, n - 2, nltk_extensions)
    elif last == b"g" and _ends(s, n, b"ing") and _has_vowel(s, n - 3):
        n = _tidy_after_ed_or_ing(s, n - 3, nltk_extensions)
    # Step 1c: y -> i, NLTK only after a consonant that is not the whole rest of the word.
    if n > 0 and s[n - 1] == b"y":
        if (n - 1 > 1 and _consonant(s, n - 2)) if nltk_extensions else _has_vowel(s, n - 1):
            s[n - 1] = b"i"
    # Steps 2 to 4, entered by the last two letters.
    if n >= 2:
        n = _step2(s, n, nltk_extensions)
    if n >= 2:
        n = _step3(s, n)
    if n >= 2:
        n = _step4(s, n)
    # Step 5: a final e goes when m > 1, or m = 1 and the rest does not end cvc; -ll loses an l when m > 1.
    if n > 0 and s[n - 1] == b"e":
        if _m_above_1(s, n - 1) or (_m_positive(s, n - 1) and not _ends_cvc(s, n - 1, nltk_extensions)):
            n -= 1
    if n > 0 and s[n - 1] == b"l" and _ends(s, n, b"ll") and _m_above_1(s, n - 1):
        n -= 1
    return n


def stem(str word, bint nltk_extensions=True):
    """porter.stem(word, nltk_extensions) for an ASCII ``word``."""
    if not PyUnicode_IS_ASCII(word):
        raise ValueError("the C Porter stemmer takes ASCII words")
    cdef Py_ssize_t length = len(word)
    cdef const char* text = PyUnicode_1BYTE_DATA(word)
    cdef char small[64]
    cdef char* s = small
    cdef int n = <int> length, k
    if length + 2 > 64:
        s = <char*> malloc(length + 2)
        if s == NULL:
            raise MemoryError()
    try:
        for k in range(n):
            s[k] = text[k] + 32 if b"A" <= text[k] <= b"Z" else text[k]
        if nltk_extensions:
            for k in range(0, 32, 2):
                if <int> strlen(_IRREGULAR[k]) == n and memcmp(s, _IRREGULAR[k], n) == 0:
                    return _IRREGULAR[k + 1].decode("ascii")
            if n <= 2:
                return PyUnicode_FromStringAndSize(s, n)
        return PyUnicode_FromStringAndSize(s, _stem(s, n, nltk_extensions))
    finally:
        if s != small:
            free(s)
