# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""A stage's complete parts solved on C arrays: the compiled twin of search._solve_parts for the
usual stages (StageCost, _cheapest, _crossings_between, _link_opportunities, _links_between,
_interacting_groups and _solve_group's small-group path), which stays the reference (tests hold
the two identical).

Most parts of a real sentence have one copy of their word on a side, or two and no neighbours:
_cheapest solves those in closed form, spending no work; the others (three copies a side, or two
with neighbours) by its dynamic program over the monotone pairings, which spends work. Most stages
end there, when the parts' own best choices neither cross nor leave a link between them unmade;
most others have only small groups of parts that interact, whose options are all listed and
searched by the small search's twin (``small_search``, given with search.SMALL_TABLE_ENTRIES).
``solve_alone`` takes those steps on position-indexed C arrays (what each hypothesis and reference
position has fixed before it, which fixed pair is its diagonal neighbour) and answers the stage's
pairs, or None whenever anything else is needed (a synonym part, a group for the pairwise search or
_best_links): search._solve_parts then runs from its start. Nothing is spent from the budget until
the answer is known to be reachable here: then the dynamic programs' work is spent as _cheapest
spends it (the same calls, in the same order, each checked; a budget that runs out gives
_solve_parts' answer for it, every part's first tokens paired in order, unproven), and each small
group's as _solve_group spends it. A handed-back stage has spent nothing and keeps no cache, so its
results and work units are the pure ones.
``complete_options`` is search._complete_options' list (a small group's options) made in C loops.
"""
from math import comb

from libc.stdlib cimport free, malloc

# A part whose dynamic program has more cells than this is handed back (Python's loop spends its
# work row by row and stops with the budget; here it would be computed whole first).
DEF MAX_DP_CELLS = 1 << 20
DEF INFINITE = 1LL << 62  # the dynamic program's "no pairing yet" (float("inf") in search.py)


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


def solve_alone(list parts, list fixed, long long weight, budget, small_search=None, small_table_entries=0):
    """search._solve_parts(parts, fixed, budget)'s answer when every part is complete and their
    own best choices are jointly optimal (or the budget runs out while they are found): (pairs,
    proven); else None, having spent nothing."""
    if not all(part.complete for part in parts):
        return None
    return _alone([(part.hyps, part.refs, part.adjacent) for part in parts], fixed, weight, budget, small_search,
                  small_table_entries)


def classes_alone(list open_classes, list fixed, budget, small_search=None, small_table_entries=0):
    """solve_alone for split_classes' open classes (hyps, refs), as search.solve_classes would make
    them parts (with _solve_parts' weight), without making the Part objects."""
    cdef long long weight = len(fixed) + 1
    cdef list classes = []
    for hyps, refs in open_classes:
        weight += len(hyps)
        classes.append((hyps, refs, _has_neighbours(hyps) and _has_neighbours(refs)))
    return _alone(classes, fixed, weight, budget, small_search, small_table_entries)


cdef bint _has_neighbours(list positions):
    """search._has_neighbours: two positions one apart."""
    cdef Py_ssize_t k
    for k in range(1, len(positions)):
        if positions[k] - positions[k - 1] == 1:
            return True
    return False


cdef object _alone(list parts, list fixed, long long weight, budget, small_search, small_table_entries):
    """solve_alone for parts given as (hyps, refs, adjacent)."""
    cdef Py_ssize_t n = len(parts), a, q, count
    cdef long long most_h = 0, most_r = 0, i, j, x, y
    for hyps, refs, adjacent in parts:
        if not _closed_form(hyps, refs, adjacent) and len(hyps) * len(refs) > MAX_DP_CELLS:
            return None
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
        spends = []  # the work _cheapest spends, call by call
        for part in parts:
            chosen.extend(_cheapest(&c, part[0], part[1], part[2], spends))
        if n > 1 and not _apart(&c, parts, chosen, ref_of_h):
            if small_search is None:
                return None
            return _in_groups(&c, parts, chosen, spends, weight, budget, small_search, small_table_entries)
        if _spent_out(spends, budget):
            return _in_order(parts), False
        return chosen, True
    finally:
        free(memory)


cdef bint _spent_out(list spends, budget) except -1:
    """Spend the work _cheapest spends, call by call; True when the budget runs out
    (search._solve_parts then answers every part's first tokens in order, unproven)."""
    for units in spends:
        if budget.spend(units):
            return True
    return False


cdef list _in_order(list parts):
    """search._in_order of every complete part, one after another."""
    return [pair for part in parts for pair in zip(part[0], part[1])]


cdef object _in_groups(Costs* c, list parts, list chosen, list spends, long long weight, budget, small_search,
                       small_table_entries):
    """The rest of search._solve_parts for complete parts whose own best choices (``chosen``) are
    not jointly optimal: the parts that can interact grouped (_interacting_groups), and each group
    of more than one part answered as _solve_group answers it when its choices cross and its
    options are few (their tables at most ``small_table_entries``, search.SMALL_TABLE_ENTRIES:
    every option listed, the twin ``small_search`` searches them), or when they neither cross nor
    leave a link unmade. Any other group (the pairwise search, _best_links) hands the stage back
    (None) before anything is spent."""
    cdef list current = _by_part(parts, chosen), plans = [], group_parts, sizes, pairs, options
    cdef Py_ssize_t k
    link_parts = _link_opportunities(parts)[0]
    cdef list groups = _interacting_groups(parts, link_parts)
    for group in groups:  # what each group needs, decided before anything is spent
        if len(group) == 1:
            plans.append(None)
            continue
        group_parts = [parts[k] for k in group]
        pairs = sorted([pair for k in group for pair in current[k]])
        if not _any_crossing(pairs):
            found, starts_h, starts_r = _link_opportunities(group_parts)
            if found and _links_between([current[k] for k in group]) != min(len(starts_h), len(starts_r)):
                return None  # search._best_links
            plans.append(pairs)
            continue
        sizes = [comb(max(len(hyps), len(refs)), min(len(hyps), len(refs))) for hyps, refs, _ in group_parts]
        if _table_entries(sizes) > small_table_entries:
            return None  # the pairwise search
        plans.append(sizes)
    if _spent_out(spends, budget):
        return _in_order(parts), False
    out, proven = [], True
    for group, plan in zip(groups, plans):
        if plan is None:
            out += current[group[0]]
            continue
        group_parts = [parts[k] for k in group]
        if type(plan[0]) is tuple:  # no crossings, every link made: each part's own choice
            out += plan
            continue
        budget.spend(sum([size * min(len(part[0]), len(part[1])) for size, part in zip(plan, group_parts)]))
        options = [complete_options(hyps, refs, _short_side_costs(c, hyps, refs), adjacent)
                   for hyps, refs, adjacent in group_parts]
        boxes = [(hyps[0], hyps[len(hyps) - 1], refs[0], refs[len(refs) - 1]) for hyps, refs, _ in group_parts]
        pairs, ok = small_search.small_search(options, weight, budget, boxes, _link_opportunities(group_parts)[0])
        out += pairs
        proven = proven and ok
    return out, proven


cdef list _short_side_costs(Costs* c, list hyps, list refs):
    """search.Part.short_side_costs: each hyp token's costs with every ref token when hyps are
    fewer (or as many), else each ref token's with every hyp token."""
    if len(hyps) <= len(refs):
        return [[_cost(c, i, j) for j in refs] for i in hyps]
    return [[_cost(c, i, j) for i in hyps] for j in refs]


cdef bint _any_crossing(list pairs):
    """Whether two of these pairs (sorted, no position twice) cross: a ref order that falls."""
    cdef long long last = -1, j
    for pair in pairs:
        j = pair[1]
        if j < last:
            return True
        last = j
    return False


cdef tuple _link_opportunities(list parts):
    """search._link_opportunities for complete parts (hyps, refs, adjacent): the part pairs (a, b)
    with a pair (i, j) of a and (i + 1, j + 1) of b, sorted, and the hyp and ref starts of those."""
    cdef dict part_h = {}, part_r = {}
    cdef Py_ssize_t k
    for k in range(len(parts)):
        for i in parts[k][0]:
            part_h[i] = k
    starts = [i for i, a in part_h.items() if part_h.get(i + 1, a) != a]
    found, starts_h, starts_r = set(), set(), set()
    if starts:
        for k in range(len(parts)):
            for j in parts[k][1]:
                part_r[j] = k
        for i in starts:
            a, b = part_h[i], part_h[i + 1]
            for j in parts[a][1]:
                if part_r.get(j + 1) == b:
                    found.add((a, b))
                    starts_h.add(i)
                    starts_r.add(j)
    return sorted(found), starts_h, starts_r


cdef Py_ssize_t _links_between(list choices) except -1:
    """search._links_between: pairs whose diagonal neighbour is a pair of another part."""
    part_of = {pair: k for k, pairs in enumerate(choices) for pair in pairs}
    cdef Py_ssize_t links = 0
    for (i, j), k in part_of.items():
        if part_of.get((i + 1, j + 1), k) != k:
            links += 1
    return links


cdef list _interacting_groups(list parts, list links):
    """search._interacting_groups: parts (by index) grouped so that no two groups can cross or link."""
    cdef Py_ssize_t n = len(parts), a, b
    if n > 200:
        return [list(range(n))]
    cdef list group_of = list(range(n)), boxes = []
    for hyps, refs, _ in parts:
        boxes.append((hyps[0], hyps[len(hyps) - 1], refs[0], refs[len(refs) - 1]))
    for a in range(n):
        h0, h1, r0, r1 = boxes[a]
        for b in range(a + 1, n):
            g0, g1, s0, s1 = boxes[b]
            if not ((h1 < g0 and r1 < s0) or (g1 < h0 and s1 < r0)):
                group_of[_find(group_of, a)] = _find(group_of, b)
    for a, b in links:
        group_of[_find(group_of, a)] = _find(group_of, b)
    cdef dict groups = {}
    for a in range(n):
        groups.setdefault(_find(group_of, a), []).append(a)
    return list(groups.values())


cdef Py_ssize_t _find(list group_of, Py_ssize_t k) except -1:
    while group_of[k] != k:
        group_of[k] = group_of[group_of[k]]
        k = group_of[k]
    return k


cdef object _table_entries(list sizes):
    """search._table_entries: how many numbers the pairwise tables of these option counts hold."""
    total = sum(sizes)
    return (total * total - sum([size * size for size in sizes])) // 2


cdef inline bint _closed_form(list hyps, list refs, bint adjacent):
    """Whether search._cheapest solves a complete part in closed form (else by _monotone_dp)."""
    return len(hyps) == 1 or len(refs) == 1 or (not adjacent and (len(hyps) == 2 or len(refs) == 2))


cdef list _cheapest(Costs* c, list hyps, list refs, bint adjacent, list spends):
    """search._cheapest for a complete part: its pairs (the work its dynamic program would spend
    added to ``spends``)."""
    cdef Py_ssize_t k, best_k, p, q
    cdef long long value, best
    if not _closed_form(hyps, refs, adjacent):
        return _monotone_dp(c, hyps, refs, adjacent, spends)
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


cdef list _monotone_dp(Costs* c, list hyps, list refs, bint links, list spends):
    """search._cheapest's table and search._monotone_dp on C arrays: the min(a, b) in-order pairs
    of least total cost (with ``links``, two consecutive pairs that are diagonal neighbours earn
    −1; ties: the earliest positions for the last pairs), in order; and, into ``spends``, the
    work those two spend: a row of the table per hypothesis token, then every 64 rows of the
    program."""
    cdef bint swap = len(hyps) < len(refs)
    cdef list long = refs if swap else hyps, short = hyps if swap else refs
    cdef Py_ssize_t n = len(long), k = len(short), p, q, lo, hi, at
    cdef long long value, other, want
    for _ in range(len(hyps)):
        spends.append(4 * len(refs))
    for p in range(63, n, 64):
        spends.append(64 * k)
    cdef long long* memory = <long long*> malloc((4 * n * k + n + k) * sizeof(long long))
    if memory == NULL:
        raise MemoryError()
    cdef long long* table = memory  # table[p * k + q]: what (long[p], short[q]) costs
    cdef long long* take = memory + n * k  # least cost with short q paired with long p (the last pair)
    cdef long long* upto = memory + 2 * n * k  # least take[p'][q] over p' <= p
    cdef long long* upto_at = memory + 3 * n * k  # the p' that reaches it
    cdef long long* long_at = memory + 4 * n * k
    cdef long long* short_at = long_at + n
    try:
        for p in range(n):
            long_at[p] = long[p]
        for q in range(k):
            short_at[q] = short[q]
        for p in range(n):
            for q in range(k):
                at = p * k + q
                table[at] = _cost(c, short_at[q], long_at[p]) if swap else _cost(c, long_at[p], short_at[q])
                take[at] = INFINITE
        for p in range(n):
            lo = k - (n - p) if k - (n - p) > 0 else 0
            hi = p if p < k - 1 else k - 1
            for q in range(lo, hi + 1):
                if q == 0:
                    value = table[p * k]
                else:
                    value = table[p * k + q] + upto[(p - 1) * k + q - 1]
                    if links and long_at[p] - long_at[p - 1] == 1 and short_at[q] - short_at[q - 1] == 1:
                        other = table[p * k + q] + take[(p - 1) * k + q - 1] - 1
                        if other < value:
                            value = other
                take[p * k + q] = value
            for q in range(k):
                at = p * k + q
                if p and not take[at] < upto[at - k]:
                    upto[at], upto_at[at] = upto[at - k], upto_at[at - k]
                elif p or take[at] < INFINITE:
                    upto[at], upto_at[at] = take[at], p
                else:
                    upto[at], upto_at[at] = INFINITE, -1
        p = upto_at[n * k - 1]
        picks = [p]
        for q in range(k - 1, 0, -1):  # walk back: which long token did short token q - 1 take?
            want = take[p * k + q] - table[p * k + q]
            if links and p and long_at[p] - long_at[p - 1] == 1 and short_at[q] - short_at[q - 1] == 1 \
                    and take[(p - 1) * k + q - 1] - 1 == want and upto[(p - 1) * k + q - 1] != want:
                p = p - 1
            else:
                p = upto_at[(p - 1) * k + q - 1]
            picks.append(p)
        picks.reverse()
        if swap:
            return [(short[q], long[picks[q]]) for q in range(k)]
        return [(long[picks[q]], short[q]) for q in range(k)]
    finally:
        free(memory)


cdef bint _apart(Costs* c, list parts, list chosen, long long* ref_of_h) except -1:
    """Whether the parts' own choices are jointly optimal, as search._solve_parts decides it: no
    two of them cross (a part's own choice, monotone, never crosses itself), and where parts
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
    """The chosen pairs cut into each part's (min(a, b) a part, in part order)."""
    cdef list out = []
    cdef Py_ssize_t at = 0, size
    for part in parts:
        size = min(len(part[0]), len(part[1]))
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
