"""HF evaluate's ``meteor`` call shape, without the Hub and with a choice of whose number:

    # meteor = evaluate.load("meteor")
    from meteor_core.compat.evaluate import load
    meteor = load("meteor")                      # preset="nltk": evaluate's own number
    meteor.compute(predictions=preds, references=refs)                    # {"meteor": ...}
    meteor.compute(predictions=preds, references=refs, alpha=0.9, beta=3, gamma=0.5)
    load("meteor", preset="jar").compute(predictions=preds, references=refs)  # pycocoevalcap's number

``references`` holds one reference per prediction, or a list of references per prediction.

preset="nltk" is what evaluate's ``metrics/meteor/meteor.py`` computes with NLTK >= 3.6.5:
``nltk.word_tokenize`` on every text (it needs NLTK's punkt_tab data, as evaluate does), NLTK's
``meteor_score`` per sentence (alpha 0.9, beta 3, gamma 0.5 unless given) and numpy's mean.
preset="jar" is the Meteor 1.5 jar's as pycocoevalcap runs it (-stdio -l en -norm, the four
stages): its own alpha 0.85, beta 0.2, gamma 0.6 unless given, and the score of the summed
statistics, not a mean.

Why evaluate's METEOR differs from the papers' (evaluate#115): it is NLTK's METEOR (the 2005
formula: no paraphrases, no function-word weighting, Porter stems, a greedy alignment, NLTK's
tokenisation), averaged over sentences, while most papers report the Meteor 1.5 jar's pooled
score through pycocoevalcap or nlg-eval. On the TED data of docs/which-meteor.md the two differ
by several points; ``python -m meteor_core explain --a hf --b pycocoevalcap`` walks the gap
factor by factor.
"""
from __future__ import annotations

from typing import Sequence

from . import known

# preset -> the package whose configuration and aggregation it reproduces
PRESETS = {"nltk": "hf-evaluate", "jar": "pycocoevalcap"}


class Meteor:
    """``evaluate.load("meteor")``'s compute; ``preset`` "nltk" (evaluate's) or "jar"."""

    name = "meteor"

    def __init__(self, preset: str = "nltk", jobs: int | None = 1):
        if preset not in PRESETS:
            raise ValueError(f"preset must be one of {', '.join(PRESETS)}; got {str(preset)[:30]!r}")
        self.preset, self.jobs = preset, jobs
        self.package = known.lookup(PRESETS[preset])

    def compute(self, *, predictions: Sequence[str], references: Sequence, alpha: float | None = None,
                beta: float | None = None, gamma: float | None = None) -> dict[str, float]:
        if isinstance(predictions, str) or isinstance(references, str):
            raise TypeError("predictions and references must be lists")
        references = [[refs] if isinstance(refs, str) else list(refs) for refs in references]
        if len(predictions) != len(references):
            raise ValueError(f"{len(predictions)} predictions but {len(references)} references")
        given = {k: v for k, v in (("alpha", alpha), ("beta", beta), ("gamma", gamma)) if v is not None}
        config = self.package.configuration(**given)
        return {"meteor": self.package.score(list(predictions), references, self.jobs, config)[0]}


def load(path: str = "meteor", preset: str = "nltk", jobs: int | None = 1) -> Meteor:
    """``evaluate.load("meteor")``: only "meteor" is here."""
    if path != "meteor":
        raise ValueError(f"only the meteor metric is here; got {str(path)[:30]!r}")
    return Meteor(preset, jobs)


__all__ = ["Meteor", "PRESETS", "load"]
