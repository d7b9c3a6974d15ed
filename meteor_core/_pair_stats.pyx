# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""scorer.py's statistics on C arrays: the compiled twin of scorer._word_counts (Meteor 1.x's
matched words per stage, content and function, and each side's function words) and of
scorer._chunks_and_crossings (scorer.py stays the reference; tests hold both identical over the
whole TED set and on random alignments), scorer._packed's flat tuple of the matches' fields, and
stats._compute_1x (Meteor 1.x's formula, on C doubles in the same operations and order).

The same counts, read from the same match tuples (i, j, stage, via, hyp_length, ref_length); only
the data differ: each word's function-word test is made once per sentence into a flag array, and
the counts and chunk starts are C integers. What it does not handle it hands back as None (a match
outside its sentences, a stage list longer than it holds, more chunks than its quadratic count
suits), and scorer.py's own code runs.
"""
from itertools import chain

from libc.math cimport pow

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM


cdef enum:
    MOST_STAGES = 8
    MOST_CHUNKS = 256  # crossings are counted over pairs of chunks: beyond this scorer.py's Fenwick tree


cdef unsigned char* _flags(words, fw, Py_ssize_t* total) except NULL:
    """1 for each word of ``words`` in ``fw``; the number of them in ``total``."""
    cdef Py_ssize_t n = len(words), k = 0
    cdef unsigned char* flags = <unsigned char*>PyMem_Malloc(n + 1)
    if flags is NULL:
        raise MemoryError()
    total[0] = 0
    for word in words:
        flags[k] = word in fw
        total[0] += flags[k]
        k += 1
    return flags


def word_counts(matches, hyp, ref, fw, dict stage_index, Py_ssize_t n_stages):
    """scorer._word_counts: (hyp content, hyp function, ref content, ref function matches per
    stage, hyp function words, ref function words); None for what scorer.py must count itself."""
    cdef long long hc[MOST_STAGES]
    cdef long long hf[MOST_STAGES]
    cdef long long rc[MOST_STAGES]
    cdef long long rf[MOST_STAGES]
    cdef Py_ssize_t n_hyp = len(hyp), n_ref = len(ref), i, j, nh, nr, s, k
    cdef Py_ssize_t hyp_function, ref_function
    cdef unsigned char* hyp_flags = NULL
    cdef unsigned char* ref_flags = NULL
    cdef object match  # (a tuple, or a Match: a subclass)
    if n_stages > MOST_STAGES:
        return None
    for s in range(n_stages):
        hc[s] = hf[s] = rc[s] = rf[s] = 0
    try:
        hyp_flags = _flags(hyp, fw, &hyp_function)
        ref_flags = _flags(ref, fw, &ref_function)
        for match in matches:
            i, j, nh, nr = match[0], match[1], match[4], match[5]
            if i < 0 or j < 0 or nh < 1 or nr < 1 or i + nh > n_hyp or j + nr > n_ref:
                return None
            s = stage_index[match[2]]
            for k in range(i, i + nh):
                if hyp_flags[k]:
                    hf[s] += 1
                else:
                    hc[s] += 1
            for k in range(j, j + nr):
                if ref_flags[k]:
                    rf[s] += 1
                else:
                    rc[s] += 1
    finally:
        PyMem_Free(hyp_flags)
        PyMem_Free(ref_flags)
    return (tuple([hc[s] for s in range(n_stages)]), tuple([hf[s] for s in range(n_stages)]),
            tuple([rc[s] for s in range(n_stages)]), tuple([rf[s] for s in range(n_stages)]),
            hyp_function, ref_function)


def chunks_and_crossings(matches):
    """scorer._chunks_and_crossings: (chunks, crossings) for matches in candidate order; None
    past MOST_CHUNKS chunks."""
    cdef Py_ssize_t starts[MOST_CHUNKS]
    cdef long long sizes[MOST_CHUNKS]
    cdef Py_ssize_t n = 0, i, j, end_i = -1, end_j = -1, a, b
    cdef long long crossings = 0
    cdef object match  # (a tuple, or a Match: a subclass)
    for match in matches:
        i, j = match[0], match[1]
        if i != end_i or j != end_j:
            if n == MOST_CHUNKS:
                return None
            starts[n] = j
            sizes[n] = 1
            n += 1
        else:
            sizes[n - 1] += 1
        end_i, end_j = i + <Py_ssize_t>match[4], j + <Py_ssize_t>match[5]
    for b in range(1, n):  # search.inversions(starts, sizes): w_a * w_b over a < b with starts[a] > starts[b]
        for a in range(b):
            if starts[a] > starts[b]:
                crossings += sizes[a] * sizes[b]
    return n, crossings


def packed(matches):
    """scorer._packed: every match's fields, one match after another, in one tuple (chain and
    tuple() from Python cost more than the rest of a short segment's statistics)."""
    cdef Py_ssize_t n = 0, k = 0
    cdef tuple match
    cdef list as_list = matches if type(matches) is list else list(matches)
    for m in as_list:
        if type(m) is not tuple:  # (a Match, or another sequence: scorer.py's own way)
            return tuple(chain.from_iterable(as_list))
        n += len(<tuple>m)
    out = PyTuple_New(n)
    for m in as_list:
        match = <tuple>m
        for field in match:
            Py_INCREF(field)
            PyTuple_SET_ITEM(out, k, field)
            k += 1
    return out


def scores_1x(stats, double delta, weights, double alpha, double beta, double gamma, bint char_based):
    """stats._compute_1x(stats, config) for a segment with matches (the six Scores fields as a
    tuple), operation for operation on C doubles, so every bit agrees; None for what stats.py
    must compute itself (more module weights than stages, a fragmentation of 0 under a negative
    beta or a zero harmonic mean, where Python raises)."""
    hc, hf, rc, rf = stats[6], stats[7], stats[8], stats[9]
    cdef Py_ssize_t n = len(weights), s
    cdef double hyp_m = 0.0, ref_m = 0.0, hyp_l, ref_l, precision, recall, fmean
    cdef double fragmentation, fragmentation_used, penalty, score, harmonic
    cdef long long hyp_len = stats[1], ref_len = stats[2], chunks = stats[3]
    cdef long long hyp_function = stats[4], ref_function = stats[5]
    cdef long long hyp_total = 0, ref_total = 0, hyp_words, ref_words
    if n > len(hc) or n > len(hf) or n > len(rc) or n > len(rf):
        return None
    hyp_l = delta * (hyp_len - hyp_function) + (1.0 - delta) * hyp_function
    ref_l = delta * (ref_len - ref_function) + (1.0 - delta) * ref_function
    for s in range(n):  # stats.weighted_matches' four loops, in its order
        hyp_m += <double>hc[s] * <double>weights[s] * delta
    for s in range(n):
        ref_m += <double>rc[s] * <double>weights[s] * delta
    for s in range(n):
        hyp_m += <double>hf[s] * <double>weights[s] * (1.0 - delta)
    for s in range(n):
        ref_m += <double>rf[s] * <double>weights[s] * (1.0 - delta)
    precision = hyp_m / hyp_l if hyp_l else 0.0
    recall = ref_m / ref_l if ref_l else 0.0
    fmean = 0.0
    if precision and recall:
        harmonic = (1.0 - alpha) / precision + alpha / recall
        if harmonic == 0.0:  # (Python raises ZeroDivisionError)
            return None
        fmean = 1.0 / harmonic
    for s in range(len(hc)):
        hyp_total += <long long>hc[s] + <long long>hf[s]
    for s in range(len(rc)):
        ref_total += <long long>rc[s] + <long long>rf[s]
    if char_based:
        hyp_words, ref_words = stats[10], stats[11]
    else:
        hyp_words, ref_words = hyp_total, ref_total
    fragmentation = <double>chunks / ((hyp_words + ref_words) / 2.0) if hyp_words + ref_words else 0.0
    if hyp_total == hyp_len and ref_total == ref_len and chunks == 1:
        fragmentation_used = 0.0  # Meteor 1.5: identical -> no penalty
    else:
        fragmentation_used = fragmentation
    if fragmentation_used == 0.0 and beta < 0.0:
        return None
    penalty = gamma * pow(fragmentation_used, beta)
    score = fmean * (1.0 - penalty)
    return (precision, recall, fmean, fragmentation, penalty, score if not (0.0 > score) else 0.0)
