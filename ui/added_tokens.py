"""Special and added tokens of a ``tokenizer.json`` (``<|im_start|>``, ``<｜begin▁of▁sentence｜>``) on the chips: a chip
of such a token gets its own class (``special``: white with a double violet frame; ``added``: a solid violet frame,
``pages.css``), a tooltip saying why it is one token, and the chips get a legend line when their text holds one.

A chip source (:class:`ui.chips.TokenizerTokens`) answers ``added_kind(tid)`` once :func:`mark_added` gave it one.
"""

from __future__ import annotations

from .i18n import _
from .text import esc_raw

#: The chip class of a special token, and of an added one that is not special.
SPECIAL, ADDED = "special", "added"


def added_kind(tok, tid: int) -> tuple[str, str] | None:
    """``(chip class, why it is one token)`` for a special or added token of ``tok`` (a tokenizer.json model:
    ``is_added``/``is_special``), else None."""
    if not tok.is_added(tid):
        return None
    if tok.is_special(tid):
        return SPECIAL, _(
            "special token: added to the vocabulary for the model's own use (chat turns, end of text); the tokenizer "
            "finds it in the text before any merge, so it is always one token"
        )
    return ADDED, _("added token: matched in the text as a whole before any merge")


def mark_added(src, tok):
    """Let the chip source ``src`` of ``tok`` mark its special and added tokens (when ``tok`` has any: a
    tokenizer.json model); returns ``src``."""
    if hasattr(tok, "is_added"):
        src.added_kind = lambda tid: added_kind(tok, tid)
    return src


def legend_html(src, ids) -> str:
    """A line saying what the special and added chips among ``ids`` look like and why; ``""`` when there is none."""
    kind = getattr(src, "added_kind", None)
    found = {k[0] for k in map(kind, set(ids)) if k} if kind is not None else set()
    lines = []
    if SPECIAL in found:
        lines.append(
            f"<span class='bpe-chip {SPECIAL}'>&lt;|…|&gt;</span> "
            + esc_raw(
                _(
                    "special token: the model's own marker (a chat turn, the end of a text), never cut by merges; "
                    "ids follow the Hugging Face tokenizers library, which finds it even in plain text."
                )
            )
        )
    if ADDED in found:
        lines.append(
            f"<span class='bpe-chip {ADDED}'>…</span> "
            + esc_raw(_("added token: a word added to the vocabulary, matched whole before any merge."))
        )
    return "".join(f"<p class='bpe-note bpe-added-legend'>{line}</p>" for line in lines)
