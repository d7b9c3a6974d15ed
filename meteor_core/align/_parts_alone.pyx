# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""A stage's parts each at its own optimum, on C arrays: the compiled twin of the first steps of
search._solve_parts (StageCost, _cheapest's closed forms, _crossings_between, _link_opportunities
and _links_between), which stay the reference (tests hold the two identical).

Most parts of a real sentence have one copy of their word on a side, or two and no neighbours:
_cheapest solves those in closed form, spending no work, and most stages end there, when the
parts' own best choices neither cross nor leave a link between them unmade. ``solve_alone``
takes those steps on position-indexed C arrays (what each hypothesis and reference position has
fixed before it, which fixed pair is its diagonal neighbour) and answers the stage's pairs, or
None whenever anything else is needed (a part of another shape, a synonym part, parts that
interact): search._solve_parts then runs from its start, and as
nothing here spends work or keeps a cache, its results and work units are the pure ones.
``complete_options`` is search._complete_options' list (a small group's options) made in C loops.
"""
from libc.stdlib cimport free, malloc


cdef struct Costs:
    long long* fixed_before_h  # per hyp position p: fixed pairs with x <= p
    long long* fixed_before_r  # per ref position p: fixed pairs with y <= p
    long long* fixed_of_h  # per hyp position: its fixed ref position, or -1
    long long* ys_by_x  # the fixed pairs' ref positions, in the order of their hyp positions
    long long size_h, size_r, weight
    bint monotone  # the fixed pairs do not cross one another


cdef inline long long _cost(Costs* c, long long i, long long j) noexcept nogil:
    """StageCost(fixed, weight)(i, j): W·crossings − links. With k fixed pairs left of i and b
    below j, crossings = k + b − 2·(those left of i and below j), which is |k − b| when the fixed
    pairs do not cross one another (search.CrossingCost)."""
    cdef long long k = c.fixed_before_h[i], b = c.fixed_before_r[j], both = 0, x
    cdef long long value
    if c.monotone:
        value = c.weight * (k - b if k > b else b - k)
    else:
        for x in range(k):
            both += c.ys_by_x[x] <= j
        value = c.weight * (k + b - 2 * both)
    if i > 0 and c.fixed_of_h[i - 1] >= 0 and c.fixed_of_h[i - 1] == j - 1:
        value -= 1
    if i + 1 < c.size_h and c.fixed_of_h[i + 1] >= 0 and c.fixed_of_h[i + 1] == j + 1:
        value -= 1
    return value


def solve_alone(list parts, list fixed, long long weight):
    """search._solve_parts(parts, fixed, budget)'s answer when every part is complete and of a
    closed-form shape and their own best choices are jointly optimal: (pairs, True); else None."""
    if not all(part.complete for part in parts):
        return None
    return _alone([(part.hyps, part.refs, part.adjacent) for part in parts], fixed, weight)


def classes_alone(list open_classes, list fixed):
    """solve_alone for split_classes' open classes (hyps, refs), as search.solve_classes would make
    them parts (with _solve_parts' weight), without making the Part objects."""
    cdef long long weight = len(fixed) + 1
    cdef list classes = []
    for hyps, refs in open_classes:
        weight += len(hyps)
        classes.append((hyps, refs, _has_neighbours(hyps) and _has_neighbours(refs)))
    return _alone(classes, fixed, weight)


cdef bint _has_neighbours(list positions):
    """search._has_neighbours: two positions one apart."""
    cdef Py_ssize_t k
    for k in range(1, len(positions)):
        if positions[k] - positions[k - 1] == 1:
            return True
    return False


cdef object _alone(list parts, list fixed, long long weight):
    """solve_alone for parts given as (hyps, refs, adjacent)."""
    cdef Py_ssize_t n = len(parts), a, q, count
    cdef long long most_h = 0, most_r = 0, i, j, x, y
    for hyps, refs, adjacent in parts:
        if not (len(hyps) == 1 or len(refs) == 1 or (not adjacent and (len(hyps) == 2 or len(refs) == 2))):
            return None  # _cheapest's dynamic program (it spends work): the Python steps
        most_h = max(most_h, hyps[len(hyps) - 1])
        most_r = max(most_r, refs[len(refs) - 1])
    for pair in fixed:
        if type(pair[0]) is not int or type(pair[1]) is not int:
            return None  # (positions between tokens, as tests place fixed pairs: the Python steps)
        x, y = pair
        most_h = max(most_h, x)
        most_r = max(most_r, y)
    cdef Costs c
    c.size_h, c.size_r, c.weight = most_h + 2, most_r + 2, weight
    cdef long long* memory = <long long*> malloc((3 * c.size_h + c.size_r + len(fixed) + 1) * sizeof(long long))
    if memory == NULL:
        raise MemoryError()
    c.fixed_before_h, c.fixed_of_h = memory, memory + c.size_h
    c.fixed_before_r = memory + 2 * c.size_h
    cdef long long* ref_of_h = memory + 2 * c.size_h + c.size_r  # fixed pairs by x, for the crossing test
    c.ys_by_x = ref_of_h + c.size_h
    try:
        for x in range(c.size_h):
            c.fixed_before_h[x], c.fixed_of_h[x], ref_of_h[x] = 0, -1, -1
        for y in range(c.size_r):
            c.fixed_before_r[y] = 0
        for x, y in fixed:
            c.fixed_before_h[x] += 1
            c.fixed_before_r[y] += 1
            c.fixed_of_h[x] = ref_of_h[x] = y
        c.monotone, count = True, 0
        for x in range(c.size_h):
            if ref_of_h[x] >= 0:
                if count and ref_of_h[x] < c.ys_by_x[count - 1]:
                    c.monotone = False
                c.ys_by_x[count] = ref_of_h[x]
                count += 1
        for x in range(1, c.size_h):
            c.fixed_before_h[x] += c.fixed_before_h[x - 1]
        for y in range(1, c.size_r):
            c.fixed_before_r[y] += c.fixed_before_r[y - 1]
        chosen = []
        for part in parts:
            chosen.extend(_cheapest(&c, part[0], part[1]))
        if n == 1:
            return chosen, True
        return (chosen, True) if _apart(&c, parts, chosen, ref_of_h) else None
    finally:
        free(memory)


cdef list _cheapest(Costs* c, list hyps, list refs):
    """search._cheapest for a complete part of one of its closed-form shapes: its pairs."""
    cdef Py_ssize_t k, best_k, p, q
    cdef long long value, best
    if len(hyps) == 1:  # its costs with every ref token: the first least
        i = hyps[0]
        best_k, best = 0, _cost(c, i, refs[0])
        for k in range(1, len(refs)):
            value = _cost(c, i, refs[k])
            if value < best:
                best_k, best = k, value
        return [(i, refs[best_k])]
    if len(refs) == 1:
        j = refs[0]
        best_k, best = 0, _cost(c, hyps[0], j)
        for k in range(1, len(hyps)):
            value = _cost(c, hyps[k], j)
            if value < best:
                best_k, best = k, value
        return [(hyps[best_k], j)]
    if len(hyps) == 2:
        p, q = _cheapest_two(c, hyps, refs, True)
        return [(hyps[0], refs[p]), (hyps[1], refs[q])]
    p, q = _cheapest_two(c, refs, hyps, False)
    return [(hyps[p], refs[0]), (hyps[q], refs[1])]


cdef tuple _cheapest_two(Costs* c, list short, list long, bint short_is_hyp):
    """search._cheapest_two on the short side's two rows of costs: the p < q of least
    first[p] + second[q] (ties: the earliest q, then p)."""
    cdef Py_ssize_t best_p = 0, best_q = 1, low_p = 0, q
    cdef long long s0 = short[0], s1 = short[1]
    cdef long long best = _pair_cost(c, s0, long[0], short_is_hyp) + _pair_cost(c, s1, long[1], short_is_hyp)
    cdef long long low = _pair_cost(c, s0, long[0], short_is_hyp), first, second
    for q in range(2, len(long)):
        first = _pair_cost(c, s0, long[q - 1], short_is_hyp)
        if first < low:
            low_p, low = q - 1, first
        second = _pair_cost(c, s1, long[q], short_is_hyp)
        if low + second < best:
            best_p, best_q, best = low_p, q, low + second
    return best_p, best_q


cdef inline long long _pair_cost(Costs* c, long long s, long long l, bint short_is_hyp):
    return _cost(c, s, l) if short_is_hyp else _cost(c, l, s)


cdef bint _apart(Costs* c, list parts, list chosen, long long* ref_of_h) except -1:
    """Whether the parts' own choices are jointly optimal, as search._solve_parts decides it: no
    two of them cross (a part's own closed-form choice never crosses itself), and where parts
    could link (_link_opportunities), as many links between them are made as could be at once."""
    cdef Py_ssize_t n = len(parts), a, b
    cdef long long i, j, last_j = -1
    cdef long long* part_h = <long long*> malloc((3 * c.size_h + c.size_r) * sizeof(long long))
    if part_h == NULL:
        raise MemoryError()
    cdef long long* part_r = part_h + c.size_h
    cdef long long* chosen_h = part_h + c.size_h + c.size_r  # per hyp position: its chosen ref, or -1
    cdef long long* chosen_part = chosen_h + c.size_h  # per hyp position: the part that chose it
    try:
        for i in range(c.size_h):
            part_h[i] = chosen_h[i] = chosen_part[i] = -1
        for j in range(c.size_r):
            part_r[j] = -1
        for a in range(n):
            for i in parts[a][0]:
                part_h[i] = a
            for j in parts[a][1]:
                part_r[j] = a
        a = 0
        for pairs_of_part in _by_part(parts, chosen):
            for i, j in pairs_of_part:
                chosen_h[i], chosen_part[i] = j, a
            a += 1
        for i in range(c.size_h):  # crossings between the choices: a ref order that falls
            if chosen_h[i] >= 0:
                if chosen_h[i] < last_j:
                    return False
                last_j = chosen_h[i]
        # _link_opportunities: a hyp position followed by one of another part, a ref of its part
        # followed by one of that part (complete parts: every such pair is a candidate).
        starts_h, starts_r, found = set(), set(), False
        for i in range(c.size_h - 1):
            a, b = part_h[i], part_h[i + 1]
            if a < 0 or b < 0 or a == b:
                continue
            for j in parts[a][1]:
                if j + 1 < c.size_r and part_r[j + 1] == b:
                    found = True
                    starts_h.add(i)
                    starts_r.add(j)
        if not found:
            return True
        # _links_between: chosen pairs whose diagonal neighbour is a chosen pair of another part
        links = 0
        for i in range(c.size_h - 1):
            if chosen_h[i] >= 0 and chosen_h[i + 1] == chosen_h[i] + 1 and chosen_part[i + 1] != chosen_part[i]:
                links += 1
        return links == min(len(starts_h), len(starts_r))
    finally:
        free(part_h)


cdef list _by_part(list parts, list chosen):
    """The chosen pairs cut into each part's (one or two a part, in part order)."""
    cdef list out = []
    cdef Py_ssize_t at = 0, size
    for part in parts:
        size = 1 if len(part[0]) == 1 or len(part[1]) == 1 else 2
        out.append(chosen[at:at + size])
        at += size
    return out


def complete_options(list hyps, list refs, list table, bint adjacent) -> list:
    """search._complete_options' list for a complete part: every monotone pairing (combinations of
    the longer side's tokens, in lexicographic order) with its value, ``table`` being the part's
    short side's costs (Part.short_side_costs), less one for each link when ``adjacent``."""
    cdef bint by_hyp = len(hyps) <= len(refs)
    cdef list short = hyps if by_hyp else refs, long = refs if by_hyp else hyps
    cdef Py_ssize_t k = len(short), n = len(long), q, x
    cdef long long* picks = <long long*> malloc((k + 1) * sizeof(long long))
    if picks == NULL:
        raise MemoryError()
    cdef list out = [], pairs, row
    cdef long long value
    try:
        for q in range(k):
            picks[q] = q
        while True:
            value = 0
            pairs = []
            for q in range(k):
                row = table[q]
                value += <long long> row[picks[q]]
                if by_hyp:
                    pairs.append((short[q], long[picks[q]]))
                else:
                    pairs.append((long[picks[q]], short[q]))
                if adjacent and q > 0 and long[picks[q]] - long[picks[q - 1]] == 1 \
                        and short[q] - short[q - 1] == 1:
                    value -= 1
            out.append((value, pairs))
            x = k - 1  # the next combination: the last pick that can still move on, then its followers
            while x >= 0 and picks[x] == n - k + x:
                x -= 1
            if x < 0:
                return out
            picks[x] += 1
            for q in range(x + 1, k):
                picks[q] = picks[q - 1] + 1
    finally:
        free(picks)
