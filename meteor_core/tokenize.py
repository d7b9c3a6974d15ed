"""Tokenizers, one small function each, chosen by name from ``TOKENIZERS``.

A tokenizer maps text to a list of token strings; case folding is done later by
the scorer (``MeteorConfig.lowercase``) so the drawing can show the original words.
"""
from __future__ import annotations

import re
from typing import Callable

from .resources import MEMO_LIMIT, WordMemo, nonbreaking_prefixes

# One pass finds words (inner - ' . kept: "e-mail", "rock'n'roll", "ifidie.net"), numbers,
# abbreviations and single symbols; a second, only for words with an apostrophe, splits English
# clitics off the way the TED data and the Penn Treebank do ("they 're", "do n't"). Two simple
# passes are several times faster than one regex with look-aheads at every character.
_TOKEN_RE = re.compile(
    r"""
    ['’](?:s|re|ve|ll|d|m|t)(?![^\W_])           # a clitic already split off: 's 'll (Moses: don 't)
    | \d+(?:[.,:]\d+)+(?![^\W_])                 # numbers with separators: 1,000  3.5  10:30
    | (?:Mr|Mrs|Ms|Dr|St|Prof|Jr|Sr|vs|etc)\.     # common abbreviations
    | (?:[^\W\d_]\.){2,}                          # abbreviations with dots: U.S.  e.g.
    | [^\W_]+(?:[-'’.][^\W_]+)*                   # a word
    | \.{2,} | -{2,}                             # ellipsis "..." and dashes "--"
    | \S                                         # any other single non-space symbol
    """,
    re.VERBOSE,
)
_CLITIC_RE = re.compile(r"(?:n['’]t|['’](?:s|re|ve|ll|d|m))$", re.IGNORECASE)


def whitespace(text: str) -> list[str]:
    """Split on whitespace only (what NLTK's meteor_score users mostly do)."""
    return text.split()


def punct(text: str) -> list[str]:
    """Split off punctuation and English clitics; keep numbers, abbreviations and hyphenated words whole."""
    chunks = text.split()
    if _whole_chunks.issuperset(chunks):  # already tokenised text, words seen before: one set test
        return chunks
    # Remember the chunks that are one token wherever they stand: "the", ",", "n't" (an initial
    # such as "K." depends on the next word and is never remembered).
    remember = _whole_chunks.add if len(_whole_chunks) < MEMO_LIMIT else _forget
    tokens = []
    for k, chunk in enumerate(chunks):
        if chunk in _whole_chunks:
            tokens.append(chunk)
        elif chunk.isalnum():  # most whitespace-separated chunks are plain words
            tokens.append(chunk)
            remember(chunk)
        elif len(chunk) == 2 and chunk[1] == "." and chunk[0].isupper() and k + 1 < len(chunks) \
                and chunks[k + 1][:1].isupper():
            tokens.append(chunk)  # an initial before a name: Derek K. Miller
        else:
            split = _split_chunks[chunk]
            tokens += split
            if split == (chunk,):
                remember(chunk)
    return tokens


def _forget(chunk: str) -> None:
    """Stands in for remembering once MEMO_LIMIT chunks are known."""


def _split_chunk(chunk: str) -> tuple[str, ...]:
    tokens = []
    for token in _TOKEN_RE.findall(chunk):
        if "'" in token or "’" in token:
            clitic = _CLITIC_RE.search(token)
            if clitic and clitic.start() > 0:
                tokens += (token[: clitic.start()], token[clitic.start():])
                continue
        tokens.append(token)
    return tuple(tokens)


_split_chunks = WordMemo(_split_chunk)  # chunks repeat ("world.", "it's"): split each one once
_whole_chunks: set[str] = set()  # chunks known to be a token by themselves (see punct)


TOKENIZERS: dict[str, Callable[[str], list[str]]] = {
    "whitespace": whitespace,
    "punct": punct,
}


