"""The exact stage search on the shapes that used to make meteor2005's slow tail (a word repeated
many times on one side), checked against exhaustive choice."""
import itertools
import random

import pytest

from meteor_core.align import search
from meteor_core.align.search import Budget, count_crossings, count_links
from test_core import _best_over_monotone_choices  # the exhaustive oracle


@pytest.fixture(autouse=True)
def _pure_pairwise_search(monkeypatch):
    """These tests follow the steps of pairwise.py's own search (its twin, compared with it in
    test_search_twin.py, takes the same steps in C without calling them)."""
    from meteor_core.align import pairwise

    monkeypatch.setattr(pairwise, "_C_SEARCH", None)


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
            got = search._complete_options_up_to(part, part.short_side_costs(cost), ceiling, Budget(10**12))
            assert got == [(value, pairs) for value, pairs in every if value <= ceiling]
            compared += 1
    assert compared > 5000


def test_a_part_deeper_than_the_recursion_limit_is_listed():
    """A word 2,500 times on one side and 2,499 on the other, with links between its copies: the
    walk goes one level per short-side token, deeper than Python's recursion limit (pure Python
    raised RecursionError); every in-order choice keeps the fewest crossings here."""
    n = 2500
    hyps, refs = list(range(n)), list(range(n - 1))  # consecutive positions: every step can link
    part, cost = search.Part(hyps, refs), search.StageCost([], 50)
    assert part.adjacent
    got = search._complete_options_up_to(part, part.short_side_costs(cost), 0, Budget(10**12))
    # Skipping hyp token s leaves n − 2 links when s is first or last, n − 3 otherwise.
    assert len(got) == n
    assert [value for value, _ in got] == [-(n - 2)] + [-(n - 3)] * (n - 2) + [-(n - 2)]
    assert got[0][1] == list(zip(hyps[:-1], refs))  # itertools' order: the last hyp token skipped first
    assert got[-1][1] == list(zip(hyps[1:], refs))


def test_complete_options_up_to_stops_when_the_budget_is_spent():
    part = search.Part(list(range(0, 40, 2)), list(range(1, 24, 2)))
    cost = search.StageCost([], 50)
    budget = Budget(0)
    budget.spend(1)  # used up
    with pytest.raises(search.OutOfTime):
        search._complete_options_up_to(part, part.short_side_costs(cost), 10**6, budget)


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

    def complete_options(part, cost):
        # (a part of at most FEW_OPTIONS options is listed whole: cheaper than the walk)
        assert not calls["inside"] or search._option_count(part, Budget(10**12)) <= search.FEW_OPTIONS, \
            "every option of a large complete part listed to find the tied ones"
        return real_complete_options(part, cost)

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
        pairs, proven = search.solve_classes(forced, open_classes, [], Budget(10**12))
        if calls["best_links"] == before:
            continue  # another path (parts that cross): tests/test_core.py covers those
        assert proven
        added = (count_crossings(pairs) - count_crossings(forced), count_links(pairs) - count_links(forced))
        assert (added[0], -added[1]) == _best_over_monotone_choices(open_classes, forced), (hw, rw)
        assert len(pairs) - len(forced) == sum(min(len(h), len(r)) for h, r in open_classes)
        checked += 1
    assert checked > 80


def _random_group(rng):
    """A stage's open classes from random sentences, as the numpy search gets them: every part's
    options (arrays) with their values against the forced pairs, and W."""
    from meteor_core.align import pairwise

    hw = [rng.choice("aabbcdx") for _ in range(rng.randint(6, 12))]
    rw = [rng.choice("aabbcdy") for _ in range(rng.randint(6, 12))]
    forced, open_classes = search.split_classes(range(len(hw)), hw, range(len(rw)), rw)
    parts = [search.Part(hyps, refs) for hyps, refs in open_classes]
    weight = len(forced) + sum(len(p.hyps) for p in parts) + 1
    cost = search.StageCost(forced, weight)
    options = [pairwise.complete_options(p.hyps, p.refs, [cost.row(i, p.refs) for i in p.hyps], p.adjacent)
               for p in parts]
    return options, weight


def _every_total(options, weight):
    """Each joint choice (one option per part) with its total: values plus every two parts'
    table entry."""
    from meteor_core.align import pairwise

    n = len(options)
    tables = {(k, m): pairwise._table(options[k], options[m], weight) for k in range(n) for m in range(k + 1, n)}
    for choice in itertools.product(*[range(len(o[1])) for o in options]):
        yield choice, (sum(o[1][c] for o, c in zip(options, choice))
                       + sum(t[choice[k], choice[m]] for (k, m), t in tables.items()))


