"""Check your BPE: upload or paste the merges your own trainer made (or the ids your encoder gave) and see
the first place they part from the reference, and why.

Inputs (the sidebar's corpus and settings; a merges file or pasted merges; a text and ids) -> a
:class:`bpe_core.checking.check.CheckReport` / :class:`bpe_core.checking.check_encoder.EncoderReport` -> the report.
"""

import dataclasses
import hashlib

import streamlit as st

from bpe_core import InputError, load_gpt
from bpe_core.checking.check import check_merges, corpus_text
from bpe_core.checking.check_encoder import check_encoding, parse_tokens_or_ids
from bpe_core.formats.merge_lists import read_merge_list
from ui import check_view, page, persist, sidebar, training, uploads
from ui.encoding import tokenizer_at, tokens_at
from ui.i18n import _
from ui.panels import pair_table_html
from ui.real_tokenizers import GPT_MODELS, gpt_tokens
from ui.text import md_escape

#: Most merges a pasted or uploaded list may hold here (the command line has no such limit).
MAX_MERGES = 5_000
SAMPLE_MERGES = "#version: 0.2\ne s\nes t\nest </w>\no w\n"
SAMPLE_TEXT = "the lowest price"


@st.cache_resource(show_spinner=False, max_entries=8)
def cached_check(digest: str, config, yours: tuple, _words: dict, _text: str | None):
    """:func:`bpe_core.checking.check.check_merges`, kept per (corpus, settings, merges) for every session."""
    return check_merges(_words, config, list(yours), _text)


def merges_input():
    """The student's merges from an upload or the paste box: ``(pairs, format)``, or ``None`` (a
    message was shown)."""
    up = st.file_uploader(
        _("Your merges: merges.txt, tokenizer.json, a minbpe .model, a JSON list of pairs, or train --jsonl output"),
        key="check.up",
        type=["txt", "json", "model", "jsonl"],
    )
    st.text_area(
        _("… or paste them here"),
        key=persist.seeded("pg.check.paste", SAMPLE_MERGES),
        on_change=persist.keep,
        args=("pg.check.paste",),
        height=120,
    )
    if up is not None:
        data, name = up.getvalue(), up.name
    else:
        data, name = persist.kept("pg.check.paste", SAMPLE_MERGES), _("the pasted merges")
    try:
        merges = read_merge_list(data, name)
    except InputError as err:
        st.error(md_escape(str(err)))
        return None
    if len(merges.pairs) > MAX_MERGES:
        st.error(
            _("{n} merges is more than this page checks ({limit}); use python -m bpe_core check.").format(
                n=f"{len(merges.pairs):,}", limit=f"{MAX_MERGES:,}"
            )
        )
        return None
    return merges


def merge_report(choice, merges) -> None:
    config = dataclasses.replace(choice.config, num_merges=None, vocab_size=None)
    words = choice.corpus.words(config)
    key = hashlib.sha256(repr(merges.pairs).encode("utf-8")).hexdigest()
    with st.spinner(_("Training the reference under each tie-break rule…")):
        report = cached_check(
            choice.corpus.digest + key, config, tuple(merges.pairs), words, corpus_text(choice.corpus.words, config)
        )
    st.caption(md_escape(_("Read {n} merges ({format}).").format(n=f"{len(merges.pairs):,}", format=merges.format)))
    st.html(check_view.summary_html(report))
    if report.identical:
        return
    mode, present = choice.display.byte_mode, choice.display.presentation
    st.html(check_view.pairs_html(report))
    url, title = check_view.rule_link(report.cause)
    st.markdown(md_escape(check_view.cause_sentence(report, config)) + f" [{md_escape(title)} ↗]({url})")
    if report.also:
        names = ", ".join(_(check_view.CAUSE_NAMES[c]) for c in report.also)
        st.caption(md_escape(_("Also possible: {causes}.").format(causes=names)))
    cols = st.columns([3, 2])
    with cols[0]:
        st.subheader(_("The pair table"))
        marks = check_view.marks_of(report)
        st.html(pair_table_html(report.run, report.step, mode, present, limit=8, marks=marks))
    with cols[1]:
        st.subheader(_("Words involved"))
        st.html(check_view.words_html(report, mode, present))


def encoder_tokenizer(choice):
    """The tokenizer picked for the encoder check and its chip source (the sidebar's run, an uploaded
    vocab.json + merges.txt, or a GPT model); ``(None, None)`` when there is none yet (a message was shown)."""
    options = ["run", "upload"] + [name for name, _label in GPT_MODELS]
    labels = {
        "run": _("The sidebar's run (all its merges)"),
        "upload": _("Upload vocab.json + merges.txt"),
        **dict(GPT_MODELS),
    }
    pick = st.radio(_("Tokenizer"), options, format_func=labels.__getitem__, horizontal=True, key="check.enc.tok")
    if pick == "run":
        run = training.get_run(choice.corpus, choice.config)
        if run is None:
            st.info(_("Choose a usable corpus in the sidebar."))
            return None, None
        return tokenizer_at(run), tokens_at(run)
    if pick == "upload":
        u1, u2 = st.columns(2)
        vocab_file = u1.file_uploader("vocab.json", type=["json"], key="check.up.vocab")
        merges_file = u2.file_uploader("merges.txt", type=["txt"], key="check.up.merges")
        if vocab_file is None or merges_file is None:
            st.info(_("Upload both files to encode with them."))
            return None, None
        src = uploads.uploaded_gpt2_tokens(vocab_file, merges_file)
        return (None, None) if src is None else (src.tok, src)
    return load_gpt(pick), gpt_tokens(pick)


def encoder_check(choice) -> None:
    tok, src = encoder_tokenizer(choice)
    if tok is None:
        return
    text = page.page_text(
        _("Text"),
        "pg.check.enc.text",
        SAMPLE_TEXT,
        height=70,
        max_chars=20_000,
        cut=_("The text is {n} characters; only the first {limit} are encoded here."),
        empty=_("Type or paste some text above to encode it."),
    )
    st.text_area(
        _("Your encoder's token ids (12, 5, 7) or tokens"),
        key=persist.seeded("pg.check.enc.ids", ""),
        on_change=persist.keep,
        args=("pg.check.enc.ids",),
        height=70,
    )
    pasted = persist.kept("pg.check.enc.ids", "")
    if not pasted.strip():
        st.info(_("Paste the ids (or tokens) your encoder gives for this text."))
        return
    try:
        yours = parse_tokens_or_ids(tok, pasted)
    except InputError as err:
        st.error(md_escape(str(err)))
        return
    report = check_encoding(tok, text, yours)
    st.html(check_view.encoder_html(report, src, choice.display.byte_mode, choice.display.presentation))


def main() -> None:
    """The sidebar, then the two checks in tabs: merges and an encoder."""
    choice = page.start_page(_("Check your BPE"), "🩺")
    if not choice.display.presentation:
        page.page_title(_("Check your BPE"))
    st.markdown(
        _(
            "Wrote your own BPE? Give its merges (or its encoder's ids) and see the first step where it parts from the "
            "reference trained on the sidebar's corpus with the sidebar's settings, and which rule explains it."
        )
    )
    if not choice.ok:
        st.info(_("Choose a usable corpus in the sidebar."))
        return
    sidebar.write_url(choice)
    merges_tab, encoder_tab = st.tabs([_("Check merges"), _("Check an encoder")])
    with merges_tab:
        found = merges_input()
        if found is not None:
            merge_report(choice, found)
    with encoder_tab:
        encoder_check(choice)


main()
