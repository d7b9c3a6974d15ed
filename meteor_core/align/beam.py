"""Meteor 1.5's aligner, reproduced: all modules' matches at once, then its beam search.

Read off meteor-1.5.jar (edu.cmu.meteor.aligner.Aligner and the matchers), quirks included, and
held to a line-by-line port of the Java in the tests (tests/meteor15_reference.py):
* Matches per reference word, module by module: exact pairs; stem pairs whose words differ;
  synonym pairs whose words differ and share a synset (a pair can be both a stem and a synonym
  match: it is offered twice); paraphrase phrase pairs from a Meteor-format table, looked up
  from the reference side, then from the candidate side. Identical sentences use the first
  module only.
* A match that is the only one of all its words, on both sides, is fixed before the search.
* Beam search (40) over reference positions in order: each partial alignment takes one of the
  position's matches or skips it; the beam keeps the best by (1) "coverage", (2) fewest chunks,
  (3) least distance, in a stable sort.
* Coverage adds ``int(coverage + length * weight)`` per side with the aligner's own weights
  (exact 1, every other module 0.5, as MeteorScorer sets them): a one-word stem or synonym
  match adds nothing, so the jar drops one whenever taking it would open a chunk.
* Distance: the jar adds |ref position - hyp position| of every match it tries to the *parent*
  partial alignment (``path.distance``, not ``newPath.distance``), so a later alternative at the
  same position, and the path that skips the position, carry the distances of the earlier ones.

Speed: partial alignments are tuples (key first) sharing their chosen matches as linked pairs,
used words are an int bit mask, and candidates are computed once per distinct reference word.
Bounds: ``budget.deadline`` is checked at every reference position; past it (or once a position
would hold more than MAX_STEP_PATHS partial alignments in all) the best partial alignment is
finished greedily, and the result says optimal=False. Otherwise optimal=True means "exactly the
jar's search", not a proof of optimality.
"""
from __future__ import annotations

import time
from operator import itemgetter

from .. import jar_resources, resources
from ..config import STAGES, MeteorConfig
from .search import Budget
from .types import Alignment

BEAM_SIZE = 40
# A position's successors are created before the beam cuts them to 40: with hundreds of
# candidates a word (repeated words) that is 40 x hundreds of tuples. Past this many in a step
# the search stops being exact and finishes greedily (optimal=False).
MAX_STEP_PATHS = 200_000

_EXACT, _STEM, _SYNONYM, _PARAPHRASE = (STAGES.index(s) for s in ("exact", "stem", "synonym", "paraphrase"))
# What a match adds to the coverage: int(c + 1 * weight) on each side, with the aligner's weights.
_ONE_WORD_GAIN = {_EXACT: 2, _STEM: 0, _SYNONYM: 0}

# A partial alignment: (-coverage, chunks, distance, last hyp end or -1, used hyp words as bits,
# chosen matches as (ref position, candidate, earlier chosen) or None, next reference position).
_KEY = itemgetter(0, 1, 2)
_START = (0, 0, 0, -1, 0, None, 0)


def _phrase_gain(n_h: int, n_r: int) -> int:
    return n_h // 2 + n_r // 2  # int(c + n * 0.5) on each side, c an int


class _Singles(list):
    """Shared candidate tuples (i, 1, 1, gain, stage, bit) for one-word matches, by position."""

    def __init__(self, stage: int):
        super().__init__()
        self.stage = stage

    def upto(self, n: int) -> "_Singles":
        gain, stage = _ONE_WORD_GAIN[self.stage], self.stage
        self.extend((i, 1, 1, gain, stage, 1 << i) for i in range(len(self), n))
        return self


_SINGLES = {stage: _Singles(stage) for stage in _ONE_WORD_GAIN}


