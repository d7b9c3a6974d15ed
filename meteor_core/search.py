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
* With a single component left that needs a choice (K(a, b), a != b), a dynamic program over
  the monotone pairings is exact in O(a*b).

Anything else goes to a depth-first branch and bound with a node and time budget; when the
budget runs out the best alignment found is returned and marked as not proven optimal.
"""
from __future__ import annotations

import time
from bisect import bisect_right, insort
from dataclasses import dataclass, field
from itertools import combinations
from math import comb, prod

Pair = tuple[int, int]


@dataclass
class Budget:
    """Search limits for one segment; ``exhausted`` records whether any stage hit them."""

    max_nodes: int = 5_000
    deadline: float = field(default_factory=lambda: time.perf_counter() + 0.5)
    exhausted: bool = False

    @classmethod
    def for_seconds(cls, seconds: float, max_nodes: int = 5_000) -> "Budget":
        return cls(max_nodes=max_nodes, deadline=time.perf_counter() + seconds)


def count_crossings(pairs) -> int:
    """Pairs (i, j), (k, l) with i < k and j > l: inversions of the ref order."""
    return inversions([j for _, j in sorted(pairs)])


def inversions(values) -> int:
    """How many earlier values are greater than a later one."""
    seen: list = []
    total = 0
    for v in values:
        k = bisect_right(seen, v)
        total += len(seen) - k
        seen.insert(k, v)
    return total


def crossing_counter(fixed: list[Pair]):
    """cost(i, j): how many ``fixed`` pairs the pair (i, j) would cross.

    (i, j) is free, so no fixed pair shares its i or j: with L(i) the fixed pairs left of i,
    crossings = |L(i)| + #(fixed y < j) - 2·#(L(i) with y < j), two bisections per query."""
    by_x = sorted(fixed)
    xs = [x for x, _ in by_x]
    ys_by_x = [y for _, y in by_x]
    all_ys = sorted(ys_by_x)
    lefts: dict[int, list] = {}

    def cost(i: int, j: int) -> int:
        left = lefts.get(i)
        if left is None:
            left = lefts[i] = sorted(ys_by_x[: bisect_right(xs, i)])
        return len(left) + bisect_right(all_ys, j) - 2 * bisect_right(left, j)

    return cost


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


def classes_by_key(hyp_positions, hyp_keys, ref_positions, ref_keys) -> list[tuple[list[int], list[int]]]:
    """For stages whose relation is equality of a key (word, stem): each key shared by both
    sides is a complete bipartite component, found by grouping. Positions come in increasing
    order with their keys alongside; so do the lists returned."""
    refs_by_key: dict[str, list[int]] = {}
    for j, key in zip(ref_positions, ref_keys):
        if key in refs_by_key:
            refs_by_key[key].append(j)
        else:
            refs_by_key[key] = [j]
    hyps_by_key: dict[str, list[int]] = {}
    for i, key in zip(hyp_positions, hyp_keys):
        if key in refs_by_key:
            if key in hyps_by_key:
                hyps_by_key[key].append(i)
            else:
                hyps_by_key[key] = [i]
    return [(hs, refs_by_key[key]) for key, hs in hyps_by_key.items()]


def solve_classes(classes: list[tuple[list[int], list[int]]], fixed: list[Pair], budget: Budget) -> tuple[list[Pair], bool]:
    """A stage whose components are all complete bipartite (exact, stem)."""
    forced: list[Pair] = []
    open_parts = []
    for hyps, refs in classes:
        if len(hyps) == len(refs):
            forced.extend(zip(hyps, refs))
        else:
            open_parts.append((hyps, refs, min(len(hyps), len(refs)), True))
    if not open_parts:
        return forced, True
    chosen, proven = _solve_open(open_parts, fixed + forced, budget)
    return forced + chosen, proven


