"""SuperBPE's transition step in a real Chromium: the stepper's merge card names the transition point, the sidebar's
number box holds it, and the page fits a laptop and a phone. Screenshots go to test-artifacts/superbpe/."""

from __future__ import annotations

import pytest
from browser import assert_no_exception, open_app, save_screenshot
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

URL = "/?preset=pg16457-chapter&variant=byte&pre=gpt2&merges=300&transition=150&step={step}"


@pytest.mark.parametrize("width,height", [(1280, 720), (390, 844)], ids=["1280x720", "390x844"])
def test_the_transition_step_is_marked(app_server, page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    open_app(page, app_server + URL.format(step=151))
    assert_no_exception(page)
    card = page.locator("#bpe-merge-card")
    expect(card).to_contain_text("From this merge on, SuperBPE")
    expect(card.locator(".bpe-served .bpe-badge")).to_have_text("Transition point")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    card.scroll_into_view_if_needed()
    save_screenshot(page, f"superbpe/transition-{width}x{height}")
    open_app(page, app_server + URL.format(step=155))
    expect(page.locator("#bpe-merge-card .bpe-served .bpe-badge")).to_have_text("Superword token")
    expect(page.locator("#bpe-merge-card")).to_contain_text("One of the first superword tokens")
    page.locator("#bpe-merge-card").scroll_into_view_if_needed()
    save_screenshot(page, f"superbpe/superword-{width}x{height}")
    if width > 1000:  # the sidebar is open on a laptop: the setting beside the other stop settings
        widget = page.locator("[data-testid='stNumberInput']").filter(has_text="SuperBPE transition point (merge)")
        expect(widget.locator("input")).to_have_value("150")
        widget.scroll_into_view_if_needed()
        save_screenshot(page, "superbpe/sidebar-1280x720")


@pytest.mark.parametrize("width,height", [(1280, 720), (390, 844)], ids=["1280x720", "390x844"])
def test_the_quiz_says_why_it_asks_nothing_on_a_replayed_merge(app_server, page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    open_app(page, app_server + URL.format(step=140) + "&quiz=1")
    assert_no_exception(page)
    why = page.locator("#bpe-quiz-not-asked")
    expect(why).to_contain_text("No question on merge 141: SuperBPE's stage 1 chose merges 1 to 150")
    expect(page.locator("#bpe-quiz-pairs")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    why.scroll_into_view_if_needed()
    save_screenshot(page, f"superbpe/quiz-not-asked-{width}x{height}")
