"""BPE vs byte-level BPE: the same text trained from characters and from UTF-8 bytes.

Trains on the sidebar corpus (as every page does by default), or on this page's own text box (it starts
with the Chinese + emoji preset of the interface's script) with the sidebar's pre-tokenizer, minimum
frequency and tie-break.
"""

import dataclasses

import streamlit as st

from bpe_core import InputError, clean_text
from bpe_core.encoding.replay import unknown_symbols
from bpe_core.measures import (
    bytes_per_token,
    corpus_size,
    first_single_token_step,
    graphemes,
    multibyte_by_frequency,
    partial_corpus_tokens,
    partial_series,
    partial_token_ids,
    partial_tokens,
    round_trip,
    tokens_per_character,
    unknown_tokens,
    used_bytes,
)
from bpe_core.teaching.facts import UTF8_UNUSED_BYTES
from ui import bbpe_view, charts, page, persist, run_cache, sidebar, training
from ui.bbpe_view import BYTE, CHAR
from ui.chips import tokens_html
from ui.corpus import chinese_emoji_preset, text_corpus
from ui.encoding import tokenizer_at, tokens_at
from ui.i18n import _, current_language, ngettext
from ui.settings import PRE_LABELS, TIE_LABELS, make_config, max_merges
from ui.text import md_escape

# What the text boxes start with, in the interface's script: 繁體 in the 繁體 interface, else Simplified.
DEFAULT_UNSEEN = {"zh-Hant": "明天我們去動物園看貓熊 🐼！"}
DEFAULT_UNSEEN_HANS = "明天我们去北京看熊猫 🐼！"
DEFAULT_GRAPHEMES = "👨‍👩‍👧 🇦🇶 👍🏽 ❤️ é 你"  # a flag that is nobody's country: Antarctica
MAX_ROWS, SHOW_PARTIAL = 24, 18  # rows of the table of section 5; partial tokens shown in 4


def cleaned(text: str, limit: int | None = None) -> str:
    """``text`` cleaned (an error is shown and ``""`` returned when it cannot be used)."""
    try:
        return clean_text(text)[:limit]
    except InputError as err:
        st.error(md_escape(str(err)))
        return ""


# ------------------------------------------------------------------------------ inputs -> runs
def own_text_inputs(choice, merges_col):
    """This page's text box and merges (in ``merges_col``), with the sidebar's other settings: ``(corpus,
    [character config, byte config])``; stops the page (with a message) when the text cannot be used."""
    default_text = chinese_emoji_preset(current_language()).load_text()
    with merges_col:
        st.number_input(
            _("Merges (at most)"),
            min_value=0,
            max_value=max_merges(),
            step=10,
            key=persist.seeded("pg.bbpe.merges", 300),
            on_change=persist.keep,
            args=("pg.bbpe.merges",),
            help=_("Training also stops when the best pair occurs fewer times than the sidebar's minimum frequency."),
        )
    st.text_area(
        _("Training text (paste any text; the default is the Chinese + emoji preset)"),
        key=persist.seeded("pg.bbpe.text", default_text),
        on_change=persist.keep,
        args=("pg.bbpe.text",),
        height=110,
    )
    merges = int(persist.kept("pg.bbpe.merges", 300))
    try:
        text = clean_text(persist.kept("pg.bbpe.text", default_text))
        configs = [
            make_config(choice.settings, variant=v, num_merges=merges, vocab_size=None) for v in ("char", "byte")
        ]
        if not text.strip():
            raise InputError(_("The text is empty."))
    except InputError as err:
        st.warning(_("{problem} Paste some text above.").format(problem=md_escape(str(err))))
        st.stop()
    corpus = text_corpus(text, _("Training text"))
    cfg = configs[0]
    pre = cfg.resolved_pretokenizer
    said = ngettext(
        "Both trained on the text above: pre-tokenizer: {pretokenizer}, minimum frequency {min_freq}, "
        "tie-break rule: {tie_break} (from the sidebar), at most {n} merge.",
        "Both trained on the text above: pre-tokenizer: {pretokenizer}, minimum frequency {min_freq}, "
        "tie-break rule: {tie_break} (from the sidebar), at most {n} merges.",
        merges,
    )
    st.caption(
        md_escape(
            said.format(
                pretokenizer=_(PRE_LABELS.get(pre, pre)),
                min_freq=f"{cfg.min_frequency:,}",
                tie_break=_(TIE_LABELS.get(cfg.tie_break, cfg.tie_break)),
                n=f"{merges:,}",
            )
        )
    )
    return corpus, configs


