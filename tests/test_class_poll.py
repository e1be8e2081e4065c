"""The live class's poll endpoint (bpe_server/class_poll.py) on a real server, ``streamlit run serve.py`` as users
run it.

The server and this test share one real SQLite store file: the test starts classes and acts as their teacher through
:class:`bpe_server.live_class.Classes` (the same code the pages call), and reads what the server answers over HTTP. One
Chromium test checks that a class tab really polls the endpoint, without the teacher key, and follows the teacher;
one AppTest checks the fallback (no endpoint: the polling fragment).
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from contextlib import closing

import pytest
from app_helpers import APP, bodies, no_exception
from browser import DEFAULT_TIMEOUT_MS, BrowserTestSetupError, StreamlitServer, open_app, wait_for_app

from bpe_server.corpus_store import CorpusStore
from bpe_server.live_class import Classes, new_student_id


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``(base URL, Classes on the server's store file)`` of a real ``streamlit run serve.py``."""
    store = tmp_path_factory.mktemp("poll-store") / "corpora.sqlite3"
    server, error = StreamlitServer(), None
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("BPE_EXPLORER_STORE", str(store))
            url = server.start(timeout=60)
    except BrowserTestSetupError as exc:
        error = str(exc)
    if error is not None:
        pytest.fail(f"could not start the app server:\n{error}", pytrace=False)
    try:
        yield url, Classes(CorpusStore(store))
    finally:
        server.stop()


def get(url: str) -> tuple[int, dict, dict]:
    """``(status, JSON body, headers)`` of a plain GET: no cookie, no key, nothing but the address."""
    try:
        with urllib.request.urlopen(url, timeout=30) as resp:
            return resp.status, json.loads(resp.read()), dict(resp.headers)
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read()), dict(err.headers)


def test_the_poll_answers_the_version_and_changes_with_a_teacher_step(served):
    url, classes = served
    code, key = classes.start({"preset": "textbook-low"}, step=0)
    status, body, headers = get(f"{url}/bpe-api/class/{code}")
    assert status == 200 and headers["cache-control"] == "no-store"
    version = classes.poll(code).version
    assert body == {"sig": str(version), "version": version, "activity": 0, "step": 0, "ended": False, "asking": False}

    classes.set_step(code, key, 3)  # the teacher's press, as the page makes it
    status, after, _ = get(f"{url}/bpe-api/class/{code}")
    assert status == 200 and after["step"] == 3 and after["version"] > version and after["sig"] == str(after["version"])
    # A code is read forgivingly, as the join box reads it.
    assert get(f"{url}/bpe-api/class/{code.lower()}")[1] == after

    # A question on merge 4 is open, then closed, then revealed: the poll says so until the reveal (a tab then
    # shows no step of its own ahead of the server, which could give the merge away).
    classes.ask(code, key, ["right", "wrong", "wrong"])
    assert get(f"{url}/bpe-api/class/{code}")[1]["asking"] is True
    classes.close(code, key)
    assert get(f"{url}/bpe-api/class/{code}")[1]["asking"] is True
    classes.reveal(code, key)
    assert get(f"{url}/bpe-api/class/{code}")[1]["asking"] is False

    classes.end(code, key)
    assert get(f"{url}/bpe-api/class/{code}")[1]["ended"] is True


def test_the_teachers_signature_counts_joins_and_picks_a_students_does_not(served):
    url, classes = served
    code, key = classes.start({"preset": "textbook-low"}, step=0)
    teacher0 = get(f"{url}/bpe-api/class/{code}?activity=1")[1]
    student0 = get(f"{url}/bpe-api/class/{code}")[1]
    assert teacher0["sig"] == f"{teacher0['version']}.0"

    classes.join(code, new_student_id(), "Ada")
    teacher1 = get(f"{url}/bpe-api/class/{code}?activity=1")[1]
    assert teacher1["sig"] == f"{teacher0['version']}.1"  # the projector's "answered" count must redraw
    assert get(f"{url}/bpe-api/class/{code}")[1]["sig"] == student0["sig"]  # a student's screen need not


@pytest.mark.parametrize("code", ["QQQQQQ", "abc", "K7QX2M0", "%3Cscript%3E", "%E4%BD%A0%E5%A5%BD"])
def test_unknown_and_malformed_codes_are_answered_cleanly(served, code):
    url, _ = served
    status, body, headers = get(f"{url}/bpe-api/class/{code}")
    assert (status, body) == (404, {"sig": "gone"}) and headers["content-type"] == "application/json"


def test_a_path_trick_never_reaches_the_endpoint(served):
    url, _ = served
    with pytest.raises(urllib.error.HTTPError) as refused:  # Streamlit's path guard answers first
        urllib.request.urlopen(f"{url}/bpe-api/class/..%2F..%2Fetc", timeout=30)
    assert refused.value.code == 400


def test_an_expired_class_is_gone(served):
    url, classes = served
    code, _ = classes.start({"preset": "textbook-low"}, step=0)
    with closing(classes.store.connect()) as conn:  # the teacher's last action 13 hours ago (expiry: 12 h)
        conn.execute("UPDATE classes SET teacher_seen = teacher_seen - 13 * 3600 WHERE code = ?", (code,))
    assert get(f"{url}/bpe-api/class/{code}")[:2] == (404, {"sig": "gone"})


