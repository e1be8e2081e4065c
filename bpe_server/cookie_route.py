"""Who a browser is in a live class, kept in cookies the server sets: the teacher key and the student id.

    POST <server.baseUrlPath>/bpe-api/cookie  {"name": "bpe_teach_K7QX2M", "value": "<teacher key>"}
    POST <server.baseUrlPath>/bpe-api/cookie  {"name": "bpe_student", "value": "<student id>"}
      -> 204, Set-Cookie: <name>=<value>; Max-Age=86400; Path=/; HttpOnly; SameSite=Strict[; Secure]

A cookie set by JavaScript can be read by JavaScript (any script injected into the page could take the teacher
key); one set by a response can be ``HttpOnly``. ``Secure`` when the page came over HTTPS: the request's own scheme,
or behind a proxy its ``X-Forwarded-Proto`` (``deploy/nginx/bpe-explorer.conf`` sends it). The page's class script
posts here once after a class is started or joined (:func:`ui.class_view.poll`); Streamlit reads the cookies from
the websocket's handshake when a tab opens (``st.context.cookies``), which is same-site, so ``SameSite=Strict`` loses
nothing. Only these two cookies, only values of their shape, and a teacher key only when it is the class's (so this
route cannot be used to plant anything else): else 400 (403 for a wrong key, 503 when the store cannot say).
"""

from __future__ import annotations

import sqlite3

from .live_class import default_classes, is_student_id, normalize_code
from .store_db import StoreUnavailable

ROUTE = "/bpe-api/cookie"
STUDENT_COOKIE = "bpe_student"
KEY_COOKIE = "bpe_teach_"  # + the class code
#: Seconds the cookies last (a class expires 12 h after the teacher's last action).
MAX_AGE_S = 24 * 3600


def is_https(scheme: str, forwarded_proto: str | None) -> bool:
    """Whether the browser's page is served over HTTPS: the request's ``scheme``, or the first value of the proxy's
    ``X-Forwarded-Proto`` header (``forwarded_proto``, ``None`` without one)."""
    if forwarded_proto:
        return forwarded_proto.split(",")[0].strip().lower() == "https"
    return scheme == "https"


def check(name: object, value: object) -> int:
    """The HTTP status for setting cookie ``name`` to ``value``: 204 (allowed), 400 (not one of ours, or not of its
    shape), 403 (not the class's teacher key), 503 (the store cannot say). Reads the store for a teacher key."""
    if not isinstance(name, str) or not isinstance(value, str) or not value.replace("-", "").replace("_", "").isalnum():
        return 400
    if name == STUDENT_COOKIE:
        return 204 if is_student_id(value) else 400
    code = normalize_code(name[len(KEY_COOKIE) :]) if name.startswith(KEY_COOKIE) else None
    if code is None or name != KEY_COOKIE + code:
        return 400
    try:
        return 204 if default_classes().is_teacher(code, value) else 403
    except (StoreUnavailable, sqlite3.Error, OSError):
        return 503


async def set_cookie(request):
    """The endpoint (a Starlette handler); the store is read in Starlette's thread pool."""
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import Response

    try:
        body = await request.json()
    except ValueError:
        body = None
    name, value = (body.get("name"), body.get("value")) if isinstance(body, dict) else (None, None)
    status = await run_in_threadpool(check, name, value)
    response = Response(status_code=status, headers={"Cache-Control": "no-store"})
    if status == 204:
        secure = is_https(request.url.scheme, request.headers.get("x-forwarded-proto"))
        response.set_cookie(name, value, max_age=MAX_AGE_S, path="/", httponly=True, samesite="strict", secure=secure)
    return response