def sidebar_inputs(choice):
    """The sidebar's corpus and settings, for both variants: ``(corpus, [character config, byte config])``."""
    if not choice.ok:
        st.stop()  # the sidebar already says why
    corpus, cfg = choice.corpus, choice.config
    configs = [dataclasses.replace(cfg, variant=v) for v in ("char", "byte")]
    said = _("Both trained on {label} with the sidebar's settings (the variant setting is ignored here).")
    st.caption(md_escape(said.format(label=choice.label)))
    return corpus, configs


def train_pair(choice):
    """The page's inputs (train on the sidebar corpus, or on its own text) and the two runs, character
    and byte level; stops the page (with a message) when they cannot be made."""
    label = choice.label or _("not usable")
    sources = {"sidebar": _("the sidebar corpus ({label})").format(label=label), "text": _("the text below")}
    src_col, merges_col = st.columns([3, 1], vertical_alignment="bottom")
    with src_col:
        st.radio(
            _("Train on"),
            list(sources),
            key=persist.seeded("pg.bbpe.source", "sidebar"),
            on_change=persist.keep,
            args=("pg.bbpe.source",),
            format_func=sources.get,
            horizontal=True,
        )
    if persist.kept("pg.bbpe.source", "sidebar") == "text":
        corpus, configs = own_text_inputs(choice, merges_col)
    else:
        corpus, configs = sidebar_inputs(choice)
    runs = training.get_runs([(corpus, c) for c in configs])
    if any(r is None for r in runs):
        st.stop()
    return runs[0], runs[1]


# ------------------------------------------------------------------------------ 1. base alphabet
def base_alphabet(char_run, byte_run, mode: str, present: bool) -> None:
    st.subheader(_("1 · The starting alphabet"))
    used = used_bytes(byte_run)
    left, right = st.columns(2, gap="medium")
    left.html(bbpe_view.base_char_html(char_run, mode, present))
    right.html(bbpe_view.base_byte_html(byte_run, used, mode, present))


# ------------------------------------------------------------------------------ 2. unseen text
def unseen_text(char_run, byte_run, mode: str, present: bool) -> None:
    st.subheader(_("2 · Text with characters it never saw"))
    default = DEFAULT_UNSEEN.get(current_language(), DEFAULT_UNSEEN_HANS)
    st.text_input(
        _("Text to encode with both trained models"),
        key=persist.seeded("pg.bbpe.unseen", default),
        on_change=persist.keep,
        args=("pg.bbpe.unseen",),
    )
    unseen = cleaned(persist.kept("pg.bbpe.unseen", default))
    if not unseen.strip():
        return
    char_tok, byte_tok = tokenizer_at(char_run), tokenizer_at(byte_run)
    char_ids, byte_ids = char_tok.encode(unseen), byte_tok.encode(unseen)
    n_unk, n_partial = unknown_tokens(char_tok, char_ids), partial_tokens(byte_tok, byte_ids)
    char_back, byte_back = round_trip(char_tok, unseen, char_ids), round_trip(byte_tok, unseen, byte_ids)
    char_unknown = unknown_symbols(char_tok, unseen)
    left, right = st.columns(2, gap="medium")
    left.html(bbpe_view.unseen_char_html(tokens_at(char_run), char_ids, char_unknown, n_unk, char_back, mode, present))
    right.html(bbpe_view.unseen_byte_html(tokens_at(byte_run), byte_ids, n_partial, byte_back, mode, present))


# ------------------------------------------------------------------------------ 3. as merges grow
def rates(char_run, byte_run, present: bool) -> None:
    st.subheader(_("3 · As merges grow"))
    chars, data = run_cache.once(char_run, "corpus_size", lambda: corpus_size(char_run))
    per_char = {
        _(CHAR): tokens_per_character(char_run, chars),
        _(BYTE): tokens_per_character(byte_run, chars),
    }
    per_token = {_(CHAR): bytes_per_token(char_run, data), _(BYTE): bytes_per_token(byte_run, data)}
    steps = (char_run.num_steps, byte_run.num_steps)
    left, right = st.columns(2, gap="medium")
    with left:
        st.markdown(_("**Tokens per character** (fewer tokens: shorter sequences)"))
        st.html(bbpe_view.rate_line_html(per_char, steps, "per-char"))
        spec = charts.lines_chart(per_char, _("tokens per character"), None, present, fmt=".3f")
        st.vega_lite_chart(spec, width="stretch")
    with right:
        st.markdown(_("**Bytes per token** (more bytes: each token carries more text)"))
        st.html(bbpe_view.rate_line_html(per_token, steps, "per-token"))
        spec = charts.lines_chart(per_token, _("bytes per token"), None, present, fmt=".3f")
        st.vega_lite_chart(spec, width="stretch")
    st.caption(
        md_escape(
            _(
                "The training text has {chars} characters in {bytes} UTF-8 bytes (whitespace the pre-tokenizer drops "
                "is not counted). Byte-level BPE starts at one token per byte, so it spends its first merges "
                "rebuilding characters that character-level BPE has from the start."
            ).format(chars=f"{chars:,}", bytes=f"{data:,}")
        )
    )


