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

__all__ = ["ALIGN_WITH_BUDGET", "Alignment", "Budget", "Match", "align"]


def align(hyp: list[str], ref: list[str], config: MeteorConfig, budget: Budget | None = None) -> Alignment:
    if config.uses_synonyms:
        resources.require_synonyms(config.synonym_source)  # fail loudly, before any work, when missing
    if config.aligner == "greedy":
        return align_greedy(hyp, ref, config)
    if config.aligner == "meteor-beam":
        return align_meteor_beam(hyp, ref, config, budget or Budget())
    return align_optimal(hyp, ref, config, budget or Budget())


# config.aligner -> its function(hyp, ref, config, budget), for a caller that passes the budget
# (None for the greedy aligner) and has checked that the synonyms the config needs are present:
# the scorer, which checks once a segment and calls the aligner without this module's Python
# frame (compiled code calling a compiled aligner directly).
ALIGN_WITH_BUDGET = {
    "optimal": align_optimal,
    "meteor-beam": align_meteor_beam,
    "greedy": lambda hyp, ref, config, budget: align_greedy(hyp, ref, config),
}
