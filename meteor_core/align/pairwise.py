"""Exact joint choice for a group of parts that interact: a pairwise minimisation over whole-part
choices, with numpy tables, a linear-programming bound and branch and bound.

Each part k has options (its monotone pairings, or for a synonym part its maximum matchings)
with a value U_k[c] against the fixed pairs (W·crossings − links, see search.py). Two parts'
options cost together T_kl[c, d] = W·(their crossings) − (their links): a table built from what
each candidate pair of k costs against each candidate pair of l. The total of a joint choice is
Σ U + Σ T, and it is minimised exactly:

1. An incumbent: coordinate descent from each part's own best. When a part has many options
   (more than FILTER_OPTIONS), the descent runs on the candidate pairs' costs, before any table,
   and that part's options that a bound without tables shows cannot beat the incumbent are
   dropped first: its tables are most of the work.
2. Pruning: an option whose one-part look-ahead bound cannot beat the incumbent by 1 is dropped
   (_prune), again and again on the smaller tables while options drop. When at most
   EVERY_CHOICE joint choices are left, all their totals are computed at once: that is the
   proof (the TED set's slowest segments end here). Once a group has at most DENSE_OPTIONS
   options in all, its tables are held as one matrix and each round is a few numpy calls on it
   (_solve_dense, the same steps). Otherwise:
3. A lower bound from the linear-programming relaxation, by MPLP (Globerson & Jaakkola 2007):
   block-coordinate steps that move value between each table and its two parts' vectors without
   changing any joint choice's total, and raise Σ_k min(U_k) while every table stays >= 0. Totals
   are integers, so a bound within 1 of the incumbent proves it optimal. On real sentences the
   relaxation is nearly always tight and the proof takes a few sweeps.
4. Otherwise a depth-first branch and bound on the moved values: at a node, every open part l
   needs at least min(u_l), u_l being its vector plus its tables with the chosen parts plus half
   its least interaction with every other open part (valid as the tables are >= 0); a child's
   bound looks one part ahead exactly. The clock is checked at every node and every sweep.
"""
from __future__ import annotations

import sys
from itertools import chain, combinations
from math import comb, prod

import numpy as np

from .. import _accel

Pair = tuple[int, int]
# Parts' options as arrays: candidate pairs, each option's value, and each option's pairs as
# indices into the candidates (one row per option).
Options = tuple[list[Pair], np.ndarray, np.ndarray]

MAX_SWEEPS = 5

# Work units (search.Budget) of numpy calls: one a call for its overhead, and one for every this
# many numbers it reads or writes (calibrated with bench/adversarial.py --calibrate).
CALL_UNITS = 20
NUMBERS_PER_UNIT = 16


def numpy_work(numbers: int, calls: int = 1) -> int:
    """The work units of ``calls`` numpy calls that together touch ``numbers`` numbers."""
    return CALL_UNITS * calls + numbers // NUMBERS_PER_UNIT


# solve_pairwise and complete_options on C arrays (align/_pairwise_search.pyx), when built and up
# to date.
_C_SEARCH = _accel.twin("meteor_core.align._pairwise_search")


def complete_options(hyps: list[int], refs: list[int], rows: list[list[int]], adjacent: bool) -> Options:
    """Every monotone pairing of a complete part K(a, b): min(a, b) in-order pairs. ``rows[a][b]``
    is what (hyps[a], refs[b]) costs against the fixed pairs; with ``adjacent``, consecutive pairs
    that are diagonal neighbours earn −1 (a link)."""
    if _C_SEARCH is not None:
        return _C_SEARCH.complete_options(hyps, refs, rows, adjacent)
    candidates = [(i, j) for i in hyps for j in refs]
    short, long = (hyps, refs) if len(hyps) <= len(refs) else (refs, hyps)
    picks = _combinations(len(long), len(short))
    q = np.arange(len(short))[None, :]
    if len(hyps) <= len(refs):
        index = q * len(refs) + picks  # (hyps[q], refs[pick])
    else:
        index = picks * len(refs) + q  # (hyps[pick], refs[q])
    values = np.asarray(rows, dtype=np.float64).ravel()[index].sum(axis=1)
    if adjacent and len(short) > 1:
        long_pos = np.asarray(long)[picks]
        short_step = np.diff(np.asarray(short)) == 1
        values -= ((np.diff(long_pos, axis=1) == 1) & short_step[None, :]).sum(axis=1)
    return candidates, values, index