def _candidates(hyp: list[str], ref: list[str], stages: tuple[str, ...], config: MeteorConfig,
                table: jar_resources.ParaphraseTable | None) -> list[tuple]:
    """Per reference position, the matches starting there, in the jar's order: module by module,
    candidate positions ascending. Each is (hyp start, hyp length, ref length, coverage gain,
    stage index, hyp words as bits). Positions holding the same word share one tuple."""
    n = len(hyp)
    singles = {s: _SINGLES[s].upto(n) for s in (_EXACT, _STEM, _SYNONYM)}
    at: dict[str, list[int]] = {}
    for i, w in enumerate(hyp):
        at.setdefault(w, []).append(i)
    use_stem = "stem" in stages
    if use_stem:
        stem = resources.stemmer(config.stemmer)
        hyp_stems = list(map(stem, hyp))
        at_stem: dict[str, list[int]] = {}
        for i, s in enumerate(hyp_stems):
            at_stem.setdefault(s, []).append(i)
    use_synonym = "synonym" in stages
    if use_synonym:
        synsets = resources.synonym_sets(config.synonym_source)
        hyp_sets = list(map(synsets, hyp))
        anywhere = frozenset().union(*hyp_sets)
    use_exact = "exact" in stages
    per_word: dict[str, tuple] = {}
    for r in ref:
        if r in per_word:
            continue
        found: list = []
        if use_exact and r in at:
            exact = singles[_EXACT]
            found += [exact[i] for i in at[r]]
        if use_stem:
            same_stem = at_stem.get(stem(r))
            if same_stem:
                found += [singles[_STEM][i] for i in same_stem if hyp[i] != r]
        if use_synonym:
            mine = synsets(r)
            if mine and not mine.isdisjoint(anywhere):
                syn = singles[_SYNONYM]
                found += [syn[i] for i, (h, theirs) in enumerate(zip(hyp, hyp_sets))
                          if h != r and not mine.isdisjoint(theirs)]
        per_word[r] = tuple(found)
    per_ref = [per_word[r] for r in ref]
    if "paraphrase" in stages:
        per_ref = _add_paraphrases(hyp, ref, per_ref, table)
    return per_ref


def _paraphrase_table(config: MeteorConfig) -> jar_resources.ParaphraseTable:
    path = str(jar_resources.paraphrase_path()) if config.paraphrase_table == "jar" else config.paraphrase_table
    return jar_resources.paraphrase_table(path)


def _add_paraphrases(hyp, ref, per_ref, table: jar_resources.ParaphraseTable) -> list[tuple]:
    """ParaphraseMatcher: table entries (phrase -> paraphrase) whose phrase starts at a reference
    position and whose paraphrase occurs in the candidate, then the same from the candidate."""
    extra: list[list] = [[] for _ in ref]
    hyp_at, ref_at = _ngram_positions(hyp, table.max_words), _ngram_positions(ref, table.max_words)
    for j in range(len(ref)):
        for n_r, para in table.paths(ref, j):
            n_h = para.count(" ") + 1
            gain = _phrase_gain(n_h, n_r)
            extra[j] += [(i, n_h, n_r, gain, _PARAPHRASE, ((1 << n_h) - 1) << i) for i in hyp_at.get(para, ())]
    for i in range(len(hyp)):
        for n_h, para in table.paths(hyp, i):
            n_r = para.count(" ") + 1
            gain, bits = _phrase_gain(n_h, n_r), ((1 << n_h) - 1) << i
            for j in ref_at.get(para, ()):
                extra[j].append((i, n_h, n_r, gain, _PARAPHRASE, bits))
    return [cands + tuple(more) if more else cands for cands, more in zip(per_ref, extra)]


def _ngram_positions(words: list[str], longest: int) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for start in range(len(words)):
        for end in range(start + 1, min(start + longest, len(words)) + 1):
            out.setdefault(" ".join(words[start:end]), []).append(start)
    return out


def _fixed_matches(per_ref: list[tuple], n_h: int) -> list:
    """The jar's definite matches: a position with one candidate whose words, on both sides,
    no other candidate covers. Returns, per reference position, that candidate or None."""
    hyp_cover = [0] * n_h
    ref_cover = [0] * len(per_ref)
    seen: dict[int, int] = {}  # shared candidate tuples (one per distinct word) -> how many positions
    for j, cands in enumerate(per_ref):
        for i, nh, nr, *_ in cands:
            for k in range(j, j + nr):
                ref_cover[k] += 1
        seen[id(cands)] = seen.get(id(cands), 0) + 1
    counted = set()
    for cands in per_ref:
        if id(cands) in counted:
            continue
        counted.add(id(cands))
        times = seen[id(cands)]
        for i, nh, *_ in cands:
            for k in range(i, i + nh):
                hyp_cover[k] += times
    fixed = [None] * len(per_ref)
    for j, cands in enumerate(per_ref):
        if len(cands) == 1:
            i, nh, nr = cands[0][:3]
            if all(ref_cover[k] == 1 for k in range(j, j + nr)) and all(hyp_cover[k] == 1 for k in range(i, i + nh)):
                fixed[j] = cands[0]
    return fixed


def align_meteor_beam(hyp: list[str], ref: list[str], config: MeteorConfig, budget: Budget | None = None) -> Alignment:
    table = _paraphrase_table(config) if "paraphrase" in config.stages else None  # (a bad path fails here)
    stages = config.stages[:1] if hyp == ref else config.stages  # the jar: identical -> first module only
    per_ref = _candidates(hyp, ref, stages, config, table)
    fixed = _fixed_matches(per_ref, len(hyp))
    deadline = budget.deadline if budget is not None else None
    best, complete = _search(per_ref, fixed, deadline)
    if not complete and budget is not None:
        budget.exhausted = True
    return Alignment(_matches(best, per_ref, fixed, hyp, ref, config), complete)


