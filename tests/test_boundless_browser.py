"""BoundlessBPE's stepper in a real Chromium, opened by a link on its first supermerge
(``?algo=boundless&tau=0.6&step=147``: " of" + " the" -> " of the"): the step's kind and its badge, the two
pre-tokens joining and the words where they join are on the first screen of a projector (1280×720) and readable on
a phone (390×844), where the long words wrap. Screenshots: test-artifacts/boundless-supermerge-*.png."""

from __future__ import annotations

import pytest
from browser import assert_no_exception, assert_on_first_screen, open_app, save_screenshot
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

URL = "/?preset=pg16457-chapter&algo=boundless&pre=gpt2&tau=0.6&merges=160&step=147"


@pytest.mark.parametrize("width, height", [(1280, 720), (390, 844)])
def test_a_supermerge_step_opened_by_a_link(app_server, page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    open_app(page, app_server + URL)
    assert_no_exception(page)
    kind = page.get_by_text("Supermerge: two pre-tokens join")
    expect(kind).to_be_visible()
    expect(page.locator("span.bpe-superword")).to_have_text("Superword token")
    expect(page.get_by_text("A supermerge: two neighbouring pre-tokens")).to_be_visible()
    expect(page.get_by_role("slider", name="Step").first).to_have_value("147")
    if width >= 1000:  # on a projector the step's kind and its badge are on the first screen
        assert_on_first_screen(page, kind)
    save_screenshot(page, f"boundless-supermerge-{width}x{height}")
    page.get_by_text("Where two pre-tokens join (before → after):").scroll_into_view_if_needed()
    # A word here is a run of pre-tokens, shown with visible spaces (no break): its line still wraps on a phone.
    wide = page.evaluate("[...document.querySelectorAll('p')].filter(p => p.scrollWidth > p.clientWidth + 1).length")
    assert wide == 0
    save_screenshot(page, f"boundless-supermerge-{width}x{height}-words")