def _combinations(n: int, k: int) -> np.ndarray:
    """itertools.combinations(range(n), k) as rows of an array, in the same (lexicographic)
    order, built as a tree a column at a time (each prefix followed by every value its next pick
    can take), then read back from the leaves: a few numpy calls per column instead of a Python
    step per number. (Few combinations: itertools is quicker.)"""
    if comb(n, k) <= 256:
        return np.fromiter(chain.from_iterable(combinations(range(n), k)), dtype=np.intp).reshape(-1, k)
    values = [np.arange(n - k + 1, dtype=np.intp)]  # per column: each prefix's last pick
    parents = [None]  # per column: each prefix's prefix one shorter
    for column in range(1, k):
        last = values[-1]
        counts = (n - k + column) - last  # the next pick runs over last + 1 .. n − k + column
        offsets = np.arange(int(counts.sum()), dtype=np.intp) - np.repeat(np.cumsum(counts) - counts, counts)
        values.append(np.repeat(last + 1, counts) + offsets)
        parents.append(np.repeat(np.arange(len(last), dtype=np.intp), counts))
    picks = np.empty((len(values[-1]), k), dtype=np.intp)
    rows = np.arange(len(values[-1]), dtype=np.intp)
    for column in range(k - 1, -1, -1):
        picks[:, column] = values[column][rows]
        if column:
            rows = parents[column][rows]
    return picks


def listed_options(options: list[tuple[int, list[Pair]]]) -> Options:
    """Options given as (value, pairs) lists (a synonym part's maximum matchings)."""
    candidates = sorted({p for _, pairs in options for p in pairs})
    where = {p: k for k, p in enumerate(candidates)}
    index = np.array([[where[p] for p in pairs] for _, pairs in options], dtype=np.intp)
    return candidates, np.array([value for value, _ in options], dtype=np.float64), index


def chosen_pairs(options: Options, choice: int) -> list[Pair]:
    candidates, _, index = options
    return [candidates[k] for k in index[choice]]


def table_entries(sizes: list[int]) -> int:
    """How many numbers the pairwise tables of parts with these option counts hold together."""
    total = sum(sizes)
    return (total * total - sum(s * s for s in sizes)) // 2


def _cost_between(a: list[Pair], b: list[Pair], weight: int) -> np.ndarray:
    """X[e, f]: W·[e crosses f] − [e, f diagonal neighbours], for candidate pairs e of a, f of b."""
    ai, aj = np.array(a, dtype=np.float64).T
    bi, bj = np.array(b, dtype=np.float64).T
    di = ai[:, None] - bi[None, :]
    dj = aj[:, None] - bj[None, :]
    crossing = (di * dj) < 0
    link = ((di == 1) & (dj == 1)) | ((di == -1) & (dj == -1))
    return weight * crossing - link


# Gathers are done in slices of at most this many numbers, so that a table's intermediate arrays
# stay small (the tables themselves are capped by search.MAX_TABLE_ENTRIES): half a MB stays in
# the CPU's cache and below the size at which the allocator maps fresh pages from the system for
# each array (8 MB slices made the TED set's 8 longest segments ~10% slower, cold or warm).
GATHER_CHUNK = 1 << 16


