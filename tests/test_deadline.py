"""The per-request time budget: work stops with OverBudget, saying how far it got."""
import time

import pytest

from meteor_core import MeteorConfig, explain_corpus_difference, score_corpus
from meteor_core.deadline import Deadline, OverBudget

EXACT = MeteorConfig.meteor2005(stages=("exact",))


def test_corpus_scoring_stops_once_the_budget_is_spent():
    hyps = ["the cat sat on the mat"] * 400
    refs = [["a cat sat on a mat"]] * 400
    deadline = Deadline(0.0, "Scoring")
    time.sleep(0.001)
    with pytest.raises(OverBudget, match=r"Scoring stopped after 0 s \(the limit per request\), at 1 of 400"):
        score_corpus(hyps, refs, EXACT, progress=deadline.progress())


def test_progress_is_still_reported_and_a_generous_budget_changes_nothing():
    seen = []
    hyps, refs = ["a b"] * 120, [["a b"]] * 120
    result = score_corpus(hyps, refs, EXACT, progress=Deadline(60).progress(lambda d, t: seen.append(d)))
    assert seen == [1, 51, 101, 120] and result.score == score_corpus(hyps, refs, EXACT).score


def test_a_corpus_waterfall_stops_too():
    with pytest.raises(OverBudget):
        explain_corpus_difference(["a b"] * 60, [["a b"]] * 60, MeteorConfig.nltk(stages=("exact",)), EXACT,
                                  progress=Deadline(-1, "The walk").progress())
