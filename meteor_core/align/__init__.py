"""Word alignment: one module per aligner, one dispatch function.

* ``optimal``: the paper's aligner (exact search per stage, ``search``),
* ``greedy``: NLTK's greedy matching,
* ``beam``: Meteor 1.5's beam search.

Every aligner takes the normalised token lists (already lower-cased when the config says so)
and returns ``Alignment``: the matches sorted by hypothesis position, each with its stage and
``via``, the word, stem, WordNet synset or paraphrase pair that links the two tokens. Nothing
in this package imports from the scorer, the analyses or the CLI.
"""
from __future__ import annotations

from .. import resources
from ..config import MeteorConfig
from .beam import align_meteor_beam
from .greedy import align_greedy
from .optimal import align_optimal
from .search import Budget
from .types import Alignment, Match

__all__ = ["Alignment", "Budget", "Match", "align", "align_present"]


def align(hyp: list[str], ref: list[str], config: MeteorConfig, budget: Budget | None = None) -> Alignment:
    if config.uses_synonyms:
        resources.require_synonyms(config.synonym_source)  # fail loudly, before any work, when missing
    return align_present(hyp, ref, config, budget)


def align_present(hyp: list[str], ref: list[str], config: MeteorConfig, budget: Budget | None = None) -> Alignment:
    """align() for a caller that has checked the synonyms ``config`` needs are present (the
    scorer, once a segment): the check costs more than a short sentence's exact stage."""
    if config.aligner == "greedy":
        return align_greedy(hyp, ref, config)
    if config.aligner == "meteor-beam":
        return align_meteor_beam(hyp, ref, config, budget or Budget())
    return align_optimal(hyp, ref, config, budget or Budget())
