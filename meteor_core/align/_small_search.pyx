# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""meteor2005's joint choice for a small group of parts on C data: the compiled twin of
search._SmallSearch (and search._between), which stays the reference (tests hold every result of
both identical, cut points included).

The same steps as _SmallSearch, read line by line from it; only the data differ:
* each option is a flat run of (hyp, ref) C ints, its value a C long long;
* what two options cost together is computed into a C row per (part, option, other part), once,
  when the search first needs it (the dict of rows of the pure search);
* the open parts at depth d are those at order positions after d (the pure search's set);
* each depth has its own buffers for the open parts' option values (the pure search's list copies);
* the work budget is spent at the same places with the same amounts: spends are added up here and
  handed to the Budget whenever one would reach its next check (Budget.spend answers False with
  no other effect below it), so cuts fall at the same nodes.
search._solve_group and search._best_links call it through search._small_search when this module
is built and up to date, else _SmallSearch runs.
"""
from libc.stdlib cimport calloc, free, malloc, qsort


cdef struct Ranked:
    long long value
    int index


cdef int _by_value(const void* a, const void* b) noexcept nogil:
    # value, then index: the pure search's stable sort of its options by value
    cdef const Ranked* x = <const Ranked*> a
    cdef const Ranked* y = <const Ranked*> b
    if x.value != y.value:
        return -1 if x.value < y.value else 1
    return -1 if x.index < y.index else (1 if x.index > y.index else 0)


cdef void* _need(void* memory) except NULL:
    """``memory`` (malloc's or calloc's answer), or MemoryError when there was none."""
    if memory == NULL:
        raise MemoryError()
    return memory


cdef class _Spender:
    """Budget.spend, added up in C between the budget's checks."""
    cdef object budget
    cdef long long used, pending, check_at
    cdef bint exhausted

    def __cinit__(self, budget):
        self.budget = budget
        self.pending = 0
        self._sync()

    cdef void _sync(self):
        self.used = self.budget.used
        self.check_at = self.budget._check_at
        self.exhausted = self.budget.exhausted

    cdef bint spend(self, long long units) except -1:
        self.pending += units
        if self.used + self.pending < self.check_at:
            return False
        return self.flush()

    cdef bint flush(self) except -1:
        cdef bint out = self.budget.spend(self.pending)
        self.pending = 0
        self._sync()
        return out


