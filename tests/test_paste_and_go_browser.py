"""Issue 15 in a real Chromium: the pasted 红楼梦 + emoji case (hint, one click to the GPT-2 pattern, the choice in
the URL) at 1280×720 and 1920×1080; a shared link with a pasted corpus in a fresh browser, and after a server
restart; a link to a missing corpus; ← and → right after a choice and right after the page is drawn.

These tests run their own servers on one temporary corpus store (``BPE_EXPLORER_STORE``), so that one can be
stopped and another started on the same store.
"""

from __future__ import annotations

import re

import pytest
from browser import (
    DEFAULT_TIMEOUT_MS,
    StreamlitServer,
    assert_no_exception,
    open_app,
    paste_text,
    rerun,
    save_screenshot,
    url_query,
    wait_for_app,
    wait_for_server_step,
)
from corpora import PASTED_ZH_EMOJI
from playwright.sync_api import expect

from bpe_server.corpus_store import STORE_ENV, is_corpus_id

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def store_path(tmp_path_factory):
    return tmp_path_factory.mktemp("links") / "corpora.sqlite3"


def _start(store_path, server: StreamlitServer | None = None) -> StreamlitServer:
    server = server or StreamlitServer()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(STORE_ENV, str(store_path))
        server.start(timeout=60)
    return server


@pytest.fixture(scope="module")
def server(store_path):
    srv = _start(store_path)
    try:
        yield srv
    finally:
        srv.stop()


def _context(browser, width: int, height: int):
    ctx = browser.new_context(viewport={"width": width, "height": height}, color_scheme="light", locale="en-US",
                              reduced_motion="reduce")  # fmt: skip
    ctx.set_default_timeout(DEFAULT_TIMEOUT_MS)
    return ctx


def _step(page, n: int, timeout: int = 30_000) -> None:
    wait_for_server_step(page, n, timeout)


def _pick(page, label: str, option) -> None:
    """Pick ``option`` (a name or a pattern) in the sidebar's selectbox ``label`` with the mouse."""
    box = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').filter(has_text=label)
    wanted = page.get_by_role("option", name=option, exact=isinstance(option, str))
    for _attempt in range(3):  # a click while the list is still being drawn may not open it
        box.get_by_role("combobox").click()
        try:
            wanted.wait_for(timeout=3_000)
            break
        except Exception:
            page.keyboard.press("Escape")
    with rerun(page):
        wanted.click()


def _pasted_with_gpt2(page, base: str) -> None:
    """The issue's case: paste 红楼梦 + emoji, see the hint, one click to the GPT-2 pattern."""
    open_app(page, f"{base}/?preset=textbook-low&step=0")
    paste_text(page, PASTED_ZH_EMOJI)
    hint = page.locator(".st-key-bpe-space-hint")
    hint.wait_for()
    assert "written without spaces" in hint.inner_text()
    assert url_query(page).get("pre") is None
    with rerun(page, timeout=60_000):
        page.get_by_role("button", name="Use the GPT-2 pattern").click()
    _step(page, 0)
    assert page.locator(".st-key-bpe-space-hint").count() == 0
    assert url_query(page)["pre"] == "gpt2"
    pre = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').filter(has_text="Pre-tokenizer")
    shown = pre.inner_text() + " " + pre.locator("input").first.input_value()
    assert "GPT-2" in shown, shown  # the choice is visible in the settings


@pytest.mark.parametrize("width, height", [(1280, 720), (1920, 1080)])
def test_pasted_chinese_and_emoji_get_the_hint_and_one_click_to_gpt2(browser, server, width, height):
    ctx = _context(browser, width, height)
    page = ctx.new_page()
    try:
        _pasted_with_gpt2(page, server.url)
        assert_no_exception(page)
        save_screenshot(page, f"paste-and-go/zh-emoji-gpt2-{width}x{height}")
    finally:
        ctx.close()


