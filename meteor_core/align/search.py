"""One alignment stage, solved exactly: most mappings, then fewest crossings, then fewest chunks.

The candidate pairs of a stage form a bipartite graph between still-unmatched hypothesis and
reference tokens. Its maximum matching size is fixed per connected component ("part"), so the
work is to choose, among maximum matchings, one that crosses the fewest lines (counting
crossings with the pairs earlier stages fixed, too) and, among those, one with the fewest
chunks. A chunk ends wherever the next match is not diagonally next to it, so fewer chunks means
more *links*: pairs (i, j), (i + 1, j + 1) both in the alignment. The objective is therefore one
integer per alignment, W·crossings − links, with W larger than any possible number of links.

Facts that keep this cheap:

* Uncrossing two pairs whose hypothesis words have the same candidates removes a crossing and
  never adds one with any other pair, so in an optimum such tokens are matched in order
  ("monotone"). A part that is a complete bipartite graph K(a, a) (a word appearing a times on
  both sides) is therefore solved outright: all tokens, paired in order.
* A part that needs a choice (K(a, b), a != b, or a synonym part that is not complete) is first
  solved alone against the fixed pairs: in closed form for one or two copies on a side, by a
  dynamic program over the monotone pairings otherwise (O(a·b)). If those choices neither cross
  one another nor could link to one another, together they are optimal.
* Otherwise the parts that can interact (cross or link) are grouped; parts of different groups
  never interact, so each group is solved apart. A group is solved exactly as a pairwise
  problem over whole-part choices: every part's choices (its monotone pairings) with their cost
  against the fixed pairs, and for every two parts a table of what each pair of choices costs
  together (numpy: incidence x pair costs x incidence). A depth-first branch and bound over
  parts, with a bound that looks one part ahead exactly and splits the rest's pairwise minima,
  proves the optimum. A part with more than MAX_PART_OPTIONS pairings (a quote mark 31 times
  against 26) lists only those that may beat an incumbent, by a bound on what each of its
  candidate pairs costs with the other parts (_large_parts_listed).

The search is bounded by work, not time (Budget): every loop spends what it does, and once a
segment's budget is spent, or a cap on memory (MAX_TABLE_ENTRIES, MAX_MATCHINGS, the options
that may win past MAX_PART_OPTIONS) stops a proof, the best alignment found (by coordinate
descent: each part re-solved against all the others) is returned and marked as not proven
optimal, with the budget's ``stopped_by`` saying why. The cut points depend on the input only.
"""
from __future__ import annotations

import math
import time
from bisect import bisect_right
from itertools import chain, combinations
from operator import add, itemgetter
from typing import NamedTuple

from .. import _accel

Pair = tuple[int, int]
_first = itemgetter(0)

# A part with more monotone pairings than this has only those that may win listed
# (_large_parts_listed).
MAX_PART_OPTIONS = 6_000
# A part's options that may win (or, in _best_links, its tied ones) are listed up to this many;
# past it the proof stops (a cap on memory: the result is marked as cut by work).
MAX_LISTED_OPTIONS = 6_000
# The pairwise tables of one group together hold at most this many numbers (8 bytes each).
MAX_TABLE_ENTRIES = 3_000_000
# A non-complete (synonym) part's maximum matchings are enumerated up to this many.
MAX_MATCHINGS = 2_000
# A complete part with at most this many options has them listed (and filtered) at once rather than
# walked by the dynamic program of _complete_options_up_to, whose tables cost more for a few.
FEW_OPTIONS = 32
# Groups whose pairwise tables are at most this large are searched in plain Python (numpy's
# per-call cost outweighs its speed on a few hundred numbers).
SMALL_TABLE_ENTRIES = 2_000


# The work one segment's search may do (all stages and references together), in units of about
# one step of a pure-Python inner loop. Each loop spends what it does: a node of a search, a row
# or cell of a dynamic program, an entry of a table, a path the beam makes, a candidate listed.
# Calibrated with bench/adversarial.py --calibrate: the adversarial cases end within ~0.3 s of
# CPU in pure Python here, and no segment of the shared TED set comes near it.
WORK_LIMIT = 3_000_000
# A last-resort stop on this thread's CPU time, for a loop whose work is under-counted: never
# reached on the adversarial cases (tests/test_bounds.py); a result it cut says stopped_by="time".
SAFETY_SECONDS = 10.0
# The safety clock is read once every this many units (reading it costs more than counting). It
# starts at the first reading: most segments never do this much work, and never read the clock
# (a reading costs up to tens of microseconds on a loaded machine, as much as a short segment's
# whole search).
_CLOCK_EVERY = WORK_LIMIT // 64


class Budget:
    """The search work one segment may do, counted in units (WORK_LIMIT), shared by all its
    stages and references. Loops call ``spend(units)`` with the work done (or about to be done)
    since their last call; it returns True once the budget is used up, and from then on.

    The cut points depend only on the input and the configuration, never on the machine, its
    load or the clock, so a cut result is the same everywhere (compiled or pure, any number of
    jobs). ``stopped_by`` says why a search ended early: None (it did not), "work" (this
    budget, or a size cap that stands for it: see ``cap``), "time" (the safety clock)."""

    __slots__ = ("limit", "used", "exhausted", "stopped_by", "_check_at", "_safety_seconds", "_deadline")

    def __init__(self, limit: int = WORK_LIMIT, safety_seconds: float = SAFETY_SECONDS):
        self.limit = limit
        self.used = 0
        self.exhausted = False
        self.stopped_by: str | None = None
        self._check_at = min(limit, _CLOCK_EVERY)
        self._safety_seconds = safety_seconds
        self._deadline: float | None = None  # set when the safety clock starts

    def spend(self, units: int) -> bool:
        """Count ``units`` of work; True (and remembered) once the budget is used up."""
        self.used += units
        if self.used < self._check_at:
            return False
        return self._check()

    def _check(self) -> bool:
        if self.exhausted:
            return True
        if self.used >= self.limit:
            self._stop("work")
        elif self._deadline is None:
            self._deadline = time.thread_time() + self._safety_seconds
        elif time.thread_time() > self._deadline:
            self._stop("time")
        else:
            self._check_at = min(self.limit, self.used + _CLOCK_EVERY)
        return self.exhausted

    def _stop(self, why: str) -> None:
        self.exhausted = True
        self.stopped_by = why if why == "time" else (self.stopped_by or why)
        self._check_at = -1  # every later spend() answers at once

    def headroom(self) -> int:
        """How many units spend() can count before one call of it checks the budget (and may
        answer True): a compiled loop sums its spending locally up to this, then calls spend()
        with the sum, which leaves every answer and cut point as they would be."""
        return self._check_at - self.used

    def cap(self) -> None:
        """A size cap (memory) stopped one proof: its result is not proven, as if the work budget
        had cut it, but the rest of the segment's search goes on."""
        self.stopped_by = self.stopped_by or "work"

    @property
    def clock_started(self) -> bool:
        """Whether the safety clock runs (time spent on something else must then be given back)."""
        return self._deadline is not None

    def extend(self, seconds: float) -> None:
        """Move the safety clock on by time spent on something else (loading a resource once)."""
        if self._deadline is not None:
            self._deadline += seconds


