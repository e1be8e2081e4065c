"""The readiness check: may a proxy or a monitor send this app server browsers now?

    GET <server.baseUrlPath>/bpe-api/ready -> 200 {"ready": true}
                                           -> 503 {"ready": false, "reason": "store unreachable"}

Streamlit's own ``/_stcore/health`` answers 200 as soon as the server runs, even with the database down; a class
on a server that cannot reach the shared store stops (its tabs say so and wait). This check answers 200 only when
Streamlit's runtime takes browsers and the store (PostgreSQL, or the SQLite file) answers one ``SELECT 1``; else 503
with a short reason. While PostgreSQL is down the store tries it at most once a second
(:data:`bpe_server.store_db.PROBE_S`), so a monitor polling this often costs the database nothing.
"""

from __future__ import annotations

import sqlite3

from .store_db import StoreUnavailable

#: The route below ``server.baseUrlPath``, beside the class poll (:data:`bpe_server.class_poll.ROUTE`).
ROUTE = "/bpe-api/ready"
NOT_STARTED, STORE_DOWN = "server not started", "store unreachable"


def store_answers() -> bool:
    """Whether this server's store (:func:`bpe_server.corpus_store.default_store`) answers a ``SELECT 1`` now."""
    from .corpus_store import default_store

    try:
        conn = default_store().connect()
        try:
            return conn.execute("SELECT 1").fetchone()[0] == 1
        finally:
            conn.close()
    except (StoreUnavailable, sqlite3.Error, OSError):
        return False


async def runtime_ready() -> bool:
    """Whether Streamlit's runtime takes browser connections (what ``/_stcore/health`` checks)."""
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return False
    ok, _ = await Runtime.instance().is_ready_for_browser_connection  # an async property (Streamlit 1.67)
    return ok


async def ready(request):
    """The endpoint (a Starlette handler): 200 or 503 with JSON, never cached. The store is asked from Starlette's
    thread pool (PostgreSQL is a network round trip), never on the event loop that carries the websockets."""
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import JSONResponse

    if not await runtime_ready():
        status, body = 503, {"ready": False, "reason": NOT_STARTED}
    elif not await run_in_threadpool(store_answers):
        status, body = 503, {"ready": False, "reason": STORE_DOWN}
    else:
        status, body = 200, {"ready": True}
    return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})
