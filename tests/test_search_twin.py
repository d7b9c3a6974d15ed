"""meteor2005's exact search against its C twins: the joint search of a small group of parts
(search._SmallSearch, align/_small_search.pyx) and of a large one (pairwise.solve_pairwise,
align/_pairwise_search.pyx) give the same pairs, the same proof, the same work spent and the same
cut points, and the pairwise search's joint tables (pairwise._tables and _joint_matrix,
align/_pairwise_tables.pyx) and options (pairwise.complete_options) hold the same numbers, on
every group the whole TED set makes, on the adversarial cases and on thousands of random small
cases."""
import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_core import MeteorConfig, _accel, resources, score
from meteor_core.align import search
from meteor_core.align.search import Budget

TWIN = _accel.twin("meteor_core.align._small_search")
TABLES = _accel.twin("meteor_core.align._pairwise_tables")
needs_twin = pytest.mark.skipif((TWIN is None or TABLES is None) and not os.environ.get("METEOR_REQUIRE_ACCEL"),
                                reason="the C twins are not built (python build_accel.py)")


def _both(parts, options, weight, limit=None):
    """(pairs, proven, work spent, why stopped) from the pure search and from the twin, each with
    a fresh budget of ``limit`` units."""
    found = []
    for twin in (False, True):
        budget = Budget() if limit is None else Budget(limit)
        if twin:
            boxes = [(p.hyps[0], p.hyps[-1], p.refs[0], p.refs[-1]) for p in parts]
            pairs, proven = TWIN.small_search(options, weight, budget, boxes, search._link_opportunities(parts).parts)
        else:
            pairs, proven = search._SmallSearch(parts, options, weight, budget).run()
        found.append((pairs, proven, budget.used, budget.exhausted, budget.stopped_by))
    return found


def _groups_of(pairs, config, monkeypatch):
    """Every small-group search that scoring ``pairs`` makes: (parts, options, weight)."""
    groups = []
    real = search._small_search

    def recording(parts, options, weight, budget):
        groups.append((parts, options, weight))
        return real(parts, options, weight, budget)

    monkeypatch.setattr(search, "_small_search", recording)
    # (without the parts twin, which searches most small groups itself, calling the C search directly)
    monkeypatch.setattr(search, "_C_ALONE", None)
    for h, r in pairs:
        score(h, [r], config)
    return groups


