"""METEOR where users already compute it, without Java.

Drop-ins for the wrappers that run the Meteor 1.5 jar (same call, same numbers):

    from meteor_core.compat.pycocoevalcap import Meteor   # pycocoevalcap / coco-caption
    from meteor_core.compat.nlgeval import Meteor         # nlg-eval (and its compute_metrics)
    from meteor_core.compat.gem import PyMeteorWrapper    # GEM-metrics
    from meteor_core.compat.summeval import MeteorMetric  # SummEval

Other call shapes:

    from meteor_core.compat.evaluate import load          # HF evaluate's meteor.compute(...)
    from meteor_core.compat import meteor_score           # a function for training loops

``known`` names every common METEOR (pycocoevalcap, NLTK, HF evaluate, ...) with the
configuration and the aggregation that reproduce it; ``explain`` and the difference page take
those names. docs/which-meteor.md tells them apart.
"""
from .functional import meteor_score

__all__ = ["meteor_score"]
