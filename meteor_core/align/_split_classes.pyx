# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""meteor2005's word classes on int ids: the compiled twin of search.split_classes, which stays the
reference (tests hold the two identical: the same pairs and classes, in the same order).

Each key (a word or a stem) becomes an int id once per process (a memo emptied at
resources.MEMO_LIMIT keys, as the other per-word memos are). A call then counts each id's tokens on both sides
in a flat C array indexed by id, marked with the call's own stamp instead of cleared, so no dict is
built per sentence; position lists are made only for the shared keys that repeat. (The array and
the stamp are shared by all calls: a lock keeps threads' calls apart, as the collector can run
Python code, and so another thread, wherever a call makes a Python object.)
search.split_classes calls ``split_classes`` when this module is built and up to date.
"""
import threading

from libc.stdlib cimport realloc

from .. import resources

memo_limit = resources.MEMO_LIMIT  # the most keys with an id before the memo starts again
from libc.string cimport memset

cdef dict _ids = {}  # key -> its id
# Per id: the stamp of the last call that saw it on the reference side (then on the hypothesis
# side), its first position and token count on each side, and its slot among the repeated keys.
cdef struct Seen:
    long long seen_r, seen_h, first_r, first_h, count_r, count_h, slot

cdef Seen* _by_id = NULL
cdef Py_ssize_t _capacity = 0
cdef long long _stamp = 0
cdef long long* _scratch = NULL  # each token's id, hypothesis then reference, and the shared keys
cdef Py_ssize_t _scratch_size = 0


cdef int _grow(Py_ssize_t size) except -1:
    """Room for ``size`` ids (new ids start unseen: stamp 0 is never a call's)."""
    global _by_id, _capacity
    cdef Py_ssize_t new = max(size, 2 * _capacity, 1024)
    cdef Seen* grown = <Seen*> realloc(_by_id, new * sizeof(Seen))
    if grown == NULL:
        raise MemoryError()
    memset(grown + _capacity, 0, (new - _capacity) * sizeof(Seen))
    _by_id, _capacity = grown, new
    return 0


cdef int _room(Py_ssize_t size) except -1:
    global _scratch, _scratch_size
    if size <= _scratch_size:
        return 0
    cdef Py_ssize_t new = max(size, 2 * _scratch_size, 1024)
    cdef long long* grown = <long long*> realloc(_scratch, new * sizeof(long long))
    if grown == NULL:
        raise MemoryError()
    _scratch, _scratch_size = grown, new
    return 0


cdef inline long long _id(key) except -1:
    found = _ids.get(key)
    if found is None:
        found = _ids[key] = len(_ids)
    return found


cdef inline long long _at(positions, Py_ssize_t k, bint is_range, long long start, long long step):
    return start + k * step if is_range else positions[k]


_lock = threading.Lock()


def split_classes(hyp_positions, hyp_keys, ref_positions, ref_keys) -> tuple:
    """search.split_classes(hyp_positions, hyp_keys, ref_positions, ref_keys)."""
    with _lock:
        return _split(hyp_positions, hyp_keys, ref_positions, ref_keys)


cdef tuple _split(hyp_positions, hyp_keys, ref_positions, ref_keys):
    global _stamp
    cdef list keys_h = hyp_keys if type(hyp_keys) is list else list(hyp_keys)
    cdef list keys_r = ref_keys if type(ref_keys) is list else list(ref_keys)
    cdef Py_ssize_t n_h = len(keys_h), n_r = len(keys_r), k, shared = 0, repeated = 0
    if len(_ids) + n_h + n_r > memo_limit:  # start again (ids are reused: their stamps are older)
        _ids.clear()
    _room(2 * n_h + n_r)
    cdef long long* ids_h = _scratch
    cdef long long* ids_r = _scratch + n_h
    cdef long long* order = _scratch + n_h + n_r  # shared keys, by first hyp token
    for k in range(n_h):
        ids_h[k] = _id(keys_h[k])
    for k in range(n_r):
        ids_r[k] = _id(keys_r[k])
    if len(_ids) > _capacity:
        _grow(len(_ids))
    cdef bint range_h = type(hyp_positions) is range, range_r = type(ref_positions) is range
    cdef long long start_h = hyp_positions.start if range_h else 0, step_h = hyp_positions.step if range_h else 1
    cdef long long start_r = ref_positions.start if range_r else 0, step_r = ref_positions.step if range_r else 1
    _stamp += 1
    cdef long long stamp = _stamp
    cdef Seen* s
    for k in range(n_r):
        s = &_by_id[ids_r[k]]
        if s.seen_r != stamp:
            s.seen_r, s.first_r, s.count_r = stamp, _at(ref_positions, k, range_r, start_r, step_r), 1
        else:
            s.count_r += 1
    for k in range(n_h):
        s = &_by_id[ids_h[k]]
        if s.seen_r != stamp:
            continue
        if s.seen_h != stamp:
            s.seen_h, s.first_h, s.count_h = stamp, _at(hyp_positions, k, range_h, start_h, step_h), 1
            order[shared] = ids_h[k]
            shared += 1
        else:
            s.count_h += 1
    cdef list forced = []
    for k in range(shared):
        s = &_by_id[order[k]]
        if s.count_h == 1 and s.count_r == 1:
            forced.append((s.first_h, s.first_r))
        else:
            s.slot = repeated
            repeated += 1
    if not repeated:
        return forced, []
    # A shared key that repeats: its positions on both sides, in order.
    cdef list hyps = [[] for _ in range(repeated)], refs = [[] for _ in range(repeated)]
    for k in range(n_h):
        s = &_by_id[ids_h[k]]
        if s.seen_h == stamp and not (s.count_h == 1 and s.count_r == 1):
            hyps[s.slot].append(_at(hyp_positions, k, range_h, start_h, step_h))
    for k in range(n_r):
        s = &_by_id[ids_r[k]]
        if s.seen_h == stamp and not (s.count_h == 1 and s.count_r == 1):
            refs[s.slot].append(_at(ref_positions, k, range_r, start_r, step_r))
    # Every shared key in order of its first hyp token: K(a, a) paired in order, the others open.
    forced = []
    cdef list open_classes = []
    for k in range(shared):
        s = &_by_id[order[k]]
        if s.count_h == 1 and s.count_r == 1:
            forced.append((s.first_h, s.first_r))
        elif s.count_h == s.count_r:
            forced.extend(zip(hyps[s.slot], refs[s.slot]))
        else:
            open_classes.append((hyps[s.slot], refs[s.slot]))
    return forced, open_classes
