"""The exact stage search on the shapes that used to make meteor2005's slow tail (a word repeated
many times on one side), checked against exhaustive choice."""
import itertools
import random

import pytest

from meteor_core.align import search
from meteor_core.align.search import Budget, count_crossings, count_links


def _random_part_and_cost(rng):
    hyps = sorted(rng.sample(range(16), rng.randint(1, 8)))
    refs = sorted(rng.sample(range(16), rng.randint(1, 8)))
    free_h = [i for i in range(16) if i not in hyps]
    free_r = [j for j in range(16) if j not in refs]
    n_fixed = rng.randint(0, min(len(free_h), len(free_r), 6))
    fixed = list(zip(rng.sample(free_h, n_fixed), rng.sample(free_r, n_fixed)))
    return search.Part(hyps, refs), search.StageCost(fixed, 40)


def test_complete_options_up_to_a_ceiling_are_the_listed_ones_in_order():
    """The walk that lists only the options under a ceiling returns exactly the options (values
    and pairs) that listing them all and filtering keeps, in the same order (the tie-break of
    the search that follows depends on it)."""
    rng = random.Random(21)
    compared = 0
    for _ in range(1500):
        part, cost = _random_part_and_cost(rng)
        every = search._complete_options(part, cost)
        values = sorted({value for value, _ in every})
        for ceiling in [values[0] - 1] + values[:3] + [values[-1]]:
            got = search._complete_options_up_to(part, cost, ceiling, Budget.for_seconds(5))
            assert got == [(value, pairs) for value, pairs in every if value <= ceiling]
            compared += 1
    assert compared > 5000


def test_complete_options_up_to_stops_when_the_budget_is_spent():
    part = search.Part(list(range(0, 40, 2)), list(range(1, 24, 2)))
    cost = search.StageCost([], 50)
    budget = Budget.for_seconds(0)
    budget.exhausted = True
    with pytest.raises(search.OutOfTime):
        search._complete_options_up_to(part, cost, 10**6, budget)


def _exhaustive(classes, fixed):
    """Least (added crossings, −added links) over every combination of in-order choices."""
    per_class = []
    for hyps, refs in classes:
        if len(hyps) >= len(refs):
            per_class.append([list(zip(pick, refs)) for pick in itertools.combinations(hyps, len(refs))])
        else:
            per_class.append([list(zip(hyps, pick)) for pick in itertools.combinations(refs, len(hyps))])
    best = None
    for combo in itertools.product(*per_class):
        pairs = [p for ps in combo for p in ps] + fixed
        key = (count_crossings(pairs), -count_links(pairs))
        best = key if best is None or key < best else best
    return best


def test_a_word_repeated_many_times_where_only_links_decide(monkeypatch):
    """Sentences with one word (a quote mark, a comma) many times on one side and a few times on
    the other, whose parts' own best choices cross nothing: only links between the parts can
    still improve. The search lists only the choices that keep the fewest crossings (never
    every pairing of the large word), and finds the exhaustive optimum."""
    calls = {"best_links": 0, "inside": False}
    real_best_links, real_complete_options = search._best_links, search._complete_options

    def counting(*args):
        calls["best_links"] += 1
        calls["inside"] = True
        try:
            return real_best_links(*args)
        finally:
            calls["inside"] = False

    def complete_options(*args):
        assert not calls["inside"], "every option of a complete part listed to find the tied ones"
        return real_complete_options(*args)

    monkeypatch.setattr(search, "_best_links", counting)
    monkeypatch.setattr(search, "_complete_options", complete_options)
    rng = random.Random(5)
    checked = 0
    for _ in range(3000):
        hw = [rng.choice('""abcx') for _ in range(rng.randint(8, 14))]
        rw = [rng.choice('"abcy') for _ in range(rng.randint(5, 10))]
        forced, open_classes = search.split_classes(range(len(hw)), hw, range(len(rw)), rw)
        if len(open_classes) < 2 or sum(len(h) * len(r) > 12 for h, r in open_classes) > 1:
            continue  # one large part at most: the exhaustive choice stays small
        before = calls["best_links"]
        pairs, proven = search.solve_classes(forced, open_classes, [], Budget.for_seconds(5))
        if calls["best_links"] == before:
            continue  # another path (parts that cross): tests/test_core.py covers those
        assert proven
        new = [p for p in pairs if p not in set(forced)]
        assert (count_crossings(pairs), -count_links(pairs)) == _exhaustive(open_classes, forced), (hw, rw)
        assert len(new) == sum(min(len(h), len(r)) for h, r in open_classes)
        checked += 1
    assert checked > 80
