# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""meteor15's paraphrase matching (ParaphraseMatcher) on C data: the compiled twin of
beam._paraphrase_matches (with the ParaphraseTable.paths walk and beam._bounded_paths it calls,
and beam._ngram_positions), which stay the reference (tests hold every result of both identical,
work units and cut points included).

The same steps, read line by line from them; only the data differ:
* each sentence is its words' UTF-8 bytes, one space apart, in one C buffer: a phrase of
  consecutive words is a slice of it, exactly the bytes of ``" ".join(words[start:end])``;
* the table is read through its arrays (ParaphraseTable.arrays(): the mapped compact file), the
  phrase's CRC-32 grown word by word as the walk extends it (zlib's CRC-32, computed here), so a
  phrase is hashed once for the slot probe and the prefix bit alike;
* a sentence's n-grams (up to the table's longest phrase) are a small open-addressing table of
  slices with their start positions ascending, hashed word by word (ngram_more: each word's
  CRC-32 once, not each n-gram's bytes again); a paraphrase is looked up by its bytes in the
  pool, hashed the same way, a filter (a bit per n-gram, keyed on its length and end bytes)
  rejecting most before the hash;
* each paraphrase's filter key (filter_key of its bytes) is in the table's arrays, beside the
  runs of paraphrases (ParaphraseTable's target_keys, made when the table is parsed), read in a
  row: the filter rejects most paraphrases before their entries in the cache or the mapped pool
  are read;
* per table, two fixed-size caches (at most 13 MB) keep what recurs from segment to segment: a
  phrase's lookup (its bytes -> phrase index and prefix bit; two entries a hash, the most
  recently used first) and a paraphrase's n-gram hash, length and offset, so a common
  phrase ("of the") does not probe the mapped file again;
* each sentence's phrases in the table (what the walk from it looks up: phrase index and word
  count per start position) are kept by the table's views, keyed by the sentence's words (at
  most SENTENCES_KEPT sentences): the same sentences come back rerun after rerun;
* the work budget is spent at the same places with the same amounts (a lookup's paraphrases and
  their list before they are used, each match found after), so cuts fall where they fall in beam.