@needs_twin
def test_every_group_of_the_ted_set_searched_alike_whole_and_cut(monkeypatch):
    """Each small group the whole TED set makes (both systems, meteor2005), searched in full and
    with budgets that cut it at a quarter, a half and nine tenths of its work, and after one
    unit: identical on both paths."""
    from conftest import ted_lines

    ref = ted_lines("ref")
    pairs = [(h, r) for system in ("sys1", "sys2") for h, r in zip(ted_lines(system), ref)]
    groups = _groups_of(pairs, MeteorConfig.preset("meteor2005"), monkeypatch)
    assert len(groups) > 100
    cut = 0
    for parts, options, weight in groups:
        whole = _both(parts, options, weight)
        assert whole[0] == whole[1]
        work = whole[0][2]
        for limit in sorted({1, work // 4, work // 2, 9 * work // 10} - {0}):
            found = _both(parts, options, weight, limit)
            assert found[0] == found[1], (limit, work)
            cut += found[0][3]
    assert cut > 100  # the cuts did fall inside searches


@needs_twin
def test_the_c_small_search_is_the_python_one_on_random_small_cases():
    """10,000 random sentences over tiny vocabularies (words repeated on both sides, so that parts
    cross and link), each stage's classes solved with the twin and without, with budgets that cut
    anywhere: the same pairs, proof, work and stop."""
    words = ["the", "a", "cat", "x", "of", '"', "y"]
    sentence = st.lists(st.sampled_from(words), min_size=2, max_size=16)
    seen = {"groups": 0}
    real = search._small_search

    def counting(*args):
        seen["groups"] += 1
        return real(*args)

    @settings(max_examples=10_000, deadline=None, derandomize=True)
    @given(sentence, sentence, st.sampled_from([None, 1, 30, 300, 3_000]))
    def same(hyp, ref, limit):
        forced, open_classes = search.split_classes(range(len(hyp)), hyp, range(len(ref)), ref)
        found = []
        for twin in (None, TWIN):
            search._C_SMALL_SEARCH = twin
            budget = Budget() if limit is None else Budget(limit)
            pairs, proven = search.solve_classes(forced, open_classes, [], budget)
            found.append((pairs, proven, budget.used, budget.stopped_by))
        assert found[0] == found[1]

    original = search._C_SMALL_SEARCH
    search._small_search = counting
    try:
        same()
    finally:
        search._C_SMALL_SEARCH = original
        search._small_search = real
    assert seen["groups"] > 1_000


@needs_twin
def test_whole_results_are_identical_with_and_without_the_twin(monkeypatch):
    """Random sentences with stems and synonyms too, scored by meteor2005: every to_dict field."""
    config = MeteorConfig.preset("meteor2005")
    words = ["the", "cat", "cats", "big", "large", "a", "sat", "sit", "on", "mat", "."]
    sentence = st.lists(st.sampled_from(words), min_size=1, max_size=18)

    @settings(max_examples=1_500, deadline=None, derandomize=True)
    @given(sentence, sentence)
    def same(hyp, ref):
        found = []
        for twin in (None, TWIN):
            monkeypatch.setattr(search, "_C_SMALL_SEARCH", twin)
            found.append(score(" ".join(hyp), [" ".join(ref)], config).to_dict())
        assert found[0] == found[1]

    same()


def _same_tables(calls) -> int:
    """Each recorded _tables or _joint_matrix call made again by the pure function and by the twin:
    the same arrays (shape, type, every number). Returns how many were compared."""
    import numpy as np

    from meteor_core.align import pairwise

    pure_tables, pure_joint = pairwise._tables.__wrapped__, pairwise._joint_matrix.__wrapped__
    for kind, args in calls:
        if kind == "tables":
            pure, twin = pure_tables(*args), TABLES.tables(*args)
            assert len(pure) == len(twin)
        else:
            pure, twin = [pure_joint(*args)], [TABLES.joint_matrix(*args)]
        for p, t in zip(pure, twin):
            assert p.shape == t.shape and p.dtype == t.dtype and np.array_equal(p, t)
    return len(calls)


def _recording_tables(monkeypatch):
    """_tables and _joint_matrix recorded (their arguments) and run from pairwise.py's own code."""
    import functools

    from meteor_core.align import pairwise

    calls = []
    monkeypatch.setattr(pairwise, "_C_TABLES", None)
    monkeypatch.setattr(pairwise, "_C_SEARCH", None)  # (the search twin builds its tables itself)
    monkeypatch.setattr(search, "_C_PAIRWISE", None)
    for name, kind in (("_tables", "tables"), ("_joint_matrix", "joint")):
        real = getattr(pairwise, name)

        @functools.wraps(real)
        def recording(*args, _real=real, _kind=kind):
            calls.append((_kind, args))
            return _real(*args)

        monkeypatch.setattr(pairwise, name, recording)
    return calls


@needs_twin
def test_the_joint_tables_of_the_ted_set_are_the_same_in_c(monkeypatch):
    """Every table the whole TED set's long segments build (meteor2005), by both paths."""
    from conftest import ted_lines

    calls = _recording_tables(monkeypatch)
    ref = ted_lines("ref")
    config = MeteorConfig.preset("meteor2005")
    for system in ("sys1", "sys2"):
        for h, r in zip(ted_lines(system), ref):
            if len(r.split()) > 40:  # (the joint tables are built for long segments only)
                score(h, [r], config)
    assert {kind for kind, _ in calls} == {"tables", "joint"}
    assert _same_tables(calls) > 30


@needs_twin
def test_the_joint_tables_are_the_same_in_c_on_random_groups(monkeypatch):
    """Random groups of complete parts (repeated words, forced pairs around them) and of listed
    options (a synonym part's matchings: any pairs), solved by the pairwise search: every table
    it builds, by both paths."""
    from meteor_core.align import pairwise
    from test_search_tail import _random_group

    calls = _recording_tables(monkeypatch)
    rng = random.Random(33)
    for case in range(600):
        options, weight = _random_group(rng) if case % 2 else _random_listed(rng, pairwise)
        if len(options) < 2:
            continue
        monkeypatch.setattr(pairwise, "DENSE_OPTIONS", 0 if case % 3 else 10**9)  # tables, or one matrix
        pairwise.solve_pairwise(options, weight, Budget(10**12))
    assert {kind for kind, _ in calls} == {"tables", "joint"}
    assert _same_tables(calls) > 400


SEARCH = _accel.twin("meteor_core.align._pairwise_search")
needs_search_twin = pytest.mark.skipif(SEARCH is None and not os.environ.get("METEOR_REQUIRE_ACCEL"),
                                       reason="the C twins are not built (python build_accel.py)")


def _pairwise_both(options, weight, limit, monkeypatch):
    """(choice, proven, work spent, exhausted, why stopped) from pairwise.solve_pairwise run from
    pairwise.py and by its twin, each with a fresh budget of ``limit`` units."""
    from meteor_core.align import pairwise

    found = []
    for twin in (None, SEARCH):
        monkeypatch.setattr(pairwise, "_C_SEARCH", twin)
        budget = Budget(limit)
        choice, proven = pairwise.solve_pairwise(options, weight, budget)
        found.append(([int(c) for c in choice], proven, budget.used, budget.exhausted, budget.stopped_by))
    return found


def _pairwise_groups(pairs, monkeypatch) -> list:
    """Every (options, weight) that scoring ``pairs`` with meteor2005 gives the pairwise search."""
    from meteor_core.align import pairwise

    groups = []
    real = pairwise.solve_pairwise

    def recording(options, weight, budget):
        groups.append((options, weight))
        return real(options, weight, budget)

    monkeypatch.setattr(pairwise, "solve_pairwise", recording)
    monkeypatch.setattr(search, "_C_PAIRWISE", None)  # (search.py then calls pairwise's)
    config = MeteorConfig.preset("meteor2005")
    for h, r in pairs:
        score(h, [r], config)
    monkeypatch.setattr(pairwise, "solve_pairwise", real)
    monkeypatch.undo()
    return groups


def _same_whole_and_cut(groups, monkeypatch) -> int:
    """Each group searched in full and with budgets that cut it anywhere: the same on both paths.
    Returns how many searches were cut."""
    from meteor_core.align.search import WORK_LIMIT

    cut = 0
    for options, weight in groups:
        whole = _pairwise_both(options, weight, WORK_LIMIT, monkeypatch)
        assert whole[0] == whole[1]
        work = whole[0][2]
        for limit in sorted({1, work // 4, work // 2, 9 * work // 10, work - 1} - {0}):
            found = _pairwise_both(options, weight, limit, monkeypatch)
            assert found[0] == found[1], (limit, work)
            cut += found[0][3]
    return cut


@needs_search_twin
def test_every_large_group_of_the_ted_set_searched_alike_whole_and_cut(monkeypatch):
    """The pairwise search of each large group the whole TED set makes (both systems: the filter
    of a large part's options, the tables, the joint matrix, the pruning rounds), whole and cut."""
    from conftest import ted_lines

    ref = ted_lines("ref")
    pairs = [(h, r) for system in ("sys1", "sys2") for h, r in zip(ted_lines(system), ref)]
    groups = _pairwise_groups(pairs, monkeypatch)
    assert len(groups) >= 7
    assert _same_whole_and_cut(groups, monkeypatch) > 20


@needs_search_twin
def test_the_adversarial_cases_search_alike_whole_and_cut(monkeypatch):
    """The adversarial segments (bench/adversarial.py): their whole results (the proof and why a
    search stopped among them) with the twin and without, and any group of theirs that reaches the
    pairwise search alike, whole and cut (today their groups are capped or cut before it)."""
    from bench.adversarial import cases
    from meteor_core.align import pairwise

    config = MeteorConfig.preset("meteor2005")
    _same_whole_and_cut(_pairwise_groups(list(cases().values()), monkeypatch), monkeypatch)
    for hyp, ref in cases().values():
        found = []
        for twin in (None, SEARCH):
            monkeypatch.setattr(pairwise, "_C_SEARCH", twin)
            found.append(score(hyp, [ref], config).to_dict())
        assert found[0] == found[1]


def _random_listed(rng, pairwise):
    """A random group of listed options (a synonym part's matchings: any pairs), and W."""
    options, weight = [], rng.randint(2, 40)
    for _ in range(rng.randint(2, 5)):
        need = rng.randint(1, 3)
        pairs = [(rng.randint(0, 15), rng.randint(0, 15)) for _ in range(need * rng.randint(1, 4))]
        listed = [(rng.randint(-5, 20), sorted(rng.sample(pairs, need))) for _ in range(rng.randint(1, 6))]
        options.append(pairwise.listed_options(listed))
    return options, weight


@needs_search_twin
def test_the_c_pairwise_search_is_the_numpy_one_on_random_groups(monkeypatch):
    """Random groups of complete parts and of listed options, with the search's thresholds moved
    so that every path is taken (the filter of large parts, tables or one matrix, pruning until
    few choices are left or until nothing drops, the linear-programming bound and the branch and
    bound after it), whole and with budgets that cut anywhere: the same choice, proof, work and
    stop. Where the search proves its choice, no joint choice totals less (brute force)."""
    from meteor_core.align import pairwise
    from test_search_tail import _every_total, _random_group

    rng = random.Random(2005)
    proven = 0
    for case in range(1_500):
        options, weight = _random_group(rng) if case % 2 else _random_listed(rng, pairwise)
        if len(options) < 2:
            continue
        monkeypatch.setattr(pairwise, "FILTER_OPTIONS", rng.choice([2, 5, 1000]))
        monkeypatch.setattr(pairwise, "DENSE_OPTIONS", rng.choice([0, 8, 400]))
        monkeypatch.setattr(pairwise, "DENSE_CANDIDATES", rng.choice([10, 1000]))
        monkeypatch.setattr(pairwise, "EVERY_CHOICE", rng.choice([0, 1, 6, 4096]))
        whole = _pairwise_both(options, weight, 10**9, monkeypatch)
        assert whole[0] == whole[1], case
        choice, ok, work = whole[0][:3]
        if ok:
            proven += 1
            chosen_total = next(t for c, t in _every_total(options, weight) if list(c) == choice)
            assert chosen_total == min(t for _, t in _every_total(options, weight))
        for limit in {1, rng.randint(1, max(1, work)), max(1, work - 1)}:
            found = _pairwise_both(options, weight, limit, monkeypatch)
            assert found[0] == found[1], (case, limit, work)
    assert proven > 1_000


@needs_search_twin
def test_complete_options_are_the_same_in_c():
    """A complete part's monotone pairings, values and indices: the same arrays from the twin."""
    import numpy as np

    from meteor_core.align import pairwise

    rng = random.Random(7)
    for _ in range(3_000):
        hyps = sorted(rng.sample(range(20), rng.randint(1, 7)))
        refs = sorted(rng.sample(range(20), rng.randint(1, 7)))
        rows = [[rng.randint(-3, 30) for _ in refs] for _ in hyps]
        adjacent = rng.random() < 0.7
        original = pairwise._C_SEARCH
        pairwise._C_SEARCH = None
        try:
            pure = pairwise.complete_options(hyps, refs, rows, adjacent)
        finally:
            pairwise._C_SEARCH = original
        twin = SEARCH.complete_options(hyps, refs, rows, adjacent)
        assert pure[0] == twin[0]
        for p, t in zip(pure[1:], twin[1:]):
            assert p.shape == t.shape and p.dtype == t.dtype and np.array_equal(p, t)


SPLIT = _accel.twin("meteor_core.align._split_classes")
needs_split_twin = pytest.mark.skipif(SPLIT is None and not os.environ.get("METEOR_REQUIRE_ACCEL"),
                                      reason="the C twins are not built (python build_accel.py)")


def _pure_split(*args):
    original = search._C_SPLIT
    search._C_SPLIT = None
    try:
        return search.split_classes(*args)
    finally:
        search._C_SPLIT = original


@needs_split_twin
@settings(max_examples=3_000, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from("aabbcdxyz"), max_size=14), st.lists(st.sampled_from("aabbcdxyz"), max_size=14),
       st.integers(0, 5), st.integers(1, 3), st.booleans())
def test_split_classes_on_int_ids_are_the_python_ones(hyp, ref, start, step, listed):
    """Random keys over a tiny vocabulary (keys repeated on one side, both or neither), at
    positions given as ranges or lists with gaps (a later stage's free tokens): the same forced
    pairs and open classes, in the same order."""
    hyp_at = range(start, start + step * len(hyp), step)
    ref_at = range(len(ref))
    if listed:
        hyp_at, ref_at = list(hyp_at), [2 * j + 1 for j in ref_at]
    assert SPLIT.split_classes(hyp_at, hyp, ref_at, ref) == _pure_split(hyp_at, hyp, ref_at, ref)


class _OneBucketKey:
    """A key equal to another by its value, every one with the same hash (a long probe chain)."""

    def __init__(self, value):
        self.value = value

    def __hash__(self):
        return 7

    def __eq__(self, other):
        return isinstance(other, _OneBucketKey) and other.value == self.value


@needs_split_twin
@settings(max_examples=1_000, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from("aabbcdxyz"), max_size=14), st.lists(st.sampled_from("aabbcdxyz"), max_size=14),
       st.booleans())
def test_split_classes_find_equal_keys_as_a_dict_does(hyp, ref, one_bucket):
    """Equal keys that are different objects (strings made apart) or that all share one hash: the
    twin numbers them as the Python dicts group them."""
    if one_bucket:
        hyp, ref = [_OneBucketKey(k) for k in hyp], [_OneBucketKey(k) for k in ref]
    else:
        hyp, ref = ["".join(["w", k]) for k in hyp], ["".join(["w", k]) for k in ref]
    at_h, at_r = list(range(len(hyp))), list(range(len(ref)))
    assert SPLIT.split_classes(at_h, hyp, at_r, ref) == _pure_split(at_h, hyp, at_r, ref)


def _ted_sentences() -> list[tuple[list[str], list[str]]]:
    """Every pair of the TED set (both systems), lower-cased and split into words."""
    from conftest import ted_lines

    ref = ted_lines("ref")
    return [(h.lower().split(), r.lower().split()) for system in ("sys1", "sys2")
            for h, r in zip(ted_lines(system), ref)]


@needs_split_twin
def test_split_classes_on_int_ids_are_the_python_ones_on_the_ted_set():
    compared = 0
    for hyp, refs in _ted_sentences():
        found = SPLIT.split_classes(range(len(hyp)), hyp, range(len(refs)), refs)
        assert found == _pure_split(range(len(hyp)), hyp, range(len(refs)), refs)
        compared += bool(found[1])
    assert compared > 500  # sentences with open classes among them


SYNONYMS = _accel.twin("meteor_core.align._synonym_candidates")
needs_synonym_twin = pytest.mark.skipif(SYNONYMS is None and not os.environ.get("METEOR_REQUIRE_ACCEL"),
                                        reason="the C twins are not built (python build_accel.py)")
_SYNONYM_WORDS = ["big", "large", "great", "bad", "cat", "true", "dog", "house", "home", "a", ".", "run", "go",
                  "walk", "pass", "die", "fail", "qwzx"]


def _candidates_both(hyp, ref, free_h, free_r):
    """optimal._synonym_candidates from optimal.py's own code and from the twin, each as its pairs
    in order and which positions share one list."""
    from meteor_core.align import optimal

    config = MeteorConfig.preset("meteor2005")
    found = []
    for twin in (None, SYNONYMS):
        original = optimal._C_SYNONYMS
        optimal._C_SYNONYMS = twin
        try:
            out = optimal._synonym_candidates(hyp, ref, free_h, free_r, config)
        finally:
            optimal._C_SYNONYMS = original
        found.append((list(out.items()), [[k for k in out if out[k] is out[i]] for i in out]))
    return found


@needs_synonym_twin
@settings(max_examples=2_000, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_SYNONYM_WORDS), max_size=12), st.lists(st.sampled_from(_SYNONYM_WORDS), max_size=12),
       st.integers(0, 2))
