"""HF evaluate's call shape, the functional meteor_score and the registry of known METEORs.

evaluate's meteor cannot be loaded here (its script lives on the Hub), so its code path is
reproduced line for line from its metrics/meteor/meteor.py (NLTK >= 3.6.5): nltk.word_tokenize on
every text, NLTK's meteor_score per sentence, numpy's mean. word_tokenize needs NLTK's punkt_tab:
where it is missing (no network), a stand-in Punkt model with a few abbreviations is written for
the test, so both sides split sentences the same way; with the real one installed, it is used."""
import math

import numpy as np
import pytest

from conftest import ted_lines
from meteor_core import MeteorConfig, score, score_corpus
from meteor_core.compat import known, meteor_score
from meteor_core.compat.evaluate import Meteor as EvaluateMeteor, load
from meteor_core.jar_resources import jar_available
from meteor_core.tokenize import NltkDataMissingError, tokenize

needs_jar = pytest.mark.skipif(not jar_available(), reason="needs a Meteor 1.5 jar (pycocoevalcap or METEOR_JAR)")


@pytest.fixture(scope="module")
def punkt(tmp_path_factory):
    """NLTK's word_tokenize working: the installed punkt_tab, or a stand-in written for the test."""
    import nltk
    from nltk.tokenize import _get_punkt_tokenizer, word_tokenize

    try:
        word_tokenize("A test. Another one.")
        yield "installed"
        return
    except LookupError:
        pass
    root = tmp_path_factory.mktemp("nltk_data")
    english = root / "tokenizers" / "punkt_tab" / "english"
    english.mkdir(parents=True)
    (english / "abbrev_types.txt").write_text("mr\ndr\ne.g\ni.e\nu.s\n", encoding="utf-8")
    for name in ("collocations.tab", "sent_starters.txt", "ortho_context.tab"):
        (english / name).write_text("", encoding="utf-8")
    nltk.data.path.insert(0, str(root))
    _get_punkt_tokenizer.cache_clear()
    yield "stand-in"
    nltk.data.path.remove(str(root))
    _get_punkt_tokenizer.cache_clear()


def _evaluates_compute(predictions, references, alpha=0.9, beta=3, gamma=0.5):
    """evaluate's Meteor._compute for NLTK >= 3.6.5, line for line."""
    from nltk import word_tokenize
    from nltk.translate import meteor_score as nltk_meteor

    if isinstance(references[0], list):
        scores = [nltk_meteor.meteor_score([word_tokenize(ref) for ref in refs], word_tokenize(pred),
                                           alpha=alpha, beta=beta, gamma=gamma)
                  for refs, pred in zip(references, predictions)]
    else:
        scores = [nltk_meteor.single_meteor_score(word_tokenize(ref), word_tokenize(pred), alpha=alpha, beta=beta,
                                                  gamma=gamma)
                  for ref, pred in zip(references, predictions)]
    return {"meteor": np.mean(scores)}


def test_word_tokenize_is_evaluates_tokenisation(punkt):
    text = "Mr. Smith can't go. \"It's late,\" he said... The U.S. e.g. won't."
    from nltk import word_tokenize
    assert tokenize(text, "nltk-word") == word_tokenize(text)
    assert tokenize(text, "nltk-word")[:5] == ["Mr.", "Smith", "ca", "n't", "go"]


def test_evaluate_adapter_equals_evaluates_code_path_on_ted(punkt):
    ref, s1, s2 = ted_lines("ref"), ted_lines("sys1"), ted_lines("sys2")
    ids = range(0, 1200, 3)
    preds, single, multiple = [s1[k] for k in ids], [ref[k] for k in ids], [[ref[k], s2[k]] for k in ids]
    meteor = load("meteor")
    for refs in (single, multiple):
        theirs = _evaluates_compute(preds, refs)["meteor"]
        assert meteor.compute(predictions=preds, references=refs)["meteor"] == theirs
    theirs = _evaluates_compute(preds, multiple, alpha=0.8, beta=2, gamma=0.4)["meteor"]
    ours = meteor.compute(predictions=preds, references=multiple, alpha=0.8, beta=2, gamma=0.4)["meteor"]
    assert ours == theirs
    # evaluate's own docstring example
    example = meteor.compute(
        predictions=["It is a guide to action which ensures that the military always obeys the commands of the party"],
        references=["It is a guide to action that ensures that the military will forever heed Party commands"])
    assert round(example["meteor"], 4) == 0.6944