beam._paraphrases calls ``matches`` when this module is built and up to date; it answers
None for sentences whose words it cannot slice alike (an empty word, one with a space, or one
that is not valid UTF-8), and beam's own code runs for them.
"""
from cpython.unicode cimport PyUnicode_AsUTF8AndSize
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset
from libc.stdint cimport uint32_t, uint64_t

cdef uint32_t CRC_TABLE[256]
cdef int _k, _b
cdef uint32_t _c
for _k in range(256):
    _c = _k
    for _b in range(8):
        _c = (_c >> 1) ^ 0xEDB88320u if _c & 1 else _c >> 1
    CRC_TABLE[_k] = _c

DEF FILTER_BITS = 1 << 16
DEF PHRASE_CACHE = 1 << 17  # entries of _Table's phrase cache (64 bytes each)
DEF CACHED_BYTES = 52  # a phrase's bytes kept in its entry; longer phrases are not cached
DEF TARGET_CACHE = 1 << 18  # entries of _Table's paraphrase cache (16 bytes each)
DEF NGRAM_START = 0x243F6A8885A308D3


cdef struct PhraseEntry:
    # A phrase looked up before: its bytes, CRC-32, length, phrase index (-1: not a phrase) and
    # prefix bit. The same phrases recur from segment to segment ("of the"); here their probes
    # into the mapped table (a cache miss each: slot, phrase, offset, pool) are done once.
    uint32_t h
    int p
    unsigned short length
    unsigned char prefix
    unsigned char used
    unsigned char bytes[CACHED_BYTES]


cdef struct TargetEntry:
    # A paraphrase (string id + 1; 0: empty) with its words_hash and length: what _Sentence.find
    # needs, without reading its offsets and bytes in the mapped pool again.
    uint32_t id_plus_one
    uint32_t h
    uint32_t length
    uint32_t offset  # where its bytes start in the pool
    uint32_t words  # how many words (spaces + 1)


cdef inline uint32_t crc_more(uint32_t state, const unsigned char* data, Py_ssize_t n) noexcept nogil:
    """Extend a CRC-32 register (zlib's crc32 is ``~register`` after starting from ~0)."""
    cdef Py_ssize_t k
    for k in range(n):
        state = CRC_TABLE[(state ^ data[k]) & 0xFF] ^ (state >> 8)
    return state


cdef inline uint64_t ngram_more(uint64_t state, uint32_t word) noexcept nogil:
    """An n-gram's hash grown by one word (given as its CRC-32): a sentence's n-grams cost one
    step a word, where their CRC-32 ran over every byte of each. Start from NGRAM_START; the
    hash is ngram_hash(state)."""
    return (state ^ word) * 0x9E3779B97F4A7C15ULL


cdef inline uint32_t ngram_hash(uint64_t state) noexcept nogil:
    return <uint32_t> (state >> 32)


cdef inline uint32_t words_hash(const unsigned char* data, Py_ssize_t n) noexcept nogil:
    """The n-gram hash of ``data[:n]``, its words being what lies between single spaces."""
    cdef uint64_t state = NGRAM_START
    cdef uint32_t crc = 0xFFFFFFFFu
    cdef Py_ssize_t k
    for k in range(n):
        if data[k] == 32:
            state = ngram_more(state, ~crc)
            crc = 0xFFFFFFFFu
        else:
            crc = CRC_TABLE[(crc ^ data[k]) & 0xFF] ^ (crc >> 8)
    return ngram_hash(ngram_more(state, ~crc))


cdef inline uint32_t filter_key(const unsigned char* data, Py_ssize_t n) noexcept nogil:
    """A slice's bit in a sentence's filter: its length and its first two and last two bytes,
    mixed (a multiplication), so that few paraphrases pass a filter without being one of the
    sentence's n-grams, at the cost of five reads (a table's paraphrases get their keys when
    first needed: hashing all their bytes made a cold pass slower). A key summing the length and
    two end bytes let three times as many through to the probe."""
    cdef uint64_t x = (<uint64_t> n | <uint64_t> data[0] << 16 | <uint64_t> data[1 if n > 1 else 0] << 24
                       | <uint64_t> data[n - 1] << 32 | <uint64_t> data[n - 2 if n > 1 else 0] << 40)
    return <uint32_t> ((x * 0x9E3779B97F4A7C15ULL) >> 48) & (FILTER_BITS - 1)


cdef class _Sentence:
    """A sentence's words as one UTF-8 buffer, and its n-grams (phrases of up to ``longest``
    words) as a hash table of slices -> start positions, ascending (beam._ngram_positions).
    The n-grams of a length go into the table when a paraphrase of that many words is first
    looked up (most sentences are asked for one or two lengths); the filter holds them all."""
    cdef unsigned char* text
    cdef Py_ssize_t n
    cdef Py_ssize_t* start
    cdef Py_ssize_t* end
    cdef uint32_t* word_crc  # each word's CRC-32 (its n-grams' hashes and the walk's first step)
    # n-gram entries: byte offset, byte length, word count, first and last node of its positions
    cdef Py_ssize_t entries
    cdef Py_ssize_t* e_offset
    cdef Py_ssize_t* e_length
    cdef Py_ssize_t* e_words
    cdef Py_ssize_t* e_first
    cdef Py_ssize_t* e_last
    cdef uint32_t* e_hash
    cdef Py_ssize_t* node_position
    cdef Py_ssize_t* node_next
    cdef Py_ssize_t* slots
    cdef Py_ssize_t mask
    cdef unsigned char* filter
    cdef Py_ssize_t longest, nodes
    cdef unsigned char* indexed  # per word count (1..longest): its n-grams are in the table
    cdef char* block  # (where the arrays from slots to indexed live)
    cdef bint ok

    def __cinit__(self, list words, Py_ssize_t longest):
        cdef Py_ssize_t k, size, total = 0, position = 0
        cdef const char* data
        self.n = len(words)
        self.ok = False
        self.start = <Py_ssize_t*> malloc((self.n + 1) * sizeof(Py_ssize_t))
        self.end = <Py_ssize_t*> malloc((self.n + 1) * sizeof(Py_ssize_t))
        if self.start == NULL or self.end == NULL:
            raise MemoryError()
        for k in range(self.n):
            word = words[k]
            if type(word) is not str:
                return
            try:
                data = PyUnicode_AsUTF8AndSize(word, &size)
            except UnicodeEncodeError:
                return
            if size == 0 or memchr_space(<const unsigned char*> data, size):
                return
            total += size + 1
        self.text = <unsigned char*> malloc(total + 1)
        if self.text == NULL:
            raise MemoryError()
        for k in range(self.n):
            data = PyUnicode_AsUTF8AndSize(words[k], &size)
            self.start[k] = position
            memcpy(self.text + position, data, size)
            position += size
            self.end[k] = position
            self.text[position] = 32
            position += 1
        self.ok = True
        self._index(longest)

    cdef void _index(self, Py_ssize_t longest) except *:
        cdef Py_ssize_t most = 0, k, s, w, slot
        cdef Py_ssize_t n_slots = 16
        for k in range(self.n):
            most += min(longest, self.n - k)
        while n_slots < 2 * most:
            n_slots *= 2
        self.mask = n_slots - 1
        # every array in one block (one malloc a sentence, not twelve): the Py_ssize_t arrays
        # first, then the 4-byte ones, then the bytes
        self.block = <char*> malloc((n_slots + 7 * (most + 1)) * sizeof(Py_ssize_t)
                                    + (self.n + 1 + most + 1) * sizeof(uint32_t) + FILTER_BITS // 8 + longest + 1)
        if self.block == NULL:
            raise MemoryError()
        self.slots = <Py_ssize_t*> self.block
        self.e_offset = self.slots + n_slots
        self.e_length = self.e_offset + (most + 1)
        self.e_words = self.e_length + (most + 1)
        self.e_first = self.e_words + (most + 1)
        self.e_last = self.e_first + (most + 1)
        self.node_position = self.e_last + (most + 1)
        self.node_next = self.node_position + (most + 1)
        self.word_crc = <uint32_t*> (self.node_next + (most + 1))
        self.e_hash = self.word_crc + (self.n + 1)
        self.filter = <unsigned char*> (self.e_hash + (most + 1))
        self.indexed = self.filter + FILTER_BITS // 8
        memset(self.indexed, 0, longest + 1)
        self.longest = longest
        for k in range(self.n):
            self.word_crc[k] = ~crc_more(0xFFFFFFFFu, self.text + self.start[k], self.end[k] - self.start[k])
        memset(self.filter, 0, FILTER_BITS // 8)
        for slot in range(n_slots):
            self.slots[slot] = -1
        self.entries = self.nodes = 0
        for s in range(self.n):
            for w in range(s, min(s + longest, self.n)):
                k = filter_key(self.text + self.start[s], self.end[w] - self.start[s])
                self.filter[k >> 3] |= 1 << (k & 7)

    cdef void _add_length(self, Py_ssize_t words) noexcept nogil:
        """Put the n-grams of ``words`` words into the table (each distinct one an entry, with its
        start positions ascending)."""
        cdef Py_ssize_t e, s, w, length, slot, node = self.nodes
        cdef uint64_t state
        cdef uint32_t h
        for s in range(self.n - words + 1):
            state = NGRAM_START
            for w in range(s, s + words):
                state = ngram_more(state, self.word_crc[w])
            w = s + words - 1
            h = ngram_hash(state)
            length = self.end[w] - self.start[s]
            slot = h & self.mask
            while True:
                e = self.slots[slot]
                if e < 0:
                    e = self.entries
                    self.entries += 1
                    self.slots[slot] = e
                    self.e_offset[e] = self.start[s]
                    self.e_length[e] = length
                    self.e_words[e] = words
                    self.e_hash[e] = h
                    self.e_first[e] = -1
                    break
                if (self.e_hash[e] == h and self.e_length[e] == length
                        and memcmp(self.text + self.e_offset[e], self.text + self.start[s], length) == 0):
                    break
                slot = (slot + 1) & self.mask
            # its positions, ascending (starts come in order)
            self.node_position[node] = s
            self.node_next[node] = -1
            if self.e_first[e] < 0:
                self.e_first[e] = node
            else:
                self.node_next[self.e_last[e]] = node
            self.e_last[e] = node
            node += 1
        self.nodes = node
        self.indexed[words] = 1

    cdef Py_ssize_t find(self, const TargetEntry* target, const unsigned char* data) noexcept nogil:
        """The n-gram entry whose bytes are ``data[:target.length]`` (``target``: their words_hash
        and length), or -1."""
        cdef Py_ssize_t k, slot, e
        cdef Py_ssize_t length = target.length
        cdef uint32_t h = target.h
        k = filter_key(data, length)
        if not (self.filter[k >> 3] >> (k & 7)) & 1:
            return -1
        if target.words > self.longest:
            return -1  # (no n-gram that long is indexed)
        if not self.indexed[target.words]:
            self._add_length(target.words)
        slot = h & self.mask
        while True:
            e = self.slots[slot]
            if e < 0:
                return -1
            if (self.e_hash[e] == h and self.e_length[e] == length
                    and memcmp(self.text + self.e_offset[e], data, length) == 0):
                return e
            slot = (slot + 1) & self.mask

    def __dealloc__(self):
        free(self.text); free(self.start); free(self.end); free(self.block)


cdef inline uint32_t count_spaces(const unsigned char* data, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t k
    cdef uint32_t spaces = 0
    for k in range(n):
        if data[k] == 32:
            spaces += 1
    return spaces


cdef inline bint memchr_space(const unsigned char* data, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(n):
        if data[k] == 32:
            return True
    return False


cdef class _Table:
    """A ParaphraseTable's arrays as typed views (made once per table)."""
    cdef const unsigned char[::1] pool
    cdef const unsigned int[::1] offsets
    cdef const unsigned long long[::1] slots  # 0: empty; else CRC-32 << 32 | phrase index + 1
    cdef const unsigned int[::1] phrase_string
    cdef const unsigned int[::1] phrase_start
    cdef const unsigned int[::1] targets
    cdef const unsigned char[::1] prefix_bits
    cdef const unsigned short[::1] target_keys  # filter_key of each paraphrase, beside ``targets``
    cdef Py_ssize_t mask, prefix_mask, max_words
    cdef object table
    cdef PhraseEntry* phrases
    cdef TargetEntry* targets_seen
    # a sentence's words (a tuple) -> its _Runs: the same sentences come back rerun after rerun
    cdef dict sentences

    def __cinit__(self, table):
        # (calloc: the pages are the system's zero pages until an entry is written, so a process
        # holds only the part its segments use)
        self.phrases = <PhraseEntry*> calloc(PHRASE_CACHE, sizeof(PhraseEntry))
        self.targets_seen = <TargetEntry*> calloc(TARGET_CACHE, sizeof(TargetEntry))
        if self.phrases == NULL or self.targets_seen == NULL:
            raise MemoryError()
        arrays = table.arrays()
        self.table = table
        self.sentences = {}
        self.pool = arrays["pool"]
        self.offsets = arrays["offsets"]
        self.slots = arrays["slots"]
        self.phrase_string = arrays["phrase_string"]
        self.phrase_start = arrays["phrase_start"]
        self.targets = arrays["targets"]
        self.prefix_bits = arrays["prefix_bits"]
        self.target_keys = arrays["target_keys"]
        self.mask = self.slots.shape[0] - 1
        self.prefix_mask = self.prefix_bits.shape[0] * 8 - 1
        self.max_words = table.max_words

    def __dealloc__(self):
        free(self.phrases)
        free(self.targets_seen)

    cdef Py_ssize_t cached_phrase(self, const unsigned char* data, Py_ssize_t length, uint32_t h,
                                  bint* prefix) noexcept nogil:
        """``phrase`` and whether the phrase begins a longer one (the prefix bit), through the
        phrase cache."""
        cdef PhraseEntry* entry
        cdef PhraseEntry other
        cdef Py_ssize_t p
        cdef uint32_t bit = h & self.prefix_mask
        if length > CACHED_BYTES:
            prefix[0] = (self.prefix_bits[bit >> 3] >> (bit & 7)) & 1
            return self.phrase(data, length, h)
        # two entries a hash (the most recently used first): phrases whose hashes meet no longer
        # push each other out, segment after segment (1 lookup in 10 did, with one entry)
        entry = &self.phrases[(h ^ (h >> 15) ^ <uint32_t> length) & (PHRASE_CACHE - 2)]
        if entry.used and entry.h == h and entry.length == length and memcmp(entry.bytes, data, length) == 0:
            prefix[0] = entry.prefix
            return entry.p
        other = entry[1]
        if other.used and other.h == h and other.length == length and memcmp(other.bytes, data, length) == 0:
            entry[1] = entry[0]
            entry[0] = other
            prefix[0] = entry.prefix
            return entry.p
        if entry.used:
            entry[1] = entry[0]
        p = self.phrase(data, length, h)
        entry.used, entry.h, entry.length, entry.p = 1, h, <unsigned short> length, <int> p
        entry.prefix = (self.prefix_bits[bit >> 3] >> (bit & 7)) & 1
        memcpy(entry.bytes, data, length)
        prefix[0] = entry.prefix
        return p

    cdef const TargetEntry* target(self, unsigned int s) noexcept nogil:
        """Paraphrase ``s``'s words_hash, length, offset and word count, through the paraphrase cache."""
        cdef TargetEntry* entry = &self.targets_seen[s & (TARGET_CACHE - 1)]
        if entry.id_plus_one != s + 1:
            entry.id_plus_one = s + 1
            entry.offset = self.offsets[s]
            entry.length = self.offsets[s + 1] - entry.offset
            entry.h = words_hash(&self.pool[entry.offset], entry.length)
            entry.words = 1 + count_spaces(&self.pool[entry.offset], entry.length)
        return entry

    cdef Py_ssize_t phrase(self, const unsigned char* data, Py_ssize_t length, uint32_t h) noexcept nogil:
        """ParaphraseTable._phrase_index: the phrase whose bytes are ``data[:length]`` (CRC-32
        ``h``), or -1."""
        cdef Py_ssize_t slot = h & self.mask
        cdef Py_ssize_t p
        cdef unsigned long long entry
        cdef unsigned int s
        while True:
            entry = self.slots[slot]
            if entry == 0:
                return -1
            if <uint32_t> (entry >> 32) == h:  # (another phrase's slot is passed over unread)
                p = <Py_ssize_t> (entry & 0xFFFFFFFFu) - 1
                s = self.phrase_string[p]
                if (self.offsets[s + 1] - self.offsets[s] == <unsigned int> length
                        and memcmp(&self.pool[self.offsets[s]], data, length) == 0):
                    return p
            slot = (slot + 1) & self.mask


DEF SENTENCES_KEPT = 20_000  # sentences whose _Runs a _Table keeps (emptied when full; ~0.5 kB each)


cdef class _Runs:
    """A sentence's phrases in the table, per start position: what ParaphraseTable.paths walks
    to (shortest phrase first, stopping where the table's trie stops), before the cap of
    beam._bounded_paths: each phrase's word count and its run of paraphrases (where it starts in
    the table's targets, how long it is: read here, the walk reads no phrase_start). The walk's
    lookups depend only on the sentence and the table, so they are made once per sentence
    (_runs) and kept."""
    cdef int* first  # per position (and one past the last): where its phrases start below
    cdef int* words
    cdef int* run_start
    cdef int* run_length

    def __dealloc__(self):
        free(self.first); free(self.words); free(self.run_start); free(self.run_length)


cdef _Runs _runs(_Table t, _Sentence side, tuple key):
    """``side``'s _Runs, made with the table's lookups (the phrase cache) the first time."""
    cdef _Runs runs = t.sentences.get(key)
    if runs is not None:
        return runs
    cdef Py_ssize_t pos, end, p, count = 0, most = 0
    cdef uint32_t state, h
    cdef bint prefix
    cdef int* shrunk
    for pos in range(side.n):
        most += min(t.max_words, side.n - pos)
    runs = _Runs()
    runs.first = <int*> malloc((side.n + 1) * sizeof(int))
    runs.words = <int*> malloc((most + 1) * sizeof(int))
    runs.run_start = <int*> malloc((most + 1) * sizeof(int))
    runs.run_length = <int*> malloc((most + 1) * sizeof(int))
    if runs.first == NULL or runs.words == NULL or runs.run_start == NULL or runs.run_length == NULL:
        raise MemoryError()
    for pos in range(side.n):
        runs.first[pos] = <int> count
        for end in range(pos + 1, min(pos + t.max_words, side.n) + 1):
            if end > pos + 1:
                state = crc_more(state, side.text + side.end[end - 2], 1)  # the space
                state = crc_more(state, side.text + side.start[end - 1], side.end[end - 1] - side.start[end - 1])
            else:
                state = ~side.word_crc[pos]
            h = ~state
            p = t.cached_phrase(side.text + side.start[pos], side.end[end - 1] - side.start[pos], h, &prefix)
            if p >= 0:
                runs.words[count] = <int> (end - pos)
                runs.run_start[count] = <int> t.phrase_start[p]
                runs.run_length[count] = <int> (t.phrase_start[p + 1] - t.phrase_start[p])
                count += 1
            if end < side.n and not prefix:
                break  # (the jar's trie has no path on)
    runs.first[side.n] = <int> count
    # (kept for long: only what was found; a shrinking realloc cannot fail in practice, and if
    # it did the larger blocks stay)
    shrunk = <int*> realloc(runs.words, (count + 1) * sizeof(int))
    if shrunk != NULL:
        runs.words = shrunk
    shrunk = <int*> realloc(runs.run_start, (count + 1) * sizeof(int))
    if shrunk != NULL:
        runs.run_start = shrunk
    shrunk = <int*> realloc(runs.run_length, (count + 1) * sizeof(int))
    if shrunk != NULL:
        runs.run_length = shrunk
    if len(t.sentences) >= SENTENCES_KEPT:
        t.sentences.clear()
    t.sentences[key] = runs
    return runs


_ONE = 1  # a Python int


cdef class _Spending:
    """A segment's budget (search.Budget) as _walk spends it: the units summed here while the
    sum stays below the budget's headroom (where spend() would only add them), then passed to
    spend() in one call; so every answer, and where the budget runs out, is as with one call of
    spend() per step. (Budget.spend, a Python call, came to ~3% of a meteor15 pass.)"""
    cdef object budget
    cdef Py_ssize_t pending, room

    def __cinit__(self, budget):
        self.budget = budget
        self.pending = 0
        self.room = budget.headroom()

    cdef bint spend(self, Py_ssize_t units) except -1:
        """budget.spend(units)."""
        self.pending += units
        if self.pending < self.room:
            return False
        return self.flush()

    cdef bint flush(self) except -1:
        """Give the budget what was summed; its answer."""
        cdef bint done = self.budget.spend(self.pending)
        self.pending = 0
        self.room = self.budget.headroom()
        return done


_tables = []  # the last table's views: (table, _Table)


cdef _Table _views(table):
    if _tables and _tables[0][0] is table:
        return _tables[0][1]
    views = _Table(table)
    _tables[:] = [(table, views)]
    return views


def filter_key_of(bytes data):
    """filter_key of ``data`` (for the tests: ParaphraseTable's target_keys must be these)."""
    return filter_key(<const unsigned char*> data, len(data)) if data else None


def forget_sentences():
    """Let go of the kept sentences (their words are a user's text): the app's server calls this
    once a visitor's session has gone (components/session_cleanup.py)."""
    for _, views in _tables:
        (<_Table>views).sentences.clear()


def kept_sentences():
    """How many sentences the current table's views keep (for the tests)."""
    return sum(len((<_Table>views).sentences) for _, views in _tables)


def matches(list hyp, list ref, table, budget, Py_ssize_t most, int stage):
    """beam._paraphrase_matches(hyp, ref, table, budget): per reference position the paraphrase
    candidates found (a list each), the (reference position, length) of those longer than a word,
    and whether every entry was looked up; or None where beam's own code must run (see above)."""
    cdef _Table t = _views(table)
    cdef _Sentence h_side = _Sentence(hyp, t.max_words)
    if not h_side.ok:
        return None
    cdef _Sentence r_side = _Sentence(ref, t.max_words)
    if not r_side.ok:
        return None
    extra = [[] for _ in range(len(ref))]
    spans = []
    cdef bint whole = True, exhausted = budget.exhausted
    cdef _Spending spending = _Spending(budget)
    _walk(t, r_side, _runs(t, r_side, tuple(ref)), h_side, True, extra, spans, budget, spending, most, stage, &whole,
          &exhausted)
    _walk(t, h_side, _runs(t, h_side, tuple(hyp)), r_side, False, extra, spans, budget, spending, most, stage, &whole,
          &exhausted)
    if spending.pending:
        spending.flush()
    return extra, spans, whole


cdef void _walk(_Table t, _Sentence side, _Runs side_runs, _Sentence other, bint from_ref, list extra, list spans,
                budget, _Spending spending, Py_ssize_t most, int stage, bint* whole, bint* exhausted) except *:
    """One direction of beam._paraphrase_matches: the phrases starting at each position of
    ``side`` (ParaphraseTable.paths, its lookups in ``side_runs``, bounded as
    beam._bounded_paths), their paraphrases looked up among ``other``'s n-grams."""
    cdef Py_ssize_t pos, x, run, total, caps, k, r, e, node, n_side, n_other, count
    cdef const TargetEntry* target
    cdef unsigned int s
    cdef Py_ssize_t* run_words = <Py_ssize_t*> malloc((t.max_words + 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t* run_first = <Py_ssize_t*> malloc((t.max_words + 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t* run_kept = <Py_ssize_t*> malloc((t.max_words + 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t runs
    cdef const unsigned short* keys
    cdef unsigned short key
    if run_words == NULL or run_first == NULL or run_kept == NULL:
        free(run_words); free(run_first); free(run_kept)
        raise MemoryError()
    try:
        for pos in range(side.n):
            if exhausted[0]:
                whole[0] = False
                continue
            # ParaphraseTable.paths(words, pos, most + 1), then the cap of beam._bounded_paths
            runs = total = caps = 0
            for x in range(side_runs.first[pos], side_runs.first[pos + 1]):
                run = side_runs.run_length[x]
                if run > most:
                    caps += 1
                    run = most
                if run:
                    run_words[runs] = side_runs.words[x]
                    run_first[runs] = side_runs.run_start[x]
                    run_kept[runs] = run
                    runs += 1
                    total += run
            for k in range(caps):
                budget.cap()
            if caps:
                whole[0] = False
            if spending.spend(2 * total + 1):  # a lookup in the other sentence each, and the list
                exhausted[0] = True
                whole[0] = False
                continue
            for r in range(runs):
                n_side = run_words[r]
                keys = &t.target_keys[run_first[r]]
                for k in range(run_kept[r]):
                    key = keys[k]
                    if not (other.filter[key >> 3] >> (key & 7)) & 1:
                        continue  # (other.find would say -1 as soon as it read the key)
                    s = t.targets[run_first[r] + k]
                    target = t.target(s)  # (a table's paraphrases are never empty: parse skips those)
                    e = other.find(target, &t.pool[target.offset])
                    if e < 0:
                        continue
                    n_other = other.e_words[e]
                    count = 0
                    node = other.e_first[e]
                    while node >= 0:
                        count += 1
                        node = other.node_next[node]
                    if spending.spend(count):
                        exhausted[0] = True
                    if from_ref:
                        _found_from_ref(extra[pos], spans, pos, n_side, n_other, other, e, stage)
                    else:
                        _found_from_hyp(extra, spans, pos, n_side, n_other, other, e, stage)
    finally:
        free(run_words); free(run_first); free(run_kept)


cdef void _found_from_ref(list here, list spans, Py_ssize_t j, Py_ssize_t n_r, Py_ssize_t n_h, _Sentence hyp,
                          Py_ssize_t e, int stage) except *:
    cdef Py_ssize_t node = hyp.e_first[e], i
    cdef object ones = (_ONE << n_h) - _ONE  # (Python ints: a sentence's bits go past 64)
    gain = n_h // 2 + n_r // 2
    while node >= 0:
        i = hyp.node_position[node]
        here.append((i, n_h, n_r, gain, stage, ones << <object> i))
        if n_r > 1:
            spans.append((j, n_r))
        node = hyp.node_next[node]


cdef void _found_from_hyp(list extra, list spans, Py_ssize_t i, Py_ssize_t n_h, Py_ssize_t n_r, _Sentence ref,
                          Py_ssize_t e, int stage) except *:
    cdef Py_ssize_t node = ref.e_first[e], j
    cdef object bits = ((_ONE << n_h) - _ONE) << <object> i  # (Python ints: a sentence's bits go past 64)
    gain = n_h // 2 + n_r // 2
    while node >= 0:
        j = ref.node_position[node]
        (<list> extra[j]).append((i, n_h, n_r, gain, stage, bits))
        if n_r > 1:
            spans.append((j, n_r))
        node = ref.node_next[node]
