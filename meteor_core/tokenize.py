"""Tokenizers, one small function each, chosen by name from ``TOKENIZERS``.

A tokenizer maps text to a list of token strings; case folding is done later by
the scorer (``MeteorConfig.lowercase``) so the drawing can show the original words.
"""
from __future__ import annotations

import re
from typing import Callable

from . import _accel
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
    chunks, all_known = _known_split(text)
    if all_known:  # already tokenised text, words seen before
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
    found = _TOKEN_RE.findall(chunk)
    if len(found) > 1 and not chunk.isascii() and _has_clusters(chunk):
        found = _cluster_tokens(chunk)
    for token in found:
        if "'" in token or "’" in token:
            clitic = _CLITIC_RE.search(token)
            if clitic and clitic.start() > 0:
                tokens += (token[: clitic.start()], token[clitic.start():])
                continue
        tokens.append(token)
    return tuple(tokens)


# --- text whose characters combine: a token never ends inside a grapheme cluster ---------------
# _TOKEN_RE's classes are Python's: a letter is str.isalnum, which a combining mark is not, so it
# would cut "किताब" at its vowel signs, "كَتَبَ" at its harakat, an emoji family at its joiners and
# a flag between its two letters. A chunk that holds a grapheme cluster of more than one code
# point (Unicode's extended grapheme clusters, found by the regex module's \X) is tokenised by
# the same rules with marks and joiners belonging to the letter before them, and a symbol taken
# as a whole cluster. Every other chunk, whatever its script, goes through _TOKEN_RE as before.
_LETTER = r"[\p{L}\p{N}][\p{M}\u200c\u200d]*"  # a letter or digit with its marks (ZWNJ, ZWJ in words)
_CLUSTER_TOKEN_PATTERN = rf"""
    ['’](?:s|re|ve|ll|d|m|t)(?![\p{{L}}\p{{N}}\p{{M}}])
    | \d+(?:[.,:]\d+)+(?![\p{{L}}\p{{N}}\p{{M}}])
    | (?:Mr|Mrs|Ms|Dr|St|Prof|Jr|Sr|vs|etc)\.
    | (?:\p{{L}}\p{{M}}*\.){{2,}}
    | (?:{_LETTER})+(?:[-'’.](?:{_LETTER})+)*
    | \.{{2,}} | -{{2,}}
    | \X                                         # any other symbol, as a whole cluster (emoji, flag)
    """
_clusters = None  # the compiled patterns (regex module), made when first needed


def _cluster_patterns():
    global _clusters
    if _clusters is None:
        import regex  # (nltk's own dependency; imported only for text that needs it)

        _clusters = regex.compile(r"\X"), regex.compile(_CLUSTER_TOKEN_PATTERN, regex.VERBOSE)
    return _clusters


def _has_clusters(chunk: str) -> bool:
    """Whether some grapheme cluster of ``chunk`` is more than one code point."""
    return len(_cluster_patterns()[0].findall(chunk)) < len(chunk)


def _cluster_tokens(chunk: str) -> list[str]:
    """``chunk``'s tokens by the rules above, then joined wherever one would end inside a
    cluster (a mark after a dot, say): the clusters' own boundaries are the only cuts allowed."""
    clusters, pattern = _cluster_patterns()
    cuts = {m.end() for m in clusters.finditer(chunk)}
    tokens: list[str] = []
    at = 0
    for token in pattern.findall(chunk):
        if tokens and at not in cuts:
            tokens[-1] += token
        else:
            tokens.append(token)
        at += len(token)
    return tokens


_split_chunks = WordMemo(_split_chunk)  # chunks repeat ("world.", "it's"): split each one once
_C_CHUNKS = _accel.twin("meteor_core._known_chunks")


def _python_known_split(text: str) -> tuple[list[str], bool]:
    """(text.split(), whether every chunk is known to be a token by itself): one set test."""
    chunks = text.split()
    return chunks, _whole_chunks.issuperset(chunks)


# The chunks known to be a token by themselves (see punct). With the C twin, a set of its own that
# splits a line without making objects for the chunks it knows (see _known_chunks.pyx).
_whole_chunks: set[str] = set() if _C_CHUNKS is None else _C_CHUNKS.ChunkSet()
_known_split = _python_known_split if _C_CHUNKS is None else _whole_chunks.split


