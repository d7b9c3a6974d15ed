"""NLTK's greedy aligner against its C twin (align/_greedy_passes.pyx): every to_dict field the
same on the whole shared TED set and on 10,000 random small cases whose words share stems and
synonyms, and the same after the twin's vocabulary is renewed."""
import os
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor_core import MeteorConfig, _accel, resources, score
from meteor_core.align import greedy

TWIN = _accel.twin("meteor_core.align._greedy_passes")
needs_twin = pytest.mark.skipif(TWIN is None and not os.environ.get("METEOR_REQUIRE_ACCEL"),
                                reason="the C twin is not built (python build_accel.py)")

# Words with stems and WordNet synonyms in common, exact repeats, a capitalised lemma name (Paris),
# a lemma name of several words (hot_dog: NLTK leaves those out), a stem that is a synonym of
# another word's stem (quick, quickli), punctuation and a word outside WordNet.
VOCABULARY = ("the the a of . , dog dogs cat cats running runs run ran big large bigger great car cars auto "
              "automobile begin start started fast quick quickly speedy hot_dog hotdog paris Paris is be are "
              "was went go gone us u.s. xyzzy").split()


def _both(pairs, config, monkeypatch):
    """to_dict of every pair scored with the twin and by greedy.py's own code."""
    found = []
    for twin in (TWIN, None):
        monkeypatch.setattr(greedy, "_C_TWIN", twin)
        found.append([score(h, [r], config).to_dict() for h, r in pairs])
    return found


@needs_twin
def test_every_result_of_the_ted_set_is_the_same_in_c(monkeypatch):
    """Both systems of the whole set, as written (cased, punctuation on words) and tokenised as MT
    tools write it (test_nltk_parity's form)."""
    from conftest import ted_lines

    from meteor_core.tokenize import tokenize

    ref = ted_lines("ref")
    pairs = [(h, r) for system in ("sys1", "sys2") for h, r in zip(ted_lines(system), ref)]
    pairs += [(" ".join(tokenize(h, "punct")), " ".join(tokenize(r, "punct"))) for h, r in pairs]
    with_twin, pure = _both(pairs, MeteorConfig.nltk(), monkeypatch)
    assert with_twin == pure
    stages = {m["stage"] for result in pure for m in result.get("alignment", [])}
    assert sum(result["matches"] for result in pure) > 20_000
    assert not stages or {"exact", "stem", "synonym"} <= stages


@needs_twin
def test_random_small_cases_are_the_same_in_c(monkeypatch):
    """10,000 random pairs over a small vocabulary, in the nltk preset and with stages left out
    (the stem stage's quirk changes what the synonym stage looks up)."""
    configs = [MeteorConfig.nltk(), MeteorConfig.nltk(stages=("exact", "synonym")),
               MeteorConfig.nltk(stages=("exact", "stem")), MeteorConfig.nltk(stages=("stem", "synonym")),
               MeteorConfig.nltk(lowercase=False), MeteorConfig.nltk(stemmer="porter-original")]
    sentence = st.lists(st.sampled_from(VOCABULARY), min_size=0, max_size=14).map(" ".join)
    seen = {"synonym": 0, "stem": 0}

    @settings(max_examples=10_000, deadline=None, derandomize=True)
    @given(sentence, sentence, st.sampled_from(range(len(configs))))
    def same(hyp, ref, which):
        found = []
        for twin in (TWIN, None):
            monkeypatch.setattr(greedy, "_C_TWIN", twin)
            found.append(score(hyp, [ref], configs[which]).to_dict())
        assert found[0] == found[1]
        for match in score(hyp, [ref], configs[which]).alignment:
            if match.stage in seen:
                seen[match.stage] += 1

    same()
    assert seen["synonym"] > 500 and seen["stem"] > 1_000, seen


@needs_twin
def test_a_renewed_vocabulary_gives_the_same_results(monkeypatch):
    """When the twin's vocabulary reaches the memo limit it starts a new one: results unchanged."""
    from conftest import ted_lines

    pairs = list(zip(ted_lines("sys1"), ted_lines("ref")))[:300]
    config = MeteorConfig.nltk()
    monkeypatch.setattr(greedy, "_C_TWIN", None)
    pure = [score(h, [r], config).to_dict() for h, r in pairs]
    monkeypatch.setattr(greedy, "_C_TWIN", TWIN)
    monkeypatch.setattr(resources, "MEMO_LIMIT", 200)  # a new vocabulary every few segments
    TWIN._forget()
    assert [score(h, [r], config).to_dict() for h, r in pairs] == pure
    TWIN._forget()


@needs_twin
def test_threads_sharing_the_vocabulary_get_the_same_results(monkeypatch):
    """Four threads scoring at once (as the app's sessions do) share the twin's vocabulary, renewed
    every few segments: each gets what one thread alone gets."""
    from concurrent.futures import ThreadPoolExecutor

    from conftest import ted_lines

    pairs = list(zip(ted_lines("sys2"), ted_lines("ref")))[:400]
    config = MeteorConfig.nltk()
    monkeypatch.setattr(greedy, "_C_TWIN", None)
    pure = [score(h, [r], config).to_dict() for h, r in pairs]
    monkeypatch.setattr(greedy, "_C_TWIN", TWIN)
    monkeypatch.setattr(resources, "MEMO_LIMIT", 500)
    TWIN._forget()

    def run(offset):
        order = pairs[offset:] + pairs[:offset]  # each thread meets the words in its own order
        found = [score(h, [r], config).to_dict() for h, r in order]
        return found[len(pairs) - offset:] + found[:len(pairs) - offset]

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns as often as they can
    try:
        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(run, (0, 100, 200, 300)))
    finally:
        sys.setswitchinterval(interval)
        TWIN._forget()
    assert all(found == pure for found in results)
