# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""NLTK's greedy aligner on C data: the compiled twin of align/greedy.py's align_greedy with NLTK's
synonym lookup (config.synonym_lookup "stems"); greedy.py stays the reference, and tests hold every
result of both identical.

The same passes, read from greedy.py; only the data differ:
* every word is an integer id, given once per word in a vocabulary that also keeps, per word, what
  the passes ask of it: its stem's id (the stem function's own answer: resources.unmemoised_stemmer),
  its synsets (WordNet's synset_keys, as resources.synsets_of) in NLTK's order and sorted, and the
  synsets that list it (lemma_keys, as resources.lemma_synsets) sorted, as C arrays fetched when a
  pass first needs them;
* a side's left-over words are C arrays of ids beside their positions and a "taken" flag;
* a same-word pass finds the right-most free reference word equal to a hypothesis word in a small
  hash table of the reference ids, each entry a chain of positions, right-most first;
* the synonym pass puts the synsets that list a reference word in a hash set; a hypothesis word none
  of whose synsets is among them can only take the same form (from the chain), the others test the
  free reference words right to left: r matches h when one of h's synsets lists r, which only a
  synset both among h's synsets and r's lemma synsets can, and its lemma names are read from
  WordNet once per pair of words (the first such synset is the match's via, as
  resources.synset_with_lemma finds it).

The vocabulary is shared by the calls of a process and only grows: ids stay valid while a call
runs, whatever other threads do, and a full vocabulary is replaced by a new one between calls.
"""
from cpython.dict cimport PyDict_GetItem
from cpython.ref cimport PyObject
from libc.stdlib cimport calloc, free, malloc

from .. import resources
from .types import Alignment

cdef enum:
    CHUNK_BITS = 12
    CHUNK = 4096  # words per block of the vocabulary's table
    MAX_CHUNKS = 256  # blocks: 1,048,576 words; the table of blocks never moves


cdef struct Word:
    int stem  # the id of its stem, -1 until asked
    int n_synsets  # -1 until asked
    int n_synsets_in_order
    int n_lemma_synsets  # -1 until asked
    long long* synsets  # sorted, each once
    long long* synsets_in_order  # as WordNet gives them (NLTK's order)
    long long* lemma_synsets  # sorted, each once


cdef void _sort(long long* keys, Py_ssize_t n) noexcept nogil:
    """Insertion sort: a word has a few synsets (at most some tens), and libc's qsort allocates."""
    cdef Py_ssize_t i, j
    cdef long long key
    for i in range(1, n):
        key = keys[i]
        j = i - 1
        while j >= 0 and keys[j] > key:
            keys[j + 1] = keys[j]
            j -= 1
        keys[j + 1] = key


cdef long long* _keys(list keys) except? NULL:
    """``keys`` (synset keys, Python ints) as a C array (NULL when there are none)."""
    cdef Py_ssize_t n = len(keys), k
    if n == 0:
        return NULL
    cdef long long* out = <long long*> malloc(n * sizeof(long long))
    if out == NULL:
        raise MemoryError()
    for k in range(n):
        out[k] = keys[k]
    return out


cdef long long* _sorted_keys(list keys, int* count) except? NULL:
    """``keys`` (synset keys, Python ints) as a sorted C array, each once; its length in ``count``."""
    cdef Py_ssize_t n = len(keys), k
    cdef int unique = 0
    count[0] = 0
    cdef long long* out = _keys(keys)
    if out == NULL:
        return NULL
    _sort(out, n)
    for k in range(n):
        if unique == 0 or out[k] != out[unique - 1]:
            out[unique] = out[k]
            unique += 1
    count[0] = unique
    return out


cdef bint _meet(const long long* a, int na, const long long* b, int nb) noexcept nogil:
    """Whether two sorted arrays share an element."""
    cdef int i = 0, j = 0
    while i < na and j < nb:
        if a[i] == b[j]:
            return True
        if a[i] < b[j]:
            i += 1
        else:
            j += 1
    return False


cdef bint _has(const long long* keys, int n, long long key) noexcept nogil:
    """Whether the sorted array ``keys`` holds ``key``."""
    cdef int low = 0, high = n - 1, middle
    while low <= high:
        middle = (low + high) >> 1
        if keys[middle] == key:
            return True
        if keys[middle] < key:
            low = middle + 1
        else:
            high = middle - 1
    return False


cdef class _Vocabulary:
    """Word ids and each word's stem, synsets and lemma synsets (for one stem function)."""
    cdef dict ids  # word -> id
    cdef list words  # id -> word
    cdef dict first_listing  # (hyp id << 32 | ref id) -> the name of the first one's first synset listing the second
    cdef Word* chunks[MAX_CHUNKS]
    cdef int size
    cdef object stem_function

    def __cinit__(self, stem_function):
        self.ids, self.words, self.first_listing = {}, [], {}
        self.size = 0
        self.stem_function = stem_function

    def __dealloc__(self):
        cdef int c, k
        for c in range(MAX_CHUNKS):
            if self.chunks[c] != NULL:
                for k in range(CHUNK):
                    free(self.chunks[c][k].synsets)
                    free(self.chunks[c][k].synsets_in_order)
                    free(self.chunks[c][k].lemma_synsets)
                free(self.chunks[c])

    cdef inline Word* word(self, int id) noexcept:
        return &self.chunks[id >> CHUNK_BITS][id & (CHUNK - 1)]

    cdef int id_of(self, object text) except -1:
        cdef PyObject* found = PyDict_GetItem(self.ids, text)
        if found != NULL:
            return <int> <object> found
        cdef int id = self.size, c = id >> CHUNK_BITS, k
        if c >= MAX_CHUNKS:  # (threads sharing a vocabulary past its reserve: never with MEMO_LIMIT's default)
            raise MemoryError("the greedy aligner's vocabulary is full")
        if self.chunks[c] == NULL:
            self.chunks[c] = <Word*> calloc(CHUNK, sizeof(Word))
            if self.chunks[c] == NULL:
                raise MemoryError()
            for k in range(CHUNK):
                self.chunks[c][k].stem = self.chunks[c][k].n_synsets = self.chunks[c][k].n_lemma_synsets = -1
        self.ids[text] = id
        self.words.append(text)
        self.size += 1
        return id

    cdef int stem_of(self, int id) except -1:
        cdef int stem = self.word(id).stem
        if stem < 0:
            stem = self.id_of(self.stem_function(self.words[id]))
            self.word(id).stem = stem
        return stem

    cdef int synsets_of(self, int id, object reader) except -1:
        """Looks the word's synsets up the first time; their number."""
        cdef int count
        cdef long long* keys
        cdef long long* in_order
        if self.word(id).n_synsets < 0:
            found = reader.synset_keys(self.words[id])
            in_order = _keys(found)
            keys = _sorted_keys(found, &count)
            if self.word(id).n_synsets < 0:  # (another thread may have looked it up meanwhile)
                self.word(id).synsets, self.word(id).synsets_in_order = keys, in_order
                self.word(id).n_synsets_in_order = len(found)
                self.word(id).n_synsets = count
            else:
                free(keys)
                free(in_order)
        return self.word(id).n_synsets

    cdef int lemma_synsets_of(self, int id, object reader) except -1:
        cdef int count
        cdef long long* keys
        if self.word(id).n_lemma_synsets < 0:
            keys = _sorted_keys(reader.lemma_keys(self.words[id]), &count)
            if self.word(id).n_lemma_synsets < 0:
                self.word(id).lemma_synsets = keys
                self.word(id).n_lemma_synsets = count
            else:
                free(keys)
        return self.word(id).n_lemma_synsets

    cdef object synset_listing(self, int h, int r, object reader):
        """The name of word h's first synset (in NLTK's order) whose lemma names include word r,
        or None: resources.synset_with_lemma, on the words' synsets looked up already."""
        cdef Word* hw = self.word(h)
        cdef Word* rw = self.word(r)
        cdef int k
        if not _meet(hw.synsets, hw.n_synsets, rw.lemma_synsets, rw.n_lemma_synsets):
            return None  # (no synset of h is among those that can list r)
        pair = (<long long> h << 32) | r
        found = self.first_listing.get(pair, self)
        if found is self:
            found, name = None, self.words[r]
            for k in range(hw.n_synsets_in_order):
                key = hw.synsets_in_order[k]
                if _has(rw.lemma_synsets, rw.n_lemma_synsets, key) and name in reader.lemma_names(key):
                    found = resources.synset_name(key)
                    break
            self.first_listing[pair] = found
        return found


cdef dict _vocabularies = {}  # stem function -> its vocabulary


cdef _Vocabulary _vocabulary(object stem_function, Py_ssize_t new_words):
    """The vocabulary for ``stem_function``, a new one when this call's words might not fit (or
    it reached resources.MEMO_LIMIT, the bound of every per-word memo)."""
    cdef _Vocabulary vocabulary = _vocabularies.get(stem_function)
    if vocabulary is None or vocabulary.size + new_words > min(resources.MEMO_LIMIT, MAX_CHUNKS * CHUNK):
        if new_words > MAX_CHUNKS * CHUNK:
            raise MemoryError("too many words for the greedy aligner's vocabulary")
        vocabulary = _vocabularies[stem_function] = _Vocabulary(stem_function)
    return vocabulary


def _forget() -> None:
    """Empties the vocabularies (a fresh process's caches, for benchmarks and tests)."""
    _vocabularies.clear()


cdef struct Side:
    int n  # words in the sentence
    int left  # words not matched yet
    int* position  # each left-over word's position, in order
    int* form  # its current form's id (the word, or its stem after a stem stage)


cdef struct Table:
    # ref ids -> a chain of their free positions (indices into the reference Side), right-most first
    int size  # a power of two
    int* key  # -1 for an empty slot
    int* head
    int* next  # per reference index: the next one to the left with the same form, or -1


cdef int _slot(Table* t, int key) noexcept nogil:
    cdef unsigned int k = (<unsigned int> key * 2654435761u) & (t.size - 1)
    while t.key[k] != -1 and t.key[k] != key:
        k = (k + 1) & (t.size - 1)
    return k


cdef void _fill(Table* t, Side* ref) noexcept nogil:
    """Chains the reference's left-over forms (t's arrays sized for ref.n words)."""
    cdef int k, j
    for k in range(t.size):
        t.key[k] = -1
    for j in range(ref.left):
        k = _slot(t, ref.form[j])
        if t.key[k] == -1:
            t.key[k] = ref.form[j]
            t.next[j] = -1
        else:
            t.next[j] = t.head[k]
        t.head[k] = j


cdef void _compact(Side* side, const char* taken) noexcept nogil:
    """Drops the words matched (greedy.py's compress)."""
    cdef int k, kept = 0
    for k in range(side.left):
        if not taken[k]:
            side.position[kept] = side.position[k]
            side.form[kept] = side.form[k]
            kept += 1
    side.left = kept


cdef int _same_form_pass(Side* hyp, Side* ref, Table* t, char* taken_h, char* taken_r, object stage,
                         list words, list slots) except -1:
    """greedy._same_word_pass: hypothesis right to left, each word taking the right-most free
    reference word of the same form."""
    cdef int i, j, k, found = 0
    _fill(t, ref)
    for i in range(hyp.left):
        taken_h[i] = 0
    for j in range(ref.left):
        taken_r[j] = 0
    for i in range(hyp.left - 1, -1, -1):
        k = _slot(t, hyp.form[i])
        if t.key[k] == -1 or t.head[k] == -1:
            continue
        j = t.head[k]
        t.head[k] = t.next[j]
        taken_h[i] = taken_r[j] = 1
        found += 1
        slots[hyp.position[i]] = (hyp.position[i], ref.position[j], stage, words[hyp.form[i]], 1, 1)
    if found:
        _compact(hyp, taken_h)
        _compact(ref, taken_r)
    return found


cdef struct KeySet:
    # synset keys (never negative) in open addressing; -1 marks an empty slot
    int mask
    long long* slots


cdef inline int _key_slot(const KeySet* keys, long long key) noexcept nogil:
    cdef int k = <int> ((<unsigned long long> key * 11400714819323198485ULL) >> 40) & keys.mask
    while keys.slots[k] != -1 and keys.slots[k] != key:
        k = (k + 1) & keys.mask
    return k


cdef bint _meets_set(const long long* keys, int n, const KeySet* among) noexcept nogil:
    """Whether one of the n ``keys`` is in ``among``."""
    cdef int i
    for i in range(n):
        if among.slots[_key_slot(among, keys[i])] != -1:
            return True
    return False


cdef int _next_free(Table* t, int form, const char* taken) noexcept nogil:
    """The right-most free reference index of the form ``form``, or -1 (matched ones leave the chain)."""
    cdef int k = _slot(t, form), j
    if t.key[k] == -1:
        return -1
    j = t.head[k]
    while j != -1 and taken[j]:
        j = t.next[j]
    t.head[k] = j
    return j


cdef int _synonym_pass(_Vocabulary vocabulary, Side* hyp, Side* ref, Table* t, char* taken_h, char* taken_r,
                       object stage, list slots) except -1:
    """greedy._related_pass with NLTK's synonyms (greedy._nltk_synonyms_among): hypothesis right to
    left, each word taking the right-most free reference word that is the same form or a one-word
    lemma name of one of its synsets. A hypothesis word none of whose synsets lists a reference word
    (most) can only take the same form."""
    cdef int i, j, h, r, k, size = 4, n_listing = 0, found = 0
    cdef KeySet listing  # the synsets that list a reference word
    cdef Word* w
    listing.slots = NULL
    reader = resources.wordnet()
    for j in range(ref.left):
        taken_r[j] = 0
        n_listing += vocabulary.lemma_synsets_of(ref.form[j], reader)
    try:
        if n_listing:
            while size < 2 * n_listing:
                size *= 2
            listing.mask, listing.slots = size - 1, <long long*> malloc(size * sizeof(long long))
            if listing.slots == NULL:
                raise MemoryError()
            for k in range(size):
                listing.slots[k] = -1
            for j in range(ref.left):
                w = vocabulary.word(ref.form[j])
                for k in range(w.n_lemma_synsets):
                    listing.slots[_key_slot(&listing, w.lemma_synsets[k])] = w.lemma_synsets[k]
        _fill(t, ref)
        for i in range(hyp.left - 1, -1, -1):
            taken_h[i] = 0
            h = hyp.form[i]
            if n_listing and vocabulary.synsets_of(h, reader) and _meets_set(
                    vocabulary.word(h).synsets, vocabulary.word(h).n_synsets, &listing):
                for j in range(ref.left - 1, -1, -1):
                    if taken_r[j]:
                        continue
                    r = ref.form[j]
                    via = vocabulary.synset_listing(h, r, reader)
                    if r == h or (via is not None and "_" not in vocabulary.words[r]):
                        # (NLTK leaves lemma names of several words out)
                        break
                else:
                    continue
            else:
                # (no synset of h lists a reference word, h itself included: its via is the word)
                j = _next_free(t, h, taken_r)
                if j < 0:
                    continue
                via = None
            taken_h[i] = taken_r[j] = 1
            found += 1
            slots[hyp.position[i]] = (hyp.position[i], ref.position[j], stage, via or vocabulary.words[h], 1, 1)
    finally:
        free(listing.slots)
    if found:
        _compact(hyp, taken_h)
        _compact(ref, taken_r)
    return found


def align_greedy(list hyp, list ref, object stages, object stem_function):
    """greedy.align_greedy (NLTK's synonym lookup): an Alignment whose matches are tuples of Match's
    six fields, by hypothesis position. ``stem_function``: the stem stage's (None without one)."""
    cdef Py_ssize_t n = len(hyp), m = len(ref)
    cdef _Vocabulary vocabulary = _vocabulary(stem_function, 2 * (n + m))
    cdef Side h, r
    cdef Table t
    cdef int k
    cdef int size = 4
    while size < 2 * m:
        size *= 2
    cdef int* ints = <int*> malloc((2 * n + 2 * m + 3 * size) * sizeof(int))
    cdef char* taken = <char*> malloc(n + m + 1)
    if ints == NULL or taken == NULL:
        free(ints)
        free(taken)
        raise MemoryError()
    h.n, h.left, h.position, h.form = n, n, ints, ints + n
    r.n, r.left, r.position, r.form = m, m, ints + 2 * n, ints + 2 * n + m
    t.size, t.key, t.head = size, ints + 2 * n + 2 * m, ints + 2 * n + 2 * m + size
    t.next = ints + 2 * n + 2 * m + 2 * size
    slots = [None] * n
    try:
        for k in range(n):
            h.position[k] = k
            h.form[k] = vocabulary.id_of(hyp[k])
        for k in range(m):
            r.position[k] = k
            r.form[k] = vocabulary.id_of(ref[k])
        for stage in stages:
            if h.left == 0 or r.left == 0:
                break
            if stage == "exact":
                _same_form_pass(&h, &r, &t, taken, taken + n, stage, vocabulary.words, slots)
            elif stage == "stem":
                # NLTK's quirk: the left-over words are *replaced* by their stems from here on.
                for k in range(h.left):
                    h.form[k] = vocabulary.stem_of(h.form[k])
                for k in range(r.left):
                    r.form[k] = vocabulary.stem_of(r.form[k])
                _same_form_pass(&h, &r, &t, taken, taken + n, stage, vocabulary.words, slots)
            else:
                _synonym_pass(vocabulary, &h, &r, &t, taken, taken + n, stage, slots)
    finally:
        free(ints)
        free(taken)
    return tuple.__new__(Alignment, (tuple([match for match in slots if match is not None]), False))
