"""MeteorConfig.nltk() reproduces nltk.translate.meteor_score.meteor_score within 1e-9."""
from nltk.translate.meteor_score import meteor_score

from meteor_core import MeteorConfig, score
from meteor_core.tokenize import tokenize
from conftest import ted_lines


def _tokenised(name):
    """Penn-style tokens ("do n't", "world .") joined by spaces, as MT tools write them."""
    return [" ".join(tokenize(line, "punct")) for line in ted_lines(name)]


def test_parity_on_ted_segments():
    ref, s1, s2 = _tokenised("ref"), _tokenised("sys1"), _tokenised("sys2")
    assert len(ref) == len(s1) == len(s2) == 1200
    cfg = MeteorConfig.nltk()
    checked = 0
    for k in range(0, 1200, 4):  # 300 segments x 2 systems, one and two references
        for hyp, other in ((s1[k], s2[k]), (s2[k], s1[k])):
            ours = score(hyp, [ref[k], other], cfg).score
            theirs = meteor_score([ref[k].split(), other.split()], hyp.split())
            assert abs(ours - theirs) <= 1e-9, (hyp, ref[k])
            checked += 1
    assert checked == 600


def test_parity_on_detokenised_and_cased_text():
    ref, s1 = ted_lines("ref"), ted_lines("sys1")
    cfg = MeteorConfig.nltk()
    for k in range(1, 1200, 12):
        assert abs(score(s1[k], [ref[k]], cfg).score - meteor_score([ref[k].split()], s1[k].split())) <= 1e-9