def test_descent_without_tables_takes_the_same_steps():
    """Coordinate descent on the candidates' costs ends where descent over the tables does (the
    same incumbent, so the same search after it)."""
    import numpy as np

    from meteor_core.align import pairwise

    rng = random.Random(8)
    compared = 0
    for _ in range(400):
        options, weight = _random_group(rng)
        if len(options) < 2:
            continue
        n = len(options)
        unary = [o[1].copy() for o in options]
        tables = {(k, m): pairwise._table(options[k], options[m], weight) for k in range(n) for m in range(k + 1, n)}
        start = [int(np.argmin(u)) for u in unary]
        assert pairwise._descend_on_pairs(options, weight, start, Budget(10**12)) == \
            pairwise._descend(unary, tables, start, Budget(10**12))
        compared += 1
    assert compared > 200


def test_options_dropped_before_the_tables_cannot_beat_the_incumbent(monkeypatch):
    """The filter that runs before a large part's tables are built drops only options that no
    joint choice beating the incumbent takes (checked over every joint choice), and the search
    after it still finds the exhaustive optimum."""
    import numpy as np

    from meteor_core.align import pairwise

    monkeypatch.setattr(pairwise, "FILTER_OPTIONS", 2)  # small parts count as large here
    rng = random.Random(9)
    checked = dropped = 0
    for _ in range(600):
        options, weight = _random_group(rng)
        sizes = [len(o[1]) for o in options]
        if len(options) < 2 or max(sizes) <= 2 or np.prod(sizes) > 3000:
            continue
        totals = list(_every_total(options, weight))
        least = min(total for _, total in totals)
        start = [int(np.argmin(o[1])) for o in options]
        incumbent = pairwise._descend_on_pairs(options, weight, start, Budget(10**12))
        value = dict(totals)[tuple(incumbent)]
        kept = pairwise._options_that_may_win(options, weight, incumbent, Budget(10**12))
        if kept is not None:
            for choice, total in totals:
                if total <= value - 1:  # beats the incumbent: every option of it is kept
                    assert all(c in set(rows.tolist()) for c, rows in zip(choice, kept))
            dropped += sum(len(o[1]) - len(rows) for o, rows in zip(options, kept))
        choice, proven = pairwise.solve_pairwise(options, weight, Budget(10**12))
        assert proven and dict(totals)[tuple(choice)] == least
        checked += 1
    assert checked > 250 and dropped > 1000


def test_a_spent_budget_stops_the_filtered_search(monkeypatch):
    """With the budget already spent, the search that filters a large part's options answers at
    once with a valid choice, marked as not proven."""
    from meteor_core.align import pairwise

    monkeypatch.setattr(pairwise, "FILTER_OPTIONS", 2)
    rng = random.Random(10)
    answered = 0
    for _ in range(200):
        options, weight = _random_group(rng)
        if len(options) < 2 or max(len(o[1]) for o in options) <= 2:
            continue
        budget = Budget(0)
        budget.spend(1)  # used up
        choice, proven = pairwise.solve_pairwise(options, weight, budget)
        assert proven is False
        assert all(0 <= c < len(o[1]) for o, c in zip(options, choice))
        answered += 1
    assert answered > 50


def test_tables_laid_out_by_their_longer_side_and_pruned_either_way(monkeypatch):
    """A table is stored with its longer side contiguous (same numbers), and _prune keeps the
    same options whether a part's tables are reduced one by one (many options) or side by side."""
    import numpy as np

    from meteor_core.align import pairwise

    tall = np.arange(40.0).reshape(20, 2)
    assert pairwise._laid_out(tall).flags["F_CONTIGUOUS"] and (pairwise._laid_out(tall) == tall).all()
    assert pairwise._laid_out(tall.T).flags["C_CONTIGUOUS"] and (pairwise._laid_out(tall.T) == tall.T).all()
    rng = random.Random(12)
    compared = pruned = 0
    for _ in range(300):
        options, weight = _random_group(rng)
        n = len(options)
        if n < 2:
            continue
        unary = [o[1].copy() for o in options]
        tables = {(k, m): pairwise._laid_out(pairwise._table(options[k], options[m], weight))
                  for k in range(n) for m in range(k + 1, n)}
        tables = {km: t for km, t in tables.items() if t.any()}
        best = pairwise._descend(unary, tables, [int(np.argmin(u)) for u in unary], Budget(10**12))
        value = pairwise._value(unary, tables, best)
        monkeypatch.setattr(pairwise, "MANY_OPTIONS", 0)
        one_by_one = pairwise._prune(unary, tables, best, value)
        monkeypatch.setattr(pairwise, "MANY_OPTIONS", 10**9)
        side_by_side = pairwise._prune(unary, tables, best, value)
        assert (one_by_one is None) == (side_by_side is None)
        if one_by_one is not None:
            assert all((a == b).all() for a, b in zip(one_by_one, side_by_side))
            pruned += 1
        compared += 1
    assert compared > 150 and pruned > 50


