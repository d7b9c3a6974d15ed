"""The Meteor 1.5 jar's ``-stdio`` protocol, answered without Java.

pycocoevalcap, nlg-eval, GEM-metrics and SummEval start ``java -jar meteor-1.5.jar - - -stdio
-l en -norm`` and talk to it in lines. For each segment they write
``SCORE ||| reference 1 ||| ... ||| reference n ||| hypothesis`` and read back the segment's
statistics; then one ``EVAL ||| statistics 1 ||| ... ||| statistics n``, answered by every
segment's score and, last, the score of the summed statistics (the jar shipped with them does
this; its published source reads only the first statistics of an EVAL line).

Each wrapper builds its SCORE lines its own way (its module here says how). This module reads a
line as the jar's ``Meteor.scoreStdio`` does (split on "|||", trailing empty parts dropped as
Java's String.split drops them, every part trimmed as String.trim trims, the last part the
hypothesis, the others its references) and scores it with the jar's English defaults: the
best reference per segment (the first of equal scores), and the corpus score from summed
statistics in which a perfectly matching segment adds no chunk (MeteorStats.addStats).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from .. import jar_resources
from ..config import STAGES, MeteorConfig
from ..scorer import corpus_from_stats, score_segments
from ..stats import MeteorStats

# What Java's String.trim removes from both ends: every character up to the space.
_JAVA_TRIMMED = "".join(map(chr, range(0x21)))
# Where java.io.BufferedReader.readLine ends a line.
LINE_BREAKS = ("\n", "\r")


class WrapperInputError(ValueError, AssertionError):
    """Input the wrapped package refuses or cannot send to the jar intact. An AssertionError too,
    since pycocoevalcap and nlg-eval check their input with ``assert``: code that catches their
    failure catches this one."""


@lru_cache(maxsize=16)
def jar_config(name: str = "meteor15") -> MeteorConfig:
    """What ``-l en -norm`` runs: Meteor 1.5's English defaults with all four stages (exact,
    stem, synonym, paraphrase), its function words, synonyms and paraphrase table read from the
    user's jar. ``name`` labels the configuration (its signature says ``preset:<name>``)."""
    return MeteorConfig.meteor15(stages=STAGES, paraphrase_table="jar", name=name)


def require_jar() -> None:
    """Fail now, with the fix in the message, when the jar or its paraphrase table is missing
    (the wrappers fail when they start Java, before any segment)."""
    jar_resources.require_jar()
    jar_resources.paraphrase_path()


def java_trim(text: str) -> str:
    return text.strip(_JAVA_TRIMMED)


def score_line(hypothesis: str, references: Sequence[str], where: str) -> str:
    """The SCORE line pycocoevalcap, nlg-eval and GEM-metrics write (``Meteor._stat``): "|||"
    removed from the hypothesis and its double spaces halved; the references as given."""
    hypothesis = check_text(hypothesis, f"{where}: the hypothesis")
    references = check_references(references, where)
    hypothesis = hypothesis.replace("|||", "").replace("  ", " ")
    return " ||| ".join(("SCORE", " ||| ".join(references), hypothesis))


def check_text(text, what: str) -> str:
    if not isinstance(text, str):
        raise WrapperInputError(f"{what} must be a string, not {type(text).__name__}")
    return text


def check_references(references, where: str) -> list[str]:
    """A segment's references: a list (or tuple) of strings. A bare string is refused: the
    wrappers would join its characters as so many one-letter references."""
    if isinstance(references, str) or not isinstance(references, (list, tuple)):
        raise WrapperInputError(f"{where}: the references must be a list of strings, "
                                f"not {type(references).__name__}")
    return [check_text(ref, f"{where}: reference {k + 1}") for k, ref in enumerate(references)]


def line_parts(line: str, where: str) -> tuple[str, list[str]]:
    """(hypothesis, references) of a SCORE line, as the jar reads it."""
    if any(brk in line for brk in LINE_BREAKS):
        # The jar would read two lines and answer each: every answer after it would be taken for
        # the next segment's, and the EVAL line would carry an error message (the jar then stops).
        raise WrapperInputError(f"{where}: a text contains a line break, which the jar reads as the end "
                                "of the line: the wrapper would mix up the segments' scores or fail. "
                                "Replace line breaks with spaces")
    parts = line.split("|||")
    while parts and parts[-1] == "":
        parts.pop()
    if len(parts) < 3:  # the jar: "Error: specify hypothesis and at least one reference"
        raise WrapperInputError(f"{where}: no hypothesis or no reference in the line sent to the jar")
    return java_trim(parts[-1]), [java_trim(part) for part in parts[1:-1]]


def answer(lines: Sequence[tuple[str, str]], config: MeteorConfig, jobs: int | None = 1) -> tuple[float, list[float]]:
    """What the jar answers to these SCORE lines and the EVAL line of their statistics:
    (the score of the summed statistics, [every segment's score]). ``lines`` holds
    (where, line) pairs, ``where`` naming the segment in error messages."""
    parsed = [line_parts(line, where) for where, line in lines]
    return pooled([hyp for hyp, _ in parsed], [refs for _, refs in parsed], config, jobs)


def pooled(hypotheses: Sequence[str], references: Sequence[Sequence[str]], config: MeteorConfig,
           jobs: int | None = 1) -> tuple[float, list[float]]:
    """The jar's numbers for these segments: (the score of the summed statistics, [every
    segment's score against its best reference])."""
    if not hypotheses:  # the jar answers an EVAL line without statistics with an error message
        raise WrapperInputError("no segments to score")
    results = list(score_segments(hypotheses, references, config, jobs=jobs))
    total = sum((result.stats for result in results), MeteorStats())
    return corpus_from_stats(total, config).score, [result.score for result in results]
