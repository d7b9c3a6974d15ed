"""BLEU, chrF and TER beside METEOR, computed by sacrebleu with its own defaults and signatures.

Scores stay on sacrebleu's scale (0-100; TER is an edit rate, lower is better:
``HIGHER_IS_BETTER`` says which way each goes, so callers that need "higher is better
everywhere" flip TER themselves). References come per segment, as everywhere in meteor_core
(``refs[k]`` = segment k's references); sacrebleu wants reference *streams* of equal length, so a
segment with fewer references is padded with its own first reference, which changes none of the
three scores (BLEU clips against the maximum count over references and takes the closest length,
chrF and TER take the best reference).

Every score is a function of additive per-segment statistics (n-gram counts, character n-gram
counts, edits and reference length), which ``segment_statistics`` returns: summed over any set of
segments (a system, a bootstrap sample) they give that set's corpus score through
``scores_from_statistics``, and one segment's row gives its sentence score, so one pass over the
text serves both levels. These two use sacrebleu's own statistics methods, as its
``significance`` module does, except that TER's edits are counted by ``ter`` (sacrebleu's
algorithm, about 20 times as fast compiled, the same numbers: its tests hold it to sacrebleu's).
"""
from __future__ import annotations

import sys
from functools import lru_cache
from typing import Callable, Sequence

import numpy as np

from . import ter

METRICS = ("bleu", "chrf", "ter")
HIGHER_IS_BETTER = {"bleu": True, "chrf": True, "ter": False}


@lru_cache(maxsize=None)
def _metric(name: str, sentence: bool):
    from sacrebleu.metrics import BLEU, CHRF, TER  # imported on first use: the scorer never needs it

    if name == "bleu":
        # Sentence BLEU with effective order, as sacrebleu recommends (no zero for a missing 4-gram).
        return BLEU(effective_order=True) if sentence else BLEU()
    if name == "chrf":
        return CHRF()
    if name == "ter":
        return TER()
    raise ValueError(f"unknown metric {name!r}; choose from {', '.join(METRICS)}")


def forget_tokenized_lines() -> None:
    """Empty sacrebleu's tokenizer memos. Each tokenizer class memoises up to 65,536 lines
    process-wide (``functools.lru_cache`` on ``__call__``): in the app's server that kept the
    last visitors' texts alive after their sessions had ended (16 MiB of strings after 8 sessions
    of 2,445 rows). A computation here gains from them only within itself (a reference line
    tokenised again for another hypothesis), so they are emptied when it ends."""
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith("sacrebleu.tokenizers.") or module is None:
            continue
        for value in list(vars(module).values()):
            clear = getattr(getattr(value, "__call__", None), "cache_clear", None) if isinstance(value, type) else None
            if clear is not None:
                clear()


def _streams(refs: Sequence[Sequence[str]]) -> list[list[str]]:
    if any(not r for r in refs):
        raise ValueError("every segment needs at least one reference")
    width = max(len(r) for r in refs)
    return [[r[k] if k < len(r) else r[0] for r in refs] for k in range(width)]


