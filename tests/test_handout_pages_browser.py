"""The printed handout and worksheet in a real Chromium (issue 39): A4 pages counted in the PDF that Chromium prints
(``page.pdf``, the browser's "Save as PDF"), for the byte-level Chinese preset 你好啊 你好 … in every interface language.

Screenshots (print media) go to test-artifacts/handout/.
"""

from __future__ import annotations

import re

import pytest
from browser import save_screenshot

from bpe_core.i18n import LANGUAGES, translations
from bpe_core.teaching.handout import handout_html
from bpe_core.teaching.worksheet import worksheet_html
from ui.corpus import PRESETS, preset_corpus
from ui.settings import make_config, preset_settings

pytestmark = pytest.mark.browser


def _nihao(**changes):
    preset = PRESETS["nihao"]
    return preset_corpus(preset).train(make_config({**preset_settings(preset), **changes}))


def _pages(page, html: str) -> int:
    """A4 pages of ``html`` printed by Chromium, counted as the PDF's page objects."""
    page.set_content(html)
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_ten_byte_level_merges_print_on_three_a4_pages(browser, lang):
    tr = None if lang == "en" else translations(lang)
    page = browser.new_page(viewport={"width": 794, "height": 1123})
    # The preset as it comes (training stops at merge 8: min frequency 2), and with min frequency 1 for ten merges.
    for run in (_nihao(), _nihao(minf=1)):
        assert run.num_steps in (8, 10)
        html = handout_html(run, 10, tr=tr, lang=lang)
        assert _pages(page, html) <= 3, (lang, run.num_steps)
    sheet = worksheet_html(run, 10, tr=tr, lang=lang)
    assert _pages(page, sheet) <= 3
    page.emulate_media(media="print")
    for name, doc in (("handout", html), ("worksheet", sheet)):
        page.set_content(doc)
        save_screenshot(page, f"handout/nihao-{name}-{lang}", full_page=True)
    page.close()
