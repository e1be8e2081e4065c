"""A live class's join link, teacher link and QR code, as the teacher's screen shows them.

The join link is the app's address with ``?class=CODE``; the address is ``BPE_EXPLORER_PUBLIC_URL`` when set (a
server behind a proxy), else the one the browser used. The teacher link adds the teacher key (``teacher=``): drawn
only on request, never projected.
"""

from __future__ import annotations

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


def join_url(class_code: str) -> str:
    """``<public address>/?class=CODE``: ``BPE_EXPLORER_PUBLIC_URL`` when set (a server behind a proxy), else the
    address the browser used (scheme, host and path, without the query)."""
    base = os.environ.get(PUBLIC_URL_ENV, "").strip()
    if not base:
        try:
            parts = urlsplit(st.context.url or "")
            base = f"{parts.scheme}://{parts.netloc}{parts.path}" if parts.netloc else ""
        except Exception:  # noqa: BLE001 - no address: the code alone still works
            base = ""
    return f"{base.rstrip('/')}/?{urlencode({PARAM: class_code})}"


def teacher_url(class_code: str, key: str) -> str:
    """The teacher link: the join link with the teacher key (``teacher=``)."""
    return f"{join_url(class_code)}&{urlencode({TEACHER_PARAM: key})}"


def qr_img(url: str) -> str:
    """The QR code of ``url`` as an ``<img>`` of an SVG data URI (``segno``, error correction M) that scales with
    its box (the page's HTML sanitizer keeps an image, not inline SVG)."""
    data = segno.make(url, error="m").svg_data_uri(scale=1, omitsize=True, border=2)
    return f"<img src='{data}' alt='{esc_raw(_('QR code of the join link'))}'>"


def join_html(class_code: str, big: bool) -> str:
    """The code, the join link and its QR code (``big``: for the back of a room)."""
    url = join_url(class_code)
    css = "bpe-class-join big" if big else "bpe-class-join"
    return (
        f"<div class='{css}' id='bpe-class-join'><div class='qr'>{qr_img(url)}</div><div>"
        f"<div class='bpe-muted'>{esc_raw(_('Class code'))}</div>"
        f"<div class='code' id='bpe-class-code'>{esc_raw(class_code)}</div>"
        f"<div class='link'>{esc_raw(url)}</div></div></div>"
    )
