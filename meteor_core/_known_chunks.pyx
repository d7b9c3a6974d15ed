# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""tokenize.punct's set of known chunks on C data: the compiled twin of tokenize's
``_whole_chunks`` (a set of strings) and of ``_known_split`` (``text.split()`` and whether every
chunk is in the set). tokenize.py stays the reference; tests hold the two identical.

Why: a line of already tokenised text is mostly words seen before, yet ``text.split()`` makes a
new string object for each of them and the set test hashes each one again: about half of the punct
tokenizer's time, and the same again for every per-word memo the scorer looks them up in later.
Here the line is read once, in place: each chunk is hashed over its characters (no object made)
and found in an open-addressing table of the known chunks, and the list holds the known string
objects themselves (their Python hashes already cached), so only new chunks become new objects.
A chunk ends where ``str.split()`` ends it (Py_UNICODE_ISSPACE), so the chunks are the same.
"""
import os

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.object cimport PyObject
from cpython.ref cimport Py_DECREF, Py_INCREF
from libc.string cimport memcmp, memset


cdef extern from "Python.h":
    int PyUnicode_KIND(object text)
    void* PyUnicode_DATA(object text)
    Py_ssize_t PyUnicode_GET_LENGTH(object text)
    unsigned int PyUnicode_READ(int kind, void* data, Py_ssize_t index) nogil  # (a code point)
    bint Py_UNICODE_ISSPACE(unsigned int ch) nogil
    object PyUnicode_Substring(object text, Py_ssize_t start, Py_ssize_t end)


ctypedef unsigned long long u64

cdef enum:
    FIRST_CAPACITY = 1024  # slots (a power of two); the table doubles at half full

# The hash is keyed by a secret drawn when the module loads, and every bit of it is mixed into the
# slot's bits: text built to make words share slots (a long probe for each, quadratic time over a
# corpus) cannot be made without knowing the key. Results never depend on it, only the layout.
cdef u64 _KEY = int.from_bytes(os.urandom(8), "little")
cdef u64 _MULTIPLIER = 0x9E3779B97F4A7C15ULL  # (odd: each step is a bijection of the state)


cdef inline u64 _step(u64 h, unsigned int c) nogil:
    """One code point into the state (the state after every step of a chunk, in order)."""
    return (h ^ c) * _MULTIPLIER


cdef inline u64 _finish(u64 h) nogil:
    """The state mixed so that the low bits (the slot) depend on all of it (MurmurHash3's fmix64)."""
    h ^= h >> 33
    h *= 0xFF51AFD7ED558CCDULL
    h ^= h >> 33
    h *= 0xC4CEB9FE1A85EC53ULL
    return h ^ (h >> 33)


cdef inline u64 _hash(int kind, void* data, Py_ssize_t start, Py_ssize_t end) nogil:
    """The keyed hash of the code points of text[start:end] (the same for any storage kind)."""
    cdef u64 h = _KEY
    cdef Py_ssize_t k
    for k in range(start, end):
        h = _step(h, PyUnicode_READ(kind, data, k))
    return _finish(h)


cdef inline bint _same(PyObject* key, int kind, void* data, Py_ssize_t start, Py_ssize_t end):
    """Whether the string ``key`` holds the characters text[start:end]."""
    cdef object known = <object>key
    cdef Py_ssize_t n = end - start, k
    cdef int known_kind
    cdef void* known_data
    if PyUnicode_GET_LENGTH(known) != n:
        return False
    known_kind = PyUnicode_KIND(known)
    known_data = PyUnicode_DATA(known)
    if known_kind == kind:
        return memcmp(known_data, <char*>data + start * kind, n * kind) == 0
    for k in range(n):
        if PyUnicode_READ(known_kind, known_data, k) != PyUnicode_READ(kind, data, start + k):
            return False
    return True


cdef class ChunkSet:
    """A set of strings (add, update, clear, ``in``, len, iteration) that also splits a line as
    ``str.split()`` does, handing back its own objects for the chunks it holds."""

    cdef u64* hashes
    cdef PyObject** keys  # owned references; NULL = an empty slot
    cdef Py_ssize_t capacity, count

    def __cinit__(self):
        self.capacity = 0
        self.count = 0
        self.hashes = NULL
        self.keys = NULL
        self._allocate(FIRST_CAPACITY)

    def __dealloc__(self):
        self._release()

    cdef void _release(self):
        cdef Py_ssize_t k
        if self.keys is not NULL:
            for k in range(self.capacity):
                if self.keys[k] is not NULL:
                    Py_DECREF(<object>self.keys[k])
        PyMem_Free(self.keys)
        PyMem_Free(self.hashes)
        self.keys = NULL
        self.hashes = NULL

    cdef int _allocate(self, Py_ssize_t capacity) except -1:
        self.hashes = <u64*>PyMem_Malloc(capacity * sizeof(u64))
        self.keys = <PyObject**>PyMem_Malloc(capacity * sizeof(PyObject*))
        if self.hashes is NULL or self.keys is NULL:
            raise MemoryError()
        memset(self.keys, 0, capacity * sizeof(PyObject*))
        self.capacity = capacity
        return 0

    cdef Py_ssize_t _slot(self, u64 h, int kind, void* data, Py_ssize_t start, Py_ssize_t end):
        """The slot holding text[start:end], or the empty slot where it would go."""
        cdef Py_ssize_t mask = self.capacity - 1
        cdef Py_ssize_t at = <Py_ssize_t>(h & <u64>mask)
        while self.keys[at] is not NULL:
            if self.hashes[at] == h and _same(self.keys[at], kind, data, start, end):
                return at
            at = (at + 1) & mask
        return at

    cdef int _grow(self) except -1:
        cdef u64* old_hashes = self.hashes
        cdef PyObject** old_keys = self.keys
        cdef Py_ssize_t old_capacity = self.capacity, k, at, mask
        self._allocate(old_capacity * 2)
        mask = self.capacity - 1
        for k in range(old_capacity):
            if old_keys[k] is not NULL:
                at = <Py_ssize_t>(old_hashes[k] & <u64>mask)
                while self.keys[at] is not NULL:
                    at = (at + 1) & mask
                self.keys[at] = old_keys[k]  # (the reference moves)
                self.hashes[at] = old_hashes[k]
        PyMem_Free(old_keys)
        PyMem_Free(old_hashes)
        return 0

    def add(self, str chunk not None):
        cdef int kind = PyUnicode_KIND(chunk)
        cdef void* data = PyUnicode_DATA(chunk)
        cdef Py_ssize_t n = PyUnicode_GET_LENGTH(chunk)
        cdef u64 h = _hash(kind, data, 0, n)
        cdef Py_ssize_t at = self._slot(h, kind, data, 0, n)
        if self.keys[at] is not NULL:
            return
        Py_INCREF(chunk)
        self.keys[at] = <PyObject*>chunk
        self.hashes[at] = h
        self.count += 1
        if 2 * self.count > self.capacity:
            self._grow()

    def update(self, chunks):
        for chunk in chunks:
            self.add(chunk)

    def clear(self):
        self._release()
        self.count = 0
        self._allocate(FIRST_CAPACITY)

    def __contains__(self, chunk):
        cdef int kind
        cdef void* data
        cdef Py_ssize_t n
        if type(chunk) is not str:
            return False
        kind, data, n = PyUnicode_KIND(chunk), PyUnicode_DATA(chunk), PyUnicode_GET_LENGTH(chunk)
        return self.keys[self._slot(_hash(kind, data, 0, n), kind, data, 0, n)] is not NULL

    def __len__(self):
        return self.count

    def __iter__(self):
        cdef Py_ssize_t k
        return iter([<object>self.keys[k] for k in range(self.capacity) if self.keys[k] is not NULL])

    def split(self, str text not None):
        """(text.split(), whether every chunk is in the set), the chunks in the set given as the
        set's own string objects."""
        cdef int kind = PyUnicode_KIND(text)
        cdef void* data = PyUnicode_DATA(text)
        cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0, start, at
        cdef u64 h
        cdef bint all_known = True
        cdef list chunks = []
        cdef unsigned int c
        while True:
            while i < n and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
                i += 1
            if i >= n:
                break
            start = i
            h = _KEY
            while i < n:
                c = PyUnicode_READ(kind, data, i)
                if Py_UNICODE_ISSPACE(c):
                    break
                h = _step(h, c)
                i += 1
            h = _finish(h)
            at = self._slot(h, kind, data, start, i)
            if self.keys[at] is not NULL:
                chunks.append(<object>self.keys[at])
            else:
                all_known = False
                chunks.append(PyUnicode_Substring(text, start, i))
        return chunks, all_known
