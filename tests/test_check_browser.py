"""Check your BPE in a real Chromium: upload a merges file, read the report, both pair-table rows marked."""

from __future__ import annotations

from browser import assert_no_exception, open_app, rerun, save_screenshot, wait_for_app
from playwright.sync_api import expect

from bpe_core import Tokenizer, corpus_words, train
from bpe_core.config import TrainConfig
from bpe_core.formats.files import merges_txt, vocab_json

# Word types counted once (not once per occurrence) on the textbook corpus: l o (in low and lower) comes
# first, where the reference merges e s (9 times).
WORD_FREQUENCY_SLIP = b"#version: 0.2\nl o\nlo w\ne s\n"


def test_an_uploaded_merges_file_gets_its_report(app_server, page):
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    open_app(page, f"{app_server}/Check_your_BPE?preset=textbook-low")
    assert_no_exception(page)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": "merges.txt", "mimeType": "text/plain", "buffer": WORD_FREQUENCY_SLIP}]
    )
    summary = page.locator("#check-summary[data-cause='word-frequency']")
    expect(summary).to_have_attribute("data-step", "1", timeout=30_000)
    wait_for_app(page)
    assert_no_exception(page)
    expect(summary).to_contain_text("part at merge 1")
    # Both rows of the pair table before merge 1 are marked, each with its badge and count.
    chosen, yours = page.locator("#bpe-pairs tr.chosen"), page.locator("#bpe-pairs tr.yours")
    expect(chosen).to_have_count(1)
    expect(yours).to_have_count(1)
    expect(chosen).to_contain_text("9")
    expect(chosen.locator(".bpe-badge.chosen")).to_have_text("reference")
    expect(yours).to_contain_text("7")
    expect(yours.locator(".bpe-badge.yours")).to_have_text("yours")
    expect(page.locator("#check-pairs")).to_contain_text("l + o")
    expect(page.locator("#check-words li")).to_have_count(4)
    link = page.get_by_role("link", name="The algorithm in five stages ↗")
    expect(link).to_have_attribute("href", "How_BPE_works#algorithm")
    save_screenshot(page, "check/report-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    wait_for_app(page)
    save_screenshot(page, "check/report-390-top")
    yours.scroll_into_view_if_needed()
    expect(yours).to_be_in_viewport()
    save_screenshot(page, "check/report-390-table")
    assert not errors, errors


def test_an_encoder_checked_against_an_uploaded_model(app_server, page):
    cfg = TrainConfig(variant="byte", pretokenizer="gpt2", num_merges=20)
    text = "the lowest price is lower than the last one, the newest is the widest"
    tok = Tokenizer.from_run(train(corpus_words(text, cfg), cfg))
    ids = tok.encode("the lowest")
    wrong = ids[:1] + [tok.vocab[bytes([b])] for b in b" lowest"]
    open_app(page, f"{app_server}/Check_your_BPE?preset=textbook-low")
    page.get_by_role("tab", name="Check an encoder").click()
    with rerun(page):
        page.get_by_text("Upload vocab.json + merges.txt", exact=True).click()
    inputs = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
    expect(inputs).to_have_count(3)  # the merges file, then vocab.json and merges.txt
    with rerun(page):
        inputs.nth(1).set_input_files(
            files=[{"name": "vocab.json", "mimeType": "application/json", "buffer": vocab_json(tok).encode()}]
        )
    with rerun(page):
        inputs.nth(2).set_input_files(
            files=[{"name": "merges.txt", "mimeType": "text/plain", "buffer": merges_txt(tok).encode()}]
        )
    page.get_by_label("Text", exact=True).fill("the lowest")
    page.get_by_label("Your encoder's token ids (12, 5, 7) or tokens").fill(", ".join(map(str, wrong)))
    page.keyboard.press("Control+Enter")
    report = page.locator("#check-encoder[data-position='1']")
    expect(report).to_contain_text("It falls in pre-token 2:", timeout=30_000)
    expect(report.locator("ol.bpe-check-merges li").first).to_be_visible()
    assert_no_exception(page)
    save_screenshot(page, "check/encoder-upload")
