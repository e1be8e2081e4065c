"""Any Hugging Face ``tokenizer.json`` uploaded on the Real tokenizers page, beside the shipped ones: byte-level BPE,
BPE with byte fallback, WordPiece or Unigram (:func:`bpe_core.models.hf_model.load_tokenizer_json`; ids from
``tokenizers``). A file is read once per server (by its sha256) and shared by the sessions that upload it.
"""

from __future__ import annotations

import hashlib

import streamlit as st

from bpe_core.inputs import InputError

from .i18n import _
from .real_tokenizers import Model, added_kind
from .text import md_escape

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
    src = TokenizerTokens(tok)
    src.added_kind = lambda tid: added_kind(tok, tid)
    return tok, src


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
            ).format(what=tok.unsupported)
        )
    label = _("Uploaded ({kind})").format(kind=tok.model_type)
    return Model(UPLOADED, label, tok, src)
