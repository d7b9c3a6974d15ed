# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""meteor15's exact, stem and synonym candidates on words as int ids, and their join with the
paraphrase matches: the compiled twin of beam._word_candidates, and of beam._joined with
beam._fixed_matches, which stay the reference (tests hold every result of both identical).

The same candidates, in the same order, from the same stem function and the same synsets (read
through resources.distinct_synonym_keys: each word's keys once, the jar's as unparsed offset
strings, not memoised, since the vocabulary keeps them); only the data differ:
* each word is interned once per process (per pair of stem and synonym functions): an int id,
  with its stem as an int id and its synsets as int ids (dense, in a pool), computed when the
  word is first seen (the cold cost of a new word: its stem and its synsets, as in beam.py);
  the jar's synsets are read off the dictionary's lines of offsets (JarSynonyms.offset_lines,
  what JarSynonyms.offsets splits), each offset's digits parsed here and interned in a C hash
  table: no string, list or dict entry per offset;
* a pair's words become two C arrays of ids; a reference word's candidates are the hypothesis
  positions, ascending, module by module, whose id (exact), stem id (stem, another word) or some
  synset id (synonym, another word) it shares, found by scanning the ids; a synonym scan runs
  only where beam.py's test (a synset some other hypothesis word has) lets it, read off per-call
  stamps on the synset ids;
