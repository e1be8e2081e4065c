"""Two app servers on one PostgreSQL store (real Streamlit servers, real Chromium), addressed directly and through
nginx with the repository's configuration (``deploy/nginx/bpe-explorer.conf``, ``tests/nginx_server.py``).

Directly: a text pasted on server A gives a link that opens the same corpus on server B. Through nginx: ten browser
sessions step without errors, each held to one replica by the sticky cookie and spread over both; an upload reaches
the session's own replica (the proxy's body limit lets a file over the app's limit through to the app's message); a
class started through the proxy on one replica is followed by a student the proxy sends to the other. Each server
has its own cache folder (``XDG_CACHE_HOME``) and trains for itself; only the store is shared; both have the same
``server.cookieSecret``, as the deployment guide says. The servers and nginx are started once for the module."""

from __future__ import annotations

import time

import pytest
from browser import (
    ARTIFACTS_DIR,
    DEFAULT_TIMEOUT_MS,
    assert_no_exception,
    open_app,
    paste_text,
    wait_for_app,
    wait_for_server_step,
    wait_for_url_param,
)
from corpora import PASTED_ZH_EMOJI
from deploy_units import Checkout, UnitServer
from nginx_server import ROUTE_COOKIE, NginxProxy, sticky_key
from playwright.sync_api import expect

from bpe_server.corpus_store import CorpusStore, is_corpus_id
from bpe_server.live_class import Classes
from bpe_server.store_db import DATABASE_URL_ENV

pytestmark = pytest.mark.browser

SESSIONS = 10  # browser sessions through nginx at once
NEXT = ".st-key-stepper-next button:visible"


@pytest.fixture(scope="module")
def two_servers(postgres_cluster):
    """Two replicas started as the systemd units start them (``tests/deploy_units.py``: the unit's command line, its
    cache folder per port, one environment file with the database URL and the cookie secret)."""
    if not postgres_cluster.is_running():
        postgres_cluster.start()
    checkout = Checkout({DATABASE_URL_ENV: postgres_cluster.url, "STREAMLIT_SERVER_COOKIE_SECRET": "one-test-secret"})
    servers = []
    try:
        for name in ("a", "b"):
            server = UnitServer(checkout, log_path=ARTIFACTS_DIR / f"streamlit-server-{name}.log")
            server.start(timeout=60)
            servers.append(server)
        yield servers
    finally:
        for server in servers:
            server.stop()
        checkout.remove()


@pytest.fixture(scope="module")
def proxy(two_servers):
    """nginx with the repository's site file in front of both servers."""
    nginx = NginxProxy([f"127.0.0.1:{server.port}" for server in two_servers])
    try:
        nginx.start()
        yield nginx
    finally:
        nginx.stop()


def _replica(proxy: NginxProxy, context) -> str:
    """The one replica that answered every request of ``context`` so far (its sticky cookie, read in the log)."""
    key = sticky_key(context)
    assert key, "nginx set no bpe_replica cookie"
    replicas = proxy.replicas_of(key)
    assert len(replicas) == 1, f"the requests of one browser went to {replicas or 'no replica'}"
    return replicas.pop()


def test_a_link_made_on_one_server_opens_on_another(browser, two_servers, postgres_url):
    a, b = two_servers
    assert a.url != b.url  # two processes, two ports
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-US", reduced_motion="reduce")
    ctx.set_default_timeout(DEFAULT_TIMEOUT_MS)
    try:
        page = ctx.new_page()
        open_app(page, f"{a.url}/?preset=textbook-low&step=0")
        paste_text(page, PASTED_ZH_EMOJI)
        link = wait_for_url_param(page, "corpus", timeout=30_000)
        assert is_corpus_id(link["corpus"])
        assert CorpusStore(postgres_url).get(link["corpus"]) == (PASTED_ZH_EMOJI, "text")  # in the shared store

        other = ctx.new_page()  # server B: it never saw the text
        open_app(other, f"{b.url}/?" + "&".join(f"{k}={v}" for k, v in link.items()))
        expect(other.get_by_label("Text to train on")).to_have_value(PASTED_ZH_EMOJI, timeout=60_000)
        assert_no_exception(other)
        assert "not on this server" not in other.locator("body").inner_text()
    finally:
        ctx.close()