cdef class _Search:
    cdef int n
    cdef long long weight
    cdef _Spender spender
    cdef int* nopt          # options per part
    cdef int* opt_start     # part k's options are opt_start[k] .. opt_start[k + 1] - 1 (global ids)
    cdef long long* values  # by global option id
    cdef int* pair_start    # option g's pairs: pairs[2 * pair_start[g] ...], pair_start[g + 1] - pair_start[g] of them
    cdef int* pairs
    cdef char* near_mat     # near_mat[k * n + m]: parts k and m can cross or link
    cdef int* near          # near[k * n ...]: the parts near k, ascending; near_count[k] of them
    cdef int* near_count
    cdef long long* least   # least[k * n + m] (0 where none)
    cdef bint any_least
    cdef int* order
    cdef int* rank          # rank[k]: k's position in order
    cdef long long*** rows  # rows[(k * n + m)] -> per option of k a row (or NULL), lazily
    cdef int* choice
    cdef int* best
    cdef long long best_value
    # per depth: acc pointers (n), lows (n), and a buffer for the changed rows (all options)
    cdef long long*** acc_at
    cdef long long** lows_at
    cdef long long** buf_at
    cdef Ranked** sorted_at
    cdef int total_options

    def __cinit__(self):
        self.n = 0

    def __dealloc__(self):
        cdef int a, c, k
        if self.rows != NULL:
            for a in range(self.n * self.n):
                if self.rows[a] != NULL:
                    k = a // self.n
                    for c in range(self.nopt[k]):
                        free(self.rows[a][c])
                    free(self.rows[a])
            free(self.rows)
        if self.acc_at != NULL:
            for a in range(self.n + 1):
                free(self.acc_at[a]); free(self.lows_at[a]); free(self.buf_at[a]); free(self.sorted_at[a])
            free(self.acc_at); free(self.lows_at); free(self.buf_at); free(self.sorted_at)
        free(self.nopt); free(self.opt_start); free(self.values); free(self.pair_start); free(self.pairs)
        free(self.near_mat); free(self.near); free(self.near_count); free(self.least); free(self.order)
        free(self.rank); free(self.choice); free(self.best)

    cdef long long* row(self, int k, int c, int m) except NULL:
        """_SmallSearch._row: what option c of part k costs with each option of part m."""
        cdef int n = self.n, d, a, b, g, h, x, y, i, j, di, dj
        cdef long long total, weight = self.weight
        cdef long long** per = self.rows[k * n + m]
        if per == NULL:
            per = self.rows[k * n + m] = <long long**> _need(calloc(self.nopt[k], sizeof(long long*)))
        cdef long long* out = per[c]
        if out != NULL:
            return out
        g = self.opt_start[k] + c
        cdef int mine_len = self.pair_start[g + 1] - self.pair_start[g]
        cdef int first = self.opt_start[m]
        cdef int theirs_len0 = self.pair_start[first + 1] - self.pair_start[first]
        self.spender.spend(2 * <long long> self.nopt[m] * (1 + <long long> mine_len * theirs_len0))
        out = per[c] = <long long*> _need(malloc(self.nopt[m] * sizeof(long long)))
        for d in range(self.nopt[m]):
            h = first + d
            total = 0
            for a in range(self.pair_start[g], self.pair_start[g + 1]):
                x = self.pairs[2 * a]
                y = self.pairs[2 * a + 1]
                for b in range(self.pair_start[h], self.pair_start[h + 1]):
                    di = self.pairs[2 * b] - x
                    dj = self.pairs[2 * b + 1] - y
                    if (di > 0) != (dj > 0):
                        total += weight
                    elif di == dj and (di == 1 or di == -1):
                        total -= 1
            out[d] = total
        return out

    cdef int visit(self, int depth, long long cost, long long pair_floor) except -1:
        cdef int n = self.n, k = self.order[depth], m, c, a, s, d, open_count = n - depth - 1
        cdef long long** acc = self.acc_at[depth]
        cdef long long* lows = self.lows_at[depth]
        cdef long long* mine = acc[k]
        cdef int count = self.nopt[k]
        if self.spender.spend(6 * (count + n - depth)):
            return 0
        cdef long long step = 1, floor = pair_floor, rest_low = 0, total, bound, low, value
        cdef int* near = self.near + k * n
        for a in range(self.near_count[k]):
            m = near[a]
            if self.rank[m] > depth:
                step += self.nopt[m]
                floor -= self.least[k * n + m]
        step *= 6
        for a in range(depth + 1, n):
            rest_low += lows[self.order[a]]
        # options in order of value (a stable sort: ties keep their order)
        cdef Ranked* by_value = self.sorted_at[depth]
        for c in range(count):
            by_value[c].value = mine[c]
            by_value[c].index = c
        qsort(by_value, count, sizeof(Ranked), _by_value)
        cdef long long** child = self.acc_at[depth + 1]
        cdef long long* child_lows = self.lows_at[depth + 1]
        cdef long long* buf
        cdef long long* own
        for s in range(count):
            c = by_value[s].index
            total = cost + mine[c]
            if total + rest_low + pair_floor >= self.best_value:
                break
            self.choice[k] = c
            if open_count == 0:
                self.best_value = total
                for a in range(n):
                    self.best[a] = self.choice[a]
                continue
            if self.spender.spend(step):
                return 0
            for a in range(n):
                child[a] = acc[a]
                child_lows[a] = lows[a]
            bound = total + floor + rest_low
            buf = self.buf_at[depth + 1]
            for a in range(self.near_count[k]):
                m = near[a]
                if self.rank[m] <= depth:
                    continue
                own = self.row(k, c, m)
                low = 0
                for d in range(self.nopt[m]):
                    buf[d] = acc[m][d] + own[d]
                    if d == 0 or buf[d] < low:
                        low = buf[d]
                child[m] = buf
                child_lows[m] = low
                bound += low - lows[m]
                buf += self.nopt[m]
            if bound < self.best_value:
                self.visit(depth + 1, total, floor)
            if self.spender.exhausted:
                return 0
        return 0