def count_crossings(pairs) -> int:
    """Pairs (i, j), (k, l) with i < k and j > l: inversions of the ref order."""
    return inversions([j for _, j in sorted(pairs)])


def count_links(pairs) -> int:
    """Pairs (i, j) whose diagonal neighbour (i + 1, j + 1) is a pair too: each one joins two
    matches into one chunk."""
    pairs = set(pairs)
    return sum((i + 1, j + 1) in pairs for i, j in pairs)


def inversions(values: list, weights: list[int] | None = None) -> int:
    """How many earlier values are greater than a later one; with weights, the sum of
    w_a·w_b over those pairs a < b."""
    if values == sorted(values):  # the usual case: nothing out of order
        return 0
    weights = weights or [1] * len(values)
    if len(values) > 64:  # long sentences: a Fenwick tree over value ranks, O(n log n)
        return _inversions_fenwick(values, weights)
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


def _inversions_fenwick(values: list, weights: list[int]) -> int:
    ranks = {v: r for r, v in enumerate(sorted(set(values)), start=1)}
    n = len(ranks)
    tree = [0] * (n + 1)  # weight seen so far at each rank, as prefix sums
    total = seen = 0
    for v, w in zip(values, weights):
        r = ranks[v]
        at_most = 0  # weight seen so far with a rank <= r
        k = r
        while k:
            at_most += tree[k]
            k -= k & -k
        total += w * (seen - at_most)
        seen += w
        while r <= n:
            tree[r] += w
            r += r & -r
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

    def row(self, i: int, js: list[int], scale: int = 1) -> list[int]:
        """The costs of (i, j) for each j in js, times ``scale``."""
        k, ys = bisect_right(self.xs, i), self.ys
        if self.monotone:
            return [scale * abs(k - bisect_right(ys, j)) for j in js]
        left = self._left(i, k)
        return [scale * (k + bisect_right(ys, j) - 2 * bisect_right(left, j)) for j in js]

    def col(self, j: int, is_: list[int], scale: int = 1) -> list[int]:
        """The costs of (i, j) for each i in is_, times ``scale``."""
        b, xs = bisect_right(self.ys, j), self.xs
        if self.monotone:
            return [scale * abs(bisect_right(xs, i) - b) for i in is_]
        below = self._belows.get(j)
        if below is None:
            below = self._belows[j] = sorted(x for x, y in zip(self.xs, self.ys_by_x) if y < j)
        return [scale * (bisect_right(xs, i) + b - 2 * bisect_right(below, i)) for i in is_]

    def _left(self, i: int, k: int) -> list:
        left = self._lefts.get(i)
        if left is None:
            left = self._lefts[i] = sorted(self.ys_by_x[:k])
        return left


class StageCost:
    """What a new pair costs against the fixed pairs: W·crossings − links, a link being a fixed
    pair diagonally next to it. ``row``/``col`` give a token's costs against several partners."""

    __slots__ = ("crossing", "weight", "_h", "_r")

    def __init__(self, fixed: list[Pair], weight: int):
        self.crossing = CrossingCost(fixed)
        self.weight = weight
        self._h = dict(fixed)  # fixed hyp -> ref, and back: a link is one lookup
        self._r = {j: i for i, j in fixed}

    def __call__(self, i: int, j: int) -> int:
        return self.weight * self.crossing(i, j) - (self._h.get(i - 1) == j - 1) - (self._h.get(i + 1) == j + 1)

    def row(self, i: int, js: list[int]) -> list[int]:
        costs = self.crossing.row(i, js, self.weight)
        before, after = self._h.get(i - 1), self._h.get(i + 1)
        if before is not None or after is not None:  # only then can a partner link
            for k, j in enumerate(js):
                costs[k] -= (before == j - 1) + (after == j + 1)
        return costs

    def col(self, j: int, is_: list[int]) -> list[int]:
        costs = self.crossing.col(j, is_, self.weight)
        before, after = self._r.get(j - 1), self._r.get(j + 1)
        if before is not None or after is not None:
            for k, i in enumerate(is_):
                costs[k] -= (before == i - 1) + (after == i + 1)
        return costs


# --- parts ------------------------------------------------------------------------------------


class Part:
    """A connected component of a stage's candidate graph that needs a choice. ``complete``: every
    hyp token may pair with every ref token (a word class K(a, b)); otherwise ``cands`` lists each
    hyp token's candidates and ``need`` is the component's maximum matching size."""

    __slots__ = ("hyps", "refs", "complete", "cands", "need", "adjacent", "matchings", "short_costs")

    def __init__(self, hyps: list[int], refs: list[int], cands: dict[int, list[int]] | None = None,
                 need: int | None = None):
        self.hyps, self.refs = hyps, refs
        self.complete = cands is None
        self.cands = cands
        self.need = min(len(hyps), len(refs)) if need is None else need
        # Two of its own pairs can link only if both sides hold neighbouring positions.
        self.adjacent = _has_neighbours(hyps) and _has_neighbours(refs)
        self.matchings: list[list[Pair]] | None | bool = False  # not enumerated yet (_matchings)
        self.short_costs: tuple | None = None  # (cost, its table): see short_side_costs

    def short_side_costs(self, cost, budget: Budget | None = None) -> list[list[int]]:
        """A complete part's costs against ``cost`` along its shorter side: for each hyp token
        its costs with every ref token when hyps are fewer (or as many), else for each ref token
        its costs with every hyp token. Kept for the last ``cost`` asked: the part's own best
        choice and, in a joint search, its options read the same numbers. With a ``budget``,
        each row is spent from it (OutOfTime when it runs out)."""
        if self.short_costs is None or self.short_costs[0] is not cost:
            table = []
            if len(self.hyps) <= len(self.refs):
                for i in self.hyps:
                    if budget is not None and budget.spend(4 * len(self.refs)):
                        raise OutOfTime
                    table.append(cost.row(i, self.refs))
            else:
                for j in self.refs:
                    if budget is not None and budget.spend(4 * len(self.hyps)):
                        raise OutOfTime
                    table.append(cost.col(j, self.hyps))
            self.short_costs = (cost, table)
        return self.short_costs[1]

    def candidates(self) -> list[Pair]:
        if self.complete:
            return [(i, j) for i in self.hyps for j in self.refs]
        return [(i, j) for i in self.hyps for j in self.cands[i]]

    def is_candidate(self, i: int, j: int) -> bool:
        return self.complete or j in self.cands.get(i, ())