def test_synonym_candidates_on_int_arrays_are_the_python_ones(hyp, ref, gaps):
    """Random sentences over words that share synsets, none or many (and one WordNet lacks), with
    every position free or every few taken by an earlier stage: the same candidates in the same
    order, tokens of one word sharing one list."""
    free_h = [i for i in range(len(hyp)) if not gaps or i % (gaps + 1)]
    free_r = [j for j in range(len(ref)) if not gaps or j % (gaps + 2)]
    found = _candidates_both(hyp, ref, free_h, free_r)
    assert found[0] == found[1]
    # the keys two of its words share (optimal._via names a synonym match's synset from them)
    for a in map(hyp.__getitem__, free_h):
        for b in map(ref.__getitem__, free_r):
            shared = sorted(resources.synsets_of(a) & resources.synsets_of(b))
            assert SYNONYMS.shared_wordnet_keys(a, b) == shared, (a, b)
            assert resources.shared_synset_of_keys(a, b, SYNONYMS.shared_wordnet_keys) == resources.shared_synset(a, b)


@needs_synonym_twin
def test_shared_keys_of_a_word_the_twin_does_not_keep_come_from_synsets_of():
    _candidates_both(["big"], ["large"], [0], [0])
    assert SYNONYMS.shared_wordnet_keys("big", "large") == sorted(resources.synsets_of("big") & resources.synsets_of("large"))
    assert SYNONYMS.shared_wordnet_keys("big", "a-word-never-looked-up") is None
    # resources names such a pair from synsets_of, as shared_synset does
    asked = []
    assert resources.shared_synset_of_keys("automobile", "car", lambda a, b: asked.append((a, b))) == "car.n.01"
    assert asked == [("automobile", "car")] and resources.shared_synset("automobile", "car") == "car.n.01"


