"""How a live class's screen learns that something changed: a tiny HTTP endpoint, not a Streamlit run.

Streamlit cannot push to a browser, so every class tab asks the server "what is the class's version now?" about twice
a second. Answering that with a script run (a fragment with ``run_every``) costs the server ~7 ms per ask: 40
students asking every 0.75 s keep a third of a core busy doing nothing. Here the question is a plain HTTP GET that
never touches Streamlit's script runner:

    GET <server.baseUrlPath>/bpe-api/class/<CODE>            -> {"sig": "7", "version": 7, "step": 12, ...}
    GET <server.baseUrlPath>/bpe-api/class/<CODE>?activity=1 -> {"sig": "7.31", ...}   (the teacher's screen)

One primary-key read (:meth:`bpe_server.live_class.Classes.poll`), answered ``Cache-Control: no-store``. The
page's class script (``ui/static/live_class.js``) compares ``sig`` with the signature the step view was drawn at
(:func:`bpe_server.live_class.signature`) and, when the class is newer, presses the step view's hidden "sync"
button: only then does Streamlit run anything. The class code is all the request carries: the teacher key never goes into a
poll (``activity=1`` only asks for the counter of picks and joins, which anyone with the code may read).

Answers: 200 with the counters; 404 ``{"sig": "gone"}`` for a code that is unknown, expired or not a code's shape;
503 ``{"sig": "unreachable"}`` when the store cannot be read (the page's next run says so).

Beside it, :func:`routes` mounts the readiness check (:mod:`bpe_server.ready`) and the route that sets the class
cookies (:mod:`bpe_server.cookie_route`). The routes exist only when the app is served by ``serve.py`` (``streamlit
run serve.py``: an ``st.App`` with :func:`routes`). Run any other way (``streamlit run app.py``, Streamlit's ``AppTest``), :func:`poll_url` is
``None`` and the page falls back to a polling fragment that draws the same answer (:func:`answer`).
"""

from __future__ import annotations

import sqlite3

from .live_class import PARAM, default_classes, normalize_code, signature
from .store_db import StoreUnavailable

#: The route below ``server.baseUrlPath`` (outside Streamlit's reserved ``/_stcore/``, ``/media/``,
#: ``/component/``, ``/static/`` and the pages' one-segment paths).
ROUTE = "/bpe-api/" + PARAM + "/{code}"
GONE, UNREACHABLE = "gone", "unreachable"
#: The query parameter that asks for the teacher's signature (the version and the activity counter).
ACTIVITY = "activity"

_mounted_base: str | None = None  # server.baseUrlPath ("" for none) once routes() built the routes, else None


def answer(code: str | None, teacher: bool) -> tuple[int, dict]:
    """``(HTTP status, JSON body)`` of a poll of class ``code``: 200 with ``sig``
    (:func:`bpe_server.live_class.signature`: with the activity counter when ``teacher``), ``version``, ``activity``,
    ``step``, ``ended`` and ``asking`` (:class:`bpe_server.live_class.Poll`); 404 with ``sig`` :data:`GONE`; 503 with
    ``sig`` :data:`UNREACHABLE`. One primary-key read; never raises for a bad code."""
    code = normalize_code(code) if code else None
    if code is None:
        return 404, {"sig": GONE}
    try:
        got = default_classes().poll(code)  # the pages' Classes object (one per store)
    except (StoreUnavailable, sqlite3.Error, OSError):
        return 503, {"sig": UNREACHABLE}
    if got is None:
        return 404, {"sig": GONE}
    body = {
        "sig": signature(got.version, got.activity, teacher),
        "version": got.version,
        "activity": got.activity,
        "step": got.step,
        "ended": got.ended,
        "asking": got.asking,
    }
    return 200, body


async def class_version(request):
    """The endpoint (a Starlette handler). On SQLite it answers on the event loop itself: the read takes tens of
    microseconds, less than handing it to a worker thread (measured: the hop made a poll cost 0.6 ms more). On
    PostgreSQL the read is a network round trip, so it goes to Starlette's thread pool and never holds up the loop
    that carries every tab's websocket."""
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import JSONResponse

    from .corpus_store import default_target
    from .store_db import is_database_url

    code, teacher = request.path_params.get("code"), request.query_params.get(ACTIVITY) == "1"
    if is_database_url(default_target()):
        status, body = await run_in_threadpool(answer, code, teacher)
    else:
        status, body = answer(code, teacher)
    return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})


def routes() -> list:
    """The routes ``serve.py`` adds to Streamlit's server under ``server.baseUrlPath`` (read now: ``streamlit run``
    loads the config before it imports the entry module): the class poll, the readiness check
    (:mod:`bpe_server.ready`) and the class cookies (:mod:`bpe_server.cookie_route`)."""
    from starlette.routing import Route
    from streamlit import config

    from . import cookie_route, ready

    global _mounted_base
    _mounted_base = config.get_option("server.baseUrlPath") or ""
    return [
        Route(route_url(ROUTE), class_version, methods=["GET"], name="bpe-class-poll"),
        Route(route_url(ready.ROUTE), ready.ready, methods=["GET"], name="bpe-ready"),
        Route(route_url(cookie_route.ROUTE), cookie_route.set_cookie, methods=["POST"], name="bpe-cookie"),
    ]


def route_url(route: str) -> str | None:
    """The absolute path (from the server's root, with ``server.baseUrlPath``) of one of :func:`routes`' routes
    (``route``: its path below the base), or ``None`` when this server has none (``streamlit run app.py``)."""
    from streamlit.url_util import make_url_path

    return None if _mounted_base is None else make_url_path(_mounted_base, route)


def poll_url(code: str, teacher: bool) -> str | None:
    """The absolute path a class tab polls (:func:`route_url`), or ``None`` when this server has no poll route (the
    page then uses its polling fragment)."""
    url = route_url(ROUTE.replace("{code}", code))
    return None if url is None else url + (f"?{ACTIVITY}=1" if teacher else "")
