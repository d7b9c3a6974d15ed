"""Built-in examples, each chosen to teach one thing about METEOR, with a lesson per preset.

A lesson is a template and the facts it states: every number it shows is a named fact filled in
from ``facts`` (the template itself holds no digits), every word pair it names is a claim, and
tests/test_teaching.py recomputes each fact and claim with the scorer under the lesson's preset
(``chunks``, ``matches``, ``crossings``, ``penalty``, ``score``, ``words`` of the best reference,
``best``: its number;
``<preset>_chunks`` and the like under another preset; ``alpha``, ``beta``, ``gamma``, ``delta``,
``<stage>_weight`` from the configuration). A lesson that says "6 chunks" while the drawing shows
3 fails the tests, and so does one that names a pair another stage makes.
"""
from __future__ import annotations

from typing import NamedTuple, Optional

from meteor_core.config import PRESET_NAMES


class Lesson(NamedTuple):
    text: str  # a template: {name} is replaced by facts[name]
    facts: dict  # name -> the value as shown (a string); see the module docstring for the names
    claims: tuple[tuple[str, Optional[str], Optional[str]], ...] = ()  # (candidate word, reference word
    # or None, stage or None for "no partner") in the best reference's alignment under this preset
    contrasts: tuple[tuple[str, str, str, Optional[str]], ...] = ()  # (preset, candidate word, reference word,
    # stage or None) in that preset's alignment
    stems: tuple[tuple[str, str], ...] = ()  # (word, Porter stem) the lesson states
    other_reference: tuple[str, ...] = ()  # candidate words the other reference(s) match, all of them

    def shown(self) -> str:
        return self.text.format(**self.facts)


class Example(NamedTuple):
    title: str
    hypothesis: str
    references: tuple[str, ...]
    lessons: dict  # preset -> Lesson (every preset has one)

    def lesson(self, preset: str) -> Lesson:
        return self.lessons[preset]


_SYNONYM_2005 = Lesson(
    "WordNet links big/large and postman/mailman: the synonym stage adds them after the exact stage, and all "
    "{matches} words stay in one chunk. NLTK misses big/large: it compares Porter stems with WordNet's words, and "
    "the stem of 'large' is 'larg'.",
    {"matches": "7"},
    claims=(("big", "large", "synonym"), ("postman", "mailman", "synonym"), ("dog", "dog", "exact")),
    contrasts=(("nltk", "big", "large", None),), stems=(("large", "larg"),))

_STEM = ("Stemming joins playing/played and gardens/garden. children/child is an irregular plural the stemmer "
         "leaves apart; WordNet knows it, so the synonym stage joins them. 'were' has no partner, which breaks the "
         "run: {chunks} chunks.")
_STEM_CLAIMS = (("playing", "played", "stem"), ("gardens", "garden", "stem"), ("children", "child", "synonym"),
                ("were", None, None))

_ORDER_GAMMA = " {chunks} chunks for {matches} matches is the largest penalty there is: γ = {gamma}, half of Fmean."
_ORDER_FACTS = {"words": "6", "chunks": "6", "matches": "6", "gamma": "0.5", "crossings": "8",
                "meteor15_crossings": "11", "meteor15_chunks": "3"}

_CROSSING_FACTS = {"words": "6", "nltk_chunks": "4", "nltk_crossings": "4"}

_SEVERAL = Lesson(
    "The score is the best over the references. Reference {best} wins: 'the weather is' and 'today' match it in "
    "{chunks} chunks ('nice' finds no partner: WordNet does not list nice and pleasant as synonyms); the other "
    "reference shares only 'is' and 'today'.",
    {"best": "2", "chunks": "2"},
    claims=(("weather", "weather", "exact"), ("today", "today", "exact"), ("nice", None, None)),
    other_reference=("is", "today"))

