"""Every common METEOR by name: what each package runs, as a configuration and an aggregation.

    >>> from meteor_core.compat import known
    >>> entry = known.lookup("coco")                 # any case; aliases such as coco, hf, evaluate
    >>> entry.name, entry.aggregation
    ('pycocoevalcap', 'pooled')
    >>> known.configuration("hf").signature()        # a preset name (meteor15, nltk, ...) works too
    >>> score, sentence_scores = entry.score(hypotheses, references)

Aggregations (how one number comes from the segments):
  pooled        the jar's: the score of the summed segment statistics, each segment against its
                best reference (not the mean of the segment scores)
  mean          the mean of the sentence scores (NLTK has no corpus score: its users, HF evaluate
                and VizSeq average; each sentence against its best reference)
  pooled-pairs  sacrerouge's: every (summary, reference) pair is a segment of its own, pooled;
                a summary's own score is the mean over its references

docs/which-meteor.md says, for each, which files were read and what number it reproduces.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Sequence

from ..config import PRESET_NAMES, MeteorConfig
from ..scorer import score_segments
from ..tokenize import nltk_word
from . import summeval
from .jar_stdio import (LINE_BREAKS, WrapperInputError, answer, check_references, check_text, jar_config, pooled,
                         score_line)

AGGREGATIONS = ("pooled", "mean", "pooled-pairs")
# (config, hypotheses, references, jobs) -> (corpus score, sentence scores)
Scorer = Callable[[MeteorConfig, Sequence[str], Sequence[Sequence[str]], "int | None"], tuple[float, list[float]]]


@dataclass(frozen=True)
class KnownMeteor:
    name: str  # as its users write it
    aliases: tuple[str, ...]
    aggregation: str
    source: str  # the files read to reproduce it
    description: str  # what it runs: the docstring of its configuration function
    _configuration: Callable[[], MeteorConfig]
    _scorer: Scorer

    def configuration(self, **overrides) -> MeteorConfig:
        """Its configuration, with any MeteorConfig field overridden."""
        base = self._configuration()
        return MeteorConfig.from_dict({**base.to_dict(), **overrides}) if overrides else base

    def score(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]], jobs: int | None = 1,
              config: MeteorConfig | None = None) -> tuple[float, list[float]]:
        """Its number for these segments, and each segment's score: (corpus, [sentence scores]).
        ``references[k]`` holds segment k's references; ``config`` replaces its configuration
        (the text handling and the aggregation stay its own)."""
        if isinstance(hypotheses, str) or len(hypotheses) != len(references):
            raise ValueError("give a list of hypotheses and, for each, a list of references")
        return self._scorer(config or self.configuration(), list(hypotheses), list(references), jobs)


KNOWN: dict[str, KnownMeteor] = {}
_BY_KEY: dict[str, str] = {}


def _key(name: str) -> str:
    """Names compare without case, spaces or punctuation: "HF evaluate" = "hf-evaluate"."""
    return re.sub(r"[^0-9a-z]", "", name.lower())


def _register(name: str, aliases: tuple[str, ...], aggregation: str, source: str, scorer: Scorer):
    def add(configuration: Callable[[], MeteorConfig]) -> Callable[[], MeteorConfig]:
        KNOWN[name] = KnownMeteor(name, aliases, aggregation, source, " ".join(configuration.__doc__.split()),
                                  configuration, scorer)
        for alias in (name, *aliases):
            if _BY_KEY.setdefault(_key(alias), name) != name:  # (a name may be written several ways)
                raise ValueError(f"{alias!r} already names {_BY_KEY[_key(alias)]}")
        return configuration
    return add


def lookup(name: str) -> KnownMeteor:
    """The entry called ``name`` (or one of its aliases), case-insensitively; ValueError if none."""
    found = _BY_KEY.get(_key(str(name)))
    if found is None:
        raise ValueError(f"unknown METEOR {str(name)[:40]!r}; known: {', '.join(KNOWN)}")
    return KNOWN[found]


def choices() -> list[str]:
    """Every name a configuration can be chosen by: the presets, then the packages."""
    return list(PRESET_NAMES) + [name for name in KNOWN if name not in PRESET_NAMES]


def canonical(name: str) -> str:
    """``name`` as listed by ``choices`` (a preset's own name, or a package's)."""
    return name if name in PRESET_NAMES else lookup(name).name


def configuration(name: str, /, **overrides) -> MeteorConfig:
    """A preset's configuration (meteor2005, nltk, meteor15) or a package's, by any of its names."""
    if name in PRESET_NAMES:
        return MeteorConfig.preset(name, **overrides)
    return lookup(name).configuration(**overrides)


# --- how the packages score ---------------------------------------------------------------------

def _stdio(build_line) -> Scorer:
    """A wrapper talking to the jar's -stdio mode, ``build_line(hypothesis, references, where)``
    its SCORE line."""
    def scorer(config, hypotheses, references, jobs):
        lines = [(f"segment {k + 1}", build_line(hyp, refs, f"segment {k + 1}"))
                 for k, (hyp, refs) in enumerate(zip(hypotheses, references))]
        return answer(lines, config, jobs)
    return scorer


def _nlgeval_line(hypothesis: str, references, where: str) -> str:
    references = check_references(references, where)
    return score_line(check_text(hypothesis, f"{where}: the hypothesis").strip(), [ref.strip() for ref in references],
                      where)


def _jar_files(prepare: Callable[[str], str] | None = None) -> Scorer:
    """The jar run on files (``java -jar meteor-1.5.jar HYP REF -l en -norm [-r N]``), after
    ``prepare`` on every text: one line a segment, nothing trimmed."""
    def scorer(config, hypotheses, references, jobs):
        hypotheses = [check_text(hyp, f"segment {k + 1}: the hypothesis") for k, hyp in enumerate(hypotheses)]
        references = [check_references(refs, f"segment {k + 1}") for k, refs in enumerate(references)]
        if prepare is not None:
            hypotheses = [prepare(hyp) for hyp in hypotheses]
            references = [[prepare(ref) for ref in refs] for refs in references]
        for text in hypotheses + [ref for refs in references for ref in refs]:
            if any(brk in text for brk in LINE_BREAKS):
                raise WrapperInputError(f"a text contains a line break: in a file it would start another segment "
                                        f"({text[:40]!r})")
        return pooled(hypotheses, references, config, jobs)
    return scorer


def _pairs(config, hypotheses, references, jobs):
    """sacrerouge: every (summary, reference) pair in the files, pooled; a summary's score is
    the mean of its pairs' scores."""
    pair_hyps = [hyp for hyp, refs in zip(hypotheses, references) for _ in refs]
    pair_refs = [[ref] for refs in references for ref in refs]
    corpus, pair_scores = _jar_files()(config, pair_hyps, pair_refs, jobs)
    sentence, k = [], 0
    for refs in references:
        scores = pair_scores[k:k + len(refs)]
        sentence.append(sum(scores) / len(scores))  # (sacrerouge: sum(scores) / len(scores))
        k += len(refs)
    return corpus, sentence


