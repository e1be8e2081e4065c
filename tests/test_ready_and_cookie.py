"""The app server's readiness check (``bpe_server/ready.py``) against a real PostgreSQL stopped and started, and the
class cookies the server sets (``bpe_server/cookie_route.py``: HttpOnly, SameSite=Strict, Secure over HTTPS), on a
real ``streamlit run serve.py`` as users run it."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import pytest
from browser import ARTIFACTS_DIR, StreamlitServer

from bpe_server.corpus_store import CorpusStore
from bpe_server.live_class import Classes, new_student_id
from bpe_server.store_db import DATABASE_URL_ENV


@pytest.fixture(scope="module")
def served(postgres_cluster, tmp_path_factory):
    """The URL of an app server on the session's PostgreSQL database."""
    if not postgres_cluster.is_running():
        postgres_cluster.start()
    server = StreamlitServer(log_path=ARTIFACTS_DIR / "streamlit-server-ready.log")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(DATABASE_URL_ENV, postgres_cluster.url)
        mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("ready-cache")))
        server.start(timeout=60)
    try:
        yield server.url
    finally:
        server.stop()


def request(url: str, body: object = None, headers: dict | None = None) -> tuple[int, bytes, dict]:
    """``(status, body, headers)`` of a GET (or, with ``body``, a POST of it as JSON)."""
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.read(), resp.headers
    except urllib.error.HTTPError as err:
        return err.code, err.read(), err.headers


def wait_ready(url: str, status: int, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        got, body, headers = request(f"{url}/bpe-api/ready")
        if got == status or got not in (200, 503) or time.monotonic() > deadline:
            assert got == status, body
            assert headers["cache-control"] == "no-store" and headers["content-type"] == "application/json"
            return json.loads(body)
        time.sleep(0.2)


def test_ready_answers_503_with_a_reason_while_postgres_is_down_and_200_again_after(served, postgres_cluster):
    assert wait_ready(served, 200) == {"ready": True}
    postgres_cluster.stop()
    try:
        assert wait_ready(served, 503) == {"ready": False, "reason": "store unreachable"}
        assert request(f"{served}/_stcore/health")[0] == 200  # Streamlit's own check cannot tell
    finally:
        postgres_cluster.start()
    started = time.monotonic()
    assert wait_ready(served, 200) == {"ready": True}
    assert time.monotonic() - started < 10  # the store probes the database every second, not after 10 s


def test_the_teacher_key_cookie_is_set_by_the_server_httponly_strict_and_secure_over_https(served, postgres_url):
    code, key = Classes(CorpusStore(postgres_url)).start({"preset": "textbook-low"}, step=0)
    name, url = f"bpe_teach_{code}", f"{served}/bpe-api/cookie"
    status, _, headers = request(url, {"name": name, "value": key})
    assert status == 204
    cookie = headers["set-cookie"]
    parts = [p.strip().lower() for p in cookie.split(";")]
    assert cookie.startswith(f"{name}={key};")
    assert {"httponly", "samesite=strict", "path=/", "max-age=86400"} <= set(parts) and "secure" not in parts
    # Behind a proxy that took the browser's HTTPS (nginx sends X-Forwarded-Proto), the cookie is Secure.
    status, _, headers = request(url, {"name": name, "value": key}, {"X-Forwarded-Proto": "https"})
    assert status == 204 and "secure" in [p.strip().lower() for p in headers["set-cookie"].split(";")]

    status, _, headers = request(url, {"name": name, "value": "a-key-that-is-not-the-classes"})
    assert status == 403 and "set-cookie" not in headers  # only the class's own key
    sid = new_student_id()
    status, _, headers = request(url, {"name": "bpe_student", "value": sid})
    assert status == 204 and headers["set-cookie"].startswith(f"bpe_student={sid};")
    for bad in ({"name": "session", "value": "x" * 20}, {"name": "bpe_student", "value": "a;b"}, [1], b"{not json"):
        status, _, headers = request(url, bad)
        assert status == 400 and "set-cookie" not in headers, bad
    assert "bpe_" not in str(request(url)[2].get_all("set-cookie"))  # a GET sets nothing
