"""The pages in pages/ in a real Chromium against ``streamlit run app.py`` (the ``app_server`` fixture).

A full-height screenshot of every page goes to test-artifacts/pages/<page>.png.
"""

from __future__ import annotations

import re

import pytest
from browser import assert_no_exception, open_app, rerun, save_screenshot, wait_for_app, wait_for_layout
from playwright.sync_api import expect
from tokenizers import Tokenizer as HFTokenizer

from bpe_core import TrainConfig, corpus_words, train
from bpe_core.encoding.encoder import Tokenizer
from ui.corpus import PRESETS

pytestmark = pytest.mark.browser

PAGES = [
    # (URL path, element every run of the page draws, screenshot name)
    ("Side_by_side", "#sbs-byte", "side-by-side"),
    ("BPE_vs_BBPE", "#bbpe-graphemes", "bpe-vs-bbpe"),
    ("Encode_and_decode", "#enc-decoded", "encode-and-decode"),
    ("Files", ".st-key-files-dl-merges-txt", "files"),
    ("How_BPE_works", "#how-ties", "how-bpe-works"),
]


def full_height_screenshot(page, name: str) -> None:
    """Grow the viewport to the page's height (Streamlit scrolls inside its main block, so a
    full-page screenshot would stop at the window), let the charts lay out again, then save."""
    height = page.evaluate("document.querySelector('[data-testid=stMainBlockContainer]').scrollHeight")
    page.set_viewport_size({"width": 1280, "height": max(900, min(int(height) + 120, 7000))})
    wait_for_layout(page)
    wait_for_app(page)
    save_screenshot(page, f"pages/{name}")


@pytest.mark.parametrize("path, marker, name", PAGES, ids=[p[2] for p in PAGES])
def test_page_renders_without_an_exception(app_server, page, path, marker, name):
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    open_app(page, f"{app_server}/{path}")
    assert_no_exception(page)
    expect(page.locator(marker).first).to_be_visible()
    # The shared sidebar is on every page, with the default corpus (its provenance line).
    expect(page.locator('[data-testid="stSidebar"]')).to_contain_text(PRESETS["textbook-low"].provenance)
    full_height_screenshot(page, name)
    assert_no_exception(page)
    assert not errors, errors


def test_bpe_vs_bbpe_unk_for_characters_byte_fallback_for_bytes(app_server, page):
    open_app(page, f"{app_server}/BPE_vs_BBPE?preset=zh-emoji")
    assert_no_exception(page)
    char_card = page.locator("#bbpe-unseen-char")
    byte_card = page.locator("#bbpe-unseen-byte")
    # 明 北 京 熊 猫 🐼 never occur in the Chinese + emoji text.
    expect(char_card.locator(".bpe-chip.unk")).to_have_count(6)
    expect(char_card.locator(".bpe-chip.unk").first).to_have_text("<unk>")
    expect(char_card).to_contain_text("6 symbols became <unk>")
    expect(byte_card.locator(".bpe-chip.unk")).to_have_count(0)
    expect(byte_card).to_contain_text("starts every text as bytes")
    assert byte_card.locator(".bpe-chip.partial").count() >= 6  # pieces of the unseen characters
    assert byte_card.get_attribute("data-roundtrip") == "1"
    expect(byte_card.locator(".bpe-text")).to_have_text("明天我们去北京看熊猫 🐼！")
    # The byte tokens' ids are bpe_core's, for the sidebar's corpus and settings (preset: gpt2, 40 merges,
    # min frequency 2): the page follows the sidebar.
    cfg = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=40, min_frequency=2)
    text = PRESETS["zh-emoji"].load_text()
    expected = Tokenizer.from_run(train(corpus_words(text, cfg), cfg)).encode("明天我们去北京看熊猫 🐼！")
    shown = [int(t) for t in byte_card.locator(".bpe-chip").evaluate_all("els => els.map(e => e.dataset.token)")]
    assert shown == expected


def test_files_tokenizer_json_loads_in_hugging_face(app_server, page, tmp_path):
    open_app(page, f"{app_server}/Files?preset=zh-emoji")
    assert_no_exception(page)
    with page.expect_download() as info:
        page.locator(".st-key-files-dl-tokenizer-json button").click()
    download = info.value
    assert download.suggested_filename == "tokenizer.json"
    path = tmp_path / "tokenizer.json"
    download.save_as(path)
    hf = HFTokenizer.from_file(str(path))
    cfg = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=40, min_frequency=2)
    run = train(corpus_words(PRESETS["zh-emoji"].load_text(), cfg), cfg)
    ours = Tokenizer.from_run(run)
    for sample in ("一家人 👨‍👩‍👧 很开心 😀", "Hello, world! 你好 🇨🇳", PRESETS["zh-emoji"].load_text()):
        assert hf.encode(sample).ids == ours.encode(sample), sample
        assert hf.decode(hf.encode(sample).ids) == sample
    assert hf.get_vocab_size() == run.vocab_size
    # The snapshots download is one CSV row per merge.
    with page.expect_download() as info:
        page.locator(".st-key-files-dl-snapshots-csv button").click()
    csv_path = tmp_path / "snapshots.csv"
    info.value.save_as(csv_path)
    lines = csv_path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("step,left,right,token,token_id,count,ties,vocab_size,corpus_tokens,stop")
    assert len(lines) == 1 + run.num_steps


def test_the_corpus_chosen_on_one_page_is_the_corpus_of_every_page(app_server, page):
    open_app(page, f"{app_server}/?preset=nihao")
    assert_no_exception(page)
    nihao = PRESETS["nihao"]
    for link, marker in (
        ("Side by side", "#sbs-byte"),
        ("Encode and decode", "#enc-tokens"),
        ("Files", ".st-key-files-dl-vocab-json"),
    ):
        with rerun(page):
            page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=link, exact=True).click()
        page.locator(marker).first.wait_for()
        assert_no_exception(page)
        expect(page.locator('[data-testid="stSidebar"]')).to_contain_text(nihao.provenance)
        expect(page).to_have_url(re.compile(r"[?&]preset=nihao(&|$)"))
    # Side by side on 你好啊 …: the byte-level card's numbers are bpe_core's.
    with rerun(page):
        page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name="Side by side", exact=True).click()
    cfg = TrainConfig(variant="byte", pretokenizer="whitespace", num_merges=10, min_frequency=2)
    run = train(corpus_words(nihao.load_text(), cfg), cfg)
    card = page.locator("#sbs-byte")
    expect(card.locator("[data-vocab]")).to_have_attribute("data-vocab", str(run.vocab_size_at(0)))
    expect(card.locator("[data-tokens]")).to_have_attribute("data-tokens", str(run.corpus_tokens(0)))
    with rerun(page):
        page.get_by_role("button", name=re.compile("Last")).click()
    expect(card.locator("[data-vocab]")).to_have_attribute("data-vocab", str(run.vocab_size_at(run.num_steps)))
