"""Helpers for the real-browser tests: a Streamlit server on a free port and Debian's Chromium."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager

import pytest

from conftest import ROOT

ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def require_browser():
    """Skip without a browser, unless CI says it must be there (METEOR_REQUIRE_BROWSER=1)."""
    missing = None
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing = "the playwright package is not installed"
    if not os.path.exists(CHROMIUM):
        missing = "Debian's chromium is not installed (run.sh setup installs it as root)"
    if missing:
        if os.environ.get("METEOR_REQUIRE_BROWSER") == "1":
            pytest.fail(missing)
        pytest.skip(missing)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def streamlit_server(script: str = "app.py", launch: list[str] | None = None, cwd=ROOT, env=None):
    """(url, process) of a Streamlit server of ``script`` on a free port, started as run.sh starts
    it (serve.py); ``launch`` starts it another way (the installed `meteor app`), from ``cwd``,
    given the server options."""
    port = _free_port()
    options = ["--server.headless", "true", "--server.port", str(port), "--server.address", "127.0.0.1"]
    command = launch + options if launch else [sys.executable, str(ROOT / "serve.py"), "run", str(ROOT / script),
                                               *options, "--browser.gatherUsageStats", "false"]
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                if urllib.request.urlopen(url + "/_stcore/health", timeout=2).status == 200:
                    break
            except OSError:
                pass
            if proc.poll() is not None or time.time() > deadline:
                raise RuntimeError("streamlit did not start:\n" + (proc.stdout.read() if proc.stdout else ""))
            time.sleep(0.3)
        yield url, proc
    finally:
        stop_server(proc)


def stop_server(proc: subprocess.Popen) -> None:
    """Ask a server to end; kill it if it has not within 10 s."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@contextmanager
def browser_page(width: int = 1400, height: int = 1600):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            yield page, errors
        finally:
            browser.close()


def wait_for_run(page, timeout: float = 30_000) -> None:
    """Wait until Streamlit has finished the rerun that the last input started."""
    page.wait_for_timeout(300)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout)
    page.wait_for_timeout(300)


def rss_mib(pid: int) -> float:
    """A process's resident memory in MiB (Linux)."""
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")
