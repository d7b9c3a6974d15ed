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
Bounds: every reference position spends from the segment's work ``budget`` (search.Budget) the
partial alignments it may make ((paths + 2) x candidates: the step's own lists of its candidates
count too) before making them; once it is spent the best
partial alignment is finished greedily, and the result says optimal=False. Otherwise
optimal=True means "exactly the jar's search", not a proof of optimality.
"""
from __future__ import annotations

import time
from itertools import chain, groupby
from operator import itemgetter

from .. import _accel, jar_resources, resources
from ..config import STAGES, MeteorConfig
from .search import Budget
from .types import Alignment

BEAM_SIZE = 40
# A phrase's paraphrases are looked up in the other sentence up to this many (in file order); a
# segment with a phrase that has more is cut (optimal=False, stopped_by "work"). The jar's English
# table has at most 934 for one phrase: it never reaches this. (An uploaded table mapping "the"
# to 1.3 M paraphrases took two minutes a rerun on 400 x "the".) Every paraphrase looked up and
# every candidate made is spent from the segment's work budget; once it runs out no more are
# looked up, and the search that follows is cut.
MAX_PARAPHRASES = 10_000

_EXACT, _STEM, _SYNONYM, _PARAPHRASE = (STAGES.index(s) for s in ("exact", "stem", "synonym", "paraphrase"))
_EXACT_NAME = STAGES[_EXACT]
# What a match adds to the coverage: int(c + 1 * weight) on each side, with the aligner's weights.
_ONE_WORD_GAIN = {_EXACT: 2, _STEM: 0, _SYNONYM: 0}

# Compiled (beam.pxd, and the C twin _beam_search.pyx), the search's keys are C long long, exact
# while none can reach C_KEY_LIMIT (a bound from the key units, see _keys_fit): past it (thousands
# of words with millions of candidates) the search runs as this module's _search from its .py,
# whose ints are Python's, unbounded.
C_KEY_LIMIT = 2**62
_COMPILED = not __file__.endswith(".py")
# _search on C structs (align/_beam_search.pyx), when built and up to date (else None: _search runs).
_C_TWIN = _accel.twin("meteor_core.align._beam_search")
# _paraphrase_matches on C data (align/_paraphrase_match.pyx), likewise.
_C_PARAPHRASES = _accel.twin("meteor_core.align._paraphrase_match")
# _word_candidates on words as int ids (align/_word_candidates.pyx), likewise.
_C_WORDS = _accel.twin("meteor_core.align._word_candidates")

_KEY = _FIRST = itemgetter(0)
_GAIN = itemgetter(3)  # a candidate's coverage gain
_BUSY = itemgetter(4)  # the ref position a path's last phrase ends at
_START = (0, -1, 0, None, 0, None)


def _phrase_gain(n_h: int, n_r: int) -> int:
    return n_h // 2 + n_r // 2  # int(c + n * 0.5) on each side, c an int


def _key_units(per_ref: list[tuple], n_hyp: int) -> tuple[int, int]:
    """The jar's ranking (more coverage, then fewer chunks, then less distance) as one int key:
    -coverage * cover + chunks * chunk + distance. A path's distance sums |ref position - hyp
    position| over matches tried, each at most once, so it stays below ``chunk``; its chunks,
    at most one a reference position, stay below ``cover // chunk``. Units this small keep the
    keys below 2**30 (all but 2 of the 2,400 TED pairs, 100+ words), where CPython's int
    arithmetic, comparisons and sorts take their one-digit fast paths: fixed units of 2**40 and
    2**53 made every key a multi-digit int, and the aligner 12% slower (instructions)."""
    chunk = sum(map(len, per_ref)) * max(len(per_ref), n_hyp) + 1
    return chunk, (len(per_ref) + 2) * chunk


def _keys_fit(n_ref: int, n_hyp: int, cover: int) -> bool:
    """Whether every number _search computes stays below C_KEY_LIMIT: a path's coverage, and
    the coverage its fixed matches move to ``base``, are at most n_ref + n_hyp; its chunks and
    distances stay below ``cover``."""
    return (2 * (n_ref + n_hyp) + 4) * cover < C_KEY_LIMIT


class _Singles(list):
    """Shared candidate tuples (i, 1, 1, gain, stage, bit) for one-word matches, by position."""

    def __init__(self, stage: int):
        super().__init__()
        self.stage = stage

    def upto(self, n: int) -> "_Singles":
        if len(self) < n:
            gain, stage = _ONE_WORD_GAIN[self.stage], self.stage
            self.extend((i, 1, 1, gain, stage, 1 << i) for i in range(len(self), n))
        return self


_SINGLES = {stage: _Singles(stage) for stage in _ONE_WORD_GAIN}


def _candidates(hyp: list[str], ref: list[str], stages: tuple[str, ...], config: MeteorConfig,
                table: jar_resources.ParaphraseTable | None, budget: Budget) -> tuple[list[tuple], list]:
    """Per reference position, the matches starting there, in the jar's order: module by module,
    candidate positions ascending. Each is (hyp start, hyp length, ref length, coverage gain,
    stage index, hyp words as bits). Positions holding the same word share one tuple.
    Also the fixed matches (see _fixed_matches), and whether every candidate was made (paraphrases
    are bounded: _paraphrases)."""
    n = len(hyp)
    phrases = "paraphrase" in stages
    if _C_WORDS is None:
        per_ref, fixed = _word_candidates(hyp, ref, stages, config, not phrases)
    else:
        stem, synsets = _twin_word_functions(stages, config)
        per_ref, fixed = _C_WORDS.candidates(hyp, ref, "exact" in stages, stem, synsets, _SINGLES[_EXACT].upto(n),
                                             _SINGLES[_STEM].upto(n), _SINGLES[_SYNONYM].upto(n), not phrases)
    if phrases:
        extra, spans, whole = _paraphrases(hyp, ref, table, budget)
        if _C_WORDS is None:
            per_ref = _joined(per_ref, extra, budget)
            return per_ref, _fixed_matches(per_ref, n, spans), whole
        return *_C_WORDS.joined_and_fixed(per_ref, extra, spans, n, budget), whole
    return per_ref, fixed, True


def _twin_word_functions(stages: tuple[str, ...], config: MeteorConfig) -> tuple:
    """The stem and synonym functions the candidates twin takes (None: the module is not asked
    for): neither memoised, since the twin keeps each word's stem and keys itself; the jar's keys
    are its offsets as the file spells them (the twin parses them off the file's lines)."""
    stem = resources.unmemoised_stemmer(config.stemmer, config.language) if "stem" in stages else None
    synsets = resources.distinct_synonym_keys(config.synonym_source) if "synonym" in stages else None
    return stem, synsets


def _word_candidates(hyp: list[str], ref: list[str], stages: tuple[str, ...], config: MeteorConfig,
                     with_fixed: bool) -> tuple[list[tuple], list | None]:
    """The exact, stem and synonym candidates of _candidates, per reference position (positions
    holding the same word share one tuple); with ``with_fixed`` also the fixed matches among
    them (else None). (Its C twin, on words as int ids: align/_word_candidates.pyx.)"""
    n = len(hyp)
    at: dict[str, list[int]] = {}  # hyp word -> its positions
    for i, w in enumerate(hyp):
        at.setdefault(w, []).append(i)
    use_exact, use_stem, use_synonym = ("exact" in stages), ("stem" in stages), ("synonym" in stages)
    if use_stem:
        stem = resources.stemmer(config.stemmer, config.language)
        at_stem: dict[str, list[str]] = {}  # stem -> the hyp words that have it
        for w in at:
            at_stem.setdefault(stem(w), []).append(w)
    if use_synonym:
        synsets = resources.synonym_sets(config.synonym_source)
        word_sets = []  # (hyp word, its synsets) for the hyp words that have any
        anywhere: set = set()  # synsets of some hyp word
        shared: set = set()  # synsets of two or more: a hyp word has a synonym elsewhere in hyp
        for w in at:
            theirs = synsets(w)
            if theirs:
                word_sets.append((w, theirs))
                shared |= anywhere & theirs
                anywhere |= theirs
    exact, stemmed, synonym = (_SINGLES[s].upto(n) for s in (_EXACT, _STEM, _SYNONYM))
    per_word: dict[str, tuple] = {}
    repeats: dict[str, int] = {}  # reference word -> its occurrences after the first
    for r in ref:
        if r in per_word:
            repeats[r] = repeats.get(r, 0) + 1
            continue
        found: list = []
        if use_exact and r in at:
            found += [exact[i] for i in at[r]]
        if use_stem:
            same = at_stem.get(stem(r))
            if same and (len(same) > 1 or same[0] != r):  # (often only r itself, an exact match)
                found += [stemmed[i] for i in _positions(at, [w for w in same if w != r])]
        if use_synonym:
            mine = synsets(r)
            # a word of the hypothesis shares its synsets with itself: only another one counts
            if mine and not mine.isdisjoint(shared if r in at else anywhere):
                related = [w for w, theirs in word_sets if w != r and not mine.isdisjoint(theirs)]
                found += [synonym[i] for i in _positions(at, related)]
        per_word[r] = tuple(found)
    per_ref = [per_word[r] for r in ref]
    if not with_fixed:
        return per_ref, None
    # One-word matches: a reference position's coverage is its number of candidates; a hyp
    # word's is the number of reference positions whose candidates hold it.
    hyp_cover = [0] * n
    for r, cands in per_word.items():
        times = repeats.get(r, 0) + 1
        for cand in cands:
            hyp_cover[cand[0]] += times
    return per_ref, [cands[0] if len(cands) == 1 and hyp_cover[cands[0][0]] == 1 else None for cands in per_ref]


def _positions(at: dict[str, list[int]], words: list[str]) -> list[int]:
    """The positions of ``words``, ascending."""
    if not words:
        return []
    if len(words) == 1:
        return at[words[0]]
    return sorted(chain.from_iterable(at[w] for w in words))


def _paraphrase_table(config: MeteorConfig) -> jar_resources.ParaphraseTable:
    if config.paraphrase_table == "jar":
        return jar_resources.jar_paraphrase_table(config.language)
    return jar_resources.paraphrase_table(config.paraphrase_table)


def _paraphrases(hyp, ref, table: jar_resources.ParaphraseTable,
                 budget: Budget) -> tuple[list[list], list[tuple[int, int]], bool]:
    """_paraphrase_matches (per reference position the paraphrase matches found; the phrase
    spans; whether every entry was looked up, see MAX_PARAPHRASES), by its C twin where it is
    built and can take the words."""
    found = None
    if _C_PARAPHRASES is not None:  # (None for words it cannot slice: then the code below)
        found = _C_PARAPHRASES.matches(hyp, ref, table, budget, MAX_PARAPHRASES, _PARAPHRASE)
    return _paraphrase_matches(hyp, ref, table, budget) if found is None else found


def _joined(per_ref: list[tuple], extra: list[list], budget: Budget) -> list[tuple]:
    """Each position's candidates with the paraphrase matches found there after them. (With
    _fixed_matches, its C twin: _word_candidates.joined_and_fixed.)"""
    joined = []
    for cands, more in zip(per_ref, extra):
        if more:  # a position's own tuple, no longer shared with the others of its word: work to count
            budget.spend(len(cands) + len(more))
            cands = cands + tuple(more)
        joined.append(cands)
    return joined


def forget_sentences() -> None:
    """Let go of the sentences the compiled paraphrase matcher keeps (the pure code keeps none)."""
    if _C_PARAPHRASES is not None:
        _C_PARAPHRASES.forget_sentences()


def _paraphrase_matches(hyp, ref, table: jar_resources.ParaphraseTable,
                        budget: Budget) -> tuple[list[list], list[tuple[int, int]], bool]:
    """ParaphraseMatcher: table entries (phrase -> paraphrase) whose phrase starts at a reference
    position and whose paraphrase occurs in the candidate, then the same from the candidate.
    Per reference position the candidates found; (reference position, length) of those longer
    than a word; whether every entry was looked up. (Its C twin: align/_paraphrase_match.pyx.)"""
    extra: list[list] = [[] for _ in ref]
    spans: list[tuple[int, int]] = []  # (reference position, length) of the phrases longer than a word
    hyp_at, ref_at = _ngram_positions(hyp, table.max_words), _ngram_positions(ref, table.max_words)
    whole = True
    for j in range(len(ref)):
        paths, whole = _bounded_paths(table, ref, j, budget, whole)
        for n_r, para in paths:
            at = hyp_at.get(para)
            if at:
                n_h = para.count(" ") + 1
                gain = _phrase_gain(n_h, n_r)
                budget.spend(len(at))
                extra[j] += [(i, n_h, n_r, gain, _PARAPHRASE, ((1 << n_h) - 1) << i) for i in at]
                if n_r > 1:
                    spans += [(j, n_r)] * len(at)
    for i in range(len(hyp)):
        paths, whole = _bounded_paths(table, hyp, i, budget, whole)
        for n_h, para in paths:
            at = ref_at.get(para)
            if at:
                n_r = para.count(" ") + 1
                gain, bits = _phrase_gain(n_h, n_r), ((1 << n_h) - 1) << i
                budget.spend(len(at))
                for j in at:
                    extra[j].append((i, n_h, n_r, gain, _PARAPHRASE, bits))
                if n_r > 1:
                    spans += [(j, n_r) for j in at]
    return extra, spans, whole


def _bounded_paths(table: jar_resources.ParaphraseTable, words: list[str], start: int, budget: Budget,
                   whole: bool) -> tuple[list[tuple[int, str]], bool]:
    """table.paths(words, start) with each phrase's paraphrases up to MAX_PARAPHRASES, spent from
    ``budget`` (none once it has run out), and ``whole`` unless something was left out."""
    if budget.exhausted:
        return [], False
    paths = table.paths(words, start, MAX_PARAPHRASES + 1)
    if len(paths) > MAX_PARAPHRASES:  # (only then can one phrase have more)
        kept = []
        for _, same_phrase in groupby(paths, key=_FIRST):  # one phrase after another, by length
            same_phrase = list(same_phrase)
            if len(same_phrase) > MAX_PARAPHRASES:
                budget.cap()
                whole = False
            kept += same_phrase[:MAX_PARAPHRASES]
        paths = kept
    if budget.spend(2 * len(paths) + 1):  # a lookup in the other sentence each, and the list
        return [], False
    return paths, whole


def _ngram_positions(words: list[str], longest: int) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for start in range(len(words)):
        for end in range(start + 1, min(start + longest, len(words)) + 1):
            out.setdefault(" ".join(words[start:end]), []).append(start)
    return out


def _fixed_matches(per_ref: list[tuple], n_h: int, phrase_spans: list[tuple[int, int]]) -> list:
    """The jar's definite matches: a position with one candidate whose words, on both sides,
    no other candidate covers. Returns, per reference position, that candidate or None.
    ``phrase_spans``: (reference position, length) of the candidates longer than one reference
    word (_paraphrases collects them as it makes them)."""
    # Written for speed: with paraphrases a position's candidates are its own tuple (not shared
    # by the positions holding the same word), and a long segment can hold a million of them.
    hyp_cover = [0] * n_h
    ref_cover = [len(cands) for cands in per_ref]  # one-word candidates cover their own position
    seen: dict[int, int] = {}  # shared candidate tuples (one per distinct word) -> how many positions
    for cands in per_ref:
        seen[id(cands)] = seen.get(id(cands), 0) + 1
    for j, nr in phrase_spans:
        for k in range(j + 1, j + nr):
            ref_cover[k] += 1
    counted = set()
    for cands in per_ref:
        if id(cands) in counted:
            continue
        counted.add(id(cands))
        times = seen[id(cands)]
        for c in cands:
            hyp_cover[c[0]] += times
            if c[1] > 1:
                for k in range(c[0] + 1, c[0] + c[1]):
                    hyp_cover[k] += times
    fixed = [None] * len(per_ref)
    for j, cands in enumerate(per_ref):
        if len(cands) == 1:
            i, nh, nr = cands[0][:3]
            if all(ref_cover[k] == 1 for k in range(j, j + nr)) and all(hyp_cover[k] == 1 for k in range(i, i + nh)):
                fixed[j] = cands[0]
    return fixed


def align_meteor_beam(hyp: list[str], ref: list[str], config: MeteorConfig, budget: Budget | None = None) -> Alignment:
    stages = config.stages[:1] if hyp == ref else config.stages  # the jar: identical -> first module only
    budget = Budget() if budget is None else budget
    timed = budget.clock_started  # (another reference's search started the safety clock)
    loading = time.thread_time() if timed else 0.0  # loading a resource once is not this segment's search
    table = _paraphrase_table(config) if "paraphrase" in config.stages else None  # (a bad path fails here)
    if "synonym" in stages:
        resources.load_synonyms(config.synonym_source)
    if timed:
        budget.extend(time.thread_time() - loading)
    per_ref, fixed, whole = _candidates(hyp, ref, stages, config, table, budget)
    chunk, cover = _key_units(per_ref, len(hyp))
    if not _keys_fit(len(ref), len(hyp), cover):  # Python's unbounded ints
        search = _accel.source_module(__name__)._search if _COMPILED else _search
        best, complete = search(per_ref, fixed, budget, chunk, cover)
    elif _C_TWIN is not None:
        best, complete = _C_TWIN.search(per_ref, fixed, budget, chunk, cover, _finish_greedily)
    else:
        best, complete = _search(per_ref, fixed, budget, chunk, cover)
    return Alignment(_matches(best, per_ref, fixed, hyp, ref, config), complete and whole)


def _search(per_ref: list[tuple], fixed: list, budget: Budget, chunk: int, cover: int) -> tuple[tuple, bool]:
    """Aligner.resolve: the best partial alignment, and whether the beam ran to the end.

    A partial alignment is (key, last hyp end or -1, used hyp words as bits, the partial
    alignment it grew from or None, ref position its last phrase ends at, (ref position,
    candidate) of the match it took or None): the chosen matches are read back along the chain.
    key + base = -coverage * cover + chunks * chunk + distance orders them as the jar's
    comparator. After a fixed match every path has the same last end: while that lasts
    ("uniform"), fixed matches and empty positions change every key alike, so they only move
    ``base`` and the common last end, and the order (hence the jar's sort) stays as it is."""
    paths = [_START]
    base = 0
    uniform, common_last, common_busy = True, -1, 0  # a single path is uniform
    for j, cands in enumerate(per_ref):
        match = fixed[j]
        if uniform and (common_busy > j or match is not None or not cands):
            if common_busy > j:  # inside a phrase every path took
                continue
            if match is not None:
                i, nh, nr, gain = match[:4]
                base += (j - i if j >= i else i - j) - gain * cover + (chunk if common_last != -1 and common_last != i else 0)
                common_last, common_busy = i + nh, j + nr
            elif common_last != -1:
                base += chunk
                common_last = -1
            continue
        if not cands and not _chunk_open(paths, j):
            continue  # no chunk to close: nothing changes, the jar's sort included
        if len(paths) > 1:
            paths.sort(key=_KEY)  # stable, as Collections.sort
            del paths[BEAM_SIZE:]
        # The paths this step may make, and its own lists of the candidates (steps, gain groups),
        # which cost as much again when the beam holds few paths over many candidates.
        if budget.spend((len(paths) + 2) * len(cands) + 1):
            path = _actual(paths[0], base, uniform, common_last, common_busy)
            return _finish_greedily(path, per_ref, fixed, j, chunk, cover), False
        if match is not None:  # a definite match: every path takes it (none is inside a phrase here)
            i, nh, nr, gain = match[:4]
            base += (j - i if j >= i else i - j) - gain * cover  # the same for every path
            paths = [(path[0] + chunk, path[1], path[2], path[3], path[4], path[5]) if path[1] != -1 and path[1] != i
                     else path for path in paths]
            uniform, common_last, common_busy = True, i + nh, j + nr
            continue
        if not cands:  # close the open chunks
            paths = [(path[0] + chunk, -1, path[2], path[3], path[4], path[5]) if path[1] != -1 and path[4] <= j
                     else path for path in paths]
            uniform = max(map(_BUSY, paths)) <= j
            common_last, common_busy = -1, j
            continue
        steps = [(cand[0], cand[0] + cand[1], cand[3] * cover, cand[5], j + cand[2], abs(j - cand[0]), (j, cand)) for cand in cands]
        # The next step keeps the best BEAM_SIZE of what this one makes (a stable sort: on equal
        # keys, the one made first). Once BEAM_SIZE made paths have a key at most ``bar``, a path
        # whose key is not below it can only be cut (made after them, it sorts after them): it is
        # not made. Parents come best first, and nothing grown from a parent beats its key minus
        # the largest gain here.
        most = max(map(_GAIN, cands)) * cover
        single = len(steps) == 1
        if single:
            i, end, gain, bits, after, d, taken = steps[0]
        bar, recount = cover, BEAM_SIZE  # every key is below cover
        nxt = []
        add = nxt.append
        for path in paths:
            key, last, used, _, busy, _ = path
            if len(nxt) >= recount:  # keep only the best BEAM_SIZE so far: a path they beat is cut anyway
                nxt.sort(key=_KEY)  # (stable: the paths that stay keep their order of making)
                del nxt[BEAM_SIZE:]
                bar = nxt[-1][0]
                recount = BEAM_SIZE + BEAM_SIZE // 2
            if key - most >= bar:
                break
            if uniform:
                last, busy = common_last, common_busy
            if busy > j:  # inside a phrase matched earlier
                add((key, last, used, path, busy, None))
                continue
            # The key of a path that does not continue the chunk (one opened closes), with the
            # distances added so far; a match at ``last`` continues it: one chunk less.
            opened = key + chunk if last != -1 else key
            if single:  # (most positions have one candidate: no inner loop)
                if not used & bits:
                    child = (opened - chunk if i == last else opened) - gain
                    if child < bar:
                        add((child, end, used | bits, path, after, taken))
                    opened += d  # the jar adds the distance to the parent (Aligner.java)
            else:
                for i, end, gain, bits, after, d, taken in steps:
                    if used & bits:
                        continue
                    child = (opened - chunk if i == last else opened) - gain
                    if child < bar:
                        add((child, end, used | bits, path, after, taken))
                    opened += d  # the jar adds the distance to the parent (Aligner.java)
            if opened == key and path[1] == last and path[4] == busy:  # (opened == key: last is -1)
                add(path)  # no distance added, no chunk open: the skip is the path itself
            elif opened < bar:
                add((opened, -1, used, path, busy, None))
        paths = nxt
        uniform = False
    # The jar's last step: sort, keep the beam, close the open chunks, sort again and take the
    # first; min() gives the first of equal keys, as the stable sort would.
    paths.sort(key=_KEY)
    del paths[BEAM_SIZE:]
    if not uniform:  # (uniform: every path closes the same chunk, the order stays)
        paths = [_first_closed(paths, chunk)]
    best = _actual(paths[0], base, uniform, common_last, common_busy)
    return (best[0] + chunk,) + best[1:] if best[1] != -1 else best, True


def _chunk_open(paths: list[tuple], j: int) -> bool:
    """Whether some path has a chunk open at reference position ``j`` (one that an empty
    position would close)."""
    for path in paths:
        if path[1] != -1 and path[4] <= j:
            return True
    return False


def _first_closed(paths: list[tuple], chunk: int) -> tuple:
    """The best path once every open chunk is closed; the first of equal keys, as the jar's
    stable sort."""
    return min(paths, key=lambda path: path[0] + chunk if path[1] != -1 else path[0])


def _actual(path: tuple, base: int, uniform: bool, common_last: int, common_busy: int) -> tuple:
    """A path with its whole key, and the common last end and phrase end if they apply."""
    key, last, used, parent, busy, taken = path
    if uniform:
        last, busy = common_last, common_busy
    return key + base, last, used, parent, busy, taken


def _finish_greedily(path: tuple, per_ref: list[tuple], fixed: list, start: int, chunk: int, cover: int) -> tuple:
    """Past the deadline: extend one partial alignment to the end, at each position taking a
    free candidate that adds the most coverage (the one continuing the chunk if there is one,
    else the first). Linear in the sentence length for one-word candidates, however many."""
    key, last, used, _, busy, _ = path
    groups: dict[int, list] = {}  # id(candidates) -> [(gain, stage, hyp bits)], best gain first
    for j in range(start, len(per_ref)):
        if busy > j:
            continue
        best = fixed[j]
        if best is None and per_ref[j]:
            cands = per_ref[j]
            if id(cands) not in groups:
                groups[id(cands)] = _gain_groups(cands)
            for gain, stage, bits in groups[id(cands)]:
                free = bits & ~used
                if not free:
                    continue
                if stage == _PARAPHRASE:  # phrases: the first whose words are all free
                    best = next((c for c in cands if c[4] == _PARAPHRASE and c[3] == gain and not used & c[5]), None)
                    if best is None:
                        continue
                else:
                    i = last if last != -1 and free >> last & 1 else (free & -free).bit_length() - 1
                    best = _SINGLES[stage].upto(i + 1)[i]  # (this module's own, made as needed)
                break
        if best is None:
            key += chunk if last != -1 else 0
            last = -1
            continue
        i, nh, nr, gain, _, bits = best
        key += (chunk if last != -1 and last != i else 0) + abs(j - i) - gain * cover
        last, used, busy = i + nh, used | bits, j + nr
        if fixed[j] is None:
            path = (key, last, used, path, busy, (j, best))
    return key + (chunk if last != -1 else 0), last, used, path, busy, None


def _gain_groups(cands: tuple) -> list[tuple[int, int, int]]:
    """(coverage gain, stage, hyp bits of its candidates), one-word stages in the jar's order,
    paraphrases by gain; the largest gain first (a stable sort keeps the jar's order on ties)."""
    out: dict[tuple[int, int], int] = {}
    for _, _, _, gain, stage, bits in cands:
        out[gain, stage] = out.get((gain, stage), 0) | bits
    return sorted(((gain, stage, bits) for (gain, stage), bits in out.items()), key=lambda g: -g[0])


def _matches(path: tuple, per_ref: list[tuple], fixed: list, hyp, ref, config: MeteorConfig) -> tuple:
    """The chosen and the fixed matches as Match tuples, by candidate position (no two matches
    share a candidate word: sorting by the first position alone sorts the tuples)."""
    chosen = [(j, cand) for j, cand in enumerate(fixed) if cand is not None]
    while path is not None:
        if path[5] is not None:
            chosen.append(path[5])
        path = path[3]
    stem = None
    out = []
    for j, (i, nh, nr, _, stage, _) in chosen:
        if stage == _EXACT:
            out.append((i, j, _EXACT_NAME, hyp[i], nh, nr))
            continue
        if stage == _STEM and stem is None:
            stem = resources.stemmer(config.stemmer, config.language)
        out.append((i, j, STAGES[stage], _via(stage, hyp, ref, i, j, nh, nr, stem, config), nh, nr))
    out.sort(key=_FIRST)
    return tuple(out)


def _via(stage: int, hyp, ref, i: int, j: int, nh: int, nr: int, stem, config: MeteorConfig) -> str:
    """What links a match that is not exact (an exact one: the word itself)."""
    if stage == _STEM:
        return stem(hyp[i])
    if stage == _SYNONYM:
        return resources.shared_synset_in(config.synonym_source, hyp[i], ref[j]) or hyp[i]
    return f"{' '.join(hyp[i:i + nh])} = {' '.join(ref[j:j + nr])}"
