"""The settings widgets of the sidebar (variant, pre-tokenizer, stop condition, minimum frequency,
tie-break rule, end-of-word marker, byte display), seeded from the session's settings."""

from __future__ import annotations

import streamlit as st

from bpe_core import PRETOKENIZERS, TIE_BREAKS, VARIANTS

from . import persist
from .i18n import _
from .settings import (
    BYTE_LABELS,
    BYTE_MODES,
    EOW_LABELS,
    EOW_STYLES,
    MAX_MARKER_CHARS,
    PRE_LABELS,
    TIE_LABELS,
    VARIANT_LABELS,
    max_merges,
)


def _set_setting(name: str) -> None:
    ss = persist.ss()
    ss[persist.K_SETTINGS] = {**ss[persist.K_SETTINGS], name: ss[persist.W + name]}


def _choice(widget, label: str, options, name: str, value, labels: dict | None = None, **kw):
    if labels is not None:
        # Translated now, in the run: a format_func called later (AppTest checks widget values outside
        # the script run) would otherwise find no session language and give English.
        kw["format_func"] = {key: _(text) for key, text in labels.items()}.__getitem__
    return widget(label, options, key=persist.seed(name, value), on_change=_set_setting, args=(name,), **kw)


def _number(label: str, name: str, value: int, lo: int, **kw):
    return st.number_input(label, min_value=lo, step=1, key=persist.seed(name, int(value)), on_change=_set_setting,
                           args=(name,), **kw)  # fmt: skip


def settings_widgets(settings: dict, words_source: bool, compact: bool) -> None:
    """Draw the settings widgets with the canonical values in ``settings`` (``words_source``: the
    pre-tokenizer does not apply; ``compact``: in the narrow presentation expander)."""
    _choice(st.selectbox, "Variant", VARIANTS, "variant", settings["variant"], VARIANT_LABELS,
            help="What the base symbols are: characters, characters plus an end-of-word marker, or UTF-8 bytes.")  # fmt: skip
    _choice(st.selectbox, "Pre-tokenizer", PRETOKENIZERS, "pre", settings["pre"], PRE_LABELS, disabled=words_source,
            help="Splits the text into words first; merges never cross a word boundary. "
            "(Not used for word counts: they are words already.)")  # fmt: skip
    _choice(st.radio, "Stop after", ("merges", "vocab"), "limit", settings["limit"],
            {"merges": "a number of merges", "vocab": "a vocabulary size"}, horizontal=True)  # fmt: skip
    if settings["limit"] == "merges":
        _number("Number of merges", "merges", settings["merges"], 0,
                help=f"At most {max_merges():,} (set BPE_EXPLORER_MAX_MERGES to change the limit).")  # fmt: skip
    else:
        _number("Vocabulary size (base symbols included)", "vocab", settings["vocab"], 1,
                help="Byte-level vocabularies start with 256 tokens.")  # fmt: skip
    _number("Minimum pair frequency", "minf", settings["minf"], 1,
            help="Training stops when the most frequent pair occurs fewer times than this.")  # fmt: skip
    _choice(st.selectbox, "Tie-break rule", TIE_BREAKS, "tie", settings["tie"], TIE_LABELS,
            help="Which pair wins when several have the highest count.")  # fmt: skip
    if settings["variant"] == "eow":
        _choice(st.radio, "End-of-word marker", EOW_STYLES, "eow", settings["eow"], EOW_LABELS)
        st.text_input("Marker text", key=persist.seed("marker", settings["marker"]), max_chars=MAX_MARKER_CHARS,
                      on_change=_set_setting, args=("marker",))  # fmt: skip
    if settings["variant"] == "byte":
        _choice(st.radio, "Show byte tokens as", BYTE_MODES, "bytes", settings["bytes"], BYTE_LABELS,
                horizontal=not compact)  # fmt: skip
