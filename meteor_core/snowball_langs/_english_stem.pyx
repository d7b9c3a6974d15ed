# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The jar's English Snowball stemmer on a C buffer: the compiled twin of english.py's stem and of
the _runtime.py operations it calls (english.py and _runtime.py stay the reference; tests hold the
two identical on every WordNet lemma and on random strings).

The same routines in the same order as english.py, each line the line there, on the same runtime
semantics as _runtime.SnowballProgram (Java's UTF-16 positions: a character outside the BMP is two
surrogates; replace clamps an end past the buffer; the result is the whole buffer). Only the data
differ: the word is a growable array of code units, the among lists and groupings are C arrays
filled at import from english.py's own tables (_A_*, _G_*), so the word lists are written once.
"""
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from libc.string cimport memmove, strlen

from . import english
from ._runtime import from_java_chars


cdef extern from "Python.h":
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)
    int PyUnicode_4BYTE_KIND


# ---------------------------------------------------------------------------------------------
# The among lists and groupings, from english.py

ctypedef unsigned int unit  # a UTF-16 code unit (Java's char), held in 4 bytes: Python's UCS4 kind

cdef enum:
    ENTRY_CHARS = 8  # english.py's longest among entry has 7 characters (checked at import)
    MOST_ENTRIES = 32
    GROUPING_BYTES = 8  # a grouping spans at most 64 characters from its first (checked at import)


cdef struct Entry:
    unit chars[ENTRY_CHARS]
    int length
    int result  # AmongTable.found's (result, length): what the lookup returns and how far it moves
    int moved


cdef struct Table:
    Entry entries[MOST_ENTRIES]  # longest first: the first that matches is the one found
    int count


cdef struct Grouping:
    unit low
    unit high
    unsigned char bits[GROUPING_BYTES]


cdef Table _A_0, _A_1, _A_2, _A_3, _A_4, _A_5, _A_6, _A_7, _A_8, _A_9, _A_10
cdef Grouping _G_V, _G_V_WXY, _G_VALID_LI


cdef void _load_table(Table* table, object among_table) except *:
    """``among_table``'s lookup (AmongTable.found) as a C list, longest strings first."""
    found = sorted(among_table.found.items(), key=lambda item: -len(item[0]))
    if len(found) > MOST_ENTRIES or any(len(s) > ENTRY_CHARS for s, _ in found):
        raise ImportError("an among list larger than _english_stem.pyx holds")
    table.count = len(found)
    for k, (s, (result, moved)) in enumerate(found):
        if max(s, default="\0") > "\uffff":
            raise ImportError("an among entry outside the BMP")
        for i, ch in enumerate(s):
            table.entries[k].chars[i] = ord(ch)
        table.entries[k].length = len(s)
        table.entries[k].result = result
        table.entries[k].moved = moved


cdef void _load_grouping(Grouping* grouping, object chars) except *:
    low, high = ord(min(chars)), ord(max(chars))
    if high - low >= 8 * GROUPING_BYTES:
        raise ImportError("a grouping wider than _english_stem.pyx holds")
    grouping.low, grouping.high = low, high
    for i in range(GROUPING_BYTES):
        grouping.bits[i] = 0
    for char in chars:
        grouping.bits[(ord(char) - low) >> 3] |= 1 << ((ord(char) - low) & 7)


_load_table(&_A_0, english._A_0)
_load_table(&_A_1, english._A_1)
_load_table(&_A_2, english._A_2)
_load_table(&_A_3, english._A_3)
_load_table(&_A_4, english._A_4)
_load_table(&_A_5, english._A_5)
_load_table(&_A_6, english._A_6)
_load_table(&_A_7, english._A_7)
_load_table(&_A_8, english._A_8)
_load_table(&_A_9, english._A_9)
_load_table(&_A_10, english._A_10)
_load_grouping(&_G_V, english._G_V)
_load_grouping(&_G_V_WXY, english._G_V_WXY)
_load_grouping(&_G_VALID_LI, english._G_VALID_LI)


cdef inline bint _in(const Grouping* g, unit ch) noexcept:
    cdef unit k
    if ch < g.low or ch > g.high:
        return False
    k = ch - g.low
    return (g.bits[k >> 3] >> (k & 7)) & 1


