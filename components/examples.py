"""Built-in examples, each chosen to teach one thing about METEOR (tests check each claim)."""
from __future__ import annotations

from typing import NamedTuple


class Example(NamedTuple):
    title: str
    lesson: str
    hypothesis: str
    references: tuple[str, ...]


EXAMPLES: tuple[Example, ...] = (
    Example("Synonym match", "WordNet links big/large and postman/mailman: the synonym stage adds them after the exact "
            "stage. NLTK misses big/large: it looks up the Porter stem 'larg', which WordNet does not know.",
            "the big dog barked at the postman", ("the large dog barked at the mailman",)),
    Example("Stem match", "Porter stems join children/child, playing/played and gardens/garden.",
            "the children were playing in the gardens", ("the child played in the garden",)),
    Example("Word-order penalty", "The same six words in another order: every word matches, but six chunks make the penalty large.",
            "on the mat sat the cat", ("the cat sat on the mat",)),
    Example("A crossing the optimal aligner avoids",
            "NLTK's greedy aligner gives the last 'the' the right-most 'the' of the reference and breaks the chunk; "
            "the optimal alignment keeps one chunk and no crossing.",
            "the cat sat on the mat", ("the cat sat on the mat near the door",)),
    Example("Several references", "The score is the best over the references: here the second one wins.",
            "the weather is nice today", ("today it is sunny outside", "the weather is pleasant today")),
)

BY_TITLE = {e.title: e for e in EXAMPLES}
