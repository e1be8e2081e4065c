"""PickyBPE's stepper in a real Chromium, opened by a link on a removal step (``?algo=picky&picky=0.6&step=4``): the
token removed, its IoS against the threshold and the words where it splits back are on the first screen of a
projector (1280×720) and readable on a phone (390×844). Screenshots: test-artifacts/picky-removal-*.png."""

from __future__ import annotations

import pytest
from browser import assert_no_exception, assert_on_first_screen, open_app, save_screenshot
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

URL = "/?preset=pg16457-chapter&algo=picky&picky=0.6&merges=10&step=4"


@pytest.mark.parametrize("width, height", [(1280, 720), (390, 844)])
def test_a_removal_step_opened_by_a_link(app_server, page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    open_app(page, app_server + URL)
    assert_no_exception(page)
    removed = page.get_by_text("Removed from the vocabulary:")
    expect(removed).to_be_visible()
    expect(page.locator("code.bpe-removed")).to_have_text("th")
    expect(page.get_by_text("reaches the threshold 0.6")).to_be_visible()
    expect(page.get_by_text("Where it splits back (before → after):")).to_be_visible()
    # The link's step is the slider's: the fourth step, the first removal.
    expect(page.get_by_role("slider", name="Step").first).to_have_value("4")
    if width >= 1000:  # on a projector the removed token is on the first screen
        assert_on_first_screen(page, removed)
    save_screenshot(page, f"picky-removal-{width}x{height}")
    # (The app scrolls inside its main block, so a full-page picture would show no more: scroll to the words.)
    page.get_by_text("Where it splits back (before → after):").scroll_into_view_if_needed()
    save_screenshot(page, f"picky-removal-{width}x{height}-words")
