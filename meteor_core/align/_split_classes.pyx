# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""meteor2005's word classes on int ids: the compiled twin of search.split_classes, which stays the
reference (tests hold the two identical: the same pairs and classes, in the same order).

Each call numbers its own keys (words or stems): an open-addressing table of the sentence pair's
keys, by their hashes (a string keeps its own), equal keys found as a dict finds them (the same
object, or the same hash and equal). It then counts each id's tokens on both sides in a flat C
array; position lists are made only for the shared keys that repeat. Nothing is kept between calls
(the table is a few hundred bytes, cache-hot, where a memo of every word seen spread its lookups
over the whole vocabulary), so threads need no lock.
search.split_classes calls ``split_classes`` when this module is built and up to date.
"""
from cpython.object cimport PyObject, PyObject_Hash, PyObject_RichCompareBool, Py_EQ
from libc.stdlib cimport free, malloc
from libc.string cimport memset


# Per id: its first position and token count on each side, and its slot among the repeated keys.
cdef struct Seen:
    long long first_r, first_h, count_r, count_h, slot


cdef inline long long _at(positions, Py_ssize_t k, bint is_range, long long start, long long step):
    return start + k * step if is_range else positions[k]


cdef Py_ssize_t _number(list keys, Py_ssize_t n, long long* ids, PyObject** slot_key, Py_hash_t* slot_hash,
                        Py_ssize_t* slot_id, Py_ssize_t mask, Py_ssize_t count) except -1:
    """Each key's id (the id of an equal key numbered before, else the next one), into ``ids``;
    returns how many ids are given."""
    cdef Py_ssize_t k, slot
    cdef Py_hash_t h
    cdef PyObject* other
    for k in range(n):
        key = keys[k]
        h = PyObject_Hash(key)
        slot = <Py_ssize_t> ((<unsigned long long> h * 0x9E3779B97F4A7C15ULL) >> 32) & mask
        while True:
            if slot_id[slot] < 0:  # empty: a new key
                slot_key[slot], slot_hash[slot], slot_id[slot] = <PyObject*> key, h, count
                ids[k] = count
                count += 1
                break
            other = slot_key[slot]
            if slot_hash[slot] == h and (other == <PyObject*> key
                                         or PyObject_RichCompareBool(<object> other, key, Py_EQ) == 1):
                ids[k] = slot_id[slot]
                break
            slot = (slot + 1) & mask
    return count


def split_classes(hyp_positions, hyp_keys, ref_positions, ref_keys) -> tuple:
    """search.split_classes(hyp_positions, hyp_keys, ref_positions, ref_keys)."""
    cdef list keys_h = hyp_keys if type(hyp_keys) is list else list(hyp_keys)
    cdef list keys_r = ref_keys if type(ref_keys) is list else list(ref_keys)
    cdef Py_ssize_t n_h = len(keys_h), n_r = len(keys_r), room = 16
    while room < 2 * (n_h + n_r):
        room *= 2
    # one block: the table (keys, hashes, ids), each token's id, the shared keys, then Seen per id
    cdef size_t size = room * (sizeof(PyObject*) + sizeof(Py_hash_t) + sizeof(Py_ssize_t)) \
        + (2 * n_h + n_r) * sizeof(long long) + (n_h + n_r) * sizeof(Seen)
    cdef char* block = <char*> malloc(size)
    if block == NULL:
        raise MemoryError()
    try:
        return _split(hyp_positions, keys_h, ref_positions, keys_r, block, room)
    finally:
        free(block)


cdef tuple _split(hyp_positions, list keys_h, ref_positions, list keys_r, char* block, Py_ssize_t room):
    cdef Py_ssize_t n_h = len(keys_h), n_r = len(keys_r), k, shared = 0, repeated = 0, count
    cdef PyObject** slot_key = <PyObject**> block
    cdef Py_hash_t* slot_hash = <Py_hash_t*> (slot_key + room)
    cdef Py_ssize_t* slot_id = <Py_ssize_t*> (slot_hash + room)
    cdef long long* ids_r = <long long*> (slot_id + room)
    cdef long long* ids_h = ids_r + n_r
    cdef long long* order = ids_h + n_h  # shared keys, by first hyp token
    cdef Seen* by_id = <Seen*> (order + n_h)
    memset(slot_id, -1, room * sizeof(Py_ssize_t))
    count = _number(keys_r, n_r, ids_r, slot_key, slot_hash, slot_id, room - 1, 0)
    count = _number(keys_h, n_h, ids_h, slot_key, slot_hash, slot_id, room - 1, count)
    memset(by_id, 0, count * sizeof(Seen))
    cdef bint range_h = type(hyp_positions) is range, range_r = type(ref_positions) is range
    cdef long long start_h = hyp_positions.start if range_h else 0, step_h = hyp_positions.step if range_h else 1
    cdef long long start_r = ref_positions.start if range_r else 0, step_r = ref_positions.step if range_r else 1
    cdef Seen* s
    for k in range(n_r):
        s = &by_id[ids_r[k]]
        if s.count_r == 0:
            s.first_r = _at(ref_positions, k, range_r, start_r, step_r)
        s.count_r += 1
    for k in range(n_h):
        s = &by_id[ids_h[k]]
        if s.count_r == 0:
            continue
        if s.count_h == 0:
            s.first_h = _at(hyp_positions, k, range_h, start_h, step_h)
            order[shared] = ids_h[k]
            shared += 1
        s.count_h += 1
    cdef list forced = []
    for k in range(shared):
        s = &by_id[order[k]]
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
        s = &by_id[ids_h[k]]
        if s.count_h and not (s.count_h == 1 and s.count_r == 1):
            hyps[s.slot].append(_at(hyp_positions, k, range_h, start_h, step_h))
    for k in range(n_r):
        s = &by_id[ids_r[k]]
        if s.count_h and not (s.count_h == 1 and s.count_r == 1):
            refs[s.slot].append(_at(ref_positions, k, range_r, start_r, step_r))
    # Every shared key in order of its first hyp token: K(a, a) paired in order, the others open.
    forced = []
    cdef list open_classes = []
    for k in range(shared):
        s = &by_id[order[k]]
        if s.count_h == 1 and s.count_r == 1:
            forced.append((s.first_h, s.first_r))
        elif s.count_h == s.count_r:
            forced.extend(zip(hyps[s.slot], refs[s.slot]))
        else:
            open_classes.append((hyps[s.slot], refs[s.slot]))
    return forced, open_classes
