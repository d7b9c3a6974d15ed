"""Segment and corpus scoring: tokens -> alignment -> chunks -> statistics -> score."""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, fields
from functools import cached_property, partial
from itertools import chain
from operator import attrgetter
from typing import Iterable, Iterator, NamedTuple, Sequence

from . import _accel, jar_resources, parallel, resources
from .align import ALIGN_WITH_BUDGET, Alignment, Match
from .align.beam import forget_sentences
from .align.search import Budget, inversions
from .config import STAGES, MeteorConfig
from .stats import MeteorStats, Scores, compute, stats_2005
from .tokenize import LANGUAGE_TOKENIZERS, forget_normalised_lines, tokenize

# A segment's alignment search is bounded by work (align.search.Budget, all stages and references
# together), the same on every machine; a cut result says optimal=False and why (stopped_by).
# Longer segments are refused: candidate generation is O(n·m) even when the search is bounded
# (5,000 tokens a side take ~1.5 s; a 20 MiB one-line file would not finish).
MAX_SEGMENT_TOKENS = 5_000


_MATCH_FIELDS = len(Match._fields)


class SegmentTooLong(ValueError):
    """A sentence over MAX_SEGMENT_TOKENS tokens."""


class ChunkSpan(NamedTuple):
    """A chunk: hypothesis tokens [hyp_start, hyp_end) aligned in order to [ref_start, ref_end)."""

    hyp_start: int
    hyp_end: int
    ref_start: int
    ref_end: int

    @property
    def size(self) -> int:
        """Candidate words in the chunk (= matches, unless a paraphrase spans several words)."""
        return self.hyp_end - self.hyp_start

    def to_dict(self) -> dict:
        return {"hyp_start": self.hyp_start, "hyp_end": self.hyp_end,
                "ref_start": self.ref_start, "ref_end": self.ref_end}


def chunk_spans(matches: Sequence[Match]) -> list[ChunkSpan]:
    """Fewest chunks: maximal runs adjacent and in the same order on both sides."""
    spans: list[ChunkSpan] = []
    start_i = start_j = end_i = end_j = -1
    for i, j, _, _, hyp_length, ref_length in sorted(matches):  # Match tuples sort by hyp position
        if i != end_i or j != end_j:
            if start_i >= 0:
                spans.append(ChunkSpan(start_i, end_i, start_j, end_j))
            start_i, start_j = i, j
        end_i, end_j = i + hyp_length, j + ref_length
    if start_i >= 0:
        spans.append(ChunkSpan(start_i, end_i, start_j, end_j))
    return spans


# _word_counts and _chunks_and_crossings on C arrays (_pair_stats.pyx), when built and up to date
_C_STATS = _accel.twin("meteor_core._pair_stats")


def _chunks_and_crossings(matches: Sequence[tuple]) -> tuple[int, int]:
    """How many chunks (as chunk_spans finds them) and how many crossings, for matches in
    candidate order. Matches of one chunk never cross, and two chunks cover disjoint ranges of
    the reference, so either every match of one crosses every match of the other or none
    does: crossings come from the chunks."""
    if _C_STATS is not None:
        found = _C_STATS.chunks_and_crossings(matches)
        if found is not None:  # (None: too many chunks for its quadratic count)
            return found
    starts: list[int] = []  # each chunk's first reference position
    sizes: list[int] = []  # and its number of matches (a paraphrase match covers several words)
    end_i = end_j = -1
    for i, j, _, _, hyp_length, ref_length in matches:  # in candidate order (see Alignment)
        if i != end_i or j != end_j:
            starts.append(j)
            sizes.append(1)
        else:
            sizes[-1] += 1
        end_i, end_j = i + hyp_length, j + ref_length
    return len(starts), inversions(starts, sizes)


