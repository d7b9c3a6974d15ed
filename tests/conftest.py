import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# The TED demo set bundled with the app (detokenised text): the tests need nothing outside the repo.
DEMO = ROOT / "demo" / "ted-slk-eng"


def ted_lines(name: str) -> list[str]:
    """A file of the bundled TED set: "ref", "sys1" or "sys2", one segment a line."""
    return (DEMO / f"ted.{name}.detok.eng").read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def server():
    """A Streamlit server of app.py for the real-browser tests, one per test module: (url, process)."""
    from browser import require_browser, streamlit_server  # (playwright only where a test asks for it)

    require_browser()
    with streamlit_server() as (url, proc):
        yield url, proc


@pytest.fixture
def tiny_disk(tmp_path):
    """A folder on a 64 KiB tmpfs, for a disk that fills up (mounting needs root; skipped
    otherwise). ``fill(free)`` leaves about ``free`` bytes free."""
    import os
    import subprocess

    folder = tmp_path / "disk"
    folder.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")

    def fill(free: int = 0) -> None:
        stats = os.statvfs(folder)
        ballast = stats.f_bavail * stats.f_frsize - free
        with open(folder / ".ballast", "wb") as out:
            out.write(b"\0" * max(ballast, 0))

    try:
        yield folder, fill
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)
