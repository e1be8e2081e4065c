"""The sidebar's sources of one's own text, one function per source (pasted text, an uploaded file, a word-count
list, a language mix), each drawing its widget and giving a :class:`ui.corpus.Source`: a corpus or a message saying
why there is none, its label, and the URL parameter naming the session's own text. The preset picker is the
sidebar's own (:func:`ui.sidebar.preset_source`): a preset's page never loads this module."""

from __future__ import annotations

from functools import lru_cache

import streamlit as st

from bpe_core import InputError, clean_text, looks_like_word_counts, parse_word_counts
from bpe_core.inputs import format_size, max_input_bytes
from bpe_core.languages import mix
from bpe_server import store_db

from . import persist
from .corpus import Source, stored_text_corpus, text_corpus, words_corpus
from .i18n import _, ngettext, tr
from .text import md_escape

K = persist  # the session keys


def _link_for(source: str, digest: str, text: str) -> dict:
    """The URL parameter naming the session's text (stored once per text: kept in the session)."""
    from . import links  # one's own text only: a preset's link names it, not the store

    ss = persist.ss()
    cached = ss.get(K.K_LINK_CACHE)
    if cached is not None and cached[:2] == (source, digest):
        return cached[2]
    try:
        ref = links.link_ref(source, text)
    except store_db.StoreUnavailable:  # not remembered: a later run makes the link
        st.warning(links.unavailable_message())
        return {}
    ss[K.K_LINK_CACHE] = (source, digest, ref)
    return ref


def paste_source(settings: dict) -> Source:
    """A text box; its text is the corpus."""
    # This source's own modules, loaded once it is chosen: a preset's step never loads them.
    from . import uploads
    from .text_box import text_box

    ss = persist.ss()
    text_box(
        "paste", _("Text to train on"), _("Paste any text here, then click outside the box (or press Ctrl+Enter).")
    )
    raw = ss[K.K_PASTE]
    name = _("Pasted text")
    if not raw:  # nothing typed yet: what to do, not an error
        return Source(
            None, name, _("Nothing to train on yet: paste a text in the sidebar's box (or pick a preset)."), hint=True
        )
    try:
        text = clean_text(raw, tr=tr())
    except InputError as err:
        return Source(None, name, uploads.cut_paste_message(raw) or str(err))
    if not text or (not text.strip() and settings["pre"] != "none"):  # pre-tokenizer none keeps a blank text
        return Source(None, name, _("The text is empty: paste some text in the sidebar (or pick a preset)."))
    size = len(text.encode("utf-8"))
    if size < 100_000 and looks_like_word_counts(text):
        st.info(_("This looks like a word-count list; choose 'Word counts' to read it as one."))
    label = _("Pasted text ({size})").format(size=format_size(size, tr()))
    corpus = text_corpus(text, label)
    return Source(corpus, label, text=text, link=_link_for("paste", corpus.digest, text))


def _upload_to_lf() -> None:
    """Replace the session's upload by its text with LF line ends (a new text: a new digest and link)."""
    from . import uploads  # an upload's own module, loaded once one is chosen

    uploads.upload_to_lf()
    persist.set_step(0)


def upload_source(settings: dict) -> Source:
    """A file uploader; the uploaded file (kept once per server by digest) is the corpus."""
    from . import uploads  # an upload's own module, loaded once one is chosen

    limit = format_size(max_input_bytes(), tr())
    st.file_uploader(
        _("A UTF-8 .txt file (at most {limit})").format(limit=limit),
        type=["txt"],
        key=persist.W + "upload",
        on_change=uploads.on_upload,
        help=_("This app reads files up to {limit}.").format(limit=limit),
    )
    uploads.streamlit_words_note()
    meta = persist.ss()[K.K_UPLOAD]
    if meta is None:
        return Source(None, "", _("No file yet: upload a UTF-8 .txt file in the sidebar."), hint=True)
    name = meta["name"][:80]
    if meta["error"]:
        return Source(None, "", _("{name}: {error}").format(name=name, error=meta["error"]))
    digest = meta["digest"]
    stored = uploads.upload_store().get(digest)
    if stored is None:
        return Source(None, "", _("The uploaded file is no longer in the server's memory; please upload it again."))
    size = len(stored.encode("utf-8"))
    label = _("{name} ({size})").format(name=name, size=format_size(size, tr()))
    st.caption(md_escape(_("Using {name}, {size}.").format(name=name, size=format_size(size, tr()))))
    if not stored.strip():
        return Source(None, label, _("The uploaded file is empty."))
    corpus = stored_text_corpus(digest, size, label, lambda: uploads.upload_store().get(digest) or "")
    return Source(corpus, label, text=stored, link=_link_for("upload", digest, stored), to_lf=_upload_to_lf)