def small_search(list options, long long weight, budget, list boxes, list link_parts):
    """search._SmallSearch(parts, options, weight, budget).run() on C data: ``boxes`` holds each
    part's (first hyp, last hyp, first ref, last ref), ``link_parts`` the part pairs
    _link_opportunities(parts) finds. Returns (pairs, proven)."""
    cdef _Search s = _Search()
    cdef int n = len(options), k, m, c, g, a, total_pairs = 0, total_options = 0
    s.weight = weight
    s.spender = _Spender(budget)
    s.nopt = <int*> _need(malloc(n * sizeof(int)))
    s.opt_start = <int*> _need(malloc((n + 1) * sizeof(int)))
    for k in range(n):
        s.opt_start[k] = total_options
        s.nopt[k] = len(options[k])
        total_options += s.nopt[k]
        for value, pairs in options[k]:
            total_pairs += len(pairs)
    s.opt_start[n] = total_options
    s.n = n
    s.total_options = total_options
    s.values = <long long*> _need(malloc(max(total_options, 1) * sizeof(long long)))
    s.pair_start = <int*> _need(malloc((total_options + 1) * sizeof(int)))
    s.pairs = <int*> _need(malloc(max(2 * total_pairs, 1) * sizeof(int)))
    g = a = 0
    for k in range(n):
        for value, pairs in options[k]:
            s.values[g] = value
            s.pair_start[g] = a
            for i, j in pairs:
                s.pairs[2 * a] = i
                s.pairs[2 * a + 1] = j
                a += 1
            g += 1
    s.pair_start[total_options] = a
    s.near_mat = <char*> _need(calloc(n * n, 1))
    s.near = <int*> _need(malloc(n * n * sizeof(int)))
    s.near_count = <int*> _need(calloc(n, sizeof(int)))
    s.least = <long long*> _need(calloc(n * n, sizeof(long long)))
    s.rows = <long long***> _need(calloc(n * n, sizeof(long long**)))
    s.order = <int*> _need(malloc(n * sizeof(int)))
    s.rank = <int*> _need(malloc(n * sizeof(int)))
    s.choice = <int*> _need(calloc(n, sizeof(int)))
    s.best = <int*> _need(malloc(n * sizeof(int)))
    linked = {frozenset(pair) for pair in link_parts}
    cdef long long most, pair_floor = 0
    for k in range(n):
        h0, h1, r0, r1 = boxes[k]
        for m in range(k + 1, n):
            g0, g1, s0, s1 = boxes[m]
            link = frozenset((k, m)) in linked
            if link or not ((h1 < g0 and r1 < s0) or (g1 < h0 and s1 < r0)):
                s.near_mat[k * n + m] = s.near_mat[m * n + k] = 1
                if link:
                    most = 2 * min(len(options[k][0][1]), len(options[m][0][1]))
                    s.least[k * n + m] = s.least[m * n + k] = -most
                    pair_floor -= most
    for k in range(n):  # near[k] ascending, as the pure search's lists come out
        for m in range(n):
            if s.near_mat[k * n + m]:
                s.near[k * n + s.near_count[k]] = m
                s.near_count[k] += 1
    spread = []
    for k in range(n):
        values = [v for v, _ in options[k]]
        spread.append(max(values) - min(values))
        s.best[k] = values.index(min(values))
    for a, k in enumerate(sorted(range(n), key=lambda k: (-spread[k], k))):
        s.order[a] = k
        s.rank[k] = a
    cdef long long best_value = 0
    for k in range(n):
        best_value += s.values[s.opt_start[k] + s.best[k]]
    for k in range(n):
        for a in range(s.near_count[k]):
            m = s.near[k * n + a]
            if m > k:
                best_value += s.row(k, s.best[k], m)[s.best[m]]
    s.best_value = best_value
    s.acc_at = <long long***> _need(calloc(n + 1, sizeof(long long**)))
    s.lows_at = <long long**> _need(calloc(n + 1, sizeof(long long*)))
    s.buf_at = <long long**> _need(calloc(n + 1, sizeof(long long*)))
    s.sorted_at = <Ranked**> _need(calloc(n + 1, sizeof(Ranked*)))
    cdef int later = total_options  # options of the parts at order positions a.. (depth a rewrites only theirs)
    for a in range(n + 1):
        s.acc_at[a] = <long long**> _need(malloc(max(n, 1) * sizeof(long long*)))
        s.lows_at[a] = <long long*> _need(malloc(max(n, 1) * sizeof(long long)))
        s.buf_at[a] = <long long*> _need(malloc(max(later, 1) * sizeof(long long)))
        s.sorted_at[a] = <Ranked*> _need(malloc(max(s.nopt[s.order[a]] if a < n else 0, 1) * sizeof(Ranked)))
        if a < n:
            later -= s.nopt[s.order[a]]
    for k in range(n):
        s.acc_at[0][k] = s.values + s.opt_start[k]
        low = s.values[s.opt_start[k]]
        for c in range(1, s.nopt[k]):
            if s.values[s.opt_start[k] + c] < low:
                low = s.values[s.opt_start[k] + c]
        s.lows_at[0][k] = low
    s.visit(0, 0, pair_floor)
    s.spender.flush()
    chosen = []
    for k in range(n):
        chosen += options[k][s.best[k]][1]
    chosen.sort()
    return chosen, not budget.exhausted
