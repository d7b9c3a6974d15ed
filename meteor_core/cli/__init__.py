"""Command line: one entry point with subcommands; each subcommand module parses its arguments,
calls the library and formats the result.

    python -m meteor_core [score] --hyp FILE --ref FILE ...   # score is the default
    python -m meteor_core compare ...   # systems side by side (compare.py)
    python -m meteor_core explain ...   # why two configurations disagree (explain.py)
    python -m meteor_core agree ...     # agreement with human judgments, tuning (agree.py)
    python -m meteor_core setup         # make WordNet 3.0 available to NLTK
    python -m meteor_core app [streamlit options]   # start the explorer (app.py)
    python -m meteor_core info          # the version and the compiled core's modules (also --version)

Installed with pip, the `meteor` command is the same entry point (pyproject.toml).

A subcommand module has ``configure(parser)`` and ``run(args) -> int``; one with
``PASS_THROUGH = True`` gets the arguments it does not know in ``args.passed_through``.
The library never imports this package.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from ..parallel import stop_pools
from .common import CheckedOutput, OutputError, VisibleText, fail, silence_stdout
from .interrupt import interruptible, taken

# subcommand -> (its module, one line of help). A module is imported only when its subcommand
# is chosen: scoring need not load numpy.
COMMANDS = {
    "score": ("score", "score a hypothesis file against reference files (the default)"),
    "compare": ("compare", "systems side by side: corpus table and paired bootstrap"),
    "explain": ("explain", "why two configurations disagree, factor by factor"),
    "agree": ("agree", "agreement of METEOR, BLEU, chrF, TER with human judgments; tune METEOR on them"),
    "setup": ("setup", "make WordNet 3.0 available to NLTK"),
    "app": ("app", "start the explorer (streamlit options follow)"),
    "info": ("info", "the version, and whether the compiled core is active"),
}
DEFAULT_COMMAND = "score"


def _program() -> str:
    """How the user called us: the installed `meteor` command or `python -m meteor_core`."""
    return "meteor" if os.path.basename(sys.argv[0]) == "meteor" else "python -m meteor_core"


def _parser(command: str) -> tuple[argparse.ArgumentParser, object]:
    top = argparse.ArgumentParser(
        prog=_program(), description="METEOR scores with explanations.",
        epilog=f"Without a subcommand, '{DEFAULT_COMMAND}' is run: {_program()} --hyp H --ref R. "
               f"--version: the version and whether the compiled core is active (as 'info').")
    commands = top.add_subparsers(dest="command", title="subcommands", metavar="COMMAND")
    chosen = None
    for name, (module_name, help_line) in COMMANDS.items():
        parser = commands.add_parser(name, help=help_line, formatter_class=argparse.RawDescriptionHelpFormatter)
        if name == command:
            chosen = importlib.import_module(f".{module_name}", __name__)
            parser.description = chosen.__doc__
            chosen.configure(parser)
    return top, chosen


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] in (["-h"], ["--help"]):
        _parser("")[0].print_help()
        return 0
    if argv[:1] == ["--version"]:
        argv[0] = "info"
    if not argv or argv[0] not in COMMANDS:  # today's flags without a subcommand: score
        argv.insert(0, DEFAULT_COMMAND)
    stdout, stderr = sys.stdout, sys.stderr
    sys.stderr = VisibleText(stderr, keep="\r")  # messages name files; "\r" redraws a progress line
    try:
        with interruptible():
            try:
                parser, module = _parser(argv[0])
                if getattr(module, "PASS_THROUGH", False):  # (meteor app: streamlit's own options)
                    args, unknown = parser.parse_known_args(argv)
                    args.passed_through = unknown
                else:
                    args = parser.parse_args(argv)
                sys.stdout = CheckedOutput(stdout)  # a full disk is one line, not a traceback
                if getattr(args, "format", "text") == "text":  # tsv, jsonl and json are exact data
                    sys.stdout = VisibleText(sys.stdout)
                code = module.run(args)
                sys.stdout.flush()  # (what is still buffered fails here, not at exit)
                return code
            except OutputError as exc:
                silence_stdout()
                return fail(str(exc))
            except BrokenPipeError:  # the reader went away (e.g. piped into head): stop, say nothing
                silence_stdout()
                return 0
            except KeyboardInterrupt:  # Ctrl-C: end the workers now, not after their queued work
                taken()  # (a second Ctrl-C meanwhile is ignored)
                stop_pools()
                print("interrupted", file=stderr)
                return 130  # the shell's code for a run ended by SIGINT
    finally:
        sys.stdout, sys.stderr = stdout, stderr