def _has_neighbours(positions: list[int]) -> bool:
    return len(positions) > 1 and any(b - a == 1 for a, b in zip(positions, positions[1:]))


def _own_value(pairs: list[Pair], weight: int) -> int:
    """What a part's choice costs among its own pairs: W·crossings − links (a complete part's
    monotone choices never cross themselves)."""
    return weight * count_crossings(pairs) - count_links(pairs)


# split_classes on int ids (align/_split_classes.pyx), when built and up to date (else None).
_C_SPLIT = _accel.twin("meteor_core.align._split_classes")


def split_classes(hyp_positions, hyp_keys, ref_positions, ref_keys) -> tuple[list[Pair], list[tuple]]:
    """For stages whose relation is equality of a key (word, stem): each key shared by both
    sides is a complete bipartite component K(a, b). Those with a == b are solved outright
    (their tokens paired in order, see the module docstring) and returned as pairs; the
    others are returned as (hyps, refs) to choose from. Positions come in increasing order
    with their keys alongside; so do the lists returned."""
    if _C_SPLIT is not None:
        return _C_SPLIT.split_classes(hyp_positions, hyp_keys, ref_positions, ref_keys)
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
    open_classes: list[tuple] = []
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


def solve_classes(forced: list[Pair], open_classes: list[tuple], fixed: list[Pair], budget: Budget) -> tuple[list[Pair], bool]:
    """A stage whose components are all complete bipartite (exact, stem), from split_classes."""
    if not open_classes:
        return forced, True
    if _C_ALONE is not None:  # the usual stage, answered without Part objects (else handed back)
        # (with the small search's twin, a stage whose groups are small is answered there too)
        found = _C_ALONE.classes_alone(open_classes, fixed + forced, budget, _C_SMALL_SEARCH, SMALL_TABLE_ENTRIES)
        if found is not None:
            return forced + found[0], found[1]
    chosen, proven = _solve_parts([Part(hyps, refs) for hyps, refs in open_classes], fixed + forced, budget,
                                  tried_alone=_C_ALONE is not None)
    return forced + chosen, proven


def solve_stage(cands: dict[int, list[int]], fixed: list[Pair], budget: Budget) -> tuple[list[Pair], bool]:
    """Best new pairs for one stage with any candidate graph, and whether proven optimal."""
    pairs = _one_candidate_each(cands)  # the usual shape, checked before any list is sorted
    if pairs is not None:
        return pairs, True
    # id of a list -> it sorted: tokens of one word share one list (all alive in ``cands`` meanwhile)
    ordered: dict[int, list[int]] = {}
    cands = {i: ordered.get(id(js)) or ordered.setdefault(id(js), sorted(js)) for i, js in cands.items() if js}
    pairs = _one_candidate_each(cands)  # (again, with the tokens that had no candidate left out)
    if pairs is not None:
        return pairs, True
    forced: list[Pair] = []
    parts: list[Part] = []
    for hyps, refs in _components(cands):
        if any(len(cands[i]) != len(refs) for i in hyps):
            sub = {i: cands[i] for i in hyps}
            parts.append(Part(hyps, refs, sub, len(max_matching(sub))))
        elif len(hyps) == len(refs):
            forced.extend(zip(hyps, refs))
        else:
            parts.append(Part(hyps, refs))
    if not parts:
        return forced, True
    chosen, proven = _solve_parts(parts, fixed + forced, budget)
    return forced + chosen, proven


def _one_candidate_each(cands: dict[int, list[int]]) -> list[Pair] | None:
    """The pairs when every token has one candidate and no two share it (none at all included):
    nothing to choose. None otherwise."""
    for js in cands.values():
        if len(js) != 1:
            return None
    pairs = [(i, js[0]) for i, js in cands.items()]
    return pairs if len({j for _, j in pairs}) == len(pairs) else None


def _components(cands: dict[int, list[int]]) -> list[tuple[list[int], list[int]]]:
    """Connected components of the candidate graph as (sorted hyps, sorted refs)."""
    parent: dict = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    # Tokens sharing one candidate list (one word's: see solve_stage) join its refs once.
    tokens_of: dict[int, tuple[list[int], list[int]]] = {}  # id of a list -> (it, its hyp tokens)
    for i, js in cands.items():
        tokens_of.setdefault(id(js), (js, []))[1].append(i)
    for js, hyps in tokens_of.values():
        root = find(("r", js[0]))
        for j in js[1:]:
            parent[find(("r", j))] = root
            root = find(root)
        for i in hyps:
            parent[find(("h", i))] = find(root)
    groups: dict = {}
    for i in cands:
        groups.setdefault(find(("h", i)), ([], set()))[0].append(i)
    for js, hyps in tokens_of.values():
        groups[find(("h", hyps[0]))][1].update(js)
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


# --- solving a stage's parts -------------------------------------------------------------------


class OutOfTime(Exception):
    """The segment's work budget ran out inside a long computation."""


# The first steps of _solve_parts on C arrays (align/_parts_alone.pyx), when built and up to date.
_C_ALONE = _accel.twin("meteor_core.align._parts_alone")


def _solve_parts(parts: list[Part], fixed: list[Pair], budget: Budget,
                 tried_alone: bool = False) -> tuple[list[Pair], bool]:
    # W exceeds any number of links (at most one per match), so one crossing outweighs them all.
    weight = len(fixed) + sum(len(p.hyps) for p in parts) + 1
    if _C_ALONE is not None and not tried_alone:  # the usual stage: each part's own best, jointly optimal
        found = _C_ALONE.solve_alone(parts, fixed, weight, budget, _C_SMALL_SEARCH, SMALL_TABLE_ENTRIES)
        if found is not None:
            return found
    cost = StageCost(fixed, weight)
    try:
        best = [_cheapest(part, cost, budget) for part in parts]  # each part alone: (value, pairs, proven)
    except OutOfTime:  # pathological input: in-order pairs, unproven
        return [p for part in parts for p in _in_order(part)], False
    if len(parts) == 1:
        return best[0][1], best[0][2]
    chosen = [p for _, pairs, _ in best for p in pairs]
    proven = all(ok for _, _, ok in best)
    links = _link_opportunities(parts)
    choices = [pairs for _, pairs, _ in best]
    if _crossings_between(choices) == 0 and (not links.parts or _links_between(choices) == links.most()):
        # Each part at its own optimum, nothing crossing between them, and every link between
        # them that could exist at once does: no joint choice does better.
        return chosen, proven
    # Otherwise only parts that can interact need a joint choice: solve each such group.
    chosen = []
    for group in _interacting_groups(parts, links.parts):
        if len(group) == 1:
            chosen += best[group[0]][1]
            continue
        pairs, ok = _solve_group([parts[k] for k in group], [best[k] for k in group], cost, budget)
        chosen += pairs
        proven = proven and ok
    return chosen, proven


