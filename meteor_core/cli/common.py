"""What every subcommand shares: the configuration arguments, argument -> MeteorConfig, one way
to report an error (one line on stderr, exit code 2), and terminal-safe text output."""
from __future__ import annotations

import argparse
import math
import os
import sys
from dataclasses import replace
from functools import lru_cache

from .. import languages
from ..deadline import Deadline, OverBudget
from ..config import PARAMETER_RANGES, PRESET_NAMES, SYNONYM_SOURCES, UNICODE_FORMS, MeteorConfig, check_parameter
from ..jar_resources import JarMissingError
from ..parallel import MIN_PARALLEL_ITEMS, available_cores
from ..resources import WordNetMissingError
from ..textio import InputError
from ..tokenize import TOKENIZERS, NltkDataMissingError

# What a subcommand turns into a one-line message instead of a traceback.
USER_ERRORS = (InputError, WordNetMissingError, JarMissingError, NltkDataMissingError, ValueError, OverBudget)
# The time limit of one compare or agree command unless --time-limit says otherwise: work the
# caps allow can still multiply out far beyond any useful run (1,000 systems: 499,500 pairs).
TIME_LIMIT_SECONDS = 3600.0


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    """--preset, the language and modules, --no-synonyms and the parameter overrides, the same on
    every subcommand."""
    parser.add_argument("--preset", default="meteor2005", choices=PRESET_NAMES)
    parser.add_argument("--lang", "--language", dest="lang", default="en", metavar="LANG",
                        help="the language of the translations and references: " + ", ".join(languages.LANGUAGES)
                             + " (also the jar's names: cz, se, english, german, ...). Meteor 1.5's stemmer, "
                             "function words, -norm rules, parameters and paraphrase table for it (default en)")
    parser.add_argument("--task", choices=languages.TASKS,
                        help="meteor15: the jar's -t, whose α β γ δ and module weights to take (default: rank for "
                             "en cs fr es de ru, li for the other languages)")
    parser.add_argument("--modules", nargs="+", metavar="MODULE",
                        help="the modules to run, in the order exact stem synonym paraphrase (the jar's -m; meteor15 "
                             "gives them the task's weights by position, as the jar does; the other presets run "
                             "them as stages)")
    parser.add_argument("--weights", nargs="+", metavar="W",
                        help="meteor15: the modules' weights (the jar's -w), by position in --modules")
    parser.add_argument("--paraphrase-table", metavar="PATH",
                        help="meteor15: a Meteor-format paraphrase table (default: the jar's for the language, "
                             "data/paraphrase-<lang>.gz beside it, when present)")
    parser.add_argument("--tokenizer", choices=sorted(TOKENIZERS),
                        help="meteor-norm is the jar's -norm (meteor15's default where the jar has one), "
                             "meteor-space its -lower or no normalisation (with --keep-case), meteor-norm-nopunct "
                             "-norm -noPunct")
    parser.add_argument("--function-words", choices=("jar", "language", "none"),
                        help="meteor15: 'jar' is the list the jar uses in every language, its English one (the "
                             "default: -l de weighs English function words, as the jar does); 'language' the "
                             "language's own list in the jar (the jar's -s function/<language>.words)")
    parser.add_argument("--char-based", action="store_true",
                        help="meteor15: count lengths and matches in characters (the jar's -ch)")
    parser.add_argument("--keep-case", action="store_true", help="do not lowercase (the jar without -lower/-norm)")
    parser.add_argument("--normalize", choices=[f.lower() for f in UNICODE_FORMS],
                        help="Unicode normalisation before tokenising (default: nfc for meteor2005; none for nltk "
                             "and meteor15, as NLTK and the jar take text as given)")
    parser.add_argument("--no-synonyms", action="store_true", help="score without the synonym stage")
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


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not (math.isfinite(seconds) and seconds >= 0):
        raise argparse.ArgumentTypeError(f"expected a number of seconds >= 0 (0: no limit), got {text!r}")
    return seconds


def add_time_limit_argument(parser: argparse.ArgumentParser) -> None:
    """--time-limit SECONDS: the command stops with a message saying how far it got."""
    parser.add_argument("--time-limit", type=_seconds, default=TIME_LIMIT_SECONDS, metavar="SECONDS",
                        help=f"stop with a message once the work has taken this long (default {TIME_LIMIT_SECONDS:g} "
                             "s; 0: no limit)")


def time_limit(args: argparse.Namespace, what: str) -> Deadline:
    """The budget --time-limit sets for ``what`` (its message names the flag)."""
    return Deadline(args.time_limit or math.inf, what, limit="--time-limit; 0 for no limit")


def build_config(args: argparse.Namespace) -> MeteorConfig:
    """The configuration the arguments name (ValueError, with the jar's wording where it refuses
    the same choice, for a combination that does not exist)."""
    preset = args.preset
    chosen = {"language": args.lang}
    if preset == "meteor15":
        chosen.update(task=args.task, modules=args.modules, weights=_weights(args.weights))
    else:
        for flag, value in (("--task", args.task), ("--weights", args.weights)):
            if value is not None:
                raise ValueError(f"{flag} is Meteor 1.5's (--preset meteor15); {preset} has no module weights or tasks")
        if args.modules is not None:
            chosen["stages"] = tuple(args.modules)
    if args.paraphrase_table is not None:
        chosen["paraphrase_table"] = args.paraphrase_table
    config = MeteorConfig.preset(preset, **chosen)
    overrides = {k: check_parameter(k, getattr(args, k)) for k in PARAMETER_RANGES if getattr(args, k) is not None}
    if args.no_synonyms:
        overrides["stages"] = tuple(s for s in config.stages if s != "synonym")
    if args.synonyms_from:
        overrides["synonym_source"] = args.synonyms_from
    if args.tokenizer:
        overrides["tokenizer"] = args.tokenizer
    if args.keep_case:
        overrides["lowercase"] = False
    if args.function_words:
        overrides["function_words"] = args.function_words
    if args.char_based:
        overrides["char_based"] = True
    if args.normalize:
        overrides["normalize"] = args.normalize
    return replace(config, **overrides) if overrides else config


def _weights(values: list[str] | None) -> tuple[float, ...] | None:
    if values is None:
        return None
    try:
        return tuple(float(v) for v in values)
    except ValueError:
        raise ValueError(f"--weights takes numbers (one per module); got {' '.join(values)}"[:200]) from None


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


class OutputError(Exception):
    """The results could not be written (a full disk, a device that refuses them); one line."""


class CheckedOutput:
    """A text stream whose write and flush errors become OutputError (a broken pipe stays a
    BrokenPipeError: the reader stopped, which is no error); everything else is the wrapped
    stream's."""

    def __init__(self, stream):
        self._stream = stream

    def _checked(self, call, *args):
        try:
            return call(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(f"cannot write the output ({exc.strerror or exc})") from None

    def write(self, text: str) -> int:
        return self._checked(self._stream.write, text)

    def flush(self) -> None:
        self._checked(self._stream.flush)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def silence_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last flush at exit does not
    fail again on what could not be written."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


class VisibleText:
    """A text stream that writes through ``visible``; everything else (isatty, fileno, flush,
    encoding) is the wrapped stream's."""

    def __init__(self, stream, keep: str = ""):
        self._stream, self._keep = stream, keep

    def write(self, text: str) -> int:
        return self._stream.write(visible(text, self._keep))

    def __getattr__(self, name):
        return getattr(self._stream, name)

