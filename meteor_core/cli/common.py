"""What every subcommand shares: the configuration arguments, argument -> MeteorConfig, one way
to report an error (one line on stderr, exit code 2), and terminal-safe text output."""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from functools import lru_cache

from ..config import PARAMETER_RANGES, PRESET_NAMES, SYNONYM_SOURCES, MeteorConfig, check_parameter
from ..jar_resources import JarMissingError
from ..parallel import MIN_PARALLEL_ITEMS, available_cores
from ..resources import WordNetMissingError
from ..textio import InputError
from ..tokenize import NltkDataMissingError

# What a subcommand turns into a one-line message instead of a traceback.
USER_ERRORS = (InputError, WordNetMissingError, JarMissingError, NltkDataMissingError, ValueError)


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    """--preset, --no-synonyms and the parameter overrides, the same on every subcommand."""
    parser.add_argument("--preset", default="meteor2005", choices=PRESET_NAMES)
    parser.add_argument("--no-synonyms", action="store_true", help="score without the WordNet synonym stage")
    parser.add_argument("--synonyms-from", choices=SYNONYM_SOURCES,
                        help="synonyms from NLTK's WordNet or from the Meteor 1.5 jar's own files (meteor15's "
                             "default; its function words and -norm prefixes always come from the jar: METEOR_JAR, "
                             "pycocoevalcap). The signature says which: syn:wordnet-3.0 or syn:meteor1.5-jar")
    for name in PARAMETER_RANGES:  # text, checked by MeteorConfig: the library's ranges and messages
        low, high = PARAMETER_RANGES[name]
        parser.add_argument(f"--{name}", metavar=name.upper(),
                            help=f"{low:g} to {high:g}" + (" (Meteor 1.x scoring only)" if name == "delta" else ""))


def _job_count(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        jobs = -1
    if jobs < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0 (0: every core), got {text!r}")
    return jobs


def add_jobs_argument(parser: argparse.ArgumentParser) -> None:
    """--jobs N: processes to score in, every core by default."""
    parser.add_argument("--jobs", type=_job_count, default=0, metavar="N",
                        help=f"processes to score in (default 0: every core, {available_cores()} here); "
                             f"inputs under {MIN_PARALLEL_ITEMS:,} segments, and the nltk preset by default, "
                             "are scored in one")


def build_config(args: argparse.Namespace) -> MeteorConfig:
    config = MeteorConfig.preset(args.preset)
    overrides = {k: check_parameter(k, getattr(args, k)) for k in PARAMETER_RANGES if getattr(args, k) is not None}
    if args.no_synonyms:
        overrides["stages"] = tuple(s for s in config.stages if s != "synonym")
    if args.synonyms_from:
        overrides["synonym_source"] = args.synonyms_from
    return replace(config, **overrides) if overrides else config


def fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


# Control characters (C0 but newline, DEL, C1) and Unicode's invisible direction and format marks,
# written as escapes. File, system and column names reach the terminal in text output and error
# messages, where an escape sequence could retitle, recolour or rewrite the screen and a
# right-to-left override could reorder what is shown. Exact formats (tsv, jsonl, json) are data
# and stay as they are (json escapes control characters itself).
_HIDDEN = {c: f"\\x{c:02x}" for c in (*range(0x20), 0x7F, *range(0x80, 0xA0)) if c != 0x0A}
_HIDDEN.update({c: f"\\u{c:04x}" for c in (*range(0x200B, 0x2010), *range(0x202A, 0x202F),
                                             *range(0x2060, 0x2065), *range(0x2066, 0x206A), 0xFEFF)})


@lru_cache(maxsize=None)
def _escapes(keep: str) -> dict[int, str]:
    """The translation table that keeps ``keep`` (made once per ``keep``, not per write)."""
    return {c: v for c, v in _HIDDEN.items() if chr(c) not in keep}


def visible(text: str, keep: str = "") -> str:
    """``text`` with every control or invisible character as an escape (newlines and ``keep`` kept)."""
    return text.translate(_escapes(keep))


class VisibleText:
    """A text stream that writes through ``visible``; everything else (isatty, fileno, flush,
    encoding) is the wrapped stream's."""

    def __init__(self, stream, keep: str = ""):
        self._stream, self._keep = stream, keep

    def write(self, text: str) -> int:
        return self._stream.write(visible(text, self._keep))

    def __getattr__(self, name):
        return getattr(self._stream, name)

