"""Start the explorer (a Streamlit app) from any folder: meteor app [streamlit options]

    meteor app                                            # http://localhost:8501
    meteor app --server.port 8600 --server.headless true  # any `streamlit run` option

The explorer is the checkout's app.py when this meteor_core is a checkout's, else the installed
meteor_explorer package (pip install 'meteor-explorer[app]'). This runs
`python <serve.py> run <app.py> --browser.gatherUsageStats false [options]` in place of itself
(serve.py, beside app.py, is `streamlit run` with the pages' libraries imported before the first
visitor): streamlit is never imported here.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from .common import fail

# Options after `app` go to streamlit as they are (see __init__.main).
PASS_THROUGH = True
INSTALL_FIX = "pip install 'meteor-explorer[app]'"
# Streamlit's defaults that the project changes (run.sh does too); an option given after `app` wins.
DEFAULT_OPTIONS = ("--browser.gatherUsageStats", "false")


def configure(p: argparse.ArgumentParser) -> None:
    p.epilog = "Every other option is streamlit run's, e.g. --server.port 8600 --server.headless true."


def _is_explorer(folder: Path) -> bool:
    return (folder / "app.py").is_file() and (folder / "app_pages").is_dir()


def app_script() -> Path | None:
    """The explorer's app.py: beside this meteor_core in a checkout, else the installed one."""
    checkout = Path(__file__).resolve().parents[2]  # the folder that holds meteor_core
    if _is_explorer(checkout):
        return checkout / "app.py"
    try:
        spec = importlib.util.find_spec("meteor_explorer")
    except (ImportError, ValueError):
        spec = None
    for location in (spec.submodule_search_locations or []) if spec else []:
        if _is_explorer(Path(location)):
            return Path(location) / "app.py"
    return None


def streamlit_command(script: Path, options: list[str]) -> list[str]:
    server = script.parent / "serve.py"
    start = [str(server)] if server.is_file() else ["-m", "streamlit"]  # (an app.py without it: plain streamlit)
    return [sys.executable, *start, "run", str(script), *DEFAULT_OPTIONS, *options]


def server_environment(environ=os.environ) -> dict[str, str]:
    """The server's environment: Python's small objects from the C allocator (PYTHONMALLOC=malloc)
    unless the caller chose an allocator. Python's own (pymalloc) returns an arena of 1 MiB only
    once every object in it has gone, and the objects that outlive a visit (interned names,
    memoised words, Streamlit's records) keep most arenas a visitor filled: in the 8-session soak
    the server stayed 150 MiB above its one-visitor size with pymalloc, and came back to it with
    the C allocator, which components/session_cleanup trims (run.sh sets the same)."""
    return {**environ, "PYTHONMALLOC": environ.get("PYTHONMALLOC") or "malloc"}


def run(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("streamlit") is None:
        return fail(f"the explorer needs streamlit, which is not installed: {INSTALL_FIX}")
    script = app_script()
    if script is None:
        return fail(f"the explorer's pages are not installed beside meteor_core: {INSTALL_FIX}")
    command = streamlit_command(script, list(args.passed_through))
    sys.stdout.flush()
    env = server_environment()
    if os.name == "nt":  # (Windows has no exec: the child runs, and its exit code is ours)
        return subprocess.call(command, env=env)
    os.execve(command[0], command, env)
    return 0  # (not reached: execv replaces this process)