def test_the_route_follows_server_base_url_path(tmp_path):
    class Prefixed(StreamlitServer):
        def command(self, port: int) -> list[str]:
            return [*super().command(port), "--server.baseUrlPath", "bpe"]

        @property
        def url(self) -> str:  # everything, the health check included, lives under the prefix
            return f"http://127.0.0.1:{self.port}/bpe"

    store = tmp_path / "corpora.sqlite3"
    classes = Classes(CorpusStore(store))
    code, _ = classes.start({"preset": "textbook-low"}, step=2)
    server = Prefixed()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BPE_EXPLORER_STORE", str(store))
        url = server.start(timeout=60)
    try:
        status, body, _ = get(f"{url}/bpe-api/class/{code}")
        assert status == 200 and body["step"] == 2
        with pytest.raises(urllib.error.HTTPError):  # nothing answers outside the prefix
            urllib.request.urlopen(f"http://127.0.0.1:{server.port}/bpe-api/class/{code}", timeout=30)
    finally:
        server.stop()


def test_the_poll_on_a_shared_postgresql_store(postgres_url, postgres_cluster):
    # PostgreSQL answers from Starlette's thread pool (a network round trip stays off the event loop).
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True, connect_timeout=10) as conn:
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")
    classes = Classes(CorpusStore(postgres_url))
    code, key = classes.start({"preset": "textbook-low"}, step=0)
    server = StreamlitServer()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BPE_EXPLORER_DATABASE_URL", postgres_url)
        url = server.start(timeout=60)
    try:
        before = get(f"{url}/bpe-api/class/{code}")[1]
        classes.set_step(code, key, 1)
        status, after, _ = get(f"{url}/bpe-api/class/{code}")
        assert status == 200 and after["step"] == 1 and after["version"] > before["version"]
        assert get(f"{url}/bpe-api/class/QQQQQQ")[:2] == (404, {"sig": "gone"})
        postgres_cluster.stop()  # the database goes down: a clean answer the page turns into its message
        assert get(f"{url}/bpe-api/class/{code}")[:2] == (503, {"sig": "unreachable"})
    finally:
        server.stop()
        if not postgres_cluster.is_running():
            postgres_cluster.start()


@pytest.mark.browser
def test_a_class_tab_polls_the_endpoint_without_the_key_and_follows_the_teacher(served, browser):
    url, classes = served
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US") for _ in range(2)]
    polls: list[tuple[str, object]] = []
    try:
        teacher, student = (c.new_page() for c in contexts)
        for who, page in (("teacher", teacher), ("student", student)):
            page.set_default_timeout(DEFAULT_TIMEOUT_MS)
            page.on("request", lambda r, who=who: "/bpe-api/class/" in r.url and polls.append((who, r)))
        open_app(teacher, url)
        teacher.get_by_text("Live class", exact=True).click()
        teacher.get_by_role("button", name="Start a class").click()
        code = teacher.locator("#bpe-class-code").inner_text(timeout=DEFAULT_TIMEOUT_MS).strip()
        # Just after drawing the class the page asks the server's cookie route to keep the key: HttpOnly (no script
        # reads it), SameSite=Strict.
        deadline = time.monotonic() + 60
        while not (cookie := next((c for c in contexts[0].cookies() if c["name"] == f"bpe_teach_{code}"), None)):
            assert time.monotonic() < deadline, "no teacher key cookie"
            time.sleep(0.1)
        key = cookie["value"]
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and not cookie["secure"]
        assert teacher.evaluate("document.cookie").find("bpe_teach_") < 0
        # The page names the endpoint, not a polling fragment.
        poll_marker = teacher.locator("#bpe-class-poll")
        assert poll_marker.get_attribute("data-url") == f"/bpe-api/class/{code}?activity=1"

        open_app(student, f"{url}/?class={code}")
        student.wait_for_selector('#bpe-class-view[data-step="0"]', state="attached")
        teacher.get_by_role("button", name=re.compile(r"^Next")).first.click()
        wait_for_app(teacher)
        # The student's tab follows by itself: the poll sees the new version, the step view reruns.
        student.wait_for_selector('#bpe-step-label[data-step="1"]', state="attached", timeout=3 * DEFAULT_TIMEOUT_MS)
        student.wait_for_selector('#bpe-class-view[data-step="1"]', state="attached")
        assert classes.poll(code).step == 1

        assert {who for who, _ in polls} == {"teacher", "student"}
        for who, request in polls:
            path = request.url.split("://", 1)[1].split("/", 1)[1]
            assert path == f"bpe-api/class/{code}" + ("?activity=1" if who == "teacher" else ""), request.url
            headers = request.all_headers()  # the cookie header too (``headers`` leaves it out)
            assert "cookie" not in headers and key not in json.dumps(headers), headers
    finally:
        for c in contexts:
            c.close()


def test_without_the_endpoint_the_page_polls_with_a_fragment(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    store = tmp_path / "corpora.sqlite3"
    monkeypatch.setenv("BPE_EXPLORER_STORE", str(store))
    code, _ = Classes(CorpusStore(store)).start({"preset": "textbook-low"}, step=0)
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["class"] = code
    at.run()
    no_exception(at)
    version = Classes(CorpusStore(store)).poll(code).version
    assert f"<div id='bpe-class-poll' data-sig='{version}'></div>" in bodies(at)
    assert not any("data-url=" in b for b in bodies(at))
