"""What an aligner returns: matches between candidate and reference tokens."""
from __future__ import annotations

from typing import NamedTuple


class Match(NamedTuple):
    hyp_index: int
    ref_index: int
    stage: str  # "exact" | "stem" | "synonym" | "paraphrase"
    via: str  # the shared word, the shared stem, the WordNet synset, or the paraphrase pair
    # Paraphrase matches link phrases: hyp_index .. hyp_index + hyp_length - 1 to the ref span.
    hyp_length: int = 1
    ref_length: int = 1

    @property
    def hyp_positions(self) -> range:
        return range(self.hyp_index, self.hyp_index + self.hyp_length)

    @property
    def ref_positions(self) -> range:
        return range(self.ref_index, self.ref_index + self.ref_length)

    def to_dict(self) -> dict:
        d = {"hyp_index": self.hyp_index, "ref_index": self.ref_index, "stage": self.stage, "via": self.via}
        if self.hyp_length != 1 or self.ref_length != 1:
            d["hyp_length"], d["ref_length"] = self.hyp_length, self.ref_length
        return d


class Alignment(NamedTuple):
    # Sorted by hypothesis position; each a Match or a plain tuple of Match's six fields (the
    # optimal aligner's: cheaper to make, and the garbage collector can stop tracking them).
    matches: tuple[tuple, ...]
    optimal: bool  # True when the search proved the alignment optimal (greedy: False)
