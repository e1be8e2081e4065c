"""Two app servers on one PostgreSQL store (real Streamlit servers, real Chromium): a text pasted on server A gives
a link that opens the same corpus on server B, addressed directly; a class started on A is followed by a student on
B. Each server has its own cache folder (``XDG_CACHE_HOME``) and trains for itself; only the store is shared. The
two servers are started once for the module."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from browser import DEFAULT_TIMEOUT_MS, StreamlitServer, assert_no_exception, open_app, paste_text, wait_for_app
from corpora import PASTED_ZH_EMOJI
from playwright.sync_api import expect

from ui.corpus_store import CorpusStore, is_corpus_id
from ui.live_class import Classes
from ui.store_db import DATABASE_URL_ENV

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def two_servers(postgres_cluster, tmp_path_factory):
    if not postgres_cluster.is_running():
        postgres_cluster.start()
    postgres_url, tmp_path = postgres_cluster.url, tmp_path_factory.mktemp("two-servers")
    servers = []
    try:
        for name in ("a", "b"):
            server = StreamlitServer()
            with pytest.MonkeyPatch.context() as mp:
                mp.setenv(DATABASE_URL_ENV, postgres_url)
                mp.setenv("XDG_CACHE_HOME", str(tmp_path / f"cache-{name}"))
                mp.setenv("BPE_EXPLORER_STORE", str(tmp_path / f"cache-{name}" / "unused.sqlite3"))
                server.start(timeout=60)
            servers.append(server)
        yield servers
    finally:
        for server in servers:
            server.stop()


def test_a_link_made_on_one_server_opens_on_another(browser, two_servers, postgres_url):
    a, b = two_servers
    assert a.url != b.url  # two processes, two ports
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-US", reduced_motion="reduce")
    ctx.set_default_timeout(DEFAULT_TIMEOUT_MS)
    try:
        page = ctx.new_page()
        open_app(page, f"{a.url}/?preset=textbook-low&step=0")
        paste_text(page, PASTED_ZH_EMOJI)
        wait_for_app(page)
        link = {k: v[0] for k, v in parse_qs(urlparse(page.url).query).items()}
        assert is_corpus_id(link["corpus"])
        assert CorpusStore(postgres_url).get(link["corpus"]) == (PASTED_ZH_EMOJI, "text")  # in the shared store

        other = ctx.new_page()  # server B: it never saw the text
        open_app(other, f"{b.url}/?" + "&".join(f"{k}={v}" for k, v in link.items()))
        expect(other.get_by_label("Text to train on")).to_have_value(PASTED_ZH_EMOJI, timeout=60_000)
        assert_no_exception(other)
        assert "not on this server" not in other.locator("body").inner_text()
    finally:
        ctx.close()


def test_a_class_started_on_one_server_is_followed_on_another(browser, two_servers, postgres_url):
    a, b = two_servers
    contexts = []

    def new_page(base: str, query: str, selector: str):
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US", reduced_motion="reduce")
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{base}/{query}", wait_until="domcontentloaded")
        page.locator(selector).first.wait_for()
        return page

    try:
        teacher = new_page(a.url, "", "#bpe-step-label")
        teacher.get_by_text("Live class", exact=True).click()
        teacher.get_by_role("button", name="Start a class", exact=True).click()
        teacher.locator("#bpe-class-code").first.wait_for()
        code = teacher.locator("#bpe-class-code").inner_text().strip()

        student = new_page(b.url, f"?class={code}", "#bpe-class-status")  # server B: the class is in the store
        assert Classes(CorpusStore(postgres_url)).state(code).students == 1
        teacher.locator(".st-key-stepper-next button:visible").first.click()
        teacher.wait_for_function(
            "() => { const l = document.getElementById('bpe-step-label'); return l && l.dataset.step !== '0'; }"
        )
        step = teacher.locator("#bpe-step-label").first.get_attribute("data-step")
        student.locator(f"#bpe-step-label[data-step='{step}']").first.wait_for()  # followed, across servers
        assert_no_exception(student)
        assert_no_exception(teacher)
    finally:
        for ctx in contexts:
            ctx.close()
