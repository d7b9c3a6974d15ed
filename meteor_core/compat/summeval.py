"""SummEval's METEOR without Java (Yale-LILY/SummEval: ``evaluation/summ_eval/meteor_metric.py``).

SummEval's ``MeteorMetric`` is nlg-eval's wrapper (the same jar, ``-stdio -l en -norm``) with one
change to the SCORE line: every run of whitespace in it becomes one space (``re.sub(r'\\s+', ' ',
...)``), so line breaks inside a summary are harmless there. Its scores:

    MeteorMetric().evaluate_example(summary, reference)                  # {"meteor": ...}
    MeteorMetric().evaluate_batch(summaries, references)                 # {"meteor": pooled score}
    MeteorMetric().evaluate_batch(summaries, references, aggregate=False)  # [{"meteor": ...}, ...]

A reference that is not a list is one reference; batches are cut to the shorter input (``zip``).
"""
from __future__ import annotations

import re
from typing import Sequence

from .jar_stdio import WrapperInputError, answer, check_references, check_text, jar_config, require_jar

NAME = "summeval"
_WHITESPACE = re.compile(r"\s+")


def summeval_line(summary: str, references, where: str) -> str:
    """``MeteorMetric._stat``'s SCORE line."""
    summary = check_text(summary, f"{where}: the summary").replace("|||", "")
    references = check_references(references if isinstance(references, list) else [references], where)
    return _WHITESPACE.sub(" ", " ||| ".join(("SCORE", " ||| ".join(references), summary)))


class MeteorMetric:
    """``summ_eval.meteor_metric.MeteorMetric()``."""

    supports_multi_ref = True

    def __init__(self, jobs: int | None = 1):
        require_jar()
        self.jobs = jobs

    def evaluate_example(self, summary: str, reference) -> dict[str, float]:
        return {"meteor": answer([("the summary", summeval_line(summary, reference, "the summary"))],
                                 jar_config(NAME), self.jobs)[0]}

    def evaluate_batch(self, summaries: Sequence[str], references: Sequence, aggregate: bool = True):
        lines = [(f"summary {k + 1}", summeval_line(summary, refs, f"summary {k + 1}"))
                 for k, (refs, summary) in enumerate(zip(references, summaries))]
        score, scores = answer(lines, jar_config(NAME), self.jobs)
        return {"meteor": score} if aggregate else [{"meteor": s} for s in scores]


__all__ = ["MeteorMetric", "WrapperInputError", "summeval_line"]
