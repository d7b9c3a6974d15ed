"""MeteorConfig.nltk() reproduces nltk.translate.meteor_score.meteor_score within 1e-9."""
import random

from nltk.translate.meteor_score import align_words, exact_match, meteor_score

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


def test_alignment_equals_nltk_with_repeated_words_and_synonyms():
    """The very word pairs of NLTK's align_words, where greedy choices compete: words repeated
    on both sides (several rounds of the exact and stem stages), stems shared by different
    words, several synonyms of one word left in the reference, capitalised lemma names."""
    vocabulary = ("the the the a a of dog dogs cat cats run running runs ran big large great huge bigger car cars "
                  "auto automobile machine begin start get go went gone us u.s. united states party company "
                  "political_party fast quick speedy degraded debauched ice_cream icecream hot_dog hotdog").split()
    rng = random.Random(15)
    cfg, exact_only = MeteorConfig.nltk(), MeteorConfig.nltk(stages=("exact",))
    synonym_matches = 0
    for _ in range(400):
        hyp = rng.choices(vocabulary, k=rng.randint(1, 14))
        ref = rng.choices(vocabulary, k=rng.randint(1, 14))
        ours = score(" ".join(hyp), [" ".join(ref)], cfg)
        theirs, _, _ = align_words(hyp, ref)
        assert [(m.hyp_index, m.ref_index) for m in ours.alignment] == theirs, (hyp, ref)
        assert ours.score == meteor_score([ref], hyp), (hyp, ref)
        exact = score(" ".join(hyp), [" ".join(ref)], exact_only).alignment
        assert [(m.hyp_index, m.ref_index) for m in exact] == sorted(exact_match(hyp, ref)[0]), (hyp, ref)
        synonym_matches += sum(m.stage == "synonym" for m in ours.alignment)
    assert synonym_matches > 100
