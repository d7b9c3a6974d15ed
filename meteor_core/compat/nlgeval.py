"""nlg-eval's METEOR without Java (Maluuba/nlg-eval: ``nlgeval/__init__.py`` and
``nlgeval/pycocoevalcap/meteor/meteor.py``).

nlg-eval's ``Meteor`` is pycocoevalcap's, talking to the same meteor-1.5.jar with the same flags
(``-stdio -l en -norm``, started with LC_ALL=C): ``Meteor().compute_score(gts, res)`` here gives
its ``(score, scores)``. Its entry points strip every text (``str.strip``) and number the
segments from 0; they return the METEOR key of nlg-eval's result here:

    compute_metrics("hyp.txt", ["ref1.txt", "ref2.txt"])          # {"METEOR": ...}
    compute_individual_metrics(["ref a", "ref b"], "hypothesis")  # {"METEOR": ...}
    NLGEval().compute_metrics(ref_list, hyp_list)                 # ref_list: one list per reference file

Files are read as nlg-eval reads them (``readlines``: universal newlines), in UTF-8. As in
nlg-eval, reference files longer than the others are cut to the shortest (``zip``), and the
hypotheses must then be as many (its ``assert``).
"""
from __future__ import annotations

from typing import Sequence

from . import pycocoevalcap
from .jar_stdio import WrapperInputError, check_text

NAME = "nlg-eval"
# compute_individual_metrics splits a reference string on this "for backward compatibility".
REFERENCE_DELIMITER = "||<|>||"


class Meteor(pycocoevalcap.Meteor):
    """``nlgeval.pycocoevalcap.meteor.meteor.Meteor``: the same scorer as pycocoevalcap's."""

    def compute_score(self, gts: dict, res: dict) -> tuple[float, list[float]]:
        return pycocoevalcap.compute_score(gts, res, NAME, self.jobs)


def _read_lines(path) -> list[str]:
    with open(path, encoding="utf-8") as f:
        return f.readlines()


class NLGEval:
    """``NLGEval(...)``'s two scoring methods, METEOR only."""

    def __init__(self, jobs: int | None = 1):
        self.meteor = Meteor(jobs)

    def compute_individual_metrics(self, ref: Sequence[str], hyp: str) -> dict[str, float]:
        check_text(hyp, "hyp")  # (nlg-eval: assert isinstance(hyp, six.string_types))
        refs = {0: [check_text(r, "a reference").strip() for r in ref]}
        return {"METEOR": self.meteor.compute_score(refs, {0: [hyp.strip()]})[0]}

    def compute_metrics(self, ref_list: Sequence[Sequence[str]], hyp_list: Sequence[str]) -> dict[str, float]:
        """``ref_list``: one list of lines per reference file; ``hyp_list``: the hypotheses."""
        segments = [[check_text(r, "a reference").strip() for r in refs] for refs in zip(*ref_list)]
        refs = dict(enumerate(segments))
        hyps = {k: [check_text(line, "a hypothesis").strip()] for k, line in enumerate(hyp_list)}
        if len(refs) != len(hyps):  # (nlg-eval: assert len(refs) == len(hyps))
            raise WrapperInputError(f"{len(hyps)} hypotheses but {len(refs)} reference lines "
                                    "(the shortest reference file counts)")
        return {"METEOR": self.meteor.compute_score(refs, hyps)[0]}


def compute_metrics(hypothesis, references: Sequence, jobs: int | None = 1) -> dict[str, float]:
    """``nlgeval.compute_metrics(hypothesis, references)``: a hypothesis file and reference
    files, one segment a line."""
    return NLGEval(jobs).compute_metrics([_read_lines(path) for path in references], _read_lines(hypothesis))


def compute_individual_metrics(ref, hyp: str, jobs: int | None = 1) -> dict[str, float]:
    """``nlgeval.compute_individual_metrics(ref, hyp)``: ``ref`` a list of references, or one
    string holding them separated by "||<|>||"."""
    if isinstance(ref, str):
        ref = ref.split(REFERENCE_DELIMITER)
    return NLGEval(jobs).compute_individual_metrics(ref, hyp)


__all__ = ["Meteor", "NLGEval", "WrapperInputError", "compute_individual_metrics", "compute_metrics"]
