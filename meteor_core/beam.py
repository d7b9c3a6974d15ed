"""Meteor 1.5's aligner, reproduced: all modules' matches at once, then a beam search.

Read off meteor-1.5.jar (edu.cmu.meteor.aligner.Aligner), so that the meteor15 preset aligns as
the jar does, quirks included:
* Matches: exact pairs; stem pairs whose words differ; synonym pairs whose words and stems
  differ. A pair found by several modules is offered once per module (exact first).
* A reference word with exactly one candidate, whose two words have no other candidate, is
  fixed before the search.
* Beam search (40) over reference positions in order: each partial alignment takes one of the
  position's matches or skips it, and the beam keeps the best by (1) "coverage", (2) fewest
  chunks, (3) least sum of |ref position - hyp position|.
* Coverage adds ``int(coverage + weight)`` per matched word: with Meteor 1.5's weights below 1
  (stem 0.6, synonym 0.8) a stem or synonym match adds nothing, so the jar leaves out a stem
  match whenever taking it would open a new chunk. That is why it can find fewer matches
  than the paper's aligner.
"""
from __future__ import annotations

from . import resources
from .align import Alignment, Match
from .config import STAGES, MeteorConfig

BEAM_SIZE = 40


class _Path:
    __slots__ = ("chosen", "used_h", "used_r", "coverage", "chunks", "distance", "idx", "last_end")

    def __init__(self, n_h: int, n_r: int):
        self.chosen: dict[int, tuple] = {}
        self.used_h = [False] * n_h
        self.used_r = [False] * n_r
        self.coverage = 0
        self.chunks = 0
        self.distance = 0
        self.idx = 0
        self.last_end = -1

    def copy(self) -> "_Path":
        p = _Path.__new__(_Path)
        p.chosen = dict(self.chosen)
        p.used_h, p.used_r = list(self.used_h), list(self.used_r)
        p.coverage, p.chunks, p.distance, p.idx, p.last_end = (
            self.coverage, self.chunks, self.distance, self.idx, self.last_end)
        return p

    def take(self, j: int, i: int, weight: float) -> None:
        self.coverage = int(self.coverage + weight)  # hyp side (the jar truncates to int)
        self.coverage = int(self.coverage + weight)  # ref side
        if self.last_end != -1 and i != self.last_end:
            self.chunks += 1
        self.idx = j + 1
        self.last_end = i + 1
        self.distance += abs(j - i)

    def key(self):
        return (-self.coverage, self.chunks, self.distance)


def _candidates(hyp, ref, config: MeteorConfig) -> list[list[tuple[int, int, str]]]:
    """Per reference position: (hyp position, module index, via) in the jar's order."""
    per_ref: list[list[tuple[int, int, str]]] = [[] for _ in ref]
    stem = resources.stemmer(config.stemmer)
    for module, stage in enumerate(STAGES):
        if stage not in config.stages:
            continue
        for j, r in enumerate(ref):
            for i, h in enumerate(hyp):
                if stage == "exact":
                    ok, via = h == r, h
                elif stage == "stem":
                    ok, via = h != r and stem(h) == stem(r), stem(h)
                else:
                    ok = h != r and stem(h) != stem(r) and resources.shared_synset(h, r) is not None
                    via = resources.shared_synset(h, r) if ok else ""
                if ok:
                    per_ref[j].append((i, module, via))
    return per_ref


def align_meteor_beam(hyp: list[str], ref: list[str], config: MeteorConfig) -> Alignment:
    weights = config.module_weights
    per_ref = _candidates(hyp, ref, config)
    # Unambiguous one-to-one matches are fixed first.
    hyp_count = [0] * len(hyp)
    for cands in per_ref:
        for i, _, _ in cands:
            hyp_count[i] += 1
    start = _Path(len(hyp), len(ref))
    fixed: dict[int, tuple] = {}
    for j, cands in enumerate(per_ref):
        if len(cands) == 1 and hyp_count[cands[0][0]] == 1:
            fixed[j] = cands[0]
            start.used_h[cands[0][0]] = start.used_r[j] = True
    paths = [start]
    for current in range(len(ref) + 1):
        paths.sort(key=_Path.key)
        nxt = []
        for path in paths[:BEAM_SIZE]:
            if current == len(ref):
                if path.last_end != -1:
                    path.chunks += 1
                nxt.append(path)
                continue
            if path.used_r[current]:
                if current < path.idx:
                    nxt.append(path)
                    continue
                m = fixed.get(current)
                if m is not None:
                    path.chosen[current] = m
                    path.take(current, m[0], weights[m[1]])
                    nxt.append(path)
                continue
            for m in per_ref[current]:
                i = m[0]
                if path.used_h[i]:
                    continue
                new = path.copy()
                new.used_h[i] = new.used_r[current] = True
                new.chosen[current] = m
                new.take(current, i, weights[m[1]])
                nxt.append(new)
            if path.last_end != -1:
                path.chunks += 1
                path.last_end = -1
            path.idx += 1
            nxt.append(path)
        paths = nxt or paths[:1]
    paths.sort(key=_Path.key)
    best = paths[0]
    matches = sorted((Match(i, j, STAGES[module], via) for j, (i, module, via) in best.chosen.items()),
                     key=lambda m: m.hyp_index)
    return Alignment(tuple(matches), False)
