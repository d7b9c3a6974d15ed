"""Decomposed Unicode (NFD: a letter followed by combining marks) is read as its composed form in
every preset, so "café" typed either way is one word and matches itself."""
import unicodedata

import pytest

from meteor_core import MeteorConfig, score

COMPOSED = "Le café est déjà fermé à Zürich"
DECOMPOSED = unicodedata.normalize("NFD", COMPOSED)


@pytest.mark.parametrize("preset", ["meteor2005", "nltk", "meteor15"])
@pytest.mark.parametrize("hyp,ref", [(DECOMPOSED, COMPOSED), (COMPOSED, DECOMPOSED), (DECOMPOSED, DECOMPOSED)])
def test_nfd_text_matches_its_composed_form(preset, hyp, ref):
    assert DECOMPOSED != COMPOSED
    config = MeteorConfig.preset(preset, stages=("exact",))
    r = score(hyp, [ref], config)
    expected = score(COMPOSED, [COMPOSED], config)
    assert r.hyp_tokens == expected.hyp_tokens and r.ref_tokens == expected.ref_tokens
    assert r.matches == len(r.hyp_tokens) == 7 and r.score == expected.score
    assert all(unicodedata.is_normalized("NFC", t) for t in r.hyp_tokens + r.ref_tokens)
