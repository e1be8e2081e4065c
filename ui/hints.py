"""Hints about the user's own text, each with a one-click fix: a text written without spaces under the
whitespace pre-tokenizer (offer the GPT-2 or GPT-4 pattern), and a file with Windows line ends (CR LF: offer LF).

The judgements are :mod:`bpe_core.scripts` and :func:`bpe_core.inputs.line_ends`; they are cached per text (the
same string object is kept in the session or the upload store), so a rerun does not rescan a large text.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import streamlit as st

from bpe_core.inputs import line_ends
from bpe_core.scripts import whitespace_hint

from . import persist
from .i18n import _, current_language, ngettext, tr
from .settings_form import set_settings


@lru_cache(maxsize=16)
def _hint(text: str, pre: str, lang: str) -> str | None:
    return whitespace_hint(text, pre, tr=tr())


@lru_cache(maxsize=16)
def _crlf(text: str) -> int:
    return line_ends(text).crlf


def _use(pre: str) -> None:
    set_settings(pre=pre)
    persist.set_step(0)


def space_free_hint(text: str, settings: dict) -> bool:
    """When most of ``text`` is written without spaces and the pre-tokenizer is whitespace, say what that does
    and offer the GPT-2 pattern (or GPT-4's) in one click. Returns True when the hint was shown."""
    hint = _hint(text, settings["pre"], current_language())
    if hint is None:
        return False
    with st.container(border=True, key="bpe-space-hint"):
        st.info(hint, icon="💡")
        left, right = st.columns(2)
        left.button(_("Use the GPT-2 pattern"), key="w.hint.gpt2", type="primary", on_click=_use, args=("gpt2",),
                    width="stretch")  # fmt: skip
        right.button(_("Use the GPT-4 pattern"), key="w.hint.gpt4", on_click=_use, args=("gpt4",), width="stretch")
    return True


def crlf_note(text: str, to_lf: Callable[[], None]) -> bool:
    """When ``text`` has Windows line ends (CR LF), say that the first merge will likely be CR + LF and offer
    ``to_lf`` (a callback that replaces the text with its LF form) in one click. Returns True when shown."""
    crlf = _crlf(text)
    if not crlf:
        return False
    with st.container(border=True, key="bpe-crlf-note"):
        st.info(
            ngettext(
                "This file has a Windows line end: {n} line end is CR + LF, two characters (shown ⇤ ↵). The "
                "first merge may be CR + LF, which teaches little; the file is kept as it is unless you "
                "choose LF.",
                "This file has Windows line ends: {n} line ends are CR + LF, two characters (shown ⇤ ↵). The "
                "first merge will likely be CR + LF, which teaches little; the file is kept as it is unless you "
                "choose LF.",
                crlf,
            ).format(n=f"{crlf:,}")
        )
        st.button(_("Use LF line ends"), key="w.hint.lf", on_click=to_lf)
    return True