class NltkDataMissingError(LookupError):
    """NLTK's word_tokenize was asked for and its Punkt sentence data (punkt_tab) is not installed."""


PUNKT_FIX = ("NLTK's punkt_tab data is not installed: nltk.word_tokenize (how HF evaluate's METEOR and "
             "GenerationEval tokenise) needs it. Fix: python -c \"import nltk; nltk.download('punkt_tab')\"")


def nltk_word(text: str) -> list[str]:
    """NLTK's ``word_tokenize``: Punkt splits the text into sentences, then the Treebank-style
    word tokenizer splits each ("can't" -> "ca n't", quotes -> `` ''). HF evaluate's METEOR
    tokenises with it (NLTK >= 3.6.5); NLTK is imported when first asked for."""
    from nltk.tokenize import word_tokenize

    try:
        return word_tokenize(text)
    except LookupError:
        raise NltkDataMissingError(PUNKT_FIX) from None


TOKENIZERS: dict[str, Callable[[str], list[str]]] = {
    "whitespace": whitespace,
    "punct": punct,
    "nltk-word": nltk_word,
}


def tokenize(text: str, name: str, language: str = "en") -> list[str]:
    try:
        tokenizer = TOKENIZERS[name]
    except KeyError:
        raise ValueError(f"unknown tokenizer {name!r}; choose from {sorted(TOKENIZERS)}") from None
    return tokenizer(text, language) if name in LANGUAGE_TOKENIZERS else tokenizer(text)


# --- Meteor 1.5's -norm (the Moses tokenizer rules it ports) ----------------------------------
# A line-by-line port of edu.cmu.meteor.util.Normalizer.normalizeLine (English, punctuation
# kept), same patterns in the same order. Java's \s, \p{Digit} and \p{Lower} are ASCII-only,
# so they are spelled out here (Python's would also take other scripts' digits and spaces).

_ALPHA = "A-Za-zŠŽšžŸÀ-ÖØ-öø-žЀ-ӿԀ-ԧꙀ-ꙮ꙾-ꚗᴀ-ᵿ"  # the letter ranges of Meteor's Normalizer
_ALNUM = "0-9" + _ALPHA
_JAVA_SPACE = " \t\n\x0b\f\r"  # Java regex \s
_SEP_OTHER = re.compile(f"([^{_ALNUM}{_JAVA_SPACE}.'`,\\-‘’])")  # split off every other symbol
# The jar's replacements ("$1 , $2") as functions of the match, not re's templates (r"\1 , \2"):
# the same strings, but re parses a template again on every sub() call and fills it in with
# Python code at every match, which made these replacements a third of the tokeniser's time.
_SPACED = lambda m: f" {m[1]} "  # noqa: E731
_SPLIT = lambda m: f"{m[1]} {m[2]}"  # noqa: E731
_AROUND_COMMA = lambda m: f"{m[1]} , {m[2]}"  # noqa: E731
_AROUND_QUOTE = lambda m: f"{m[1]} ' {m[2]}"  # noqa: E731
_BEFORE_QUOTE = lambda m: f"{m[1]} '{m[2]}"  # noqa: E731
_MULTI_DOT = re.compile(r"\.([.]+)")  # protect "..." as DOTMULTI..
_COMMAS = (re.compile(r"([^0-9]),([^0-9])"), re.compile(r"([0-9]),([^0-9])"), re.compile(r"([^0-9]),([0-9])"))
_QUOTE = re.compile(r"[`‘’]")
_DOUBLE_QUOTE = re.compile(r"[“”]|''")
_RM_DASH = re.compile(rf"([{_ALNUM}.])-([{_ALNUM}])")  # intra-word hyphens go (one pass, as the jar)
_APOSTROPHES = (  # English: contractions split to the right ("do n't" is Moses's, "it 's" too)
    (re.compile(rf"([^{_ALPHA}])'([^{_ALPHA}])"), _AROUND_QUOTE),
    (re.compile(rf"([^{_ALPHA}0-9])'([{_ALPHA}])"), _AROUND_QUOTE),
    (re.compile(rf"([{_ALPHA}])'([^{_ALPHA}])"), _AROUND_QUOTE),
    (re.compile(rf"([{_ALPHA}])'([{_ALPHA}])"), _BEFORE_QUOTE),
    (re.compile(r"([0-9])'(s)"), _BEFORE_QUOTE),  # 1990's
)
_HAS_ALPHA = re.compile(f"[{_ALPHA}]")
_HAS_DIGIT = re.compile("[0-9]")
_JAVA_TOKENS = re.compile(r"[^ \t\n\r\f]+")  # what java.util.StringTokenizer splits off
_DOTTED_WORD = re.compile(r"[^ \t\n\r\f]\.(?:[ \t\n\r\f]|$)")  # a token of 2+ characters ending in "."
_UNICODE_SPACE = re.compile("[ \u2000-\u200a\u202f\u205f\u3000\xa0]+")  # the jar's final whitespace rule
# What str.split() takes for whitespace and StringTokenizer does not (the jar's final rule's
# spaces among them): in a text without any, str.split() splits as _JAVA_TOKENS, 3x faster.
_NOT_JAVA_SPACE = re.compile("[\x0b\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")


