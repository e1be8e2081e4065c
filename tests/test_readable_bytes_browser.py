"""Readable byte chips in a real Chromium (issue 39): on the byte-level Chinese preset, the stepper page's partial
chips carry the character they belong to (很 1–2/3), on a laptop and on a phone, inside their columns.

Screenshots go to test-artifacts/bytes/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser import assert_no_exception, open_app, save_screenshot, wait_for_app
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

#: Chips that stick out of the Streamlit block they are in (a note under a chip must not widen a table).
OVERFLOW = """() => {
  const out = [];
  for (const e of document.querySelectorAll('.bpe-chip, .bpe-table, .bpe-merge')) {
    const block = e.closest('[data-testid="stVerticalBlock"]');
    if (!block) continue;
    const r = e.getBoundingClientRect(), b = block.getBoundingClientRect();
    if (r.width && (r.right > b.right + 1 || r.left < b.left - 1))
      out.push(e.className + ' ' + e.textContent + ' ' + Math.round(r.left) + '..' + Math.round(r.right) + ' in ' + Math.round(b.left) + '..' + Math.round(b.right) + ' ' + (e.closest('[id]') || {}).id);
  }
  return out;
}"""


@pytest.mark.parametrize("width,height", [(1280, 720), (390, 844)], ids=["1280x720", "390x844"])
def test_partial_chips_name_their_character_on_the_stepper(app_server, page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    open_app(page, f"{app_server}/?preset=nihao&step=3&lang=zh-Hant")
    assert_no_exception(page)
    new = page.locator("#bpe-merge .bpe-chip.new")
    expect(new.locator(".of")).to_have_text("例：你 + 好 1/3")
    corpus = page.locator("#bpe-corpus")
    corpus.scroll_into_view_if_needed()
    expect(corpus.locator(".bpe-chip.partial .of").first).to_have_text("你 + 好 1/3")
    assert "好 的第 1 個位元組" in corpus.locator(".bpe-chip.partial").first.get_attribute("title")
    assert page.evaluate(OVERFLOW) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator("#bpe-step-label").scroll_into_view_if_needed()
    save_screenshot(page, f"bytes/nihao-step3-{width}x{height}")
    corpus.scroll_into_view_if_needed()
    save_screenshot(page, f"bytes/nihao-step3-corpus-{width}x{height}")


def test_the_blank_worksheet_downloads_beside_the_handout(app_server, page):
    open_app(page, f"{app_server}/?preset=nihao&step=2")
    page.get_by_text("Handout and pictures for slides").click()
    wait_for_app(page)
    with page.expect_download() as info:
        page.get_by_role("button", name="⬇ Blank worksheet (HTML)").click()
    assert info.value.suggested_filename == "bpe-worksheet-8-merges.html"
    html = Path(info.value.path()).read_text(encoding="utf-8")
    assert html.count("<section class='merge'>") == 8 and "tr class='chosen'" not in html
    assert "<small>你 1/3</small>" in html  # the corpus is given, its bytes named
    assert_no_exception(page)
