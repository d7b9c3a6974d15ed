"""The sacrebleu-style METEOR class and the signature it prints."""
import pytest

from conftest import ted_lines
from meteor_core import METEOR, MeteorConfig, MeteorScore, __version__, score, score_corpus


def test_signature_of_each_preset():
    from meteor_core.jar_resources import paraphrase_available
    if not paraphrase_available("en"):
        pytest.skip("the jar's paraphrase table is not here (meteor15's defaults then leave it out)")
    assert METEOR().get_signature() == (
        "meteor|preset:meteor15|lang:en|task:rank|m:exact+stem+synonym+paraphrase|a:0.85|b:0.2|g:0.6|d:0.75"
        f"|w:1,0.6,0.8,0.6|stem:snowball|syn:meteor1.5-jar|para:jar|tok:norm|uni:none|v:{__version__}")
    assert METEOR(synonym_source="wordnet").get_signature() == (  # NLTK's WordNet, chosen explicitly
        "meteor|preset:meteor15|lang:en|task:rank|m:exact+stem+synonym+paraphrase|a:0.85|b:0.2|g:0.6|d:0.75"
        f"|w:1,0.6,0.8,0.6|stem:snowball|syn:wordnet-3.0|para:jar|tok:norm|uni:none|v:{__version__}")
    assert METEOR(language="de").get_signature() == (  # no German paraphrase table comes with pycocoevalcap
        "meteor|preset:meteor15|lang:de|task:rank|m:exact+stem|a:0.95|b:1|g:0.55|d:0.55|w:1,0.8|stem:snowball"
        f"|syn:none|tok:norm|uni:none|v:{__version__}")
    assert METEOR("meteor2005").get_signature() == (
        "meteor|preset:meteor2005|lang:en|m:exact+stem+synonym|a:0.9|b:3|g:0.5|stem:porter|syn:wordnet-3.0"
        f"|tok:punct|uni:nfc|v:{__version__}")
    assert METEOR("nltk").get_signature() == (
        "meteor|preset:nltk|lang:en|m:exact+stem+synonym|a:0.9|b:3|g:0.5|stem:porter|syn:wordnet-3.0-stems"
        f"|tok:whitespace|uni:none|v:{__version__}")


def test_every_change_shows_in_the_signature():
    base = METEOR("meteor2005").get_signature()
    changed = {
        "alpha": METEOR("meteor2005", alpha=0.5), "stages": METEOR("meteor2005", stages=("exact", "stem")),
        "lowercase": METEOR("meteor2005", lowercase=False), "aligner": METEOR("meteor2005", aligner="greedy"),
        "tokenizer": METEOR("meteor2005", tokenizer="whitespace"), "stemmer": METEOR("meteor2005", stemmer="snowball"),
        "no exact": METEOR("meteor2005", stages=("stem",)), "lookup": METEOR("meteor2005", synonym_lookup="stems"),
    }
    signatures = {name: m.get_signature() for name, m in changed.items()}
    assert base not in signatures.values() and len(set(signatures.values())) == len(signatures)
    assert "|syn:none|" in signatures["stages"] and "|lc:no|" in signatures["lowercase"]
    assert "|align:greedy|" in signatures["aligner"] and "|a:0.5|" in signatures["alpha"]
    assert "|d:0.5|" in METEOR(delta=0.5).get_signature()
    assert "|m:stem|" in signatures["no exact"] and "|uni:none|" in METEOR("meteor2005", normalize="none").get_signature()
    assert "|task:adq|" in METEOR(task="adq").get_signature() and "|lang:fr|" in METEOR(language="fr").get_signature()


def test_sentence_score_is_the_scorer_s():
    m = METEOR("meteor2005")
    got = m.sentence_score("the big dog barked", ["a large dog barked", "the dog barked loudly"])
    want = score("the big dog barked", ["a large dog barked", "the dog barked loudly"], MeteorConfig.meteor2005())
    assert isinstance(got, MeteorScore) and got.score == want.score
    assert (got.precision, got.recall, got.chunks, got.matches, got.stats) == (
        want.precision, want.recall, want.chunks, want.matches, want.stats)
    assert got.signature == m.get_signature() and got.result.best_reference == want.best_reference
    assert str(got).startswith(f"METEOR = {want.score:.4f} (P ")
    assert got.format(signature=True).endswith(m.get_signature())


def test_corpus_score_takes_reference_streams():
    ref, s1, s2 = (ted_lines(name)[:40] for name in ("ref", "sys1", "sys2"))
    m = METEOR("meteor15")
    one = m.corpus_score(s1, [ref])
    assert one.score == score_corpus(s1, [[r] for r in ref], MeteorConfig.meteor15()).score
    # two streams: segment i's references are (ref[i], s2[i]); None drops a reference
    two = m.corpus_score(s1, [ref, s2])
    assert two.score == score_corpus(s1, [[r, o] for r, o in zip(ref, s2)], MeteorConfig.meteor15()).score
    holes = [None if i % 2 else o for i, o in enumerate(s2)]
    mixed = m.corpus_score(s1, [ref, holes])
    expected = [[r] if i % 2 else [r, o] for i, (r, o) in enumerate(zip(ref, s2))]
    assert mixed.score == score_corpus(s1, expected, MeteorConfig.meteor15()).score
    assert len(mixed.result.segments) == 40 and mixed.stats == mixed.result.stats


def test_corpus_score_on_two_jobs_equals_one():
    """jobs= passes through to score_corpus: 1,200 segments (over the one-process threshold)."""
    ref, s1 = ted_lines("ref"), ted_lines("sys1")
    m = METEOR("nltk")
    one, two = m.corpus_score(s1, [ref]), m.corpus_score(s1, [ref], jobs=2)
    assert two.score == one.score and two.stats == one.stats
    assert [s.to_dict() for s in two.result.segments] == [s.to_dict() for s in one.result.segments]


def test_statistics_interface_gives_the_same_corpus_score():
    ref, s1 = ted_lines("ref")[:30], ted_lines("sys1")[:30]
    for preset in ("meteor2005", "meteor15"):
        m = METEOR(preset)
        rows = m._extract_corpus_statistics(s1, [ref])
        assert m._aggregate_and_compute(rows).score == pytest.approx(m.corpus_score(s1, [ref]).score, abs=1e-12)


def test_bad_arguments_say_what_is_wrong():
    m = METEOR("meteor2005")
    with pytest.raises(TypeError, match="reference streams"):
        m.corpus_score(["a b"], ["a b"])  # a stream given where a list of streams is expected
    with pytest.raises(ValueError, match="stream 2 has 1 segments"):
        m.corpus_score(["a", "b"], [["a", "b"], ["a"]])
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        m.corpus_score(["a"], [[None]])
    with pytest.raises(TypeError, match="list of strings"):
        m.sentence_score("a", "a")
    with pytest.raises(ValueError, match="unknown preset"):
        METEOR("bleu")
    with pytest.raises(ValueError, match="alpha"):
        METEOR(alpha=2)
