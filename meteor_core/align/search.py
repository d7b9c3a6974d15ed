"""One alignment stage, solved exactly: most mappings first, then fewest crossings.

The candidate pairs of a stage form a bipartite graph between still-unmatched hypothesis
and reference tokens. Its maximum matching size is fixed per connected component, so the
work is to choose, among maximum matchings, one that crosses the fewest lines (counting
crossings with the pairs earlier stages fixed, too). Three facts keep this cheap:

* Uncrossing two pairs whose hypothesis words have the same candidates never adds crossings
  with any other pair (for a third pair, crossings = A + B - 2t and sorting maximises t).
  So tokens with identical candidate lists are matched in order ("monotone").
* A component that is a complete bipartite graph K(a, a) (a word appearing a times on both
  sides, say) is therefore solved outright: all tokens, paired in order.
* A component that needs a choice (K(a, b), a != b) is solved alone against the fixed pairs:
  in closed form for one or two copies on a side, by a dynamic program over the monotone
  pairings otherwise (O(a*b)). If those choices do not cross one another, together they are
  optimal. Otherwise the components that can cross each other are grouped, and each group is
  searched exactly over whole-component choices.

Anything else goes to a depth-first branch and bound with a node and time budget; when the
budget runs out the best alignment found is returned and marked as not proven optimal.
"""
from __future__ import annotations

import time
from bisect import bisect_right, insort
from itertools import combinations
from math import comb, prod
from operator import itemgetter

Pair = tuple[int, int]
Part = tuple[list[int], list[int]]  # a complete bipartite component: hyps x refs
_first = itemgetter(0)


class Budget:
    """Search limits for one segment; ``exhausted`` records whether any stage hit them."""

    __slots__ = ("max_nodes", "deadline", "exhausted")

    def __init__(self, max_nodes: int = 5_000, deadline: float | None = None, exhausted: bool = False):
        self.max_nodes = max_nodes
        self.deadline = time.perf_counter() + 0.5 if deadline is None else deadline
        self.exhausted = exhausted

    @classmethod
    def for_seconds(cls, seconds: float, max_nodes: int = 5_000) -> "Budget":
        return cls(max_nodes, time.perf_counter() + seconds)


def count_crossings(pairs) -> int:
    """Pairs (i, j), (k, l) with i < k and j > l: inversions of the ref order."""
    return inversions([j for _, j in sorted(pairs)])


def inversions(values: list, weights: list[int] | None = None) -> int:
    """How many earlier values are greater than a later one; with weights, the sum of
    w_a·w_b over those pairs a < b."""
    if values == sorted(values):  # the usual case: nothing out of order
        return 0
    weights = weights or [1] * len(values)
    seen: list = []  # values so far, sorted, with their weights alongside
    seen_weights: list[int] = []
    total = 0
    for v, w in zip(values, weights):
        k = bisect_right(seen, v)
        if k < len(seen):
            total += w * sum(seen_weights[k:])
        seen.insert(k, v)
        seen_weights.insert(k, w)
    return total


