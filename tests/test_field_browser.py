"""WordPiece and Unigram in a real Chromium against ``streamlit run app.py`` (the ``app_server`` fixture): the
stepper's step 0 in Chinese, and the real trainers' box on Side by side, trained once it is opened."""

from __future__ import annotations

import pytest
from browser import assert_no_exception, open_app, save_screenshot, wait_for_app
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_the_real_trainers_box_trains_them_once_opened(app_server, page):
    open_app(page, f"{app_server}/Side_by_side?preset=pg16457-chapter")
    assert_no_exception(page)
    main = page.locator('[data-testid="stMain"]')
    box = main.get_by_text("The real trainers beside ours", exact=False)
    expect(box).to_be_visible()
    expect(main.get_by_text("tokens are in both")).to_have_count(0)  # closed: nothing trained
    box.click()
    wait_for_app(page)
    expect(main.get_by_text("tokens are in both")).to_have_count(2, timeout=60_000)
    expect(main.get_by_text("True WordPiece:")).to_be_visible()
    expect(main.get_by_text("sentencepiece:", exact=True)).to_be_visible()
    assert_no_exception(page)
    save_screenshot(page, "field/real-trainers")


def test_the_unigram_stepper_starts_at_the_seed_in_chinese(app_server, page):
    open_app(page, f"{app_server}/?algo=unigram&vocab=20&lang=zh-Hant")
    assert_no_exception(page)
    main = page.locator('[data-testid="stMain"]')
    expect(main.get_by_text("初始詞彙表（種子）：")).to_be_visible()
    expect(main.get_by_text("第 0 步，第一輪之前", exact=False)).to_be_visible()
    assert_no_exception(page)
    save_screenshot(page, "field/unigram-step-0-zh-hant")
