"""The settings widgets of the sidebar (variant, pre-tokenizer and its pattern, stop condition, minimum
frequency, tie-break rule, end-of-word marker, byte display), seeded from the session's settings."""

from __future__ import annotations

import streamlit as st

from bpe_core import EXAMPLE_PATTERN, PRETOKENIZER_CHOICES, TIE_BREAKS, VARIANTS
from bpe_core.pretokenize import REGEX

from . import persist
from .i18n import N_, _
from .settings import (
    BYTE_LABELS,
    BYTE_MODES,
    EOW_LABELS,
    EOW_STYLES,
    MAX_MARKER_CHARS,
    MAX_PATTERN_CHARS,
    PRE_LABELS,
    TIE_LABELS,
    VARIANT_LABELS,
    max_merges,
    stepper_algorithms,
    threshold_name,
)

LIMIT_LABELS = {"merges": N_("a number of merges"), "vocab": N_("a vocabulary size")}
#: The training algorithms by name (another registered one is shown by its name).
ALGORITHM_LABELS = {
    "bpe": N_("BPE: the most frequent pair"),
    "wordpiece": N_("WordPiece: the highest score (stepper)"),
    "unigram": N_("Unigram: prune by the loss (stepper)"),
    "picky": N_("PickyBPE: BPE that removes intermediate tokens (stepper)"),
    "boundless": N_("BoundlessBPE: merges across pre-tokens too (stepper)"),
}


def _set_setting(name: str) -> None:
    ss = persist.ss()
    ss[persist.K_SETTINGS] = {**ss[persist.K_SETTINGS], name: ss[persist.W + name]}


def set_settings(**values) -> None:
    """Change settings from a callback (a button's ``on_click``): the widgets show them on the next run."""
    ss = persist.ss()
    ss[persist.K_SETTINGS] = {**ss[persist.K_SETTINGS], **values}


def _choice(widget, label: str, options, name: str, value, labels: dict | None = None, **kw):
    if labels is not None:
        # Translated now, in the run: a format_func called later (AppTest checks widget values outside
        # the script run) would otherwise find no session language and give English.
        kw["format_func"] = {key: _(text) for key, text in labels.items()}.__getitem__
    return widget(label, options, key=persist.seed(name, value), on_change=_set_setting, args=(name,), **kw)


def _number(label: str, name: str, value: int, lo: int, **kw):
    return st.number_input(
        label, min_value=lo, step=1, key=persist.seed(name, int(value)), on_change=_set_setting, args=(name,), **kw
    )


def pattern_widgets(settings: dict, sample: str | None) -> None:
    """The pattern box of the ``regex`` pre-tokenizer, the example pattern (one click) and a live preview of
    how the first lines of ``sample`` (the corpus's start; ``None``: none to show) split."""
    st.text_area(
        _("Pattern (regular expression)"),
        key=persist.seed("pattern", settings["pattern"]),
        height=80,
        max_chars=MAX_PATTERN_CHARS,
        on_change=_set_setting,
        args=("pattern",),
        placeholder=EXAMPLE_PATTERN,
        help=_(
            "The regex package's syntax (as Python's re, plus \\p{L} for letters and more). Every match "
            "is a piece; text between matches is kept as a piece of its own."
        ),
    )
    st.button(
        _("Use the example (GPT-2, simplified to ASCII)"),
        key="w.pattern.example",
        on_click=set_settings,
        kwargs={"pattern": EXAMPLE_PATTERN},
        width="stretch",
    )
    if settings["pattern"] and sample:
        from .pattern_preview import pattern_preview  # the user's own pattern only: a preset never loads it

        pattern_preview(sample, settings["pattern"])


def transition_widget(settings: dict) -> None:
    """SuperBPE's transition point (``transition``): empty for plain BPE, else the merge after which merges may
    cross spaces."""
    st.number_input(
        _("SuperBPE transition point (merge)"),
        min_value=0,
        max_value=max_merges(),
        step=1,
        key=persist.seed("transition", settings.get("transition")),
        on_change=_set_setting,
        args=("transition",),
        placeholder=_("empty: plain BPE"),
        help=_(
            "SuperBPE: after this many merges, training goes on with the text cut only at numbers, runs of "
            "punctuation and repeated spaces, so later merges may join words (“ of the”). At most the number of "
            "merges; equal to it: plain BPE."
        ),
    )


