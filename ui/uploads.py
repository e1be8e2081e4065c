"""Text that comes from the browser: uploaded files (kept once per server, by digest), uploaded
GPT-2 model files, and the message for a paste the browser cut (the guard that cuts it, on every page, is the
sidebar's: :func:`ui.sidebar.guard_text_boxes`).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from threading import Lock

import streamlit as st

from bpe_core import InputError, clean_text, decode_bytes
from bpe_core.inputs import format_size, max_input_bytes, to_lf

from . import persist
from .corpus import digest_of
from .i18n import _, current_language, tr
from .settings import paste_cap
from .text import md_escape


class TextStore:
    """Uploaded texts by sha256, shared by all sessions and bounded in characters: a session keeps
    only the digest, so no session holds its own copy of a large upload."""

    def __init__(self, max_bytes: int = 64_000_000):
        self.max_bytes = max_bytes
        self._items: OrderedDict[str, str] = OrderedDict()
        self._lock = Lock()

    def put(self, digest: str, text: str) -> None:
        with self._lock:
            self._items[digest] = text
            self._items.move_to_end(digest)
            total = sum(len(t) for t in self._items.values())
            while len(self._items) > 1 and total > self.max_bytes:
                _, old = self._items.popitem(last=False)
                total -= len(old)

    def get(self, digest: str) -> str | None:
        with self._lock:
            text = self._items.get(digest)
            if text is not None:
                self._items.move_to_end(digest)
            return text


def streamlit_words_note(what: str | None = None) -> None:
    """One line beside a file uploader, in the reader's language: Streamlit draws the box's own words
    ("Drag and drop file here", "Browse files", "Limit … per file") in English and its API cannot
    translate them, so a Chinese reader is told what they are (README.md, Translations). English
    readers need no note. ``what``: what to upload and its limit, if the label does not say it."""
    if current_language() == "en":
        return
    note = _(
        "The English words in the box (“Drag and drop file here”, “Browse files”, “Limit … per file”) are "
        "Streamlit's own and cannot be translated: what this app reads, and its size limit, is said in this "
        "language above the box."
    )
    st.caption(f"{what} {note}" if what else note)


@st.cache_resource(show_spinner=False)
def upload_store() -> TextStore:
    """The process-wide :class:`TextStore`."""
    return TextStore()


def on_upload() -> None:
    """``on_change`` of the sidebar's file uploader: decode and clean the file, keep the text in the
    shared store and ``{"name", "size", "digest", "error"}`` in the session."""
    ss = persist.ss()
    uploaded = ss.get(persist.W + "upload")
    persist.set_step(0)
    ss[persist.K_LINK_GONE] = None
    if uploaded is None:
        ss[persist.K_UPLOAD] = None
        return
    meta = {"name": uploaded.name, "size": uploaded.size, "digest": None, "error": None}
    try:
        text = clean_text(decode_bytes(uploaded.getvalue(), tr=tr()), tr=tr())
    except InputError as err:
        meta["error"] = str(err)
    else:
        meta["digest"] = digest_of(text)
        upload_store().put(meta["digest"], text)
    ss[persist.K_UPLOAD] = meta


def upload_to_lf() -> None:
    """Replace the session's upload by its text with every CR LF and lone CR written as LF
    (:func:`bpe_core.inputs.to_lf`): a new text with its own digest, kept in the shared store."""
    ss = persist.ss()
    meta = ss.get(persist.K_UPLOAD)
    text = upload_store().get(meta["digest"]) if meta and meta.get("digest") else None
    if text is None:
        return
    lf = to_lf(text)
    digest = digest_of(lf)
    upload_store().put(digest, lf)
    ss[persist.K_UPLOAD] = {**meta, "digest": digest, "size": len(lf.encode("utf-8"))}


@st.cache_resource(max_entries=4, show_spinner="Loading the uploaded model…")
def load_gpt2_tokens(digest: str, _vocab_data: bytes, _merges_data: bytes):
    """The :class:`ui.chips.TokenizerTokens` of :func:`bpe_core.formats.files.load_gpt2_files` (vocab.json +
    merges.txt bytes), shared by every session that uploads the same pair (``digest``: a hash of both
    files; the last four models are kept). Raises ``InputError`` for files that cannot be loaded."""
    from bpe_core.formats.files import load_gpt2_files

    from .chips import TokenizerTokens

    return TokenizerTokens(load_gpt2_files(_vocab_data, _merges_data))


def uploaded_gpt2_tokens(vocab_file, merges_file):
    """The :func:`load_gpt2_tokens` of two uploaded files (Streamlit ``UploadedFile`` of vocab.json and
    merges.txt), keyed by a hash of both; ``None``, with the reason shown as an error, when they cannot be
    loaded."""
    vocab_data, merges_data = vocab_file.getvalue(), merges_file.getvalue()
    digest = hashlib.sha256(hashlib.sha256(vocab_data).digest() + hashlib.sha256(merges_data).digest()).hexdigest()
    try:
        return load_gpt2_tokens(digest, vocab_data, merges_data)
    except InputError as err:
        st.error(md_escape(_("These files cannot be loaded: {problem}").format(problem=err)))
        return None


# ------------------------------------------------------------------------------------ text boxes
def cut_paste_message(text: str) -> str | None:
    """The message for a paste the browser cut at :func:`paste_cap` (``None`` if ``text`` was not cut)."""
    cap = paste_cap()
    if len(text) > cap or len(text.encode("utf-16-le", "surrogatepass")) // 2 != cap:
        return None
    # The variable that raises the limit is named in the README, for whoever runs the server: not here.
    return _(
        "The paste was longer than the text box takes ({cap} characters) and was cut there; this server "
        "accepts texts up to {limit}. Paste a shorter text (a part of it is enough to watch BPE at work)."
    ).format(cap=f"{cap:,}", limit=format_size(max_input_bytes(), tr()))
