"""The Java-free drop-ins for pycocoevalcap's, nlg-eval's, GEM-metrics' and SummEval's METEOR:
bit for bit against pycocoevalcap's own Meteor (which runs the jar) where Java is present, and
against the values those packages' own tests publish everywhere.

Without Java the comparisons are skipped; METEOR_REQUIRE_JAVA=1 makes them fail instead."""
import math
import os
import shutil

import pytest

from conftest import ted_lines
from meteor_core import resources
from meteor_core.compat import gem, nlgeval, pycocoevalcap, summeval
from meteor_core.compat.jar_stdio import WrapperInputError, jar_config, line_parts
from meteor_core.jar_resources import jar_available

pytestmark = pytest.mark.skipif(not jar_available(), reason="needs a Meteor 1.5 jar (pycocoevalcap or METEOR_JAR)")

# Texts the wrappers treat in their own ways: empty ones, "|||" on either side, runs of spaces,
# control characters, non-ASCII letters, Unicode spaces, repeated words, several references.
EDGE_CASES = [
    ("", ["a cat"]), ("a cat", [""]), ("a cat", []), ("", [""]),
    ("the cat ||| sat", ["the cat sat"]), ("the cat sat", ["the cat ||| sat on it"]),
    ("the cat sat", ["the cat |||| sat on it ||||||"]), ("||| |||", ["x"]), ("x", ["|||"]),
    ("the  cat   sat", ["the cat  sat"]), ("\tthe cat\x0b sat \x00", [" the\tcat sat\x1f"]),
    ("Le test est en français.", ["Test en français.", "Le test en français."]), ("テスト", ["テスト"]),
    ("a\xa0cat sat", ["a cat sat"]), ("the cat\u2028sat", ["the cat sat"]), ("café naïve résumé", ["cafe naive resume"]),
    ("SCORE ||| a", ["EVAL ||| b"]), ("the the the the", ["the"]),
    ("this is a good test", ["this is a test", "this is also a test"]),
]


@pytest.fixture(scope="module")
def java_meteor():
    """pycocoevalcap's own Meteor (a JVM running the jar)."""
    if shutil.which("java") is None:
        if os.environ.get("METEOR_REQUIRE_JAVA") == "1":
            pytest.fail("METEOR_REQUIRE_JAVA=1 but no java on PATH")
        pytest.skip("needs Java (METEOR_REQUIRE_JAVA=1 makes this a failure)")
    from pycocoevalcap.meteor.meteor import Meteor

    meteor = Meteor()
    yield meteor
    del meteor


def _ted_with_two_references(system: str, other: str) -> tuple[dict, dict]:
    """Every TED segment of ``system``, its references the human one and ``other``'s output."""
    ref, hyps, second = ted_lines("ref"), ted_lines(system), ted_lines(other)
    return {k: [ref[k], second[k]] for k in range(len(ref))}, {k: [hyps[k]] for k in range(len(ref))}


@pytest.mark.parametrize("system, other", [("sys1", "sys2"), ("sys2", "sys1")])
def test_bit_for_bit_with_pycocoevalcap_on_ted(java_meteor, system, other):
    gts, res = _ted_with_two_references(system, other)
    assert len(gts) == 1200
    theirs = java_meteor.compute_score(gts, res)
    ours = pycocoevalcap.Meteor().compute_score(gts, res)
    assert ours[0] == theirs[0]
    assert len(ours[1]) == len(theirs[1]) == 1200
    assert 0.2 < ours[0] < 0.6 and len(set(ours[1])) > 1000  # a real corpus, not a degenerate one
    # Every segment's score, in the order of gts: the same double, except where Java's Math.pow
    # (HotSpot's x86-64 intrinsic, not correctly rounded: it differs from Java's own StrictMath.pow
    # on ~9% of random inputs) rounds the penalty's fragmentation ** 0.2 the other way.
    last_bit = [k for k, (a, b) in enumerate(zip(ours[1], theirs[1])) if a != b]
    assert len(last_bit) <= 3, last_bit  # (1 of 2,400 on x86-64: sys2's segment 528)
    for k in last_bit:
        assert abs(ours[1][k] - theirs[1][k]) <= 2 * math.ulp(theirs[1][k]), (k, ours[1][k], theirs[1][k])


