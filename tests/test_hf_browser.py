"""Qwen3 on the Real tokenizers page in a real Chromium (issue 42): its row and chips are ``tokenizers``' ids, the
special token's chip is one token, drawn as a special one with a legend; screenshots at 1280x720 and 390x844 go to test-artifacts/pages/hf-qwen3*.png."""

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
    # It looks special (pages.css: white, a double frame), unlike its neighbours, and a legend line says why.
    style = "el => [getComputedStyle(el).borderTopStyle, getComputedStyle(el).backgroundColor]"
    assert special.evaluate(style) == ["double", "rgb(255, 255, 255)"]
    assert chips.nth(0).evaluate(style)[0] != "double"
    legend = page.locator(".bpe-added-legend").filter(has_text="special token")
    expect(legend).to_be_visible()
    special.scroll_into_view_if_needed()
    page.wait_for_load_state("networkidle")
    save_screenshot(page, f"pages/hf-qwen3-{width}")


def test_an_uploaded_wordpiece_file_shows_its_longest_match_steps(app_server, page, tmp_path):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(["hello world, tokenizers cut words"] * 10, trainers.WordPieceTrainer(vocab_size=120))
    path = tmp_path / "tokenizer.json"
    path.write_text(tok.to_str(), encoding="utf-8")
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(page, f"{app_server}/Real_tokenizers?preset=zh-emoji")
    box = page.get_by_label("Text to compare", exact=False)
    box.fill("hello worlds")
    with rerun(page):
        box.press("Control+Enter")
    page.get_by_text("Add any tokenizer.json", exact=False).click()
    with rerun(page):
        page.locator("input[type=file]").set_input_files(str(path))
    assert_no_exception(page)
    expect(page.locator("#rt-row-upload")).to_have_attribute(
        "data-tokens", str(len(tok.encode("hello worlds", add_special_tokens=False).ids))
    )
    steps = page.locator("#hf-wordpiece")
    expect(steps).to_contain_text("worlds")
    steps.scroll_into_view_if_needed()
    save_screenshot(page, "pages/hf-wordpiece-1280")
