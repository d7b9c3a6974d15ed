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


def _per_system(systems, refs):
    """What score_systems returns, computed system by system with sacrebleu's own calls."""
    corpus = {n: {k: m.corpus_score(k, hyps, refs) for k in m.METRICS} for n, hyps in systems.items()}
    sentence = {n: {k: m.sentence_scores(k, hyps, refs) for k in m.METRICS} for n, hyps in systems.items()}
    return corpus, sentence


def test_a_pair_that_occurs_again_is_counted_once_with_the_same_scores(monkeypatch):
    """Segments two systems translate alike, and repeated lines, are counted once (each metric
    counted 2 x 6 segments before: 12 rows, for 4 distinct pairs)."""
    refs = [REFS[0], REFS[1], REFS[2], REFS[0], REFS[1], [REFS[0][0]]]
    systems = {"alpha": [HYPS[0], HYPS[1], HYPS[2], HYPS[0], HYPS[1], HYPS[0]],
               "beta": [HYPS[0], "a dog barked", HYPS[2], HYPS[0], "a dog barked", HYPS[0]]}
    counted = []
    statistics = m.segment_statistics
    monkeypatch.setattr(m, "segment_statistics", lambda name, hyps, r, *a: counted.append(len(hyps)) or
                        statistics(name, hyps, r, *a))
    corpus, sentence, _ = m.score_systems(systems, refs, m.METRICS)
    # distinct (hypothesis, references): HYPS[0]/REFS[0], HYPS[1]/REFS[1], HYPS[2]/REFS[2],
    # HYPS[0]/one reference, "a dog barked"/REFS[1]
    assert counted == [5, 5, 5]
    want_corpus, want_sentence = _per_system(systems, refs)
    for name in systems:
        for k in m.METRICS:
            assert corpus[name][k] == pytest.approx(want_corpus[name][k], abs=1e-9)
            assert sentence[name][k] == pytest.approx(want_sentence[name][k], abs=1e-9)


def test_a_system_of_another_length_is_refused():
    with pytest.raises(ValueError, match="one hypothesis for each"):
        m.score_systems({"a": HYPS, "b": HYPS[:2]}, REFS, m.METRICS)


@pytest.mark.parametrize("name", m.METRICS)
def test_no_tokenised_line_is_kept_after_a_computation(name):
    """sacrebleu's tokenizers memoise up to 65,536 lines process-wide; in the app's server that
    kept visitors' texts alive after their sessions ended. After each of this module's
    computations the memos are empty."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp
    from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

    memos = [Tokenizer13a.__call__, TokenizerRegexp.__call__, TercomTokenizer.__call__]
    hyps, refs = ["a private sentence , typed once ."], [["a private reference sentence ."]]
    for compute in (lambda: m.segment_statistics(name, hyps, refs), lambda: m.sentence_scores(name, hyps, refs),
                    lambda: m.corpus_score(name, hyps, refs)):
        Tokenizer13a()("a line tokenised before")  # (something to forget, whatever the metric)
        assert sum(memo.cache_info().currsize for memo in memos) > 0
        compute()
        assert [memo.cache_info().currsize for memo in memos] == [0, 0, 0]