@needs_synonym_twin
def test_synonym_candidates_on_int_arrays_are_the_python_ones_on_the_ted_set():
    with_candidates = 0
    for hyp, refs in _ted_sentences():
        found = _candidates_both(hyp, refs, range(len(hyp)), list(range(len(refs))))
        assert found[0] == found[1]
        with_candidates += bool(found[0][0])
    assert with_candidates > 1_000


ALONE = _accel.twin("meteor_core.align._parts_alone")
needs_alone_twin = pytest.mark.skipif(ALONE is None and not os.environ.get("METEOR_REQUIRE_ACCEL"),
                                      reason="the C twins are not built (python build_accel.py)")


def _solve_parts_both(spec, fixed, limit=None):
    """search._solve_parts on fresh Parts (``spec``: (hyps, refs) each), with and without its C
    first steps: (pairs, proven, work spent, why stopped) each."""
    found = []
    for twin in (None, ALONE):
        original = search._C_ALONE
        search._C_ALONE = twin
        try:
            budget = Budget() if limit is None else Budget(limit)
            pairs, proven = search._solve_parts([search.Part(h, r) for h, r in spec], list(fixed), budget)
        finally:
            search._C_ALONE = original
        found.append((pairs, proven, budget.used, budget.stopped_by))
    return found