class CrossingCost:
    """cost(i, j): how many ``fixed`` pairs the free pair (i, j) would cross; ``row`` and
    ``col`` give the costs of one hypothesis token against several reference tokens and back.

    (i, j) is free, so no fixed pair shares its i or j. With L(i) the fixed pairs left of i,
    crossings = |L(i)| + #(fixed y < j) - 2·#(L(i) with y < j). When the fixed pairs do not
    cross each other (the usual case) L(i) is a prefix of them in both orders, and this is
    |#(fixed x < i) - #(fixed y < j)|: two bisections."""

    __slots__ = ("xs", "ys_by_x", "ys", "monotone", "_lefts", "_belows")

    def __init__(self, fixed: list[Pair]):
        # No two fixed pairs share an x: sorting by x alone is enough, and cheaper.
        self.xs, self.ys_by_x = zip(*sorted(fixed, key=_first)) if fixed else ((), ())
        self.ys = sorted(self.ys_by_x)
        self.monotone = tuple(self.ys) == self.ys_by_x
        self._lefts: dict[int, list] = {}  # i -> sorted ys of L(i) (when not monotone)
        self._belows: dict[int, list] = {}  # j -> sorted xs of the fixed pairs below j

    def __call__(self, i: int, j: int) -> int:
        k, b = bisect_right(self.xs, i), bisect_right(self.ys, j)
        if self.monotone:
            return k - b if k > b else b - k
        return k + b - 2 * bisect_right(self._left(i, k), j)

    def row(self, i: int, js: list[int]) -> list[int]:
        k, ys = bisect_right(self.xs, i), self.ys
        if self.monotone:
            return [abs(k - bisect_right(ys, j)) for j in js]
        left = self._left(i, k)
        return [k + bisect_right(ys, j) - 2 * bisect_right(left, j) for j in js]

    def col(self, j: int, is_: list[int]) -> list[int]:
        b, xs = bisect_right(self.ys, j), self.xs
        if self.monotone:
            return [abs(bisect_right(xs, i) - b) for i in is_]
        below = self._belows.get(j)
        if below is None:
            below = self._belows[j] = sorted(x for x, y in zip(self.xs, self.ys_by_x) if y < j)
        return [bisect_right(xs, i) + b - 2 * bisect_right(below, i) for i in is_]

    def _left(self, i: int, k: int) -> list:
        left = self._lefts.get(i)
        if left is None:
            left = self._lefts[i] = sorted(self.ys_by_x[:k])
        return left


def _components(cands: dict[int, list[int]]) -> list[tuple[list[int], list[int]]]:
    """Connected components of the candidate graph as (sorted hyps, sorted refs)."""
    parent: dict = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, js in cands.items():
        for j in js:
            parent[find(("h", i))] = find(("r", j))
    groups: dict = {}
    for i in cands:
        groups.setdefault(find(("h", i)), ([], set()))[0].append(i)
    for i, js in cands.items():
        groups[find(("h", i))][1].update(js)
    return [(sorted(h), sorted(r)) for h, r in groups.values()]


def max_matching(cands: dict[int, list[int]]) -> dict[int, int]:
    """Maximum bipartite matching hyp -> ref by augmenting paths (graphs here are small)."""
    match_ref: dict[int, int] = {}

    def augment(i, seen):
        for j in cands[i]:
            if j not in seen:
                seen.add(j)
                if j not in match_ref or augment(match_ref[j], seen):
                    match_ref[j] = i
                    return True
        return False

    for i in sorted(cands):
        augment(i, set())
    return {i: j for j, i in match_ref.items()}


def split_classes(hyp_positions, hyp_keys, ref_positions, ref_keys) -> tuple[list[Pair], list[Part]]:
    """For stages whose relation is equality of a key (word, stem): each key shared by both
    sides is a complete bipartite component K(a, b). Those with a == b are solved outright
    (their tokens paired in order, see the module docstring) and returned as pairs; the
    others are returned as (hyps, refs) to choose from. Positions come in increasing order
    with their keys alongside; so do the lists returned."""
    # Most keys occur once on each side: keep first positions in plain dicts and build lists
    # only for keys that repeat.
    first_ref: dict[str, int] = {}
    more_refs: dict[str, list[int]] = {}
    for j, key in zip(ref_positions, ref_keys):
        if key not in first_ref:
            first_ref[key] = j
        elif key in more_refs:
            more_refs[key].append(j)
        else:
            more_refs[key] = [first_ref[key], j]
    first_hyp: dict[str, int] = {}
    more_hyps: dict[str, list[int]] = {}
    for i, key in zip(hyp_positions, hyp_keys):
        if key in first_ref:
            if key not in first_hyp:
                first_hyp[key] = i
            elif key in more_hyps:
                more_hyps[key].append(i)
            else:
                more_hyps[key] = [first_hyp[key], i]
    if not more_hyps and not more_refs:
        return [(i, first_ref[key]) for key, i in first_hyp.items()], []
    forced: list[Pair] = []
    open_classes: list[Part] = []
    for key, i in first_hyp.items():
        hyps, refs = more_hyps.get(key), more_refs.get(key)
        if hyps is None and refs is None:
            forced.append((i, first_ref[key]))
            continue
        hyps, refs = hyps or [i], refs or [first_ref[key]]
        if len(hyps) == len(refs):
            forced.extend(zip(hyps, refs))
        else:
            open_classes.append((hyps, refs))
    return forced, open_classes


