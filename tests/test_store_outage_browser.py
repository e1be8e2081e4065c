"""A live class through a PostgreSQL outage (a real PostgreSQL stopped and started mid-class, a real app server, real
Chromium tabs, no reloads).

While the database is down the teacher presses Next: the class cannot take the step, so the teacher's screen stays
where the class is and says so. A student who opens the join link meanwhile keeps the class in the address. When
the database is back, every open tab resumes on its own (the class script polls, ``ui/static/live_class.js``) within
:data:`RESUME_MS` of the database accepting connections again, and the next step reaches both students.
"""

from __future__ import annotations

import time

import pytest
from browser import ARTIFACTS_DIR, StreamlitServer, assert_no_exception, save_screenshot
from playwright.sync_api import expect

from bpe_server.corpus_store import CorpusStore
from bpe_server.live_class import Classes
from bpe_server.store_db import DATABASE_URL_ENV

pytestmark = pytest.mark.browser

WAIT_MS = 60_000
#: The issue's promise: every open tab is back within 10 s of the store (the class script polls every 0.5 s).
RESUME_MS = 10_000
NEXT = ".st-key-stepper-next button:visible"
#: Set on each tab's window once: still there at the end means the tab was never reloaded.
MARK = "() => { window.__bpeNoReload = 1; }"
NOT_RELOADED = "() => window.__bpeNoReload === 1"


@pytest.fixture(scope="module")
def pg_server(postgres_cluster, tmp_path_factory):
    """An app server (``streamlit run serve.py``) on the session's PostgreSQL database."""
    if not postgres_cluster.is_running():
        postgres_cluster.start()
    cache = tmp_path_factory.mktemp("outage-cache")
    server = StreamlitServer(log_path=ARTIFACTS_DIR / "streamlit-server-outage.log")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(DATABASE_URL_ENV, postgres_cluster.url)
        mp.setenv("XDG_CACHE_HOME", str(cache))
        server.start(timeout=60)
    try:
        yield server
    finally:
        server.stop()
        if not postgres_cluster.is_running():
            postgres_cluster.start()


def _page(browser, pages: list):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US", reduced_motion="reduce")
    page = ctx.new_page()
    page.set_default_timeout(WAIT_MS)
    pages.append(page)
    return page


def _open(page, url: str) -> None:
    page.goto(url, wait_until="domcontentloaded")
    page.locator("#bpe-step-label").first.wait_for()
    page.evaluate(MARK)


def _wait_step(page, step: int, timeout: int = WAIT_MS) -> None:
    page.wait_for_function(
        "(s) => { const l = document.getElementById('bpe-step-label'); return l && l.dataset.step === s; }",
        arg=str(step), timeout=timeout,
    )  # fmt: skip


def _wait_view(page, test: str, timeout: int = WAIT_MS) -> None:
    """Wait until the step view's class marker's signature passes ``test`` (a JS expression of ``s``)."""
    page.wait_for_function(
        f"() => {{ const v = document.getElementById('bpe-class-view'); const s = v && v.dataset.sig; return {test}; }}",
        timeout=timeout,
    )


def test_open_tabs_resume_after_a_database_outage_and_no_press_is_lost(browser, pg_server, postgres_cluster):
    classes = Classes(CorpusStore(postgres_cluster.url))
    code, key = classes.start({"preset": "textbook-low"}, step=0)
    pages: list = []
    try:
        teacher, student = _page(browser, pages), _page(browser, pages)
        _open(teacher, f"{pg_server.url}/?class={code}&teacher={key}")
        _open(student, f"{pg_server.url}/?class={code}")
        teacher.locator(NEXT).first.click()
        _wait_step(student, 1)
        _wait_view(teacher, "s && s !== 'unreachable'")

        postgres_cluster.stop()
        # The teacher's press cannot reach the class: the screen stays at the class's step and says why.
        teacher.locator(NEXT).first.click()
        said = "The class did not take this: the shared store is unreachable. Your screen shows where the class is"
        expect(teacher.get_by_text(said, exact=False).first).to_be_visible(timeout=WAIT_MS)
        save_screenshot(teacher, "store-outage-teacher-refused")
        _wait_view(teacher, "s === 'unreachable'")
        _wait_step(teacher, 1)
        # A student who opens the join link now is told, and keeps the class in the address.
        late = _page(browser, pages)
        late.goto(f"{pg_server.url}/?class={code}", wait_until="domcontentloaded")
        expect(late.get_by_text("The shared store is unreachable", exact=False).first).to_be_visible(timeout=WAIT_MS)
        late.locator("#bpe-step-label").first.wait_for()
        late.evaluate(MARK)
        _wait_view(late, "s === 'unreachable'")
        assert f"class={code}" in late.url
        save_screenshot(teacher, "store-outage-teacher")
        save_screenshot(late, "store-outage-late-student")
        assert classes_step_after_restart(postgres_cluster, classes, code) == 1  # the lost press did not move it

        started = time.monotonic()
        for page in (teacher, student, late):
            left = max(1, int(RESUME_MS - (time.monotonic() - started) * 1000))
            _wait_view(page, "s && s !== 'unreachable'", timeout=left)
        resumed = time.monotonic() - started
        assert f"class={code}" in late.url
        expect(late.locator("#bpe-class-status").first).to_be_visible(timeout=WAIT_MS)  # it joined the class
        assert classes.state(code).students == 2

        teacher.locator(NEXT).first.click()
        for page in (teacher, student, late):
            _wait_step(page, 2)
        assert classes.state(code).step == 2
        for page in (teacher, student, late):
            assert page.evaluate(NOT_RELOADED), "a tab reloaded"
            assert_no_exception(page)
        print(f"every tab resumed {resumed:.1f} s after PostgreSQL was back")
    finally:
        if not postgres_cluster.is_running():
            postgres_cluster.start()
        for page in pages:
            page.context.close()


def classes_step_after_restart(postgres_cluster, classes: Classes, code: str) -> int:
    """Start the database again and read the class's step (the clock of the resume starts after this)."""
    postgres_cluster.start()
    return classes.state(code).step