def _mean(config, hypotheses, references, jobs):
    """Sentence scores, each against the best reference, and their numpy mean (as HF evaluate
    and VizSeq take it: numpy's pairwise sum, which can differ from sum()/n in the last bit)."""
    import numpy as np

    if not hypotheses:
        raise ValueError("no segments to score")
    scores = [r.score for r in score_segments(hypotheses, references, config, jobs=jobs)]
    return float(np.mean(scores)), scores


def _word_tokenized(text: str) -> str:
    return " ".join(nltk_word(text))


# --- the packages -------------------------------------------------------------------------------

@_register("pycocoevalcap", ("coco", "coco-caption", "cocoevalcap", "pycoco"), "pooled",
           "pycocoevalcap 1.2: pycocoevalcap/meteor/meteor.py (tylin/coco-caption: pycocoevalcap/meteor/meteor.py)",
           _stdio(score_line))
def _pycocoevalcap() -> MeteorConfig:
    """The Meteor 1.5 jar through its -stdio mode (java -jar -Xmx2G meteor-1.5.jar - - -stdio -l en
    -norm): Meteor 1.5's English defaults (alpha 0.85, beta 0.2, gamma 0.6, delta 0.75; exact,
    stem, synonym and paraphrase stages weighted 1, 0.6, 0.8, 0.6), its -norm tokenisation and
    lowercasing. "|||" is removed from the hypothesis and its double spaces halved; the score is
    that of the summed statistics. COCO captions are usually PTB-tokenised (Java) before."""
    return jar_config("pycocoevalcap")


@_register("nlg-eval", ("maluuba",), "pooled",
           "Maluuba/nlg-eval: nlgeval/__init__.py, nlgeval/pycocoevalcap/meteor/meteor.py", _stdio(_nlgeval_line))
def _nlgeval() -> MeteorConfig:
    """pycocoevalcap's wrapper and jar (-stdio -l en -norm, LC_ALL=C); every hypothesis and
    reference stripped of surrounding whitespace first. Pooled score."""
    return jar_config("nlg-eval")


