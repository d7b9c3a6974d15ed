# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""meteor15's beam search (Aligner.resolve) on C data: the compiled twin of beam._search, which
stays the reference (tests hold every result of both identical, cut points included).

The same steps as beam._search, read line by line from it; only the data differ:
* a partial alignment is a C struct (key, last hyp end, ref position its last phrase ends at,
  its node in the parent arena, its used-words bit set in a pool of 64-bit words);
* the chosen matches are a parent arena of (parent node, ref position, candidate index) entries,
  read back into beam's tuple chain once the search ends;
* the jar's stable sort is a stable sort of the paths by key, keeping the best BEAM_SIZE: the
  paths added since the last sort are sorted alone (insertion for a beam's worth, else merge)
  and merged after the ones it kept;
* the work budget is spent at the same places with the same amounts, so cuts fall at the same
  reference positions.
beam.align_meteor_beam calls ``search`` when this module is built and up to date, else its own
_search; keys are C long long (beam._keys_fit holds them).
"""
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset
from libc.stdint cimport uint64_t

cdef enum:
    BEAM_SIZE = 40  # beam.BEAM_SIZE (a test holds them equal)


cdef struct Path:
    # (int: positions, arena entries and slots stay far below 2**31; a smaller struct is a
    # cheaper move in the sorts)
    long long key
    int last   # hyp position after the last match, or -1 (no chunk open)
    int busy   # ref position the last phrase ends at
    int node   # the arena entry of its last match (-1: none)
    int slot   # its bit set: words[slot * width ...]


cdef struct Node:
    Py_ssize_t parent
    Py_ssize_t j
    Py_ssize_t cand


cdef struct Step:
    Py_ssize_t i
    Py_ssize_t end
    long long gain
    Py_ssize_t nh
    Py_ssize_t after
    long long d
    Py_ssize_t cand


cdef class _Paths:
    """A growable list of paths with a pool of bit sets (one ``width`` words each); its first
    ``ordered`` paths are sorted by key (what _keep_best sorted, until keys change)."""
    cdef Path* items
    cdef Py_ssize_t n, capacity, ordered
    cdef uint64_t* words
    cdef Py_ssize_t slots, slot_capacity, width

    def __cinit__(self, Py_ssize_t width):
        self.width = width
        self.capacity = 64
        self.items = <Path*> malloc(self.capacity * sizeof(Path))
        self.slot_capacity = 64
        self.words = <uint64_t*> malloc(self.slot_capacity * width * sizeof(uint64_t))
        if self.items == NULL or self.words == NULL:
            raise MemoryError()
        self.n = 0
        self.ordered = 0
        self.slots = 0

    def __dealloc__(self):
        free(self.items)
        free(self.words)

    cdef void clear(self):
        self.n = 0
        self.ordered = 0
        self.slots = 0

    cdef Py_ssize_t new_slot(self) except -1:
        cdef uint64_t* grown
        if self.slots == self.slot_capacity:
            grown = <uint64_t*> realloc(self.words, 2 * self.slot_capacity * self.width * sizeof(uint64_t))
            if grown == NULL:
                raise MemoryError()
            self.words = grown
            self.slot_capacity *= 2
        self.slots += 1
        return self.slots - 1

    cdef int add(self, long long key, Py_ssize_t last, Py_ssize_t busy, Py_ssize_t node,
                 Py_ssize_t slot) except -1:
        cdef Path* grown
        if self.n == self.capacity:
            grown = <Path*> realloc(self.items, 2 * self.capacity * sizeof(Path))
            if grown == NULL:
                raise MemoryError()
            self.items = grown
            self.capacity *= 2
        self.items[self.n].key = key
        self.items[self.n].last = last
        self.items[self.n].busy = busy
        self.items[self.n].node = node
        self.items[self.n].slot = slot
        self.n += 1
        return 0


cdef class _Arena:
    """The chosen matches: each entry's parent entry, ref position and candidate index."""
    cdef Node* items
    cdef Py_ssize_t n, capacity

    def __cinit__(self):
        self.capacity = 256
        self.items = <Node*> malloc(self.capacity * sizeof(Node))
        if self.items == NULL:
            raise MemoryError()
        self.n = 0

    def __dealloc__(self):
        free(self.items)

    cdef Py_ssize_t add(self, Py_ssize_t parent, Py_ssize_t j, Py_ssize_t cand) except -1:
        cdef Node* grown
        if self.n == self.capacity:
            grown = <Node*> realloc(self.items, 2 * self.capacity * sizeof(Node))
            if grown == NULL:
                raise MemoryError()
            self.items = grown
            self.capacity *= 2
        self.items[self.n].parent = parent
        self.items[self.n].j = j
        self.items[self.n].cand = cand
        self.n += 1
        return self.n - 1


cdef inline void _merge(const Path* left, Py_ssize_t n_left, const Path* right, Py_ssize_t n_right, Path* out,
                        Py_ssize_t count) noexcept nogil:
    """The first ``count`` paths of two runs sorted by key, merged stably (on equal keys, the
    left run's first). ``out`` may be where the right run lies, or before it: no path is written
    over before it is read."""
    cdef Py_ssize_t a = 0, b = 0, k
    for k in range(count):
        if b < n_right and (a >= n_left or right[b].key < left[a].key):
            out[k] = right[b]
            b += 1
        else:
            out[k] = left[a]
            a += 1


cdef void _merge_sort(Path* items, Path* scratch, Py_ssize_t n):
    """Stable sort by key (equal keys keep their order, as Collections.sort and list.sort)."""
    cdef Py_ssize_t width = 1, start, middle, end
    cdef Path* source = items
    cdef Path* target = scratch
    cdef Path* swap
    if n < 2:
        return
    while width < n:
        start = 0
        while start < n:
            middle = start + width if start + width < n else n
            end = start + 2 * width if start + 2 * width < n else n
            _merge(source + start, middle - start, source + middle, end - middle, target + start, end - start)
            start = end
        swap = source
        source = target
        target = swap
        width *= 2
    if source != items:
        memcpy(items, source, n * sizeof(Path))


cdef void _insertion_sort(Path* items, Py_ssize_t n) noexcept nogil:
    """Stable sort by key, in place (for a beam's worth of paths: no scratch)."""
    cdef Path moving
    cdef Py_ssize_t k, at
    for k in range(1, n):
        moving = items[k]
        at = k
        while at > 0 and items[at - 1].key > moving.key:
            items[at] = items[at - 1]
            at -= 1
        items[at] = moving


cdef int _keep_best(_Paths paths) except -1:
    """A stable sort of the paths by key, keeping the first BEAM_SIZE (beam._search's
    ``paths.sort(key=_KEY); del paths[BEAM_SIZE:]``). The paths after the sorted prefix (those
    added since the last call) are sorted alone, then merged after it: on equal keys the
    prefix's come first, as they come first in the list."""
    cdef Path* items = paths.items
    cdef Path* scratch
    cdef Py_ssize_t ordered = paths.ordered, n = paths.n, keep
    if ordered < n:
        if n - ordered > 2 * BEAM_SIZE:
            scratch = <Path*> malloc(n * sizeof(Path))
            if scratch == NULL:
                raise MemoryError()
            _merge_sort(items, scratch, n)
            free(scratch)
        elif ordered == 0:
            _insertion_sort(items, n)
        else:
            _insertion_sort(items + ordered, n - ordered)
            keep = n if n < BEAM_SIZE else BEAM_SIZE
            if items[ordered].key < items[ordered - 1].key:  # (else the two runs are in order)
                # the best ``keep`` of the two runs; the prefix from a copy, the merge into place
                if ordered > keep:
                    ordered = keep
                scratch = <Path*> malloc(ordered * sizeof(Path))
                if scratch == NULL:
                    raise MemoryError()
                memcpy(scratch, items, ordered * sizeof(Path))
                _merge(scratch, ordered, items + paths.ordered, n - paths.ordered, items, keep)
                free(scratch)
            n = keep
    if n > BEAM_SIZE:
        n = BEAM_SIZE
    paths.n = n
    paths.ordered = n
    return 0


cdef inline bint _overlaps(uint64_t* used, Py_ssize_t i, Py_ssize_t nh):
    cdef Py_ssize_t k
    for k in range(i, i + nh):
        if used[k >> 6] >> (k & 63) & 1:
            return True
    return False


cdef inline void _mark(uint64_t* used, Py_ssize_t i, Py_ssize_t nh):
    cdef Py_ssize_t k
    for k in range(i, i + nh):
        used[k >> 6] |= (<uint64_t> 1) << (k & 63)


cdef object _as_int(uint64_t* used, Py_ssize_t width):
    """A bit set as the Python int beam.py keeps (bit i: hyp word i used)."""
    cdef Py_ssize_t k
    value = 0
    for k in range(width - 1, -1, -1):
        value = (value << 64) | used[k]
    return value


cdef tuple _chain(_Arena arena, Py_ssize_t node, list per_ref):
    """beam's parent chain of (j, candidate) matches, ending at ``node`` (None: no match)."""
    cdef object chain = None
    cdef list taken = []
    while node != -1:
        taken.append(node)
        node = arena.items[node].parent
    for node in reversed(taken):
        chain = (0, -1, 0, chain, 0, (arena.items[node].j, per_ref[arena.items[node].j][arena.items[node].cand]))
    return chain


cdef tuple _as_tuple(Path* path, _Paths pool, _Arena arena, list per_ref, long long base, bint uniform,
                     Py_ssize_t common_last, Py_ssize_t common_busy):
    """beam._actual of a path: its whole key, the common last end and phrase end if they apply,
    and its matches as beam's tuple chain."""
    cdef Py_ssize_t last = common_last if uniform else path.last
    cdef Py_ssize_t busy = common_busy if uniform else path.busy
    chain = _chain(arena, path.node, per_ref)
    parent, taken = (chain[3], chain[5]) if chain is not None else (None, None)
    return (path.key + base, last, _as_int(pool.words + path.slot * pool.width, pool.width), parent, busy, taken)


def search(list per_ref, list fixed, budget, long long chunk, long long cover, finish_greedily):
    """beam._search on C data: (the best path as beam's tuple, whether the beam ran to its end).
    ``finish_greedily`` is beam._finish_greedily (a cut search ends as beam.py ends it)."""
    cdef Py_ssize_t n_hyp = 0, j, k, c, n_cands, width, i, nh, nr, end, after, slot, node
    cdef Py_ssize_t common_last = -1, common_busy = 0, last, busy, recount, n_steps, index
    # work units not yet given to the budget: summed while below its headroom (where spend()
    # would only add them), then spent in one call: the same answers and cut as a call a step
    cdef Py_ssize_t pending = 0, room = budget.headroom()
    cdef long long base = 0, gain, most, bar, key, opened, child, d
    cdef bint uniform = True, open_chunk, cut
    cdef tuple cands, cand, match
    cdef Path* path
    cdef Path* best
    cdef Step* steps = NULL
    cdef Py_ssize_t steps_capacity = 0
    cdef uint64_t* used
    cdef uint64_t* target
    for cands in per_ref:
        for cand in cands:
            end = <Py_ssize_t> cand[0] + <Py_ssize_t> cand[1]
            if end > n_hyp:
                n_hyp = end
    width = n_hyp // 64 + 1
    cdef _Paths paths = _Paths(width)
    cdef _Paths nxt = _Paths(width)
    cdef _Paths swap
    cdef _Arena arena = _Arena()
    slot = paths.new_slot()
    memset(paths.words + slot * width, 0, width * sizeof(uint64_t))
    paths.add(0, -1, 0, -1, slot)
    try:
        for j in range(len(per_ref)):
            cands = per_ref[j]
            match = fixed[j]
            n_cands = len(cands)
            if uniform and (common_busy > j or match is not None or n_cands == 0):
                if common_busy > j:  # inside a phrase every path took
                    continue
                if match is not None:
                    i, nh, nr, gain = match[0], match[1], match[2], match[3]
                    base += (j - i if j >= i else i - j) - gain * cover + (
                        chunk if common_last != -1 and common_last != i else 0)
                    common_last, common_busy = i + nh, j + nr
                elif common_last != -1:
                    base += chunk
                    common_last = -1
                continue
            if n_cands == 0:
                open_chunk = False
                for k in range(paths.n):
                    if paths.items[k].last != -1 and paths.items[k].busy <= j:
                        open_chunk = True
                        break
                if not open_chunk:
                    continue  # no chunk to close: nothing changes, the jar's sort included
            if paths.n > 1:
                _keep_best(paths)
            pending += (paths.n + 2) * n_cands + 1  # as beam._search spends
            if pending >= room:
                cut = budget.spend(pending)
                pending, room = 0, budget.headroom()
                if cut:
                    return finish_greedily(_as_tuple(&paths.items[0], paths, arena, per_ref, base, uniform,
                                                     common_last, common_busy),
                                           per_ref, fixed, j, chunk, cover), False
            if match is not None:  # a definite match: every path takes it (none is inside a phrase here)
                i, nh, nr, gain = match[0], match[1], match[2], match[3]
                base += (j - i if j >= i else i - j) - gain * cover
                for k in range(paths.n):
                    if paths.items[k].last != -1 and paths.items[k].last != i:
                        paths.items[k].key += chunk
                paths.ordered = 0
                uniform, common_last, common_busy = True, i + nh, j + nr
                continue
            if n_cands == 0:  # close the open chunks
                uniform = True
                for k in range(paths.n):
                    path = &paths.items[k]
                    if path.last != -1 and path.busy <= j:
                        path.key += chunk
                        path.last = -1
                    if path.busy > j:
                        uniform = False
                paths.ordered = 0
                common_last, common_busy = -1, j
                continue
            # The candidates of this position as steps (beam._search's ``steps``).
            if n_cands > steps_capacity:
                free(steps)
                steps_capacity = n_cands
                steps = <Step*> malloc(steps_capacity * sizeof(Step))
                if steps == NULL:
                    raise MemoryError()
            most = 0
            for c in range(n_cands):
                cand = cands[c]
                i, nh, nr, gain = cand[0], cand[1], cand[2], cand[3]
                steps[c].i = i
                steps[c].end = i + nh
                steps[c].gain = gain * cover
                steps[c].nh = nh
                steps[c].after = j + nr
                steps[c].d = j - i if j >= i else i - j
                steps[c].cand = c
                if gain * cover > most:
                    most = gain * cover
            bar, recount = cover, BEAM_SIZE  # every key is below cover
            nxt.clear()
            for k in range(paths.n):
                path = &paths.items[k]
                key = path.key
                if nxt.n >= recount:  # keep only the best BEAM_SIZE so far
                    _keep_best(nxt)
                    bar = nxt.items[BEAM_SIZE - 1].key
                    recount = BEAM_SIZE + BEAM_SIZE // 2
                if key - most >= bar:
                    break
                last = common_last if uniform else path.last
                busy = common_busy if uniform else path.busy
                used = paths.words + path.slot * width
                if busy > j:  # inside a phrase matched earlier
                    slot = nxt.new_slot()
                    memcpy(nxt.words + slot * width, used, width * sizeof(uint64_t))
                    nxt.add(key, last, busy, path.node, slot)
                    continue
                opened = key + chunk if last != -1 else key
                for c in range(n_cands):
                    if _overlaps(used, steps[c].i, steps[c].nh):
                        continue
                    child = (opened - chunk if steps[c].i == last else opened) - steps[c].gain
                    if child < bar:
                        node = arena.add(path.node, j, steps[c].cand)
                        slot = nxt.new_slot()
                        target = nxt.words + slot * width
                        memcpy(target, used, width * sizeof(uint64_t))
                        _mark(target, steps[c].i, steps[c].nh)
                        nxt.add(child, steps[c].end, steps[c].after, node, slot)
                    opened += steps[c].d  # the jar adds the distance to the parent (Aligner.java)
                if opened == key and path.last == last and path.busy == busy:  # the skip is the path itself
                    slot = nxt.new_slot()
                    memcpy(nxt.words + slot * width, used, width * sizeof(uint64_t))
                    nxt.add(key, path.last, path.busy, path.node, slot)
                elif opened < bar:
                    slot = nxt.new_slot()
                    memcpy(nxt.words + slot * width, used, width * sizeof(uint64_t))
                    nxt.add(opened, -1, busy, path.node, slot)
            swap = paths
            paths = nxt
            nxt = swap
            uniform = False
        # The jar's last step: sort, keep the beam, close the open chunks, sort again and take the
        # first (the first of equal keys, as the stable sort would).
        _keep_best(paths)
        best = &paths.items[0]
        if not uniform:
            for k in range(1, paths.n):
                key = paths.items[k].key + (chunk if paths.items[k].last != -1 else 0)
                if key < best.key + (chunk if best.last != -1 else 0):
                    best = &paths.items[k]
        result = _as_tuple(best, paths, arena, per_ref, base, uniform, common_last, common_busy)
        if result[1] != -1:
            result = (result[0] + chunk,) + result[1:]
        return result, True
    finally:
        free(steps)
        if pending:
            budget.spend(pending)  # (below the headroom: only counted)


beam_size = BEAM_SIZE  # (for the test that holds it equal to beam.BEAM_SIZE)