def _crossings_between(choices: list[list[Pair]]) -> int:
    """Crossings between pairs of different parts (a non-complete part's own pairs may cross)."""
    crossings = count_crossings(chain.from_iterable(choices))
    if not crossings:  # the usual case: no crossings at all
        return 0
    return crossings - sum(count_crossings(pairs) for pairs in choices if len(pairs) > 1)


def _in_order(part: Part) -> list[Pair]:
    """Some valid choice of a part, made at once: its first tokens paired in order."""
    if part.complete:
        return list(zip(part.hyps, part.refs))
    return sorted(max_matching(part.cands).items())


class Links(NamedTuple):
    """Where parts could link: part pairs (a, b) with a candidate (i, j) of a and (i + 1, j + 1) of
    b, and the hyp and ref positions i, j that start such an opportunity."""

    parts: list[tuple[int, int]]
    starts_h: set[int]
    starts_r: set[int]

    def most(self) -> int:
        """At most this many links between parts: a link uses a hyp start and a ref start."""
        return min(len(self.starts_h), len(self.starts_r))


def _link_opportunities(parts: list[Part]) -> Links:
    """Choosing both pairs of an opportunity would save a chunk, so those parts' choices depend
    on each other even when they cannot cross."""
    part_h = {i: k for k, part in enumerate(parts) for i in part.hyps}
    # Only a hyp position followed by one of another part can start a link (often none is).
    starts = [i for i, a in part_h.items() if part_h.get(i + 1, a) != a]
    found, starts_h, starts_r = set(), set(), set()
    if starts:
        part_r = {j: k for k, part in enumerate(parts) for j in part.refs}
        for i in starts:
            a, b = part_h[i], part_h[i + 1]
            part, other = parts[a], parts[b]
            for j in (part.refs if part.complete else part.cands[i]):
                if part_r.get(j + 1) == b and other.is_candidate(i + 1, j + 1):
                    found.add((a, b))
                    starts_h.add(i)
                    starts_r.add(j)
    return Links(sorted(found), starts_h, starts_r)


def _links_between(choices: list[list[Pair]]) -> int:
    """Links between pairs of different parts (a part's own links are in its value)."""
    part_of = {p: k for k, pairs in enumerate(choices) for p in pairs}
    return sum(1 for (i, j), k in part_of.items() if part_of.get((i + 1, j + 1), k) != k)


def _interacting_groups(parts: list, links: list[tuple[int, int]] = ()) -> list[list[int]]:
    """Parts (by index) grouped so that no pair of one group can cross or link to a pair of
    another: two parts are apart when one lies before the other in both sentences and no
    candidate of one is diagonally next to a candidate of the other."""
    group_of = list(range(len(parts)))

    def find(k):
        while group_of[k] != k:
            group_of[k] = group_of[group_of[k]]
            k = group_of[k]
        return k

    if len(parts) > 200:  # the pairwise test is quadratic; one group is always correct
        return [list(range(len(parts)))]
    boxes = []
    for part in parts:
        hyps, refs = (part.hyps, part.refs) if isinstance(part, Part) else part
        boxes.append((hyps[0], hyps[-1], refs[0], refs[-1]))
    for a, (h0, h1, r0, r1) in enumerate(boxes):
        for b in range(a + 1, len(boxes)):
            g0, g1, s0, s1 = boxes[b]
            if not ((h1 < g0 and r1 < s0) or (g1 < h0 and s1 < r0)):
                group_of[find(a)] = find(b)
    for a, b in links:
        group_of[find(a)] = find(b)
    groups: dict[int, list[int]] = {}
    for k in range(len(parts)):
        groups.setdefault(find(k), []).append(k)
    return list(groups.values())


def _cheapest(part: Part, cost, budget: Budget) -> tuple[int, list[Pair], bool]:
    """A part's best choice against ``cost`` alone (a StageCost of the fixed pairs, or of the
    fixed pairs and the other parts' choices in coordinate descent): its value, pairs, and
    whether that is proven (a non-complete part with too many maximum matchings to try falls
    back to one of them). Raises OutOfTime when ``budget`` runs out."""
    if not part.complete:
        options = _matching_options(part, cost, budget)
        if options is None:
            pairs = _in_order(part)
            return sum(cost(i, j) for i, j in pairs) + _own_value(pairs, cost.weight), pairs, False
        return (*min(options, key=_first), True)
    hyps, refs = part.hyps, part.refs
    if len(hyps) == 1:  # the common shapes: one copy on one side, choose its partner
        costs = part.short_side_costs(cost)[0]
        value = min(costs)
        return value, [(hyps[0], refs[costs.index(value)])], True
    if len(refs) == 1:
        costs = part.short_side_costs(cost)[0]
        value = min(costs)
        return value, [(hyps[costs.index(value)], refs[0])], True
    if not part.adjacent:
        if len(hyps) == 2:  # two copies on one side (the next most common): p < q, in one pass
            p, q, value = _cheapest_two(*part.short_side_costs(cost))
            return value, [(hyps[0], refs[p]), (hyps[1], refs[q])], True
        if len(refs) == 2:
            p, q, value = _cheapest_two(*part.short_side_costs(cost))
            return value, [(hyps[p], refs[0]), (hyps[q], refs[1])], True
    table = []
    for i in hyps:
        if budget.spend(4 * len(refs)):  # a bisection or two per ref token
            raise OutOfTime
        table.append(cost.row(i, refs))
    return (*_monotone_dp(hyps, refs, table, part.adjacent, budget), True)


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


def _monotone_dp(hyps: list[int], refs: list[int], table: list[list[int]], links: bool = False,
                 budget: Budget | None = None) -> tuple[int, list[Pair]]:
    """Exact for K(a, b): the min(a, b) in-order pairs of least total cost, table[a][b] being
    the cost of (hyps[a], refs[b]); with ``links``, two consecutive pairs that are diagonal
    neighbours earn −1. O(a·b). Ties: the earliest positions for the last pairs."""
    swap = len(hyps) < len(refs)
    long, short = (refs, hyps) if swap else (hyps, refs)
    if swap:
        table = list(zip(*table))  # rows by the longer side
    n, k = len(long), len(short)
    inf = float("inf")
    # take[p][q]: least cost with short token q paired with long token p (the last pair so far);
    # upto[p][q]: least take[p'][q] over p' <= p (with the p' that reaches it).
    take = [[inf] * k for _ in range(n)]
    upto = [[(inf, -1)] * k for _ in range(n)]
    for p in range(n):
        if budget is not None and p % 64 == 63 and budget.spend(64 * k):  # k cells a row
            raise OutOfTime
        costs = table[p]
        for q in range(max(0, k - (n - p)), min(p, k - 1) + 1):
            if q == 0:
                value = costs[0]
            else:
                value = costs[q] + upto[p - 1][q - 1][0]
                if links and long[p] - long[p - 1] == 1 and short[q] - short[q - 1] == 1:
                    value = min(value, costs[q] + take[p - 1][q - 1] - 1)
            take[p][q] = value
        for q in range(k):
            prev = upto[p - 1][q] if p else (inf, -1)
            upto[p][q] = (take[p][q], p) if take[p][q] < prev[0] else prev
    total, p = upto[n - 1][k - 1]
    picks = [p]
    for q in range(k - 1, 0, -1):  # walk back: which long token did short token q - 1 take?
        want = take[p][q] - table[p][q]
        if links and p and long[p] - long[p - 1] == 1 and short[q] - short[q - 1] == 1 \
                and take[p - 1][q - 1] - 1 == want and upto[p - 1][q - 1][0] != want:
            p = p - 1
        else:
            p = upto[p - 1][q - 1][1]
        picks.append(p)
    picks.reverse()
    pairs = [(short[q], long[p]) if swap else (long[p], short[q]) for q, p in enumerate(picks)]
    return int(total), sorted(pairs)