def tokenize(text: str, name: str) -> list[str]:
    try:
        return TOKENIZERS[name](text)
    except KeyError:
        raise ValueError(f"unknown tokenizer {name!r}; choose from {sorted(TOKENIZERS)}") from None


# --- Meteor 1.5's -norm (the Moses tokenizer rules it ports) ----------------------------------

_ALPHA = "A-Za-zŠŽšžŸÀ-ÖØ-öø-žЀ-ӿԀ-ԧꙀ-ꙮ꙾-ꚗᴀ-ᵿ"  # the letter ranges of Meteor's Normalizer
_ALNUM = "0-9" + _ALPHA
_NORM_STEPS = [
    (re.compile(rf"([^{_ALNUM}\s.'`,\-‘’])"), r" \1 "),  # split off every other symbol
    (re.compile(r"\.([.]+)"), r" DOTMULTI\1"),  # protect "..."
    (re.compile(r"([^\d]),([^\d])"), r"\1 , \2"),  # commas, except inside numbers
    (re.compile(r"(\d),([^\d])"), r"\1 , \2"),
    (re.compile(r"([^\d]),(\d)"), r"\1 , \2"),
    (re.compile(r"[`‘’]"), "'"),  # quote and dash normalisation
    (re.compile(r"[“”]|''"), ' " '),
    (re.compile("–"), "-"),
    (re.compile(rf"([^{_ALPHA}])'([^{_ALPHA}])"), r"\1 ' \2"),  # English apostrophes
    (re.compile(rf"([^{_ALPHA}\d])'([{_ALPHA}])"), r"\1 ' \2"),
    (re.compile(rf"([{_ALPHA}])'([^{_ALPHA}])"), r"\1 ' \2"),
    (re.compile(rf"([{_ALPHA}])'([{_ALPHA}])"), r"\1 '\2"),
    (re.compile(r"(\d)'(s)"), r"\1 '\2"),
]


_HYPHEN = re.compile(rf"([{_ALNUM}.])-([{_ALNUM}])")  # the jar's s_rm_dash: intra-word hyphens go


def meteor_norm(text: str) -> list[str]:
    """Meteor 1.5's ``-norm`` tokenisation (lowercasing is left to the config, as elsewhere)."""

    text = " " + " ".join(text.split()) + " "
    for pattern, replacement in _NORM_STEPS[:2]:
        text = pattern.sub(replacement, text)
    while "DOTMULTI." in text:
        text = re.sub(r"DOTMULTI\.([^.])", r"DOTDOTMULTI \1", text)
        text = text.replace("DOTMULTI.", "DOTDOTMULTI")
    for pattern, replacement in _NORM_STEPS[2:]:
        text = pattern.sub(replacement, text)
    while (joined := _HYPHEN.sub(r"\1 \2", text)) != text:  # "family-friendly" -> "family friendly"
        text = joined
    words = text.split()
    prefixes = nonbreaking_prefixes()
    out = []
    for k, word in enumerate(words):
        if word.endswith(".") and len(word) > 1:
            pre = word[:-1]
            following = words[k + 1] if k + 1 < len(words) else ""
            keep = ("." in pre and re.search(f"[{_ALPHA}]", pre)) or prefixes.get(pre) == 1 \
                or (following[:1].islower())
            keep = keep or (prefixes.get(pre) == 2 and following[:1].isdigit())
            if not keep:
                out += [pre, "."]
                continue
        out.append(word)
    return _restore_dots(out)


def _restore_dots(words: list[str]) -> list[str]:
    # "DOTDOTMULTI" stands for one more "." than "DOTMULTI": expand them back to dots.
    out = []
    for w in words:
        while "DOTDOTMULTI" in w:
            w = w.replace("DOTDOTMULTI", "DOTMULTI.")
        out.append(w.replace("DOTMULTI", "."))
    return out


TOKENIZERS["meteor-norm"] = meteor_norm