@needs_jar
def test_evaluate_adapter_jar_preset_is_pycocoevalcaps_number():
    from meteor_core.compat.pycocoevalcap import Meteor

    ref, s1 = ted_lines("ref")[:60], ted_lines("sys1")[:60]
    expected = Meteor().compute_score({k: [r] for k, r in enumerate(ref)}, {k: [h] for k, h in enumerate(s1)})[0]
    assert load("meteor", preset="jar").compute(predictions=s1, references=ref) == {"meteor": expected}
    tuned = load("meteor", preset="jar").compute(predictions=s1, references=ref, alpha=0.5, beta=1.0, gamma=0.3)
    assert tuned["meteor"] != expected
    config = known.configuration("pycocoevalcap", alpha=0.5, beta=1.0, gamma=0.3)
    assert tuned["meteor"] == score_corpus(s1, [[r] for r in ref], config).score


def test_without_punkt_the_message_says_how_to_get_it(monkeypatch):
    import nltk.tokenize

    def missing(*args, **kwargs):
        raise LookupError("Resource punkt_tab not found.\n  Please use the NLTK Downloader")

    monkeypatch.setattr(nltk.tokenize, "word_tokenize", missing)
    with pytest.raises(NltkDataMissingError, match=r"punkt_tab.*nltk.download\('punkt_tab'\)") as caught:
        load("meteor").compute(predictions=["a b"], references=["a b"])
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("call, message", [
    (lambda: load("bleu"), "only the meteor metric"),
    (lambda: EvaluateMeteor(preset="coco"), "preset must be one of nltk, jar"),
    (lambda: load().compute(predictions="a b", references=["a b"]), "must be lists"),
    (lambda: load().compute(predictions=["a", "b"], references=["a"]), "2 predictions but 1 references"),
    (lambda: load().compute(predictions=["a"], references=["a"], beta=-1), "beta must be a finite number"),
])
def test_evaluate_adapter_refuses_bad_calls(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_meteor_score_shapes_and_aggregations():
    preds = ["the cat sat on the mat", "a dog ran in the park"]
    targets = [["a cat sat on the mat", "the cat is on the mat"], "the dog runs in a park"]
    nltk_config = MeteorConfig.nltk()
    sentences = [score(p, t if isinstance(t, list) else [t], nltk_config).score for p, t in zip(preds, targets)]
    corpus, per_sentence = meteor_score(preds, targets, preset="nltk", return_sentence_level_score=True)
    assert per_sentence == sentences
    assert corpus == float(np.mean(sentences))  # NLTK users' number: the mean
    pooled = meteor_score(preds, targets, preset="meteor2005")  # a project preset: summed statistics
    assert pooled == score_corpus(preds, [t if isinstance(t, list) else [t] for t in targets]).score
    assert not math.isclose(pooled, meteor_score(preds, targets, preset="meteor2005", beta=1.0))
    assert meteor_score("the cat", ["the cat"], preset="nltk") == meteor_score(["the cat"], [["the cat"]], preset="nltk")
    with pytest.raises(ValueError, match="2 predictions but 1 targets"):
        meteor_score(preds, targets[:1])
    with pytest.raises(ValueError, match="unknown METEOR"):
        meteor_score(preds, targets, preset="bleu")


@needs_jar
def test_meteor_score_by_package_name_equals_its_drop_in():
    from meteor_core.compat.pycocoevalcap import Meteor

    ref, s1, s2 = ted_lines("ref")[:40], ted_lines("sys1")[:40], ted_lines("sys2")[:40]
    targets = [[r, o] for r, o in zip(ref, s2)]
    expected = Meteor().compute_score(dict(enumerate(targets)), {k: [h] for k, h in enumerate(s1)})
    assert meteor_score(s1, targets, preset="coco", return_sentence_level_score=True) == expected
    assert meteor_score(s1, targets, preset="PyCocoEvalCap") == expected[0]


def test_repeated_calls_reuse_the_configuration():
    from meteor_core.compat import functional

    functional._configuration.cache_clear()
    for _ in range(5):
        meteor_score(["a b c"], [["a b d"]], preset="nltk", alpha=0.8)
    info = functional._configuration.cache_info()
    assert (info.misses, info.hits) == (1, 4)


def test_names_are_found_as_users_type_them():
    assert known.lookup("coco").name == known.lookup("COCO-Caption").name == "pycocoevalcap"
    assert known.lookup("HF").name == known.lookup("evaluate").name == known.lookup("HF evaluate").name == "hf-evaluate"
    assert known.lookup("nlg_eval").name == known.lookup("NLGEval").name == "nlg-eval"
    assert known.lookup("GEM").name == "gem-metrics" and known.lookup("WebNLG").name == "generationeval"
    assert known.canonical("meteor15") == "meteor15" and known.canonical("Coco") == "pycocoevalcap"
    with pytest.raises(ValueError, match="unknown METEOR 'bleu'; known: pycocoevalcap, nlg-eval"):
        known.lookup("bleu")
    required = {"pycocoevalcap", "nlg-eval", "gem-metrics", "summeval", "sacrerouge", "nltk", "hf-evaluate", "vizseq",
                "generationeval"}
    assert required <= set(known.KNOWN)
    for entry in known.KNOWN.values():
        assert entry.aggregation in known.AGGREGATIONS and len(entry.description) > 80 and entry.source
        for alias in (entry.name, *entry.aliases):
            assert known.lookup(alias) is entry and known.lookup(alias.upper()) is entry
    assert known.lookup("Viz-Seq").name == "vizseq" and known.lookup("summ_eval").name == "summeval"


def test_configurations_say_what_each_package_runs():
    coco, hf, nltk_, viz = (known.configuration(n) for n in ("coco", "hf", "nltk", "vizseq"))
    assert coco.stages == ("exact", "stem", "synonym", "paraphrase") and coco.paraphrase_table == "jar"
    assert (coco.alpha, coco.beta, coco.gamma, coco.delta) == (0.85, 0.2, 0.6, 0.75)
    assert coco.tokenizer == "meteor-norm" and coco.synonym_source == "jar" and coco.name == "pycocoevalcap"
    assert "preset:pycocoevalcap" in coco.signature() and "para:jar" in coco.signature()
    assert hf.tokenizer == "nltk-word" and "tok:nltk-word" in hf.signature()
    assert (hf.alpha, hf.beta, hf.gamma) == (nltk_.alpha, nltk_.beta, nltk_.gamma) == (0.9, 3.0, 0.5)
    assert nltk_ == MeteorConfig.nltk() and viz.tokenizer == "whitespace"
    assert known.configuration("coco", beta=1.0).beta == 1.0


@needs_jar
def test_sacrerouge_pools_every_pair_and_averages_a_summarys_pairs():
    from meteor_core.compat.jar_stdio import jar_config

    hyps = ["the cat sat on the mat", "a dog ran"]
    refs = [["a cat sat on the mat", "the cat was on the mat"], ["the dog ran away"]]
    corpus, sentence = known.lookup("sacrerouge").score(hyps, refs)
    pairs = score_corpus([hyps[0], hyps[0], hyps[1]], [[refs[0][0]], [refs[0][1]], [refs[1][0]]], jar_config())
    assert corpus == pairs.score
    assert sentence == [(pairs.segments[0].score + pairs.segments[1].score) / 2, pairs.segments[2].score]
    assert corpus != known.lookup("jar").score(hyps, refs)[0]  # the best reference is not chosen


def test_generationeval_tokenises_with_nltk_before_the_jar(punkt):
    if not jar_available():
        pytest.skip("needs a Meteor 1.5 jar")
    from nltk import word_tokenize
    from meteor_core.compat.jar_stdio import jar_config

    hyps, refs = ['He said "no".', "It can't be."], [["He said: 'No'."], ["It cannot be."]]
    tokenized = score_corpus([" ".join(word_tokenize(h)) for h in hyps],
                             [[" ".join(word_tokenize(r)) for r in rs] for rs in refs], jar_config())
    assert known.lookup("webnlg").score(hyps, refs)[0] == tokenized.score


def test_explain_takes_packages_by_name_and_says_what_they_report(tmp_path, capsys):
    import json

    from meteor_core.cli import main

    hyps, refs = ted_lines("sys1")[:25], ted_lines("ref")[:25]
    (tmp_path / "h").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "r").write_text("\n".join(refs) + "\n", encoding="utf-8")
    files = ["--hyp-file", str(tmp_path / "h"), "--ref-file", str(tmp_path / "r"), "--jobs", "1"]
    assert main(["explain", "--a", "VizSeq", "--b", "meteor2005", *files, "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    mean = known.lookup("vizseq").score(hyps, [[r] for r in refs])[0]
    assert d["a"]["name"] == "vizseq" and d["reported_a"] == {"name": "vizseq", "aggregation": "mean", "score": mean}
    assert d["score_a"] == score_corpus(hyps, [[r] for r in refs], MeteorConfig.nltk()).score != mean
    assert "reported_b" not in d  # a preset: its number is the pooled one
    assert main(["explain", "--a", "nltk", "--b", "meteor2005", *files]) == 0
    assert f"nltk itself reports {mean:.4f}: the mean of the sentence scores" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["explain", "--a", "bleu", "--hyp", "a", "--ref", "a"])
    assert "unknown METEOR 'bleu'; known: pycocoevalcap" in capsys.readouterr().err
