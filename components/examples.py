"""Built-in examples, each chosen to teach one thing about METEOR.

Every lesson names its matches and chunks in ``claims``/``chunks`` as well as in words, and
tests/test_teaching.py checks both against what the scorer computes under ``preset``: a lesson
that says "Porter stems join X/Y" fails the tests if the stem stage is not what joins them.
"""
from __future__ import annotations

from typing import NamedTuple


class Example(NamedTuple):
    title: str
    lesson: str
    hypothesis: str
    references: tuple[str, ...]
    claims: tuple[tuple[str, str, str], ...] = ()  # (candidate word, reference word, stage) the lesson names
    chunks: int | None = None  # the number of chunks the lesson states (None: it states none)
    preset: str = "meteor2005"  # the configuration the lesson is told for


EXAMPLES: tuple[Example, ...] = (
    Example("Synonym match", "WordNet links big/large and postman/mailman: the synonym stage adds them after the exact "
            "stage, and all seven words stay in one chunk. NLTK misses big/large: it looks up the Porter stem 'larg', "
            "which WordNet does not know.",
            "the big dog barked at the postman", ("the large dog barked at the mailman",),
            claims=(("big", "large", "synonym"), ("postman", "mailman", "synonym"), ("dog", "dog", "exact")), chunks=1),
    Example("Stem match", "Porter stems join playing/played and gardens/garden. children/child is an irregular plural "
            "the Porter stemmer leaves apart; WordNet knows it, so the synonym stage joins them. 'were' has no "
            "partner, which breaks the run: 2 chunks.",
            "the children were playing in the gardens", ("the child played in the garden",),
            claims=(("playing", "played", "stem"), ("gardens", "garden", "stem"), ("children", "child", "synonym")),
            chunks=2),
    Example("Word-order penalty", "The same six words in another order: every word matches, but no two neighbours "
            "are neighbours in the reference too, so each word is its own chunk: 6 chunks for 6 matches, the "
            "largest penalty there is (γ, here half the score).",
            "on the mat sat the cat", ("the cat sat on the mat",),
            claims=(("on", "on", "exact"), ("cat", "cat", "exact")), chunks=6),
    Example("A crossing the optimal aligner avoids",
            "NLTK's greedy aligner gives the last 'the' the right-most 'the' of the reference and breaks the chunk; "
            "the optimal alignment keeps one chunk and no crossing.",
            "the cat sat on the mat", ("the cat sat on the mat near the door",),
            claims=(("mat", "mat", "exact"),), chunks=1),
    Example("Several references", "The score is the best over the references. The second wins: 'the weather is' "
            "and 'today' match it in 2 chunks ('nice' finds no partner: WordNet does not list nice and pleasant as "
            "synonyms); the first reference shares only 'is' and 'today'.",
            "the weather is nice today", ("today it is sunny outside", "the weather is pleasant today"),
            claims=(("weather", "weather", "exact"), ("today", "today", "exact")), chunks=2),
)

BY_TITLE = {e.title: e for e in EXAMPLES}
