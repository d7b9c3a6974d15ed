# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""meteor2005's joint search of a large group on C data: the compiled twin of
pairwise.solve_pairwise, which stays the reference (tests hold the two identical: the same choice,
proof, work units and cut points).

It takes the same steps on flat C arrays instead of numpy calls: the incumbent by coordinate
descent on the candidates' costs (_descend_on_pairs), the filter of a large part's options
(_options_that_may_win, least_interactions), the tables or the one joint matrix, the pruning
rounds (_prune, _solve_dense) and the exhaustive end (_every_choice). Every number there is an
integer or a half of one, held exactly in a double, so the order of additions cannot change a
decision. Each step spends the work units its pure counterpart spends (pairwise.numpy_work of the
same sizes, at the same points), so a budget cuts both at the same place. The linear-programming
bound and the branch and bound after it (pairwise._solve: MPLP's messages are not halves) run as
pure Python on the same numbers: no segment of the TED set needs them.
pairwise.solve_pairwise and pairwise.complete_options call ``solve_pairwise`` and
``complete_options`` (numpy arrays in and out) when this module is built and up to date;
search._solve_group calls ``solve_parts`` on options made by ``complete_part`` and ``listed_part``
(no numpy: the compiled search imports numpy only for this linear-programming bound, or for a part
with too many options to list).
"""
from cpython cimport array
import array

cdef array.array _DOUBLES = array.array("d", [])
cdef array.array _INTS = array.array("q", [])

# pairwise's constants, read from the module passed in (one source of truth).
cdef long long CALL_UNITS, NUMBERS_PER_UNIT, FILTER_OPTIONS, DENSE_OPTIONS, DENSE_CANDIDATES
cdef long long EVERY_CHOICE, GATHER_CHUNK
cdef double HALF_MARGIN = 1e-6


cdef inline array.array _doubles(Py_ssize_t n):
    return array.clone(_DOUBLES, n, False)


cdef inline array.array _ints(Py_ssize_t n):
    return array.clone(_INTS, n, False)


cdef inline long long _work(long long numbers, long long calls):
    """pairwise.numpy_work."""
    return CALL_UNITS * calls + numbers // NUMBERS_PER_UNIT


cdef inline double _cost(long long ai, long long aj, long long bi, long long bj, double weight) noexcept nogil:
    """pairwise._cost_between for one pair of candidates."""
    cdef long long di = ai - bi, dj = aj - bj
    if (di > 0 and dj < 0) or (di < 0 and dj > 0):
        return weight
    if (di == 1 and dj == 1) or (di == -1 and dj == -1):
        return -1
    return 0


cdef class _Part:
    """One part's options: its candidate pairs (ci, cj), each option's value, and each option's
    pairs as indices into the candidates (``width`` a row, ``count`` rows)."""
    cdef public Py_ssize_t count, width, size
    cdef long long[::1] ci, cj
    cdef double[::1] values
    cdef long long[::1] index

    cdef _Part subset(self, long long[::1] rows):
        cdef _Part out = _Part.__new__(_Part)
        cdef Py_ssize_t r, q, n = rows.shape[0]
        out.count, out.width, out.size, out.ci, out.cj = n, self.width, self.size, self.ci, self.cj
        out.values = _doubles(n)
        out.index = _ints(n * self.width)
        for r in range(n):
            out.values[r] = self.values[rows[r]]
            for q in range(self.width):
                out.index[r * self.width + q] = self.index[rows[r] * self.width + q]
        return out


cdef _Part _part_of(options):
    """pairwise.Options (candidates, values, index) as a _Part."""
    cdef _Part part = _Part.__new__(_Part)
    candidates, values, index = options
    cdef Py_ssize_t e, c, q
    part.size = len(candidates)
    part.ci, part.cj = _ints(part.size), _ints(part.size)
    for e in range(part.size):
        part.ci[e], part.cj[e] = candidates[e]
    cdef const double[:] given_values = values
    cdef const Py_ssize_t[:, :] given_index = index
    part.count, part.width = given_index.shape[0], given_index.shape[1]
    part.values, part.index = _doubles(part.count), _ints(part.count * part.width)
    for c in range(part.count):
        part.values[c] = given_values[c]
        for q in range(part.width):
            part.index[c * part.width + q] = given_index[c, q]
    return part


cdef Py_ssize_t _argmin(double[::1] values, Py_ssize_t start, Py_ssize_t end) noexcept:
    """The first position of the least value in values[start:end], from ``start``."""
    cdef Py_ssize_t c, best = start
    for c in range(start + 1, end):
        if values[c] < values[best]:
            best = c
    return best - start


cdef long long _product_over(list counts, long long cap):
    """The product of ``counts``, or cap + 1 once it exceeds ``cap``."""
    cdef long long total = 1, count
    for count in counts:
        total *= count
        if total > cap:
            return cap + 1
    return total


cdef object _at(long long[::1] rows, Py_ssize_t c):
    return int(rows[c])


cdef Py_ssize_t _position(long long[::1] rows, long long value):
    """np.searchsorted(rows, value) for a value in the sorted ``rows``."""
    cdef Py_ssize_t lo = 0, hi = rows.shape[0], mid
    while lo < hi:
        mid = (lo + hi) // 2
        if rows[mid] < value:
            lo = mid + 1
        else:
            hi = mid
    return lo


def solve_pairwise(list options, weight, budget, pairwise) -> tuple:
    """pairwise.solve_pairwise(options, weight, budget); ``pairwise`` is that module (its
    constants, and its _solve for the rare group that needs the linear-programming bound)."""
    return _search([_part_of(o) for o in options], weight, budget, pairwise)


# pairwise's constants when search.py calls this module without importing pairwise (numpy):
# the same numbers (a test holds them equal); pairwise's own, once it is imported (tests move them).
_DEFAULTS = {"CALL_UNITS": 20, "NUMBERS_PER_UNIT": 16, "FILTER_OPTIONS": 1000, "DENSE_OPTIONS": 400,
             "DENSE_CANDIDATES": 1000, "EVERY_CHOICE": 4096, "GATHER_CHUNK": 1 << 16}


class _Constants:
    """pairwise's constants as attributes, without importing it."""

    def __init__(self):
        self.__dict__.update(_DEFAULTS)


def solve_parts(list parts, weight, budget) -> tuple:
    """solve_pairwise for options made by complete_part and listed_part (no numpy): the option
    chosen for each part, and whether the optimum was proven."""
    import sys

    pairwise = sys.modules.get("meteor_core.align.pairwise")
    return _search(parts, weight, budget, _Constants() if pairwise is None else pairwise)


cdef tuple _search(list parts, weight, budget, pairwise):
    global CALL_UNITS, NUMBERS_PER_UNIT, FILTER_OPTIONS, DENSE_OPTIONS, DENSE_CANDIDATES, EVERY_CHOICE, GATHER_CHUNK
    CALL_UNITS, NUMBERS_PER_UNIT = pairwise.CALL_UNITS, pairwise.NUMBERS_PER_UNIT
    FILTER_OPTIONS, DENSE_OPTIONS = pairwise.FILTER_OPTIONS, pairwise.DENSE_OPTIONS
    DENSE_CANDIDATES, EVERY_CHOICE, GATHER_CHUNK = pairwise.DENSE_CANDIDATES, pairwise.EVERY_CHOICE, pairwise.GATHER_CHUNK
    cdef double w = weight
    cdef _Part part
    cdef list start = []
    for part in parts:
        start.append(_argmin(part.values, 0, part.count))
    if all(part.count <= FILTER_OPTIONS for part in parts):
        return _solve_options(parts, w, start, budget, pairwise)
    best = _descend_on_pairs(parts, w, start, budget)
    if budget.exhausted:
        return best, False
    kept = _options_that_may_win(parts, w, best, budget)
    if kept is None:
        return _solve_options(parts, w, best, budget, pairwise)
    cdef list fewer = [part.subset(rows) for part, rows in zip(parts, kept)]
    choice, proven = _solve_options(fewer, w, [_position(rows, c) for rows, c in zip(kept, best)], budget, pairwise)
    return [_at(rows, c) for rows, c in zip(kept, choice)], proven


def option_count(_Part part) -> int:
    """How many options a part made by complete_part or listed_part has."""
    return part.count


def chosen_pairs(_Part part, Py_ssize_t choice) -> list:
    """pairwise.chosen_pairs for a part made by complete_part or listed_part."""
    cdef Py_ssize_t q, e
    cdef list out = []
    for q in range(part.width):
        e = part.index[choice * part.width + q]
        out.append((part.ci[e], part.cj[e]))
    return out


def listed_part(list options) -> _Part:
    """pairwise.listed_options(options) as a _Part: options given as (value, pairs) lists."""
    candidates = sorted({p for _, pairs in options for p in pairs})
    where = {p: k for k, p in enumerate(candidates)}
    cdef _Part part = _Part.__new__(_Part)
    cdef Py_ssize_t e, c, q
    part.size, part.count = len(candidates), len(options)
    part.width = len(options[0][1]) if options else 0
    part.ci, part.cj = _ints(part.size), _ints(part.size)
    for e in range(part.size):
        part.ci[e], part.cj[e] = candidates[e]
    part.values, part.index = _doubles(part.count), _ints(part.count * part.width)
    for c in range(part.count):
        value, pairs = options[c]
        part.values[c] = value
        for q in range(part.width):
            part.index[c * part.width + q] = where[pairs[q]]
    return part


cdef double _against_option(long long ai, long long aj, _Part other, Py_ssize_t c, double weight):
    """What candidate (ai, aj) costs against option c of ``other`` (its pairs)."""
    cdef double total = 0
    cdef Py_ssize_t q, f
    for q in range(other.width):
        f = other.index[c * other.width + q]
        total += _cost(ai, aj, other.ci[f], other.cj[f], weight)
    return total


cdef list _descend_on_pairs(list parts, double weight, list start, budget):
    """pairwise._descend_on_pairs: coordinate descent, each option's cost against the others'
    chosen pairs summed from its candidates' costs."""
    cdef Py_ssize_t n = len(parts), k, m, e, f, c, q, count_others
    cdef list choice = list(start)
    cdef _Part part, other
    cdef double[::1] each, scores
    cdef double total
    cdef long long ai, aj
    cdef bint improved = n > 1
    while improved and not budget.exhausted:
        improved = False
        for k in range(n):
            part = parts[k]
            count_others = 0
            for m in range(n):
                if m != k:
                    count_others += (<_Part> parts[m]).width
            if budget.spend(_work(6 * part.size * count_others + 2 * part.count * part.width, 10)):
                break
            each = _doubles(part.size)
            for e in range(part.size):
                ai, aj = part.ci[e], part.cj[e]
                total = 0
                for m in range(n):
                    if m != k:
                        total += _against_option(ai, aj, parts[m], choice[m], weight)
                each[e] = total
            scores = _doubles(part.count)
            for c in range(part.count):
                total = part.values[c]
                for q in range(part.width):
                    total += each[part.index[c * part.width + q]]
                scores[c] = total
            c = _argmin(scores, 0, part.count)
            if scores[c] < scores[<Py_ssize_t> choice[k]]:
                choice[k] = c
                improved = True
    return choice


cdef object _least_interactions(list parts, list large, double weight, budget):
    """pairwise.least_interactions for the parts' candidates, the parts not ``large`` listed: a
    flat (candidates x parts) array, None when the budget ran out."""
    cdef Py_ssize_t n = len(parts), total = 0, k, m, e, f, c, q, first, end, step, rows_size = 0, width = 0
    cdef _Part part, other
    cdef long long[::1] ci, cj, starts = _ints(n)
    for k in range(n):
        part = parts[k]
        starts[k] = total
        total += part.size
        if not large[k]:
            rows_size += part.count
            width = max(width, part.width)
    if width == 0:
        width = 1
    rows_size *= width
    ci, cj = _ints(total), _ints(total)
    for k in range(n):
        part = parts[k]
        for e in range(part.size):
            ci[starts[k] + e], cj[starts[k] + e] = part.ci[e], part.cj[e]
    cdef double[::1] least = _doubles(total * n)
    cdef double sum_, low, value
    cdef long long ai, aj
    step = max(1, GATHER_CHUNK // (total + 1))
    first = 0
    while first < total:
        end = min(first + step, total)
        if budget.spend(_work((end - first) * (total + 1) + (end - first) * rows_size, 6)):
            return None
        for e in range(first, end):
            ai, aj = ci[e], cj[e]
            for m in range(n):
                other = parts[m]
                sum_ = 0
                for f in range(other.size):
                    value = _cost(ai, aj, other.ci[f], other.cj[f], weight)
                    if value < 0:
                        sum_ += value
                least[e * n + m] = sum_
                if large[m]:
                    continue
                for c in range(other.count):
                    sum_ = 0
                    for q in range(other.width):
                        f = other.index[c * other.width + q]
                        sum_ += _cost(ai, aj, other.ci[f], other.cj[f], weight)
                    if c == 0 or sum_ < low:
                        low = sum_
                least[e * n + m] = low
        first = end
    for k in range(n):
        for e in range(starts[k], starts[k] + (<_Part> parts[k]).size):
            least[e * n + k] = 0
    return least


cdef object _options_that_may_win(list parts, double weight, list best, budget):
    """pairwise._options_that_may_win: for each part, its options (sorted row numbers) that may
    still beat the incumbent ``best`` by 1; None when nothing is dropped or the budget ran out."""
    cdef Py_ssize_t n = len(parts), k, l, m, e, f, c, q, x, total = 0, index_size = 0
    cdef list large = [(<_Part> p).count > FILTER_OPTIONS for p in parts]
    least_object = _least_interactions(parts, large, weight, budget)
    if least_object is None:
        return None
    cdef double[::1] least = least_object
    cdef _Part part, other
    cdef long long[::1] starts = _ints(n)
    for k in range(n):
        part = parts[k]
        starts[k] = total
        total += part.size
        index_size += part.count * part.width
    cdef double value = 0, between = 0, rest, low, sum_
    cdef Py_ssize_t ck, cm
    for k in range(n):
        part = parts[k]
        ck = best[k]
        value += part.values[ck]
        for m in range(n):
            if m == k:
                continue
            for q in range(part.width):
                e = part.index[ck * part.width + q]
                between += _against_option(part.ci[e], part.cj[e], parts[m], best[m], weight)
    value += 0.5 * between
    cdef double[::1] all_parts = _doubles(total), halves = _doubles(total)
    for e in range(total):
        sum_ = 0
        for m in range(n):
            sum_ += least[e * n + m]
        all_parts[e] = sum_
    cdef list kept = []
    cdef bint dropped = False
    cdef long long[::1] rows
    cdef Py_ssize_t count
    for k in range(n):
        part = parts[k]
        if not large[k]:
            rows = _ints(part.count)
            for c in range(part.count):
                rows[c] = c
            kept.append(rows)
            continue
        for e in range(total):
            halves[e] = 0.5 * (all_parts[e] - least[e * n + k])
        rest = 0
        for l in range(n):
            if l == k:
                continue
            other = parts[l]
            for c in range(other.count):
                sum_ = other.values[c]
                for q in range(other.width):
                    sum_ += halves[starts[l] + other.index[c * other.width + q]]
                if c == 0 or sum_ < low:
                    low = sum_
            rest += low
        budget.spend(_work(index_size, n))
        rows = _ints(part.count)
        count = 0
        for c in range(part.count):
            sum_ = part.values[c]
            for q in range(part.width):
                sum_ += all_parts[starts[k] + part.index[c * part.width + q]]
            if sum_ + rest < value - 1 + HALF_MARGIN or c == <Py_ssize_t> best[k]:
                rows[count] = c
                count += 1
        if count < part.count:
            dropped = True
        kept.append(rows[:count])
    return kept if dropped else None


cdef class _Table:
    """What every option of part k costs with every option of part m (rows x columns, flat)."""
    cdef public Py_ssize_t k, m, rows, columns
    cdef double[::1] cells

    cdef bint any(self):
        cdef Py_ssize_t x
        for x in range(self.rows * self.columns):
            if self.cells[x] != 0:
                return True
        return False

    cdef _Table subset(self, long long[::1] keep_rows, long long[::1] keep_columns):
        cdef _Table out = _Table.__new__(_Table)
        cdef Py_ssize_t r, c
        out.k, out.m, out.rows, out.columns = self.k, self.m, keep_rows.shape[0], keep_columns.shape[0]
        out.cells = _doubles(out.rows * out.columns)
        for r in range(out.rows):
            for c in range(out.columns):
                out.cells[r * out.columns + c] = self.cells[keep_rows[r] * self.columns + keep_columns[c]]
        return out


cdef _Table _table(_Part a, _Part b, Py_ssize_t k, Py_ssize_t m, double weight):
    """pairwise._table(a, b): T[c, d], what option c of a and option d of b cost together: each
    candidate of a against each option of b, then summed over a's options."""
    cdef Py_ssize_t e, d, q, f, c
    cdef double total
    cdef double[::1] against = _doubles(a.size * b.count)
    for e in range(a.size):
        for d in range(b.count):
            total = 0
            for q in range(b.width):
                f = b.index[d * b.width + q]
                total += _cost(a.ci[e], a.cj[e], b.ci[f], b.cj[f], weight)
            against[e * b.count + d] = total
    cdef _Table out = _Table.__new__(_Table)
    out.k, out.m, out.rows, out.columns = k, m, a.count, b.count
    out.cells = _doubles(a.count * b.count)
    # Row c is the sum of its candidates' rows of ``against``, added up in order: sums[q] holds
    # the first q of them, so an option that starts with the previous one's first candidates (a
    # complete part's options come in lexicographic order) adds only the rest.
    cdef double[::1] sums = _doubles((a.width + 1) * b.count)
    cdef double* row
    cdef double* before
    cdef double* into
    cdef Py_ssize_t same
    for d in range(b.count):
        sums[d] = 0
    for c in range(a.count):
        same = 0
        if c > 0:
            while same < a.width and a.index[c * a.width + same] == a.index[(c - 1) * a.width + same]:
                same += 1
        for q in range(same, a.width):
            row = &against[a.index[c * a.width + q] * b.count]
            before, into = &sums[q * b.count], &sums[(q + 1) * b.count]
            for d in range(b.count):
                into[d] = before[d] + row[d]
        into = &out.cells[c * b.count]
        before = &sums[a.width * b.count]
        for d in range(b.count):
            into[d] = before[d]
    return out


cdef tuple _solve_options(list parts, double weight, list start, budget, pairwise):
    """pairwise._solve_options."""
    cdef Py_ssize_t n = len(parts), k, m, x, options = 0, candidates = 0, width = 0, theirs, their_options, their_size
    cdef _Part part, other
    for part in parts:
        options += part.count
        candidates += part.size
        width = max(width, part.width)
    if options <= DENSE_OPTIONS and candidates <= DENSE_CANDIDATES:
        if budget.spend(_work(candidates * candidates + options * width * (candidates + options), 8)):
            return start, False
        tables = []
        for k in range(n):
            for m in range(k + 1, n):
                tables.append(_table(parts[k], parts[m], k, m, weight))
        return _solve_dense(_values_of(parts), tables, start, budget, pairwise)
    cdef list unary = _values_of(parts)
    cdef list table = []
    cdef _Table t
    for k in range(n - 1):
        part = parts[k]
        theirs = their_options = their_size = 0
        for m in range(k + 1, n):
            other = parts[m]
            theirs += other.size
            their_options += other.count
            their_size += other.count * other.width
        if budget.spend(_work(part.size * theirs + part.size * their_size + part.count * part.width * their_options,
                              4 * (n - k - 1) + 4)):
            return start, False
        for m in range(k + 1, n):
            t = _table(part, parts[m], k, m, weight)
            if t.any():  # parts that cannot interact need no table
                table.append(t)
    cdef list best = _descend(unary, table, start, budget)
    cdef double best_value = _value(unary, table, best)
    cdef list rows = []
    cdef long long[::1] r
    for k in range(n):
        r = _ints(len(unary[k]))
        for x in range(r.shape[0]):
            r[x] = x
        rows.append(r)
    cdef long long cells
    while _product_over([len(u) for u in unary], EVERY_CHOICE) > EVERY_CHOICE:
        cells = 0
        for t in table:
            cells += t.rows * t.columns
        if budget.spend(_work(3 * cells, 4 * len(table) + 2 * n)):
            break
        if sum(len(u) for u in unary) <= DENSE_OPTIONS:  # few enough options left for one matrix
            choice, proven = _solve_dense(unary, table, best, budget, pairwise)
            return [_at(rows[k], choice[k]) for k in range(n)], proven
        keep = _prune(unary, table, best, best_value)
        if keep is None:
            break
        unary = [_taken(unary[k], keep[k]) for k in range(n)]
        table = [t.subset(keep[t.k], keep[t.m]) for t in table]
        best = [_position(keep[k], best[k]) for k in range(n)]
        rows = [_taken_ints(rows[k], keep[k]) for k in range(n)]
    if budget.exhausted:
        return [_at(rows[k], best[k]) for k in range(n)], False
    if _product_over([len(u) for u in unary], EVERY_CHOICE) <= EVERY_CHOICE:
        choice, proven = _every_choice(unary, table, best, best_value), True
    else:
        choice, proven = _solve_in_python(unary, table, best, best_value, budget, pairwise)
    return [_at(rows[k], choice[k]) for k in range(n)], proven


cdef list _values_of(list parts):
    """Each part's option values, copied (the pruning replaces them)."""
    cdef _Part part
    cdef list out = []
    for part in parts:
        out.append(part.values.copy())
    return out


cdef array.array _taken(double[::1] source, long long[::1] keep):
    cdef array.array out = _doubles(keep.shape[0])
    cdef double[::1] into = out
    cdef Py_ssize_t x
    for x in range(keep.shape[0]):
        into[x] = source[keep[x]]
    return out


cdef array.array _taken_ints(long long[::1] values, long long[::1] keep):
    cdef array.array out = _ints(keep.shape[0])
    cdef long long[::1] into = out
    cdef Py_ssize_t x
    for x in range(keep.shape[0]):
        into[x] = values[keep[x]]
    return out


cdef list _descend(list unary, list table, list start, budget):
    """pairwise._descend: each part in turn takes its best option given the others'."""
    cdef Py_ssize_t n = len(unary), k, c, x
    cdef list choice = list(start)
    cdef list tables_of = [[] for _ in range(n)]
    cdef _Table t
    cdef long long sweep_numbers = 0
    for t in table:
        tables_of[t.k].append(t)
        tables_of[t.m].append(t)
        sweep_numbers += t.rows + t.columns
    cdef long long sweep = _work(sweep_numbers, 2 * len(table) + 3 * n)
    cdef double[::1] scores, u
    cdef Py_ssize_t other
    cdef bint improved = True
    while improved and not budget.spend(sweep):
        improved = False
        for k in range(n):
            u = unary[k]
            scores = _doubles(u.shape[0])
            for c in range(u.shape[0]):
                scores[c] = u[c]
            for t in tables_of[k]:
                if t.k == k:
                    other = choice[t.m]
                    for c in range(t.rows):
                        scores[c] += t.cells[c * t.columns + other]
                else:
                    other = choice[t.k]
                    for c in range(t.columns):
                        scores[c] += t.cells[other * t.columns + c]
            c = _argmin(scores, 0, scores.shape[0])
            if scores[c] < scores[<Py_ssize_t> choice[k]]:
                choice[k] = c
                improved = True
    return choice


cdef double _value(list unary, list table, list choice):
    """pairwise._value: a joint choice's total."""
    cdef double total = 0
    cdef Py_ssize_t k
    cdef double[::1] u
    cdef _Table t
    for k in range(len(unary)):
        u = unary[k]
        total += u[<Py_ssize_t> choice[k]]
    for t in table:
        total += t.cells[<Py_ssize_t> choice[t.k] * t.columns + <Py_ssize_t> choice[t.m]]
    return total


cdef object _prune(list unary, list table, list best, double best_value):
    """pairwise._prune: the options that may still beat the incumbent (None when nothing is
    dropped). Option c of part k's bound: U_k[c] + Σ_l min_d(T_kl[c, d] + u_l[d] − ½·H_lk[d])."""
    cdef Py_ssize_t n = len(unary), k, c, d, x
    cdef _Table t
    # low_rows[t][c]: min over t's columns of row c; low_columns[t][d]: min over its rows of column d
    cdef list low_rows = [], low_columns = []
    cdef double[::1] lr, lc, u, bound, moved_k, moved_m, column_least
    cdef double value, shift
    cdef list moved = []
    for k in range(n):
        moved.append(_doubles(len(unary[k])))
        u = unary[k]
        moved_k = moved[k]
        for c in range(u.shape[0]):
            moved_k[c] = 0
    cdef double* cell
    cdef double* low
    cdef double row_low
    for t in table:
        lr, lc = _doubles(t.rows), _doubles(t.columns)
        low = &lc[0]
        for d in range(t.columns):
            low[d] = t.cells[d]
        for c in range(t.rows):
            cell = &t.cells[c * t.columns]
            row_low = cell[0]
            for d in range(t.columns):
                if cell[d] < row_low:
                    row_low = cell[d]
                if cell[d] < low[d]:
                    low[d] = cell[d]
            lr[c] = row_low
        low_rows.append(lr)
        low_columns.append(lc)
        moved_k, moved_m = moved[t.k], moved[t.m]
        for c in range(t.rows):
            moved_k[c] += lr[c]
        for d in range(t.columns):
            moved_m[d] += lc[d]
    cdef double[::1] lows = _doubles(n)
    cdef double sum_lows = 0, least
    for k in range(n):
        u, moved_k = unary[k], moved[k]
        for c in range(u.shape[0]):
            moved_k[c] = u[c] + 0.5 * moved_k[c]
            if c == 0 or moved_k[c] < lows[k]:
                lows[k] = moved_k[c]
        sum_lows += lows[k]
    cdef list keep = []
    cdef bint dropped = False
    cdef long long[::1] rows
    cdef Py_ssize_t count, y
    for k in range(n):
        u = unary[k]
        bound = _doubles(u.shape[0])
        for c in range(u.shape[0]):
            bound[c] = u[c] + (sum_lows - lows[k])
        for y in range(len(table)):
            t = table[y]
            if t.k == k:  # T_kl[c, d] + u_l[d] − ½·(min over k's options of column d)
                moved_m, lc = moved[t.m], low_columns[y]
                column_least = _doubles(t.columns)  # (here: each column's shift)
                for d in range(t.columns):
                    column_least[d] = moved_m[d] - 0.5 * lc[d]
                low = &column_least[0]
                for c in range(t.rows):
                    cell = &t.cells[c * t.columns]
                    least = cell[0] + low[0]
                    for d in range(1, t.columns):
                        value = cell[d] + low[d]
                        if value < least:
                            least = value
                    bound[c] += least - lows[t.m]
            elif t.m == k:  # the same along the other axis, read row by row
                moved_k, lr = moved[t.k], low_rows[y]
                column_least = _doubles(t.columns)
                low = &column_least[0]
                for d in range(t.rows):
                    shift = moved_k[d] - 0.5 * lr[d]
                    cell = &t.cells[d * t.columns]
                    for c in range(t.columns):
                        value = cell[c] + shift
                        if d == 0 or value < low[c]:
                            low[c] = value
                for c in range(t.columns):
                    bound[c] += column_least[c] - lows[t.k]
        rows = _ints(u.shape[0])
        count = 0
        for c in range(u.shape[0]):
            if bound[c] < best_value - 1 + HALF_MARGIN or c == <Py_ssize_t> best[k]:
                rows[count] = c
                count += 1
        dropped = dropped or count < u.shape[0]
        keep.append(rows[:count])
    return keep if dropped else None


cdef tuple _solve_dense(list unary, list table, list start, budget, pairwise):
    """pairwise._solve_dense on the joint matrix of ``table`` (pairwise._blocks_joined; for a
    group solved dense from the start, every table, as pairwise._joint_matrix sums them): the
    same incumbent, the same pruning rounds and the same end."""
    cdef Py_ssize_t n = len(unary), k, m, c, d, x, y, size = 0, p
    cdef long long[::1] starts = _ints(n + 1)
    for k in range(n):
        starts[k] = size
        size += len(unary[k])
    starts[n] = size
    cdef double[::1] values = _doubles(size), joint = _doubles(size * size), u
    cdef long long[::1] part_of = _ints(size), kept = _ints(size), first_of = starts.copy()
    for k in range(n):
        u = unary[k]
        for c in range(u.shape[0]):
            values[starts[k] + c] = u[c]
            part_of[starts[k] + c] = k
            kept[starts[k] + c] = starts[k] + c
    for x in range(size * size):
        joint[x] = 0
    cdef _Table t
    for t in table:
        for c in range(t.rows):
            for d in range(t.columns):
                joint[(starts[t.k] + c) * size + starts[t.m] + d] = t.cells[c * t.columns + d]
                joint[(starts[t.m] + d) * size + starts[t.k] + c] = t.cells[c * t.columns + d]
    cdef list best = [starts[k] + <Py_ssize_t> start[k] for k in range(n)]
    _descend_joint(values, joint, size, starts, n, best, budget)
    cdef double best_value = 0, between = 0
    for x in best:
        best_value += values[x]
        for y in best:
            between += joint[x * size + y]
    best_value += 0.5 * between
    cdef double[::1] low, least, moved, bound
    cdef double value, sum_
    cdef long long[::1] keep
    cdef Py_ssize_t count, q
    while _product_over([starts[k + 1] - starts[k] for k in range(n)], EVERY_CHOICE) > EVERY_CHOICE \
            and not budget.spend(_work(4 * size * size, 12)):
        low, moved, least, bound = _doubles(size * n), _doubles(size), _doubles(size * n), _doubles(size)
        for x in range(size):
            sum_ = 0
            for p in range(n):
                value = joint[x * size + starts[p]]
                for y in range(starts[p] + 1, starts[p + 1]):
                    if joint[x * size + y] < value:
                        value = joint[x * size + y]
                low[x * n + p] = value
                sum_ += value
            moved[x] = values[x] + 0.5 * sum_
        for x in range(size):
            sum_ = 0
            for p in range(n):
                for y in range(starts[p], starts[p + 1]):
                    value = joint[x * size + y] + moved[y] - 0.5 * low[y * n + part_of[x]]
                    if y == starts[p] or value < least[x * n + p]:
                        least[x * n + p] = value
                sum_ += least[x * n + p]
            bound[x] = values[x] + sum_ - least[x * n + part_of[x]]
        keep = _ints(size)
        count = 0
        for x in range(size):
            if bound[x] < best_value - 1 + HALF_MARGIN or x in best:
                keep[count] = x
                count += 1
        if count == size:
            break
        keep = keep[:count]
        values, joint, part_of, kept = _dense_subset(values, joint, part_of, kept, keep, size)
        size = count
        for k in range(n + 1):
            starts[k] = 0
        for x in range(size):
            starts[part_of[x] + 1] += 1
        for k in range(n):
            starts[k + 1] += starts[k]
        best = [_position(keep, b) for b in best]
    cdef list choice = [<Py_ssize_t> best[k] - starts[k] for k in range(n)]
    if budget.exhausted:
        return [int(kept[starts[k] + <Py_ssize_t> choice[k]] - first_of[k]) for k in range(n)], False
    unary = [values[starts[k]:starts[k + 1]].copy() for k in range(n)]
    cdef list tables = []
    for k in range(n):
        for m in range(k + 1, n):
            t = _Table.__new__(_Table)
            t.k, t.m, t.rows, t.columns = k, m, starts[k + 1] - starts[k], starts[m + 1] - starts[m]
            t.cells = _doubles(t.rows * t.columns)
            for c in range(t.rows):
                for d in range(t.columns):
                    t.cells[c * t.columns + d] = joint[(starts[k] + c) * size + starts[m] + d]
            if t.any():
                tables.append(t)
    if _product_over([len(u) for u in unary], EVERY_CHOICE) <= EVERY_CHOICE:
        choice, proven = _every_choice(unary, tables, choice, best_value), True
    else:
        choice, proven = _solve_in_python(unary, tables, choice, best_value, budget, pairwise)
    return [int(kept[starts[k] + <Py_ssize_t> choice[k]] - first_of[k]) for k in range(n)], proven


cdef tuple _dense_subset(double[::1] values, double[::1] joint, long long[::1] part_of, long long[::1] kept,
                         long long[::1] keep, Py_ssize_t size):
    cdef Py_ssize_t count = keep.shape[0], x, y
    cdef double[::1] new_values = _doubles(count), new_joint = _doubles(count * count)
    cdef long long[::1] new_part_of = _ints(count), new_kept = _ints(count)
    for x in range(count):
        new_values[x] = values[keep[x]]
        new_part_of[x] = part_of[keep[x]]
        new_kept[x] = kept[keep[x]]
        for y in range(count):
            new_joint[x * count + y] = joint[keep[x] * size + keep[y]]
    return new_values, new_joint, new_part_of, new_kept


cdef void _descend_joint(double[::1] values, double[::1] joint, Py_ssize_t size, long long[::1] starts,
                         Py_ssize_t n, list best, budget):
    """pairwise._descend_joint: the same steps (``best`` is changed in place)."""
    cdef Py_ssize_t k, c, b, s, e, low_at
    cdef double score, low, current
    cdef bint improved = True
    cdef long long[::1] chosen = _ints(n)
    while improved and not budget.spend(_work(size * n, 3 * n)):
        improved = False
        for k in range(n):
            s, e = starts[k], starts[k + 1]
            for b in range(n):
                chosen[b] = best[b]
            low_at, low, current = -1, 0, 0
            for c in range(s, e):
                score = values[c]
                for b in range(n):
                    score += joint[c * size + chosen[b]]
                if low_at < 0 or score < low:
                    low_at, low = c, score
                if c == chosen[k]:
                    current = score
            if low < current:
                best[k] = low_at
                improved = True


cdef list _every_choice(list unary, list table, list best, double best_value):
    """pairwise._every_choice: the incumbent ``best`` unless a joint choice beats it by 1; the
    first least choice in the order of numpy's argmin (the last part with a choice counts fastest).
    The values and tables are copied into flat arrays first: every joint choice reads them all."""
    cdef Py_ssize_t n = len(unary), k, x, y, size = 0, cells = 0, count = len(table)
    cdef list free = [k for k in range(n) if len(unary[k]) > 1]
    cdef Py_ssize_t f = len(free)
    cdef long long[::1] choice = _ints(n), best_choice = _ints(n), counts = _ints(n), first = _ints(n)
    cdef long long[::1] table_k = _ints(count), table_m = _ints(count), columns = _ints(count), at = _ints(count)
    cdef double[::1] u
    cdef _Table t
    for k in range(n):
        choice[k] = 0
        counts[k] = len(unary[k])
        first[k] = size
        size += counts[k]
    for y in range(count):
        t = table[y]
        table_k[y], table_m[y], columns[y], at[y] = t.k, t.m, t.columns, cells
        cells += t.rows * t.columns
    cdef double[::1] values = _doubles(size), flat = _doubles(cells)
    for k in range(n):
        u = unary[k]
        for x in range(counts[k]):
            values[first[k] + x] = u[x]
    for y in range(count):
        t = table[y]
        for x in range(t.rows * t.columns):
            flat[at[y] + x] = t.cells[x]
    cdef double total, least = 0
    cdef bint found = False
    while True:
        total = 0
        for k in range(n):
            total += values[first[k] + choice[k]]
        for y in range(count):
            total += flat[at[y] + choice[table_k[y]] * columns[y] + choice[table_m[y]]]
        if not found or total < least:
            found, least = True, total
            best_choice[:] = choice
        x = f - 1  # the next choice: the last free part counts fastest
        while x >= 0:
            k = free[x]
            choice[k] += 1
            if choice[k] < counts[k]:
                break
            choice[k] = 0
            x -= 1
        if x < 0:
            break
    if not least < best_value - 1 + HALF_MARGIN:
        return best
    return [best_choice[k] for k in range(n)]


cdef tuple _solve_in_python(list unary, list table, list best, double best_value, budget, pairwise):
    """pairwise._solve (MPLP, then branch and bound) on numpy copies of the same numbers."""
    import numpy as np

    if not hasattr(pairwise, "_solve"):  # (called without it: its constants only)
        from meteor_core.align import pairwise

    cdef _Table t
    arrays = [np.asarray(u, dtype=np.float64).copy() for u in unary]
    tables = {}
    for t in table:
        tables[t.k, t.m] = pairwise._laid_out(np.asarray(t.cells, dtype=np.float64).reshape(t.rows, t.columns))
    choice, proven = pairwise._solve(arrays, tables, list(best), best_value, budget)
    return [int(c) for c in choice], proven


def complete_options(list hyps, list refs, list rows, bint adjacent):
    """pairwise.complete_options(hyps, refs, rows, adjacent) in C loops, as the same numpy arrays."""
    import numpy as np

    cdef _Part part = complete_part(hyps, refs, rows, adjacent)
    values = np.asarray(part.values, dtype=np.float64).copy()
    index = np.asarray(part.index, dtype=np.int64).astype(np.intp).reshape(part.count, part.width)
    return [(i, j) for i in hyps for j in refs], values, index


def complete_part(list hyps, list refs, list rows, bint adjacent) -> _Part:
    """Every monotone pairing of a complete part (combinations of its longer side's tokens, in
    lexicographic order: pairwise.complete_options), its value (the pairs' costs ``rows[a][b]``,
    less one for each link), as a _Part."""
    cdef bint by_hyp = len(hyps) <= len(refs)
    cdef list short = hyps if by_hyp else refs, long = refs if by_hyp else hyps
    cdef Py_ssize_t k = len(short), n = len(long), width = len(refs), count, c, q, x, a
    count = 1
    for x in range(k):  # comb(n, k), exactly (each partial product is a binomial coefficient)
        count = count * (n - x) // (x + 1)
    cdef _Part part = _Part.__new__(_Part)
    part.size, part.count, part.width = len(hyps) * width, count, k
    part.ci, part.cj = _ints(part.size), _ints(part.size)
    for a in range(len(hyps)):
        for q in range(width):
            part.ci[a * width + q], part.cj[a * width + q] = hyps[a], refs[q]
    part.values, part.index = _doubles(count), _ints(count * k)
    cdef double[::1] costs = _doubles(len(hyps) * width)
    cdef long long[::1] short_at = _ints(k), long_at = _ints(n), picks = _ints(k)
    cdef list row
    for x in range(len(hyps)):
        row = rows[x]
        for q in range(width):
            costs[x * width + q] = row[q]
    for x in range(k):
        short_at[x] = short[x]
        picks[x] = x
    for x in range(n):
        long_at[x] = long[x]
    cdef double total
    for c in range(count):
        total = 0
        for q in range(k):
            x = q * width + picks[q] if by_hyp else picks[q] * width + q
            part.index[c * k + q] = x
            total += costs[x]
            if adjacent and q > 0 and long_at[picks[q]] - long_at[picks[q - 1]] == 1 \
                    and short_at[q] - short_at[q - 1] == 1:
                total -= 1
        part.values[c] = total
        x = k - 1  # the next combination: the last pick that can still move on, then its followers
        while x >= 0 and picks[x] == n - k + x:
            x -= 1
        if x < 0:
            break
        picks[x] += 1
        for q in range(x + 1, k):
            picks[q] = picks[q - 1] + 1
    return part