@dataclass
class PairResult:
    """One hypothesis scored against one reference, with everything that explains the score."""

    score: float
    precision: float
    recall: float
    fmean: float
    fragmentation: float
    penalty: float
    chunks: int
    matches: int
    hyp_tokens: tuple[str, ...]
    ref_tokens: tuple[str, ...]
    # Every match's six Match fields, one match after another, in candidate order. Scoring a
    # corpus keeps one flat tuple per segment: the garbage collector counts one object, not
    # one per match, and soon stops tracking it (it holds no containers).
    packed_alignment: tuple
    crossings: int
    optimal: bool
    # Why the search ended before proving its alignment: None (it did not, or there was no search:
    # the greedy aligner), "work" (the segment's work budget, or a cap on memory that stands for
    # it), "time" (the last-resort safety clock).
    stopped_by: str | None
    stats: MeteorStats

    @cached_property
    def alignment(self) -> list[Match]:
        """The matches, in candidate order (unpacked when first asked for)."""
        packed = self.packed_alignment
        return [Match._make(packed[k:k + _MATCH_FIELDS]) for k in range(0, len(packed), _MATCH_FIELDS)]

    @cached_property
    def chunk_spans(self) -> list[ChunkSpan]:
        """The chunks, found from the alignment when first asked for (scoring only needs their number)."""
        return chunk_spans(self.alignment)

    def token_matches(self) -> tuple[dict[int, Match], dict[int, Match]]:
        """Position -> its match, for the candidate and for the reference (a paraphrase match
        covers every word of its phrase)."""
        return ({i: m for m in self.alignment for i in m.hyp_positions},
                {j: m for m in self.alignment for j in m.ref_positions})

    def token_chunks(self) -> tuple[dict[int, int], dict[int, int]]:
        """Position -> index (from 0) of the chunk it belongs to, for both sentences."""
        hyp, ref = {}, {}
        for k, span in enumerate(self.chunk_spans):
            hyp.update(dict.fromkeys(range(span.hyp_start, span.hyp_end), k))
            ref.update(dict.fromkeys(range(span.ref_start, span.ref_end), k))
        return hyp, ref

    @property
    def matches_by_stage(self) -> dict[str, int]:
        # Read from the packed fields (every match's stage, the third of its six): the CLI asks
        # it of every segment, and making the Match objects cost more than the count.
        stages = self.packed_alignment[2::_MATCH_FIELDS]
        counts = {"exact": 0, "stem": 0, "synonym": 0}
        if "paraphrase" in stages:
            counts["paraphrase"] = 0
        for stage in stages:
            counts[stage] += 1
        return counts

    def __reduce__(self):
        # Worker processes pickle every result back to the parent, which shares the cores with
        # them. As its fields' values (not its __dict__: no key names, nor the alignment and
        # chunk_spans cached once asked for), a sentence's tokens as one string and the
        # statistics as a plain tuple, a TED result pickles in 2.9 µs instead of 4.1 and
        # unpickles in 3.9 instead of 4.6 (459 bytes instead of 569).
        field_values = _FIELD_VALUES.get(type(self))
        if field_values is None:  # a subclass (its own fields, perhaps): its whole state
            return _restored, (type(self), dict(self.__dict__))
        values = list(field_values(self))
        values[_HYP_TOKENS] = _joined(self.hyp_tokens)
        values[_REF_TOKENS] = _joined(self.ref_tokens)
        values[_STATS] = tuple(self.stats)
        return _unpickled, (type(self), values)

    def to_dict(self) -> dict:
        return {
            "score": self.score, "precision": self.precision, "recall": self.recall,
            "fmean": self.fmean, "fragmentation": self.fragmentation, "penalty": self.penalty,
            "chunks": self.chunks, "matches": self.matches,
            "matches_by_stage": self.matches_by_stage,
            "hyp_tokens": list(self.hyp_tokens), "ref_tokens": list(self.ref_tokens),
            "alignment": [m.to_dict() for m in self.alignment],
            "chunk_spans": [c.to_dict() for c in self.chunk_spans],
            "crossings": self.crossings, "optimal": self.optimal, "stopped_by": self.stopped_by,
            "stats": self.stats.to_dict(),
        }


