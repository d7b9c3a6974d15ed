"""The punct tokenizer: hand-checked examples, and its shortcut for chunks seen before."""
import pytest
from hypothesis import given, settings, strategies as hs

from meteor_core import tokenize as tk
from meteor_core.tokenize import punct


@pytest.mark.parametrize("text, tokens", [
    ("I don't like Derek K. Miller's e-mail, it's 3.5 U.S. dollars... Mr. Smith said: \"no\"!",
     ["I", "do", "n't", "like", "Derek", "K.", "Miller", "'s", "e-mail", ",", "it", "'s", "3.5", "U.S.",
      "dollars", "...", "Mr.", "Smith", "said", ":", '"', "no", '"', "!"]),
    ("they 're here , do n't go .", ["they", "'re", "here", ",", "do", "n't", "go", "."]),
    ("we don 't know 'tis", ["we", "don", "'t", "know", "'", "tis"]),  # Moses splits before the apostrophe
    ("the letter K. is odd", ["the", "letter", "K", ".", "is", "odd"]),  # an initial only before a name
    ("rock'n'roll at 10:30 -- ok", ["rock'n'roll", "at", "10:30", "--", "ok"]),
])
def test_punct_examples(text, tokens):
    assert punct(text) == tokens
    assert punct(text) == tokens  # the second time every chunk has been seen


def _slow_punct(text: str) -> list[str]:
    """punct with no chunk known yet (the chunk-by-chunk path)."""
    saved = set(tk._whole_chunks)
    tk._whole_chunks.clear()
    try:
        return punct(text)
    finally:
        tk._whole_chunks.clear()
        tk._whole_chunks.update(saved)


# Chunks whose tokens depend on what follows ("K." before a capital), split ones, and plain ones.
CHUNKS = ["K.", "A.", "Miller", "miller", "the", ",", ".", "n't", "'s", "'t", "'tis", "it's", "world.", "e-mail",
          "U.S.", "3.5", "hop-", "...", "Mr.", "(a)", "«x»", "Ünïcode", "x_y", "10:30"]


@settings(max_examples=300, deadline=None)
@given(hs.lists(hs.lists(hs.sampled_from(CHUNKS), min_size=1, max_size=8), min_size=1, max_size=6))
def test_seen_chunks_shortcut_gives_the_same_tokens(texts):
    # Tokenise a run of texts in order (so that chunks become known) and each text alone.
    for words in texts:
        text = " ".join(words)
        assert punct(text) == _slow_punct(text), text


# --- scripts whose characters combine (issue 30, item 8) -------------------------------------
# punct cut words at every character that is not str.isalnum: Indic vowel signs and viramas, Thai
# vowels and tones, Arabic harakat, Hebrew niqqud, joiners and emoji modifiers were tokens of
# their own, so "किताब" (book) and "दिमाग" (brain) shared two "exact" matches.

@pytest.mark.parametrize("text, tokens", [
    ("किताब दिमाग", ["किताब", "दिमाग"]),  # Devanagari: vowel signs ि ा
    ("क्षत्रिय की", ["क्षत्रिय", "की"]),  # virama ्
    ("ভাষা, বাংলা।", ["ভাষা", ",", "বাংলা", "।"]),  # Bengali
    ("தமிழ் மொழி", ["தமிழ்", "மொழி"]),  # Tamil: pulli ்
    ("ภาษาไทย ที่นี่", ["ภาษาไทย", "ที่นี่"]),  # Thai: vowel and tone marks
    ("كَتَبَ الوَلَدُ.", ["كَتَبَ", "الوَلَدُ", "."]),  # Arabic with harakat
    ("שָׁלוֹם עוֹלָם", ["שָׁלוֹם", "עוֹלָם"]),  # Hebrew with niqqud
    ("\u1112\u1161\u11ab\u1100\u1173\u11af", ["\u1112\u1161\u11ab\u1100\u1173\u11af"]),  # Hangul conjoining jamo
    ("می\u200cخواهم", ["می\u200cخواهم"]),  # Persian: a zero-width non-joiner inside a word
    ("hi 👨\u200d👩\u200d👧!", ["hi", "👨\u200d👩\u200d👧", "!"]),  # an emoji ZWJ sequence
    ("🇸🇰🇨🇿 👍🏽 1️⃣", ["🇸🇰", "🇨🇿", "👍🏽", "1️⃣"]),  # flags, a skin tone, a keycap
    ("(किताब) दिमाग's", ["(", "किताब", ")", "दिमाग", "'s"]),  # punctuation and clitics as before
])
def test_marks_belong_to_their_letter(text, tokens):
    assert punct(text) == tokens
    assert _slow_punct(text) == tokens


def test_words_sharing_only_vowel_signs_do_not_match():
    from meteor_core import MeteorConfig, score

    config = MeteorConfig.meteor2005()
    assert score("किताब", ["दिमाग"], config).score == 0.0  # was 0.20: two "exact" vowel signs
    assert score("किताब", ["किताब"], config).matches == 1


def _old_split(chunk: str) -> list[str]:
    """The chunk rules before grapheme clusters were known: _TOKEN_RE, then the clitic split."""
    out = []
    for token in tk._TOKEN_RE.findall(chunk):
        clitic = tk._CLITIC_RE.search(token) if ("'" in token or "’" in token) else None
        out += [token[:clitic.start()], token[clitic.start():]] if clitic and clitic.start() > 0 else [token]
    return out


# Letters, digits, punctuation and symbols of many scripts, combining marks, joiners, emoji parts.
_PIECES = list("abcXYZ019.,'’-:!?()\"$%") + list("éßжλ中文あ한ñøàüçğ١٢") + list("कतबदमगভষতমழாடภษไทلكتבשם") \
    + ["\u093f", "\u093e", "\u094d", "\u0e34", "\u0e48", "\u064e", "\u05b8", "\u0301", "\u200c", "\u200d",
       "\ufe0f", "\u20e3", "👨", "👩", "🇸", "🇰", "🏽", " "]


@settings(max_examples=300, deadline=None)
@given(hs.lists(hs.sampled_from(_PIECES), max_size=30).map("".join))
def test_tokens_tile_the_text_and_never_cut_a_cluster(text):
    import regex

    for chunk in text.split():
        tokens = tk._split_chunk(chunk)
        assert "".join(tokens) == chunk
        cuts = {m.end() for m in regex.finditer(r"\X", chunk)}
        ends = [sum(map(len, tokens[:k + 1])) for k in range(len(tokens))]
        assert set(ends) <= cuts, (chunk, tokens)
        if len(regex.findall(r"\X", chunk)) == len(chunk):  # no cluster of two code points: as before
            assert list(tokens) == _old_split(chunk)
