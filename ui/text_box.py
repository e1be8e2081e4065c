"""The sidebar's two text boxes (pasted text and a word-count list), and what a large text becomes.

The browser sends every open box's whole value with every click: 3 MB of text made each step take most of a
second. So a text over :data:`BIG_TEXT_CHARS` is kept on the server and its box is closed, leaving a line that
says how large it is, with Edit (opens the box again) and Clear (an empty box).
"""

from __future__ import annotations

import streamlit as st

from bpe_core.inputs import format_size

from . import persist
from .i18n import _, ngettext, tr
from .text import md_escape


def _on_text(kind: str) -> None:
    ss = persist.ss()
    ss[persist.K_PASTE if kind == "paste" else persist.K_WORDS] = ss[persist.W + kind]
    ss[persist.K_LINK_GONE] = None
    ss[persist.K_EDITING] = None
    persist.set_step(0)


def _edit_text(kind: str) -> None:
    persist.ss()[persist.K_EDITING] = kind


def _clear_text(kind: str) -> None:
    ss = persist.ss()
    ss[persist.K_PASTE if kind == "paste" else persist.K_WORDS] = ""
    ss[persist.K_EDITING] = kind
    persist.set_step(0)


#: Characters from which a text given in a text box is kept on the server and its box is closed.
BIG_TEXT_CHARS = 100_000


def text_box(kind: str, label: str, placeholder: str) -> None:
    """The text box of ``kind`` ("paste" or "words"); for a text over :data:`BIG_TEXT_CHARS` not being
    edited, a line saying how large it is, with Edit (opens the box) and Clear (an empty box)."""
    ss = persist.ss()
    text = ss[persist.K_PASTE if kind == "paste" else persist.K_WORDS]
    if len(text) <= BIG_TEXT_CHARS or ss.get(persist.K_EDITING) == kind:
        st.text_area(
            label, key=persist.seed(kind, text), on_change=_on_text, args=(kind,), height=160, placeholder=placeholder
        )
        return
    size = format_size(len(text.encode("utf-8")), tr())
    lines = text.count("\n") + 1
    st.caption(
        md_escape(
            ngettext(
                "{label}: {size} of text, {n} line, kept on the server. Open it to edit it.",
                "{label}: {size} of text, {n} lines, kept on the server. Open it to edit it.",
                lines,
            ).format(label=label, size=size, n=f"{lines:,}")
        )
    )
    edit, clear = st.columns(2)
    edit.button(
        _("Edit"),
        key=f"{kind}.edit",
        on_click=_edit_text,
        args=(kind,),
        width="stretch",
        help=_("Open the text box (a large text makes every click slower while it is open)"),
    )
    clear.button(
        _("Clear"),
        key=f"{kind}.clear",
        on_click=_clear_text,
        args=(kind,),
        width="stretch",
        help=_("Empty the text box, to paste another text"),
    )
