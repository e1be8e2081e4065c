"""The GPT tokenizers page in a real Chromium against ``streamlit run app.py``: on a Chinese + emoji
text the token counts and chips shown are tiktoken's ``encode_ordinary`` (built offline from the
shipped rank files); the replay steps forward with the arrow key. Screenshots at 1280x720 go to
test-artifacts/pages/real-tokenizers*.png."""

from __future__ import annotations

import pytest
import tiktoken
from browser import assert_no_exception, open_app, rerun, save_screenshot, wait_for_layout
from playwright.sync_api import expect
from tiktoken.load import load_tiktoken_bpe

from bpe_core import load_gpt
from bpe_core.models import HERE, MODELS
from bpe_core.pretokenize import PATTERNS

pytestmark = pytest.mark.browser

TEXT = "今天我们很开心 😀！明天去北京看熊猫 🐼。👨‍👩‍👧 一家人 🇨🇳 👍🏽"


def reference(name: str) -> tiktoken.Encoding:
    stem, pretokenizer, _ = MODELS[name]
    ranks = load_tiktoken_bpe(str(HERE / f"{stem}.tiktoken"))
    return tiktoken.Encoding(stem, pat_str=PATTERNS[pretokenizer], mergeable_ranks=ranks, special_tokens={})


def shown_ids(page, selector: str) -> list[int]:
    return [int(t) for t in page.locator(f"{selector} .bpe-chip").evaluate_all("els => els.map(e => e.dataset.token)")]


def test_counts_on_chinese_and_emoji_equal_tiktoken(app_server, page):
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(page, f"{app_server}/Real_tokenizers?preset=zh-emoji")
    assert_no_exception(page)
    box = page.get_by_label("Text to compare", exact=False)
    box.fill(TEXT)
    with rerun(page):
        box.press("Control+Enter")
    assert_no_exception(page)
    for name in ("gpt2", "cl100k", "o200k"):
        expected = reference(name).encode_ordinary(TEXT)
        row = page.locator(f"#rt-row-{name}")
        expect(row).to_have_attribute("data-tokens", str(len(expected)))
        expect(row.locator("td").nth(1)).to_have_text(f"{len(expected):,}")
        assert shown_ids(page, f"#rt-toks-{name}") == expected, name
    # GPT-2 spends several byte pieces on 🐼: hatched chips, as everywhere in the app.
    assert page.locator("#rt-toks-gpt2 .bpe-chip.partial").count() >= 2
    page.wait_for_load_state("networkidle")  # lazily loaded widgets drawn before the screenshot
    save_screenshot(page, "pages/real-tokenizers")

    # The replay: the → key applies GPT-2's first merge on this text.
    replay = load_gpt("gpt2").replay(TEXT)
    label = page.locator("#rt-replay-label")
    label.scroll_into_view_if_needed()
    label.click()  # focus out of the text box: the arrow keys then step the replay
    with rerun(page):
        page.keyboard.press("ArrowRight")
    expect(label).to_have_attribute("data-step", "1")
    assert shown_ids(page, "#rt-replay-tokens") == replay.ids_at(1)
    expect(page.locator("#rt-replay-merge")).to_contain_text(
        f"GPT-2's merge {replay.steps[0].merge_number:,} (rank and id {replay.steps[0].token:,})"
    )
    page.locator("#rt-replay-merge").scroll_into_view_if_needed()
    wait_for_layout(page)
    save_screenshot(page, "pages/real-tokenizers-replay")
    assert_no_exception(page)
    assert not errors, errors
