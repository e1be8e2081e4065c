"""Links that keep the corpus: the URL parameter naming the session's own text, and reading it back.

A pasted text, an uploaded file or a word-count list is kept in the corpus store (:mod:`bpe_server.corpus_store`: this
server's SQLite file, or the PostgreSQL database all servers share; it outlives the session and a restart) and the
URL carries ``corpus=<id>``.
A short pasted text travels in the URL itself instead (``text=<packed>``, zlib + base64url), so such a link works
on any server. Opening a link whose corpus is gone (an unknown id, a damaged packed text) gives a message, never
another corpus.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from bpe_server import corpus_store, store_db

from .i18n import _


def unavailable_message() -> str:
    """What a person reads when the shared store (:class:`bpe_server.store_db.StoreUnavailable`) cannot be
    reached (translated)."""
    return _("The shared store is unreachable just now, so links and live classes cannot be used. Try again.")


#: The store's kind of each sidebar source, and back.
KIND_OF_SOURCE = {"paste": "text", "upload": "upload", "words": "words", "mix": "mix"}
SOURCE_OF_KIND = {kind: source for source, kind in KIND_OF_SOURCE.items()}


@dataclass(frozen=True)
class Linked:
    """The corpus a link names.

    Attributes:
        source: the sidebar source to show it in (``"paste"``, ``"upload"``, ``"words"`` or ``"mix"``: a
            language mix of the Declaration, :func:`ui.language_training.mix_spec`).
        text: the corpus text (``None`` when it is gone).
        ref: the URL parameter that named it (``{"corpus": id}`` or ``{"text": packed}``), kept in the URL.
        message: why it cannot be shown (``None`` when it can).
    """

    source: str
    text: str | None
    ref: dict
    message: str | None = None


def gone_message() -> str:
    """What a person reads when a link's corpus is no longer on this server."""
    return _(
        "The corpus of this link is not on this server any more (or the link is incomplete), so it cannot be "
        "shown. Ask whoever shared the link to paste the text again and share the new link, or pick a corpus "
        "in the sidebar."
    )


def damaged_message() -> str:
    """What a person reads when the text carried in a link cannot be read."""
    return _(
        "The text carried in this link is damaged or incomplete (perhaps cut by a mail program), so it cannot be "
        "shown. Ask for the link again, or pick a corpus in the sidebar."
    )


def open_link(params: dict[str, str]) -> Linked | None:
    """The corpus named by ``params`` (``text=`` first, else ``corpus=``), or ``None`` when they name none.

    Never raises: a damaged packed text, an unknown id or a store that cannot be read give a
    :class:`Linked` with a ``message``.
    """
    if "text" in params:
        token = params["text"]
        try:
            return Linked("paste", corpus_store.unpack_text(token), {"text": token})
        except corpus_store.PackedTextError:
            return Linked("paste", None, {"text": token}, damaged_message())
    if "corpus" in params:
        cid = params["corpus"].strip()
        try:
            got = corpus_store.get(cid)
        except store_db.StoreUnavailable:  # the link is fine: it opens once the database is back
            return Linked("paste", None, {"corpus": cid[:64]}, unavailable_message())
        except (sqlite3.Error, OSError):
            got = None
        if got is None:
            return Linked("paste", None, {"corpus": cid[:64]}, gone_message())
        text, kind = got
        return Linked(SOURCE_OF_KIND.get(kind, "paste"), text, {"corpus": cid})
    return None


def link_ref(source: str, text: str, pack: bool = True) -> dict[str, str]:
    """The URL parameter naming ``text`` of ``source``: ``{"text": packed}`` for a short pasted text (when
    ``pack``), else ``{"corpus": id}`` after keeping the text in the store; ``{}`` when the store cannot keep
    it (the link then names no corpus).

    Raises:
        bpe_server.store_db.StoreUnavailable: the shared store cannot be reached now (the caller says so and tries
            later).
    """
    if pack and source == "paste":
        token = corpus_store.pack_text(text)
        if token is not None:
            return {"text": token}
    try:
        return {"corpus": corpus_store.put(text, KIND_OF_SOURCE[source])}
    except (corpus_store.StoreError, sqlite3.Error, OSError):
        return {}