# ------------------------------------------------------------------------------ 4. pieces of characters
def pieces(byte_run, mode: str, present: bool) -> None:
    st.subheader(_("4 · Byte-level tokens that are pieces of characters"))
    n = byte_run.num_steps
    series = run_cache.once(byte_run, "partial_series", lambda: partial_series(byte_run))
    partial_ids = partial_token_ids(byte_run)
    in_corpus = run_cache.once(byte_run, "partial_corpus", lambda: partial_corpus_tokens(byte_run, n))
    left, right = st.columns([2, 3], gap="medium")
    left.html(bbpe_view.partial_html(byte_run, partial_ids, in_corpus, SHOW_PARTIAL, mode, present))
    with right:
        spec = charts.lines_chart(
            {_("merged byte tokens that are pieces of a character"): series}, _("tokens"), None, present, height=200
        )
        st.vega_lite_chart(spec, width="stretch")


# ------------------------------------------------------------------------------ 5. one token when?
def one_token_when(char_run, byte_run) -> None:
    st.subheader(_("5 · When does each character become one token?"))
    order = multibyte_by_frequency(char_run)
    rows = [
        (g, count, first_single_token_step(char_run, g), first_single_token_step(byte_run, g))
        for g, count in order[:MAX_ROWS]
    ]
    if not rows:
        st.info(
            _(
                "Every character of this text is ASCII (one byte): both models have each one as a base token from step 0."
            )
        )
        return
    st.html(bbpe_view.first_token_table_html(rows))
    text = _(
        "Characters of two or more UTF-8 bytes, most frequent first; a character is one token from the step "
        "whose merge put exactly it into the vocabulary (with the GPT-2 pre-tokenizer a space often stays "
        "attached, so ␣你 can be a token before 你 is). ASCII characters are one byte: a base token of both."
    )
    if len(order) > MAX_ROWS:
        text += " " + _("Showing the {n} most frequent of {total}.").format(n=MAX_ROWS, total=f"{len(order):,}")
    st.caption(md_escape(text))


# ------------------------------------------------------------------------------ 6. graphemes
def take_apart(char_run, byte_run, mode: str, present: bool) -> None:
    st.subheader(_("6 · What you see, code points, bytes"))
    st.text_input(
        _("Characters to take apart (emoji, flags, accents...)"),
        key=persist.seeded("pg.bbpe.graphemes", DEFAULT_GRAPHEMES),
        on_change=persist.keep,
        args=("pg.bbpe.graphemes",),
    )
    sample = cleaned(persist.kept("pg.bbpe.graphemes", DEFAULT_GRAPHEMES), 400)
    char_tok, byte_tok = tokenizer_at(char_run), tokenizer_at(byte_run)
    char_src, byte_src = tokens_at(char_run), tokens_at(byte_run)
    rows = []
    for g in dict.fromkeys(x for x in graphemes(sample) if not x.isspace()):
        c_ids, b_ids = char_tok.encode_piece(g), byte_tok.encode_piece(g)
        char_html = tokens_html(char_src, c_ids, mode, present, unknown=unknown_symbols(char_tok, g))
        rows.append((g, char_html, tokens_html(byte_src, b_ids, mode, present)))
    if not rows:
        return
    st.html(bbpe_view.graphemes_table_html(rows))
    st.caption(
        _(
            "One thing on screen (a grapheme cluster, split with the regex module's \\X) can be several code points: "
            "the family is three people joined by zero-width joiners (U+200D), a flag is two regional-indicator "
            "letters, a skin tone is a modifier after the hand. UTF-8 writes each code point as 1 to 4 bytes."
        )
    )


def main() -> None:
    """The sidebar and the two runs (the sidebar's corpus, or this page's text), then the six sections."""
    choice = page.start_page(_("BPE vs BBPE"), "🔤")
    mode, present = choice.display.byte_mode, choice.display.presentation
    if not present:
        page.page_title(_("BPE vs byte-level BPE"))
    st.caption(
        _(
            "Character-level BPE starts from the characters it saw in training; byte-level BPE (BBPE, as in GPT-2, "
            "GPT-4 and GPT-4o) starts from all 256 byte values, even the {unused} that UTF-8 never uses. Same text, "
            "same settings, two base alphabets."
        ).format(unused=len(UTF8_UNUSED_BYTES))
    )
    char_run, byte_run = train_pair(choice)
    sidebar.write_url(choice)
    base_alphabet(char_run, byte_run, mode, present)
    unseen_text(char_run, byte_run, mode, present)
    rates(char_run, byte_run, present)
    pieces(byte_run, mode, present)
    one_token_when(char_run, byte_run)
    take_apart(char_run, byte_run, mode, present)


main()