@lru_cache(maxsize=32)
def _parse_words_cached(text: str) -> dict:
    return parse_word_counts(text)


def words_source(settings: dict) -> Source:
    """A text box of ``word count`` lines; the list is the corpus."""
    # This source's own modules, loaded once it is chosen: a preset's step never loads them.
    from . import uploads
    from .text_box import text_box

    ss = persist.ss()
    text_box("words", _("Word counts (one 'word count' per line)"), "low 5\nlower 2\nnewest 6\nwidest 3")
    raw = ss[K.K_WORDS]
    name = _("Word counts")
    if not raw:  # nothing typed yet: what to do, not an error
        message = _("Nothing to train on yet: write one 'word count' per line in the sidebar's box, e.g. 'low 5'.")
        return Source(None, name, message, hint=True)
    if not raw.strip():
        return Source(None, name, _("The word-count list is empty: write one 'word count' per line, e.g. 'low 5'."))
    try:
        clean_text(raw, tr=tr())
        words = _parse_words_cached(raw)
    except InputError as err:
        return Source(None, name, uploads.cut_paste_message(raw) or str(err))
    label = ngettext("Word counts ({n} word)", "Word counts ({n} words)", len(words)).format(n=f"{len(words):,}")
    corpus = words_corpus(words, label)
    return Source(corpus, label, link=_link_for("words", corpus.digest, raw))


def _on_rule() -> None:
    ss = persist.ss()
    _old, weights = mix.parse_mix_spec(ss.get(K.K_MIX) or mix.default_mix())
    ss[K.K_MIX] = mix.mix_spec(ss[persist.W + "rule"], weights)
    persist.set_step(0)


def mix_source(settings: dict) -> Source:
    """The Declaration in a mix of languages (chosen on the Languages page), with the merge rule to train it by:
    plain BPE or fair (parity-aware) BPE."""
    from . import language_training as lt  # the language mix's own module, loaded once it is chosen

    ss = persist.ss()
    spec = ss.get(K.K_MIX) or mix.default_mix()
    name = _("Languages")
    try:
        rule, weights = mix.parse_mix_spec(spec)
        corpus = lt.mix_corpus(spec)
    except ValueError:
        return Source(None, name, _("This link's language mix cannot be read; choose a mix on the Languages page."))
    st.radio(
        _("Merge rule"),
        list(lt.RULE_LABELS),
        key=persist.seed("rule", rule),
        on_change=_on_rule,
        format_func=lambda r: _(lt.RULE_LABELS[r]),
        horizontal=True,
    )
    st.caption(
        _(
            "The Declaration's preamble and articles 1-20 in {n} languages (choose the mix on the Languages page). "
            "Fair BPE merges, at each step, the most frequent pair of the language whose text is then the longest "
            "in tokens."
        ).format(n=len(weights))
    )
    if settings["variant"] != "byte" or settings["pre"] != "gpt2":
        message = _(
            "A language mix trains byte-level BPE with GPT-2's pre-tokenizer: choose Bytes and the GPT-2 regex in "
            "the settings."
        )
        return Source(None, corpus.label, message)
    return Source(corpus, corpus.label, link=_link_for("mix", corpus.digest, spec))


SOURCES = {
    "paste": paste_source,
    "upload": upload_source,
    "words": words_source,
    "mix": mix_source,
}
