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
