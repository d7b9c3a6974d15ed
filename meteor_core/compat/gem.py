"""GEM-metrics' METEOR without Java (GEM-benchmark/GEM-metrics: ``gem_metrics/meteor.py`` and
``gem_metrics/impl/meteor.py``).

GEM-metrics adapts pycocoevalcap's wrapper: the same meteor-1.5.jar and SCORE/EVAL lines
(``-stdio -l <language> -norm``), with lists instead of id dictionaries, and reports the score
of the summed statistics as ``{"meteor": ...}``:

    PyMeteorWrapper("en").compute_score(predictions, references)  # (score, scores)
    compute(predictions, references)                              # {"meteor": score}

``references`` holds a list of references per prediction (or one string each, which GEM's
References class wraps in a list). English only: the jar's other languages need resources this
project does not read. Where GEM-metrics turns a broken exchange with the jar into -1.0 (or -99),
this raises a WrapperInputError naming the segment.
"""
from __future__ import annotations

from typing import Sequence

from .jar_stdio import WrapperInputError, answer, jar_config, require_jar, score_line

NAME = "gem-metrics"


class PyMeteorWrapper:
    """``gem_metrics.impl.meteor.PyMeteorWrapper(language)``."""

    def __init__(self, language: str = "en", jobs: int | None = 1):
        if language != "en":
            raise ValueError(f"only English (en) is reproduced; got language {str(language)[:20]!r}")
        require_jar()
        self.language, self.jobs = language, jobs

    def compute_score(self, predictions: Sequence[str], references: Sequence[Sequence[str]]) -> tuple[float, list[float]]:
        if isinstance(predictions, str) or len(predictions) != len(references):
            raise WrapperInputError("predictions and references must be lists of the same length")
        lines = [(f"segment {k + 1}", score_line(pred, refs, f"segment {k + 1}"))
                 for k, (pred, refs) in enumerate(zip(predictions, references))]
        return answer(lines, jar_config(NAME), self.jobs)


def compute(predictions: Sequence[str], references: Sequence, jobs: int | None = 1) -> dict[str, float]:
    """``gem_metrics.meteor.Meteor().compute(...)``'s result for plain lists."""
    references = [[refs] if isinstance(refs, str) else refs for refs in references]
    return {"meteor": PyMeteorWrapper("en", jobs).compute_score(predictions, references)[0]}


__all__ = ["PyMeteorWrapper", "WrapperInputError", "compute"]
