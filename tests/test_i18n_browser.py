"""Every page of the navigation in 简体 and 繁體 in a real Chromium (``streamlit run app.py``): it renders
without an exception, no text runs out of its box, and a full-height screenshot goes to
test-artifacts/i18n/<lang>-<page>.png; ``?lang=zh-Hant`` shows Traditional labels, not Simplified ones."""

from __future__ import annotations

import re

import pytest
from browser import assert_no_exception, open_app, save_screenshot, wait_for_app, wait_for_layout
from playwright.sync_api import expect

from bpe_core.i18n import translations
from ui.page import PAGES

pytestmark = pytest.mark.browser

CHINESE = ("zh-Hans", "zh-Hant")
# The boxes the app draws, and Streamlit's buttons and tabs: text must wrap inside them, not run out.
BOXES = (
    ".bpe-card, .bpe-pairs-wrap, .bpe-stats > div, .bpe-step-label, .bpe-col-title, "
    "[data-testid=stButton] button, [data-testid=stDownloadButton] button, [data-baseweb=tab], "
    "[data-testid=stSidebarNav] a, [data-testid=stMarkdownContainer]"
)
OVERFLOWING = f"""() => Array.from(document.querySelectorAll({BOXES!r}))
    .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
    .map(e => (e.id || e.getAttribute('data-testid') || e.className || e.tagName) + ': ' + e.innerText.slice(0, 60))"""


def name_of(spec) -> str:
    return spec.url_path or "Step_through_BPE"


def full_height_screenshot(page, name: str) -> None:
    """Grow the viewport to the page's height (Streamlit scrolls inside its main block), then save."""
    height = page.evaluate("document.querySelector('[data-testid=stMainBlockContainer]').scrollHeight")
    page.set_viewport_size({"width": 1280, "height": max(720, min(int(height) + 120, 9000))})
    wait_for_layout(page)
    wait_for_app(page)
    save_screenshot(page, name)


@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("spec", PAGES, ids=[name_of(s) for s in PAGES])
def test_page_in_chinese_renders_and_nothing_overflows(app_server, page, spec, lang):
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(page, f"{app_server}/{spec.url_path}?lang={lang}&preset=textbook-low&step=3")
    assert_no_exception(page)
    page.wait_for_load_state("networkidle")
    wait_for_app(page)
    tr = translations(lang)
    # The page's name in the menu and the language picker are in the language.
    nav = page.locator("[data-testid=stSidebarNav]")
    expect(nav).to_contain_text(tr.gettext(spec.title))
    expect(page.locator("[data-testid=stSidebar]")).to_contain_text(tr.gettext("Language"))
    assert page.evaluate(OVERFLOWING) == []
    full_height_screenshot(page, f"i18n/{lang}-{name_of(spec)}")
    assert page.evaluate(OVERFLOWING) == []
    assert_no_exception(page)
    assert not errors, errors
    expect(page).to_have_url(re.compile(rf"[?&]lang={lang}(&|$)"))


def test_lang_zh_hant_shows_traditional_labels(app_server, page):
    hans, hant = translations("zh-Hans"), translations("zh-Hant")
    open_app(page, f"{app_server}/How_BPE_works?lang=zh-Hant")
    assert_no_exception(page)
    main = page.locator("[data-testid=stMain]")
    sidebar = page.locator("[data-testid=stSidebar]")
    for message in ("Byte-level BPE and Chinese", "When the tie-break rule matters", "The first three merges up close"):
        assert hant.gettext(message) != hans.gettext(message), message  # the two scripts differ here
        expect(main).to_contain_text(hant.gettext(message))
        expect(main).not_to_contain_text(hans.gettext(message))
    for title in ("Side by side", "Encode and decode", "Files"):
        expect(sidebar).to_contain_text(hant.gettext(title))
    expect(sidebar).to_contain_text("🌐 " + hant.gettext("Language"))
    assert "位元組" in main.inner_text() and "字节" not in main.inner_text()