def solve_stage(cands: dict[int, list[int]], fixed: list[Pair], budget: Budget) -> tuple[list[Pair], bool]:
    """Best new pairs for one stage with any candidate graph, and whether proven optimal."""
    cands = {i: sorted(js) for i, js in cands.items() if js}
    if not cands:
        return [], True
    forced: list[Pair] = []
    open_parts: list[tuple[list[int], list[int], int, bool]] = []  # hyps, refs, need, complete
    for hyps, refs in _components(cands):
        complete = all(len(cands[i]) == len(refs) for i in hyps)
        if complete and len(hyps) == len(refs):
            forced.extend(zip(hyps, refs))
        elif complete:
            open_parts.append((hyps, refs, min(len(hyps), len(refs)), True))
        else:
            sub = {i: cands[i] for i in hyps}
            open_parts.append((hyps, refs, len(max_matching(sub)), False))
    chosen, proven = _solve_open(open_parts, fixed + forced, budget, cands)
    return forced + chosen, proven


def _solve_open(parts, fixed: list[Pair], budget: Budget, cands=None) -> tuple[list[Pair], bool]:
    """Choose the pairs of the components that need a choice."""
    if not parts:
        return [], True
    if all(complete for *_, complete in parts):
        # Each part alone, against the fixed pairs only, is exact by DP. Pairs inside a part
        # never cross, so the total is the sum of those costs (a lower bound, the "floor")
        # plus the crossings between parts; none of those means optimal.
        crossing = crossing_counter(fixed)
        solutions = [_monotone_dp(hyps, refs, crossing) for hyps, refs, _, _ in parts]
        floor = sum(cost for _, cost in solutions)
        current = [pairs for pairs, _ in solutions]
        between = count_crossings([p for pairs in current for p in pairs])
        if between == 0:
            return [p for pairs in current for p in pairs], True
        best_cost = floor + between
        # Coordinate descent: re-solve each part against the fixed pairs and the other parts.
        for _ in range(4):
            improved = False
            for k, (hyps, refs, _, _) in enumerate(parts):
                if time.perf_counter() > budget.deadline:
                    break
                others = [p for m, pairs in enumerate(current) if m != k for p in pairs]
                pairs, _ = _monotone_dp(hyps, refs, _plus(crossing, others))
                trial = current[:k] + [pairs] + current[k + 1:]
                new = [p for ps in trial for p in ps]
                cost = sum(crossing(i, j) for i, j in new) + count_crossings(new)
                if cost < best_cost:
                    current, best_cost, improved = trial, cost, True
            if not improved or best_cost == floor:
                break
        best = [p for pairs in current for p in pairs]
        if best_cost == floor:
            return best, True
        exact = _search_part_choices(parts, crossing, best, best_cost)
        if exact is not None:
            return exact, True
        cands = {i: list(refs) for hyps, refs, _, _ in parts for i in hyps}
    else:
        cands = {i: cands[i] for hyps, _, _, _ in parts for i in hyps}
        # Any maximum matching is a valid incumbent: the search can then stop at its budget.
        best = sorted(max_matching(cands).items())
        crossing = crossing_counter(fixed)
        best_cost = sum(crossing(i, j) for i, j in best) + count_crossings(best)
    if sum(len(hyps) for hyps, _, _, _ in parts) > MAX_SEARCH_TOKENS or time.perf_counter() > budget.deadline:
        budget.exhausted = True
        return best, False
    return _BranchAndBound(cands, parts, fixed, budget, best, best_cost).run()


# The branch and bound recurses once per open token; beyond this many it is not tried at all
# (the incumbent stands, marked not proven).
MAX_SEARCH_TOKENS = 400

# Above this many monotone choices per part, or combinations over all parts, the part-level
# search gives way to the token-level branch and bound (which has a node budget).
MAX_PART_CHOICES = 64
MAX_COMBINATIONS = 20_000


