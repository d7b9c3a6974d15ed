"""Make WordNet 3.0 available to NLTK (nltk.download where reachable, else Debian's packages)."""
from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    """setup takes no options."""


def run(args: argparse.Namespace) -> int:
    from ..setup_data import main as setup_main
    return setup_main()
