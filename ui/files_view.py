"""The Files page's HTML for an uploaded GPT-2-style model: what was loaded, and a text encoded with it."""

from __future__ import annotations

from .chips import tokens_html
from .i18n import _, ngettext
from .text import esc_raw


def model_html(tok, vocab_name: str, merges_name: str) -> str:
    """The uploaded model ``tok`` (``#files-model``: ``data-merges``, ``data-vocab``) and its two file names
    (user text, escaped)."""
    loaded = ngettext(
        "Loaded {vocab} + {merges}: {tokens} tokens, {n} merge.",
        "Loaded {vocab} + {merges}: {tokens} tokens, {n} merges.",
        tok.num_merges,
    ).format(
        vocab=f"<b>{esc_raw(vocab_name)}</b>",
        merges=f"<b>{esc_raw(merges_name)}</b>",
        tokens=f"{tok.vocab_size:,}",
        n=f"{tok.num_merges:,}",
    )
    return f"<p class='bpe-note' id='files-model' data-merges='{tok.num_merges}' data-vocab='{tok.vocab_size}'>{loaded}</p>"


def encoded_html(src, text: str, ids: list[int], back: str, mode: str, present: bool) -> str:
    """``text`` encoded as ``ids`` by the uploaded model (chip source ``src``): the counts, whether ``back``
    (the ids decoded) is the text, and the tokens (``#files-tokens``)."""
    exact = _("Decodes back to the text exactly.")
    counts = _("{chars} characters → {tokens} tokens.").format(chars=f"{len(text):,}", tokens=f"{len(ids):,}")
    verdict = (
        f"<span class='bpe-ok'>{esc_raw(exact)}</span>"
        if back == text
        else esc_raw(_("Decoding gives a different text."))
    )
    return f"<p class='bpe-note'>{esc_raw(counts)} {verdict}</p>" + tokens_html(
        src, ids, mode, present, css_id="files-tokens"
    )
