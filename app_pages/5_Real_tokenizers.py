"""Real tokenizers: the user's text under their own BPE (the sidebar's run at its last step) and under
GPT-2, GPT-4, GPT-4o, Qwen3, DeepSeek-V3 (when its file is found) and an uploaded tokenizer.json; a real
tokenizer's merges replayed on it; whether byte-level training with the GPT-2 pattern rediscovers GPT-2's
first merges; BPE-dropout samples of one word; tokens that live inside others, and GPT-2's under-trained tokens.

Inputs (the sidebar, the text, the pickers) -> tokenizers and measures (bpe_core) -> five sections.
"""

import streamlit as st

from bpe_core import InputError, clean_text, load_gpt
from bpe_core.measures import graphemes
from bpe_core.teaching.facts import rediscovery_caption, vocabulary_size, vocabulary_text
from ui import page, persist, sidebar, training, uploads
from ui.blocks import items_html
from ui.encoding import tokenizer_at
from ui.hf_upload import UPLOADED, cuts_section, uploaded_model
from ui.i18n import _, tr
from ui.real_tokenizers import GPT_MODELS, comparison, cost_table, dropout_table, models, plain_bpe_note
from ui.replay_view import rediscovery, replay_section
from ui.settings import make_config
from ui.text import md_escape

DEFAULT_CHARS = 200  # the text box starts with the corpus's first characters (graphemes)
MAX_CHARS = 5_000  # longer texts are cut: the chips and the replay are for reading, not for books
REDISCOVERY_MERGES = 100  # merges trained and compared with GPT-2's first ones
FALLBACK = "今天我们很开心 😀！明天去北京 🐼 The lowest price is lower than the last."


def corpus_start(choice, run) -> str:
    """The first :data:`DEFAULT_CHARS` characters of the sidebar's corpus (a word list: its words)."""
    text = ""
    if choice.source == "preset" and choice.preset is not None and not choice.preset.is_word_counts:
        text = choice.preset.load_text()[: DEFAULT_CHARS * 2]
    elif choice.source == "paste":
        text = persist.ss().get(persist.K_PASTE, "")[: DEFAULT_CHARS * 2]
    elif choice.source == "upload" and persist.ss().get(persist.K_UPLOAD):
        text = (uploads.upload_store().get(persist.ss()[persist.K_UPLOAD]["digest"]) or "")[: DEFAULT_CHARS * 2]
    if not text.strip():
        text = " ".join(run.words[:40])
    text = "".join(graphemes(text)[:DEFAULT_CHARS]).strip()
    return text or FALLBACK


def text_box(choice, run) -> str:
    """The page's text box, prefilled from the corpus; stops the page when it is empty or unusable."""
    name = f"pg.rt.text.{choice.corpus.digest[:12]}"
    default = corpus_start(choice, run)
    return page.page_text(
        _("Text to compare (it starts with the beginning of your corpus; type or paste your own)"),
        name,
        default,
        height=110,
        max_chars=MAX_CHARS,
        cut=_("The text is {n} characters; only the first {limit} are used here."),
        empty=_("Type or paste some text above to compare the tokenizers."),
    )


def same_text_part(all_models, text, mode, present) -> None:
    """The text under every tokenizer (yours, the real ones, an uploaded one), and what a Chinese character or an
    emoji costs."""
    st.header(_("1 · The same text, several tokenizers"))
    st.caption(
        _(
            "Your BPE is the sidebar's training at its last merge; GPT-2, GPT-4 and GPT-4o are OpenAI's byte-level "
            "tokenizers (r50k_base, cl100k_base, o200k_base); Qwen3 and DeepSeek-V3 are the byte-level BPE "
            "tokenizers of two Chinese-first models, read from their tokenizer.json (ids from the Hugging Face "
            "tokenizers library)."
        )
    )
    comparison(all_models, text, mode, present)
    st.subheader(_("What a Chinese character or an emoji costs"))
    cost_table(all_models, text, mode, present)


def vocabulary_part() -> None:
    """How big the three vocabularies are, counted from the shipped rank files, and why it matters."""
    with st.expander(_("How big are these vocabularies?")):
        names = {key: label for key, label in GPT_MODELS}
        items = [
            vocabulary_text(vocabulary_size(key), names.get(key, key), tr()) for key in ("gpt2", "cl100k", "o200k")
        ]
        st.html(items_html(items, "rt-vocab"))
        st.caption(
            _(
                "Bytes and merges are counted in the rank files shipped with this app; the special tokens are not "
                "in those files, their names and ids are tiktoken's (tiktoken_ext/openai_public.py). A larger "
                "vocabulary is one reason why GPT-4o needs fewer tokens for Chinese text than GPT-2; the mix of "
                "languages in the text its merges were learned from is another."
            )
        )