def solve_classes(forced: list[Pair], open_classes: list[Part], fixed: list[Pair], budget: Budget) -> tuple[list[Pair], bool]:
    """A stage whose components are all complete bipartite (exact, stem), from split_classes."""
    if not open_classes:
        return forced, True
    chosen, proven = _solve_complete(open_classes, fixed + forced, budget)
    return forced + chosen, proven


def solve_stage(cands: dict[int, list[int]], fixed: list[Pair], budget: Budget) -> tuple[list[Pair], bool]:
    """Best new pairs for one stage with any candidate graph, and whether proven optimal."""
    cands = {i: sorted(js) for i, js in cands.items() if js}
    if not cands:
        return [], True
    if all(len(js) == 1 for js in cands.values()):
        # The usual shape: every word has one candidate. Distinct ones need no choice at all.
        pairs = [(i, js[0]) for i, js in cands.items()]
        if len({j for _, j in pairs}) == len(pairs):
            return pairs, True
    forced: list[Pair] = []
    complete: list[Part] = []
    general: list[Part] = []
    for hyps, refs in _components(cands):
        if any(len(cands[i]) != len(refs) for i in hyps):
            general.append((hyps, refs))
        elif len(hyps) == len(refs):
            forced.extend(zip(hyps, refs))
        else:
            complete.append((hyps, refs))
    if general:
        chosen, proven = _solve_mixed(complete, general, cands, fixed + forced, budget)
    elif complete:
        chosen, proven = _solve_complete(complete, fixed + forced, budget)
    else:
        chosen, proven = [], True
    return forced + chosen, proven


def _solve_complete(parts: list[Part], fixed: list[Pair], budget: Budget) -> tuple[list[Pair], bool]:
    """Choose the pairs of complete parts K(a, b), a != b: min(a, b) in-order pairs each."""
    crossing = CrossingCost(fixed)
    # Pairs inside a part never cross, so each part's cheapest choice against the fixed pairs
    # gives a lower bound (the "floor"); no crossings between those choices means optimal.
    cheapest = [_cheapest(hyps, refs, crossing) for hyps, refs in parts]
    chosen = [p for _, pairs in cheapest for p in pairs]
    if len(parts) == 1 or count_crossings(chosen) == 0:
        return chosen, True
    # Otherwise only parts that can cross each other need a joint choice: solve each such group.
    chosen, proven = [], True
    for group in _interacting_groups(parts):
        if len(group) == 1:
            chosen += cheapest[group[0]][1]
        else:
            pairs, ok = _solve_group([parts[k] for k in group], [cheapest[k] for k in group], crossing, fixed, budget)
            chosen += pairs
            proven = proven and ok
    return chosen, proven


def _interacting_groups(parts: list[Part]) -> list[list[int]]:
    """Parts (by index) grouped so that no pair of one group can cross a pair of another: two
    parts are apart when one lies before the other in both sentences."""
    if len(parts) > 200:  # the pairwise test is quadratic; one group is always correct
        return [list(range(len(parts)))]
    boxes = [(hyps[0], hyps[-1], refs[0], refs[-1]) for hyps, refs in parts]
    group_of = list(range(len(parts)))

    def find(k):
        while group_of[k] != k:
            group_of[k] = group_of[group_of[k]]
            k = group_of[k]
        return k

    for a, (h0, h1, r0, r1) in enumerate(boxes):
        for b in range(a + 1, len(boxes)):
            g0, g1, s0, s1 = boxes[b]
            if not ((h1 < g0 and r1 < s0) or (g1 < h0 and s1 < r0)):
                group_of[find(a)] = find(b)
    groups: dict[int, list[int]] = {}
    for k in range(len(parts)):
        groups.setdefault(find(k), []).append(k)
    return list(groups.values())