def test_ten_sessions_through_nginx_step_each_on_one_replica_spread_over_both(browser, two_servers, proxy):
    replicas = {f"127.0.0.1:{server.port}" for server in two_servers}
    contexts, pages = [], []
    try:
        for _ in range(SESSIONS):  # ten browsers at once, each its own cookie jar
            ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-US", reduced_motion="reduce")
            ctx.set_default_timeout(90_000)  # ten pages at once load slowly on a busy machine
            contexts.append(ctx)
            page = ctx.new_page()
            page.goto(f"{proxy.url}/?preset=textbook-low&step=0", wait_until="domcontentloaded")
            pages.append(page)
        for page in pages:
            wait_for_app(page, timeout=90_000)
            page.locator(NEXT).first.click()
        for page in pages:
            wait_for_server_step(page, 1, timeout=90_000)
        for page in pages:
            assert_no_exception(page)
        chosen = [_replica(proxy, ctx) for ctx in contexts]  # each session: every request to one replica
        assert set(chosen) <= replicas
        keys = [sticky_key(ctx) for ctx in contexts]
        assert len(set(keys)) == SESSIONS  # a cookie of its own for every browser

        # The spread is chance (a random id hashed): all ten on one replica happens about once in 350 runs. Then
        # more sessions are opened until one lands on the other replica (bounded), so that chance does not fail
        # the test while a proxy that sends everything to one replica still does.
        for _ in range(20):
            if set(chosen) == replicas:
                break
            ctx = browser.new_context(locale="en-US")
            contexts.append(ctx)
            open_app(ctx.new_page(), f"{proxy.url}/?preset=textbook-low&step=0", timeout=90_000)
            chosen.append(_replica(proxy, ctx))
        assert set(chosen) == replicas, f"every session went to {set(chosen)}"
    finally:
        for ctx in contexts:
            ctx.close()
    # The websockets are logged as they close: each went to its session's replica, upgraded (101).
    for key, replica in zip(keys, chosen, strict=False):
        streams = proxy.requests_of(key, "/_stcore/stream", timeout=30)
        assert streams and {(r.replica, r.status) for r in streams} == {(replica, 101)}, streams


def test_an_upload_through_nginx_reaches_the_session_s_replica(browser, proxy):
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-US", reduced_motion="reduce")
    ctx.set_default_timeout(60_000)
    try:
        page = ctx.new_page()
        open_app(page, f"{proxy.url}/?preset=textbook-low&step=0", timeout=90_000)
        page.get_by_text("Upload .txt", exact=True).click()
        wait_for_app(page)
        big = ("low lower newest widest\n" * 260_000).encode()  # 6.2 MB: over the app's 5 MB, under Streamlit's 25
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
            files=[{"name": "big.txt", "mimeType": "text/plain", "buffer": big}]
        )
        # The app's own size message: the file passed nginx's body limit and reached the replica whose session
        # asked for it (the upload is kept in that replica's memory; the XSRF cookie is signed by the shared secret).
        expect(page.get_by_text("this server accepts texts up to 5.0 MB", exact=False)).to_be_visible(timeout=90_000)
        assert_no_exception(page)
        uploads = proxy.requests_of(sticky_key(ctx), "/_stcore/upload_file/")
        assert uploads and {r.status for r in uploads} == {204}, uploads  # stored, no content
        assert {r.replica for r in uploads} == {_replica(proxy, ctx)}
    finally:
        ctx.close()


def test_a_class_started_through_nginx_is_followed_on_the_other_replica(browser, two_servers, proxy, postgres_url):
    contexts = []

    def new_context():
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US", reduced_motion="reduce")
        ctx.set_default_timeout(60_000)
        contexts.append(ctx)
        return ctx

    def open_page(ctx, query: str, selector: str):
        page = ctx.new_page()
        page.goto(f"{proxy.url}/{query}", wait_until="domcontentloaded")
        page.locator(selector).first.wait_for()
        return page

    try:
        teacher_ctx = new_context()
        teacher = open_page(teacher_ctx, "", "#bpe-step-label")
        on_teacher = _replica(proxy, teacher_ctx)
        teacher.get_by_text("Live class", exact=True).click()
        teacher.get_by_role("button", name="Start a class", exact=True).click()
        teacher.locator("#bpe-class-code").first.wait_for()
        code = teacher.locator("#bpe-class-code").inner_text().strip()
        # The join link names the proxy's address (nginx passes the Host the browser used on to the replica).
        assert f"{proxy.url}/?class={code}" in teacher.locator("#bpe-class-join").first.inner_text()

        for _ in range(30):  # a student browser the proxy sends to the other replica (chance: one in two a try)
            student_ctx = new_context()
            student_ctx.request.get(f"{proxy.url}/_stcore/health")  # nginx sets its sticky cookie
            if _replica(proxy, student_ctx) != on_teacher:
                break
        assert _replica(proxy, student_ctx) != on_teacher, "30 browsers, all sent to the teacher's replica"
        student = open_page(student_ctx, f"?class={code}", "#bpe-class-status")
        assert _replica(proxy, student_ctx) != on_teacher  # the page and its websocket stayed there
        assert Classes(CorpusStore(postgres_url)).state(code).students == 1
        teacher.locator(NEXT).first.click()
        teacher.wait_for_function(
            "() => { const l = document.getElementById('bpe-step-label'); return l && l.dataset.step !== '0'; }"
        )
        step = teacher.locator("#bpe-step-label").first.get_attribute("data-step")
        student.locator(f"#bpe-step-label[data-step='{step}']").first.wait_for()  # followed, across replicas
        assert_no_exception(student)
        assert_no_exception(teacher)
    finally:
        for ctx in contexts:
            ctx.close()