@_register("gem-metrics", ("gem", "gem-benchmark"), "pooled",
           "GEM-benchmark/GEM-metrics: gem_metrics/meteor.py, gem_metrics/impl/meteor.py", _stdio(score_line))
def _gem() -> MeteorConfig:
    """pycocoevalcap's wrapper adapted to lists (-stdio -l en -norm, with -Duser.language=en
    -Duser.country=US); texts untokenised, as given. Pooled score, reported as {"meteor": ...}."""
    return jar_config("gem-metrics")


@_register("summeval", ("yale-lily",), "pooled",
           "Yale-LILY/SummEval: evaluation/summ_eval/meteor_metric.py", _stdio(summeval.summeval_line))
def _summeval() -> MeteorConfig:
    """nlg-eval's wrapper and jar (-stdio -l en -norm) with every run of whitespace in the SCORE
    line made one space. evaluate_batch reports the pooled score."""
    return jar_config("summeval")


@_register("sacrerouge", ("sacre-rouge",), "pooled-pairs",
           "danieldeutsch/sacrerouge: sacrerouge/metrics/meteor.py", _pairs)
def _sacrerouge() -> MeteorConfig:
    """The jar on files (java -jar meteor-1.5.jar SUMMARIES REFERENCES -l en -norm), one line for
    every (summary, reference) pair: no best reference. The macro score is the jar's final score
    over all pairs; a summary's micro score is the mean over its references."""
    return jar_config("sacrerouge")


@_register("generationeval", ("webnlg", "webnlg-2020"), "pooled",
           "WebNLG/GenerationEval: eval.py (meteor_score, parse)", _jar_files(_word_tokenized))
def _generationeval() -> MeteorConfig:
    """The WebNLG 2020 script: texts tokenised with NLTK's word_tokenize and joined by spaces,
    then the jar on files (java -Xmx2G -jar meteor-1.5.jar HYP REF -l en -norm -r N); its final
    score, which the table rounds to 2 decimals."""
    return jar_config("generationeval")


@_register("jar", ("meteor-1.5.jar", "meteor-jar"), "pooled",
           "cmu-mtlab/meteor: src/Meteor.java", _jar_files())
def _jar() -> MeteorConfig:
    """The Meteor 1.5 jar itself on files (java -jar meteor-1.5.jar HYP REF -l en -norm): its
    English defaults with all four stages; its final score."""
    return jar_config("jar")


@_register("nltk", ("nltk.translate", "nltk-meteor", "nltk.translate.meteor_score"), "mean",
           "nltk/nltk: nltk/translate/meteor_score.py (3.6.5 to 3.10)", _mean)
def _nltk() -> MeteorConfig:
    """nltk.translate.meteor_score.meteor_score(references, hypothesis) on whitespace tokens (what
    its users pass, text.split()): alpha 0.9, beta 3, gamma 0.5, lowercased, exact then Porter-stem
    then WordNet matches (synonyms of the stems), greedy alignment. NLTK scores sentences only;
    the corpus number is their mean."""
    return MeteorConfig.nltk()


@_register("hf-evaluate", ("hf", "evaluate", "huggingface", "huggingface-evaluate", "evaluate-meteor"), "mean",
           "huggingface/evaluate: metrics/meteor/meteor.py", _mean)
def _hf_evaluate() -> MeteorConfig:
    """HF evaluate's meteor (evaluate.load("meteor")): NLTK's meteor_score per sentence on
    nltk.word_tokenize tokens (NLTK >= 3.6.5), alpha 0.9, beta 3, gamma 0.5 unless given, then
    numpy's mean of the sentence scores."""
    return MeteorConfig.nltk(tokenizer="nltk-word", name="hf-evaluate")


@_register("vizseq", ("facebookresearch-vizseq",), "mean",
           "facebookresearch/vizseq: vizseq/scorers/meteor.py, vizseq/scorers/__init__.py", _mean)
def _vizseq() -> MeteorConfig:
    """VizSeq's METEORScorer: NLTK's meteor_score on the untokenised strings, which NLTK 3.5 to
    3.6.4 lowercase and split on whitespace (NLTK >= 3.6.5 refuses strings; before 3.6.3 its stem
    stage left matched words to the synonym stage, nltk#2751); numpy's mean of the sentence scores."""
    return MeteorConfig.nltk(name="vizseq")


__all__ = ["AGGREGATIONS", "KNOWN", "KnownMeteor", "canonical", "choices", "configuration", "lookup"]
