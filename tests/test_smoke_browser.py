"""Smoke test: the real app, served by Streamlit, rendered by a real Chromium."""

import pytest
from browser import APP_SELECTOR, assert_no_exception, open_app, save_screenshot
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_main_page_renders_without_exception(app_server, page):
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    open_app(page, app_server)
    save_screenshot(page, "smoke")

    assert_no_exception(page)
    app = page.locator(APP_SELECTOR)
    expect(app).to_have_attribute("data-test-script-state", "notRunning")
    expect(app).to_contain_text("BPE Explorer")
    assert not errors, f"uncaught JavaScript errors in the page: {errors}"