@dataclass
class SegmentResult(PairResult):
    """The best reference's result, plus every reference's and which one won."""

    best_reference: int = 0
    # Every reference's result when there are several; None for one reference, whose result
    # is this one (per_reference then makes it when asked: most segments have one reference).
    other_results: list[PairResult] | None = None
    signature: str = ""

    @cached_property
    def per_reference(self) -> list[PairResult]:
        """A result per reference, in the order given."""
        if self.other_results is not None:
            return self.other_results
        return [PairResult(*[getattr(self, f.name) for f in _PAIR_FIELDS])]

    def to_dict(self) -> dict:
        d = super().to_dict()
        d["best_reference"] = self.best_reference
        d["per_reference"] = [r.to_dict() for r in self.per_reference]
        d["signature"] = self.signature
        return d


_PAIR_FIELDS = fields(PairResult)
_FIELD_VALUES = {cls: attrgetter(*[f.name for f in fields(cls)]) for cls in (PairResult, SegmentResult)}
_HYP_TOKENS, _REF_TOKENS, _STATS = ([f.name for f in _PAIR_FIELDS].index(name)
                                    for name in ("hyp_tokens", "ref_tokens", "stats"))


def _joined(tokens: tuple[str, ...]) -> str | tuple[str, ...]:
    """The tokens as one string, separated by spaces, when it splits back into the same tokens
    (none holds a space, and there is at least one); else the tuple itself."""
    joined = " ".join(tokens)
    return joined if tokens and joined.count(" ") == len(tokens) - 1 else tokens


def _restored(cls: type, state: dict):
    """An instance of a subclass of PairResult from its pickled __dict__."""
    result = cls.__new__(cls)
    result.__dict__.update(state)
    return result


def _unpickled(cls: type, values: list):
    """A PairResult or SegmentResult from what its __reduce__ gave."""
    for k in (_HYP_TOKENS, _REF_TOKENS):
        if type(values[k]) is str:
            values[k] = tuple(values[k].split(" "))
    values[_STATS] = MeteorStats._make(values[_STATS])
    return cls(*values)


@dataclass
class CorpusResult:
    score: float
    precision: float
    recall: float
    fmean: float
    fragmentation: float
    penalty: float
    chunks: int
    matches: int
    stats: MeteorStats
    segments: list[SegmentResult]
    signature: str

    def to_dict(self, with_segments: bool = False) -> dict:
        d = {
            "score": self.score, "precision": self.precision, "recall": self.recall,
            "fmean": self.fmean, "fragmentation": self.fragmentation, "penalty": self.penalty,
            "chunks": self.chunks, "matches": self.matches, "stats": self.stats.to_dict(),
            "segments": len(self.segments), "signature": self.signature,
        }
        if with_segments:
            d["segment_results"] = [s.to_dict() for s in self.segments]
        return d


def _prepare(text: str, config: MeteorConfig) -> tuple[tuple[str, ...], list[str]]:
    """Display tokens (as typed) and the forms compared (case-folded if asked). The display
    tokens are a tuple: results keep them, and the garbage collector soon stops tracking a
    tuple of strings (a list would be walked by every collection for as long as it lives)."""
    if config.normalize != "none":  # (meteor2005: decomposed accents would split words)
        text = unicodedata.normalize(config.normalize, text)
    tokens = tokenize(text, config.tokenizer, config.language)
    if len(tokens) > MAX_SEGMENT_TOKENS:
        raise SegmentTooLong(f"a sentence has {len(tokens):,} tokens; the limit is {MAX_SEGMENT_TOKENS:,}")
    return tuple(tokens), (list(map(_lowercase, tokens)) if config.lowercase else tokens)


_lowercase = resources.WordMemo(str.lower).__getitem__  # a dict hit is cheaper than str.lower
_STAGE_INDEX = {stage: k for k, stage in enumerate(STAGES)}
_new_stats = tuple.__new__