def threshold_widget(settings: dict) -> None:
    """The IoS threshold of PickyBPE (``picky``, its T) or of BoundlessBPE (``tau``): one box, its own setting."""
    name = threshold_name(settings.get("algo", "bpe"))
    st.number_input(
        _("IoS threshold T") if name == "picky" else _("IoS threshold tau"),
        min_value=0.01,
        max_value=1.0,
        step=0.05,
        format="%.2f",
        key=persist.seed(name, float(settings.get(name, 0.9))),
        on_change=_set_setting,
        args=(name,),
        help=_(
            "PickyBPE removes a part of a merge once the merge takes at least this share of its occurrences "
            "(its IoS, intersection over self). 1: only a part the merge takes whole."
        )
        if name == "picky"
        else _(
            "BoundlessBPE removes a part of a merge inside a pre-token once the merge takes at least this share of "
            "its occurrences (its IoS, intersection over self), as PickyBPE does. 1: only a part the merge takes "
            "whole."
        ),
    )


def settings_widgets(settings: dict, words_source: bool, compact: bool, sample: str | None = None) -> None:
    """Draw the settings widgets with the canonical values in ``settings`` (``words_source``: the
    pre-tokenizer does not apply; ``compact``: in the narrow presentation expander; ``sample``: the start
    of the corpus text, for the pattern preview)."""
    labels = {name: _(text) for name, text in ALGORITHM_LABELS.items()}  # (translated now: see _choice)
    _choice(
        st.selectbox,
        _("Algorithm"),
        stepper_algorithms(),
        "algo",
        settings.get("algo", "bpe"),
        format_func=lambda name: labels.get(name, name),
        help=_(
            "WordPiece, Unigram, PickyBPE and BoundlessBPE are stepped on the stepper page; the other pages show BPE."
        ),
    )
    if settings.get("algo") in ("picky", "boundless"):
        threshold_widget(settings)
    _choice(
        st.selectbox,
        _("Variant"),
        VARIANTS,
        "variant",
        settings["variant"],
        VARIANT_LABELS,
        help=_("What the base symbols are: characters, characters plus an end-of-word marker, or UTF-8 bytes."),
    )
    _choice(
        st.selectbox,
        _("Pre-tokenizer"),
        PRETOKENIZER_CHOICES,
        "pre",
        settings["pre"],
        PRE_LABELS,
        disabled=words_source,
        help=_(
            "Splits the text into words first; merges never cross a word boundary. "
            "(Not used for word counts: they are words already.)"
        ),
    )
    if settings["pre"] == REGEX and not words_source:
        pattern_widgets(settings, sample)
    _choice(st.radio, _("Stop after"), ("merges", "vocab"), "limit", settings["limit"], LIMIT_LABELS, horizontal=True)
    if settings["limit"] == "merges":
        _number(
            _("Number of merges"),
            "merges",
            settings["merges"],
            0,
            help=_("At most {n} on this server.").format(n=f"{max_merges():,}"),
        )
    else:
        _number(
            _("Vocabulary size (base symbols included)"),
            "vocab",
            settings["vocab"],
            1,
            help=_("Byte-level vocabularies start with 256 tokens."),
        )
    if settings["variant"] == "byte" and settings.get("algo", "bpe") == "bpe" and not words_source:
        transition_widget(settings)
    _number(
        _("Minimum pair frequency"),
        "minf",
        settings["minf"],
        1,
        help=_("Training stops when the most frequent pair occurs fewer times than this."),
    )
    _choice(
        st.selectbox,
        _("Tie-break rule"),
        TIE_BREAKS,
        "tie",
        settings["tie"],
        TIE_LABELS,
        help=_("Which pair wins when several have the highest count."),
    )
    if settings["variant"] == "eow":
        _choice(st.radio, _("End-of-word marker"), EOW_STYLES, "eow", settings["eow"], EOW_LABELS)
        st.text_input(
            _("Marker text"),
            key=persist.seed("marker", settings["marker"]),
            max_chars=MAX_MARKER_CHARS,
            on_change=_set_setting,
            args=("marker",),
        )
    if settings["variant"] == "byte":
        _choice(
            st.radio,
            _("Show byte tokens as"),
            BYTE_MODES,
            "bytes",
            settings["bytes"],
            BYTE_LABELS,
            horizontal=not compact,
        )
