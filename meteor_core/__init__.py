"""METEOR (Banerjee & Lavie, 2005) scoring core: exact, explainable, Streamlit-free.

    >>> from meteor_core import score, MeteorConfig
    >>> r = score("the cat sat on the mat", ["the cat sat on the mat"], MeteorConfig.meteor2005())
    >>> round(r.score, 4), r.chunks
    (0.9977, 1)
"""
from . import _accel

_accel.install()  # before any module that may be compiled: stale or unwanted ones run from .py

from .version import __version__  # noqa: E402
from .align import Alignment, Match  # noqa: E402
from .config import MeteorConfig  # noqa: E402
from .jar_resources import JarMissingError, jar_available  # noqa: E402
from .resources import WordNetMissingError, wordnet_available  # noqa: E402
from .scorer import (  # noqa: E402
    ChunkSpan,
    CorpusResult,
    PairResult,
    SegmentResult,
    corpus_from_segments,
    score,
    score_corpus,
    score_segments,
)
from .stats import MeteorStats  # noqa: E402
from .metric import METEOR, MeteorScore  # noqa: E402
from .analysis.difference import explain_corpus_difference, explain_difference  # noqa: E402

__all__ = [
    "Alignment", "ChunkSpan", "CorpusResult", "JarMissingError", "Match", "METEOR", "MeteorConfig", "MeteorScore", "MeteorStats",
    "PairResult", "SegmentResult", "WordNetMissingError", "corpus_from_segments",
    "explain_corpus_difference", "explain_difference", "jar_available", "score", "score_corpus",
    "score_segments", "wordnet_available",
]
