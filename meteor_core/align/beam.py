"""Meteor 1.5's aligner, reproduced: all modules' matches at once, then a beam search.

Read off meteor-1.5.jar (edu.cmu.meteor.aligner.Aligner), so that the meteor15 preset aligns as
the jar does, quirks included:
* Matches: exact pairs; stem pairs whose words differ; synonym pairs whose words and stems
  differ; paraphrase phrase pairs from a Meteor-format table. A pair found by several modules
  is offered once per module (exact first).
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

from .. import resources
from ..config import STAGES, MeteorConfig
from .types import Alignment, Match

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

    def take(self, j: int, m: tuple, weight: float) -> None:
        i, _, _, n_h, n_r = m
        self.coverage = int(self.coverage + n_h * weight)  # hyp side (the jar truncates to int)
        self.coverage = int(self.coverage + n_r * weight)  # ref side
        if self.last_end != -1 and i != self.last_end:
            self.chunks += 1
        self.idx = j + n_r
        self.last_end = i + n_h
        self.distance += abs(j - i)

    def free(self, j: int, m: tuple) -> bool:
        i, _, _, n_h, n_r = m
        return not any(self.used_h[i:i + n_h]) and not any(self.used_r[j:j + n_r])

    def mark(self, j: int, m: tuple) -> None:
        i, _, _, n_h, n_r = m
        self.used_h[i:i + n_h] = [True] * n_h
        self.used_r[j:j + n_r] = [True] * n_r

    def key(self):
        return (-self.coverage, self.chunks, self.distance)


def _candidates(hyp, ref, config: MeteorConfig) -> list[list[tuple[int, int, str]]]:
    """Per reference position: (hyp start, module index, via, hyp length, ref length), in the
    jar's order (module by module)."""
    per_ref: list[list[tuple[int, int, str]]] = [[] for _ in ref]
    stem = resources.stemmer(config.stemmer)
    for module, stage in enumerate(STAGES):
        if stage not in config.stages or stage == "paraphrase":  # phrases: below
            continue
        for j, r in enumerate(ref):
            for i, h in enumerate(hyp):
                if stage == "exact":
                    ok, via = h == r, h
                elif stage == "stem":
                    ok, via = h != r and stem(h) == stem(r), stem(h)
                else:
                    via = resources.shared_synset(h, r) if h != r and stem(h) != stem(r) else None
                    ok = via is not None
                if ok:
                    per_ref[j].append((i, module, via, 1, 1))
    if "paraphrase" in config.stages:
        table = resources.paraphrase_table(config.paraphrase_table)
        module = STAGES.index("paraphrase")
        longest = table.max_words
        ref_spans: dict[str, list[int]] = {}
        for j in range(len(ref)):
            for n in range(1, min(longest, len(ref) - j) + 1):
                ref_spans.setdefault(" ".join(ref[j:j + n]), []).append(j)
        for i in range(len(hyp)):
            for n in range(1, min(longest, len(hyp) - i) + 1):
                phrase = " ".join(hyp[i:i + n])
                for other in table.paraphrases(phrase):
                    for j in ref_spans.get(other, ()):
                        per_ref[j].append((i, module, f"{phrase} = {other}", n, other.count(" ") + 1))
    return per_ref


def align_meteor_beam(hyp: list[str], ref: list[str], config: MeteorConfig) -> Alignment:
    weights = config.module_weights
    per_ref = _candidates(hyp, ref, config)
    # Unambiguous matches are fixed first: the only candidate of its words on both sides.
    hyp_cover = [0] * len(hyp)
    ref_cover = [0] * len(ref)
    for j, cands in enumerate(per_ref):
        for m in cands:
            for i in range(m[0], m[0] + m[3]):
                hyp_cover[i] += 1
            for r in range(j, j + m[4]):
                ref_cover[r] += 1
    start = _Path(len(hyp), len(ref))
    fixed: dict[int, tuple] = {}
    for j, cands in enumerate(per_ref):
        if len(cands) == 1:
            m = cands[0]
            if all(ref_cover[r] == 1 for r in range(j, j + m[4])) and all(hyp_cover[i] == 1 for i in range(m[0], m[0] + m[3])):
                fixed[j] = m
                start.mark(j, m)
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
                    path.take(current, m, weights[m[1]])
                    nxt.append(path)
                continue
            for m in per_ref[current]:
                if not path.free(current, m):
                    continue
                new = path.copy()
                new.mark(current, m)
                new.chosen[current] = m
                new.take(current, m, weights[m[1]])
                nxt.append(new)
            if path.last_end != -1:
                path.chunks += 1
                path.last_end = -1
            path.idx += 1
            nxt.append(path)
        paths = nxt or paths[:1]
    paths.sort(key=_Path.key)
    best = paths[0]
    matches = sorted((Match(i, j, STAGES[module], via, n_h, n_r)
                      for j, (i, module, via, n_h, n_r) in best.chosen.items()), key=lambda m: m.hyp_index)
    return Alignment(tuple(matches), False)