def _route(context) -> str | None:
    """The replica (``host:port``) nginx's route cookie names for a browser context."""
    return next((c["value"] for c in context.cookies() if c["name"] == ROUTE_COOKIE), None)


def test_a_tab_moved_by_a_replica_restart_stays_on_its_new_replica_with_downloads_and_uploads(
    browser, two_servers, proxy, postgres_url
):
    """A student's replica restarts mid-class: the tab moves to the other replica and follows on, without a reload;
    when its old replica is back, every request of the tab (the CSV download from /media/, an upload) still reaches
    the replica that holds its session (a hash alone would send it back: 404)."""
    contexts = []

    def new_context():
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US", reduced_motion="reduce")
        ctx.set_default_timeout(60_000)
        contexts.append(ctx)
        return ctx

    try:
        classes = Classes(CorpusStore(postgres_url))
        code, key = classes.start({"preset": "textbook-low"}, step=0)
        teacher = new_context().new_page()
        teacher.goto(f"{proxy.url}/?class={code}&teacher={key}", wait_until="domcontentloaded")
        teacher.locator("#bpe-class-view").first.wait_for(state="attached")
        on_teacher = _route(teacher.context)
        for _ in range(30):  # a student the proxy sends to the other replica (one in two a try)
            student_ctx = new_context()
            student_ctx.request.get(f"{proxy.url}/_stcore/health")
            if _route(student_ctx) != on_teacher:
                break
        mine = _route(student_ctx)
        assert mine and mine != on_teacher, "30 browsers, all sent to the teacher's replica"
        student = student_ctx.new_page()
        console = []
        student.on("console", lambda m: console.append(f"{time.monotonic():.1f} {m.type}: {m.text}"))
        student.on("framenavigated", lambda f: console.append(f"{time.monotonic():.1f} navigated {f.url}"))
        student.on("websocket", lambda w: console.append(f"{time.monotonic():.1f} websocket {w.url}"))
        student.on("request", lambda r: "/_stcore/" in r.url and console.append(f"{time.monotonic():.1f} {r.url}"))
        student.goto(f"{proxy.url}/?class={code}", wait_until="domcontentloaded")
        student.locator("#bpe-class-view").first.wait_for(state="attached")
        student.evaluate("() => { window.__bpeNoReload = 1; }")

        restarted = next(server for server in two_servers if f"127.0.0.1:{server.port}" == mine)
        restarted.stop()
        console.append(f"{time.monotonic():.1f} stopped")
        teacher.locator(NEXT).first.click()
        student.locator("#bpe-step-label[data-step='1']").first.wait_for()  # followed, now on the teacher's replica
        assert _route(student_ctx) == on_teacher
        restarted.start(timeout=60, port=restarted.port)  # the old replica is back, on its address
        teacher.locator(NEXT).first.click()
        student.locator("#bpe-step-label[data-step='2']").first.wait_for()
        assert _route(student_ctx) == on_teacher

        student.get_by_text("The merges so far (2)").click()
        with student.expect_download() as info:
            student.get_by_role("button", name="⬇ CSV").click()
        assert info.value.failure() is None
        assert info.value.suggested_filename == "bpe-merges-2.csv"
        downloads = proxy.requests_of(sticky_key(student_ctx), "/media/")
        assert downloads and {(r.replica, r.status) for r in downloads} == {(on_teacher, 200)}, downloads

        student.get_by_text("Upload .txt", exact=True).click()
        big = ("low lower newest widest\n" * 260_000).encode()  # over the app's 5 MB: its own message answers
        student.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
            files=[{"name": "big.txt", "mimeType": "text/plain", "buffer": big}]
        )
        expect(student.get_by_text("this server accepts texts up to 5.0 MB", exact=False)).to_be_visible(timeout=90_000)
        uploads = proxy.requests_of(sticky_key(student_ctx), "/_stcore/upload_file/")
        assert uploads and {(r.replica, r.status) for r in uploads} == {(on_teacher, 204)}, uploads
        assert student.evaluate("() => window.__bpeNoReload === 1"), "the student's tab reloaded:\n" + "\n".join(
            console
        )
        assert_no_exception(student)
    finally:
        for ctx in contexts:
            ctx.close()