def test_edge_cases_bit_for_bit_with_pycocoevalcap(java_meteor):
    ours = pycocoevalcap.Meteor()
    for hyp, refs in EDGE_CASES:
        gts, res = {"x": refs}, {"x": [hyp]}
        assert ours.compute_score(gts, res) == java_meteor.compute_score(gts, res), (hyp, refs)
    # all together, ids in an order of their own (res in another: pycocoevalcap follows gts)
    gts = {f"id{k}": refs for k, (_, refs) in reversed(list(enumerate(EDGE_CASES)))}
    res = {f"id{k}": [hyp] for k, (hyp, _) in enumerate(EDGE_CASES)}
    theirs = java_meteor.compute_score(gts, res)
    assert ours.compute_score(gts, res) == theirs
    assert len(set(theirs[1])) > 5


def test_published_values_of_nlg_eval_and_gem_metrics():
    """nlgeval/tests/test_nlgeval.py and nlgeval/pycocoevalcap/meteor/tests/test_meteor.py (their
    jar's numbers, to 5 places or exactly), GEM-metrics' tests/test_meteor.py (0.42 to 2 places,
    on its test_data/unit_tests predictions and references)."""
    assert nlgeval.compute_individual_metrics(["this is a test", "this is also a test"],
                                              "this is a good test")["METEOR"] == pytest.approx(0.44434387, abs=5e-6)
    assert nlgeval.compute_individual_metrics(["Test en français.", "Le test en français."],
                                              "Le test est en français.")["METEOR"] == 0.48372379050300296
    assert nlgeval.Meteor().compute_score({0: ["テスト"]}, {0: ["テスト"]}) == (1.0, [1.0])
    corpus = nlgeval.NLGEval().compute_metrics(
        [["this is one reference sentence for sentence1",
          "this is a reference sentence for sentence2 which was generated by your model"],
         ["this is one more reference sentence for sentence1", "this is the second reference sentence for sentence2"]],
        ["this is the model generated sentence1 which seems good enough",
         "this is sentence2 which has been generated by your model"])
    assert corpus["METEOR"] == pytest.approx(0.295797, abs=5e-7)
    predictions = ["Alimentum is a non family-friendly restaurant near Burger King in the city centre.",
                   "Alimentum is located in the city centre. It is not family-friendly.", "Or Orleans has a home."]
    references = ["Alimentum is not family-friendly, and is near the Burger King in the city centre.",
                  "There is a place in the city centre, Alimentum, that is not family-friendly.",
                  "There is a house in New Orleans."]
    assert round(gem.compute(predictions, references)["meteor"], 2) == 0.42
    assert gem.compute(references, references)["meteor"] == 1.0


def test_nlg_eval_reads_files_as_it_does(tmp_path):
    """Lines stripped (a trailing space, a CRLF file), reference files cut to the shortest."""
    hyp, ref1, ref2 = tmp_path / "h", tmp_path / "r1", tmp_path / "r2"
    hyp.write_bytes(b"the cat sat on the mat \r\na dog ran\r\n")
    ref1.write_text("a cat sat on the mat\nthe dog ran away\nan extra line\n", encoding="utf-8")
    ref2.write_text(" the cat is on the mat\na dog was running\n", encoding="utf-8")
    expected = pycocoevalcap.compute_score({0: ["a cat sat on the mat", "the cat is on the mat"],
                                            1: ["the dog ran away", "a dog was running"]},
                                           {0: ["the cat sat on the mat"], 1: ["a dog ran"]}, "x")[0]
    assert nlgeval.compute_metrics(hyp, [ref1, ref2]) == {"METEOR": expected}
    short = tmp_path / "short"
    short.write_text("one line\n", encoding="utf-8")
    with pytest.raises(WrapperInputError, match="2 hypotheses but 1 reference lines"):
        nlgeval.compute_metrics(hyp, [ref1, short])


