"""Qwen3 on the Real tokenizers page in a real Chromium (issue 42): its row and chips are ``tokenizers``' ids, the
special token's chip is one token; screenshots at 1280x720 and 390x844 go to test-artifacts/pages/hf-qwen3*.png."""

from __future__ import annotations

import pytest
from browser import assert_no_exception, open_app, rerun, save_screenshot
from playwright.sync_api import expect

from bpe_core import load_gpt

pytestmark = pytest.mark.browser

TEXT = "机器学习很有趣 😀 <|im_start|>user 你好"


@pytest.mark.parametrize("width, height", [(1280, 720), (390, 844)])
def test_qwen3_row_and_chips_are_its_ids(app_server, page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    open_app(page, f"{app_server}/Real_tokenizers?preset=zh-emoji")
    assert_no_exception(page)
    box = page.get_by_label("Text to compare", exact=False)
    box.fill(TEXT)
    with rerun(page):
        box.press("Control+Enter")
    assert_no_exception(page)
    expected = load_gpt("qwen3").encode(TEXT)
    expect(page.locator("#rt-row-qwen3")).to_have_attribute("data-tokens", str(len(expected)))
    page.get_by_role("tab", name="Qwen3", exact=False).click()
    chips = page.locator("#rt-toks-qwen3 .bpe-chip")
    ids = [int(t) for t in chips.evaluate_all("els => els.map(e => e.dataset.token)")]
    assert ids == expected and 151644 in ids
    special = page.locator('#rt-toks-qwen3 .bpe-chip[data-token="151644"]')
    assert "special token" in (special.get_attribute("title") or "")
    page.locator("#rt-summary").scroll_into_view_if_needed()
    page.wait_for_load_state("networkidle")
    save_screenshot(page, f"pages/hf-qwen3-{width}")
