"""Zoom for large halls: a font scale for presentation mode, kept in the session.

Presentation mode sets the root font size (``ui/static/presentation.css``: 21 px); every size of the
app's CSS and of Streamlit's widgets is in ``rem``, so scaling the root scales the whole screen.
"""

from __future__ import annotations

import streamlit as st

from . import persist
from .i18n import _

#: Zoom factors offered (1.0 = presentation mode's own size, fitted to 1280×720).
SCALES = (0.8, 0.9, 1.0, 1.15, 1.3, 1.5)
#: Presentation mode's root font size in px (as in ``presentation.css``).
BASE_PX = 21
KEY = "present.zoom"


def zoom_css(scale: float) -> str:
    """A ``<style>`` setting the root font size to ``scale`` × :data:`BASE_PX` (``scale`` in :data:`SCALES`)."""
    return f"<style>html {{ font-size: {BASE_PX * float(scale):.2f}px; }}</style>"


def zoom_control(container=None) -> float:
    """Draw the zoom picker (in ``container``, default here) and apply its scale; return the scale."""
    place = container if container is not None else st
    scale = place.selectbox(
        _("Zoom"),
        SCALES,
        key=persist.seeded(KEY, 1.0),
        format_func=lambda s: f"🔍 {s:.0%}",
        label_visibility="collapsed",
        on_change=persist.keep,
        args=(KEY,),
        help=_("Type size for the hall: larger for a big room, smaller to fit more on the screen."),
    )
    scale = scale if scale in SCALES else 1.0
    if scale != 1.0:
        st.html(zoom_css(scale))
    return float(scale)