def test_gem_and_summeval_equal_pycocoevalcap_on_plain_text():
    gts, res = _ted_with_two_references("sys1", "sys2")
    ids = range(0, 1200, 40)
    expected = pycocoevalcap.compute_score({k: gts[k] for k in ids}, {k: res[k] for k in ids}, "x")
    hyps, refs = [res[k][0] for k in ids], [gts[k] for k in ids]
    assert gem.PyMeteorWrapper("en").compute_score(hyps, refs) == expected
    batch = summeval.MeteorMetric().evaluate_batch(hyps, refs, aggregate=False)
    assert [d["meteor"] for d in batch] == expected[1]
    assert summeval.MeteorMetric().evaluate_batch(hyps, refs) == {"meteor": expected[0]}
    assert summeval.MeteorMetric().evaluate_example(hyps[0], refs[0]) == {"meteor": expected[1][0]}


def test_summeval_collapses_whitespace_so_line_breaks_pass():
    one_line = summeval.MeteorMetric().evaluate_example("the cat sat on the mat", "a cat sat on the mat")
    assert summeval.MeteorMetric().evaluate_example("the cat\nsat on\r\nthe mat", "a cat sat\non the mat") == one_line
    assert summeval.summeval_line("a |||b\n", "c\td", "x") == "SCORE ||| c d ||| a b "


@pytest.mark.parametrize("gts, res, message", [
    ({0: ["a b"]}, {1: ["a b"]}, "same ids: 1 only in gts, 1 only in res"),
    ({0: ["a b"]}, {0: ["a b", "a c"]}, "exactly one hypothesis"),
    ({0: ["a b"]}, {0: "a b"}, "exactly one hypothesis"),
    ({0: "a b"}, {0: ["a b"]}, "references must be a list of strings, not str"),
    ({0: ["a b", 3]}, {0: ["a b"]}, "reference 2 must be a string, not int"),
    ({"img7": ["a b"]}, {"img7": ["a\nb"]}, "id 'img7': a text contains a line break"),
    ({"img7": ["a\rb"]}, {"img7": ["a b"]}, "id 'img7': a text contains a line break"),
    ({}, {}, "no segments"),
])
def test_what_pycocoevalcap_would_get_wrong_is_a_clear_error(gts, res, message):
    with pytest.raises(WrapperInputError, match=message) as caught:
        pycocoevalcap.Meteor().compute_score(gts, res)
    assert isinstance(caught.value, AssertionError) and isinstance(caught.value, ValueError)
    assert "\n" not in str(caught.value)


def test_the_jars_line_reading():
    """String.split drops trailing empty parts; String.trim strips every character up to the space."""
    assert line_parts("SCORE ||| a b ||| \x01c d\x00 ", "x") == ("c d", ["a b"])
    assert line_parts("SCORE |||  ||| x |||||| y", "x") == ("y", ["", "x", ""])
    assert line_parts("SCORE ||| a ||| b ||||||", "x") == ("b", ["a"])
    with pytest.raises(WrapperInputError, match="no hypothesis or no reference"):
        line_parts("SCORE ||| a", "x")


def test_the_jar_configuration_needs_no_wordnet(monkeypatch):
    """score_segments used to ask for WordNet whenever a synonym stage was on, even with the
    jar's own synonyms (which need none)."""
    def missing():
        raise resources.WordNetMissingError(resources.WORDNET_FIX)

    gts, res = {0: ["the cat sat on the mat"]}, {0: ["a cat sits on a mat"]}
    expected = pycocoevalcap.Meteor().compute_score(gts, res)
    monkeypatch.setattr(resources, "require_wordnet", missing)
    assert pycocoevalcap.Meteor().compute_score(gts, res) == expected
    assert jar_config().synonym_source == "jar"
    from meteor_core import MeteorConfig, score_corpus
    with pytest.raises(resources.WordNetMissingError):
        score_corpus(["a cat"], [["the cat"]], MeteorConfig.meteor2005())