def pair_stats(matches, hyp, ref, chunks: int, config: MeteorConfig) -> MeteorStats:
    """The sufficient statistics of an alignment of the normalised tokens ``hyp``, ``ref``; for
    Meteor 1.x also the function words per side and the matched words per stage and kind."""
    if config.scoring != "meteor1x":
        return stats_2005(len(matches), len(hyp), len(ref), chunks)
    fw = resources.function_words(config.function_words, config.language)
    counted = None if _C_STATS is None else _C_STATS.word_counts(matches, hyp, ref, fw, _STAGE_INDEX, len(STAGES))
    hc, hf, rc, rf, hyp_function, ref_function = counted or _word_counts(matches, hyp, ref, fw)
    if config.char_based:
        return _char_stats(matches, hyp, ref, chunks, fw, sum(hc) + sum(hf), sum(rc) + sum(rf))
    # (tuple.__new__: a NamedTuple's own __new__ with keywords is Python code, several times slower)
    return _new_stats(MeteorStats, (len(matches), len(hyp), len(ref), chunks, hyp_function, ref_function,
                                    hc, hf, rc, rf, 0, 0))


def _word_counts(matches, hyp, ref, fw) -> tuple:
    """Meteor 1.x's word counts: the matched words per stage, content and function, for the
    candidate and the reference (four tuples), and each side's number of function words."""
    hc, hf, rc, rf = [0] * len(STAGES), [0] * len(STAGES), [0] * len(STAGES), [0] * len(STAGES)
    for i, j, stage, _, hyp_length, ref_length in matches:
        s = _STAGE_INDEX[stage]
        if hyp_length == 1 and ref_length == 1:  # one word each side (all but paraphrases)
            (hf if hyp[i] in fw else hc)[s] += 1
            (rf if ref[j] in fw else rc)[s] += 1
            continue
        for word in hyp[i:i + hyp_length]:  # a paraphrase's phrase
            (hf if word in fw else hc)[s] += 1
        for word in ref[j:j + ref_length]:
            (rf if word in fw else rc)[s] += 1
    return (tuple(hc), tuple(hf), tuple(rc), tuple(rf),
            sum(map(fw.__contains__, hyp)), sum(map(fw.__contains__, ref)))


def _java_length(word: str) -> int:
    """Java's String.length(): UTF-16 code units (a character outside the BMP counts 2)."""
    return len(word) + sum(ord(c) > 0xFFFF for c in word) if not word.isascii() else len(word)


def _char_stats(matches, hyp, ref, chunks: int, fw, hyp_words: int, ref_words: int) -> MeteorStats:
    """Meteor 1.5's character-based statistics (the util task, MeteorScorer.getMeteorStats with
    charBased): lengths, function words and matches counted in characters, the number of matched
    words kept for the fragmentation."""
    hc, hf, rc, rf = [0] * len(STAGES), [0] * len(STAGES), [0] * len(STAGES), [0] * len(STAGES)
    for i, j, stage, _, hyp_length, ref_length in matches:
        s = _STAGE_INDEX[stage]
        for word in hyp[i:i + hyp_length]:
            (hf if word in fw else hc)[s] += _java_length(word)
        for word in ref[j:j + ref_length]:
            (rf if word in fw else rc)[s] += _java_length(word)
    return MeteorStats(
        len(matches), sum(map(_java_length, hyp)), sum(map(_java_length, ref)), chunks,
        hyp_function=sum(_java_length(w) for w in hyp if w in fw), ref_function=sum(_java_length(w) for w in ref if w in fw),
        hyp_content_matches=tuple(hc), hyp_function_matches=tuple(hf),
        ref_content_matches=tuple(rc), ref_function_matches=tuple(rf),
        hyp_words_matched=hyp_words, ref_words_matched=ref_words,
    )