def test_combinations_as_an_array_follow_itertools():
    """A complete part's monotone pairings, listed by numpy, come in itertools' order (the
    search's tie-break follows the order of the options)."""
    import numpy as np

    from meteor_core.align.pairwise import _combinations

    for n in range(1, 17):
        for k in range(1, n + 1):
            want = np.array(list(itertools.combinations(range(n), k))).reshape(-1, k)
            got = _combinations(n, k)
            assert got.shape == want.shape and (got == want).all(), (n, k)


def test_pruned_groups_end_in_the_optimum_whether_tried_all_or_searched(monkeypatch):
    """After pruning, a group with few joint choices left has them all tried at once
    (_every_choice); otherwise MPLP and the search prove the optimum. Both endings find the
    exhaustive optimum (checked over every joint choice), each ending is taken, and a choice
    that only ties the incumbent does not replace it."""
    import numpy as np

    from meteor_core.align import pairwise

    tried_all = []
    real_every = pairwise._every_choice

    def counting(*args):
        tried_all.append(1)
        return real_every(*args)

    monkeypatch.setattr(pairwise, "_every_choice", counting)
    rng = random.Random(13)
    checked = 0
    for case in range(600):
        options, weight = _random_group(rng)
        sizes = [len(o[1]) for o in options]
        if len(options) < 2 or np.prod(sizes) > 3000:
            continue
        totals = dict(_every_total(options, weight))
        least = min(totals.values())
        monkeypatch.setattr(pairwise, "EVERY_CHOICE", 4096 if case % 2 else 0)  # 0: always search
        before = len(tried_all)
        choice, proven = pairwise.solve_pairwise(options, weight, Budget(10**12))
        assert proven and totals[tuple(choice)] == least
        assert (len(tried_all) > before) == bool(case % 2)
        checked += 1
    assert checked > 300

    # Ties keep the incumbent: two parts whose every joint choice totals the same.
    unary = [np.zeros(3), np.zeros(2)]
    table = {(0, 1): np.zeros((3, 2))}
    assert pairwise._every_choice(unary, table, [2, 1], 0.0) == [2, 1]
    # One better by 1 replaces it; parts left with one option are folded in.
    unary = [np.array([0.0, 0.0, -1.0]), np.array([5.0]), np.array([0.0, 0.0])]
    table = {(0, 1): np.array([[0.0], [0.0], [0.0]]), (0, 2): np.array([[0.0, 0.0], [0.0, 0.0], [0.0, -1.0]]),
             (1, 2): np.array([[2.0, 0.0]])}
    assert pairwise._every_choice(unary, table, [0, 0, 0], 7.0) == [2, 0, 1]


def test_the_joint_matrix_solves_as_the_tables_do(monkeypatch):
    """A group solved on one matrix of every two options' joint cost (_solve_dense) takes the same
    steps as on its tables: the matrix holds the tables (zero within a part), and the tables
    alone, the matrix alone, and tables switching to the matrix once pruning has left few
    options all choose the same options, the exhaustive optimum."""
    import numpy as np

    from meteor_core.align import pairwise

    real_dense = pairwise._solve_dense
    rng = random.Random(14)
    checked = switched = 0
    for case in range(500):
        options, weight = _random_group(rng)
        sizes = [len(o[1]) for o in options]
        n = len(options)
        if n < 2 or np.prod(sizes) > 3000:
            continue
        joint = pairwise._joint_matrix(options, weight)
        ends = np.cumsum(sizes)
        starts = ends - sizes
        for k in range(n):
            assert not joint[starts[k]:ends[k], starts[k]:ends[k]].any()
            for m in range(k + 1, n):
                table = pairwise._table(options[k], options[m], weight)
                assert (joint[starts[k]:ends[k], starts[m]:ends[m]] == table).all()
                assert (joint[starts[m]:ends[m], starts[k]:ends[k]] == table.T).all()
        totals = dict(_every_total(options, weight))
        monkeypatch.setattr(pairwise, "EVERY_CHOICE", case % 3)  # prune until nothing drops, then search
        answers, used_matrix = [], []
        for dense in (0, sum(sizes) - 1, 10**9):  # tables; tables, then the matrix; the matrix
            monkeypatch.setattr(pairwise, "DENSE_OPTIONS", dense)
            calls = []
            monkeypatch.setattr(pairwise, "_solve_dense", lambda *a: calls.append(1) or real_dense(*a))
            answers.append(pairwise.solve_pairwise(options, weight, Budget(10**12)))
            used_matrix.append(bool(calls))
        assert used_matrix[0] is False and used_matrix[2] is True
        switched += used_matrix[1]
        assert answers[0] == answers[1] == answers[2]
        choice, proven = answers[0]
        assert proven and totals[tuple(choice)] == min(totals.values())
        checked += 1
    assert checked > 250 and switched > 50


