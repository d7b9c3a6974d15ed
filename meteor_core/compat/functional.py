"""``meteor_score(preds, targets, preset=...)``: METEOR as a function, for training and
validation loops (the call shape of torchmetrics' functional text metrics, plain floats out).

    >>> from meteor_core.compat import meteor_score
    >>> meteor_score(["the cat sat on the mat"], [["a cat sat on the mat", "the cat is on the mat"]])
    >>> corpus, sentences = meteor_score(preds, targets, preset="nltk", return_sentence_level_score=True)

``preset`` is a package's name from ``known`` (pycocoevalcap, nltk, hf-evaluate, ...), whose
configuration and aggregation it reproduces, or one of the project's presets (meteor2005,
meteor15: the score of the summed statistics). Repeated calls reuse the configuration and every
resource (stems, synonyms, paraphrase table) loaded by the first one.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from ..config import MeteorConfig
from ..scorer import corpus_from_segments, score_segments
from . import known


@lru_cache(maxsize=64)
def _configuration(preset: str, params: tuple) -> MeteorConfig:
    return known.configuration(preset, **dict(params))


def _is_package(preset: str) -> bool:
    """A package's name ("nltk" is both: NLTK's own number, the mean, wins)."""
    try:
        known.lookup(preset)
    except ValueError:
        return False
    return True


def meteor_score(preds: str | Sequence[str], targets: Sequence[str | Sequence[str]], preset: str = "meteor15",
                 return_sentence_level_score: bool = False, jobs: int | None = 1, **params):
    """The corpus METEOR of ``preds`` against ``targets`` (``targets[k]``: pred k's reference or
    list of references); with ``return_sentence_level_score``, also every sentence's score, as
    ``(corpus, [sentence scores])``. ``params`` override configuration fields (alpha, beta, ...);
    ``jobs`` processes to score in (None or 0: every core)."""
    preds = [preds] if isinstance(preds, str) else list(preds)
    if isinstance(targets, str):
        raise TypeError("targets must be a list: one reference (or list of references) per prediction")
    targets = [[target] if isinstance(target, str) else list(target) for target in targets]
    if len(preds) != len(targets):
        raise ValueError(f"{len(preds)} predictions but {len(targets)} targets")
    # (lists made tuples: the configuration is cached by its parameters)
    config = _configuration(preset, tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items())))
    if _is_package(preset):
        corpus, sentences = known.lookup(preset).score(preds, targets, jobs, config)
    else:
        segments = list(score_segments(preds, targets, config, jobs=jobs))
        corpus, sentences = corpus_from_segments(segments, config).score, [s.score for s in segments]
    return (corpus, sentences) if return_sentence_level_score else corpus


__all__ = ["meteor_score"]