EXAMPLES: tuple[Example, ...] = (
    Example("Synonym match", "the big dog barked at the postman", ("the large dog barked at the mailman",), {
        "meteor2005": _SYNONYM_2005,
        "nltk": Lesson(
            "NLTK compares Porter stems with WordNet's words: postman/mailman is a synonym match, but big/large is "
            "missed, because the stem of 'large' is 'larg', which is not among the synonyms of 'big'. The unmatched "
            "'big' splits the run: {matches} matches in {chunks} chunks (meteor2005 finds both synonyms and keeps "
            "them in {meteor2005_chunks} chunk).",
            {"matches": "6", "chunks": "2", "meteor2005_chunks": "1"},
            claims=(("postman", "mailman", "synonym"), ("big", None, None)),
            contrasts=(("meteor2005", "big", "large", "synonym"),), stems=(("large", "larg"),)),
        "meteor15": Lesson(
            "WordNet links big/large and postman/mailman: the synonym stage adds them after the exact and stem "
            "stages, and all {matches} words match in one chunk, so Meteor 1.5 takes no fragmentation penalty at all "
            "(penalty {penalty}). The score is still {score}, below a perfect match's: a synonym match counts "
            "{synonym_weight} of an exact one.",
            {"matches": "7", "penalty": "0.0000", "score": "0.9200", "synonym_weight": "0.8"},
            claims=(("big", "large", "synonym"), ("postman", "mailman", "synonym"), ("dog", "dog", "exact"))),
    }),
    Example("Stem match", "the children were playing in the gardens", ("the child played in the garden",), {
        "meteor2005": Lesson(_STEM, {"chunks": "2"}, claims=_STEM_CLAIMS),
        "nltk": Lesson(_STEM, {"chunks": "2"}, claims=_STEM_CLAIMS),
        "meteor15": Lesson(
            "Stemming joins gardens/garden. children/child is an irregular plural the stemmer leaves apart; WordNet "
            "knows it, so the synonym stage joins them. Meteor 1.5 has a fourth stage: its paraphrase table links "
            "the phrase 'were playing' with 'played' (drawn as a match from 'were' to 'played' that covers both words), so "
            "every word finds a partner: {matches} matches in one chunk and no penalty ({penalty}). The score is "
            "still {score}: a stem match counts {stem_weight}, a synonym {synonym_weight} and a paraphrase "
            "{paraphrase_weight} of an exact one.",
            {"matches": "6", "penalty": "0.0000", "score": "0.7482", "stem_weight": "0.6",
             "synonym_weight": "0.8", "paraphrase_weight": "0.6"},
            claims=(("were", "played", "paraphrase"), ("gardens", "garden", "stem"),
                    ("children", "child", "synonym"))),
    }),
    Example("Word-order penalty", "on the mat sat the cat", ("the cat sat on the mat",), {
        "meteor2005": Lesson(
            "The same {words} words in another order, and 'on the mat' stands in both sentences, yet the drawing "
            "shows {chunks} chunks. 'the' occurs twice on each side, so two alignments match every word. The 2005 "
            "aligner takes the one with fewer crossing lines ({crossings} against {meteor15_crossings}), which pairs "
            "each 'the' with the one in the same place and breaks every run (Meteor 1.5's aligner takes the other "
            "and draws {meteor15_chunks} chunks)." + _ORDER_GAMMA,
            _ORDER_FACTS, claims=(("on", "on", "exact"), ("cat", "cat", "exact"))),
        "nltk": Lesson(
            "The same {words} words in another order, and 'on the mat' stands in both sentences, yet the drawing "
            "shows {chunks} chunks. NLTK aligns greedily from the right: the candidate's second 'the' takes the "
            "reference's second 'the' and the first takes the first, which breaks every run ({crossings} crossing "
            "lines; Meteor 1.5's aligner pairs them the other way round: {meteor15_crossings} crossings, "
            "{meteor15_chunks} chunks)." + _ORDER_GAMMA,
            _ORDER_FACTS, claims=(("on", "on", "exact"), ("cat", "cat", "exact"))),
        "meteor15": Lesson(
            "The same {words} words in another order. 'the' occurs twice on each side, so two alignments match every "
            "word; Meteor 1.5's aligner takes the one with fewer chunks: it pairs the candidate's first 'the' with "
            "the reference's second, so that 'on the mat' and 'the cat' stay whole: {chunks} chunks, although "
            "{crossings} lines cross (the 2005 aligner's choice has {meteor2005_crossings} crossings and "
            "{meteor2005_chunks} chunks). With β = {beta} even {chunks} chunks of {matches} matches make the penalty "
            "{penalty}, close to the most there is (γ = {gamma}).",
            {"words": "6", "chunks": "3", "matches": "6", "crossings": "11", "meteor2005_crossings": "8",
             "meteor2005_chunks": "6", "beta": "0.2", "penalty": "0.5223", "gamma": "0.6"},
            claims=(("on", "on", "exact"), ("cat", "cat", "exact"))),
    }),
    Example("A crossing the optimal aligner avoids", "the cat sat on the mat", ("the cat sat on the mat near the door",), {
        "meteor2005": Lesson(
            "NLTK's greedy aligner works from the right: it gives the candidate's last 'the' the reference's "
            "right-most 'the' (in 'near the door'), which makes {nltk_crossings} crossing lines and {nltk_chunks} "
            "chunks. The 2005 aligner keeps all {words} words in one chunk with no crossing.",
            _CROSSING_FACTS, claims=(("mat", "mat", "exact"),)),
        "nltk": Lesson(
            "NLTK's greedy aligner works from the right: the candidate's last 'the' takes the reference's right-most "
            "'the' (in 'near the door'), and the first 'the' the one left in 'on the mat': {crossings} crossing "
            "lines and {chunks} chunks. The 2005 aligner keeps them together: {meteor2005_chunks} chunk, "
            "{meteor2005_crossings} crossings.",
            {"chunks": "4", "crossings": "4", "meteor2005_chunks": "1", "meteor2005_crossings": "0"},
            claims=(("mat", "mat", "exact"),)),
        "meteor15": Lesson(
            "Meteor 1.5's aligner, like the 2005 one, keeps all {words} words in one chunk with no crossing; NLTK's "
            "greedy aligner, working from the right, gives the last 'the' the reference's right-most one and makes "
            "{nltk_chunks} chunks. One chunk still makes the penalty {penalty} here: the reference's last words are "
            "unmatched, so Meteor 1.5's rule for sentences matched whole does not apply, and β = {beta} makes even "
            "one chunk cost much.",
            {"words": "6", "nltk_chunks": "4", "penalty": "0.4193", "beta": "0.2"},
            claims=(("mat", "mat", "exact"),)),
    }),
    Example("Several references", "the weather is nice today", ("today it is sunny outside",
                                                                 "the weather is pleasant today"),
            {"meteor2005": _SEVERAL, "nltk": _SEVERAL, "meteor15": Lesson(
                "The score is the best over the references. Reference {best} wins: 'the weather is' and 'today' "
                "match it, and Meteor 1.5's paraphrase table links nice/pleasant (WordNet does not list them as "
                "synonyms), so all {matches} words match in one chunk. The other reference matches 'is' and "
                "'today', and 'nice' there only through the paraphrase table's 'sunny': fewer matches, a lower score.",
                {"best": "2", "matches": "5"},
                claims=(("weather", "weather", "exact"), ("today", "today", "exact"),
                        ("nice", "pleasant", "paraphrase")),
                other_reference=("is", "nice", "today"))}),
)

BY_TITLE = {e.title: e for e in EXAMPLES}
