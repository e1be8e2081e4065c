"""Robustness of the app in a real Chromium (issue 6): what only a browser sends through a text box,
30 MB of text and a lone surrogate, against ``streamlit run app.py`` (the ``app_server`` fixture)."""

from __future__ import annotations

import pytest

# ----------------------------------------------------------------------- in a real browser
# What AppTest cannot show: what the browser itself sends. Streamlit carries widget values in
# protobuf messages: a value above server.maxWidgetStateSize (25 MB in .streamlit/config.toml)
# or with a lone surrogate (not encodable as UTF-8) makes the server close the connection, so the
# app's script in the page (ui/static/text_box_guard.js) cuts and repairs values first.


def _browser_paste(page, app_server: str, js_value: str) -> None:
    from browser import SET_TEXTAREA, open_app, rerun

    open_app(page, f"{app_server}/?preset=textbook-low&step=0")
    with rerun(page):
        page.get_by_text("Paste text", exact=True).click()
    box = page.get_by_label("Text to train on")
    box.evaluate(SET_TEXTAREA.replace("value);", f"{js_value});").replace("(e, value)", "(e)"))
    with rerun(page, timeout=120_000):
        box.press("Control+Enter")


def _browser_still_usable(page) -> None:
    import re as _re

    from browser import assert_no_exception, rerun

    # Slow after a 20 MB paste: the browser sends the text box's 20 MB with every message (~20 s).
    with rerun(page, timeout=120_000):
        page.get_by_text("Preset", exact=True).click(timeout=120_000)
    page.wait_for_selector('#bpe-step-label[data-step="0"]', timeout=60_000)
    with rerun(page, timeout=120_000):
        page.get_by_role("button", name=_re.compile("Next")).click()
    page.wait_for_selector('#bpe-step-label[data-step="1"]', timeout=60_000)
    assert_no_exception(page)


@pytest.mark.browser
def test_30_mb_paste_in_the_browser_is_cut_and_gets_the_size_message(app_server, page):
    # Before the text box guard, 30 MB (above server.maxWidgetStateSize) made the server drop the
    # connection and then crashed Chromium's tab.
    from browser import assert_no_exception, save_screenshot
    from playwright.sync_api import expect

    _browser_paste(page, app_server, "'word '.repeat(6000000)")
    assert_no_exception(page)
    # The cut text is kept on the server and its box closed (a large box slows every click).
    sidebar = page.locator('[data-testid="stSidebar"]')
    expect(sidebar).to_contain_text("5.0 MB of text", timeout=60_000)
    expect(page.get_by_label("Text to train on")).to_have_count(0)
    error = page.locator('[data-testid="stAlertContentError"]').first
    error.wait_for(timeout=60_000)
    text = error.inner_text().replace("\\", "")
    for needle in ("was cut", "5,000,001 characters", "5.0 MB", "shorter text"):
        assert needle in text, text
    assert "BPE_EXPLORER_MAX_BYTES" not in text  # the README names it: a student cannot set it
    save_screenshot(page, "robust/paste-30mb")
    _browser_still_usable(page)


@pytest.mark.browser
def test_lone_surrogate_paste_in_the_browser_leaves_the_session_usable(app_server, page):
    _browser_paste(page, app_server, "'low \\ud800 low lower'")
    _browser_still_usable(page)