def _matchings(part: Part, budget: Budget) -> list[list[Pair]] | None:
    """Every maximum matching of a non-complete part (tokens with the same candidates matched in
    order), enumerated once per part (its nodes spent from ``budget``); None when there are more
    than MAX_MATCHINGS (a cap on memory: ``budget`` records the proof as cut)."""
    if part.matchings is not False:
        return part.matchings
    hyps, cands, need = part.hyps, part.cands, part.need
    key_of = {i: tuple(cands[i]) for i in hyps}
    out: list[list[Pair]] = []
    chosen: list[Pair] = []
    used: set[int] = set()
    last: dict[tuple, int] = {}
    nodes = [0]

    def visit(k: int) -> bool:  # False: too many matchings (or dead ends) to try them all
        nodes[0] += 1
        if nodes[0] > 50 * MAX_MATCHINGS:
            return False
        if len(chosen) == need:
            out.append(list(chosen))
            return len(out) <= MAX_MATCHINGS
        if len(chosen) + len(hyps) - k < need:
            return True
        i = hyps[k]
        key = key_of[i]
        before = last.get(key, -1)
        for j in cands[i]:
            if j > before and j not in used:
                used.add(j)
                chosen.append((i, j))
                last[key] = j
                if not visit(k + 1):
                    return False
                chosen.pop()
                used.discard(j)
                if before < 0:
                    del last[key]
                else:
                    last[key] = before
        return visit(k + 1)

    part.matchings = out if visit(0) else None
    budget.spend(nodes[0] + need * len(out))
    if part.matchings is None:
        budget.cap()
    return part.matchings


def _matching_options(part: Part, cost, budget: Budget) -> list[tuple[int, list[Pair]]] | None:
    """A non-complete part's maximum matchings with their values, cheapest first (ties: in the
    order enumerated); None when there are too many."""
    matchings = _matchings(part, budget)
    if matchings is None:
        return None
    budget.spend(4 * part.need * len(matchings))
    options = [(sum(cost(i, j) for i, j in pairs) + _own_value(pairs, cost.weight), pairs) for pairs in matchings]
    options.sort(key=_first)
    return options