_APOSTROPHES_FR = (  # French: contractions split to the left ("l' homme")
    (re.compile(rf"([^{_ALPHA}])'([^{_ALPHA}])"), _AROUND_QUOTE),
    (re.compile(rf"([^{_ALPHA}])'([{_ALPHA}])"), _AROUND_QUOTE),
    (re.compile(rf"([{_ALPHA}])'([^{_ALPHA}])"), _AROUND_QUOTE),
    (re.compile(rf"([{_ALPHA}])'([{_ALPHA}])"), lambda m: f"{m[1]}' {m[2]}"),
)
_PUNCT_STRIP = re.compile(f"[^{_ALNUM}]+")  # -noPunct: every character outside the jar's alnum set
_DOTMULTI_RUN = re.compile(r"DOTMULTI(\.*)")  # a protected run and the dots still after it
_DOTS_PROTECTED = re.compile(r"(?:DOT)+MULTI")  # what the jar turns back into dots
# _spaced_line in C (_norm_line.pyx) for English, when built and up to date (else None).
_C_LINE = _accel.twin("meteor_core._norm_line")


def _has_odd_space(text: str) -> bool:
    """Whether the text holds a space that str.split() takes and StringTokenizer does not.
    (In C: _norm_line.odd_space.)"""
    return _NOT_JAVA_SPACE.search(text) is not None


def _has_dotted_word(line: str) -> bool:
    """Whether a token of two or more characters ends in "." (a dot after a space starts a
    token: only one after another character can end a word). (In C: _norm_line.dotted_word.)"""
    return line.count(".") != line.count(" .") and _DOTTED_WORD.search(line) is not None


# (the regexes' scans cost ~0.7 us a line; the C loops a fifth of that)
_odd_space = _C_LINE.odd_space if _C_LINE is not None else _has_odd_space
_dotted_word = _C_LINE.dotted_word if _C_LINE is not None else _has_dotted_word


def meteor_norm(text: str, language: str = "en") -> list[str]:
    """Meteor 1.5's ``-norm`` tokenisation (lowercasing is left to the config, as elsewhere), for
    a language with a normaliser (en, cs, fr, es, de, ru; the configuration refuses the others).

    Quirks kept: one pass of hyphen removal ("seven-and-a-half" -> "seven and a-half"), dotted
    abbreviations lose their dots ("U.S." -> "US", "I.Q.," -> "IQ ,"), "--" becomes "-";
    apostrophes split to the right in English ("do n't"), to the left in French ("l' homme"),
    on both sides in the others. The non-breaking prefixes are the language's, read from the
    user's Meteor 1.5 jar: without a jar, every call raises jar_resources.JarMissingError.
    Linear in the text's length (the jar's own loops over runs of dots are quadratic)."""
    return _normalised(text, language, True)


def meteor_norm_nopunct(text: str, language: str = "en") -> list[str]:
    """``-norm -noPunct``: as meteor_norm, then every character outside the jar's letters and
    digits becomes a space."""
    return _normalised(text, language, False)