def test_tied_choices_listed_or_walked_alike(monkeypatch):
    """_best_links lists a small part's tied choices from all its options and walks a larger
    part's with the dynamic program: with every part listed, or every part walked, the same
    pairs come out, the exhaustive optimum; a group left with one tied choice per part returns
    them without a search."""
    searches, tied_groups = [], []
    real_search, real_best_links = search._small_search, search._best_links
    monkeypatch.setattr(search, "_small_search", lambda *args: searches.append(1) or real_search(*args))
    monkeypatch.setattr(search, "_best_links", lambda *args: tied_groups.append(len(searches)) or real_best_links(*args))
    rng = random.Random(6)
    checked = without_search = 0
    for _ in range(2000):
        hw = [rng.choice('""abcx') for _ in range(rng.randint(8, 14))]
        rw = [rng.choice('"abcy') for _ in range(rng.randint(5, 10))]
        forced, open_classes = search.split_classes(range(len(hw)), hw, range(len(rw)), rw)
        if len(open_classes) < 2 or sum(len(h) * len(r) > 12 for h, r in open_classes) > 1:
            continue
        answers = []
        for few in (0, 10**9):
            monkeypatch.setattr(search, "FEW_OPTIONS", few)
            groups = len(tied_groups)
            answers.append(search.solve_classes(forced, open_classes, [], Budget(10**12)))
            # _best_links entered and left without a search: one tied choice per part
            without_search += len(tied_groups) > groups and tied_groups[-1] == len(searches)
        assert answers[0] == answers[1]
        pairs, proven = answers[0]
        assert proven
        added = (count_crossings(pairs) - count_crossings(forced), count_links(pairs) - count_links(forced))
        assert (added[0], -added[1]) == _best_over_monotone_choices(open_classes, forced), (hw, rw)
        checked += 1
    assert checked > 300 and without_search > 10


def test_parts_with_too_many_options_to_list_are_solved_exactly(monkeypatch):
    """A part with more monotone pairings than MAX_PART_OPTIONS (a quote mark 31 times against
    26 in a quoted passage) lists only the options that may beat the incumbent: the joint
    optimum is still proven and equals the exhaustive one. Here every part of two or more
    options takes that path."""
    from test_core import check_random_groups

    monkeypatch.setattr(search, "MAX_PART_OPTIONS", 1)
    monkeypatch.setattr(search, "SMALL_TABLE_ENTRIES", 0)
    listed = []
    real = search._large_parts_listed
    monkeypatch.setattr(search, "_large_parts_listed", lambda *args: listed.append(1) or real(*args))
    assert check_random_groups(seed=29, fewest_parts=2, most_copies=5) > 300 and len(listed) > 100


def test_a_quoted_passage_is_proven():
    """Two TED segments run together (96 vs 83 tokens, 16 quote marks against 10, commas on both
    sides): the quote marks' part has 8,008 in-order pairings, more than MAX_PART_OPTIONS, and
    the search gave up in 2 ms, unproven, on every machine. Listing only the pairings that may
    win proves it."""
    from conftest import ted_lines

    from meteor_core import MeteorConfig, score

    hyp, ref = " ".join(ted_lines("sys2")[783:785]), " ".join(ted_lines("ref")[783:785])
    assert hyp.count('"') == 16 and ref.count('"') == 10
    result = score(hyp, [ref], MeteorConfig.meteor2005())
    assert result.optimal and result.stopped_by is None
