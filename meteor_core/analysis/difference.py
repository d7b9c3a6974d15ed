"""Why two METEOR configurations disagree: walk from A to B one factor at a time.

Each step sets one factor's fields to B's values and rescores, so the steps add up exactly to
score(B) − score(A) (the last configuration *is* B). The attribution depends on the order,
which is a parameter; DEFAULT_ORDER goes from how the text is read to how it is scored.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Sequence

from ..config import MeteorConfig
from ..explain import number, rounds_to_zero
from ..scorer import score, score_corpus

# factor -> the MeteorConfig fields it covers (every field but ``name``, so the walk ends at B)
FACTORS: dict[str, tuple[str, ...]] = {
    "language": ("language",),
    "unicode form": ("normalize",),
    "tokenisation": ("tokenizer", "lowercase"),
    "stemmer": ("stemmer",),
    "synonym resource": ("synonym_lookup", "synonym_source"),
    "stages": ("stages", "paraphrase_table"),
    "alignment search": ("aligner",),
    "scoring formula": ("scoring", "task", "char_based"),
    "module weights": ("module_weights",),
    "delta": ("delta", "function_words"),
    "alpha": ("alpha",),
    "beta": ("beta",),
    "gamma": ("gamma",),
}
DEFAULT_ORDER: tuple[str, ...] = tuple(FACTORS)


@dataclass(frozen=True)
class Step:
    factor: str
    change: str  # e.g. "beta 3 → 0.2"
    score: float  # after this step
    delta: float  # this step's share of the difference
    terms: dict  # precision, recall, fmean, penalty, matches, chunks, score after the step
    config: MeteorConfig

    def to_dict(self) -> dict:
        return {"factor": self.factor, "change": self.change, "score": self.score, "delta": self.delta,
                "terms": self.terms, "config": self.config.to_dict()}


@dataclass(frozen=True)
class Difference:
    config_a: MeteorConfig
    config_b: MeteorConfig
    score_a: float
    score_b: float
    terms_a: dict
    terms_b: dict
    order: tuple[str, ...]
    steps: list[Step]
    result_a: object = None  # the SegmentResult (or CorpusResult) under A and under B
    result_b: object = None

    @property
    def total(self) -> float:
        return self.score_b - self.score_a

    def summary(self) -> str:
        return summarise(self)

    def to_dict(self) -> dict:
        return {"a": self.config_a.to_dict(), "b": self.config_b.to_dict(), "score_a": self.score_a,
                "score_b": self.score_b, "difference": self.total, "order": list(self.order),
                "steps": [s.to_dict() for s in self.steps], "summary": self.summary()}


def _show(value) -> str:
    if isinstance(value, tuple):
        return "+".join(map(str, value)) if all(isinstance(v, str) for v in value) else ", ".join(f"{v:g}" for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _terms(result) -> dict:
    return {"precision": result.precision, "recall": result.recall, "fmean": result.fmean,
            "penalty": result.penalty, "matches": result.matches, "chunks": result.chunks, "score": result.score}


def _walk(config_a: MeteorConfig, config_b: MeteorConfig, order: Sequence[str] | None, evaluate) -> Difference:
    order = tuple(order or DEFAULT_ORDER)
    unknown = set(order) - set(FACTORS)
    if unknown or len(set(order)) != len(order):
        raise ValueError(f"order must list factors from {list(FACTORS)} once each")
    order += tuple(f for f in DEFAULT_ORDER if f not in order)  # unlisted factors go last
    first = evaluate(config_a)
    terms_a = _terms(first)
    previous, current, steps = first.score, config_a, []
    pending: list[str] = []  # factors whose change alone is no valid configuration (taken with the next)
    for factor in order:
        fields = FACTORS[factor]
        if all(getattr(current, f) == getattr(config_b, f) for f in fields):
            continue
        pending.append(factor)
        changed = [f for name in pending for f in FACTORS[name] if getattr(current, f) != getattr(config_b, f)]
        try:  # e.g. German with the Porter stemmer, a paraphrase stage without the beam: not a METEOR
            nxt = replace(current, **{f: getattr(config_b, f) for f in changed})
        except ValueError:
            continue
        change = "; ".join(f"{f} {_show(getattr(current, f))} → {_show(getattr(config_b, f))}" for f in changed)
        current = nxt
        result = evaluate(current)
        steps.append(Step(" + ".join(pending), change, result.score, result.score - previous, _terms(result), current))
        previous, pending = result.score, []
    last = evaluate(config_b) if steps else first
    return Difference(config_a, config_b, first.score, last.score, terms_a, _terms(last), order, steps, first, last)


def explain_difference(hypothesis: str, references: Sequence[str], config_a: MeteorConfig,
                       config_b: MeteorConfig, order: Sequence[str] | None = None) -> Difference:
    """The score of one segment under A and B, and each factor's share of the difference."""
    return _walk(config_a, config_b, order, lambda c: score(hypothesis, list(references), c))


