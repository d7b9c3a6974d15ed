# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The synonym stage's candidates on int arrays: the compiled twin of the paper's relation in
optimal._synonym_candidates (two words share a WordNet synset), which stays the reference (tests
hold the two identical: the same pairs, in the same order, one list per word).

Each word's synset keys (integers already) are copied once per process into one flat C array,
sorted, the word naming its run by an int id (a memo emptied at resources.MEMO_LIMIT words, as the
synset memo is). A call puts the reference words' keys in a small open-addressing table, each key
with the reference words that have it; a hypothesis word's partners are then found by looking up
its few keys (no merge of its run with every reference word's, no set built per sentence). (The
memo, the table and the stamps are shared by all calls: a lock keeps threads' calls apart, as a
word's first lookup runs Python code.)
optimal._synonym_candidates calls ``synonym_candidates`` when this module is built and up to date,
and optimal._via ``shared_wordnet_keys`` to name the synset a match's two words share.
"""
import threading

from libc.stdlib cimport qsort, realloc

cdef dict _ids = {}  # synset source -> {word -> its id}: its run of keys is _keys[_start[id]:_start[id + 1]]
cdef Py_ssize_t _count = 0  # ids given
cdef long long* _keys = NULL
cdef Py_ssize_t _keys_used = 0, _keys_room = 0
cdef Py_ssize_t* _start = NULL  # one more than the ids
cdef long long* _stamp = NULL  # per id: the last call that listed the word's partners (in _slot)
cdef Py_ssize_t* _slot = NULL
cdef Py_ssize_t _id_room = 0
cdef long long _call = 0
cdef Py_ssize_t* _scratch = NULL  # a call's reference words with synsets: their ids, then their places
cdef Py_ssize_t _scratch_room = 0
# A call's reference keys: an open-addressing table (a power of two of slots: the key, and the
# last node of its chain or -1), and the chains' nodes (a reference word's place among the listed
# ones, the node before). _hit[m]: the last hypothesis word that found listed word m.
cdef long long* _slot_key = NULL
cdef Py_ssize_t* _slot_head = NULL
cdef Py_ssize_t _slot_room = 0
cdef Py_ssize_t* _node_word = NULL
cdef Py_ssize_t* _node_before = NULL
cdef Py_ssize_t _node_room = 0
cdef long long* _hit = NULL
cdef Py_ssize_t _hit_room = 0
cdef long long _hit_stamp = 0


cdef int _by_value(const void* a, const void* b) noexcept nogil:
    cdef long long x = (<const long long*> a)[0], y = (<const long long*> b)[0]
    return (x > y) - (x < y)


cdef void* _grown(void* block, Py_ssize_t size) except NULL:
    cdef void* out = realloc(block, size)
    if out == NULL:
        raise MemoryError()
    return out


cdef Py_ssize_t _id(dict ids, word, keys) except -1:
    """The word's id, its sorted synset keys stored the first time it is seen."""
    global _keys, _keys_used, _keys_room, _start, _stamp, _slot, _id_room, _count
    found = ids.get(word)
    if found is not None:
        return found
    cdef Py_ssize_t new_id = _count, k = 0, n
    synsets = keys(word)
    n = len(synsets)
    if new_id + 2 > _id_room:
        _id_room = max(2 * _id_room, new_id + 2, 4096)
        _start = <Py_ssize_t*> _grown(_start, _id_room * sizeof(Py_ssize_t))
        _slot = <Py_ssize_t*> _grown(_slot, _id_room * sizeof(Py_ssize_t))
        _stamp = <long long*> _grown(_stamp, _id_room * sizeof(long long))
    if _keys_used + n > _keys_room:
        _keys_room = max(2 * _keys_room, _keys_used + n, 65536)
        _keys = <long long*> _grown(_keys, _keys_room * sizeof(long long))
    _start[new_id] = _keys_used
    for key in synsets:
        _keys[_keys_used + k] = key
        k += 1
    qsort(&_keys[_keys_used], n, sizeof(long long), _by_value)
    _keys_used += n
    _start[new_id + 1] = _keys_used
    _stamp[new_id] = 0
    ids[word] = new_id
    _count += 1
    return new_id


cdef inline Py_ssize_t _slot_of(long long key, Py_ssize_t mask) noexcept nogil:
    """The table slot holding ``key``, or the empty slot where it would go (linear probing)."""
    cdef Py_ssize_t slot = <Py_ssize_t> ((<unsigned long long> key * 0x9E3779B97F4A7C15ULL) >> 32) & mask
    while _slot_head[slot] != -2 and _slot_key[slot] != key:
        slot = (slot + 1) & mask
    return slot


cdef Py_ssize_t _table_of_listed(Py_ssize_t* ids_r, Py_ssize_t n_listed) except -1:
    """Every key of the listed reference words in the table, each with the listed words (their
    places m) that have it, latest first; returns the table's mask."""
    global _slot_key, _slot_head, _slot_room, _node_word, _node_before, _node_room
    cdef Py_ssize_t total = 0, m, x, slot, room = 16, nodes = 0
    for m in range(n_listed):
        total += _start[ids_r[m] + 1] - _start[ids_r[m]]
    while room < 2 * total:
        room *= 2
    if room > _slot_room:
        _slot_key = <long long*> _grown(_slot_key, room * sizeof(long long))
        _slot_head = <Py_ssize_t*> _grown(_slot_head, room * sizeof(Py_ssize_t))
        _slot_room = room
    if total > _node_room:
        _node_room = max(total, 2 * _node_room, 256)
        _node_word = <Py_ssize_t*> _grown(_node_word, _node_room * sizeof(Py_ssize_t))
        _node_before = <Py_ssize_t*> _grown(_node_before, _node_room * sizeof(Py_ssize_t))
    for slot in range(room):
        _slot_head[slot] = -2  # empty
    cdef long long key
    for m in range(n_listed):
        for x in range(_start[ids_r[m]], _start[ids_r[m] + 1]):
            key = _keys[x]
            slot = _slot_of(key, room - 1)
            if _slot_head[slot] == -2:
                _slot_key[slot], _slot_head[slot] = key, -1
            elif _slot_head[slot] >= 0 and _node_word[_slot_head[slot]] == m:
                continue  # (a word's run may hold a key twice)
            _node_word[nodes], _node_before[nodes] = m, _slot_head[slot]
            _slot_head[slot] = nodes
            nodes += 1
    return room - 1


_lock = threading.Lock()


def synonym_candidates(hyp, ref, free_h, free_r, str source, keys, Py_ssize_t limit) -> dict:
    """optimal._synonym_candidates for the paper's relation: hypothesis position -> the reference
    positions whose word shares a synset with its word (``keys``: word -> its synset keys), the
    positions of one word sharing one list. ``limit``: the memo's most words."""
    with _lock:
        return _candidates(hyp, ref, free_h, free_r, source, keys, limit)


cdef dict _candidates(hyp, ref, free_h, free_r, str source, keys, Py_ssize_t limit):
    global _call, _keys_used, _count, _scratch, _scratch_room, _hit, _hit_room, _hit_stamp
    cdef list positions_r = free_r if type(free_r) is list else list(free_r)
    cdef list positions_h = free_h if type(free_h) is list else list(free_h)
    cdef Py_ssize_t n_r = len(positions_r), n_h = len(positions_h), k, m, word_id
    if _count + n_r + n_h > limit:  # a bounded memo, as resources.WordMemo: start again
        _ids.clear()
        _keys_used = _count = 0
    ids = _ids.get(source)
    if ids is None:
        ids = _ids[source] = {}
    if 2 * n_r > _scratch_room:
        _scratch_room = max(2 * n_r, 2 * _scratch_room, 256)
        _scratch = <Py_ssize_t*> _grown(_scratch, _scratch_room * sizeof(Py_ssize_t))
    cdef Py_ssize_t* ids_r = _scratch
    cdef Py_ssize_t* places_r = _scratch + n_r
    cdef Py_ssize_t n_listed = 0  # the reference words with synsets: their ids and places
    for m in range(n_r):
        word_id = _id(ids, ref[positions_r[m]], keys)
        if _start[word_id + 1] > _start[word_id]:
            ids_r[n_listed] = word_id
            places_r[n_listed] = m
            n_listed += 1
    cdef dict out = {}
    cdef list listed = []  # this call's partner lists, by slot
    _call += 1
    cdef Py_ssize_t mask = -1, x, slot, node, low, high
    if n_listed > _hit_room:
        _hit_room = max(n_listed, 2 * _hit_room, 256)
        _hit = <long long*> _grown(_hit, _hit_room * sizeof(long long))
        for m in range(_hit_room):
            _hit[m] = 0  # (0 is never a word's stamp)
    for k in range(n_h):
        word_id = _id(ids, hyp[positions_h[k]], keys)
        if _stamp[word_id] == _call:  # a word repeated on the hypothesis side shares its list
            js = listed[_slot[word_id]]
        else:
            js = []
            if n_listed and _start[word_id + 1] > _start[word_id]:
                if mask < 0:  # (made once a hypothesis word has synsets)
                    mask = _table_of_listed(ids_r, n_listed)
                _hit_stamp += 1
                low, high = n_listed, -1
                for x in range(_start[word_id], _start[word_id + 1]):
                    slot = _slot_of(_keys[x], mask)
                    node = _slot_head[slot]
                    while node >= 0:  # -2: no listed word has the key
                        m = _node_word[node]
                        _hit[m] = _hit_stamp
                        low, high = min(low, m), max(high, m)
                        node = _node_before[node]
                for m in range(low, high + 1):  # in the order of the reference positions
                    if _hit[m] == _hit_stamp:
                        js.append(positions_r[places_r[m]])
            _stamp[word_id], _slot[word_id] = _call, len(listed)
            listed.append(js)
        if js:
            out[positions_h[k]] = js
    return out


def shared_wordnet_keys(a, b):
    """The WordNet keys words ``a`` and ``b`` share (sorted, each once), read from the runs kept
    for them (resources.shared_synset_of_keys: the same keys as synsets_of(a) & synsets_of(b),
    with no set made for either word); None when either word is not kept (the memo started again)."""
    cdef Py_ssize_t x, x_end, y, y_end
    cdef long long key, last = -1  # (keys are offset * 4 + part of speech: never negative)
    with _lock:
        ids = _ids.get("wordnet")
        if ids is None:
            return None
        found_a, found_b = ids.get(a), ids.get(b)
        if found_a is None or found_b is None:
            return None
        x, x_end = _start[<Py_ssize_t>found_a], _start[<Py_ssize_t>found_a + 1]
        y, y_end = _start[<Py_ssize_t>found_b], _start[<Py_ssize_t>found_b + 1]
        shared = []
        while x < x_end and y < y_end:
            if _keys[x] == _keys[y]:
                key = _keys[x]
                if key != last:  # (a word's run may hold a key twice)
                    shared.append(key)
                    last = key
                x += 1
                y += 1
            elif _keys[x] < _keys[y]:
                x += 1
            else:
                y += 1
        return shared
