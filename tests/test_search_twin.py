"""meteor2005's joint search of a small group of parts (search._SmallSearch) against its C twin
(align/_small_search.pyx): the same pairs, the same proof, the same work spent and the same cut
points, on every group the whole TED set makes and on thousands of random small cases."""
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_core import MeteorConfig, _accel, score
from meteor_core.align import search
from meteor_core.align.search import Budget

TWIN = _accel.twin("meteor_core.align._small_search")
needs_twin = pytest.mark.skipif(TWIN is None and not os.environ.get("METEOR_REQUIRE_ACCEL"),
                                reason="the C twin is not built (python build_accel.py)")


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
