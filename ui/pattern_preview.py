"""The live preview of a user's pre-tokenizer pattern: how the first lines of the corpus split, each piece a
chip with its whitespace visible, the text the pattern did not match marked; or the pattern's problem (invalid,
can match the empty string, ran past its time budget), said plainly.

The split itself is :func:`bpe_core.pretokenize.split_preview` (Hugging Face ``Split`` with ``isolated``: text
between matches is kept as pieces of its own); a pattern that backtracks is stopped by the ``regex`` package's
timeout, so the server never hangs on it.
"""

from __future__ import annotations

from functools import lru_cache

import streamlit as st

from bpe_core import PatternError
from bpe_core.pretokenize import split_preview

from .i18n import _, ngettext, tr
from .settings import PREVIEW_CHARS
from .text import esc, esc_raw

#: Lines of the corpus the preview splits (at most :data:`ui.settings.PREVIEW_CHARS` characters of them).
PREVIEW_LINES = 5
#: Most pieces drawn (the rest are counted).
PREVIEW_PIECES = 200

_CSS = (
    "<style>.bpe-pv{display:flex;flex-wrap:wrap;gap:3px;font-family:'DejaVu Sans Mono','Noto Sans Mono CJK SC',"
    "monospace;font-size:.8rem;line-height:1.3}.bpe-pv span{border:1px solid #789;border-radius:4px;padding:0 4px;"
    "background:#eef3f8;white-space:pre-wrap;overflow-wrap:anywhere;max-width:100%}"
    ".bpe-pv span.miss{border:2px dashed #b00020;background:#fde8ea}.bpe-pv-note{font-size:.75rem;color:#444;"
    "margin:.2rem 0}</style>"
)


@lru_cache(maxsize=64)
def _split(sample: str, pattern: str) -> tuple[tuple[tuple[str, bool], ...], PatternError | None]:
    """The preview's pieces, or the pattern's error; cached, so a pattern that runs past its budget costs that
    time once, not on every rerun."""
    try:
        return tuple(split_preview(sample, pattern, PREVIEW_LINES, PREVIEW_CHARS)), None
    except PatternError as err:
        return (), err


def preview_html(pieces, total: int | None = None) -> str:
    """The chips of ``pieces`` (``(text, matched)`` pairs) as HTML: user text escaped with visible whitespace,
    unmatched pieces dashed red with a tooltip; ``total`` (default ``len(pieces)``) counts the pieces not drawn."""
    total = len(pieces) if total is None else total
    unmatched = esc_raw(_("Not matched by the pattern: kept as a piece of its own."))
    chips = "".join(
        f"<span>{esc(text)}</span>" if matched else f'<span class="miss" title="{unmatched}">{esc(text)}</span>'
        for text, matched in pieces
    )
    misses = sum(1 for _text, matched in pieces if not matched)
    note = ngettext("How the first lines split: {n} piece.", "How the first lines split: {n} pieces.", total).format(
        n=f"{total:,}"
    )
    if misses:
        note += " " + ngettext(
            "{n} piece (dashed red) is text the pattern does not match.",
            "{n} pieces (dashed red) are text the pattern does not match.",
            misses,
        ).format(n=f"{misses:,}")
    if total > len(pieces):
        note += " " + _("The first {shown} are shown.").format(shown=f"{len(pieces):,}")
    return f'{_CSS}<div class="bpe-pv-note">{note}</div><div class="bpe-pv" id="bpe-pattern-preview">{chips}</div>'


def pattern_preview(sample: str, pattern: str) -> bool:
    """Draw the preview of ``pattern`` on the first lines of ``sample`` (the corpus's start), or the pattern's
    problem as an error. Returns True when the pattern split the sample."""
    pieces, error = _split(sample, pattern)
    if error is not None:
        st.error(error.message(tr()), icon="⚠️")
        return False
    st.html(preview_html(pieces[:PREVIEW_PIECES], len(pieces)))
    return True