# Lines already normalised, per (language, keep_punctuation): the same lines come back rerun after
# rerun (a dataset scored again with other settings, the peers' passes), and a dict hit costs a
# fraction of the replacements. A line's words are kept as a tuple of strings, each distinct word
# one string shared by every line that holds it (_kept_words: memory grows with the vocabulary,
# not with the lines' words): a hit hands back the same string objects every time, their hashes
# computed once for the lowercase memo and the aligner's vocabulary, at the cost of a list copy
# (splitting a kept line made new strings, hashed again downstream: ~3% of a warm meteor15 pass).
# The garbage collector stops tracking a tuple of strings at its first look. Each memo belongs to
# the prefixes it was made with (a different jar gets a fresh one) and is emptied when it reaches
# NORMALISED_KEPT lines (_kept_words when it holds that many words).
NORMALISED_KEPT = 100_000
_normalised_lines: dict[tuple[str, bool], tuple[dict, dict[str, tuple[str, ...]]]] = {}
_kept_words: dict[str, str] = {}


def forget_normalised_lines() -> None:
    """Empty the -norm line memos (their keys are a user's text): the app's server calls this once
    a visitor's session has gone (components/session_cleanup.py)."""
    _normalised_lines.clear()
    _kept_words.clear()


def _normalised(text: str, language: str, keep_punctuation: bool) -> list[str]:
    prefixes = nonbreaking_prefixes(language)  # (read once, then a cache hit; without a jar it raises)
    kept = _normalised_lines.get((language, keep_punctuation))
    if kept is None or kept[0] is not prefixes:
        kept = _normalised_lines[language, keep_punctuation] = (prefixes, {})
    lines = kept[1]
    found = lines.get(text)
    if found is not None:
        return list(found)
    apostrophes = _APOSTROPHE_RULES.get(language, "other")
    odd_spaces = _odd_space(text)  # (the patterns below add none)
    words = _meteor_norm(text, prefixes, _JAVA_TOKENS.findall if odd_spaces else str.split, odd_spaces,
                         apostrophes, keep_punctuation)
    if len(lines) >= NORMALISED_KEPT:
        lines.clear()
    if len(_kept_words) >= NORMALISED_KEPT:
        _kept_words.clear()
    kept_words: dict = _kept_words  # (typed: compiled, setdefault is a C call)
    words = [kept_words.setdefault(word, word) for word in words]
    lines[text] = tuple(words)
    return words


# Which of Normalizer.normalizeLine's apostrophe rules a language takes (languages.Language.normalizer).
_APOSTROPHE_RULES = {"en": "en", "fr": "fr"}


def _meteor_norm(text: str, prefixes: dict[str, int], split: Callable[[str], list[str]], odd_spaces: bool,
                 apostrophes: str = "en", keep_punctuation: bool = True) -> list[str]:
    line = _C_LINE.spaced_line(text) if _C_LINE is not None and apostrophes == "en" else None
    if line is None:
        line = _spaced_line(text, apostrophes)
    words = split(line)
    if _dotted_word(line):
        words = _split_final_dots(words, prefixes)
    if "MULTI" in line:  # (dropping the dots of "DOT.MULTI." also makes a "DOTMULTI" the jar unescapes)
        words = split(_DOTS_PROTECTED.sub(_as_dots, " ".join(words)))
    if not keep_punctuation:
        words = split(_PUNCT_STRIP.sub(" ", " ".join(words)))
    if odd_spaces:
        words = split(_UNICODE_SPACE.sub(" ", " ".join(words)))
    return words


def _spaced_line(text: str, apostrophes: str = "en") -> str:
    """normalizeLine's replacements, before the line is split into words: symbols, runs of dots,
    commas, quotes, hyphens and apostrophes spaced or replaced as the jar does. (Its C twin, for
    English lines without runs of dots: _norm_line.pyx.)"""
    line = _SEP_OTHER.sub(_SPACED, " " + text + " ")
    digits = _HAS_DIGIT.search(line) is not None  # (the patterns that need a digit are skipped without)
    if ".." in line or "DOTMULTI" in line:
        line = _protect_dots(_MULTI_DOT.sub(r" DOTMULTI\1", line))
    if "," in line:
        for pattern in _COMMAS if digits else _COMMAS[:1]:
            line = _sub_near(pattern, _AROUND_COMMA, line, ",")
    if "`" in line or "‘" in line or "’" in line:
        line = _QUOTE.sub("'", line)
    if "“" in line or "”" in line or "''" in line:
        line = _DOUBLE_QUOTE.sub(' " ', line)
    if "-" in line or "–" in line:
        line = _sub_near(_RM_DASH, _SPLIT, line.replace("–", "-").replace("--", "-"), "-")
    if "'" in line:
        if apostrophes == "en":
            for pattern, replacement in _APOSTROPHES if digits else _APOSTROPHES[:4]:
                line = _sub_near(pattern, replacement, line, "'")
        elif apostrophes == "fr":
            for pattern, replacement in _APOSTROPHES_FR:
                line = _sub_near(pattern, replacement, line, "'")
        else:
            line = line.replace("'", " ' ")
    return line