def _solve_classes_both(forced, open_classes, fixed, limit=None):
    """search.solve_classes with and without its C first steps (classes_alone): (pairs, proven,
    work spent, why stopped) each."""
    found = []
    for twin in (None, ALONE):
        original = search._C_ALONE
        search._C_ALONE = twin
        try:
            budget = Budget() if limit is None else Budget(limit)
            pairs, proven = search.solve_classes(list(forced), open_classes, list(fixed), budget)
        finally:
            search._C_ALONE = original
        found.append((pairs, proven, budget.used, budget.stopped_by))
    return found


@needs_alone_twin
def test_parts_alone_in_c_are_the_python_steps_on_random_stages():
    """Random sentences over tiny vocabularies, each stage's classes against fixed pairs that
    cross one another or not (an earlier stage's), through _solve_parts and solve_classes: the same
    pairs, proof, work and stop, whether the C steps answer or hand the stage back; and they do
    answer most of them."""
    rng = random.Random(1534)
    answered = answered_by_program = answered_in_groups = 0
    for case in range(4_000):
        hw = [rng.choice("aabbcdxyzuvw") for _ in range(rng.randint(2, 16))]
        rw = [rng.choice("aabbcdxyzuvw") for _ in range(rng.randint(2, 16))]
        free_h = [i for i in range(len(hw)) if hw[i] not in "uvw" or case % 2]
        free_r = [j for j in range(len(rw)) if rw[j] not in "uvw" or case % 2]
        taken_h = [i for i in range(len(hw)) if i not in free_h]
        taken_r = [j for j in range(len(rw)) if j not in free_r]
        rng.shuffle(taken_r)  # an earlier stage's pairs, crossing one another or not
        fixed = list(zip(taken_h, taken_r))
        forced, open_classes = search.split_classes(free_h, [hw[i] for i in free_h], free_r,
                                                    [rw[j] for j in free_r])
        if not open_classes:
            continue
        found = _solve_parts_both(open_classes, fixed + forced)
        assert found[0] == found[1], (hw, rw, fixed)
        assert _solve_classes_both(forced, open_classes, fixed)[0] == _solve_classes_both(forced, open_classes, fixed)[1]
        parts = [search.Part(h, r) for h, r in open_classes]
        weight = len(fixed + forced) + sum(len(p.hyps) for p in parts) + 1
        budget = Budget()
        alone = ALONE.solve_alone(parts, fixed + forced, weight, budget)
        answered += alone is not None
        if alone is None:
            assert budget.used == 0  # a stage handed back has spent nothing: the Python steps spend it
            if search._C_SMALL_SEARCH is not None:  # interacting parts: small groups answered in C
                answered_in_groups += ALONE.solve_alone(parts, fixed + forced, weight, Budget(),
                                                        search._C_SMALL_SEARCH, search.SMALL_TABLE_ENTRIES) is not None
        else:
            # those of the dynamic program (three copies a side, or two with neighbours) among them
            answered_by_program += any(len(p.hyps) > 1 and len(p.refs) > 1
                                       and (p.adjacent or min(len(p.hyps), len(p.refs)) > 2) for p in parts)
        if case % 10 == 0:  # cut budgets: the C steps spend as the Python ones, so cuts fall alike
            work = found[0][2]
            for limit in {1, max(1, work // 2)}:
                cut = _solve_parts_both(open_classes, fixed + forced, limit)
                assert cut[0] == cut[1]
    assert answered > 1_000 and answered_by_program > 100
    assert answered_in_groups > 100 or search._C_SMALL_SEARCH is None


@needs_alone_twin
def test_every_stage_of_the_ted_set_with_a_choice_is_solved_alike_whole_and_cut(monkeypatch):
    """Every exact and stem stage of the whole TED set (both systems, meteor2005) that needs a
    choice, solved with and without the parts twin (which answers most of them, dynamic programs
    and small groups included), in full and with budgets cut after one unit and at half its work:
    the same pairs, proof, work and stop."""
    from conftest import ted_lines
    from meteor_core.align import optimal

    stages = []
    real = search.solve_classes

    def recording(forced, open_classes, fixed, budget):
        if open_classes:
            stages.append((list(forced), [(list(h), list(r)) for h, r in open_classes], list(fixed)))
        return real(forced, open_classes, fixed, budget)

    monkeypatch.setattr(optimal, "solve_classes", recording)
    ref = ted_lines("ref")
    for system in ("sys1", "sys2"):
        for h, r in zip(ted_lines(system), ref):
            score(h, [r], MeteorConfig.preset("meteor2005"))
    assert len(stages) > 300
    spent = 0
    for forced, open_classes, fixed in stages:
        whole = _solve_classes_both(forced, open_classes, fixed)
        assert whole[0] == whole[1]
        spent += whole[0][2] > 0
        for limit in sorted({1, whole[0][2] // 2} - {0}):
            cut = _solve_classes_both(forced, open_classes, fixed, limit)
            assert cut[0] == cut[1], limit
    assert spent > 100  # stages whose search spends work (dynamic programs, small groups) among them


@needs_alone_twin
def test_a_part_too_large_for_the_twins_program_is_handed_back_unspent():
    """A word 1,100 times against 1,000 (more cells than the twin's dynamic program takes on) is
    left to the Python steps, with nothing spent; they cut it by work."""
    open_classes = [(list(range(0, 2_200, 2)), list(range(1, 2_001, 2)))]
    budget = Budget()
    assert ALONE.classes_alone(open_classes, [], budget, search._C_SMALL_SEARCH, search.SMALL_TABLE_ENTRIES) is None
    assert budget.used == 0
    pairs, proven = search.solve_classes([], open_classes, [], budget)
    assert len(pairs) == 1_000 and not proven and budget.stopped_by == "work"


@needs_search_twin
def test_stages_solved_through_the_numpy_free_path_are_the_same(monkeypatch):
    """search._solve_group hands a large group to the twin directly (options made by its
    complete_part and listed_part, no numpy) or to pairwise.py: random stages (the pairwise search
    forced for every group, synonym parts among them), whole and cut, give the same pairs, proof,
    work and stop."""
    from test_core import _random_classes

    twin = search._C_PAIRWISE
    monkeypatch.setattr(search, "SMALL_TABLE_ENTRIES", 0)  # every joint choice by the pairwise search
    rng = random.Random(2006)
    compared = 0
    for case in range(2_000):
        hw, rw = _random_classes(rng, "abcx", "abcy", 3, 9)
        fixed_at = [i for i, w in enumerate(hw) if w == "x"], [j for j, w in enumerate(rw) if w == "y"]
        fixed = list(zip(fixed_at[0], fixed_at[1]))
        if case % 2:
            cands = {i: [j for j, v in enumerate(rw) if v == w or (w, v) in {("a", "b"), ("b", "c")}]
                     for i, w in enumerate(hw) if w not in "x"}
            solve = lambda budget: search.solve_stage({i: js for i, js in cands.items() if js}, fixed, budget)
        else:
            forced, open_classes = search.split_classes(range(len(hw)), hw, range(len(rw)), rw)
            solve = lambda budget: search.solve_classes(forced, open_classes, fixed, budget)
        found = []
        for limit in (10**9, rng.randint(1, 3_000)):
            for path in (None, twin):
                monkeypatch.setattr(search, "_C_PAIRWISE", path)
                budget = Budget(limit)
                pairs, proven = solve(budget)
                found.append((sorted(pairs), proven, budget.used, budget.stopped_by))
        assert found[0] == found[1] and found[2] == found[3], (hw, rw)
        compared += found[0][2] > 0
    assert compared > 500


@needs_search_twin
def test_scoring_the_ted_set_compiled_imports_no_numpy():
    """The compiled search needs no numpy on the whole TED set (importing it took ~0.09 s of CPU,
    half a cold run); without the twins, pairwise.py imports it for the long segments."""
    import subprocess
    import sys

    from conftest import ROOT

    code = ("import sys\nfrom conftest import ted_lines\nfrom meteor_core import MeteorConfig, score\n"
            "c = MeteorConfig.preset('meteor2005')\nref = ted_lines('ref')\n"
            "for s in ('sys1', 'sys2'):\n    for h, r in zip(ted_lines(s), ref): score(h, [r], c)\n"
            "print('numpy' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{ROOT / 'tests'}")
    for pure, expected in ((False, "False"), (True, "True")):
        env.pop("METEOR_PURE", None)
        if pure:
            env["METEOR_PURE"] = "1"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                             check=True).stdout.split()
        assert out[-1] == expected


def test_the_twin_knows_pairwise_constants():
    """The pairwise twin's own copy of pairwise.py's constants (used while pairwise is not
    imported) holds the same numbers."""
    if SEARCH is None:
        pytest.skip("the C twins are not built (python build_accel.py)")
    from meteor_core.align import pairwise

    assert SEARCH._DEFAULTS == {name: getattr(pairwise, name) for name in SEARCH._DEFAULTS}


@needs_alone_twin
def test_a_small_groups_options_are_the_same_in_c():
    """search._complete_options (every monotone pairing of a small group's part, its value against
    the fixed pairs, links taken off) listed by the twin and by search.py: the same list."""
    rng = random.Random(1139)
    for _ in range(3_000):
        hyps = sorted(rng.sample(range(14), rng.randint(1, 5)))
        refs = sorted(rng.sample(range(14), rng.randint(1, 5)))
        free_h = [i for i in range(24) if i not in hyps]
        free_r = [j for j in range(24) if j not in refs]
        n_fixed = rng.randint(0, 6)
        cost = search.StageCost(list(zip(rng.sample(free_h, n_fixed), rng.sample(free_r, n_fixed))), 40)
        original = search._C_ALONE
        search._C_ALONE = None
        try:
            pure = search._complete_options(search.Part(hyps, refs), cost)
        finally:
            search._C_ALONE = original
        assert ALONE.complete_options(hyps, refs, search.Part(hyps, refs).short_side_costs(cost),
                                      search.Part(hyps, refs).adjacent) == pure


STEM_KEYS = _accel.twin("meteor_core.align._stem_keys")
needs_stem_twin = pytest.mark.skipif(STEM_KEYS is None and not os.environ.get("METEOR_REQUIRE_ACCEL"),
                                     reason="the C twins are not built (python build_accel.py)")
_STEM_WORDS = ["run", "runs", "running", "ran", "Runner", "cat", "cats", "Cat", "city", "cities", "a", "an",
               "the", ".", "'s", "", "İstanbul", "istanbul", "über", "Über"]


def _stem_stage_inputs(hyp, ref, free_h, free_r):
    """What align_optimal gives split_classes in the stem stage, made by optimal.py's own code (None:
    the stage is skipped)."""
    from meteor_core import resources
    from meteor_core.align import optimal

    stem = resources.stemmer("porter", "en")
    stem_h, stem_r = optimal._may_share_stem(hyp, ref, free_h, free_r, "porter")
    if not stem_h:
        return None
    keys_h, keys_r = [stem(hyp[i]) for i in stem_h], [stem(ref[j]) for j in stem_r]
    return None if set(keys_h).isdisjoint(keys_r) else (list(stem_h), keys_h, list(stem_r), keys_r)


@needs_stem_twin
@settings(max_examples=3_000, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_STEM_WORDS), max_size=12), st.lists(st.sampled_from(_STEM_WORDS), max_size=12),
       st.integers(0, 2))
def test_stem_stage_inputs_on_int_ids_are_the_python_ones(hyp, ref, gaps):
    """Random sentences over words that share a first letter, a stem, both or neither (empty words
    and letters that lower-case to two among them), every position free or some taken by the
    exact stage: the same positions and stems for split_classes, or the stage skipped alike."""
    from meteor_core import resources

    free_h = [i for i in range(len(hyp)) if not gaps or i % (gaps + 1)]
    free_r = [j for j in range(len(ref)) if not gaps or j % (gaps + 2)]
    stem = resources.stemmer("porter", "en")
    assert STEM_KEYS.stem_keys(hyp, ref, free_h, free_r, stem, resources.MEMO_LIMIT) == \
        _stem_stage_inputs(hyp, ref, free_h, free_r)


@needs_stem_twin
def test_stem_stage_inputs_on_int_ids_are_the_python_ones_on_the_ted_set():
    from meteor_core import resources

    stem = resources.stemmer("porter", "en")
    staged = 0
    for hyp, refs in _ted_sentences():
        found = STEM_KEYS.stem_keys(hyp, refs, range(len(hyp)), list(range(len(refs))), stem, resources.MEMO_LIMIT)
        assert found == _stem_stage_inputs(hyp, refs, range(len(hyp)), list(range(len(refs))))
        staged += found is not None
    assert staged > 1_000


@needs_stem_twin
@settings(max_examples=2_000, deadline=None, derandomize=True)
@given(st.lists(st.booleans(), max_size=30), st.lists(st.booleans(), max_size=30), st.randoms(use_true_random=False),
       st.booleans())
def test_the_positions_left_to_the_next_stage_are_the_python_ones(free_h_marks, free_r_marks, rng, as_range):
    """Free positions (increasing, with gaps, or a whole sentence's range) and a stage's pairs
    among them (none, some, all of one side): the same positions left, in order, as optimal's sets."""
    from meteor_core.align import optimal

    free_h = range(len(free_h_marks)) if as_range else [i for i, free in enumerate(free_h_marks) if free]
    free_r = [j for j, free in enumerate(free_r_marks) if free]
    n = rng.randint(0, min(len(free_h), len(free_r)))
    pairs = list(zip(rng.sample(list(free_h), n), rng.sample(free_r, n)))
    original = optimal._C_STEM_KEYS
    optimal._C_STEM_KEYS = None
    try:
        pure = optimal._left_free(free_h, free_r, pairs)
    finally:
        optimal._C_STEM_KEYS = original
    assert STEM_KEYS.left_free(free_h, free_r, pairs) == pure
    assert pure == ([i for i in free_h if i not in {i for i, _ in pairs}], [j for j in free_r if j not in {j for _, j in pairs}])


@needs_stem_twin
def test_a_pair_outside_the_free_positions_is_refused():
    with pytest.raises(ValueError, match="not among the free positions"):
        STEM_KEYS.left_free([0, 1], [0, 1], [(2, 0)])
    assert STEM_KEYS.left_free([0, 1, 2], [0, 1], [[2, 0]]) == ([0, 1], [1])  # (pairs as any two-item sequence)


@needs_stem_twin
@needs_synonym_twin
def test_the_int_id_memos_start_again_when_full():
    """With a memo of a few words (it empties itself when full, as resources.WordMemo does), the
    stem stage's inputs and the synonym candidates stay the Python ones (split_classes keeps no
    memo: each call numbers its own keys)."""
    from meteor_core import resources

    config = MeteorConfig.preset("meteor2005")
    stem = resources.stemmer("porter", "en")
    keys = resources.synonym_sets(config.synonym_source)
    rng = random.Random(9)
    for _ in range(500):
        hyp = [rng.choice(_STEM_WORDS + _SYNONYM_WORDS) for _ in range(rng.randint(0, 9))]
        ref = [rng.choice(_STEM_WORDS + _SYNONYM_WORDS) for _ in range(rng.randint(0, 9))]
        free_h, free_r = list(range(len(hyp))), list(range(len(ref)))
        assert STEM_KEYS.stem_keys(hyp, ref, free_h, free_r, stem, 12) == _stem_stage_inputs(hyp, ref, free_h, free_r)
        found = SYNONYMS.synonym_candidates(hyp, ref, free_h, free_r, config.synonym_source, keys, 12)
        assert list(found.items()) == _candidates_both(hyp, ref, free_h, free_r)[0][0]


def test_scoring_from_several_threads_gives_the_results_of_one():
    """The twins that keep per-process memos and stamps (the stem and synonym inputs; split_classes
    keeps nothing between calls) are called from several threads at once (an app's sessions) on words seen for the first
    time (whose lookups run Python code and read WordNet's files, where threads switch), the
    interpreter switching as often as it can: every result is the one scoring alone gives."""
    import gzip
    import json
    import sys
    import threading

    from conftest import ROOT

    config = MeteorConfig.preset("meteor2005")
    with gzip.open(ROOT / "demo" / "mqm-ted-zhen-part" / "segments.jsonl.gz", "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    pairs = [(row["hypothesis"], row["reference"]) for row in rows][:1_600]
    found: dict[int, list] = {}

    def run(k: int) -> None:
        found[k] = [score(h, [r], config).to_dict() for h, r in pairs[k::4]]

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    alone = [score(h, [r], config).to_dict() for h, r in pairs]
    for k in range(4):
        assert found[k] == alone[k::4]
