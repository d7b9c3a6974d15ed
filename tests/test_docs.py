"""Every example in the README and the docs is run: fenced ```python blocks written as an
interactive session (>>> lines and the output they print) must print what the page shows; the
README's and docs' links to other files must lead somewhere."""
import doctest
import re
from pathlib import Path

import pytest

from conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def _sessions(page: Path) -> list[tuple[int, str]]:
    text = page.read_text(encoding="utf-8")
    return [(text[:m.start()].count("\n") + 2, m[1]) for m in _BLOCK.finditer(text) if ">>>" in m[1]]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_examples_print_what_the_page_shows(page):
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs: dict = {}  # one namespace a page: later examples use earlier ones' names
    for line, block in _sessions(page):
        test = parser.get_doctest(block, globs, f"{page.name}:{line}", str(page), line)
        runner.run(test, clear_globs=False)
        globs.update(test.globs)
    assert runner.failures == 0, f"{runner.failures} example(s) of {page.name} print something else (see above)"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_links_to_files_lead_somewhere(page):
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if "://" in target:
            continue
        assert (page.parent / target).exists(), f"{page.name} links to {target}, which does not exist"