def _solve_group(parts: list[Part], cheapest, crossing: "CrossingCost", fixed: list[Pair],
                 budget: Budget) -> tuple[list[Pair], bool]:
    """Complete parts that may cross each other (no pair of them crosses a part outside)."""
    chosen = [p for _, pairs in cheapest for p in pairs]
    between = count_crossings(chosen)
    if between == 0:
        return chosen, True
    floor = sum(cost for cost, _ in cheapest)
    options = [_part_options(hyps, refs, crossing) for hyps, refs in parts]
    if None not in options and prod(map(len, options)) <= MAX_COMBINATIONS:
        return _search_part_choices(options, chosen, floor + between), True
    # Large parts: coordinate descent (re-solve each part against the fixed pairs and the
    # others' current choices), then the token-level branch and bound from the best found.
    current = [pairs for _, pairs in cheapest]
    best_cost = floor + between
    for _ in range(4):
        improved = False
        for k, (hyps, refs) in enumerate(parts):
            if time.perf_counter() > budget.deadline:
                break
            others = [p for m, pairs in enumerate(current) if m != k for p in pairs]
            _, pairs = _cheapest(hyps, refs, _WithOthers(crossing, others))
            trial = current[:k] + [pairs] + current[k + 1:]
            new = [p for ps in trial for p in ps]
            cost = _added_crossings(new, crossing)
            if cost < best_cost:
                current, best_cost, improved = trial, cost, True
        if not improved or best_cost == floor:
            break
    best = [p for pairs in current for p in pairs]
    if best_cost == floor:
        return best, True
    cands = {i: refs for hyps, refs in parts for i in hyps}
    open_parts = [(hyps, refs, min(len(hyps), len(refs)), True) for hyps, refs in parts]
    return _branch_and_bound(cands, open_parts, fixed, budget, best, best_cost)


def _solve_mixed(complete: list[Part], general: list[Part], cands, fixed: list[Pair], budget: Budget) -> tuple[list[Pair], bool]:
    """Some components are not complete bipartite: branch and bound over all open parts,
    starting from any maximum matching (a valid incumbent, so the search can stop at its
    budget)."""
    open_parts = [(hyps, refs, min(len(hyps), len(refs)), True) for hyps, refs in complete]
    open_parts += [(hyps, refs, len(max_matching({i: cands[i] for i in hyps})), False) for hyps, refs in general]
    cands = {i: cands[i] for hyps, _, _, _ in open_parts for i in hyps}
    best = sorted(max_matching(cands).items())
    crossing = CrossingCost(fixed)
    best_cost = _added_crossings(best, crossing)
    return _branch_and_bound(cands, open_parts, fixed, budget, best, best_cost)


def _added_crossings(pairs: list[Pair], crossing: CrossingCost) -> int:
    """What a stage's new pairs cost: their crossings with the fixed pairs and among themselves."""
    return sum(crossing(i, j) for i, j in pairs) + count_crossings(pairs)


def _branch_and_bound(cands, parts, fixed, budget: Budget, best: list[Pair], best_cost: int) -> tuple[list[Pair], bool]:
    if sum(len(hyps) for hyps, _, _, _ in parts) > MAX_SEARCH_TOKENS or time.perf_counter() > budget.deadline:
        budget.exhausted = True
        return best, False
    return _BranchAndBound(cands, parts, fixed, budget, best, best_cost).run()


def _cheapest(hyps: list[int], refs: list[int], crossing) -> tuple[int, list[Pair]]:
    """A part's least-crossing monotone pairing, and its cost; ``crossing`` gives costs a row
    or a column at a time (a CrossingCost, or _WithOthers during coordinate descent)."""
    if len(hyps) == 1:  # the common shapes: one copy on one side, choose its partner
        costs = crossing.row(hyps[0], refs)
        cost = min(costs)
        return cost, [(hyps[0], refs[costs.index(cost)])]
    if len(refs) == 1:
        costs = crossing.col(refs[0], hyps)
        cost = min(costs)
        return cost, [(hyps[costs.index(cost)], refs[0])]
    if len(hyps) == 2:  # two copies on one side (the next most common): p < q, in one pass
        p, q, cost = _cheapest_two(crossing.row(hyps[0], refs), crossing.row(hyps[1], refs))
        return cost, [(hyps[0], refs[p]), (hyps[1], refs[q])]
    if len(refs) == 2:
        p, q, cost = _cheapest_two(crossing.col(refs[0], hyps), crossing.col(refs[1], hyps))
        return cost, [(hyps[p], refs[0]), (hyps[q], refs[1])]
    return _monotone_dp(hyps, refs, [crossing.row(i, refs) for i in hyps])