def _pair_fields(hyp_tokens, hyp_norm, ref_tokens, ref_norm, config: MeteorConfig, budget: Budget | None) -> tuple:
    """A PairResult's fields, in order (a SegmentResult starts with the same ones)."""
    # (score() checked the synonyms; its budget is a Budget, or None for the greedy aligner)
    alignment: Alignment = ALIGN_WITH_BUDGET[config.aligner](hyp_norm, ref_norm, config, budget)
    chunks, crossings = _chunks_and_crossings(alignment.matches)
    stats = pair_stats(alignment.matches, hyp_norm, ref_norm, chunks, config)
    s: Scores = compute(stats, config)
    stopped_by = None if alignment.optimal or budget is None else budget.stopped_by
    return (s.score, s.precision, s.recall, s.fmean, s.fragmentation, s.penalty, stats.chunks,
            stats.matches, hyp_tokens, ref_tokens, _packed(alignment.matches), crossings,
            alignment.optimal, stopped_by, stats)


def _packed(matches) -> tuple:
    """The matches' fields in one flat tuple (PairResult.packed_alignment)."""
    if _C_STATS is not None:
        return _C_STATS.packed(matches)
    return tuple(chain.from_iterable(matches))


def require_jar_resources(config: MeteorConfig) -> None:
    """Read now what ``config`` needs from the user's Meteor 1.5 jar (the -norm tokenizer's
    prefixes, Meteor 1.x function words, a stem table, the jar's paraphrase table's place): a
    missing jar or table fails here with JarMissingError, before any work (and before worker
    processes start); the lists are read once."""
    if config.tokenizer in LANGUAGE_TOKENIZERS:
        resources.nonbreaking_prefixes(config.language)
    if config.scoring == "meteor1x":
        resources.function_words(config.function_words, config.language)
    if "stem" in config.stages:
        resources.stemmer(config.stemmer, config.language)
    if "paraphrase" in config.stages and config.paraphrase_table == "jar":
        jar_resources.paraphrase_path(config.language)


def _checked(config) -> MeteorConfig:
    """The configuration to score with: the default for None, a TypeError for anything but a
    MeteorConfig (a preset's name among them: ``MeteorConfig.preset(name)`` makes one)."""
    if config is None:
        return MeteorConfig.meteor2005()
    if not isinstance(config, MeteorConfig):
        hint = f" (MeteorConfig.preset({config!r}) makes one)" if isinstance(config, str) else ""
        raise TypeError(f"config must be a MeteorConfig{hint}; got {type(config).__name__}"[:200])
    return config


def score(hypothesis: str, references: Sequence[str] | str, config: MeteorConfig | None = None) -> SegmentResult:
    """Score one hypothesis against one or more references; the best reference is kept."""
    config = _checked(config)
    if isinstance(references, str):
        references = [references]
    if not references:
        raise ValueError("at least one reference is needed")
    if config.uses_synonyms:
        resources.require_synonyms(config.synonym_source)  # fail at once when missing; it loads when a word needs it
    hyp_tokens, hyp_norm = _prepare(hypothesis, config)
    budget = None if config.aligner == "greedy" else Budget()  # (the greedy aligner does not search)
    found = [_pair_fields(hyp_tokens, hyp_norm, *_prepare(ref, config), config, budget) for ref in references]
    if len(found) == 1:
        return SegmentResult(*found[0], 0, None, config.signature())
    # max() keeps the first of equal scores, as NLTK's max over references does.
    best = max(range(len(found)), key=lambda k: found[k][0])
    return SegmentResult(*found[best], best, [PairResult(*f) for f in found], config.signature())


