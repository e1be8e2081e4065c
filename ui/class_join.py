"""A live class's join link, teacher link and QR code, as the teacher's screen shows them.

The join link is the app's address with ``?class=CODE``; the address is ``BPE_EXPLORER_PUBLIC_URL`` when set (a
server behind a proxy), else the one the browser used. The teacher link adds the teacher key (``teacher=``): drawn
only on request, never projected. A teacher who opened the app at this computer's own address (``localhost``,
``127.0.0.1``, ``::1``) would hand out a link no phone can open: the join box says so, and how to give a reachable
one (:func:`loopback_host`).
"""

from __future__ import annotations

import ipaddress
import os
from urllib.parse import urlencode, urlsplit

import segno
import streamlit as st

from bpe_server.live_class import PARAM

from .i18n import _
from .text import esc_raw

PUBLIC_URL_ENV = "BPE_EXPLORER_PUBLIC_URL"
#: The URL parameter of a teacher link (read once, then dropped from the address bar).
TEACHER_PARAM = "teacher"


def _browser_url() -> str:
    """The address the teacher's browser used (``""`` when Streamlit does not say: the code alone still works)."""
    try:
        return st.context.url or ""
    except Exception:  # noqa: BLE001 - no address: the code alone still works
        return ""


def join_url(class_code: str) -> str:
    """``<public address>/?class=CODE``: ``BPE_EXPLORER_PUBLIC_URL`` when set (a server behind a proxy), else the
    address the browser used (scheme, host and path, without the query)."""
    base = os.environ.get(PUBLIC_URL_ENV, "").strip()
    if not base:
        parts = urlsplit(_browser_url())
        base = f"{parts.scheme}://{parts.netloc}{parts.path}" if parts.netloc else ""
    return f"{base.rstrip('/')}/?{urlencode({PARAM: class_code})}"


def loopback_host(browser_url: str, public_url: str = "") -> str | None:
    """The host of ``browser_url`` when the join link would name this computer's own address, which no phone can
    reach: ``localhost`` (or a name under it), an IPv4 or IPv6 loopback address (``127.0.0.1``, ``::1``) or the
    unspecified one (``0.0.0.0``, ``::``). ``None`` when ``public_url`` (``BPE_EXPLORER_PUBLIC_URL``, which then
    makes the link) is set, or the host is another name or address, or there is none. Never raises."""
    if public_url.strip():
        return None
    try:
        host = urlsplit(browser_url).hostname  # lower case, without an IPv6 address's brackets
    except ValueError:  # a malformed address: nothing to say about it
        return None
    if not host:
        return None
    if host == "localhost" or host.endswith(".localhost"):
        return host
    try:
        address = ipaddress.ip_address(host)
    except ValueError:  # a name other than localhost
        return None
    return host if address.is_loopback or address.is_unspecified else None


#: The warning's literal parts, set in code type and never broken across lines (not translated).
_WARNING_CODE = {"example": "http://192.168.1.20:8501", "flag": "--server.address 0.0.0.0", "setting": PUBLIC_URL_ENV}


def loopback_warning(host: str) -> str:
    """What the teacher reads beside the QR code when the join link names ``host``, this computer's own address
    (:func:`loopback_host`): phones cannot open it, and the two ways to a link they can open. Translated HTML: the
    address, the example, the flag and the setting in ``<code>``, escaped."""
    text = esc_raw(
        _(
            "Phones cannot open this link: {host} is this computer's own address. Open the app at this computer's "
            "network address instead (the Network URL Streamlit prints when it starts, such as {example}; start the "
            "app with {flag} if phones still cannot reach it), or set {setting} to the address students can reach."
        )
    )
    code = {name: f"<code>{esc_raw(value)}</code>" for name, value in {"host": host, **_WARNING_CODE}.items()}
    return text.format(**code)


def teacher_url(class_code: str, key: str) -> str:
    """The teacher link: the join link with the teacher key (``teacher=``)."""
    return f"{join_url(class_code)}&{urlencode({TEACHER_PARAM: key})}"


def qr_img(url: str) -> str:
    """The QR code of ``url`` as an ``<img>`` of an SVG data URI (``segno``, error correction M) that scales with
    its box (the page's HTML sanitizer keeps an image, not inline SVG)."""
    data = segno.make(url, error="m").svg_data_uri(scale=1, omitsize=True, border=2)
    return f"<img src='{data}' alt='{esc_raw(_('QR code of the join link'))}'>"


def join_html(class_code: str, big: bool) -> str:
    """The code, the join link and its QR code (``big``: for the back of a room); beside them, when the link names
    this computer's own address (:func:`loopback_host`), the warning that phones cannot open it."""
    url = join_url(class_code)
    css = "bpe-class-join big" if big else "bpe-class-join"
    host = loopback_host(_browser_url(), os.environ.get(PUBLIC_URL_ENV, ""))
    warning = (
        f"<div class='bpe-class-warn' id='bpe-class-join-warning' role='alert'>⚠ {loopback_warning(host)}</div>"
        if host
        else ""
    )
    return (
        f"<div class='{css}' id='bpe-class-join'><div class='qr'>{qr_img(url)}</div><div>"
        f"<div class='bpe-muted'>{esc_raw(_('Class code'))}</div>"
        f"<div class='code' id='bpe-class-code'>{esc_raw(class_code)}</div>"
        f"<div class='link'>{esc_raw(url)}</div>{warning}</div></div>"
    )