def _search_part_choices(parts, crossing, incumbent: list[Pair], incumbent_cost: int) -> list[Pair] | None:
    """Exact search over whole-part choices for complete parts (K(a, b): C(max, min) monotone
    pairings each). Depth-first over parts with cost = crossings with the fixed pairs +
    crossings between the parts chosen so far, bounded below by each remaining part's cheapest
    choice. Returns the optimum (the incumbent if nothing beats it), or None when the choice
    space is too large to enumerate."""
    sizes = [comb(max(len(h), len(r)), min(len(h), len(r))) for h, r, _, _ in parts]
    if max(sizes) > MAX_PART_CHOICES or prod(sizes) > MAX_COMBINATIONS:
        return None
    choices = []  # per part: [(cost against fixed, pairs)], cheapest first
    for hyps, refs, _, _ in parts:
        if len(hyps) >= len(refs):
            options = [list(zip(pick, refs)) for pick in combinations(hyps, len(refs))]
        else:
            options = [list(zip(hyps, pick)) for pick in combinations(refs, len(hyps))]
        choices.append(sorted((sum(crossing(i, j) for i, j in pairs), pairs) for pairs in options))
    order = sorted(range(len(parts)), key=lambda p: len(choices[p]))
    choices = [choices[p] for p in order]
    rest = [0] * (len(choices) + 1)  # rest[d]: least fixed cost of parts d, d+1, ...
    for d in range(len(choices) - 1, -1, -1):
        rest[d] = rest[d + 1] + choices[d][0][0]
    best_cost, best = incumbent_cost, incumbent
    picked: list[list[Pair]] = []

    def between(pairs):
        return sum(1 for earlier in picked for x, y in earlier for i, j in pairs if (x < i) != (y < j))

    def visit(d: int, cost: int) -> None:
        nonlocal best_cost, best
        if d == len(choices):
            if cost < best_cost:
                best_cost, best = cost, [p for pairs in picked for p in pairs]
            return
        for fixed_cost, pairs in choices[d]:
            if cost + fixed_cost + rest[d + 1] >= best_cost:
                break  # choices are sorted by fixed cost: the rest cannot do better
            total = cost + fixed_cost + between(pairs)
            if total + rest[d + 1] < best_cost:
                picked.append(pairs)
                visit(d + 1, total)
                picked.pop()

    visit(0, 0)
    return sorted(best)


def _plus(crossing, others: list[Pair]):
    """A cost function that also counts crossings with ``others``."""
    def cost(i, j):
        return crossing(i, j) + sum(1 for x, y in others if (x < i) != (y < j))
    return cost


def _monotone_dp(hyps: list[int], refs: list[int], crossing) -> tuple[list[Pair], int]:
    """Exact for K(a, b): the min(a, b) in-order pairs of least total ``crossing(i, j)``."""
    if len(refs) == 1:  # the common shapes first: one copy on one side, choose its partner
        j = refs[0]
        cost, i = min((crossing(i, j), i) for i in hyps)
        return [(i, j)], cost
    if len(hyps) == 1:
        i = hyps[0]
        cost, j = min((crossing(i, j), j) for j in refs)
        return [(i, j)], cost
    swap = len(hyps) < len(refs)
    long, short = (refs, hyps) if swap else (hyps, refs)

    def cost(p, q):
        return crossing(short[q], long[p]) if swap else crossing(long[p], short[q])

    inf = float("inf")
    n, k = len(long), len(short)
    # best[p][q]: least cost placing the first q short tokens among the first p long ones.
    best = [[0] + [inf] * k for _ in range(n + 1)]
    for p in range(1, n + 1):
        row, prev = best[p], best[p - 1]
        for q in range(max(1, k - (n - p)), min(p, k) + 1):
            take = prev[q - 1] + cost(p - 1, q - 1)
            row[q] = take if take < prev[q] else prev[q]
    pairs, p, q = [], n, k
    total = best[n][k]
    while q > 0:
        if best[p][q] == best[p - 1][q]:
            p -= 1
        else:
            pairs.append((short[q - 1], long[p - 1]) if swap else (long[p - 1], short[q - 1]))
            p, q = p - 1, q - 1
    return sorted(pairs), int(total)


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
        crossing = crossing_counter(fixed)
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
