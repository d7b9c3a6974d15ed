import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# The TED demo set bundled with the app (detokenised text): the tests need nothing outside the repo.
DEMO = ROOT / "demo" / "ted-slk-eng"


def ted_lines(name: str) -> list[str]:
    """A file of the bundled TED set: "ref", "sys1" or "sys2", one segment a line."""
    return (DEMO / f"ted.{name}.detok.eng").read_text(encoding="utf-8").splitlines()
