"""Shared pytest fixtures.

Real-browser tests (mark them ``@pytest.mark.browser``) use:

* ``app_server`` (session): base URL (``http://127.0.0.1:<port>``) of the real
  app as users run it, ``streamlit run serve.py`` started from the repo root.
* ``browser`` (session): headless Chromium (Playwright sync API), the system
  ``chromium`` when there is one.
* ``page`` (per test): a fresh context + page (1280x900, light theme); on failure
  a screenshot goes to ``test-artifacts/failures/``.

* ``postgres_cluster`` (session): a throwaway PostgreSQL cluster (``tests/postgres_server.py``), started once,
  removed at the end; ``postgres_url``: its running database's URL (started again if a test stopped it).
* ``store_target`` (per test, parametrised ``sqlite`` / ``postgresql``): where a fresh, empty store goes -- a
  file under ``tmp_path``, or the cluster's database with every table dropped. The store's tests take it, so the
  same tests run on both engines.

Helpers (``from browser import ...``): ``open_app``, ``wait_for_app``, ``rerun``,
``assert_no_exception``, ``save_screenshot``.

Nothing here ever skips: a missing browser, server or dependency is a failure.
A skip caused by a missing import (``pytest.importorskip``) is turned into a
failure as well.
"""

from __future__ import annotations

import re

import pytest
from browser import (
    ARTIFACTS_DIR,
    DEFAULT_TIMEOUT_MS,
    BrowserTestSetupError,
    StreamlitServer,
    launch_chromium,
    save_screenshot,
    track_runs,
)


@pytest.fixture(scope="session")
def app_server(tmp_path_factory):
    """Start the real app once per session (its corpus store in a temporary file); yield its base URL; stop it."""
    server = StreamlitServer()
    error = None
    store = tmp_path_factory.mktemp("store") / "corpora.sqlite3"
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("BPE_EXPLORER_STORE", str(store))
            # Above the default 20,000: the streaming test needs a run that trains for seconds.
            mp.setenv("BPE_EXPLORER_MAX_MERGES", "100000")
            url = server.start(timeout=60)
    except BrowserTestSetupError as exc:
        error = str(exc)
    if error is not None:  # outside `except`: no chained traceback in the report
        pytest.fail(f"could not start the app server:\n{error}", pytrace=False)
    try:
        yield url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_cluster():
    """One PostgreSQL cluster for the whole session (a missing server is a failure saying what to install)."""
    from postgres_server import PostgresCluster, PostgresSetupError

    error, cluster = None, None
    try:
        cluster = PostgresCluster()
        cluster.start()
    except PostgresSetupError as exc:
        error = str(exc)
    if error is not None:
        if cluster is not None:
            cluster.remove()
        pytest.fail(f"could not start PostgreSQL:\n{error}", pytrace=False)
    try:
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture
def postgres_url(postgres_cluster):
    """The URL of the session's PostgreSQL database, running (a test that stopped it leaves it to be restarted)."""
    if not postgres_cluster.is_running():
        postgres_cluster.start()
    return postgres_cluster.url


@pytest.fixture(params=["sqlite", "postgresql"])
def store_target(request, tmp_path):
    """A fresh store's place on each engine (see the module docstring)."""
    if request.param == "sqlite":
        return str(tmp_path / "s.sqlite3")
    import psycopg

    url = request.getfixturevalue("postgres_url")
    with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")
    return url


@pytest.fixture(scope="session")
def playwright_instance():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        sync_playwright, error = None, f"playwright is not installed ({exc}); run `sh run.sh test`"
    if sync_playwright is None:
        pytest.fail(error, pytrace=False)
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright_instance):
    error = None
    try:
        chromium = launch_chromium(playwright_instance)
    except BrowserTestSetupError as exc:
        error = str(exc)
    if error is not None:
        pytest.fail(error, pytrace=False)
    yield chromium
    chromium.close()


_PHASE_REPORTS = pytest.StashKey[dict]()


@pytest.fixture
def page(browser, request):
    context = browser.new_context(
        viewport={"width": 1280, "height": 900},
        color_scheme="light",
        reduced_motion="reduce",
        locale="en-US",
    )
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    trackers = []  # every page of the test, opened any way (wait_for_app reads its tracker), closed or not
    context.on("page", lambda p: trackers.append(track_runs(p)))
    pg = context.new_page()
    try:
        yield pg
    finally:
        faults = [text for tracker in trackers for text in tracker.faults]
        reports = request.node.stash.get(_PHASE_REPORTS, {})
        if faults or any(rep.failed for rep in reports.values()):
            name = re.sub(r"[^A-Za-z0-9._-]+", "_", request.node.nodeid)
            try:
                path = save_screenshot(pg, f"failures/{name}", full_page=True)
                print(f"screenshot of the failing page: {path.relative_to(ARTIFACTS_DIR.parent)}")
            except Exception as exc:  # never hide the real failure
                print(f"could not save a failure screenshot: {exc}")
        context.close()
    # Every test's pages: one that could not use its server's message dropped its connection (a press lost).
    if faults:
        pytest.fail("a page could not use a message from its server:\n" + "\n".join(faults), pytrace=False)


# --------------------------------------------------------------------------
# Hooks
# --------------------------------------------------------------------------

_IMPORT_SKIP = re.compile(r"could not import|No module named", re.IGNORECASE)


def _fail_import_skip(report) -> None:
    """A skip because something could not be imported is a failure here."""
    if not report.skipped or getattr(report, "wasxfail", None) is not None:
        return
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
    if _IMPORT_SKIP.search(reason):
        report.outcome = "failed"
        report.longrepr = (
            f"{reason}\n"
            "Skipping for a missing dependency is not allowed in this project: "
            "add it to requirements-dev.txt (sh run.sh test installs it)."
        )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    _fail_import_skip(report)
    item.stash.setdefault(_PHASE_REPORTS, {})[report.when] = report
    return report


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """A test that opens a page (the ``page``, ``browser`` or ``app_server`` fixture) is a browser test, marked or
    not, so that ``-m "not browser"`` leaves out every test that needs Chromium or the app's server."""
    for item in items:
        if {"page", "browser", "app_server"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    report = yield
    _fail_import_skip(report)
    return report


@pytest.fixture(autouse=True)
def _english_outside_script_runs():
    """Code called outside a Streamlit script run (ui.settings in unit tests) speaks the language the last run in
    this process resolved (``ui.i18n._last``): start every test from English, so no test depends on the language
    an earlier AppTest left behind."""
    from ui import i18n

    i18n._last["lang"] = "en"
