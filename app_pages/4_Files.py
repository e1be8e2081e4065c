"""Files: download the sidebar run's model (merges.txt, vocab.json, tokenizer.json) and its training
history (snapshots as CSV and JSONL); upload a GPT-2-style vocab.json + merges.txt and encode with it.

Inputs (the sidebar, k; two uploaded files and a text) -> file texts and an encoding (bpe_core) -> rows.
"""

import streamlit as st

from bpe_core import InputError, clean_text
from bpe_core.formats import files as bfiles
from bpe_core.formats.snapshots import snapshots_csv, snapshots_jsonl
from bpe_core.inputs import format_size
from ui import files_view, page, persist, run_cache, sidebar, stepper, training, uploads
from ui.encoding import tokenizer_at
from ui.i18n import N_, _, tr
from ui.settings import PRE_LABELS, VARIANT_LABELS
from ui.text import md_escape

PREVIEW_LINES = 8
DEFAULT_UPLOAD_TEXT = "Hello world! 你好 👋"

TOKENIZER_JSON_PROBLEM = N_(
    "Hugging Face's BPE model can express byte-level BPE and the end-of-word marker attached to the last "
    "character, not this layout. Choose the Bytes variant, or end-of-word marker 'attached', in the sidebar."
)
SEGMENTER_JSON_PROBLEM = N_(
    "Hugging Face tokenizers has no pre-tokenizer that cuts Chinese into words as jieba does, so this model "
    "cannot be written as a tokenizer.json. The other files hold it."
)
MERGES_TXT_PROBLEM = N_(
    "merges.txt puts a space between the two tokens of each merge, so it cannot hold a token that contains "
    "whitespace. Train with the whitespace pre-tokenizer or the Bytes variant to get a merges.txt."
)
MIMES = {".txt": "text/plain", ".json": "application/json", ".csv": "text/csv", ".jsonl": "application/jsonl"}
FILES = ("merges.txt", "vocab.json", "tokenizer.json", "snapshots.csv", "snapshots.jsonl")


def pick_k(choice, run) -> int:
    """The step control choosing the model's step (its own step, not the stepper's: all merges until moved)."""
    n = run.num_steps
    name = f"pg.files.k.{persist.short_key(choice.corpus.digest, choice.config)}"
    st.markdown(_("Merges to include (0–{n}; the model after that step)").format(n=f"{n:,}"))
    if n <= 0:
        return 0
    return stepper.page_step("files-k", n, name)


def model_caption(choice, run, tok, k: int) -> None:
    """Which model the files hold: the corpus, variant, pre-tokenizer, merges 1..k and vocabulary size."""
    said = _("{label}: {variant}, pre-tokenizer: {pretokenizer}, merges 1–{k}, vocabulary {vocab} tokens.")
    pre = tok.pretokenizer
    st.caption(
        md_escape(
            said.format(
                label=choice.label,
                variant=_(VARIANT_LABELS[run.variant.kind]),
                pretokenizer=_(PRE_LABELS.get(pre, pre)),
                k=f"{k:,}",
                vocab=f"{tok.vocab_size:,}",
            )
        )
    )