def _solve_group(parts: list[Part], best, cost: StageCost, budget: Budget) -> tuple[list[Pair], bool]:
    """Parts that may cross or link to each other (and to no part outside the group)."""
    current = [pairs for _, pairs, _ in best]
    proven_parts = all(ok for _, _, ok in best)
    if _crossings_between(current) == 0:
        links = _link_opportunities(parts)
        if not links.parts or _links_between(current) == links.most():
            return _flat(current), proven_parts
        return _best_links(parts, best, cost, budget)
    sizes = [_option_count(part, budget) for part in parts]
    if None not in sizes and _table_entries(sizes) <= SMALL_TABLE_ENTRIES:
        budget.spend(sum(size * part.need for size, part in zip(sizes, parts)))
        options = [_complete_options(part, cost) if part.complete else _matching_options(part, cost, budget)
                   for part in parts]
        return _small_search(parts, options, cost.weight, budget)
    # The pairwise search: on C arrays (its twin, which needs no numpy) unless a part has too many
    # options to list (_large_parts_listed's bounds are numpy arrays), else pairwise.py's.
    if _C_PAIRWISE is not None and not any(part.complete and size is not None and size > MAX_PART_OPTIONS
                                           for part, size in zip(parts, sizes)):
        pairwise = _C_PAIRWISE
        complete_options, listed_options, option_count = (pairwise.complete_part, pairwise.listed_part,
                                                          pairwise.option_count)
        solve_pairwise = pairwise.solve_parts
    else:
        start = time.thread_time() if budget.clock_started else 0.0
        from . import pairwise  # numpy: loaded only when a segment needs a large joint choice

        if budget.clock_started:
            budget.extend(time.thread_time() - start)  # importing once is not the segment's search
        complete_options, listed_options, option_count = (pairwise.complete_options, pairwise.listed_options,
                                                          _option_rows)
        solve_pairwise = pairwise.solve_pairwise

    # The tables are built from a matrix of what each candidate pair of one part costs against
    # the candidates of all the others (pairwise._tables, and the descent without tables): a word
    # repeated ~550 times on both sides has ~300,000 candidate pairs, and that matrix took 1.5 GB.
    # Its size is capped like the tables'. (A synonym part with too many matchings has no
    # options to list: its cap is recorded in the budget.)
    pair_counts = [len(part.hyps) * len(part.refs) if part.complete else sum(map(len, map(part.cands.get, part.hyps)))
                   for part in parts]
    total_pairs = sum(pair_counts)
    if None in sizes or max(count * (total_pairs - count) for count in pair_counts) > MAX_TABLE_ENTRIES:
        budget.cap()
        return _flat(_coordinate_descent(parts, current, cost, budget)[0]), False
    arrays = []
    for part, size in zip(parts, sizes):
        if part.complete and size > MAX_PART_OPTIONS:
            arrays.append(None)  # too many to list: only those that may win are (below)
        elif part.complete:
            budget.spend(size * part.need // 4 + len(part.hyps) * len(part.refs))
            rows = [cost.row(i, part.refs) for i in part.hyps]
            arrays.append(complete_options(part.hyps, part.refs, rows, part.adjacent))
        else:
            arrays.append(listed_options(_matching_options(part, cost, budget)))
    if None in arrays:
        try:
            arrays = _large_parts_listed(parts, arrays, current, cost, budget, pairwise)
        except _Incumbent as stop:
            return _flat(stop.choice), False
    if _table_entries(list(map(option_count, arrays))) > MAX_TABLE_ENTRIES:
        budget.cap()
        return _flat(_coordinate_descent(parts, current, cost, budget)[0]), False
    choice, proven = solve_pairwise(arrays, cost.weight, budget)
    return sorted(p for o, c in zip(arrays, choice) for p in pairwise.chosen_pairs(o, c)), proven


def _option_rows(options) -> int:
    """How many options a part's pairwise.Options hold."""
    return len(options[1])


# The pairwise search on C arrays without numpy (align/_pairwise_search.pyx), when built and up to
# date (else None): pairwise.solve_pairwise's twin, given options its complete_part and
# listed_part make.
_C_PAIRWISE = _accel.twin("meteor_core.align._pairwise_search")


class _Incumbent(Exception):
    """The search of a group stops with this choice (each part's pairs), not proven."""

    def __init__(self, choice: list[list[Pair]]):
        super().__init__()
        self.choice = choice


def _large_parts_listed(parts: list[Part], arrays: list, current: list[list[Pair]], cost: StageCost,
                        budget: Budget, pairwise) -> list:
    """``arrays`` (each part's options, as pairwise.complete_options gives them) with those of the
    complete parts that have too many options to list (None) filled in: only their options that
    may beat an incumbent, listed by the walk of _complete_options_up_to without the others.

    A quoted passage has a quote mark 31 times against 26 (169,911 monotone pairings): listing
    them all is out of reach, but almost all cross many other words. The incumbent (value V) comes
    from coordinate descent. With a[e, m] a lower bound on what candidate pair e costs with any
    choice of part m (pairwise.least_interactions), every joint choice that takes option c of a
    large part k totals at least U_k[c] + Σ_{e in c} Σ_{m != k} a[e, m] + R_k, R_k = Σ_{l != k}
    min_d (U_l[d] + ½·Σ_{e in d} Σ_{m != k, l} a[e, m]) (the tables between two other parts split
    in halves). Totals are integers, so an option whose bound exceeds V − 1 cannot beat the
    incumbent: the walk lists the others, and the incumbent's own option is kept. Half units are
    avoided by doubling: 2·U_l + Σ a is an integer. Raises _Incumbent when the budget runs out or
    a large part still has more than MAX_LISTED_OPTIONS options that may win (a cap on memory)."""
    choice, incumbent = _coordinate_descent(parts, current, cost, budget)
    if budget.exhausted:
        raise _Incumbent(choice)
    candidates = [o[0] if o is not None else [(i, j) for i in part.hyps for j in part.refs]
                  for part, o in zip(parts, arrays)]
    least = pairwise.least_interactions(candidates, {m: o[2] for m, o in enumerate(arrays) if o is not None},
                                        cost.weight, budget)
    if least is None:
        raise _Incumbent(choice)
    starts = [0]
    for c in candidates:
        starts.append(starts[-1] + len(c))
    against_all = least.sum(axis=1)  # Σ over every part m (a[e, own part] = 0)
    arrays = list(arrays)
    large = [k for k, o in enumerate(arrays) if o is None]
    for k in large:
        part = parts[k]
        rest2 = 0.0  # 2·R_k
        for l, other in enumerate(parts):
            if l == k:
                continue
            block = slice(starts[l], starts[l + 1])
            own = against_all[block] - least[block, k]  # Σ_{m != k, l} a[e, m], e of part l
            if arrays[l] is not None:
                _, values, index = arrays[l]
                budget.spend(pairwise.numpy_work(index.size, 3))
                rest2 += float((2 * values + own[index].sum(axis=1)).min())
            else:
                table = _short_side(other, [2 * c + a for c, a in zip(_row_major(other, cost), own.tolist())])
                rest2 += min(_least_completions(table, _linked(other, budget), budget, link=2)[0])
        added = against_all[starts[k]:starts[k + 1]].tolist()  # Σ_{m != k} a[e, m], e of part k
        table = _short_side(part, [c + a for c, a in zip(_row_major(part, cost), added)])
        ceiling = math.floor((2 * incumbent - 2 - rest2) / 2 + 1e-6)
        try:
            kept = _complete_options_up_to(part, table, ceiling, budget, MAX_LISTED_OPTIONS)
        except OutOfTime:
            raise _Incumbent(choice) from None
        except TooMany:
            budget.cap()
            raise _Incumbent(choice) from None
        mine = choice[k]
        options = [(_own_option_value(pairs, cost), pairs) for _, pairs in kept]
        if not any(pairs == mine for _, pairs in options):
            options.append((_own_option_value(mine, cost), mine))
        arrays[k] = pairwise.listed_options(options)
    return arrays


def _row_major(part: Part, cost: StageCost) -> list[int]:
    """What each candidate pair of a complete part costs against ``cost``, in the order
    (hyps[0], refs[0]), (hyps[0], refs[1]), ... (pairwise.complete_options' candidates)."""
    return [c for i in part.hyps for c in cost.row(i, part.refs)]


def _short_side(part: Part, row_major: list) -> list[list]:
    """Numbers given per candidate pair in _row_major's order, as a table along the part's
    shorter side (Part.short_side_costs' layout)."""
    width = len(part.refs)
    rows = [row_major[a * width:(a + 1) * width] for a in range(len(part.hyps))]
    return rows if len(part.hyps) <= len(part.refs) else [list(column) for column in zip(*rows)]


def _own_option_value(pairs: list[Pair], cost: StageCost) -> int:
    """A complete part's option's value against ``cost``: its pairs' costs less its own links."""
    return sum(cost(i, j) for i, j in pairs) - count_links(pairs)


def _best_links(parts: list[Part], best, cost: StageCost, budget: Budget) -> tuple[list[Pair], bool]:
    """Each part's own best choice, and no crossings between them: only links can still improve,
    and only among choices that keep every part's fewest crossings and cross no other part (one
    more crossing costs W, more than all links together). Those "tied" choices are few."""
    weight = cost.weight
    floor = _flat([pairs for _, pairs, _ in best])
    tied = []
    for part, (value, pairs, ok) in zip(parts, best):
        if not ok:  # a synonym part with too many matchings (its cap is recorded in the budget)
            return floor, False
        # value = W·crossings − links with links < W: an option keeps the fewest crossings
        # exactly when its value is at most W·(those crossings).
        ceiling = weight * ((value + weight - 1) // weight)
        try:
            if part.complete and _option_count(part, budget) <= FEW_OPTIONS:  # listing them all is quicker than the walk
                budget.spend(FEW_OPTIONS * part.need)
                tied.append([option for option in _complete_options(part, cost) if option[0] <= ceiling])
            elif part.complete:
                tied.append(_complete_options_up_to(part, part.short_side_costs(cost, budget), ceiling, budget,
                                                    MAX_LISTED_OPTIONS))
            else:
                tied.append([(v, c) for v, c in _matching_options(part, cost, budget) if v <= ceiling])
        except OutOfTime:
            return floor, False
        except TooMany:
            budget.cap()
            return floor, False
    if _table_entries([len(t) for t in tied]) > MAX_TABLE_ENTRIES:
        budget.cap()
        return floor, False
    if all(len(options) == 1 for options in tied):  # one tied choice each: nothing to search
        return sorted(p for (_, pairs), in tied for p in pairs), True
    return _small_search(parts, tied, weight, budget)


def _option_count(part: Part, budget: Budget) -> int | None:
    """How many choices a part has: monotone pairings of a complete part; for a synonym part
    its maximum matchings are counted by enumerating them (None: too many)."""
    if part.complete:
        return math.comb(max(len(part.hyps), len(part.refs)), part.need)
    matchings = _matchings(part, budget)
    return None if matchings is None else len(matchings)


def _table_entries(sizes: list[int]) -> int:
    """How many numbers the pairwise tables of parts with these option counts hold together."""
    total = sum(sizes)
    return (total * total - sum(s * s for s in sizes)) // 2


def _complete_options(part: Part, cost) -> list[tuple[int, list[Pair]]]:
    """Every monotone pairing of a complete part with its value (few: a small group)."""
    hyps, refs = part.hyps, part.refs
    table = part.short_side_costs(cost)
    if _C_ALONE is not None:  # the same list made in C loops
        return _C_ALONE.complete_options(hyps, refs, table, part.adjacent)
    if len(hyps) <= len(refs):
        options = [(sum(map(list.__getitem__, table, pick)), list(zip(hyps, map(refs.__getitem__, pick))))
                   for pick in combinations(range(len(refs)), len(hyps))]
    else:
        options = [(sum(map(list.__getitem__, table, pick)), list(zip(map(hyps.__getitem__, pick), refs)))
                   for pick in combinations(range(len(hyps)), len(refs))]
    if part.adjacent:
        options = [(value - count_links(pairs), pairs) for value, pairs in options]
    return options


def _short_and_long(part: Part) -> tuple[list[int], list[int]]:
    """A complete part's shorter side first (the hypothesis side when both are as long)."""
    return (part.hyps, part.refs) if len(part.hyps) <= len(part.refs) else (part.refs, part.hyps)


def _linked(part: Part, budget: Budget) -> list[list[bool]]:
    """linked[q][p]: short tokens q − 1, q on long tokens p − 1, p are diagonal neighbours (a link,
    −1). k·n (up to a few million entries for a word repeated ~1,000 times): spent row by row."""
    short, long = _short_and_long(part)
    n = len(long)
    linked = []
    for q in range(len(short)):
        if budget.spend(2 * n):
            raise OutOfTime
        linked.append([part.adjacent and q > 0 and p > 0 and short[q] - short[q - 1] == 1
                       and long[p] - long[p - 1] == 1 for p in range(n)])
    return linked


def _least_completions(table: list[list], linked: list[list[bool]], budget: Budget, link: int = 1) -> list[list]:
    """least[q][p]: the least value of short tokens q.. with token q on long token p (its own link
    with token q − 1 not counted), ``table[q][p]`` being what that pair costs and each link
    earning −``link``: a dynamic program over the suffixes, O(k·n). min(least[0]) is the least
    value of any monotone pairing."""
    k, n = len(table), len(table[0])
    inf = float("inf")
    least = [[inf] * n for _ in range(k)]
    least[k - 1] = list(table[k - 1])
    for q in range(k - 2, -1, -1):
        if budget.spend(4 * n):
            raise OutOfTime
        after, row, out, step = least[q + 1], table[q], least[q], linked[q + 1]
        later = inf  # min of after[p2] over p2 > p + 1
        for p in range(n - 2, -1, -1):
            if p + 2 < n:
                later = min(later, after[p + 2])
            out[p] = row[p] + min(later, after[p + 1] - link * step[p + 1])
    return least


class TooMany(Exception):
    """More options under a ceiling than a caller can hold (_complete_options_up_to's limit)."""


def _complete_options_up_to(part: Part, table: list[list[int]], ceiling: int, budget: Budget,
                            limit: int | None = None) -> list[tuple[int, list[Pair]]]:
    """The options of a complete part whose value under ``table`` (its short side's costs, as
    Part.short_side_costs gives them; links −1) is at most ``ceiling``, in the order of
    _complete_options, without listing the others: a depth-first walk over the short side's
    tokens in order, each taking a long-side token after the previous one's, entering a branch
    only when its least completion (exact, _least_completions) stays under the ceiling. Every
    branch entered ends in at least one option, so the walk costs about what it returns.
    Raises OutOfTime when ``budget`` runs out, TooMany past ``limit`` options."""
    hyps, refs = part.hyps, part.refs
    short, long = _short_and_long(part)
    k, n = len(short), len(long)
    linked = _linked(part, budget)
    least = _least_completions(table, linked, budget)
    # The walk, with an explicit stack (a part can have thousands of tokens on its short side,
    # deeper than Python's recursion limit): picks[q] is token q's long token, values[q] the
    # value of tokens before q, resume[q] the next long token token q tries.
    found: list[tuple[int, list[int]]] = []
    picks, values, resume = [0] * k, [0] * k, [0] * k
    q = 0
    while q >= 0:
        row, bound, link, so_far = table[q], least[q], linked[q], values[q]
        last, p = n - (k - q), resume[q]
        # (link[p] is False for q = 0, so picks[q - 1] is read only for q > 0)
        while p <= last and so_far - (link[p] and picks[q - 1] == p - 1) + bound[p] > ceiling:
            p += 1
        if budget.spend(4 * (1 + p - resume[q])):  # the long tokens tried
            raise OutOfTime
        if p > last:  # every choice of token q tried: back to token q − 1
            q -= 1
            continue
        picks[q], resume[q] = p, p + 1
        value = so_far - (link[p] and picks[q - 1] == p - 1) + row[p]
        if q == k - 1:
            found.append((value, picks[:]))
            if limit is not None and len(found) > limit:
                raise TooMany
        else:
            q += 1
            values[q], resume[q] = value, p + 1
    budget.spend(k * len(found))
    if len(hyps) <= len(refs):
        return [(value, list(zip(hyps, map(refs.__getitem__, pick)))) for value, pick in found]
    return [(value, list(zip(map(hyps.__getitem__, pick), refs))) for value, pick in found]


def _between(a: list[Pair], b: list[Pair], weight: int) -> int:
    """What two parts' choices cost together: W·crossings − links between them (the parts share
    no token, so no difference of positions is zero)."""
    total = 0
    for x, y in a:
        for i, j in b:
            di, dj = i - x, j - y
            if (di > 0) != (dj > 0):
                total += weight
            elif di == dj and (di == 1 or di == -1):
                total -= 1
    return total


class _SmallSearch:
    """Exact joint choice for a small group, in plain Python: depth-first over parts with forward
    checking. Every open part l keeps acc_l[d] = its value + what option d costs with the parts
    chosen so far; the bound adds min(acc_l) over open parts and, for every two open parts that
    can link, the most their links could save (crossings cost >= 0). What two options cost
    together is computed when the search first needs it, a row at a time."""

    def __init__(self, parts: list[Part], options: list[list[tuple[int, list[Pair]]]], weight: int,
                 budget: Budget):
        self.options, self.weight, self.budget = options, weight, budget
        n = len(options)
        linked = {frozenset(pair) for pair in _link_opportunities(parts).parts}
        boxes = [(p.hyps[0], p.hyps[-1], p.refs[0], p.refs[-1]) for p in parts]
        self.near = [[] for _ in range(n)]  # parts whose options can cross or link k's
        self.least = {}  # (k, m) -> a lower bound on what any two of their options cost together
        for k in range(n):
            for m in range(k + 1, n):
                (h0, h1, r0, r1), (g0, g1, s0, s1) = boxes[k], boxes[m]
                link = frozenset((k, m)) in linked
                if link or not ((h1 < g0 and r1 < s0) or (g1 < h0 and s1 < r0)):
                    self.near[k].append(m)
                    self.near[m].append(k)
                    if link:  # each pair links to at most its two diagonal neighbours
                        most = 2 * min(len(options[k][0][1]), len(options[m][0][1]))
                        self.least[k, m] = self.least[m, k] = -most
        self.rows: dict[tuple[int, int, int], list[int]] = {}
        # Parts whose options differ most in value first: their choice moves the bound most, so
        # branches die sooner (on the TED set ~15% fewer nodes than most options first).
        self.values = [[value for value, _ in opts] for opts in options]
        spread = [max(values) - min(values) for values in self.values]
        self.order = sorted(range(n), key=lambda k: (-spread[k], k))
        # The incumbent: each part's own best option (the group's "floor" choice).
        self.best = [values.index(min(values)) for values in self.values]
        # (through _row: where the search meets these two options in this order, it reuses the row)
        self.best_value = (sum(opts[c][0] for opts, c in zip(options, self.best))
                           + sum(self._row(k, self.best[k], m)[self.best[m]]
                                 for k in range(n) for m in self.near[k] if m > k))

    def _row(self, k: int, c: int, m: int) -> list[int]:
        key = (k, c, m)
        row = self.rows.get(key)
        if row is None:
            mine, weight, theirs = self.options[k][c][1], self.weight, self.options[m]
            self.budget.spend(2 * len(theirs) * (1 + len(mine) * len(theirs[0][1])))  # (an option's pairs are as many)
            row = self.rows[key] = [_between(mine, pairs, weight) for _, pairs in theirs]
        return row

    def run(self) -> tuple[list[Pair], bool]:
        n = len(self.options)
        acc = self.values  # (read only: the search replaces a part's list, never changes it)
        pair_floor = sum(v for (k, m), v in self.least.items() if k < m)
        self.choice = [0] * n
        self._visit(0, 0, acc, [min(a) for a in acc], pair_floor, set(range(n)))
        pairs = sorted(p for k, c in enumerate(self.best) for p in self.options[k][c][1])
        return pairs, not self.budget.exhausted

    def _visit(self, depth: int, cost: int, acc: list, lows: list, pair_floor: int, open_parts: set) -> None:
        """acc[m]: part m's options' values plus what each costs with the parts chosen so far;
        lows[m] = min(acc[m])."""
        k = self.order[depth]
        if self.budget.spend(6 * (len(self.options[k]) + len(open_parts))):
            return
        open_parts = open_parts - {k}
        near = [m for m in self.near[k] if m in open_parts]
        step = 6 * (1 + sum(len(acc[m]) for m in near))  # the work a child makes
        floor = pair_floor - sum(self.least.get((k, m), 0) for m in near) if self.least else pair_floor
        rest_low = sum(map(lows.__getitem__, open_parts))
        mine = acc[k]
        for c in sorted(range(len(mine)), key=mine.__getitem__):
            total = cost + mine[c]
            if total + rest_low + pair_floor >= self.best_value:
                break  # options in order of value: later ones cannot do better (pair_floor still
                # holds what k's links with the open parts could save)
            self.choice[k] = c
            if not open_parts:
                self.best_value, self.best = total, list(self.choice)
                continue
            if self.budget.spend(step):
                return
            child, child_lows = acc[:], lows[:]
            bound = total + floor + rest_low
            for m in near:
                row = list(map(add, acc[m], self._row(k, c, m)))
                child[m] = row
                child_lows[m] = low = min(row)
                bound += low - lows[m]
            if bound < self.best_value:
                self._visit(depth + 1, total, child, child_lows, floor, open_parts)
            if self.budget.exhausted:
                return


# _SmallSearch on C data (align/_small_search.pyx), when built and up to date (else None).
_C_SMALL_SEARCH = _accel.twin("meteor_core.align._small_search")


def _small_search(parts: list[Part], options: list[list[tuple[int, list[Pair]]]], weight: int,
                  budget: Budget) -> tuple[list[Pair], bool]:
    """_SmallSearch(parts, options, weight, budget).run(): on C data when its twin is built."""
    if _C_SMALL_SEARCH is None:
        return _SmallSearch(parts, options, weight, budget).run()
    boxes = [(p.hyps[0], p.hyps[-1], p.refs[0], p.refs[-1]) for p in parts]
    return _C_SMALL_SEARCH.small_search(options, weight, budget, boxes, _link_opportunities(parts).parts)


def _coordinate_descent(parts: list[Part], current: list[list[Pair]], cost: StageCost,
                        budget: Budget) -> tuple[list[list[Pair]], int]:
    """Re-solve each part against the fixed pairs and the others' current choices until nothing
    improves (or the budget runs out): a good alignment, not a proven one. Each part's choice,
    and the value of them all together (W·crossings − links, the fixed pairs included)."""
    fixed = list(zip(cost.crossing.xs, cost.crossing.ys_by_x))

    def value(choice: list[list[Pair]]) -> int:
        flat = [p for pairs in choice for p in pairs]
        budget.spend(20 * len(flat))  # a bisection per pair, a sort, the crossings and links
        return sum(cost(i, j) for i, j in flat) + cost.weight * count_crossings(flat) - count_links(flat)

    best_value = value(current)
    improved = True
    while improved and not budget.exhausted:
        improved = False
        for k, part in enumerate(parts):
            others = [p for m, pairs in enumerate(current) if m != k for p in pairs]
            try:
                if budget.spend(16 * (len(fixed) + len(others))):  # the fixed pairs' cost, sorted
                    break
                _, pairs, _ = _cheapest(part, StageCost(fixed + others, cost.weight), budget)
            except OutOfTime:
                break
            trial = current[:k] + [pairs] + current[k + 1:]
            trial_value = value(trial)
            if trial_value < best_value:
                current, best_value, improved = trial, trial_value, True
    return current, best_value


def _flat(choice: list[list[Pair]]) -> list[Pair]:
    return sorted(p for pairs in choice for p in pairs)