def score_segments(
    hypotheses: Iterable[str],
    references: Iterable[Sequence[str]],
    config: MeteorConfig | None = None,
    jobs: int | None = 1,
) -> Iterator[SegmentResult]:
    """Score segment after segment, yielding each SegmentResult in input order.

    Both inputs are read lazily (``references`` gives each segment's references), so with a
    consumer that keeps only what it needs, memory does not grow with the corpus. ``jobs``:
    processes to score in (None or 0: every core, except for the greedy aligner, see below);
    below ``parallel.MIN_PARALLEL_ITEMS`` segments one job in this process. The results are
    those of one job, in the same order.
    """
    config = _checked(config)
    if (jobs is None or jobs == 0) and config.aligner == "greedy":
        # The greedy aligner (nltk preset) scores a segment in ~15-50 µs, about what sending it
        # to a worker and its result back costs: 2 processes ran at 0.89x of one on the TED set
        # (bench/bench_parallel.py). "Every core" therefore means this process; a number asked
        # for explicitly is still obeyed.
        jobs = 1
    jobs = parallel.resolve_jobs(jobs)  # a bad value fails here, not at the first result
    if config.uses_synonyms:
        resources.require_synonyms(config.synonym_source)  # a missing WordNet (or jar) fails here, before any work
    require_jar_resources(config)
    return parallel.ordered_map(partial(score_chunk, config), number_segments(hypotheses, references), jobs)


def number_segments(hypotheses: Iterable[str], references: Iterable[Sequence[str]]) -> Iterator[tuple]:
    """(index, hypothesis, its references) items, lazily; ValueError when one input ends first."""
    reference_sets = iter(references)
    count = 0
    for count, hyp in enumerate(hypotheses, start=1):
        refs = next(reference_sets, None)
        if refs is None:
            raise ValueError(f"more hypotheses than reference sets ({count - 1} reference sets)")
        yield count - 1, hyp, refs
    if next(reference_sets, None) is not None:
        raise ValueError(f"more reference sets than hypotheses ({count} hypotheses)")


def score_chunk(config: MeteorConfig, chunk: Sequence[tuple]) -> list[SegmentResult]:
    """Score (index, hypothesis, references) items: the unit of work of a worker process."""
    results = []
    for k, hyp, refs in chunk:
        try:
            results.append(score(hyp, refs, config))
        except SegmentTooLong as exc:
            raise SegmentTooLong(f"segment {k + 1}: {exc}") from None
    return results


def score_corpus(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    config: MeteorConfig | None = None,
    progress=None,
    jobs: int | None = 1,
) -> CorpusResult:
    """Score every segment; the corpus score comes from the summed statistics.

    ``references[k]`` holds segment k's references (one or more). ``progress``, if given,
    is called as progress(done, total) so that a UI can show a bar. ``jobs`` as in
    ``score_segments`` (the same results, in the same order, with any number of jobs).
    """
    config = _checked(config)
    if len(hypotheses) != len(references):
        raise ValueError(f"{len(hypotheses)} hypotheses but {len(references)} reference sets")
    segments = []
    total = len(hypotheses)
    for segment in score_segments(hypotheses, references, config, jobs):
        segments.append(segment)
        if progress and (len(segments) % 50 == 1 or len(segments) == total):
            progress(len(segments), total)
    return corpus_from_segments(segments, config)


def corpus_from_segments(segments: Iterable[SegmentResult], config: MeteorConfig) -> CorpusResult:
    segments = list(segments)
    return corpus_from_stats(sum((s.stats for s in segments), MeteorStats()), config, segments)


def corpus_from_stats(total: MeteorStats, config: MeteorConfig, segments: list[SegmentResult] | None = None) -> CorpusResult:
    """The corpus result of summed statistics (``segments`` empty when they were not kept)."""
    s = compute(total, config)
    return CorpusResult(
        score=s.score, precision=s.precision, recall=s.recall, fmean=s.fmean,
        fragmentation=s.fragmentation, penalty=s.penalty, chunks=total.chunks,
        matches=total.matches, stats=total, segments=segments or [], signature=config.signature(),
    )


def forget_texts() -> None:
    """Empty the memos whose keys are whole lines of a user's text: -norm's normalised lines and
    the compiled paraphrase matcher's kept sentences (each worth a rescored set's time in one
    process). Words stay memoised: they are the language's, not a text. The app's server calls
    this once a visitor's session has gone, as it empties sacrebleu's line memos after each use."""
    forget_normalised_lines()
    forget_sentences()