def _cheapest_two(first: list[int], second: list[int]) -> tuple[int, int, int]:
    """The p < q of least first[p] + second[q], and that sum (ties: the earliest q, then p)."""
    best_p, best_q, best = 0, 1, first[0] + second[1]
    low_p, low = 0, first[0]  # the cheapest first[p] with p < q
    for q in range(2, len(second)):
        if first[q - 1] < low:
            low_p, low = q - 1, first[q - 1]
        if low + second[q] < best:
            best_p, best_q, best = low_p, q, low + second[q]
    return best_p, best_q, best


# The branch and bound recurses once per open token; beyond this many it is not tried at all
# (the incumbent stands, marked not proven).
MAX_SEARCH_TOKENS = 400

# Above this many monotone choices per part, or combinations over all parts, the part-level
# search gives way to the token-level branch and bound (which has a node budget).
MAX_PART_CHOICES = 64
MAX_COMBINATIONS = 20_000


def _part_options(hyps: list[int], refs: list[int], crossing) -> list[tuple[int, list[Pair]]] | None:
    """Every monotone pairing of a complete part K(a, b) (C(max, min) of them) with its
    crossings against the fixed pairs, cheapest first (ties: in position order); None when
    there are more than MAX_PART_CHOICES."""
    if len(hyps) == 1:  # the common shapes: one copy on one side, choose its partner
        i = hyps[0]
        options = [(cost, [(i, j)]) for cost, j in zip(crossing.row(i, refs), refs)]
    elif len(refs) == 1:
        j = refs[0]
        options = [(cost, [(i, j)]) for cost, i in zip(crossing.col(j, hyps), hyps)]
    else:
        if comb(max(len(hyps), len(refs)), min(len(hyps), len(refs))) > MAX_PART_CHOICES:
            return None
        # Costs by index, table[a][b] for (hyps[a], refs[b]); each option picks, in order, one
        # index on the longer side for every token of the shorter one.
        if len(hyps) <= len(refs):
            table = [crossing.row(i, refs) for i in hyps]
            options = [(sum(map(list.__getitem__, table, pick)), list(zip(hyps, map(refs.__getitem__, pick))))
                       for pick in combinations(range(len(refs)), len(hyps))]
        else:
            table = [crossing.col(j, hyps) for j in refs]
            options = [(sum(map(list.__getitem__, table, pick)), list(zip(map(hyps.__getitem__, pick), refs)))
                       for pick in combinations(range(len(hyps)), len(refs))]
    options.sort(key=_first)  # stable: equal costs stay in position order
    return options


def _search_part_choices(choices: list[list[tuple[int, list[Pair]]]], incumbent: list[Pair],
                         incumbent_cost: int) -> list[Pair]:
    """Exact search over whole-part choices (each part's options from _part_options).
    Depth-first over parts with cost = crossings with the fixed pairs + crossings between the
    parts chosen so far, bounded below by each remaining part's cheapest choice. Returns the
    optimum (the incumbent if nothing beats it)."""
    search = _PartSearch(sorted(choices, key=len), incumbent, incumbent_cost)
    search.visit(0, 0)
    return sorted(search.best)


