"""BLEU/chrF/TER through sacrebleu: per-segment references, padding, and sacrebleu's own numbers."""
import pytest
from sacrebleu.metrics import BLEU, CHRF, TER

from meteor_core.analysis import sacrebleu_metrics as m

HYPS = ["the cat sat on the mat", "a dog barked loudly", "hello world"]
REFS = [["the cat sat on a mat", "a cat was sitting on the mat"], ["the dog barked"], ["hello there world"]]


def test_corpus_scores_equal_sacrebleu_on_padded_streams():
    streams = [[r[0] for r in REFS], ["a cat was sitting on the mat", "the dog barked", "hello there world"]]
    assert m.corpus_score("bleu", HYPS, REFS) == pytest.approx(BLEU().corpus_score(HYPS, streams).score)
    assert m.corpus_score("chrf", HYPS, REFS) == pytest.approx(CHRF().corpus_score(HYPS, streams).score)
    assert m.corpus_score("ter", HYPS, REFS) == pytest.approx(TER().corpus_score(HYPS, streams).score)


def test_padding_with_a_duplicate_reference_changes_nothing():
    one = [["the cat sat on a mat"]]
    two = [["the cat sat on a mat", "the cat sat on a mat"]]
    for name in m.METRICS:
        assert m.corpus_score(name, HYPS[:1], one) == pytest.approx(m.corpus_score(name, HYPS[:1], two))


def test_sentence_scores_hand_checked():
    bleu = m.sentence_scores("bleu", ["the cat sat on the mat"], [["the cat sat on the mat"]])
    ter = m.sentence_scores("ter", ["the cat sat on the mat"], [["the cat sat on the mat"]])
    assert bleu == [pytest.approx(100.0)] and ter == [pytest.approx(0.0)]
    # TER: one substitution in 4 reference words = 25
    assert m.sentence_scores("ter", ["a b c x"], [["a b c d"]]) == [pytest.approx(25.0)]


def test_bad_input():
    with pytest.raises(ValueError, match="unknown metric"):
        m.corpus_score("rouge", HYPS, REFS)
    with pytest.raises(ValueError, match="reference sets"):
        m.corpus_score("bleu", HYPS, REFS[:2])
    assert m.signature("bleu").startswith("bleu|nrefs:")
