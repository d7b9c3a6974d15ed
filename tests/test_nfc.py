"""Decomposed Unicode (NFD: a letter followed by combining marks), as macOS tools and some corpora
write it. meteor2005 composes it first (Unicode NFC, its default), so "café" typed either way is
one word; the presets that reproduce a peer take the text as given, as their peer does: the nltk
preset equals NLTK's meteor_score and meteor15 equals the jar on NFD text too. The choice is the
configuration's ``normalize`` field, shown in the signature (``uni:nfc`` / ``uni:none``)."""
import unicodedata

import pytest

from meteor_core import MeteorConfig, score

COMPOSED = "Le café est déjà fermé à Zürich"
DECOMPOSED = unicodedata.normalize("NFD", COMPOSED)
PAIRS = [(DECOMPOSED, COMPOSED), (COMPOSED, DECOMPOSED), (DECOMPOSED, DECOMPOSED)]


@pytest.mark.parametrize("hyp,ref", PAIRS)
def test_meteor2005_reads_nfd_as_its_composed_form(hyp, ref):
    assert DECOMPOSED != COMPOSED
    config = MeteorConfig.meteor2005(stages=("exact",))
    r = score(hyp, [ref], config)
    expected = score(COMPOSED, [COMPOSED], config)
    assert r.hyp_tokens == expected.hyp_tokens and r.ref_tokens == expected.ref_tokens
    assert r.matches == len(r.hyp_tokens) == 7 and r.score == expected.score
    assert all(unicodedata.is_normalized("NFC", t) for t in r.hyp_tokens + r.ref_tokens)
    assert "|uni:nfc|" in config.signature()


@pytest.mark.parametrize("hyp,ref", PAIRS)
def test_the_nltk_preset_equals_nltk_on_nfd_text(hyp, ref):
    from nltk.translate.meteor_score import meteor_score

    from meteor_core.resources import wordnet_available
    if not wordnet_available():
        pytest.skip("WordNet is not installed")
    config = MeteorConfig.nltk()
    assert config.normalize == "none" and "|uni:none|" in config.signature()
    theirs = meteor_score([ref.split()], hyp.split())
    assert score(hyp, [ref], config).score == pytest.approx(theirs, abs=1e-12)
    if hyp != ref:  # NLTK sees different words: so do we, unless asked to compose
        assert theirs < 0.9
        assert score(hyp, [ref], MeteorConfig.nltk(normalize="NFC")).score > 0.99


def test_meteor15_takes_nfd_text_as_the_jar_does():
    """The jar's -norm separates a combining mark from its letter (it is not in its letter ranges):
    "cafe\u0301" becomes "cafe" and a lone accent, which no composed word matches."""
    from meteor_core.jar_resources import jar_available
    if not jar_available():
        pytest.skip("no Meteor 1.5 jar")
    config = MeteorConfig.meteor15(modules="exact")
    r = score(DECOMPOSED, [COMPOSED], config)
    assert "cafe" in r.hyp_tokens and "\u0301" in r.hyp_tokens
    assert r.score < score(COMPOSED, [COMPOSED], config).score
    composed = MeteorConfig.meteor15(modules="exact", normalize="NFC")
    assert score(DECOMPOSED, [COMPOSED], composed).score == score(COMPOSED, [COMPOSED], composed).score


def test_meteor15_on_nfd_equals_the_jar():
    import shutil

    from meteor_core.jar_resources import jar_available
    if not jar_available() or shutil.which("java") is None:
        pytest.skip("needs Java and the Meteor 1.5 jar")
    from jar_run import jar_segment_scores
    hyps = [DECOMPOSED, COMPOSED, DECOMPOSED, unicodedata.normalize("NFD", "Ça coûte 5 € à Köln, n'est-ce pas?")]
    refs = [COMPOSED, DECOMPOSED, DECOMPOSED, "Ça coûte 5 € à Köln, n'est-ce pas ?"]
    for lang, modules in (("en", "exact stem synonym paraphrase"), ("fr", "exact stem"), ("de", "exact stem")):
        theirs, _ = jar_segment_scores(hyps, refs, ["-l", lang, "-norm", "-m", modules])
        config = MeteorConfig.meteor15(language=lang, modules=modules)
        assert [score(h, [r], config).score for h, r in zip(hyps, refs)] == pytest.approx(theirs, abs=1e-9)


def test_normalize_is_checked():
    assert MeteorConfig.meteor2005(normalize="nfkc").normalize == "NFKC"
    with pytest.raises(ValueError, match="normalize must be one of"):
        MeteorConfig.meteor2005(normalize="NFX")