# ---------------------------------------------------------------------------------------------
# _runtime.SnowballProgram and english._EnglishStemmer, on a buffer of code units

cdef class _EnglishStemmer:
    cdef unit* current
    cdef int length  # len(current) in _runtime.py
    cdef int capacity
    cdef int cursor, limit, limit_backward, bra, ket
    cdef bint B_Y_found
    cdef int I_p2, I_p1

    def __cinit__(self, int capacity):
        self.current = <unit*>PyMem_Malloc(capacity * sizeof(unit))
        if self.current is NULL:
            raise MemoryError()
        self.capacity = capacity

    def __dealloc__(self):
        PyMem_Free(self.current)

    cdef void set_current(self, int length) noexcept:  # SnowballProgram.__init__ on current[:length]
        self.length = length
        self.cursor = 0
        self.limit = length
        self.limit_backward = 0
        self.bra = 0
        self.ket = self.limit
        self.B_Y_found = False
        self.I_p2 = 0
        self.I_p1 = 0

    # --- SnowballProgram

    cdef inline bint in_grouping(self, const Grouping* g) noexcept:
        if self.cursor >= self.limit or not _in(g, self.current[self.cursor]):
            return False
        self.cursor += 1
        return True

    cdef inline bint in_grouping_b(self, const Grouping* g) noexcept:
        if self.cursor <= self.limit_backward or not _in(g, self.current[self.cursor - 1]):
            return False
        self.cursor -= 1
        return True

    cdef inline bint out_grouping(self, const Grouping* g) noexcept:
        if self.cursor >= self.limit or _in(g, self.current[self.cursor]):
            return False
        self.cursor += 1
        return True

    cdef inline bint out_grouping_b(self, const Grouping* g) noexcept:
        if self.cursor <= self.limit_backward or _in(g, self.current[self.cursor - 1]):
            return False
        self.cursor -= 1
        return True

    cdef inline bint eq_s(self, const char* s) noexcept:
        """(str.startswith(s, cursor, limit): s within current[cursor:limit])"""
        cdef int n = strlen(s), i
        cdef int end = self.limit if self.limit < self.length else self.length
        if self.cursor < 0 or self.cursor + n > end:
            return False
        for i in range(n):
            if self.current[self.cursor + i] != <unit>s[i]:
                return False
        self.cursor += n
        return True

    cdef inline bint eq_s_b(self, const char* s) noexcept:
        """(str.endswith(s, limit_backward, cursor): s within current[limit_backward:cursor])"""
        cdef int n = strlen(s), i
        cdef int end = self.cursor if self.cursor < self.length else self.length
        if self.limit_backward < 0 or end - n < self.limit_backward:
            return False
        for i in range(n):
            if self.current[end - n + i] != <unit>s[i]:
                return False
        self.cursor -= n
        return True

    cdef inline bint _equal(self, int start, const Entry* entry) noexcept:
        cdef int i
        for i in range(entry.length):
            if self.current[start + i] != entry.chars[i]:
                return False
        return True

    cdef int find_among(self, const Table* table) noexcept:
        cdef int c = self.cursor, k
        cdef int room = self.limit - c
        cdef const Entry* entry
        for k in range(table.count):
            entry = &table.entries[k]
            if entry.length <= room and c + entry.length <= self.length and self._equal(c, entry):
                self.cursor = c + entry.moved
                return entry.result
        return 0

    cdef int find_among_b(self, const Table* table) noexcept:
        cdef int c = self.cursor, k
        cdef int room = c - self.limit_backward
        cdef const Entry* entry
        for k in range(table.count):
            entry = &table.entries[k]
            if entry.length <= room and c <= self.length and self._equal(c - entry.length, entry):
                self.cursor = c - entry.moved
                return entry.result
        return 0

    cdef int replace_s(self, int c_bra, int c_ket, const char* s) except? -999:
        cdef int n = strlen(s), i
        cdef int tail_start = c_ket if c_ket < self.length else self.length  # (Python's slice clamps)
        cdef int new_length = c_bra + n + (self.length - tail_start)
        cdef unit* grown
        if c_bra < 0 or c_bra > self.length or c_bra > c_ket:
            raise IndexError(f"replace({c_bra}, {c_ket}) in a string of {self.length}")
        if new_length > self.capacity:
            grown = <unit*>PyMem_Realloc(self.current, (new_length + 16) * sizeof(unit))
            if grown is NULL:
                raise MemoryError()
            self.current, self.capacity = grown, new_length + 16
        adjustment = n - (c_ket - c_bra)
        memmove(self.current + c_bra + n, self.current + tail_start, (self.length - tail_start) * sizeof(unit))
        for i in range(n):
            self.current[c_bra + i] = <unit>s[i]
        self.length = new_length
        self.limit += adjustment
        if self.cursor >= c_ket:
            self.cursor += adjustment
        elif self.cursor > c_bra:
            self.cursor = c_bra
        return adjustment

    cdef int slice_from(self, const char* s) except -1:
        self.replace_s(self.bra, self.ket, s)
        return 0

    cdef int slice_del(self) except -1:
        self.replace_s(self.bra, self.ket, b"")
        return 0

    cdef int insert(self, int c_bra, int c_ket, const char* s) except -1:
        cdef int adjustment = self.replace_s(c_bra, c_ket, s)
        if c_bra <= self.bra:
            self.bra += adjustment
        if c_bra <= self.ket:
            self.ket += adjustment
        return 0

    # --- english._EnglishStemmer

    cdef int r_prelude(self) except -1:
        cdef int jump = 0, v_1, v_2, v_3, v_4, v_5
        self.B_Y_found = False
        v_1 = self.cursor
        self.bra = self.cursor
        if self.eq_s(b"'"):
            self.ket = self.cursor
            self.slice_del()
        self.cursor = v_1
        v_2 = self.cursor
        self.bra = self.cursor
        if self.eq_s(b"y"):
            self.ket = self.cursor
            self.slice_from(b"Y")
            self.B_Y_found = True
        self.cursor = v_2
        v_3 = self.cursor
        while True:  # replab3
            v_4 = self.cursor
            while True:  # lab4
                while True:  # golab5
                    v_5 = self.cursor
                    if self.in_grouping(&_G_V):
                        self.bra = self.cursor
                        if self.eq_s(b"y"):
                            self.ket = self.cursor
                            self.cursor = v_5
                            break
                    self.cursor = v_5
                    if self.cursor >= self.limit:
                        jump = 1  # break lab4
                        break
                    self.cursor += 1
                if jump:  # break lab4
                    jump = 0
                    break
                self.slice_from(b"Y")
                self.B_Y_found = True
                jump = 2  # continue replab3
                break
            if jump:  # continue replab3
                jump = 0
                continue
            self.cursor = v_4
            break
        self.cursor = v_3
        return 1

    cdef int r_mark_regions(self) except -1:
        cdef int jump = 0, v_1, v_2
        self.I_p1 = self.limit
        self.I_p2 = self.limit
        v_1 = self.cursor
        while True:  # lab0
            while True:  # lab1
                v_2 = self.cursor
                if self.find_among(&_A_0) != 0:
                    break
                self.cursor = v_2
                while True:  # golab3
                    if self.in_grouping(&_G_V):
                        break
                    if self.cursor >= self.limit:
                        jump = 1  # break lab0
                        break
                    self.cursor += 1
                if jump:
                    break
                while True:  # golab5
                    if self.out_grouping(&_G_V):
                        break
                    if self.cursor >= self.limit:
                        jump = 1  # break lab0
                        break
                    self.cursor += 1
                if jump:
                    break
                break
            if jump:  # break lab0
                jump = 0
                break
            self.I_p1 = self.cursor
            while True:  # golab7
                if self.in_grouping(&_G_V):
                    break
                if self.cursor >= self.limit:
                    jump = 1  # break lab0
                    break
                self.cursor += 1
            if jump:  # break lab0
                jump = 0
                break
            while True:  # golab9
                if self.out_grouping(&_G_V):
                    break
                if self.cursor >= self.limit:
                    jump = 1  # break lab0
                    break
                self.cursor += 1
            if jump:  # break lab0
                jump = 0
                break
            self.I_p2 = self.cursor
            break
        self.cursor = v_1
        return 1

    cdef bint r_shortv(self) noexcept:
        cdef int v_1
        while True:  # lab0
            v_1 = self.limit - self.cursor
            if self.out_grouping_b(&_G_V_WXY):
                if self.in_grouping_b(&_G_V):
                    if self.out_grouping_b(&_G_V):
                        break
            self.cursor = self.limit - v_1
            if not self.out_grouping_b(&_G_V):
                return False
            if not self.in_grouping_b(&_G_V):
                return False
            if self.cursor > self.limit_backward:
                return False
            break
        return True

    cdef inline bint r_R1(self) noexcept:
        return self.I_p1 <= self.cursor

    cdef inline bint r_R2(self) noexcept:
        return self.I_p2 <= self.cursor

    cdef int r_Step_1a(self) except -1:
        cdef int v_1, v_2, among_var, c
        v_1 = self.limit - self.cursor
        while True:  # lab0
            self.ket = self.cursor
            among_var = self.find_among_b(&_A_1)
            if among_var == 0:
                self.cursor = self.limit - v_1
                break
            self.bra = self.cursor
            if among_var == 1:
                self.slice_del()
            break
        self.ket = self.cursor
        among_var = self.find_among_b(&_A_2)
        if among_var == 0:
            return 0
        self.bra = self.cursor
        if among_var == 1:
            self.slice_from(b"ss")
        elif among_var == 2:
            while True:  # lab1
                v_2 = self.limit - self.cursor
                c = self.cursor - 2
                if not (self.limit_backward > c or c > self.limit):
                    self.cursor = c
                    self.slice_from(b"i")
                    break
                self.cursor = self.limit - v_2
                self.slice_from(b"ie")
                break
        elif among_var == 3:
            if self.cursor <= self.limit_backward:
                return 0
            self.cursor -= 1
            while True:  # golab3
                if self.in_grouping_b(&_G_V):
                    break
                if self.cursor <= self.limit_backward:
                    return 0
                self.cursor -= 1
            self.slice_del()
        return 1

    cdef int r_Step_1b(self) except -1:
        cdef int v_1, v_3, v_4, among_var, c
        self.ket = self.cursor
        among_var = self.find_among_b(&_A_4)
        if among_var == 0:
            return 0
        self.bra = self.cursor
        if among_var == 1:
            if not self.r_R1():
                return 0
            self.slice_from(b"ee")
        elif among_var == 2:
            v_1 = self.limit - self.cursor
            while True:  # golab0
                if self.in_grouping_b(&_G_V):
                    break
                if self.cursor <= self.limit_backward:
                    return 0
                self.cursor -= 1
            self.cursor = self.limit - v_1
            self.slice_del()
            v_3 = self.limit - self.cursor
            among_var = self.find_among_b(&_A_3)
            if among_var == 0:
                return 0
            self.cursor = self.limit - v_3
            if among_var == 1:
                c = self.cursor
                self.insert(self.cursor, self.cursor, b"e")
                self.cursor = c
            elif among_var == 2:
                self.ket = self.cursor
                if self.cursor <= self.limit_backward:
                    return 0
                self.cursor -= 1
                self.bra = self.cursor
                self.slice_del()
            elif among_var == 3:
                if self.cursor != self.I_p1:
                    return 0
                v_4 = self.limit - self.cursor
                if not self.r_shortv():
                    return 0
                self.cursor = self.limit - v_4
                c = self.cursor
                self.insert(self.cursor, self.cursor, b"e")
                self.cursor = c
        return 1

    cdef int r_Step_1c(self) except -1:
        cdef int v_1, v_2
        self.ket = self.cursor
        while True:  # lab0
            v_1 = self.limit - self.cursor
            if self.eq_s_b(b"y"):
                break
            self.cursor = self.limit - v_1
            if not self.eq_s_b(b"Y"):
                return 0
            break
        self.bra = self.cursor
        if not self.out_grouping_b(&_G_V):
            return 0
        v_2 = self.limit - self.cursor
        if not (self.cursor > self.limit_backward):
            return 0
        self.cursor = self.limit - v_2
        self.slice_from(b"i")
        return 1

    cdef int r_Step_2(self) except -1:
        cdef int among_var
        self.ket = self.cursor
        among_var = self.find_among_b(&_A_5)
        if among_var == 0:
            return 0
        self.bra = self.cursor
        if not self.r_R1():
            return 0
        if among_var == 1:
            self.slice_from(b"tion")
        elif among_var == 2:
            self.slice_from(b"ence")
        elif among_var == 3:
            self.slice_from(b"ance")
        elif among_var == 4:
            self.slice_from(b"able")
        elif among_var == 5:
            self.slice_from(b"ent")
        elif among_var == 6:
            self.slice_from(b"ize")
        elif among_var == 7:
            self.slice_from(b"ate")
        elif among_var == 8:
            self.slice_from(b"al")
        elif among_var == 9:
            self.slice_from(b"ful")
        elif among_var == 10:
            self.slice_from(b"ous")
        elif among_var == 11:
            self.slice_from(b"ive")
        elif among_var == 12:
            self.slice_from(b"ble")
        elif among_var == 13:
            if not self.eq_s_b(b"l"):
                return 0
            self.slice_from(b"og")
        elif among_var == 14:
            self.slice_from(b"ful")
        elif among_var == 15:
            self.slice_from(b"less")
        elif among_var == 16:
            if not self.in_grouping_b(&_G_VALID_LI):
                return 0
            self.slice_del()
        return 1

    cdef int r_Step_3(self) except -1:
        cdef int among_var
        self.ket = self.cursor
        among_var = self.find_among_b(&_A_6)
        if among_var == 0:
            return 0
        self.bra = self.cursor
        if not self.r_R1():
            return 0
        if among_var == 1:
            self.slice_from(b"tion")
        elif among_var == 2:
            self.slice_from(b"ate")
        elif among_var == 3:
            self.slice_from(b"al")
        elif among_var == 4:
            self.slice_from(b"ic")
        elif among_var == 5:
            self.slice_del()
        elif among_var == 6:
            if not self.r_R2():
                return 0
            self.slice_del()
        return 1

    cdef int r_Step_4(self) except -1:
        cdef int among_var, v_1
        self.ket = self.cursor
        among_var = self.find_among_b(&_A_7)
        if among_var == 0:
            return 0
        self.bra = self.cursor
        if not self.r_R2():
            return 0
        if among_var == 1:
            self.slice_del()
        elif among_var == 2:
            while True:  # lab0
                v_1 = self.limit - self.cursor
                if self.eq_s_b(b"s"):
                    break
                self.cursor = self.limit - v_1
                if not self.eq_s_b(b"t"):
                    return 0
                break
            self.slice_del()
        return 1

    cdef int r_Step_5(self) except -1:
        cdef int among_var, v_1, v_2
        self.ket = self.cursor
        among_var = self.find_among_b(&_A_8)
        if among_var == 0:
            return 0
        self.bra = self.cursor
        if among_var == 1:
            while True:  # lab0
                v_1 = self.limit - self.cursor
                if self.r_R2():
                    break
                self.cursor = self.limit - v_1
                if not self.r_R1():
                    return 0
                v_2 = self.limit - self.cursor
                if self.r_shortv():
                    return 0
                self.cursor = self.limit - v_2
                break
            self.slice_del()
        elif among_var == 2:
            if not self.r_R2():
                return 0
            if not self.eq_s_b(b"l"):
                return 0
            self.slice_del()
        return 1

    cdef bint r_exception2(self) noexcept:
        self.ket = self.cursor
        if self.find_among_b(&_A_9) == 0:
            return False
        self.bra = self.cursor
        if self.cursor > self.limit_backward:
            return False
        return True

    cdef int r_exception1(self) except -1:
        cdef int among_var
        self.bra = self.cursor
        among_var = self.find_among(&_A_10)
        if among_var == 0:
            return 0
        self.ket = self.cursor
        if self.cursor < self.limit:
            return 0
        if among_var == 1:
            self.slice_from(b"ski")
        elif among_var == 2:
            self.slice_from(b"sky")
        elif among_var == 3:
            self.slice_from(b"die")
        elif among_var == 4:
            self.slice_from(b"lie")
        elif among_var == 5:
            self.slice_from(b"tie")
        elif among_var == 6:
            self.slice_from(b"idl")
        elif among_var == 7:
            self.slice_from(b"gentl")
        elif among_var == 8:
            self.slice_from(b"ugli")
        elif among_var == 9:
            self.slice_from(b"earli")
        elif among_var == 10:
            self.slice_from(b"onli")
        elif among_var == 11:
            self.slice_from(b"singl")
        return 1

    cdef int r_postlude(self) except -1:
        cdef int jump = 0, v_1, v_2
        if not self.B_Y_found:
            return 0
        while True:  # replab0
            v_1 = self.cursor
            while True:  # lab1
                while True:  # golab2
                    v_2 = self.cursor
                    self.bra = self.cursor
                    if self.eq_s(b"Y"):
                        self.ket = self.cursor
                        self.cursor = v_2
                        break
                    self.cursor = v_2
                    if self.cursor >= self.limit:
                        jump = 1  # break lab1
                        break
                    self.cursor += 1
                if jump:  # break lab1
                    jump = 0
                    break
                self.slice_from(b"y")
                jump = 2  # continue replab0
                break
            if jump:  # continue replab0
                jump = 0
                continue
            self.cursor = v_1
            break
        return 1

    cdef int stem(self) except -1:
        cdef int jump = 0, v_1, v_2, v_3, v_4, v_5, v_6, v_7, v_8, v_9, v_10, v_11, v_12, v_13, c
        while True:  # lab0
            v_1 = self.cursor
            if self.r_exception1():
                break
            self.cursor = v_1
            while True:  # lab2
                v_2 = self.cursor
                c = self.cursor + 3
                if not (0 > c or c > self.limit):
                    self.cursor = c
                    break
                self.cursor = v_2
                jump = 1  # break lab0
                break
            if jump:  # break lab0
                jump = 0
                break
            self.cursor = v_1
            v_3 = self.cursor
            self.r_prelude()
            self.cursor = v_3
            v_4 = self.cursor
            self.r_mark_regions()
            self.cursor = v_4
            self.limit_backward = self.cursor
            self.cursor = self.limit
            v_5 = self.limit - self.cursor
            self.r_Step_1a()
            self.cursor = self.limit - v_5
            while True:  # lab7
                v_6 = self.limit - self.cursor
                if self.r_exception2():
                    break
                self.cursor = self.limit - v_6
                v_7 = self.limit - self.cursor
                self.r_Step_1b()
                self.cursor = self.limit - v_7
                v_8 = self.limit - self.cursor
                self.r_Step_1c()
                self.cursor = self.limit - v_8
                v_9 = self.limit - self.cursor
                self.r_Step_2()
                self.cursor = self.limit - v_9
                v_10 = self.limit - self.cursor
                self.r_Step_3()
                self.cursor = self.limit - v_10
                v_11 = self.limit - self.cursor
                self.r_Step_4()
                self.cursor = self.limit - v_11
                v_12 = self.limit - self.cursor
                self.r_Step_5()
                self.cursor = self.limit - v_12
                break
            self.cursor = self.limit_backward
            v_13 = self.cursor
            self.r_postlude()
            self.cursor = v_13
            break
        return 1


cdef _EnglishStemmer _stemmer = _EnglishStemmer(64)  # one buffer, reused word after word


def stem(str word) -> str:
    """english.stem(word): what the jar's SnowballStemmerWrapper(new englishStemmer()).stem(word) returns."""
    cdef _EnglishStemmer stemmer = _stemmer
    cdef Py_ssize_t units = 0
    cdef Py_UCS4 ch
    cdef unit code
    cdef bint outside_bmp = False
    for ch in word:
        units += 2 if <unit>ch > 0xFFFF else 1
    if units > 1_000_000:
        raise ValueError("a word of more than a million characters")
    if units + 16 > stemmer.capacity:
        stemmer = _EnglishStemmer(units + 16)
    units = 0
    for ch in word:  # to_java_chars
        code = <unit>ch
        if code > 0xFFFF:
            outside_bmp = True
            stemmer.current[units] = 0xD800 + ((code - 0x10000) >> 10)
            stemmer.current[units + 1] = 0xDC00 + ((code - 0x10000) & 0x3FF)
            units += 2
        else:
            stemmer.current[units] = code
            units += 1
    stemmer.set_current(units)
    stemmer.stem()
    result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, stemmer.current, stemmer.length)
    return from_java_chars(result) if outside_bmp else result
