"""pycocoevalcap's (coco-caption's) ``Meteor`` without Java: swap one import.

    # from pycocoevalcap.meteor.meteor import Meteor
    from meteor_core.compat.pycocoevalcap import Meteor

    score, scores = Meteor().compute_score(gts, res)   # gts: id -> [references], res: id -> [hypothesis]

The same ``(score, scores)`` as pycocoevalcap 1.2's ``meteor/meteor.py``, which runs
``java -jar -Xmx2G meteor-1.5.jar - - -stdio -l en -norm``: one SCORE line per id in the order of
``gts.keys()`` ("|||" removed from the hypothesis, its double spaces halved), then one EVAL line;
``scores`` are the segments' scores, ``score`` that of their summed statistics (not their mean).
The jar's function words, synonyms and paraphrase table are read from the installed
pycocoevalcap's jar (or ``METEOR_JAR``); no JVM is started.

Where pycocoevalcap would go wrong, this raises a ``WrapperInputError`` (a ValueError and an
AssertionError) naming the id: ids that differ between ``gts`` and ``res``, an id without exactly
one hypothesis (pycocoevalcap's own assertions), references given as one string (pycocoevalcap
would take every character as a reference), and a text with a line break (the jar would read
two lines, and every later score would belong to another id, or pycocoevalcap fails).
"""
from __future__ import annotations

from .jar_stdio import WrapperInputError, answer, jar_config, require_jar, score_line


def compute_score(gts: dict, res: dict, name: str, jobs: int | None = 1) -> tuple[float, list[float]]:
    """pycocoevalcap's Meteor.compute_score (nlg-eval's is the same); ``name`` labels the configuration."""
    if gts.keys() != res.keys():  # (pycocoevalcap: assert(gts.keys() == res.keys()), as sets)
        only_gts, only_res = len(gts.keys() - res.keys()), len(res.keys() - gts.keys())
        raise WrapperInputError(f"gts and res must have the same ids: {only_gts} only in gts, {only_res} only in res")
    lines = []
    for i in gts:
        where = f"id {i!r}"[:60]
        hypotheses = res[i]
        if isinstance(hypotheses, str) or len(hypotheses) != 1:  # (pycocoevalcap: assert(len(res[i]) == 1))
            raise WrapperInputError(f"{where}: res must hold a list with exactly one hypothesis")
        lines.append((where, score_line(hypotheses[0], gts[i], where)))
    return answer(lines, jar_config(name), jobs)


class Meteor:
    """``Meteor(jobs=1)``: pycocoevalcap's scorer; ``jobs`` processes to score in (None or 0:
    every core), the same numbers with any number."""

    def __init__(self, jobs: int | None = 1):
        require_jar()  # (pycocoevalcap fails here too when it cannot start the jar)
        self.jobs = jobs

    def compute_score(self, gts: dict, res: dict) -> tuple[float, list[float]]:
        return compute_score(gts, res, "pycocoevalcap", self.jobs)

    def method(self) -> str:
        return "METEOR"

    def close(self) -> None:
        """Nothing to stop (nlg-eval's copy stops its JVM here)."""


__all__ = ["Meteor", "WrapperInputError", "compute_score"]
