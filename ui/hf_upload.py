"""Any Hugging Face ``tokenizer.json`` uploaded on the Real tokenizers page, beside the shipped ones: byte-level BPE,
BPE with byte fallback, WordPiece or Unigram (:func:`bpe_core.models.hf_model.load_tokenizer_json`; ids from
``tokenizers``). A file is read once per server (by its sha256) and shared by the sessions that upload it.
"""

from __future__ import annotations

import hashlib

import streamlit as st

from bpe_core.inputs import InputError

from .added_tokens import mark_added
from .i18n import _
from .real_tokenizers import Model
from .text import esc, esc_raw, md_escape

#: The key of the uploaded tokenizer among the page's models.
UPLOADED = "upload"
#: The app's upload limit (``server.maxUploadSize`` in ``.streamlit/config.toml``; the shipped nginx allows 26 MB).
LIMIT_MB = 25


@st.cache_resource(show_spinner=False, max_entries=4)
def _load(digest: str, _data: bytes):
    """The tokenizer and its chip source, once per server and file (``digest``: the file's sha256)."""
    from bpe_core.models.hf_model import load_tokenizer_json

    from .chips import TokenizerTokens

    tok = load_tokenizer_json(_data, name="tokenizer.json")
    return tok, mark_added(TokenizerTokens(tok), tok)


def uploaded_model() -> Model | None:
    """The upload box; the uploaded tokenizer as a :class:`ui.real_tokenizers.Model`, or None (nothing uploaded, or a
    file that cannot be used: its message is shown, never a traceback)."""
    with st.expander(_("Add any tokenizer.json (Llama, Mistral, BERT, T5, ...)")):
        st.caption(
            _(
                "A Hugging Face tokenizer.json of any model type: byte-level BPE, BPE with byte fallback "
                "(SentencePiece style), WordPiece or Unigram. The ids come from the tokenizers library. Files up to "
                "{limit} MB; for a larger one use the command line: python -m bpe_core encode --model "
                "path/to/tokenizer.json FILE."
            ).format(limit=LIMIT_MB)
        )
        upload = st.file_uploader(_("tokenizer.json"), type=["json"], key="rt.hf.upload")
    if upload is None:
        return None
    data = upload.getvalue()
    if len(data) > LIMIT_MB * 1024 * 1024:
        st.error(_("The file is over {limit} MB. Use the command line for it.").format(limit=LIMIT_MB))
        return None
    try:
        tok, src = _load(hashlib.sha256(data).hexdigest(), data)
    except InputError as err:
        st.error(md_escape(str(err)))
        return None
    if tok.unsupported:
        st.warning(
            _(
                "This app cannot show one step of this tokenizer ({what}): its pre-tokens may differ from what is "
                "drawn, but the ids and tokens still come from the tokenizers library."
            ).format(what=md_escape(tok.unsupported))  # it names a step of the file: the file's own words
        )
    label = _("Uploaded ({kind})").format(kind=tok.model_type)
    return Model(UPLOADED, label, tok, src)


#: Most pre-tokens whose cut is drawn (the first ones of the text).
MAX_CUT_WORDS = 12


def cuts_section(model: Model, text: str) -> None:
    """How the uploaded WordPiece or Unigram tokenizer cuts the first pre-tokens of ``text``: the longest-match steps
    (WordPiece) or the lattice and its best path (Unigram), by our own code (:mod:`bpe_core.models.hf_cuts`)."""
    cuts = model.tok.cuts(text)[:MAX_CUT_WORDS]
    if not cuts:
        return
    if model.tok.model_type == "WordPiece":
        st.subheader(_("How WordPiece cuts each word: the longest match first"))
        st.caption(
            _(
                "At each position WordPiece tries the longest rest of the word, then shorter and shorter pieces, "
                "until one is in the vocabulary (## marks a piece inside a word). If none is, the whole word "
                "becomes the unknown token."
            )
        )
        st.html(_wordpiece_html(cuts))
    else:
        st.subheader(_("How Unigram cuts each word: the lattice and its best path"))
        st.caption(
            _(
                "Every vocabulary piece found in the word is an edge of the lattice, with its score (a log "
                "probability). Unigram keeps the path whose scores add up to the most: the bold pieces."
            )
        )
        st.html(_lattice_html(cuts))


def _wordpiece_html(cuts) -> str:
    rows = []
    for word, cut in cuts:
        steps = []
        for step in cut.steps:
            tried = " ".join(
                f"<s>{esc(p)}</s>" if p != step.found else f"<b class='hf-found'>{esc(p)}</b>" for p in step.tried
            )
            steps.append(f"<div>{step.start}: {tried}</div>")
        if cut.too_long:
            steps.append(f"<div>{esc_raw(_('longer than the model reads: unknown'))}</div>")
        rows.append(
            f"<tr><td>{esc(word)}</td><td>{''.join(steps)}</td><td>{' · '.join(map(esc, cut.tokens))}</td></tr>"
        )
    heads = (_("Pre-token"), _("Tried at each position (struck out: not in the vocabulary)"), _("Tokens"))
    return _table("hf-wordpiece", heads, rows)


def _lattice_html(cuts) -> str:
    rows = []
    for word, lattice in cuts:
        best = {(s, e) for s, e, _p in lattice.best}
        edges = " ".join(
            (f"<b class='hf-best'>{esc(p)}</b>" if (s, e) in best else esc(p)) + f"<sub>{score:.1f}</sub>"
            for s, e, p, score in lattice.edges
        )
        path = " ".join(esc(lattice.word[s:e]) for s, e, _p in lattice.best)
        rows.append(
            f"<tr><td>{esc(word)}</td><td>{edges}</td><td>{path}</td><td class='num'>{lattice.score:.2f}</td></tr>"
        )
    heads = (_("Pre-token"), _("Pieces in the lattice (score)"), _("Best path"), _("Score"))
    return _table("hf-lattice", heads, rows)


def _table(css_id: str, heads, rows) -> str:
    head = "".join(f"<th>{esc_raw(h)}</th>" for h in heads)
    return (
        f"<table class='bpe-table' id='{css_id}'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
