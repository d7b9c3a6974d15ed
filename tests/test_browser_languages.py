"""Real browser, issue 29: a link with lang=de opens the explorer in German, scored as German."""
from urllib.parse import urlencode

import pytest

from browser import browser_page, wait_for_run
from meteor_core import MeteorConfig, score

pytestmark = pytest.mark.browser

HYP = "Die Katze sitzt auf der Matte und schaut aus dem Fenster."
REF = "Die Katze saß auf der Matte und sah aus dem Fenster."


def test_the_explorer_opens_in_german_from_the_url(server):
    url, _ = server
    expected = score(HYP, [REF], MeteorConfig.meteor15(language="de"))
    with browser_page(width=1280, height=1200) as (page, errors):
        page.goto(url + "/?" + urlencode({"hyp": HYP, "ref": REF, "preset": "meteor15", "lang": "de"}))
        page.get_by_text("Chunks / matches").first.wait_for(timeout=120_000)
        wait_for_run(page, timeout=120_000)
        sidebar = page.locator('[data-testid="stSidebar"]')
        shown = sidebar.locator('[data-testid="stSelectbox"]', has_text="Language").locator("input[role=combobox]")
        assert shown.input_value() == "German (de)"
        assert "Synonyms are English only" in sidebar.inner_text()
        meteor = page.locator('[data-testid="stMetric"]', has_text="METEOR").first
        assert f"{expected.score:.4f}" in meteor.inner_text()
        assert "lang:de" in page.inner_text("body").replace("\u2060", "")  # the signature names the language
        assert "lang=de" in page.url
        assert not errors, errors
