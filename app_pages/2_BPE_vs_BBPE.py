"""BPE vs byte-level BPE: the same text trained from characters and from UTF-8 bytes.

Trains on this page's own text box (default: the Chinese + emoji preset), or on the sidebar corpus
when asked, with the sidebar's pre-tokenizer, minimum frequency and tie-break.
"""

import dataclasses

import streamlit as st

from bpe_core import InputError, clean_text
from bpe_core.facts import UTF8_UNUSED_BYTES
from bpe_core.measures import (
    bytes_per_token,
    code_points,
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
from bpe_core.replay import unknown_symbols
from ui import charts, memo, page, persist, sidebar, training
from ui.chips import chips_html, tokens_html
from ui.corpus import text_corpus
from ui.encoding import tokenizer_at, tokens_at
from ui.i18n import N_, _, ngettext
from ui.presets import PRESETS
from ui.settings import PRE_LABELS, TIE_LABELS, make_config, max_merges
from ui.text import esc, esc_raw, md_escape

DEFAULT_TEXT = PRESETS["zh-emoji"].load_text()
DEFAULT_UNSEEN = "明天我们去北京看熊猫 🐼！"
DEFAULT_GRAPHEMES = "👨‍👩‍👧 🇨🇳 👍🏽 ❤️ é 你"
MAX_ROWS, SHOW_PARTIAL = 24, 18  # rows of the table of section 5; partial tokens shown in 4
GRAPHEME_HEAD = (
    N_("you see"),
    N_("code points and their UTF-8 bytes"),
    N_("bytes"),
    N_("character-level tokens"),
    N_("byte-level tokens"),
)
CHAR, BYTE = N_("Characters (BPE)"), N_("Bytes (byte-level BPE)")  # translated where shown


def col_title(text: str) -> str:
    return f"<div class='bpe-col-title'>{esc_raw(_(text))}</div>"


def para(text: str, css: str = "bpe-muted") -> str:
    """A paragraph of our own text (escaped)."""
    return f"<p class='{css}'>{esc_raw(text)}</p>"


def stat(value: str, label: str, attr: str = "") -> str:
    return f"<div><div class='bpe-big' {attr}>{value}</div><div class='bpe-big-label'>{esc_raw(label)}</div></div>"


def cleaned(text: str, limit: int | None = None) -> str:
    """``text`` cleaned (an error is shown and ``""`` returned when it cannot be used)."""
    try:
        return clean_text(text)[:limit]
    except InputError as err:
        st.error(md_escape(str(err)))
        return ""


# ------------------------------------------------------------------------------ inputs -> runs
def train_pair(choice):
    """The page's inputs (train on its own text, or on the sidebar corpus) and the two runs, character
    and byte level; stops the page (with a message) when they cannot be made."""
    label = choice.label or _("not usable")
    sources = {"text": _("the text below"), "sidebar": _("the sidebar corpus ({label})").format(label=label)}
    src_col, merges_col = st.columns([3, 1], vertical_alignment="bottom")
    with src_col:
        st.radio(
            _("Train on"),
            list(sources),
            key=persist.seeded("pg.bbpe.source", "text"),
            on_change=persist.keep,
            args=("pg.bbpe.source",),
            format_func=sources.get,
            horizontal=True,
        )
    if persist.kept("pg.bbpe.source", "text") == "text":
        with merges_col:
            st.number_input(
                _("Merges (at most)"),
                min_value=0,
                max_value=max_merges(),
                step=10,
                key=persist.seeded("pg.bbpe.merges", 300),
                on_change=persist.keep,
                args=("pg.bbpe.merges",),
                help=_(
                    "Training also stops when the best pair occurs fewer times than the sidebar's minimum frequency."
                ),
            )
        st.text_area(
            _("Training text (paste any text; the default is the Chinese + emoji preset)"),
            key=persist.seeded("pg.bbpe.text", DEFAULT_TEXT),
            on_change=persist.keep,
            args=("pg.bbpe.text",),
            height=110,
        )
        merges = int(persist.kept("pg.bbpe.merges", 300))
        try:
            text = clean_text(persist.kept("pg.bbpe.text", DEFAULT_TEXT))
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
    else:
        if not choice.ok:
            st.stop()  # the sidebar already says why
        corpus, cfg = choice.corpus, choice.config
        configs = [dataclasses.replace(cfg, variant=v) for v in ("char", "byte")]
        said = _("Both trained on {label} with the sidebar's settings (the variant setting is ignored here).")
        st.caption(md_escape(said.format(label=choice.label)))
    runs = training.get_runs([(corpus, c) for c in configs])
    if any(r is None for r in runs):
        st.stop()
    return runs[0], runs[1]


# ------------------------------------------------------------------------------ 1. base alphabet
def base_alphabet(char_run, byte_run, mode: str, present: bool) -> None:
    st.subheader(_("1 · The starting alphabet"))
    used = used_bytes(byte_run)
    left, right = st.columns(2, gap="medium")
    with left:
        st.html(
            f"<div class='bpe-card' id='bbpe-base-char'>{col_title(CHAR)}<div class='bpe-stats'>"
            + stat(
                f"{char_run.num_base:,}",
                _("base symbols: every distinct character of the text"),
                f"data-base='{char_run.num_base}'",
            )
            + "</div>"
            + chips_html(char_run, range(char_run.num_base), mode, None, present)
            + para(_("A character that is not in this list can never be encoded."))
            + "</div>"
        )
    with right:
        st.html(
            f"<div class='bpe-card' id='bbpe-base-byte'>{col_title(BYTE)}<div class='bpe-stats'>"
            + stat(
                f"{byte_run.num_base:,}", _("base symbols: all byte values 0–255"), f"data-base='{byte_run.num_base}'"
            )
            + stat(f"{len(used):,}", _("of them occur in this text"))
            + "</div>"
            + chips_html(byte_run, used, mode, None, present)
            + para(
                _(
                    "The bytes that occur in the text. Hatched chips are not characters on their own: UTF-8 "
                    "writes 你 as {ni} bytes, 😀 as {grin}, ❤ as {heart} and ❤️ as {heart_emoji} (How BPE works "
                    "has the table)."
                ).format(
                    ni=len("你".encode()),
                    grin=len("😀".encode()),
                    heart=len("\u2764".encode()),
                    heart_emoji=len("\u2764\ufe0f".encode()),
                )
            )
            + "</div>"
        )


# ------------------------------------------------------------------------------ 2. unseen text
def unseen_text(char_run, byte_run, mode: str, present: bool) -> None:
    st.subheader(_("2 · Text with characters it never saw"))
    st.text_input(
        _("Text to encode with both trained models"),
        key=persist.seeded("pg.bbpe.unseen", DEFAULT_UNSEEN),
        on_change=persist.keep,
        args=("pg.bbpe.unseen",),
    )
    unseen = cleaned(persist.kept("pg.bbpe.unseen", DEFAULT_UNSEEN))
    if not unseen.strip():
        return
    char_tok, byte_tok = tokenizer_at(char_run), tokenizer_at(byte_run)
    char_ids, byte_ids = char_tok.encode(unseen), byte_tok.encode(unseen)
    n_unk, n_partial = unknown_tokens(char_tok, char_ids), partial_tokens(byte_tok, byte_ids)
    char_back, byte_back = round_trip(char_tok, unseen, char_ids), round_trip(byte_tok, unseen, byte_ids)
    left, right = st.columns(2, gap="medium")
    with left:
        if n_unk:
            lost = ngettext(
                "{n} symbol became <unk>: the model has no token for a character it never saw, so that "
                "information is lost.",
                "{n} symbols became <unk>: the model has no token for a character it never saw, so that "
                "information is lost.",
                n_unk,
            ).format(n=f"{n_unk:,}")
            verdict = f"<span class='bpe-bad'>{esc_raw(lost)}</span>"
        else:
            seen = _("Every character was seen in training: no <unk>.")
            verdict = f"<span class='bpe-ok'>{esc_raw(seen)}</span>"
        st.html(
            f"<div class='bpe-card' id='bbpe-unseen-char' data-unk='{n_unk}'>{col_title(CHAR)}"
            f"<p class='bpe-note'>{verdict}</p>"
            + tokens_html(tokens_at(char_run), char_ids, mode, present, unknown=unknown_symbols(char_tok, unseen))
            + para(
                ngettext("{n} token. Decoded back:", "{n} tokens. Decoded back:", len(char_ids)).format(
                    n=f"{len(char_ids):,}"
                )
            )
            + f"<div class='bpe-text'>{esc_raw(char_back.decoded)}</div></div>"
        )
    with right:
        same = byte_back.same
        if byte_back.exact:
            back = _("Decoded back: exactly the input.")
        elif byte_back.but_whitespace:
            back = _(
                "Decoded back: the input, except the spaces (the whitespace pre-tokenizer drops them before "
                "training and encoding)."
            )
        else:
            back = _("Decoded back (differs from the input):")
        fallback = ngettext(
            "No <unk>: byte-level BPE starts every text as bytes, so a character no merge has joined stays as "
            "its bytes ({n} byte token here is a piece of a character, hatched).",
            "No <unk>: byte-level BPE starts every text as bytes, so a character no merge has joined stays as "
            "its bytes ({n} byte tokens here are pieces of a character, hatched).",
            n_partial,
        )
        verdict = f"<span class='bpe-ok'>{esc_raw(fallback.format(n=f'{n_partial:,}'))}</span>"
        st.html(
            f"<div class='bpe-card' id='bbpe-unseen-byte' data-partial='{n_partial}' data-roundtrip='{int(same)}'>"
            f"{col_title(BYTE)}<p class='bpe-note'>{verdict}</p>"
            + tokens_html(tokens_at(byte_run), byte_ids, mode, present)
            + para(
                ngettext("{n} token. {verdict}", "{n} tokens. {verdict}", len(byte_ids)).format(
                    n=f"{len(byte_ids):,}", verdict=back
                )
            )
            + f"<div class='bpe-text'>{esc_raw(byte_back.decoded)}</div></div>"
        )


# ------------------------------------------------------------------------------ 3. as merges grow
def rate_line(values: dict, steps: tuple[int, int], attr: str) -> str:
    parts = []
    for (name, ys), n in zip(values.items(), steps):
        label = ngettext("{name}: step 0 → {n} merge", "{name}: step 0 → {n} merges", n).format(name=name, n=f"{n:,}")
        parts.append(
            f"<div><div class='bpe-big' data-{attr}='{ys[-1]:.4f}'>{ys[0]:.2f} → {ys[-1]:.2f}</div>"
            f"<div class='bpe-big-label'>{esc_raw(label)}</div></div>"
        )
    return f"<div class='bpe-stats' id='bbpe-{attr}'>{''.join(parts)}</div>"


def rates(char_run, byte_run, present: bool) -> None:
    st.subheader(_("3 · As merges grow"))
    chars, data = memo.once(char_run, "corpus_size", lambda: corpus_size(char_run))
    per_char = {_(CHAR): tokens_per_character(char_run, chars), _(BYTE): tokens_per_character(byte_run, chars)}
    per_token = {_(CHAR): bytes_per_token(char_run, data), _(BYTE): bytes_per_token(byte_run, data)}
    steps = (char_run.num_steps, byte_run.num_steps)
    left, right = st.columns(2, gap="medium")
    with left:
        st.markdown(_("**Tokens per character** (fewer tokens: shorter sequences)"))
        st.html(rate_line(per_char, steps, "per-char"))
        spec = charts.lines_chart(per_char, _("tokens per character"), None, present, fmt=".3f")
        st.vega_lite_chart(spec, width="stretch")
    with right:
        st.markdown(_("**Bytes per token** (more bytes: each token carries more text)"))
        st.html(rate_line(per_token, steps, "per-token"))
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
    series = memo.once(byte_run, "partial_series", lambda: partial_series(byte_run))
    merged = byte_run.vocab_size_at(n) - byte_run.num_base
    partial_ids = partial_token_ids(byte_run)
    in_corpus = memo.once(byte_run, "partial_corpus", lambda: partial_corpus_tokens(byte_run, n))
    of = _("{part} of {total}")
    stats = stat(
        esc_raw(of.format(part=f"{len(partial_ids):,}", total=f"{merged:,}")),
        _("merged tokens are not whole characters"),
    )
    stats += stat(
        esc_raw(of.format(part=f"{in_corpus:,}", total=f"{byte_run.corpus_tokens(n):,}")),
        _("corpus tokens after the last merge are such pieces"),
    )
    shown = chips_html(byte_run, partial_ids[:SHOW_PARTIAL], mode, None, present) if partial_ids else ""
    if not partial_ids:
        shown = para(_("None: every merged token is whole characters."))
    elif len(partial_ids) > SHOW_PARTIAL:
        shown += para(_("The first {n} of them, in the order they were made.").format(n=SHOW_PARTIAL))
    left, right = st.columns([2, 3], gap="medium")
    with left:
        st.html(
            f"<div class='bpe-stats' id='bbpe-partial' data-partial='{len(partial_ids)}' data-merged='{merged}'>"
            f"{stats}</div>{shown}"
        )
    with right:
        spec = charts.lines_chart(
            {_("merged byte tokens that are pieces of a character"): series}, _("tokens"), None, present, height=200
        )
        st.vega_lite_chart(spec, width="stretch")


# ------------------------------------------------------------------------------ 5. one token when?
def _step_cell(step) -> str:
    if step is None:
        return "<td class='num bpe-muted'>" + esc_raw(_("never")) + "</td>"
    if step == 0:
        return "<td class='num'>0 <span class='bpe-muted'>" + esc_raw(_("(base)")) + "</span></td>"
    return f"<td class='num'><b>{step:,}</b></td>"


def one_token_when(char_run, byte_run) -> None:
    st.subheader(_("5 · When does each character become one token?"))
    order = multibyte_by_frequency(char_run)
    rows = []
    for g, count in order[:MAX_ROWS]:
        cps = " ".join(cp for _, cp, _, _ in code_points(g))
        rows.append(
            f"<tr><td class='big'>{esc(g)}</td><td class='bpe-cp'>{esc_raw(cps)}</td>"
            f"<td class='num'>{len(g.encode('utf-8'))}</td><td class='num'>{count:,}</td>"
            f"{_step_cell(first_single_token_step(char_run, g))}{_step_cell(first_single_token_step(byte_run, g))}</tr>"
        )
    if not rows:
        st.info(
            _(
                "Every character of this text is ASCII (one byte): both models have each one as a base token from step 0."
            )
        )
        return
    head = (
        N_("character"),
        N_("code points"),
        N_("bytes"),
        N_("times in the text"),
        N_("characters: one token at step"),
        N_("bytes: one token at step"),
    )
    st.html(
        "<table class='bpe-table' id='bbpe-first'><thead><tr>"
        + "".join(f"<th>{esc_raw(_(h))}</th>" for h in head)
        + f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
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
    rows = []
    for g in dict.fromkeys(x for x in graphemes(sample) if not x.isspace()):
        cp_html = "".join(
            f"<div><span class='bpe-cp'>{esc_raw(cp)}</span> {esc_raw(name.lower())} <span style='white-space:nowrap'>"
            + "".join(f"<span class='bpe-byte'>{b:02x}</span>" for b in data)
            + "</span></div>"
            for _c, cp, name, data in code_points(g)
        )
        c_ids, b_ids = char_tok.encode_piece(g), byte_tok.encode_piece(g)
        rows.append(
            f"<tr><td class='bpe-glyph'>{esc(g)}</td><td>{cp_html}</td><td class='num'>{len(g.encode('utf-8'))}</td>"
            f"<td>{tokens_html(tokens_at(char_run), c_ids, mode, present, unknown=unknown_symbols(char_tok, g))}</td>"
            f"<td>{tokens_html(tokens_at(byte_run), b_ids, mode, present)}</td></tr>"
        )
    if not rows:
        return
    st.html(
        "<table class='bpe-table' id='bbpe-graphemes'><colgroup><col style='width:7%'><col style='width:36%'>"
        "<col style='width:5%'><col style='width:22%'><col style='width:30%'></colgroup><thead><tr>"
        + "".join(f"<th>{esc_raw(_(h))}</th>" for h in GRAPHEME_HEAD)
        + f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
    st.caption(
        _(
            "One thing on screen (a grapheme cluster, split with the regex module's \\X) can be several code points: "
            "the family is three people joined by zero-width joiners (U+200D), a flag is two regional-indicator "
            "letters, a skin tone is a modifier after the hand. UTF-8 writes each code point as 1 to 4 bytes."
        )
    )


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
