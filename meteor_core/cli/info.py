"""The version, and whether the compiled core is active (which modules run compiled, and why any
other runs from its .py); `--version` prints the same."""
from __future__ import annotations

import argparse
import platform


def configure(parser: argparse.ArgumentParser) -> None:
    """info takes no options."""


def run(args: argparse.Namespace) -> int:
    from .. import _accel
    from ..version import __version__

    print(f"meteor-explorer {__version__} (Python {platform.python_version()})")
    print(_accel.summary())
    return 0
