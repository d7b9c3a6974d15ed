"""Meteor 1.x scoring, hand-computed and checked against numbers the Meteor 1.5 jar printed
(java -jar meteor-1.5.jar hyp ref -l en -lower -m "exact stem" -vOut), plus its -norm tokenizer."""
import pytest

from meteor_core import MeteorConfig, score
from meteor_core.tokenize import meteor_norm

M15 = MeteorConfig.meteor15(tokenizer="whitespace", stages=("exact", "stem"))


def test_weighted_precision_recall_and_penalty_hand_computed():
    r = score("the cat sat on the mat .", ["the cat was sitting on a mat ."], M15)
    # function words (Meteor's list): hyp the on the . (4), ref the was on a . (5)
    # matched: the cat on mat . -> content cat, mat (2); function the, on, . (3); all exact
    d = 0.75
    p = (d * 2 + (1 - d) * 3) / (d * 3 + (1 - d) * 4)
    rec = (d * 2 + (1 - d) * 3) / (d * 3 + (1 - d) * 5)
    f = p * rec / (0.85 * p + 0.15 * rec)
    pen = 0.6 * (3 / 5) ** 0.2
    assert (r.matches, r.chunks) == (5, 3)
    assert r.precision == pytest.approx(p) and r.recall == pytest.approx(rec)
    assert r.penalty == pytest.approx(pen)
    assert r.score == pytest.approx(f * (1 - pen))
    assert r.score == pytest.approx(0.29779390340677653, abs=1e-12)  # the jar's number


def test_stem_matches_weigh_0_6():
    r = score("the big dogs run", ["the large dog runs"], M15)
    assert r.matches_by_stage == {"exact": 1, "stem": 2, "synonym": 0}
    assert r.precision == pytest.approx(0.45999999999999996) and r.score == pytest.approx(0.20549821643104318)


def test_identical_sentences_have_no_penalty_but_reordering_does():
    assert score("the the the", ["the the the"], M15).score == 1.0
    assert score("a b", ["b a"], M15).score == pytest.approx(0.4)  # jar: P = R = 1, penalty 0.6


def test_beam_leaves_out_a_stem_match_that_opens_a_chunk():
    # The jar's coverage adds int(weight): stem matches count 0, so one that would add a
    # chunk is dropped. The paper's aligner (meteor2005) keeps it.
    hyp = "we know that online criminaly hire programmers , the hire tests , testing their code"
    ref = "we know that online criminals are hiring programmers , hiring testing people , testing their code"
    beam = score(hyp, [ref], M15)
    staged = score(hyp, [ref], MeteorConfig.meteor15(tokenizer="whitespace", stages=("exact", "stem"), aligner="optimal"))
    assert staged.matches > beam.matches


def test_corpus_statistics_add_for_1x():
    from meteor_core import score_corpus
    c = score_corpus(["the cat sat on the mat .", "the big dogs run"],
                     [["the cat was sitting on a mat ."], ["the large dog runs"]], M15)
    assert c.stats.hyp_function == 4 + 1 and c.stats.hyp_content_matches[:2] == (2 + 0, 2)


@pytest.mark.parametrize("text,tokens", [
    ("It's Mr. Smith's car.", ["It", "'s", "Mr.", "Smith", "'s", "car", "."]),
    ("1,000 dollars, really...", ["1,000", "dollars", ",", "really", "..."]),
    ("“Quoted” – family-friendly 20-year-old", ['"', "Quoted", '"', "-", "family", "friendly", "20", "year", "old"]),
    ("don't", ["don", "'t"]),
])
def test_meteor_norm_tokenizer(text, tokens):
    assert meteor_norm(text) == tokens


def test_preset_values():
    c = MeteorConfig.meteor15()
    assert (c.alpha, c.beta, c.gamma, c.delta) == (0.85, 0.2, 0.6, 0.75)
    assert c.module_weights == (1.0, 0.6, 0.8, 0.6) and c.stemmer == "snowball" and c.tokenizer == "meteor-norm"
    assert "d:0.75" in c.signature() and MeteorConfig.preset("meteor15") == c
    assert MeteorConfig.from_dict(c.to_dict()) == c


TABLE = "0.5\nmany\na lot of\n0.5\na lot of\nmany\n0.3\nquickly\nin a hurry\n0.3\nin a hurry\nquickly\n"
PARA_HYP = "we have a lot of time and left quickly ."
PARA_REF = "we have many time and we left in a hurry ."


@pytest.fixture
def table(tmp_path):
    import gzip
    path = tmp_path / "para.gz"
    path.write_bytes(gzip.compress(TABLE.encode()))
    return str(path)


def test_paraphrase_stage_matches_the_jar(table):
    # jar: -m "exact stem synonym paraphrase" -a para.gz -lower -> alignment and score below
    c = MeteorConfig.meteor15(tokenizer="whitespace", stages=("exact", "stem", "synonym", "paraphrase"),
                              paraphrase_table=table)
    r = score(PARA_HYP, [PARA_REF], c)
    phrases = [(m.hyp_index, m.hyp_length, m.ref_index, m.ref_length) for m in r.alignment if m.stage == "paraphrase"]
    assert phrases == [(2, 3, 2, 1), (8, 1, 7, 3)]
    assert r.score == pytest.approx(0.42929923934452807, abs=1e-12)
    assert r.penalty == pytest.approx(0.4348677982066173, abs=1e-12) and r.chunks == 2
    assert r.matches_by_stage["paraphrase"] == 2


def test_paraphrase_results_render(table):
    from components.alignment_chart import STAGE_COLORS, alignment_figure
    from components.tables import word_table

    c = MeteorConfig.meteor15(tokenizer="whitespace", stages=("exact", "stem", "synonym", "paraphrase"),
                              paraphrase_table=table)
    r = score(PARA_HYP, [PARA_REF], c)
    fig = alignment_figure(r)
    para = [t for t in fig.data if (t.meta or {}).get("stage") == "paraphrase"]
    assert para and para[0].line.color == STAGE_COLORS["paraphrase"] and para[0].meta["count"] == 2
    words = word_table(r)
    lot = words[(words.side == "candidate") & (words.token == "lot")].iloc[0]
    assert lot.partner == "many" and lot.stage == "paraphrase"
    assert words[(words.side == "reference") & (words.token == "many")].iloc[0].partner == "a lot of"


def test_paraphrase_needs_a_table_and_the_beam():
    with pytest.raises(ValueError, match="paraphrase_table"):
        MeteorConfig.meteor15(stages=("exact", "paraphrase"))
    with pytest.raises(ValueError, match="meteor-beam"):
        MeteorConfig.meteor2005(stages=("exact", "paraphrase"), paraphrase_table="x.gz")
    with pytest.raises(ValueError, match="not a readable"):
        score("a", ["a"], MeteorConfig.meteor15(stages=("exact", "paraphrase"), paraphrase_table="/nonexistent.gz"))


def test_the_issue_pair_matches_the_jar_exactly():
    # java -jar meteor-1.5.jar h r -l en -norm  ->  Segment 1 score: 0.4248514351273681
    # (its alignment uses no paraphrase, so exact+stem+synonym reproduce it)
    hyp = "Alimentum is located in the city centre. It is not family-friendly."
    ref = "There is a place in the city centre, Alimentum, that is not family-friendly."
    assert score(hyp, [ref], MeteorConfig.meteor15()).score == pytest.approx(0.4248514351273681, abs=1e-12)