def _search(per_ref: list[tuple], fixed: list, deadline: float | None) -> tuple[tuple, bool]:
    """Aligner.resolve: the best partial alignment, and whether the beam ran to the end."""
    paths = [_START]
    clock = time.perf_counter
    for j, cands in enumerate(per_ref):
        if len(paths) > 1:
            paths.sort(key=_KEY)  # stable, as Collections.sort
            del paths[BEAM_SIZE:]
        if deadline is not None and clock() > deadline or len(paths) * len(cands) > MAX_STEP_PATHS:
            return _finish_greedily(paths[0], per_ref, fixed, j), False
        nxt = []
        add = nxt.append
        match = fixed[j]
        if match is not None:  # a definite match: every path takes it
            i, nh, nr, gain = match[:4]
            d = j - i if j >= i else i - j
            for cover, chunks, dist, last, used, chosen, _ in paths:
                add((cover - gain, chunks + 1 if last != -1 and last != i else chunks, dist + d, i + nh, used,
                     chosen, j + nr))
        elif not cands:
            for path in paths:
                cover, chunks, dist, last, used, chosen, nxt_j = path
                if nxt_j > j or last == -1:  # inside an earlier phrase, or no open chunk to close
                    add(path if nxt_j > j else (cover, chunks, dist, -1, used, chosen, j + 1))
                else:
                    add((cover, chunks + 1, dist, -1, used, chosen, j + 1))
        else:
            for path in paths:
                cover, chunks, dist, last, used, chosen, nxt_j = path
                if nxt_j > j:
                    add(path)
                    continue
                opened = chunks + 1 if last != -1 else chunks
                for cand in cands:
                    if used & cand[5]:
                        continue
                    i = cand[0]
                    add((cover - cand[3], chunks if i == last else opened, dist, i + cand[1], used | cand[5],
                         (j, cand, chosen), j + cand[2]))
                    dist += j - i if j >= i else i - j  # the parent's distance (Aligner.java)
                add((cover, opened, dist, -1, used, chosen, j + 1))
        paths = nxt
    paths.sort(key=_KEY)  # the jar's last step: sort, keep the beam, close the open chunks, sort again
    del paths[BEAM_SIZE:]
    for k, path in enumerate(paths):
        if path[3] != -1:
            paths[k] = (path[0], path[1] + 1) + path[2:]
    paths.sort(key=_KEY)
    return paths[0], True


def _finish_greedily(path: tuple, per_ref: list[tuple], fixed: list, start: int) -> tuple:
    """Past the deadline: extend one partial alignment to the end, at each position taking the
    candidate that adds the most coverage (continuing the chunk on a tie, else the first)."""
    cover, chunks, dist, last, used, chosen, nxt_j = path
    for j in range(start, len(per_ref)):
        if nxt_j > j:
            continue
        best = fixed[j]
        if best is None:
            for cand in per_ref[j]:
                if used & cand[5]:
                    continue
                if best is None or cand[3] > best[3] or (cand[3] == best[3] and cand[0] == last != best[0]):
                    best = cand
        if best is None:
            chunks += last != -1
            last, nxt_j = -1, j + 1
            continue
        i, nh, nr, gain, _, bits = best
        chunks += last != -1 and last != i
        cover, dist, last, used, nxt_j = cover - gain, dist + abs(j - i), i + nh, used | bits, j + nr
        if fixed[j] is None:
            chosen = (j, best, chosen)
    return cover, chunks + (last != -1), dist, last, used, chosen, nxt_j


def _matches(path: tuple, per_ref: list[tuple], fixed: list, hyp, ref, config: MeteorConfig) -> tuple:
    """The chosen and the fixed matches as Match tuples, by candidate position."""
    chosen = [(j, cand) for j, cand in enumerate(fixed) if cand is not None]
    link = path[5]
    while link is not None:
        j, cand, link = link
        chosen.append((j, cand))
    stem = resources.stemmer(config.stemmer) if "stem" in config.stages else None
    out = []
    for j, (i, nh, nr, _, stage, _) in chosen:
        out.append((i, j, STAGES[stage], _via(stage, hyp, ref, i, j, nh, nr, stem, config), nh, nr))
    out.sort()
    return tuple(out)


def _via(stage: int, hyp, ref, i: int, j: int, nh: int, nr: int, stem, config: MeteorConfig) -> str:
    if stage == _EXACT:
        return hyp[i]
    if stage == _STEM:
        return stem(hyp[i])
    if stage == _SYNONYM:
        return resources.shared_synset_in(config.synonym_source, hyp[i], ref[j]) or hyp[i]
    return f"{' '.join(hyp[i:i + nh])} = {' '.join(ref[j:j + nr])}"
