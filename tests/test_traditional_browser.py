"""The 繁體 interface in a real Chromium, as a lecturer in Taiwan opens it: the Traditional Chinese + emoji preset on
BPE vs BBPE (which trains on the sidebar's corpus), the Languages page reading 中文（繁體）, and "Paste text" with
nothing typed yet. Screenshots at 1280×720 and 390×844 go to test-artifacts/traditional/."""

from __future__ import annotations

import pytest
from babel import Locale
from browser import assert_no_exception, open_app, save_screenshot, wait_for_app, wait_for_layout
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SIZES = [(1280, 720), (390, 844)]


@pytest.mark.parametrize("width, height", SIZES, ids=lambda v: str(v))
def test_bbpe_on_the_traditional_preset(app_server, page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    open_app(page, f"{app_server}/BPE_vs_BBPE?preset=zh-hant-emoji&lang=zh-Hant")
    assert_no_exception(page)
    # Trained on the sidebar's corpus, named in the caption; the page's own text is the other choice.
    expect(page.get_by_text("兩者都用側邊欄的設定在 繁體中文 + emoji 序列 上訓練", exact=False)).to_be_visible()
    expect(page.locator("#bbpe-unseen-byte .bpe-text")).to_have_text("明天我們去動物園看貓熊 🐼！")
    wait_for_layout(page)
    save_screenshot(page, f"traditional/bbpe-{width}x{height}")
    page.locator("#bbpe-unseen-char").scroll_into_view_if_needed()
    save_screenshot(page, f"traditional/bbpe-unseen-{width}x{height}")


@pytest.mark.parametrize("width, height", SIZES, ids=lambda v: str(v))
def test_languages_page_reads_traditional_chinese(app_server, page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    open_app(page, f"{app_server}/Languages?lang=zh-Hant")
    assert_no_exception(page)
    expect(page.get_by_text("僅繁體中文", exact=True)).to_be_visible()
    expect(page.get_by_text("僅簡體中文", exact=True)).to_be_visible()
    reading = page.locator(".st-key-lang-pick")
    name = Locale.parse("zh_Hant").get_display_name("zh_Hant")  # 中文 (繁體), as Babel names it
    expect(reading.get_by_role("combobox")).to_have_value(name)
    reading.scroll_into_view_if_needed()
    wait_for_layout(page)
    save_screenshot(page, f"traditional/languages-reading-{width}x{height}")
    page.get_by_text("僅繁體中文", exact=True).scroll_into_view_if_needed()
    save_screenshot(page, f"traditional/languages-training-{width}x{height}")


def test_paste_text_with_nothing_typed_is_a_hint(app_server, page):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(page, f"{app_server}/?lang=zh-Hant")
    page.get_by_text("貼上文字", exact=True).click()
    wait_for_app(page)
    expect(page.get_by_text("還沒有可訓練的文字", exact=False)).to_be_visible()
    expect(page.locator('[data-testid="stAlertContentError"]')).to_have_count(0)
    assert_no_exception(page)
    save_screenshot(page, "traditional/paste-empty-1280x720")
