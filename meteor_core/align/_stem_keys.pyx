# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The stem stage's inputs on int ids: the compiled twin of what align_optimal does before the stem
stage's search (optimal._may_share_stem, the stems of the words it keeps, and the test that a stem
is shared), which stays the reference (tests hold the two identical).

Each word gets an int id once per process per stemmer (a memo emptied at resources.MEMO_LIMIT
words, as the other per-word memos are), with the id of its first letter after lower-casing and,
once it is first needed, the id of its stem: a sentence's free words are then compared by ids in
C arrays stamped per call. As in the pure code, a word is stemmed only when a word of the other
sentence starts with the same letter (a stemmer that keeps the first letter: see
optimal.STEMMERS_KEEPING_INITIAL). (The memo and the stamps are shared by all calls: a lock keeps
threads' calls apart, as a word's first stem runs Python code.)
optimal.align_optimal calls ``stem_keys`` when this module is built and up to date, and
optimal._left_free ``left_free`` (the positions a stage leaves to the next, marked in a C array).
"""
import threading

from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memset

cdef dict _words = {}  # stem function -> {word -> its id}
cdef dict _ids_of_initials = {}  # a first letter -> its id
cdef dict _ids_of_stems = {}  # a stem -> its id
cdef list _stems = []  # per word id: its stem, or None before it is needed
cdef long long* _initial = NULL  # per word id: its first letter's id
cdef long long* _stem = NULL  # per word id: its stem's id, or -1 before it is needed
cdef Py_ssize_t _word_room = 0
# Per first letter and per stem id: the last call that saw it on the reference side (then on the
# hypothesis side).
cdef long long* _seen = NULL
cdef Py_ssize_t _seen_room = 0
cdef long long* _scratch = NULL  # a call's word ids: the reference side's, then the hypothesis side's
cdef Py_ssize_t _scratch_room = 0
cdef long long _call = 0


cdef void* _grown(void* block, Py_ssize_t size) except NULL:
    cdef void* out = realloc(block, size)
    if out == NULL:
        raise MemoryError()
    return out


cdef long long _word_id(dict words, word) except -1:
    global _initial, _stem, _word_room
    found = words.get(word)
    if found is not None:
        return found
    cdef long long new_id = len(_stems)
    if new_id + 1 > _word_room:
        _word_room = max(2 * _word_room, 4096)
        _initial = <long long*> _grown(_initial, _word_room * sizeof(long long))
        _stem = <long long*> _grown(_stem, _word_room * sizeof(long long))
    initial = word.lower()[:1]  # (optimal._initial)
    letter = _ids_of_initials.get(initial)
    if letter is None:
        letter = _ids_of_initials[initial] = len(_ids_of_initials)
    _initial[new_id], _stem[new_id] = letter, -1
    _stems.append(None)
    words[word] = new_id
    return new_id


cdef long long _stem_id(long long word_id, word, stem) except -1:
    """The word's stem's id (the stem computed the first time it is needed)."""
    if _stem[word_id] >= 0:
        return _stem[word_id]
    key = stem(word)
    found = _ids_of_stems.get(key)
    if found is None:
        found = _ids_of_stems[key] = len(_ids_of_stems)
    _stems[word_id] = key
    _stem[word_id] = found
    return found


cdef int _room_for_seen(Py_ssize_t size) except -1:
    """Room for ``size`` letter or stem ids in the stamp array (two stamps an id)."""
    global _seen, _seen_room
    if size <= _seen_room:
        return 0
    cdef Py_ssize_t new = max(size, 2 * _seen_room, 4096), x
    _seen = <long long*> _grown(_seen, 2 * new * sizeof(long long))
    for x in range(2 * _seen_room, 2 * new):
        _seen[x] = 0  # stamp 0 is never a call's
    _seen_room = new
    return 0


_lock = threading.Lock()


def stem_keys(hyp, ref, free_h, free_r, stem, Py_ssize_t limit):
    """The stem stage's (hyp positions, their stems, ref positions, their stems) as align_optimal
    makes them for split_classes (the free words whose first letter a word of the other side
    shares), or None when no stem is shared (the stage has nothing to match)."""
    with _lock:
        return _stem_keys(hyp, ref, free_h, free_r, stem, limit)


cdef object _stem_keys(hyp, ref, free_h, free_r, stem, Py_ssize_t limit):
    global _call, _scratch, _scratch_room
    cdef list positions_h = free_h if type(free_h) is list else list(free_h)
    cdef list positions_r = free_r if type(free_r) is list else list(free_r)
    cdef Py_ssize_t n_h = len(positions_h), n_r = len(positions_r), k
    if len(_stems) + n_h + n_r > limit:  # a bounded memo: start again
        _words.clear()
        _ids_of_initials.clear()
        _ids_of_stems.clear()
        _stems.clear()
    words = _words.get(stem)
    if words is None:
        words = _words[stem] = {}
    if n_h + n_r > _scratch_room:
        _scratch_room = max(n_h + n_r, 2 * _scratch_room, 256)
        _scratch = <long long*> _grown(_scratch, _scratch_room * sizeof(long long))
    cdef long long* ids_r = _scratch
    cdef long long* ids_h = _scratch + n_r
    for k in range(n_r):
        ids_r[k] = _word_id(words, ref[positions_r[k]])
    for k in range(n_h):
        ids_h[k] = _word_id(words, hyp[positions_h[k]])
    _room_for_seen(max(len(_ids_of_initials), len(_ids_of_stems) + n_h + n_r))
    _call += 1
    cdef long long call = _call
    # optimal._may_share_stem: the words whose first letter the other side has too
    for k in range(n_r):
        _seen[2 * _initial[ids_r[k]]] = call
    cdef list stem_h = [], stem_r = []
    for k in range(n_h):
        if _seen[2 * _initial[ids_h[k]]] == call:
            _seen[2 * _initial[ids_h[k]] + 1] = call
            stem_h.append(k)
    if not stem_h:
        return None
    for k in range(n_r):
        if _seen[2 * _initial[ids_r[k]] + 1] == call:
            stem_r.append(k)
    # their stems, and whether one is shared (stems and letters have stamps of their own: a new
    # call's stamp is never in the array)
    _call += 1
    call = _call
    cdef bint shared = False
    for k in stem_r:
        _seen[2 * _stem_id(ids_r[k], ref[positions_r[k]], stem)] = call
    for k in stem_h:
        if _seen[2 * _stem_id(ids_h[k], hyp[positions_h[k]], stem)] == call:
            shared = True
    if not shared:
        return None
    return ([positions_h[k] for k in stem_h], [_stems[ids_h[k]] for k in stem_h],
            [positions_r[k] for k in stem_r], [_stems[ids_r[k]] for k in stem_r])


def left_free(free_h, free_r, list pairs) -> tuple:
    """optimal._left_free: the positions of ``free_h`` and ``free_r`` (increasing) that no pair
    takes, in order (the same int objects)."""
    cdef list positions_h = free_h if type(free_h) is list else list(free_h)
    cdef list positions_r = free_r if type(free_r) is list else list(free_r)
    cdef Py_ssize_t n_h = len(positions_h), n_r = len(positions_r), k, i, j
    if not n_h or not n_r:
        return positions_h, positions_r
    cdef Py_ssize_t end_h = positions_h[n_h - 1] + 1, end_r = positions_r[n_r - 1] + 1
    # taken[i] for hypothesis positions, taken[end_h + j] for reference ones (a few bytes a call)
    cdef unsigned char* taken = <unsigned char*> malloc(end_h + end_r)
    if taken == NULL:
        raise MemoryError()
    cdef list left_h = [], left_r = []
    try:
        memset(taken, 0, end_h + end_r)
        for pair in pairs:
            i, j = pair
            if not (0 <= i < end_h and 0 <= j < end_r):
                raise ValueError(f"pair {pair!r} is not among the free positions")
            taken[i] = 1
            taken[end_h + j] = 1
        for k in range(n_h):
            position = positions_h[k]
            if not taken[<Py_ssize_t> position]:
                left_h.append(position)
        for k in range(n_r):
            position = positions_r[k]
            if not taken[end_h + <Py_ssize_t> position]:
                left_r.append(position)
    finally:
        free(taken)
    return left_h, left_r