def explain_corpus_difference(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                              config_a: MeteorConfig, config_b: MeteorConfig,
                              order: Sequence[str] | None = None,
                              progress: Callable[[int, int], None] | None = None, jobs: int | None = 1) -> Difference:
    """The same walk for a corpus score (rescoring the whole corpus at every step, in ``jobs``
    processes as in ``score_corpus``). ``progress`` is handed to every rescoring
    (``score_corpus``'s; it may raise to stop the walk)."""
    return _walk(config_a, config_b, order,
                 lambda c: score_corpus(hypotheses, references, c, progress=progress, jobs=jobs))


WHY = {
    "language": "the language sets the stemmer, the function words and the tokeniser's rules",
    "unicode form": "one composes decomposed accents (Unicode NFC) before reading the text, the other does not",
    "tokenisation": "the two read the text into different tokens",
    "stemmer": "the stemmers conflate different word forms",
    "synonym resource": "synonyms are looked up differently (words vs NLTK's Porter stems, WordNet vs the jar's files)",
    "stages": "different matching stages are switched on",
    "alignment search": "the aligners pick different word pairs",
    "scoring formula": "Meteor 1.x weighs matches by module and content/function words",
    "module weights": "stem and synonym matches count for less than exact ones",
    "delta": "content words weigh δ and function words 1 − δ",
    "alpha": "precision and recall are balanced differently in Fmean",
    "beta": "the penalty's exponent changes how fast fragmentation is punished",
    "gamma": "the penalty's maximum changes",
}


def _why(step_factor: str) -> str:
    """Why a step's factor matters (a step that had to take several factors at once names each)."""
    return "; ".join(WHY[f] for f in step_factor.split(" + "))


def summarise(d: Difference) -> str:
    """Plain-language account of the waterfall, biggest factor first. Every number is a step's
    share as the tables show it (4 decimals); a share that shows as zero is never said to make the
    gap, and "most of the gap" is said only of a step that moves the score the way the whole gap
    goes and makes at least half of it."""
    head = (f"{d.config_b.name} scores {number(d.score_b)} and {d.config_a.name} {number(d.score_a)} "
            f"(difference {number(d.total, signed=True)}).")
    if not d.steps:
        return f"The two configurations score the same way: {number(d.score_a)}."
    ranked = sorted(d.steps, key=lambda s: -abs(s.delta))
    # "No visible difference" only for what shows as zero at the 4 decimals every table uses.
    visible = [s for s in ranked if not rounds_to_zero(s.delta)]
    silent = [s.factor for s in ranked if rounds_to_zero(s.delta)]
    words = [head]
    if not visible:
        words.append(f"No factor changes the score visibly here: {', '.join(silent)} "
                     f"{'each make' if len(silent) > 1 else 'makes'} less than 0.00005 of a difference.")
        return " ".join(words)
    top = visible[0]
    same_way = all(s.delta * d.total >= 0 for s in visible)
    lead = ("most of the gap" if same_way and not rounds_to_zero(d.total) and abs(top.delta) >= 0.5 * abs(d.total)
            else "the largest step")
    words.append(f"Going from {d.config_a.name} to {d.config_b.name}, {lead} ({number(top.delta, signed=True)}) "
                 f"comes from {top.factor}: {_why(top.factor)} ({top.change}).")
    if visible[1:]:
        words.append("Then " + ", ".join(f"{s.factor} {number(s.delta, signed=True)}" for s in visible[1:]) + ".")
    if silent:
        words.append(f"Changing {', '.join(silent)} makes no visible difference here.")
    words.append(f"Factors taken in this order: {', '.join(s.factor for s in d.steps)}; "
                 "another order can share the gap differently.")
    return " ".join(words)