class _PartSearch:
    # A class rather than nested functions: a recursive closure is a reference cycle, which
    # only the garbage collector frees.
    def __init__(self, choices, incumbent: list[Pair], incumbent_cost: int):
        self.choices = choices
        self.rest = [0] * (len(choices) + 1)  # rest[d]: least fixed cost of parts d, d+1, ...
        for d in range(len(choices) - 1, -1, -1):
            self.rest[d] = self.rest[d + 1] + choices[d][0][0]
        self.best_cost, self.best = incumbent_cost, incumbent
        self.picked: list[list[Pair]] = []

    def visit(self, d: int, cost: int) -> None:
        picked, rest = self.picked, self.rest
        if d == len(self.choices):
            if cost < self.best_cost:
                self.best_cost, self.best = cost, [p for pairs in picked for p in pairs]
            return
        for fixed_cost, pairs in self.choices[d]:
            if cost + fixed_cost + rest[d + 1] >= self.best_cost:
                break  # choices are sorted by fixed cost: the rest cannot do better
            between = sum(1 for earlier in picked for x, y in earlier for i, j in pairs if (x < i) != (y < j))
            total = cost + fixed_cost + between
            if total + rest[d + 1] < self.best_cost:
                picked.append(pairs)
                self.visit(d + 1, total)
                picked.pop()


class _WithOthers:
    """Crossings with the fixed pairs plus crossings with ``others`` (pairs of other parts)."""

    def __init__(self, crossing: CrossingCost, others: list[Pair]):
        self.crossing, self.others = crossing, others

    def __call__(self, i: int, j: int) -> int:
        return self.crossing(i, j) + self._with_others(i, j)

    def row(self, i: int, js: list[int]) -> list[int]:
        return [c + self._with_others(i, j) for c, j in zip(self.crossing.row(i, js), js)]

    def col(self, j: int, is_: list[int]) -> list[int]:
        return [c + self._with_others(i, j) for c, i in zip(self.crossing.col(j, is_), is_)]

    def _with_others(self, i: int, j: int) -> int:
        return sum(1 for x, y in self.others if (x < i) != (y < j))


def _monotone_dp(hyps: list[int], refs: list[int], table: list[list[int]]) -> tuple[int, list[Pair]]:
    """Exact for K(a, b): the min(a, b) in-order pairs of least total cost, table[a][b] being
    the cost of (hyps[a], refs[b]); O(a*b)."""
    swap = len(hyps) < len(refs)
    long, short = (refs, hyps) if swap else (hyps, refs)
    if swap:
        table = list(zip(*table))  # rows by the longer side
    inf = float("inf")
    n, k = len(long), len(short)
    # best[p][q]: least cost placing the first q short tokens among the first p long ones.
    best = [[0] + [inf] * k for _ in range(n + 1)]
    for p in range(1, n + 1):
        row, prev, costs = best[p], best[p - 1], table[p - 1]
        for q in range(max(1, k - (n - p)), min(p, k) + 1):
            take = prev[q - 1] + costs[q - 1]
            row[q] = take if take < prev[q] else prev[q]
    pairs, p, q = [], n, k
    total = best[n][k]
    while q > 0:
        if best[p][q] == best[p - 1][q]:
            p -= 1
        else:
            pairs.append((short[q - 1], long[p - 1]) if swap else (long[p - 1], short[q - 1]))
            p, q = p - 1, q - 1
    return int(total), sorted(pairs)