def _gather_sum(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """values[index].sum(axis=1) for 2-D ``values`` (rows x columns) and ``index`` (n x k row
    indices): out[r] = Σ_q values[index[r, q]], a slice of rows at a time."""
    n, k = index.shape
    out = np.empty((n, values.shape[1]))
    step = max(1, GATHER_CHUNK // max(1, k * values.shape[1]))
    for start in range(0, n, step):
        out[start:start + step] = values[index[start:start + step]].sum(axis=1)
    return out


# _tables and _joint_matrix summed in C loops (align/_pairwise_tables.pyx), when built and up to date.
_C_TABLES = _accel.twin("meteor_core.align._pairwise_tables")


def _table(a: Options, b: Options, weight: int) -> np.ndarray:
    """T[c, d]: what option c of part a and option d of part b cost together."""
    return _tables(a, [b], weight)[0]


def _tables(a: Options, others: list[Options], weight: int) -> list[np.ndarray]:
    """_table(a, b) for every b of ``others`` at once: what each candidate of a costs against
    each option of every b, side by side, then one gather over a's options (a large part's
    options are gathered once, not once per other part)."""
    if _C_TABLES is not None:
        return _C_TABLES.tables(a, others, weight)
    candidates = [c for b in others for c in b[0]]
    per_candidate = _cost_between(a[0], candidates, weight)  # candidates of a x all their candidates
    against, start = [], 0
    for b in others:
        against.append(_gather_sum(per_candidate[:, start:start + len(b[0])].T, b[2]).T)
        start += len(b[0])
    joined = _gather_sum(np.hstack(against), a[2])  # options of a x all their options
    cuts = np.cumsum([len(b[1]) for b in others])[:-1]
    return np.hsplit(joined, cuts)


def solve_pairwise(options: list[Options], weight: int, budget) -> tuple[list[int], bool]:
    """The option chosen for each part, and whether the optimum was proven (False when the
    budget, a search.Budget, ran out: the best choice found is returned).

    The incumbent comes first (coordinate descent, on the candidates' costs: no table needed),
    then the options of large parts that cannot beat it are dropped (_options_that_may_win)
    before any table is built: a large part's tables are most of the work."""
    if _C_SEARCH is not None:
        return _C_SEARCH.solve_pairwise(options, weight, budget, sys.modules[__name__])
    start = [int(np.argmin(values)) for _, values, _ in options]
    if all(len(values) <= FILTER_OPTIONS for _, values, _ in options):
        return _solve_options(options, weight, start, budget)
    best = _descend_on_pairs(options, weight, start, budget)
    if budget.exhausted:
        return best, False
    kept = _options_that_may_win(options, weight, best, budget)
    if kept is None:
        return _solve_options(options, weight, best, budget)
    fewer = [(candidates, values[rows], index[rows]) for (candidates, values, index), rows in zip(options, kept)]
    choice, proven = _solve_options(fewer, weight, [int(np.searchsorted(rows, c)) for rows, c in zip(kept, best)],
                                    budget)
    return [int(rows[c]) for rows, c in zip(kept, choice)], proven


# Parts with more options than this are filtered before their tables are built. (Below it the
# tables between the many small parts cost more than the large part's, and the filter's own
# work does not pay: measured on the TED set's slowest segments.)
FILTER_OPTIONS = 1000


def _descend_on_pairs(options: list[Options], weight: int, choice: list[int], budget) -> list[int]:
    """_descend over the whole problem, computed without tables: what option c of part k costs
    with the others' current choices is the sum, over c's candidate pairs, of what each costs
    against the others' chosen pairs (integers: the same totals, so the same steps)."""
    n = len(options)
    choice = list(choice)
    candidates = [np.asarray(o[0], dtype=np.float64) for o in options]
    chosen = [candidates[k][options[k][2][choice[k]]] for k in range(n)]
    improved = n > 1
    while improved and not budget.exhausted:
        improved = False
        for k in range(n):
            _, values, index = options[k]
            others = np.concatenate([chosen[m] for m in range(n) if m != k])
            if budget.spend(numpy_work(6 * len(candidates[k]) * len(others) + 2 * index.size, 10)):
                break
            each = _cost_between(candidates[k], others, weight).sum(axis=1)
            scores = values + each[index].sum(axis=1)
            c = int(np.argmin(scores))
            if scores[c] < scores[choice[k]]:
                choice[k], chosen[k], improved = c, candidates[k][index[c]], True
    return choice


def _options_that_may_win(options: list[Options], weight: int, best: list[int], budget) -> list[np.ndarray] | None:
    """For each part, the options (sorted row numbers) that may still beat the incumbent ``best``
    by 1: a large part's other options are dropped by a bound that needs no table. None when
    nothing is dropped (or the budget ran out: the search after it stops at once).

    The bound: what candidate pair e of part l costs with part m's choice is at least
    a_lm(e) (least_interactions). Every joint choice that takes option c of part k then totals
    at least U_k[c] + Σ_{e in c} Σ_m a_km(e) + Σ_{l != k} min_d (U_l[d] + ½·Σ_{e in d} Σ_{m != k}
    a_lm(e)): each table between two parts other than k is split in halves, one to each side."""
    n = len(options)
    large = [len(values) > FILTER_OPTIONS for _, values, _ in options]
    sizes = [len(o[0]) for o in options]
    starts = np.cumsum([0] + sizes[:-1])
    least = least_interactions([o[0] for o in options], {m: options[m][2] for m in range(n) if not large[m]},
                               weight, budget)
    if least is None:
        return None
    every = np.concatenate([np.asarray(o[0], dtype=np.float64) for o in options])
    value = float(sum(values[c] for (_, values, _), c in zip(options, best)))
    chosen = np.concatenate([every[starts[k] + options[k][2][best[k]]] for k in range(n)])
    part_of = np.repeat(np.arange(n), [options[k][2].shape[1] for k in range(n)])
    value += 0.5 * float(np.where(part_of[:, None] != part_of[None, :], _cost_between(chosen, chosen, weight), 0).sum())
    all_parts = least.sum(axis=1)
    kept, dropped = [], False
    for k in range(n):
        if not large[k]:
            kept.append(np.arange(len(options[k][1])))
            continue
        halves = 0.5 * (all_parts - least[:, k])
        rest = 0.0
        for l in range(n):
            if l != k:
                _, values, index = options[l]
                rest += float((values + halves[starts[l] + index].sum(axis=1)).min())
        _, values, index = options[k]
        budget.spend(numpy_work(sum(len(o[2]) * o[2].shape[1] for o in options), n))
        bound = values + all_parts[starts[k] + index].sum(axis=1) + rest
        mask = bound < value - 1 + 1e-6
        mask[best[k]] = True
        dropped = dropped or not mask.all()
        kept.append(np.flatnonzero(mask))
    return kept if dropped else None


def least_interactions(candidates: list[list[Pair]], listed: dict[int, np.ndarray], weight: int,
                       budget) -> np.ndarray | None:
    """a[e, m], for the candidate pairs e of all parts (part after part, as ``candidates`` lists
    them) and every part m: a lower bound on what e costs with any choice of part m (0 for e's
    own part). For a part whose options are ``listed`` (m -> each option's pairs as indices into
    its candidates), the least over its options of what e costs against that option's pairs;
    for any other part, only the links e could make with its candidates (crossings cost >= 0).
    None when the budget ran out."""
    n = len(candidates)
    sizes = [len(c) for c in candidates]
    starts = np.cumsum([0] + sizes[:-1])
    every = np.concatenate([np.asarray(c, dtype=np.float64).reshape(-1, 2) for c in candidates])
    total = len(every)
    # The listed parts' options as rows of indices into ``every``, padded with index ``total``
    # (a column of zeros).
    small = sorted(listed)
    option_starts = np.cumsum([0] + [len(listed[m]) for m in small[:-1]])
    width = max((listed[m].shape[1] for m in small), default=1)
    rows = np.full((sum(len(listed[m]) for m in small), width), total)
    for m, first in zip(small, option_starts):
        index = listed[m]
        rows[first:first + len(index), :index.shape[1]] = index + starts[m]
    least = np.empty((total, n))
    step = max(1, GATHER_CHUNK // (total + 1))
    for first in range(0, total, step):  # a slice of candidates at a time (memory stays bounded)
        width_now = min(step, total - first)
        if budget.spend(numpy_work(width_now * (total + 1) + width_now * rows.size, 6)):
            return None
        costs = np.zeros((width_now, total + 1))
        costs[:, :total] = _cost_between(every[first:first + step], every, weight)
        least[first:first + step] = np.add.reduceat(np.minimum(costs[:, :total], 0), starts, axis=1)
        if small:
            against = _gather_sum(costs.T, rows).T  # these candidates x the listed parts' options
            least[first:first + step, small] = np.minimum.reduceat(against, option_starts, axis=1)
    for l in range(n):
        least[starts[l]:starts[l] + sizes[l], l] = 0
    return least


def _solve_options(options: list[Options], weight: int, start: list[int], budget) -> tuple[list[int], bool]:
    n = len(options)
    if sum(len(values) for _, values, _ in options) <= DENSE_OPTIONS \
            and sum(len(candidates) for candidates, _, _ in options) <= DENSE_CANDIDATES:
        if budget.spend(_joint_matrix_work(options)):
            return start, False
        return _solve_dense([values.copy() for _, values, _ in options], _joint_matrix(options, weight), start, budget)
    unary = [values.copy() for _, values, _ in options]
    table: dict[tuple[int, int], np.ndarray] = {}
    for k in range(n - 1):
        if budget.spend(_tables_work(options[k], options[k + 1:])):
            return start, False
        for m, t in zip(range(k + 1, n), _tables(options[k], options[k + 1:], weight)):
            if t.any():  # parts that cannot interact need no table
                table[k, m] = _laid_out(t)
    best = _descend(unary, table, start, budget)
    best_value = _value(unary, table, best)
    rows = [np.arange(len(u)) for u in unary]  # the original options the smaller problem keeps
    # Pruning again on the smaller tables can drop more (each part's bound is taken over fewer
    # options of its neighbours): repeated while it drops anything, until few enough joint
    # choices are left to try them all.
    while prod(len(u) for u in unary) > EVERY_CHOICE and not budget.spend(
            numpy_work(3 * sum(t.size for t in table.values()), 4 * len(table) + 2 * n)):
        if sum(map(len, unary)) <= DENSE_OPTIONS:  # few enough options left for one matrix
            choice, proven = _solve_dense(unary, _blocks_joined(unary, table), best, budget)
            return [int(r[c]) for r, c in zip(rows, choice)], proven
        keep = _prune(unary, table, best, best_value)
        if keep is None:
            break
        unary = [u[k] for u, k in zip(unary, keep)]
        table = {(a, m): _laid_out(t[np.ix_(keep[a], keep[m])]) for (a, m), t in table.items()}
        best = [int(np.searchsorted(k, c)) for k, c in zip(keep, best)]
        rows = [r[k] for r, k in zip(rows, keep)]
    if budget.exhausted:
        return [int(r[c]) for r, c in zip(rows, best)], False
    if prod(len(u) for u in unary) <= EVERY_CHOICE:
        choice, proven = _every_choice(unary, table, best, best_value), True
    else:
        choice, proven = _solve(unary, table, best, best_value, budget)
    return [int(r[c]) for r, c in zip(rows, choice)], proven


# A group with at most this many options in all is solved on one matrix of what every two options
# cost together (_joint_matrix): each pruning round is then a few numpy calls on the whole group,
# not several per pair of parts (a group of a dozen parts has ~70 tables). Its rounds cost
# O(options²): above a few hundred options the tables' own round is cheaper.
DENSE_OPTIONS = 400
# The matrix is summed from what every two candidate pairs of the group cost together (a square
# of the candidates): above this many candidates the tables, built a part at a time, need less
# memory (1,000: a few arrays of 8 MB).
DENSE_CANDIDATES = 1000


def _joint_matrix_work(options: list[Options]) -> int:
    """The work units of _joint_matrix: a square of the candidates, then two gathers."""
    total = sum(len(candidates) for candidates, _, _ in options)
    width = max(index.shape[1] for _, _, index in options)
    count = sum(len(values) for _, values, _ in options)
    return numpy_work(total * total + count * width * (total + count), 8)


def _tables_work(a: Options, others: list[Options]) -> int:
    """The work units of _tables(a, others)."""
    theirs = sum(len(b[0]) for b in others)
    their_options = sum(len(b[1]) for b in others)
    return numpy_work(len(a[0]) * theirs + len(a[0]) * sum(b[2].size for b in others)
                      + a[2].size * their_options, 4 * len(others) + 4)


def _joint_matrix(options: list[Options], weight: int) -> np.ndarray:
    """M[c, d]: what options c and d of two different parts cost together (the tables of
    _tables, side by side; options numbered part after part), zero within a part."""
    if _C_TABLES is not None:
        return _C_TABLES.joint_matrix(options, weight)
    sizes = [len(values) for _, values, _ in options]
    every = np.concatenate([np.asarray(candidates, dtype=np.float64) for candidates, _, _ in options])
    total = len(every)
    # Every option as a row of indices into ``every``, padded with ``total`` (a zero row and column).
    rows = np.full((sum(sizes), max(index.shape[1] for _, _, index in options)), total)
    at = first = 0
    for candidates, _, index in options:
        rows[at:at + len(index), :index.shape[1]] = index + first
        at += len(index)
        first += len(candidates)
    pair_costs = np.zeros((total + 1, total + 1))
    pair_costs[:total, :total] = _cost_between(every, every, weight)
    by_option = np.ascontiguousarray(_gather_sum(pair_costs, rows).T)  # candidates x options
    joint = _gather_sum(by_option, rows)  # options x options
    for start, end in zip(*_block_bounds(sizes)):
        joint[start:end, start:end] = 0
    return joint


def _block_bounds(sizes) -> tuple[np.ndarray, np.ndarray]:
    """Where each part's options start and end when the options are numbered part after part."""
    ends = np.cumsum(sizes)
    return ends - sizes, ends


def _blocks_joined(unary, table) -> np.ndarray:
    """The tables of ``table`` as one matrix (as _joint_matrix makes it)."""
    starts, ends = _block_bounds([len(u) for u in unary])
    joint = np.zeros((ends[-1], ends[-1]))
    for (k, m), t in table.items():
        joint[starts[k]:ends[k], starts[m]:ends[m]] = t
        joint[starts[m]:ends[m], starts[k]:ends[k]] = t.T
    return joint


def _solve_dense(unary, joint: np.ndarray, start: list[int], budget) -> tuple[list[int], bool]:
    """_solve_options on the joint matrix: the same incumbent (coordinate descent, parts in order),
    the same pruning rounds (the bound of _prune, for every option at once) and the same end."""
    n = len(unary)
    values = np.concatenate(unary)
    part_of = np.repeat(np.arange(n), [len(u) for u in unary])
    kept = np.arange(len(values))  # the options still in ``values``/``joint``, as numbered at first
    starts, ends = _block_bounds([len(u) for u in unary])
    first_of = starts.copy()  # where each part's options started at first
    best = _descend_joint(values, joint, starts, ends, [int(s + c) for s, c in zip(starts, start)], budget)
    best_value = float(values[best].sum() + 0.5 * joint[np.ix_(best, best)].sum())
    while prod(map(int, ends - starts)) > EVERY_CHOICE and not budget.spend(numpy_work(4 * joint.size, 12)):
        # _prune's bound: for option c of part k, U_k[c] + Σ_{l != k} min_d (T_kl[c, d] + u_l[d] −
        # ½·low_lk[d]), with low[d, k] = min_c T_lk[d, c] and u = U + ½·Σ_k low[., k]. Parts that
        # do not interact have zero blocks: their terms become min(u_l), as in _prune.
        low = np.minimum.reduceat(joint, starts, axis=1)  # options x parts
        moved = values + 0.5 * low.sum(axis=1)
        least = np.minimum.reduceat(joint + moved[None, :] - 0.5 * low[:, part_of].T, starts, axis=1)
        bound = values + least.sum(axis=1) - least[np.arange(len(values)), part_of]
        mask = bound < best_value - 1 + 1e-6
        mask[best] = True
        if mask.all():
            break
        keep = np.flatnonzero(mask)
        values, joint, part_of, kept = values[keep], joint[np.ix_(keep, keep)], part_of[keep], kept[keep]
        starts, ends = _block_bounds(np.bincount(part_of, minlength=n))
        best = [int(b) for b in np.searchsorted(keep, best)]
    choice = [b - int(s) for b, s in zip(best, starts)]
    if budget.exhausted:
        return [int(kept[s + c] - f) for s, c, f in zip(starts, choice, first_of)], False
    unary = [values[s:e] for s, e in zip(starts, ends)]
    table = {}
    for k in range(n):
        for m in range(k + 1, n):
            t = joint[starts[k]:ends[k], starts[m]:ends[m]]
            if t.any():
                table[k, m] = t
    if prod(len(u) for u in unary) <= EVERY_CHOICE:
        choice, proven = _every_choice(unary, table, choice, best_value), True
    else:
        choice, proven = _solve(unary, table, choice, best_value, budget)
    return [int(kept[s + c] - f) for s, c, f in zip(starts, choice, first_of)], proven


def _descend_joint(values: np.ndarray, joint: np.ndarray, starts, ends, best: list[int], budget) -> list[int]:
    """_descend on the joint matrix (options numbered part after part): the same steps."""
    improved = True
    while improved and not budget.spend(numpy_work(len(values) * len(best), 3 * len(best))):
        improved = False
        for k, (s, e) in enumerate(zip(starts, ends)):
            scores = values[s:e] + joint[s:e, best].sum(axis=1)  # a part's own block is zero
            c = int(np.argmin(scores))
            if scores[c] < scores[best[k] - s]:
                best[k], improved = int(s + c), True
    return best


# When pruning leaves at most this many joint choices, their totals are computed all at once (one
# numpy array) instead of bounding and searching: the proof is exhaustive, and cheaper than the
# MPLP sweeps and the search's per-node calls on the TED set's slow segments.
EVERY_CHOICE = 4096


def _every_choice(unary, table, best: list[int], best_value: float) -> list[int]:
    """The best joint choice by exhaustion: the incumbent ``best`` unless a choice beats it by 1
    (totals are integers; ties keep the incumbent, as the search does). Parts left with one
    option are folded into the others' values, so the array has one axis per part with a choice."""
    free = [k for k, u in enumerate(unary) if len(u) > 1]
    axis = {k: a for a, k in enumerate(free)}

    def spread(vector, k):  # a vector over part k's options, along k's axis
        shape = [1] * len(free)
        shape[axis[k]] = len(vector)
        return vector.reshape(shape)

    totals = np.zeros([len(unary[k]) for k in free])
    for k in free:
        totals = totals + spread(unary[k], k)
    fixed = sum(float(u[0]) for k, u in enumerate(unary) if k not in axis)
    for (k, m), t in table.items():  # k < m, so k's axis comes first
        if k in axis and m in axis:
            shape = [1] * len(free)
            shape[axis[k]], shape[axis[m]] = t.shape
            totals = totals + t.reshape(shape)
        elif k in axis:
            totals = totals + spread(t[:, 0], k)
        elif m in axis:
            totals = totals + spread(t[0, :], m)
        else:
            fixed += float(t[0, 0])
    at = int(np.argmin(totals))
    if not fixed + float(totals.flat[at]) < best_value - 1 + 1e-6:
        return best
    choice = [0] * len(unary)
    for k, c in zip(free, np.unravel_index(at, totals.shape)):
        choice[k] = int(c)
    return choice


# A part with more options than this has its tables reduced one at a time in _prune (numpy's
# segmented minimum over many rows side by side is slower than one minimum per table).
MANY_OPTIONS = 256


def _laid_out(table: np.ndarray) -> np.ndarray:
    """The table with its longer side contiguous in memory. The search reduces every table along
    both axes (least over rows, least over columns); numpy reduces a tall, narrow C-ordered
    table (a large part's options against a small part's few) row by row, 5-20 times slower than
    the same numbers stored by columns. The values are unchanged."""
    if table.shape[0] > table.shape[1]:
        return np.asfortranarray(table)
    return np.ascontiguousarray(table)


def _prune(unary, table, best: list[int], best_value: float) -> list[np.ndarray] | None:
    """The options that may still beat the incumbent: for option c of part k, a lower bound on
    every joint choice that takes it is U_k[c] + Σ_l min_d(T_kl[c, d] + u_l[d] − ½·H_lk[d]) (the
    search's bound one part deep, see _Search). Options whose bound cannot beat the incumbent by
    1 are dropped (the incumbent's own are kept). None when nothing is dropped."""
    n = len(unary)
    full = dict(table)
    for (k, m), t in table.items():
        full[m, k] = t.T
    low = {km: t.min(axis=1) for km, t in full.items()}
    u = [unary[l] + 0.5 * sum((low[l, m] for m in range(n) if (l, m) in low), 0.0) for l in range(n)]
    lows = [float(x.min()) for x in u]
    keep, dropped = [], False
    for k in range(n):
        bound = unary[k] + (sum(lows) - lows[k])
        near = [l for l in range(n) if (k, l) in full]
        if near and len(unary[k]) > MANY_OPTIONS:  # table by table: each reduced along its stored order
            for l in near:
                bound = bound + ((full[k, l] + (u[l] - 0.5 * low[l, k])[None, :]).min(axis=1) - lows[l])
        elif near:  # all of k's tables side by side: one addition, one segmented minimum
            joined = np.hstack([full[k, l] for l in near]) + np.concatenate([u[l] - 0.5 * low[l, k] for l in near])
            starts = np.cumsum([0] + [len(u[l]) for l in near])[:-1]
            bound = bound + (np.minimum.reduceat(joined, starts, axis=1).sum(axis=1) - sum(lows[l] for l in near))
        mask = bound < best_value - 1 + 1e-6
        mask[best[k]] = True
        dropped = dropped or not mask.all()
        keep.append(np.flatnonzero(mask))
    return keep if dropped else None


def _solve(unary, table, best: list[int], best_value: float, budget) -> tuple[list[int], bool]:
    beliefs, residual = _mplp(unary, table, best_value, budget)
    if budget.exhausted:
        return best, False
    # Decoding the moved values can beat the incumbent; then the bound may already prove it.
    decoded = _descend(unary, table, [int(np.argmin(b)) for b in beliefs], budget)
    if _value(unary, table, decoded) < best_value:
        best, best_value = decoded, _value(unary, table, decoded)
    if _proves(sum(b.min() for b in beliefs), best_value):
        return best, True
    search = _Search(beliefs, residual, best, best_value, budget)
    search.run()
    return search.best, not budget.exhausted


def _proves(bound: float, value: float) -> bool:
    return bound > value - 1 + 1e-6  # totals are integers


def _value(unary, table, choice: list[int]) -> float:
    return float(sum(u[c] for u, c in zip(unary, choice))
                 + sum(t[choice[k], choice[m]] for (k, m), t in table.items()))


def _descend(unary, table, choice: list[int], budget) -> list[int]:
    """Coordinate descent: each part in turn takes its best option given the others'."""
    choice = list(choice)
    # Each part's tables, oriented with its own options along the rows (a view: no copy).
    tables_of: list[list] = [[] for _ in unary]
    for (a, m), t in table.items():
        tables_of[a].append((m, t))
        tables_of[m].append((a, t.T))
    improved = True
    sweep = numpy_work(sum(sum(t.shape) for t in table.values()), 2 * len(table) + 3 * len(unary))
    while improved and not budget.spend(sweep):
        improved = False
        for k in range(len(unary)):
            scores = unary[k].copy()
            for m, t in tables_of[k]:
                scores += t[:, choice[m]]
            c = int(np.argmin(scores))
            if scores[c] < scores[choice[k]]:
                choice[k], improved = c, True
    return choice


def _mplp(unary, table, incumbent: float, budget):
    """MPLP sweeps until the bound proves the incumbent, stops rising, or time runs out. Returns
    each part's moved vector (U_k plus its messages) and the moved tables (all >= 0 once every
    table has been visited), which together give every joint choice its original total."""
    beliefs = [u.copy() for u in unary]
    message = {}  # (k, m): what the table (k, m) has moved to part k
    for k, m in table:
        message[k, m] = np.zeros(len(unary[k]))
        message[m, k] = np.zeros(len(unary[m]))
    bound = -np.inf
    for _ in range(MAX_SWEEPS):
        for (k, m), t in table.items():
            if budget.spend(numpy_work(4 * t.size, 10)):
                return beliefs, None
            a = beliefs[k] - message[k, m]
            c = beliefs[m] - message[m, k]
            to_m = 0.5 * ((t + a[:, None]).min(axis=0) - c)
            to_k = 0.5 * ((t + c[None, :]).min(axis=1) - a)
            message[k, m], message[m, k] = to_k, to_m
            beliefs[k], beliefs[m] = a + to_k, c + to_m
        new_bound = float(sum(b.min() for b in beliefs))
        if _proves(new_bound, incumbent) or new_bound < bound + 1e-3:
            break
        bound = new_bound
    residual = {(k, m): t - message[k, m][:, None] - message[m, k][None, :] for (k, m), t in table.items()}
    return beliefs, residual


class _Search:
    """Depth-first branch and bound over parts on the moved values (tables >= 0)."""

    def __init__(self, unary, table, best: list[int], best_value: float, budget):
        self.unary, self.budget = unary, budget
        self.table = dict(table)
        for (k, m), t in table.items():
            self.table[m, k] = t.T
        self.low = {km: t.min(axis=1) for km, t in self.table.items()}  # least interaction per option
        n = len(unary)
        self.neighbours = [[m for m in range(n) if (k, m) in self.table] for k in range(n)]
        # Parts whose choice matters most first: the spread of their values and interactions.
        impact = [np.ptp(unary[k]) + sum(np.ptp(self.low[k, m]) for m in self.neighbours[k]) for k in range(n)]
        self.order = sorted(range(n), key=lambda k: (-impact[k], k))
        self.best, self.best_value = list(best), best_value
        self.choice = [0] * n

    def run(self) -> None:
        u = {l: self.unary[l] + 0.5 * sum((self.low[l, m] for m in self.neighbours[l]), 0.0) for l in self.order}
        self._visit(0, 0.0, u, set(range(len(self.order))))

    def _visit(self, depth: int, cost: float, u: dict, open_parts: set) -> None:
        table, low = self.table, self.low
        k = self.order[depth]
        open_parts = open_parts - {k}
        near = [l for l in self.neighbours[k] if l in open_parts]
        if self.budget.spend(numpy_work(2 * sum(table[k, l].size for l in near) + 2 * len(u[k]),
                                        3 * len(near) + len(open_parts) + 4)):
            return
        # Choosing c for k costs exactly base[c] more; each open neighbour l then needs at least
        # min(u_l − ½·low_lk + T_kl[c, :]); open parts apart from k keep their min(u_l).
        base = u[k] - 0.5 * sum((low[k, l] for l in near), 0.0)
        shifted = {l: u[l] - 0.5 * low[l, k] for l in near}
        bound = cost + base + sum(float(u[l].min()) for l in open_parts if l not in shifted)
        for l in near:
            bound = bound + (table[k, l] + shifted[l][None, :]).min(axis=1)
        for c in np.argsort(bound, kind="stable"):
            if not bound[c] < self.best_value - 1 + 1e-6:  # integer totals: must beat by 1
                break
            self.choice[k] = int(c)
            if not open_parts:
                self.best, self.best_value = list(self.choice), float(round(bound[c]))
                continue
            child = dict(u)
            for l in near:
                child[l] = shifted[l] + table[k, l][c]
            self._visit(depth + 1, cost + float(base[c]), child, open_parts)
            if self.budget.exhausted:
                return