def _as_dots(match: re.Match) -> str:
    """The jar's unescaping, in one pass: it turns "DOTDOTMULTI" into "DOTMULTI." until none is
    left, then "DOTMULTI" into ".", so DOT repeated j times before MULTI becomes j dots."""
    return "." * ((len(match[0]) - 5) // 3)


def _protect_dots(line: str) -> str:
    """What the jar's loop makes of a line once runs of dots are "DOTMULTI" and their other dots
    (`while (line.contains("DOTMULTI.")) { r_multi_dot2 -> "DOTDOTMULTI $1"; "DOTMULTI." ->
    "DOTDOTMULTI" }`), in one pass instead of one pass per dot.

    Each round takes one dot after every "DOTMULTI" and puts a "DOT" before it, so a run of m dots
    becomes DOT repeated m times in front. In the round that takes the last dot, the regex also
    puts a space between the run and the character after it, unless that character (the "D" of
    a run right after, which ends in the same round) was consumed by the previous run's match:
    of adjacent runs ending together, every other one gets the space."""
    out = []
    last = 0
    previous_end, previous_dots, previous_spaced = -1, -1, False
    for match in _DOTMULTI_RUN.finditer(line):
        dots = len(match[1])
        blocked = (dots > 0 and match.start() == previous_end and dots == previous_dots and previous_spaced)
        spaced = dots > 0 and not blocked and match.end() < len(line)
        out += (line[last:match.start()], "DOT" * dots, "DOTMULTI", " " if spaced else "")
        last = match.end()
        previous_end, previous_dots, previous_spaced = match.end(), dots, spaced
    out.append(line[last:])
    return "".join(out)


def _sub_near(pattern: re.Pattern, replacement: Callable, line: str, middle: str) -> str:
    """pattern.sub(replacement, line) for a pattern of three single characters, ``middle`` the
    second: a match starts one character before a ``middle`` and ends one after, so only that
    stretch of the line is searched (the regex engine would try every position of it)."""
    first = line.find(middle)
    if first < 0:
        return line
    start, end = max(first - 1, 0), line.rfind(middle) + 2
    return line[:start] + pattern.sub(replacement, line[start:end]) + line[end:]


def _split_final_dots(words: list[str], prefixes: dict[str, int]) -> list[str]:
    """A word's final dot becomes a token unless the word is a non-breaking prefix ("Mr."),
    comes before a lowercase word, or before a number (prefixes such as "No."); dotted
    abbreviations ("U.S.") lose their dots instead."""
    dotted = [k for k, word in enumerate(words) if word[-1] == "." and len(word) > 1]
    if not dotted:
        return words
    out = words[:dotted[0]]
    last = len(words) - 1
    for k in range(dotted[0], len(words)):
        word = words[k]
        if len(word) > 1 and word[-1] == ".":
            pre = word[:-1]
            kind = prefixes.get(pre)
            following = words[k + 1][:1] if k < last else ""
            if "." in pre and _HAS_ALPHA.search(pre):
                out.append(word.replace(".", ""))
            elif kind == 1 or "a" <= following <= "z":
                out.append(word)
            elif kind == 2 and "0" <= following <= "9":
                out.append(word)
            else:
                out += (pre, ".")
        else:
            out.append(word)
    return out


def meteor_space(text: str) -> list[str]:
    """What the jar tokenises without -norm (and with -lower): java.util.StringTokenizer's split
    at space, tab, newline, carriage return and form feed only (str.split also splits at other
    Unicode spaces, which the jar keeps inside a token)."""
    return _JAVA_TOKENS.findall(text) if _NOT_JAVA_SPACE.search(text) else text.split()


TOKENIZERS["meteor-norm"] = meteor_norm
TOKENIZERS["meteor-norm-nopunct"] = meteor_norm_nopunct
TOKENIZERS["meteor-space"] = meteor_space
# The tokenizers whose rules depend on the language (the others are called with the text alone).
LANGUAGE_TOKENIZERS = frozenset({"meteor-norm", "meteor-norm-nopunct"})
