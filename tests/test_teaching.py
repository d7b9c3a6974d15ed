"""What the page teaches is what the scorer computes: every example's named matches and chunk
count, the lesson's numbers, the penalty curve, and the meaning of β and γ per preset."""
import re

import pytest

from components.examples import EXAMPLES
from meteor_core import MeteorConfig, score
from meteor_core.explain import chunk_texts, lesson, number, penalty_curve, rounds_to_zero
from meteor_core.stats import compute


def _pairs(result):
    return {(result.hyp_tokens[m.hyp_index], result.ref_tokens[m.ref_index]): m.stage for m in result.alignment}


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.title for e in EXAMPLES])
def test_every_example_lesson_names_what_the_scorer_does(example):
    result = score(example.hypothesis, list(example.references), MeteorConfig.preset(example.preset))
    pairs = _pairs(result)
    assert example.claims, "a lesson names at least one match"
    for hyp_word, ref_word, stage in example.claims:
        assert pairs.get((hyp_word, ref_word)) == stage, (hyp_word, ref_word, pairs)
        assert hyp_word in example.lesson or stage == "exact"  # the named non-exact pairs are in the text
        if stage == "stem":
            assert "stem" in example.lesson.lower().split(hyp_word)[0][-80:] or "Porter" in example.lesson
    if example.chunks is not None:
        assert result.chunks == example.chunks
        spelled = {1: "one chunk", 2: "2 chunks", 6: "6 chunks"}[example.chunks]
        assert spelled in example.lesson


def test_stem_example_says_which_stage_joins_children():
    stem = next(e for e in EXAMPLES if e.title == "Stem match")
    result = score(stem.hypothesis, list(stem.references))
    assert _pairs(result)[("children", "child")] == "synonym"  # Porter leaves "children" alone
    # the lesson credits Porter only with the pairs the stem stage makes
    porter_part = stem.lesson.split(".")[0]
    assert "children" not in porter_part and "playing/played" in porter_part and "gardens/garden" in porter_part
    assert "synonym stage joins" in stem.lesson


def test_lesson_uses_the_pairs_own_numbers():
    config = MeteorConfig.meteor2005()
    r = score("on the mat sat the cat", ["the cat sat on the mat"], config)
    text = "\n".join(lesson(r, config))
    assert "6 chunks: [on] [the] [mat] [sat] [the] [cat]" in text
    assert f"Pen = γ·(c/m)^β = 0.5·(6/6)^3 = {number(r.penalty)}" in text
    assert f"= {number(r.score)}." in text
    r = score("the cat sat on the mat today", ["the cat sat on the mat"], config)
    assert "1 chunk: [the cat sat on the mat]" in "\n".join(lesson(r, config))
    r = score("the cat sat down on the mat", ["the cat sat on the mat"], config)
    assert "2 chunks: [the cat sat] [on the mat]" in "\n".join(lesson(r, config))
    assert chunk_texts(r) == [("the cat sat", "the cat sat"), ("on the mat", "on the mat")]
    assert lesson(score("a", ["b"], config), config)[0].startswith("No word matched")
    assert lesson(score("cat", ["the cat"], config), config)[0].startswith("1 match (1 exact) between")
    assert lesson(score("the cat", ["the cat"], config), config)[0].startswith("2 matches (2 exact) between")


def test_penalty_curve_is_the_scorers_formula():
    for config in (MeteorConfig.meteor2005(), MeteorConfig.nltk(), MeteorConfig.meteor15()):
        r = score("on the mat sat the cat", ["the cat sat on the mat"], config)
        curve = penalty_curve(r, config)
        assert [p.chunks for p in curve] == list(range(1, r.matches + 1))
        mine = curve[r.chunks - 1]
        assert mine.penalty == pytest.approx(r.penalty) and mine.score == pytest.approx(r.score)
        for p in curve:
            assert p.score == compute(r.stats._replace(chunks=p.chunks), config).score
        assert curve[-1].penalty == pytest.approx(config.gamma)  # every match its own chunk: γ
        assert all(a.penalty <= b.penalty for a, b in zip(curve, curve[1:]))


def test_beta_and_gamma_are_explained_for_the_preset_in_use():
    hyp, ref = "on the mat sat the cat", "the cat sat on the mat"
    old = "\n".join(lesson(score(hyp, [ref], MeteorConfig.meteor2005()), MeteorConfig.meteor2005()))
    new = "\n".join(lesson(score(hyp, [ref], MeteorConfig.meteor15()), MeteorConfig.meteor15()))
    assert "β = 3 makes the penalty grow slowly while chunks are few" in old and "γ = 0.5 is the most" in old
    assert "β = 0.2 makes the penalty jump at the first break" in new and "γ = 0.6 is the most" in new
    assert "cube" not in new and "0.2" not in old.split("β")[1][:6]
    same = MeteorConfig.meteor15()
    text = "\n".join(lesson(score("the cat sat", ["the cat sat"], same), same))
    assert "Pen = 0: every word of both sentences matched in one chunk" in text


def test_numbers_never_show_negative_zero():
    assert number(-0.00001) == "0.0000" and number(-0.00001, signed=True) == "+0.0000"
    assert number(-0.00005001, signed=True) == "-0.0001" and number(0.12345) == "0.1235"
    assert rounds_to_zero(0.00004) and not rounds_to_zero(0.0004) and not rounds_to_zero(-0.00006)
    for x in (-1e-17, -4.9e-5, 0.0, -0.0):
        assert not re.match(r"-0\.0+$", number(x)) and number(x, signed=True) != "-0.0000"
