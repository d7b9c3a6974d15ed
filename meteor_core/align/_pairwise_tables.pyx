# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The joint tables of meteor2005's pairwise search on C data: the compiled twin of
pairwise._tables and pairwise._joint_matrix, which stay the reference (tests hold the tables of
both identical, number for number).

What two options cost together is the sum, over a candidate pair e of one and f of the other, of
W·[e crosses f] − [e, f diagonal neighbours] (pairwise._cost_between). The pure functions build
that matrix for all candidates, then gather it twice with numpy (candidates x options, then
options x options); here each entry is summed in one C loop, with no intermediate array but the
candidates x options sums. Every number is an integer held exactly in a double, so the order of
the additions cannot change a table. The work units are spent by the callers, as before.
pairwise._tables and pairwise._joint_matrix call ``tables`` and ``joint_matrix`` when this module is
built and up to date.
"""
import numpy as np


cdef inline double _cost(double ai, double aj, double bi, double bj, double weight) noexcept nogil:
    """pairwise._cost_between for one pair of candidates."""
    cdef double di = ai - bi, dj = aj - bj
    if di * dj < 0:
        return weight
    if (di == 1 and dj == 1) or (di == -1 and dj == -1):
        return -1
    return 0


cdef void _by_option(const double[:, :] mine, const double[:, :] theirs, const Py_ssize_t[:, :] index,
                     double weight, double[:, :] out, Py_ssize_t column) noexcept nogil:
    """out[e, column + d]: what candidate e of ``mine`` costs against option d (its pairs: rows of
    ``theirs`` listed by index[d])."""
    cdef Py_ssize_t e, d, q, f
    cdef double ai, aj, total
    for e in range(mine.shape[0]):
        ai, aj = mine[e, 0], mine[e, 1]
        for d in range(index.shape[0]):
            total = 0
            for q in range(index.shape[1]):
                f = index[d, q]
                total = total + _cost(ai, aj, theirs[f, 0], theirs[f, 1], weight)
            out[e, column + d] = total


cdef void _gather(const double[:, ::1] per_candidate, const Py_ssize_t[:, :] index, double[:, ::1] out) noexcept nogil:
    """out[c, :] = Σ_q per_candidate[index[c, q], :] (rows read and written through pointers)."""
    cdef Py_ssize_t c, q, x, width = per_candidate.shape[1]
    cdef const double* row
    cdef double* into
    for c in range(index.shape[0]):
        into = &out[c, 0]
        for x in range(width):
            into[x] = 0
        for q in range(index.shape[1]):
            row = &per_candidate[index[c, q], 0]
            for x in range(width):
                into[x] += row[x]


def _candidates(options) -> np.ndarray:
    return np.asarray(options[0], dtype=np.float64).reshape(-1, 2)


def _index(options) -> np.ndarray:
    return np.ascontiguousarray(options[2], dtype=np.intp)


def tables(a, list others, weight) -> list:
    """pairwise._tables(a, others, weight): for every b of ``others``, T[c, d], what option c of
    part a and option d of part b cost together."""
    cdef double w = weight
    mine = _candidates(a)
    sizes = [len(b[1]) for b in others]
    against = np.empty((len(mine), sum(sizes)))
    cdef double[:, :] against_view = against
    cdef Py_ssize_t column = 0
    for b, size in zip(others, sizes):
        _by_option(mine, _candidates(b), _index(b), w, against_view, column)
        column += size
    joined = np.empty((len(a[1]), column))
    _gather(against, _index(a), joined)
    out, start = [], 0
    for size in sizes:
        out.append(joined[:, start:start + size])
        start += size
    return out


def joint_matrix(list options, weight) -> np.ndarray:
    """pairwise._joint_matrix(options, weight): M[c, d], what options c and d of two different
    parts cost together (options numbered part after part), zero within a part."""
    cdef double w = weight
    every = np.concatenate([_candidates(o) for o in options])
    sizes = [len(o[1]) for o in options]
    count = sum(sizes)
    by_option = np.empty((len(every), count))  # candidates x options
    cdef double[:, :] by_option_view = by_option
    cdef Py_ssize_t column = 0, first = 0
    for o, size in zip(options, sizes):
        _by_option(every, _candidates(o), _index(o), w, by_option_view, column)
        column += size
    joint = np.empty((count, count))
    at = 0
    for o, size in zip(options, sizes):  # an option's pairs are rows of ``every`` from its part's first
        _gather(by_option, _index(o) + first, joint[at:at + size])
        first += len(o[0])
        at += size
    start = 0
    for size in sizes:
        joint[start:start + size, start:start + size] = 0
        start += size
    return joint