def replay_part(all_models, text, mode, present) -> None:
    st.header(_("2 · Replay a real tokenizer on your text"))
    keys = [m.key for m in all_models[1:] if hasattr(m.tok, "replay")]  # BPE models (not yours: the stepper has it)
    label = {m.key: m.label for m in all_models}.get
    key = st.radio(_("Tokenizer to replay"), keys, format_func=label, horizontal=True, key="rt.replay.model")
    replay_section(next(m for m in all_models if m.key == key), text, mode, present)
    if (uploaded := all_models[-1]).key == UPLOADED and hasattr(uploaded.tok, "cuts"):
        cuts_section(uploaded, text)


def is_word_list(choice) -> bool:
    """The corpus is a word-count list (typed as one, or a textbook preset): already words."""
    return choice.source == "words" or (choice.preset is not None and choice.preset.is_word_counts)


def rediscovery_part(choice, mode, present) -> None:
    st.header(_("3 · Did your training rediscover GPT-2?"))
    try:
        config = make_config(
            choice.settings,
            is_word_list(choice),
            variant="byte",
            pretokenizer="gpt2",
            num_merges=REDISCOVERY_MERGES,
            vocab_size=None,
        )
    except InputError as err:
        st.error(md_escape(str(err)))
        return
    run = training.get_run(choice.corpus, config)
    if run is None:
        return
    # Said from what ran: a word-count list has no pre-tokenizer and no leading spaces, and may stop early.
    st.caption(md_escape(rediscovery_caption(run, choice.label, is_word_list(choice), REDISCOVERY_MERGES, tr())))
    rediscovery(tokenizer_at(run), load_gpt("gpt2"), present, mode, n=REDISCOVERY_MERGES)


def dropout_part(all_models, text, mode, present) -> None:
    st.header(_("4 · BPE-dropout: one word, many segmentations"))
    st.caption(
        _(
            "With dropout p, each merge that could apply is skipped with probability p (Provilkov et al. 2020). "
            "p = 0 is the usual encoding; p = 1 leaves single bytes or characters. Training a model on such "
            "samples teaches it that a word can be split in several ways. Dropout is used only while training a "
            "model; at inference it is switched off (p = 0)."
        )
    )
    # The default word: the longest of the text's first GPT-2 pre-tokens of 4 to 12 characters.
    words = [w.strip() for w in load_gpt("gpt2").pieces(text[:2000]) if 4 <= len(w.strip()) <= 12]
    default = max(words[:100], key=len) if words else "unbelievable"
    c1, c2 = st.columns([2, 2])
    name = "pg.rt.dropout.word"
    word = c1.text_input(_("Word"), key=persist.seeded(name, default), on_change=persist.keep, args=(name,))
    keys = [m.key for m in all_models if getattr(m.tok, "can_dropout", True)]  # BPE models only
    label = {m.key: m.label for m in all_models}.get
    key = c2.radio(_("Tokenizer"), keys, format_func=label, horizontal=True, key="rt.dropout.model")
    c3, c4, c5 = st.columns(3)
    p = c3.slider(_("Dropout probability p"), 0.0, 1.0, 0.1, 0.05, key="rt.dropout.p")
    seed = int(c4.number_input(_("Seed"), 0, 1_000_000, 0, key="rt.dropout.seed"))
    n = c5.slider(_("Samples"), 1, 200, 30, key="rt.dropout.n")
    try:
        word = clean_text(word or "")[:200]
    except InputError as err:
        st.error(md_escape(str(err)))
        return
    if not word:
        st.info(_("Type a word above."))
        return
    dropout_table(next(m for m in all_models if m.key == key), word, p, seed, n, mode, present)


def main() -> None:
    """The sidebar and the text, then the four sections."""
    choice, own_run = page.start_run_page(
        _("Real tokenizers"), "🧮", _("Your BPE beside GPT, Qwen3, DeepSeek-V3 or any tokenizer.json")
    )
    mode, present = choice.display.byte_mode, choice.display.presentation
    sidebar.write_url(choice)
    plain_bpe_note(choice.config)
    text = text_box(choice, own_run)
    all_models = models(own_run)
    if (uploaded := uploaded_model()) is not None:
        all_models.append(uploaded)
    same_text_part(all_models, text, mode, present)
    vocabulary_part()
    replay_part(all_models, text, mode, present)
    rediscovery_part(choice, mode, present)
    dropout_part(all_models, text, mode, present)
    from ui.glitch_view import inside_section  # (its tables are computed only here)

    inside_section(all_models, text, mode, present)


main()