* the fixed matches of a pair without paraphrases are counted on the candidates' positions.
The candidates are beam's own shared tuples (beam._SINGLES, passed in), one tuple per distinct
reference word, shared by the positions that hold it, as beam.py makes them.
``joined_and_fixed`` joins each position's paraphrase matches to its candidates as beam._joined
(spending the same work), then counts how many candidates cover each word, on both sides, in C
arrays (each shared tuple once, times the positions holding it, as beam._fixed_matches counts).
"""
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_New, PyTuple_SET_ITEM
from cpython.unicode cimport PyUnicode_AsUTF8AndSize, PyUnicode_DecodeUTF8
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memset

from meteor_core.jar_resources import JarSynonyms

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object)

# Interned words kept at most (resources.MEMO_LIMIT): past it the vocabulary starts again, so
# memory stays bounded by a vocabulary, not by the corpus. (A module attribute: tests lower it.)
word_limit = 500_000


cdef int _grow(void** array, Py_ssize_t* capacity, Py_ssize_t needed, size_t item) except -1:
    """Make ``*array`` hold at least ``needed`` items (doubling), new items zeroed."""
    cdef Py_ssize_t new_capacity = capacity[0] if capacity[0] > 0 else 1024
    cdef void* grown
    if needed <= capacity[0]:
        return 0
    while new_capacity < needed:
        new_capacity *= 2
    grown = realloc(array[0], new_capacity * item)
    if grown == NULL:
        raise MemoryError()
    memset(<char*> grown + capacity[0] * item, 0, (new_capacity - capacity[0]) * item)
    array[0] = grown
    capacity[0] = new_capacity
    return 0


cdef inline bint _ascii_space(unsigned char c) noexcept:
    """Whether str.split splits an ASCII string at ``c``."""
    return c == 32 or 9 <= c <= 13 or 28 <= c <= 31


cdef class _Vocabulary:
    """Words as ids with their stem ids and synset ids, for one stem and one synonym function
    (None: that module is not asked for), and the scratch stamps of a call."""
    cdef object stem, synsets
    cdef object jar_lines  # JarSynonyms.offset_lines when ``synsets`` is JarSynonyms.offsets, else None
    cdef dict ids, stem_ids, synset_ids
    cdef Py_ssize_t n_synsets  # synset ids given out (by synset_ids and the numeric table alike)
    # the numeric synset keys (an offset's value * 16 + its digit count; 0: empty) -> synset id,
    # open addressing
    cdef unsigned long long* numeric_keys
    cdef int* numeric_ids
    cdef Py_ssize_t numeric_capacity, numeric_count
    cdef unsigned long long* word_mark  # per synset id: == mark, the word being interned has it
    cdef unsigned long long mark
    # per word id
    cdef int* stem_of
    cdef int* syn_start
    cdef int* syn_count
    cdef unsigned long long* in_hyp  # == stamp: the word is in this call's hypothesis
    cdef unsigned long long* in_ref  # == stamp: the word was seen in this call's reference
    cdef int* ref_slot  # its distinct reference word's index in this call
    cdef Py_ssize_t word_capacity
    # the synset ids of every word, one after another
    cdef int* pool
    cdef Py_ssize_t pool_len, pool_capacity
    # per synset id
    cdef unsigned long long* syn_in_hyp  # == stamp: some hypothesis word has it
    cdef int* hyp_words_with  # how many distinct hypothesis words have it (this call)
    cdef unsigned long long* mine  # == ref_stamp: the current reference word has it
    cdef Py_ssize_t synset_capacity
    cdef unsigned long long stamp, ref_stamp

    def __cinit__(self, stem, synsets):
        self.stem = stem
        self.synsets = synsets
        self.jar_lines = None
        if isinstance(getattr(synsets, "__self__", None), JarSynonyms) and \
                getattr(synsets, "__func__", None) is JarSynonyms.offsets:
            self.jar_lines = synsets.__self__.offset_lines
        self.ids, self.stem_ids, self.synset_ids = {}, {}, {}

    def __dealloc__(self):
        free(self.stem_of)
        free(self.syn_start)
        free(self.syn_count)
        free(self.in_hyp)
        free(self.in_ref)
        free(self.ref_slot)
        free(self.pool)
        free(self.syn_in_hyp)
        free(self.hyp_words_with)
        free(self.mine)
        free(self.numeric_keys)
        free(self.numeric_ids)
        free(self.word_mark)

    cdef int restart(self) except -1:
        """Forget every word (the stamps stay valid: they only grow)."""
        self.ids.clear()
        self.stem_ids.clear()
        self.synset_ids.clear()
        self.n_synsets = 0
        if self.numeric_keys != NULL:
            memset(self.numeric_keys, 0, self.numeric_capacity * sizeof(unsigned long long))
        self.numeric_count = 0
        self.pool_len = 0
        return 0

    cdef int string_key_id(self, key) except -1:
        """The synset id of a key (a new one the first time)."""
        found = self.synset_ids.get(key)
        if found is None:
            found = self.synset_ids[key] = self.n_synsets
            self.n_synsets += 1
        return <int> found

    cdef int numeric_key_id(self, unsigned long long key) except -1:
        """The synset id of a numeric key (a new one the first time)."""
        cdef Py_ssize_t slot, k, old_capacity
        cdef unsigned long long* old_keys
        cdef int* old_ids
        if 2 * (self.numeric_count + 1) > self.numeric_capacity:  # (at most half full)
            old_keys, old_ids, old_capacity = self.numeric_keys, self.numeric_ids, self.numeric_capacity
            self.numeric_capacity = 2 * old_capacity if old_capacity else 4096
            self.numeric_keys = <unsigned long long*> calloc(self.numeric_capacity, sizeof(unsigned long long))
            self.numeric_ids = <int*> malloc(self.numeric_capacity * sizeof(int))
            if self.numeric_keys == NULL or self.numeric_ids == NULL:
                free(self.numeric_keys); free(self.numeric_ids); free(old_keys); free(old_ids)
                self.numeric_keys, self.numeric_ids = NULL, NULL
                self.numeric_capacity = self.numeric_count = 0
                raise MemoryError()
            for k in range(old_capacity):
                if old_keys[k]:
                    slot = self.numeric_slot(old_keys[k])
                    self.numeric_keys[slot] = old_keys[k]
                    self.numeric_ids[slot] = old_ids[k]
            free(old_keys)
            free(old_ids)
        slot = self.numeric_slot(key)
        if self.numeric_keys[slot] == 0:
            self.numeric_keys[slot] = key
            self.numeric_ids[slot] = <int> self.n_synsets
            self.numeric_count += 1
            self.n_synsets += 1
        return self.numeric_ids[slot]

    cdef inline Py_ssize_t numeric_slot(self, unsigned long long key) noexcept:
        """Where ``key`` is in the numeric table, or the empty slot where it goes."""
        cdef Py_ssize_t mask = self.numeric_capacity - 1
        cdef Py_ssize_t slot = <Py_ssize_t> ((key * 0x9E3779B97F4A7C15ULL) >> 20) & mask
        while self.numeric_keys[slot] != 0 and self.numeric_keys[slot] != key:
            slot = (slot + 1) & mask
        return slot

    cdef int token_id(self, const unsigned char* data, Py_ssize_t n) except -1:
        """The synset id of a key spelled ``data[:n]`` (UTF-8): up to 15 ASCII digits are a
        numeric key (the jar's offsets, all of them), anything else a string key."""
        cdef unsigned long long value = 0
        cdef Py_ssize_t k
        if n > 15:
            return self.string_key_id(PyUnicode_DecodeUTF8(<const char*> data, n, NULL))
        for k in range(n):
            if data[k] < 48 or data[k] > 57:
                return self.string_key_id(PyUnicode_DecodeUTF8(<const char*> data, n, NULL))
            value = value * 10 + (data[k] - 48)
        return self.numeric_key_id(value * 16 + <unsigned long long> n)

    cdef int add_synset(self, int s) except -1:
        """Put synset id ``s`` in the pool for the word being interned, unless it has it already."""
        cdef Py_ssize_t k, n = self.n_synsets
        if n > self.synset_capacity:
            k = self.synset_capacity
            _grow(<void**> &self.syn_in_hyp, &k, n, sizeof(unsigned long long))
            k = self.synset_capacity
            _grow(<void**> &self.mine, &k, n, sizeof(unsigned long long))
            k = self.synset_capacity
            _grow(<void**> &self.hyp_words_with, &k, n, sizeof(int))
            k = self.synset_capacity
            _grow(<void**> &self.word_mark, &k, n, sizeof(unsigned long long))
            self.synset_capacity = k
        if self.word_mark[s] == self.mark:
            return 0
        self.word_mark[s] = self.mark
        k = self.pool_capacity
        _grow(<void**> &self.pool, &k, self.pool_len + 1, sizeof(int))
        self.pool_capacity = k
        self.pool[self.pool_len] = s
        self.pool_len += 1
        return 0

    cdef int add_jar_lines(self, tuple lines) except -1:
        """The synsets on the dictionary's lines (JarSynonyms.offset_lines: str.split's words of
        each, the same offset once), into the pool."""
        cdef const unsigned char* data
        cdef Py_ssize_t size, k, start
        for line in lines:
            if not PyUnicode_IS_ASCII(line):
                for key in line.split():
                    data = <const unsigned char*> PyUnicode_AsUTF8AndSize(key, &size)
                    self.add_synset(self.token_id(data, size))
                continue
            data = <const unsigned char*> PyUnicode_AsUTF8AndSize(line, &size)
            k = 0
            while k < size:
                if _ascii_space(data[k]):
                    k += 1
                    continue
                start = k
                while k < size and not _ascii_space(data[k]):
                    k += 1
                self.add_synset(self.token_id(data + start, k - start))
        return 0

    cdef int word_id(self, str word) except -1:
        cdef object found = self.ids.get(word)
        cdef Py_ssize_t k, n, w
        if found is not None:
            return <int> found
        w = len(self.ids)
        if w >= self.word_capacity:
            n = self.word_capacity
            _grow(<void**> &self.stem_of, &n, w + 1, sizeof(int))
            n = self.word_capacity
            _grow(<void**> &self.syn_start, &n, w + 1, sizeof(int))
            n = self.word_capacity
            _grow(<void**> &self.syn_count, &n, w + 1, sizeof(int))
            n = self.word_capacity
            _grow(<void**> &self.ref_slot, &n, w + 1, sizeof(int))
            n = self.word_capacity
            _grow(<void**> &self.in_hyp, &n, w + 1, sizeof(unsigned long long))
            n = self.word_capacity
            _grow(<void**> &self.in_ref, &n, w + 1, sizeof(unsigned long long))
            self.word_capacity = n
        self.in_hyp[w] = 0
        self.in_ref[w] = 0
        if self.stem is not None:
            stem = self.stem(word)
            found = self.stem_ids.get(stem)
            if found is None:
                found = self.stem_ids[stem] = len(self.stem_ids)
            self.stem_of[w] = <int> found
        self.syn_start[w] = <int> self.pool_len
        self.syn_count[w] = 0
        self.mark += 1
        if self.jar_lines is not None:
            self.add_jar_lines(<tuple> self.jar_lines(word))
        elif self.synsets is not None:
            for key in self.synsets(word):
                self.add_synset(self.string_key_id(key))
        self.syn_count[w] = <int> (self.pool_len - self.syn_start[w])
        self.ids[word] = w
        return <int> w


_vocabularies = {}  # (stem function, synonym function) -> its _Vocabulary


cdef _Vocabulary _vocabulary(stem, synsets):
    key = (stem, synsets)  # (the functions themselves: a reloaded resource is a new function)
    found = _vocabularies.get(key)
    if found is None:
        if len(_vocabularies) >= 8:  # (resources reloaded again and again, e.g. by tests)
            _vocabularies.clear()
        found = _vocabularies[key] = _Vocabulary(stem, synsets)
    return <_Vocabulary> found


def candidates(list hyp, list ref, bint use_exact, stem, synsets, exact_singles, stem_singles, synonym_singles,
               bint with_fixed):
    """beam._word_candidates on int ids: (per reference position its candidates' tuple, the fixed
    matches or None). ``stem``/``synsets``: the modules' functions (None: module not asked for);
    ``*_singles``: beam's shared one-word candidates (beam._Singles, lists), at least len(hyp)."""
    cdef list exact = <list> exact_singles, stemmed = <list> stem_singles, synonym = <list> synonym_singles
    cdef Py_ssize_t n = len(hyp), m = len(ref), i, j, k, q, d, n_distinct = 0, start, count
    cdef int w, r, s
    cdef bint use_stem = stem is not None, use_synonym = synsets is not None, hit
    cdef _Vocabulary vocab = _vocabulary(stem, synsets)
    cdef int* h = NULL
    cdef int* rr = NULL
    cdef int* positions = NULL  # every distinct reference word's candidate positions, in turn
    cdef int* first = NULL  # per distinct reference word: where its positions start, how many, how often
    cdef int* many = NULL
    cdef int* times = NULL
    cdef int* hyp_cover = NULL
    cdef Py_ssize_t positions_len = 0, positions_capacity = 0
    cdef Py_ssize_t after_exact, after_stem
    cdef list per_word = [], per_ref, fixed
    cdef tuple found
    if len(vocab.ids) + n + m > <Py_ssize_t> word_limit:
        vocab.restart()
    h = <int*> malloc((n + 1) * sizeof(int))
    rr = <int*> malloc((m + 1) * sizeof(int))
    first = <int*> malloc((m + 1) * sizeof(int))
    many = <int*> malloc((m + 1) * sizeof(int))
    times = <int*> malloc((m + 1) * sizeof(int))
    try:
        if h == NULL or rr == NULL or first == NULL or many == NULL or times == NULL:
            raise MemoryError()
        for i in range(n):
            h[i] = vocab.word_id(hyp[i])
        for j in range(m):
            rr[j] = vocab.word_id(ref[j])
        vocab.stamp += 1
        for i in range(n):
            w = h[i]
            if vocab.in_hyp[w] == vocab.stamp:
                continue
            vocab.in_hyp[w] = vocab.stamp
            if use_synonym:
                for k in range(vocab.syn_start[w], vocab.syn_start[w] + vocab.syn_count[w]):
                    s = vocab.pool[k]
                    if vocab.syn_in_hyp[s] != vocab.stamp:
                        vocab.syn_in_hyp[s] = vocab.stamp
                        vocab.hyp_words_with[s] = 1
                    else:
                        vocab.hyp_words_with[s] += 1
        per_ref = [None] * m
        for j in range(m):
            r = rr[j]
            if vocab.in_ref[r] == vocab.stamp:
                d = vocab.ref_slot[r]
                times[d] += 1
                per_ref[j] = per_word[d]
                continue
            vocab.in_ref[r] = vocab.stamp
            vocab.ref_slot[r] = <int> n_distinct
            start = positions_len
            if positions_capacity < positions_len + 3 * n:  # room for every module's positions
                _grow(<void**> &positions, &positions_capacity, positions_len + 3 * n, sizeof(int))
            if use_exact and vocab.in_hyp[r] == vocab.stamp:
                for i in range(n):
                    if h[i] == r:
                        positions[positions_len] = <int> i
                        positions_len += 1
            after_exact = positions_len
            if use_stem:
                s = vocab.stem_of[r]
                for i in range(n):
                    if h[i] != r and vocab.stem_of[h[i]] == s:
                        positions[positions_len] = <int> i
                        positions_len += 1
            after_stem = positions_len
            if use_synonym and vocab.syn_count[r]:
                # beam's test: a synset that another hypothesis word has (r itself, if it is in
                # the hypothesis, accounts for one hypothesis word of each of its synsets)
                q = 2 if vocab.in_hyp[r] == vocab.stamp else 1
                hit = False
                for k in range(vocab.syn_start[r], vocab.syn_start[r] + vocab.syn_count[r]):
                    s = vocab.pool[k]
                    if vocab.syn_in_hyp[s] == vocab.stamp and vocab.hyp_words_with[s] >= q:
                        hit = True
                        break
                if hit:
                    vocab.ref_stamp += 1
                    for k in range(vocab.syn_start[r], vocab.syn_start[r] + vocab.syn_count[r]):
                        vocab.mine[vocab.pool[k]] = vocab.ref_stamp
                    for i in range(n):
                        w = h[i]
                        if w == r:
                            continue
                        for k in range(vocab.syn_start[w], vocab.syn_start[w] + vocab.syn_count[w]):
                            if vocab.mine[vocab.pool[k]] == vocab.ref_stamp:
                                positions[positions_len] = <int> i
                                positions_len += 1
                                break
            first[n_distinct] = <int> start
            many[n_distinct] = <int> (positions_len - start)
            times[n_distinct] = 1
            n_distinct += 1
            # its candidates: the shared one-word tuples at its positions, module by module
            # (a tuple made at its size: no list grown and copied)
            found = PyTuple_New(positions_len - start)
            for k in range(start, positions_len):
                single = (exact if k < after_exact else stemmed if k < after_stem else synonym)[positions[k]]
                Py_INCREF(single)
                PyTuple_SET_ITEM(found, k - start, single)
            per_word.append(found)
            per_ref[j] = found
        if not with_fixed:
            return per_ref, None
        # One-word matches: a reference position's coverage is its number of candidates; a hyp
        # word's is the number of reference positions whose candidates hold it.
        hyp_cover = <int*> malloc((n + 1) * sizeof(int))
        if hyp_cover == NULL:
            raise MemoryError()
        memset(hyp_cover, 0, (n + 1) * sizeof(int))
        for d in range(n_distinct):
            for k in range(first[d], first[d] + many[d]):
                hyp_cover[positions[k]] += times[d]
        fixed = [None] * m
        for j in range(m):
            d = vocab.ref_slot[rr[j]]
            if many[d] == 1 and hyp_cover[positions[first[d]]] == 1:
                fixed[j] = (<tuple> per_word[d])[0]
        return per_ref, fixed
    finally:
        free(h)
        free(rr)
        free(first)
        free(many)
        free(times)
        free(positions)
        free(hyp_cover)


cdef inline Py_ssize_t _item(tuple cand, Py_ssize_t k):
    return <Py_ssize_t> (<object> PyTuple_GET_ITEM(cand, k))


def joined_and_fixed(list per_ref, list extra, list spans, Py_ssize_t n_h, budget):
    """beam._joined then beam._fixed_matches on C counts: (each position's candidates with its
    paraphrase matches after them, the fixed matches). The work spent is beam._joined's, in the
    same order."""
    cdef Py_ssize_t m = len(per_ref), j, k, c, slot, mask, i, nh, nr, times, n_slots = 16
    cdef list joined = [None] * m, fixed
    cdef tuple cands, cand
    cdef list more
    cdef int* hyp_cover = NULL
    cdef int* ref_cover = NULL
    cdef void** keys = NULL  # an open-addressing set of the distinct candidate tuples (shared by
    cdef Py_ssize_t* counts = NULL  # the positions of a word) and how many positions hold each
    cdef bint alone
    for j in range(m):
        cands = <tuple> per_ref[j]
        more = <list> extra[j]
        if more:  # a position's own tuple, no longer shared with the others of its word: work to count
            budget.spend(len(cands) + len(more))
            cands = cands + tuple(more)
        joined[j] = cands
    while n_slots < 2 * m:
        n_slots *= 2
    mask = n_slots - 1
    hyp_cover = <int*> calloc(n_h + 1, sizeof(int))
    ref_cover = <int*> calloc(m + 1, sizeof(int))
    keys = <void**> calloc(n_slots, sizeof(void*))
    counts = <Py_ssize_t*> calloc(n_slots, sizeof(Py_ssize_t))
    try:
        if hyp_cover == NULL or ref_cover == NULL or keys == NULL or counts == NULL:
            raise MemoryError()
        for j in range(m):
            cands = <tuple> joined[j]
            ref_cover[j] = <int> len(cands)  # one-word candidates cover their own position
            slot = ((<size_t> <void*> cands) >> 4) & mask
            while keys[slot] != NULL and keys[slot] != <void*> cands:
                slot = (slot + 1) & mask
            keys[slot] = <void*> cands
            counts[slot] += 1
        for j, nr in spans:
            for k in range(j + 1, j + nr):
                ref_cover[k] += 1
        for slot in range(n_slots):
            if keys[slot] == NULL:
                continue
            cands = <tuple> keys[slot]
            times = counts[slot]
            for c in range(len(cands)):
                cand = <tuple> PyTuple_GET_ITEM(cands, c)
                i, nh = _item(cand, 0), _item(cand, 1)
                for k in range(i, i + nh):
                    hyp_cover[k] += times
        fixed = [None] * m
        for j in range(m):
            cands = <tuple> joined[j]
            if len(cands) != 1:
                continue
            cand = <tuple> PyTuple_GET_ITEM(cands, 0)
            i, nh, nr = _item(cand, 0), _item(cand, 1), _item(cand, 2)
            alone = True
            for k in range(j, j + nr):
                if ref_cover[k] != 1:
                    alone = False
            for k in range(i, i + nh):
                if hyp_cover[k] != 1:
                    alone = False
            if alone:
                fixed[j] = cand
        return joined, fixed
    finally:
        free(hyp_cover)
        free(ref_cover)
        free(keys)
        free(counts)