def corpus_score(name: str, hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> float:
    """sacrebleu's corpus score of ``hyps`` against per-segment ``refs``."""
    if len(hyps) != len(refs):
        raise ValueError(f"{len(hyps)} hypotheses but {len(refs)} reference sets")
    try:
        return float(_metric(name, False).corpus_score(list(hyps), _streams(refs)).score)
    finally:
        forget_tokenized_lines()


def sentence_scores(name: str, hyps: Sequence[str], refs: Sequence[Sequence[str]],
                    check: Callable[[], None] | None = None) -> list[float]:
    """sacrebleu's sentence score of each segment. ``check``, if given, is called every 50
    segments and may raise to stop (a caller's time budget)."""
    if len(hyps) != len(refs):
        raise ValueError(f"{len(hyps)} hypotheses but {len(refs)} reference sets")
    metric = _metric(name, True)
    scores = []
    try:
        for k, (h, r) in enumerate(zip(hyps, refs)):
            if check is not None and k % 50 == 0:
                check()
            scores.append(float(metric.sentence_score(h, list(r)).score))
    finally:
        forget_tokenized_lines()
    return scores


def signature(name: str, sentence: bool = False) -> str:
    """sacrebleu's signature of the metric as used here, e.g. ``bleu|nrefs:1|case:mixed|...``."""
    return f"{name}|{_metric(name, sentence).get_signature()}"


NAMES = {"bleu": "BLEU", "chrf": "chrF", "ter": "TER"}  # how tables head each metric's column


def parse_metrics(text: str) -> tuple[str, ...]:
    """"bleu,chrf" or "all" -> ("bleu", "chrf"); an unknown name is a ValueError naming the choices."""
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if names == ["all"]:
        return METRICS
    unknown = [n for n in names if n not in METRICS]
    if unknown or not names:
        named = ", ".join(unknown) if unknown else repr(text)
        raise ValueError(f"unknown metric(s) {named}; choose from {', '.join(METRICS)} or all")
    return tuple(dict.fromkeys(names))


def score_systems(systems, refs: Sequence[Sequence[str]], metrics: Sequence[str],
                  check: Callable[[], None] | None = None):
    """Every system under every metric: ({system: {metric: corpus score}},
    {system: {metric: [sentence scores]}}, {label: signature}); the labels are the metrics' names,
    plus "<name> sentence" where the sentence-level signature differs (BLEU's effective order).
    One pass over the text a system and metric (``segment_statistics``) gives both levels: a
    segment's row its sentence score, the rows' sum the corpus score (the same numbers as
    ``sentence_scores`` and ``corpus_score``, in half the time). A pair of hypothesis and
    references is counted once however often it occurs (segments that two systems translate
    alike, repeated lines): a segment's statistics depend on its own texts only. ``check`` is
    called between blocks of segments and may raise to stop (a caller's time budget)."""
    progress = (lambda _done, _total: check()) if check is not None else None
    if any(len(hyps) != len(refs) for hyps in systems.values()):
        raise ValueError(f"every system needs one hypothesis for each of the {len(refs)} reference sets")
    distinct: dict[tuple, int] = {}  # (hypothesis, references) -> its row in the statistics
    rows_of = {name: np.array([distinct.setdefault((h, tuple(r)), len(distinct)) for h, r in zip(hyps, refs)],
                              dtype=np.intp) for name, hyps in systems.items()}
    distinct_hyps, distinct_refs = [h for h, _ in distinct], [list(r) for _, r in distinct]
    sentence = {name: {} for name in systems}
    corpus = {name: {} for name in systems}
    for m in metrics:
        if check is not None:
            check()
        rows = segment_statistics(m, distinct_hyps, distinct_refs, progress)
        scores = scores_from_statistics(m, rows, sentence=True)
        width = rows.shape[1] if rows.ndim == 2 else 0
        for name, at in rows_of.items():
            sentence[name][m] = [float(x) for x in scores[at]]
            corpus[name][m] = float(scores_from_statistics(m, rows[at].reshape(len(at), width).sum(axis=0)))
    signatures = {}
    for m in metrics:
        signatures[NAMES[m]] = signature(m)
        if signature(m, sentence=True) != signature(m):
            signatures[f"{NAMES[m]} sentence"] = signature(m, sentence=True)
    return corpus, sentence, signatures


def segment_statistics(name: str, hyps: Sequence[str], refs: Sequence[Sequence[str]],
                       progress: Callable[[int, int], None] | None = None, block: int = 250) -> np.ndarray:
    """The corpus metric's sufficient statistics, one row per segment: their sum over all
    segments gives ``corpus_score`` (``scores_from_statistics(name, rows.sum(0))``).
    ``progress(done, total)`` is called after every ``block`` segments (TER takes ~4 ms each)."""
    if len(hyps) != len(refs):
        raise ValueError(f"{len(hyps)} hypotheses but {len(refs)} reference sets")
    metric = _metric(name, False)
    rows = []
    try:
        for start in range(0, len(hyps), block):
            stop = min(start + block, len(hyps))
            streams = _streams(refs[start:stop])
            if name == "ter":  # sacrebleu's preprocessing, the edits counted by ter (the same numbers, faster)
                words = metric._preprocess_segment
                rows.extend(ter.segment_statistics(words(h).split(), [words(s[k]).split() for s in streams])
                            for k, h in enumerate(hyps[start:stop]))
            else:
                rows.extend(metric._extract_corpus_statistics(list(hyps[start:stop]), streams))
            if progress:
                progress(stop, len(hyps))
    finally:
        forget_tokenized_lines()
    # What sacrebleu's signatures report as nrefs (its own pass records it on the metric; the
    # sentence-level object and TER's edits counted here never make that pass): the padded
    # streams give every segment the same number.
    _metric(name, False).num_refs = _metric(name, True).num_refs = max((len(r) for r in refs), default=0)
    width = len(rows[0]) if rows else 0
    return np.array(rows, dtype=np.float64).reshape(len(rows), width)


def scores_from_statistics(name: str, stats: np.ndarray, sentence: bool = False) -> np.ndarray:
    """The score of each row of (summed) statistics; ``sentence=True`` scores a segment's row as
    ``sentence_scores`` does (BLEU with effective order)."""
    metric = _metric(name, sentence)
    rows = np.asarray(stats, dtype=np.float64)
    flat = rows.reshape(-1, rows.shape[-1])
    if name != "ter":  # n-gram counts: sacrebleu's integer arithmetic (sums of floats are exact here)
        flat = flat.astype(np.int64)
    out = np.array([metric._compute_score_from_stats(list(row)).score for row in flat], dtype=np.float64)
    return out.reshape(rows.shape[:-1])