class _BranchAndBound:
    """Depth-first over the open hypothesis tokens in order; each is matched or skipped."""

    def __init__(self, cands, parts, fixed, budget: Budget, incumbent=None, incumbent_cost=float("inf")):
        self.budget = budget
        self.items: list[int] = sorted(i for hyps, _, _, _ in parts for i in hyps)
        self.part_of: dict[int, int] = {}
        self.need = [need for _, _, need, _ in parts]
        self.complete = [c for _, _, _, c in parts]
        self.part_refs = [refs for _, refs, _, _ in parts]
        for p, (hyps, _, _, _) in enumerate(parts):
            for i in hyps:
                self.part_of[i] = p
        # Tokens with identical candidate lists are matched in order (see module docstring).
        self.key_of = {i: tuple(cands[i]) for i in self.items}
        # A complete part has one key; refs before its last pick are then out of reach.
        self.part_key = [tuple(refs) if c else None for (_, refs, _, c) in parts]
        crossing = CrossingCost(fixed)
        self.cost = {(i, j): crossing(i, j) for i in self.items for j in cands[i]}
        self.options = {i: cands[i] for i in self.items}
        # remaining[k][p]: open tokens of part p at positions >= k; lower bounds per suffix.
        self._suffix_bounds(parts)
        self.best_cost = incumbent_cost
        self.best: list[Pair] | None = incumbent
        self.nodes = 0

    def _suffix_bounds(self, parts):
        n = len(self.items)
        self.remaining = [[0] * len(parts) for _ in range(n + 1)]
        mins_by_suffix: list[list[list[int]]] = [[[] for _ in parts] for _ in range(n + 1)]
        for k in range(n - 1, -1, -1):
            i = self.items[k]
            p = self.part_of[i]
            self.remaining[k] = list(self.remaining[k + 1])
            self.remaining[k][p] += 1
            mins_by_suffix[k] = [list(m) for m in mins_by_suffix[k + 1]]
            insort(mins_by_suffix[k][p], min(self.cost[(i, j)] for j in self.options[i]))
        # bound[k][p][r]: least fixed-crossing cost of any r more matches of part p from k on.
        self.bound = []
        for k in range(n + 1):
            row = []
            for mins in mins_by_suffix[k]:
                acc, sums = 0, [0]
                for c in mins:
                    acc += c
                    sums.append(acc)
                row.append(sums)
            self.bound.append(row)

    def run(self) -> tuple[list[Pair], bool]:
        self.used: set[int] = set()
        self.last_by_key: dict[tuple, int] = {}
        self.matched = [0] * len(self.need)
        self.unused_refs = [len(r) for r in self.part_refs]
        self.assigned_refs: list[int] = []
        self.chosen: list[Pair] = []
        self._visit(0, 0)
        proven = not self.budget.exhausted
        if self.best is None:  # budget ran out before any complete alignment: fall back
            self.budget.exhausted, proven = True, False
            self.best = sorted(max_matching(self.options).items())
        return self.best, proven

    def _feasible(self, k: int) -> bool:
        for p, need in enumerate(self.need):
            missing = need - self.matched[p]
            if missing <= 0:
                continue
            if self.part_key[p] is None:
                reachable = self.unused_refs[p]
            else:
                refs = self.part_refs[p]
                reachable = len(refs) - bisect_right(refs, self.last_by_key.get(self.part_key[p], -1))
            if missing > self.remaining[k][p] or missing > reachable:
                return False
        return True

    def _lower_bound(self, k: int, cost: int) -> float:
        total = cost
        for p, need in enumerate(self.need):
            sums = self.bound[k][p]
            missing = need - self.matched[p]
            if missing >= len(sums):
                return float("inf")
            total += sums[missing]
        return total

    def _visit(self, k: int, cost: int) -> None:
        self.nodes += 1
        if self.nodes > self.budget.max_nodes or (
            self.nodes % 512 == 0 and time.perf_counter() > self.budget.deadline
        ):
            self.budget.exhausted = True
        if self.budget.exhausted and self.best is not None:
            return
        if k == len(self.items):
            if all(m == n for m, n in zip(self.matched, self.need)) and cost < self.best_cost:
                self.best_cost, self.best = cost, sorted(self.chosen)
            return
        if self._lower_bound(k, cost) >= self.best_cost:
            return
        i = self.items[k]
        p = self.part_of[i]
        key = self.key_of[i]
        last = self.last_by_key.get(key, -1)
        moves = []
        n_assigned = len(self.assigned_refs)
        for j in self.options[i]:
            if j > last and j not in self.used:
                crossing_now = n_assigned - bisect_right(self.assigned_refs, j)
                moves.append((self.cost[(i, j)] + crossing_now, j))
        moves.sort()
        for extra, j in moves:
            self.used.add(j)
            self.last_by_key[key] = j
            self.matched[p] += 1
            self.unused_refs[p] -= 1
            insort(self.assigned_refs, j)
            self.chosen.append((i, j))
            if self._feasible(k + 1):
                self._visit(k + 1, cost + extra)
            self.chosen.pop()
            self.assigned_refs.remove(j)
            self.unused_refs[p] += 1
            self.matched[p] -= 1
            self.used.discard(j)
            if last < 0:
                del self.last_by_key[key]
            else:
                self.last_by_key[key] = last
        if self._feasible(k + 1):  # leave this token unmatched
            self._visit(k + 1, cost)