def test_a_shared_link_opens_the_same_corpus_and_step_in_a_fresh_browser_and_after_a_restart(
    browser, server, store_path
):
    ctx = _context(browser, 1280, 720)
    page = ctx.new_page()
    try:
        _pasted_with_gpt2(page, server.url)
        for n in (1, 2, 3):
            page.keyboard.press("ArrowRight")  # the focus is not left in the button or the selectbox
            _step(page, n)
        wait_for_app(page)
        link = url_query(page)
        assert is_corpus_id(link["corpus"]) and link["step"] == "3" and link["pre"] == "gpt2"
        first = page.locator(".bpe-merge").first.inner_text()
    finally:
        ctx.close()
    suffix = "/?" + "&".join(f"{k}={v}" for k, v in link.items())

    def check(base: str, name: str) -> None:
        fresh = _context(browser, 1280, 720)
        pg = fresh.new_page()
        try:
            open_app(pg, base + suffix)
            _step(pg, 3)
            assert_no_exception(pg)
            # The sidebar may fill its text box a moment after the step is drawn: wait for it, don't sample once.
            expect(pg.get_by_label("Text to train on")).to_have_value(PASTED_ZH_EMOJI, timeout=30_000)
            assert pg.locator(".bpe-merge").first.inner_text() == first
            assert url_query(pg)["corpus"] == link["corpus"]
            save_screenshot(pg, f"paste-and-go/{name}")
        finally:
            fresh.close()

    check(server.url, "link-fresh-browser")
    server.stop()
    try:
        second = _start(store_path)  # a new process on the same store
        try:
            check(second.url, "link-after-restart")
        finally:
            second.stop()
    finally:
        _start(store_path, server)  # the module's other tests go on with a server, whatever happened here


def test_a_link_to_a_missing_corpus_says_so(browser, server):
    ctx = _context(browser, 1280, 720)
    page = ctx.new_page()
    try:
        open_app(page, f"{server.url}/?corpus=aaaaaaaaaaaaaaaa&step=4")
        error = page.locator('[data-testid="stAlertContentError"]').first
        error.wait_for()
        assert "not on this server any more" in error.inner_text()
        assert page.locator("#bpe-step-label").count() == 0  # no other corpus instead
        assert url_query(page)["corpus"] == "aaaaaaaaaaaaaaaa"
        assert_no_exception(page)
        save_screenshot(page, "paste-and-go/missing-corpus")
    finally:
        ctx.close()


def test_arrow_keys_step_right_after_a_preset_pick_and_a_source_click(browser, server):
    ctx = _context(browser, 1280, 720)
    page = ctx.new_page()
    try:
        open_app(page, f"{server.url}/?preset=textbook-low&step=0")
        _step(page, 0)
        _pick(page, "Preset corpus", re.compile("lowest price"))
        _step(page, 0)
        page.keyboard.press("ArrowRight")
        _step(page, 1)
        page.keyboard.press("ArrowLeft")
        _step(page, 0)
        _pick(page, "Variant", "Bytes (UTF-8, 256 base tokens)")
        _step(page, 0)
        page.keyboard.press("ArrowRight")
        _step(page, 1)
        assert url_query(page)["variant"] == "byte"
        with rerun(page):
            page.get_by_text("Paste text", exact=True).click()  # a radio clicked with the mouse
        assert page.evaluate("document.activeElement.tagName") != "INPUT"
        save_screenshot(page, "paste-and-go/sidebar-1280x720")
    finally:
        ctx.close()


def test_the_first_arrow_key_once_the_stepper_is_drawn_works(browser, server):
    # The script finishes before the browser has drawn the stepper: Streamlit loads the code of its buttons
    # (and of st.html) on first use, after the run; a key pressed before that has no button to press.
    for _attempt in range(4):
        ctx = _context(browser, 1280, 720)
        page = ctx.new_page()
        try:
            open_app(page, f"{server.url}/?preset=textbook-low&step=0")
            _step(page, 0)
            page.keyboard.press("ArrowRight")
            _step(page, 1)
        finally:
            ctx.close()