def downloads(choice, run, present: bool) -> None:
    """One row per file (what it is, its size, a download button) and a peek inside them."""
    k = pick_k(choice, run)
    tok = tokenizer_at(run, k)
    model_caption(choice, run, tok, k)
    makers = {
        "merges.txt": lambda: bfiles.merges_txt(tok),
        "vocab.json": lambda: bfiles.vocab_json(tok),
        "tokenizer.json": lambda: bfiles.tokenizer_json(tok),
        "snapshots.csv": lambda: snapshots_csv(run, k),
        "snapshots.jsonl": lambda: snapshots_jsonl(run, k),
    }

    def content(name: str) -> str:
        return run_cache.cached(run, "file:" + name, k, makers[name])

    problems = {
        "merges.txt": MERGES_TXT_PROBLEM if bfiles.merges_txt_problem(tok) else None,
        "tokenizer.json": None
        if bfiles.tokenizer_json_supported(tok)
        else SEGMENTER_JSON_PROBLEM
        if tok.pretokenizer == "jieba"
        else TOKENIZER_JSON_PROBLEM,
    }
    about = {
        "merges.txt": _("The merges in rank order, one 'left right' per line (GPT-2 / Hugging Face layout)."),
        "vocab.json": _("Every token and its id.")
        if run.variant.is_bytes
        else _("Every token and its id, plus `<unk>`."),
        "tokenizer.json": _('A Hugging Face `tokenizers` file: `Tokenizer.from_file("tokenizer.json")`.'),
        "snapshots.csv": _(
            "The training history: one row per merge (step, pair, new token and id, count, ties, "
            "vocabulary size, corpus tokens, stop reason)."
        ),
        "snapshots.jsonl": _(
            "The same history as JSON lines, exactly as `python -m bpe_core train --jsonl` prints it."
        ),
    }
    rows = st.container()
    shown: list[str] = []
    for name in FILES:
        c1, c2, c3 = rows.columns([1.4, 5, 1.6], vertical_alignment="center")
        c1.markdown(f"**`{name}`**")
        problem = problems.get(name)
        if problem:
            c2.markdown(about[name])  # our own Markdown, no user text
            c2.caption(md_escape(_("Not available for this model: {problem}").format(problem=_(problem))))
            c3.button(_("Download"), key=f"files.no.{name}", disabled=True, width="stretch")
            continue
        text = content(name)
        c2.markdown(f"{about[name]} · {format_size(len(text.encode('utf-8')), tr())}")  # our own Markdown
        c3.download_button(
            _("Download"),
            data=lambda name=name: content(name).encode("utf-8"),
            file_name=name,
            mime=MIMES[name[name.rindex(".") :]],
            key=f"files.dl.{name}",
            on_click="ignore",
            width="stretch",
            icon=":material/download:",
        )
        shown.append(name)
    if shown and not present:
        peek(shown, content)


def peek(names: list[str], content) -> None:
    """The first lines of each file ``names`` (``content``: a file's text by name), one tab each."""
    with st.expander(_("Peek inside the files (first lines)")):
        for name, tab in zip(names, st.tabs(names)):
            with tab:
                text = content(name)
                head = "\n".join(text.splitlines()[:PREVIEW_LINES])
                if name == "vocab.json":  # one line: show its first entries instead
                    head = text[:600] + (" …" if len(text) > 600 else "")
                st.code(head, language=None, wrap_lines=True)


def upload_and_encode(mode: str, present: bool) -> None:
    """Encode with an uploaded GPT-2-style model."""
    st.subheader(_("Encode with a GPT-2-style vocab.json + merges.txt"))
    st.caption(
        _(
            "Byte-level models in GPT-2's file layout (GPT-2's own files, or the two files above from a model trained "
            "with the Bytes variant). The text is split with the GPT-2 pre-tokenizer, then encoded by merge rank."
        )
    )
    u1, u2 = st.columns(2)
    vocab_file = u1.file_uploader("vocab.json", type=["json"], key="files.up.vocab")
    merges_file = u2.file_uploader("merges.txt", type=["txt"], key="files.up.merges")
    uploads.streamlit_words_note(_("Upload both files of one model: its vocab.json and its merges.txt."))
    if vocab_file is None or merges_file is None:
        st.info(_("Upload both files to encode with them."))
        return

    src = uploads.uploaded_gpt2_tokens(vocab_file, merges_file)
    if src is None:
        return
    up_tok = src.tok
    st.html(files_view.model_html(up_tok, vocab_file.name, merges_file.name))
    st.text_area(
        _("Text to encode with the uploaded model"),
        key=persist.seeded("pg.files.text", DEFAULT_UPLOAD_TEXT),
        on_change=persist.keep,
        args=("pg.files.text",),
        height=80,
    )
    try:
        text = clean_text(persist.kept("pg.files.text", DEFAULT_UPLOAD_TEXT))[:20_000]
    except InputError as err:
        st.error(md_escape(str(err)))
        return
    ids = up_tok.encode(text)
    back = up_tok.decode(ids)
    st.html(files_view.encoded_html(src, text, ids, back, mode, present))
    if not present:
        st.code(" ".join(str(t) for t in ids), language=None, wrap_lines=True)


def main() -> None:
    """The sidebar, the downloads of its run, then the upload."""
    choice = page.start_page(_("Files"), "💾")
    mode, present = choice.display.byte_mode, choice.display.presentation
    if not present:
        page.page_title(_("Files"))
    st.subheader(_("Download the model trained here"))
    run = training.get_run(choice.corpus, choice.config)
    if run is not None:
        sidebar.write_url(choice)
        downloads(choice, run, present)
    else:
        st.info(_("Choose a usable corpus in the sidebar to download its model."))
    upload_and_encode(mode, present)


main()
