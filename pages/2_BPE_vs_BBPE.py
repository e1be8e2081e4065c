"""BPE vs byte-level BPE: the same text trained from characters and from UTF-8 bytes.

Trains on this page's own text box (default: the Chinese + emoji preset), or on the sidebar corpus
when asked, with the sidebar's pre-tokenizer, minimum frequency and tie-break.
"""

import streamlit as st

from bpe_core import InputError, clean_text
from ui import pages_common as pc
from ui import render, state
from ui.presets import PRESETS
from ui.text import esc, esc_raw, md_escape

DEFAULT_TEXT = PRESETS["zh-emoji"].load_text()
DEFAULT_UNSEEN = "明天我们去北京看熊猫 🐼！"
DEFAULT_GRAPHEMES = "👨‍👩‍👧 🇨🇳 👍🏽 ❤️ é 你"
MAX_ROWS = 24
SHOW_PARTIAL = 18

sel = pc.start_page("BPE vs BBPE", "🔤")
present = sel.presentation
mode = sel.byte_mode
if not present:
    st.title("BPE vs byte-level BPE")
st.caption(
    "Character-level BPE starts from the characters it saw in training; byte-level BPE (BBPE: GPT-2 and most "
    "large language models) starts from all 256 byte values of UTF-8. Same text, same settings, two alphabets."
)

# ------------------------------------------------------------------------------ what to train on
SOURCES = {"text": "the text below", "sidebar": f"the sidebar corpus ({sel.label or 'not usable'})"}
src_col, merges_col = st.columns([3, 1], vertical_alignment="bottom")
with src_col:
    st.radio("Train on", list(SOURCES), key=pc.seeded("bbpe.source", "text"), on_change=pc.keep,
             args=("bbpe.source",), format_func=SOURCES.get, horizontal=True)  # fmt: skip
source = pc.kept("bbpe.source", "text")
if source == "text":
    with merges_col:
        st.number_input("Merges (at most)", min_value=0, max_value=state.max_merges(), step=10,
                        key=pc.seeded("bbpe.merges", 300), on_change=pc.keep, args=("bbpe.merges",),
                        help="Training also stops when the best pair occurs fewer times than the sidebar's "
                        "minimum frequency.")  # fmt: skip
    st.text_area("Training text (paste any text; the default is the Chinese + emoji preset)",
                 key=pc.seeded("bbpe.text", DEFAULT_TEXT), on_change=pc.keep, args=("bbpe.text",),
                 height=110)  # fmt: skip
    text = pc.kept("bbpe.text", DEFAULT_TEXT)
    merges = int(pc.kept("bbpe.merges", 300))
    selections = [pc.text_selection(sel, text, v, merges, label="Training text") for v in ("char", "byte")]
    if not selections[0].ok:
        st.warning(md_escape(selections[0].message or "The training text is not usable.") + " Paste some text above.")
        st.stop()
    cfg = selections[0].config
    st.caption(
        md_escape(
            f"Both trained on the text above: pre-tokenizer {cfg.resolved_pretokenizer}, min frequency "
            f"{cfg.min_frequency}, tie-break {cfg.tie_break} (from the sidebar), at most {merges:,} merges."
        )
    )
else:
    if not sel.ok:
        st.stop()  # the sidebar already says why
    selections = [pc.with_variant(sel, v) for v in ("char", "byte")]
    cfg = sel.config
    st.caption(
        md_escape(f"Both trained on {sel.label} with the sidebar's settings (the variant setting is ignored here).")
    )

runs = pc.get_runs(selections)
if any(r is None for r in runs):
    st.stop()
char_run, byte_run = runs
state.write_url(sel)
n_char, n_byte = char_run.num_steps, byte_run.num_steps
char_tok, byte_tok = pc.tokenizer_at(char_run), pc.tokenizer_at(byte_run)
char_view, byte_view = pc.view_of(char_run), pc.view_of(byte_run)


def col_title(text: str) -> str:
    return f"<div class='bpe-col-title'>{esc_raw(text)}</div>"


def stat(value: str, label: str, attr: str = "") -> str:
    return f"<div><div class='bpe-big' {attr}>{value}</div><div class='bpe-big-label'>{esc_raw(label)}</div></div>"


# ------------------------------------------------------------------------------ 1. base alphabet
st.subheader("1 · The starting alphabet")
used_bytes = sorted({b for w in byte_run.words for b in w.encode("utf-8")})
left, right = st.columns(2, gap="medium")
with left:
    st.html(
        f"<div class='bpe-card' id='bbpe-base-char'>{col_title('Characters (BPE)')}<div class='bpe-stats'>"
        + stat(
            f"{char_run.num_base:,}",
            "base symbols: every distinct character of the text",
            f"data-base='{char_run.num_base}'",
        )
        + "</div>"
        + render.chips_html(char_run, range(char_run.num_base), mode, None, present)
        + "<p class='bpe-muted'>A character that is not in this list can never be encoded.</p></div>"
    )
with right:
    st.html(
        f"<div class='bpe-card' id='bbpe-base-byte'>{col_title('Bytes (byte-level BPE)')}<div class='bpe-stats'>"
        + stat(f"{byte_run.num_base:,}", "base symbols: all byte values 0–255", f"data-base='{byte_run.num_base}'")
        + stat(f"{len(used_bytes):,}", "of them occur in this text")
        + "</div>"
        + render.chips_html(byte_run, used_bytes, mode, None, present)
        + "<p class='bpe-muted'>The bytes that occur in the text. Hatched chips are not characters on their own: "
        "UTF-8 writes 你 as three bytes, an emoji as four.</p></div>"
    )

# ------------------------------------------------------------------------------ 2. unseen text
st.subheader("2 · Text with characters it never saw")
st.text_input("Text to encode with both trained models", key=pc.seeded("bbpe.unseen", DEFAULT_UNSEEN),
              on_change=pc.keep, args=("bbpe.unseen",))  # fmt: skip
unseen = pc.kept("bbpe.unseen", DEFAULT_UNSEEN)
try:
    unseen = clean_text(unseen)
except InputError as err:
    st.error(md_escape(str(err)))
    unseen = ""
if unseen.strip():
    char_ids = char_tok.encode(unseen)
    byte_ids = byte_tok.encode(unseen)
    unknown = pc.unknown_symbols(char_tok, unseen)
    n_unk = sum(1 for t in char_ids if t == char_tok.unk_id)
    char_back = char_tok.decode(char_ids)
    byte_back = byte_tok.decode(byte_ids)
    n_partial = sum(1 for t in byte_ids if byte_run.is_partial(t))
    # The whitespace pre-tokenizer drops whitespace, so no model can give it back.
    dropped = cfg.resolved_pretokenizer == "whitespace" and any(c.isspace() for c in unseen)
    left, right = st.columns(2, gap="medium")
    with left:
        verdict = (
            f"<span class='bpe-bad'>{n_unk} symbol{'s' if n_unk != 1 else ''} became &lt;unk&gt;</span>: the model has no "
            "token for a character it never saw, so that information is lost."
            if n_unk
            else "<span class='bpe-ok'>Every character was seen in training</span>: no &lt;unk&gt;."
        )
        st.html(
            f"<div class='bpe-card' id='bbpe-unseen-char' data-unk='{n_unk}'>{col_title('Characters (BPE)')}"
            f"<p class='bpe-note'>{verdict}</p>"
            + pc.tokens_html(char_view, char_ids, mode, present, unknown=unknown)
            + f"<p class='bpe-muted'>{len(char_ids):,} tokens. Decoded back:</p><div class='bpe-text'>{esc_raw(char_back)}</div></div>"
        )
    with right:
        same = byte_back == unseen
        if same:
            back = "Decoded back: exactly the input."
        elif dropped and byte_back == "".join(unseen.split()):
            same = True
            back = (
                "Decoded back: the input, except the spaces (the whitespace pre-tokenizer drops them before "
                "training and encoding)."
            )
        else:
            back = "Decoded back (differs from the input):"
        verdict = (
            f"<span class='bpe-ok'>No &lt;unk&gt;</span>: a character without a token falls back to its bytes "
            f"({n_partial} byte token{'s' if n_partial != 1 else ''} here are pieces of a character, hatched)."
        )
        st.html(
            f"<div class='bpe-card' id='bbpe-unseen-byte' data-partial='{n_partial}' data-roundtrip='{int(same)}'>"
            f"{col_title('Bytes (byte-level BPE)')}<p class='bpe-note'>{verdict}</p>"
            + pc.tokens_html(byte_view, byte_ids, mode, present)
            + f"<p class='bpe-muted'>{len(byte_ids):,} tokens. {esc_raw(back)}</p>"
            f"<div class='bpe-text'>{esc_raw(byte_back)}</div></div>"
        )

# ------------------------------------------------------------------------------ 3. as merges grow
st.subheader("3 · As merges grow")
chars, data = pc.corpus_size(char_run)
char_tokens = char_run.series()["corpus_tokens"]
byte_tokens = byte_run.series()["corpus_tokens"]
per_char = {
    "Characters (BPE)": [t / chars for t in char_tokens],
    "Bytes (byte-level BPE)": [t / chars for t in byte_tokens],
}
per_token = {
    "Characters (BPE)": [data / t for t in char_tokens],
    "Bytes (byte-level BPE)": [data / t for t in byte_tokens],
}


def rate_line(values: dict, attr: str) -> str:
    parts = []
    for (name, ys), n in zip(values.items(), (n_char, n_byte)):
        parts.append(
            f"<div><div class='bpe-big' data-{attr}='{ys[-1]:.4f}'>{ys[0]:.2f} → {ys[-1]:.2f}</div>"
            f"<div class='bpe-big-label'>{esc_raw(name)}: step 0 → {n:,} merges</div></div>"
        )
    return f"<div class='bpe-stats' id='bbpe-{attr}'>{''.join(parts)}</div>"


left, right = st.columns(2, gap="medium")
with left:
    st.markdown("**Tokens per character** (fewer tokens: shorter sequences)")
    st.html(rate_line(per_char, "per-char"))
    st.vega_lite_chart(pc.lines_chart(per_char, "tokens per character", None, present, fmt=".3f"), width="stretch")
with right:
    st.markdown("**Bytes per token** (more bytes: each token carries more text)")
    st.html(rate_line(per_token, "per-token"))
    st.vega_lite_chart(pc.lines_chart(per_token, "bytes per token", None, present, fmt=".3f"), width="stretch")
st.caption(
    md_escape(
        f"The training text has {chars:,} characters in {data:,} UTF-8 bytes (whitespace the pre-tokenizer drops is "
        "not counted). Byte-level BPE starts at one token per byte, so it spends its first merges rebuilding "
        "characters that character-level BPE has from the start."
    )
)

# ------------------------------------------------------------------------------ 4. pieces of characters
st.subheader("4 · Byte-level tokens that are pieces of characters")
series = pc.partial_series(byte_run)
merged = byte_run.vocab_size_at(n_byte) - byte_run.num_base
partial_ids = [t for t in range(byte_run.num_base, byte_run.vocab_size_at(n_byte)) if byte_run.is_partial(t)]
in_corpus = pc.partial_corpus_tokens(byte_run, n_byte)
left, right = st.columns([2, 3], gap="medium")
with left:
    st.html(
        f"<div class='bpe-stats' id='bbpe-partial' data-partial='{len(partial_ids)}' data-merged='{merged}'>"
        + stat(f"{len(partial_ids):,} of {merged:,}", "merged tokens are not whole characters")
        + stat(f"{in_corpus:,} of {byte_tokens[-1]:,}", "corpus tokens after the last merge are such pieces")
        + "</div>"
        + (
            render.chips_html(byte_run, partial_ids[:SHOW_PARTIAL], mode, None, present)
            if partial_ids
            else "<p class='bpe-muted'>None: every merged token is whole characters.</p>"
        )
        + (
            f"<p class='bpe-muted'>The first {SHOW_PARTIAL} of them, in the order they were made.</p>"
            if len(partial_ids) > SHOW_PARTIAL
            else ""
        )  # fmt: skip
    )
with right:
    st.vega_lite_chart(
        pc.lines_chart(
            {"merged byte tokens that are pieces of a character": series}, "tokens", None, present, height=200
        ),
        width="stretch",
    )

# ------------------------------------------------------------------------------ 5. one token when?
st.subheader("5 · When does each character become one token?")
counts: dict = {}
for word, freq in zip(char_run.words, char_run.freqs):
    for g in pc.graphemes(word):
        if len(g.encode("utf-8")) > 1:
            counts[g] = counts.get(g, 0) + freq
order = sorted(counts, key=lambda g: -counts[g])  # stable: first appearance breaks ties
rows = []
for g in order[:MAX_ROWS]:
    c_step = pc.first_single_token_step(char_run, g)
    b_step = pc.first_single_token_step(byte_run, g)
    cps = " ".join(cp for _, cp, _, _ in pc.code_points(g))
    nbytes = len(g.encode("utf-8"))

    def cell(step):
        if step is None:
            return "<td class='num bpe-muted'>never</td>"
        if step == 0:
            return "<td class='num'>0 <span class='bpe-muted'>(base)</span></td>"
        return f"<td class='num'><b>{step:,}</b></td>"

    rows.append(
        f"<tr><td class='big'>{esc(g)}</td><td class='bpe-cp'>{esc_raw(cps)}</td><td class='num'>{nbytes}</td>"
        f"<td class='num'>{counts[g]:,}</td>{cell(c_step)}{cell(b_step)}</tr>"
    )
if rows:
    st.html(
        "<table class='bpe-table' id='bbpe-first'><thead><tr><th>character</th><th>code points</th><th>bytes</th>"
        "<th>times in the text</th><th>characters: one token at step</th><th>bytes: one token at step</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    more = f" Showing the {MAX_ROWS} most frequent of {len(order):,}." if len(order) > MAX_ROWS else ""
    st.caption(
        md_escape(
            "Characters of two or more UTF-8 bytes, most frequent first; a character is one token from the step "
            "whose merge put exactly it into the vocabulary (with the GPT-2 pre-tokenizer a space often stays "
            f"attached, so ␣你 can be a token before 你 is). ASCII characters are one byte: a base token of both.{more}"
        )
    )
else:
    st.info("Every character of this text is ASCII (one byte): both models have each one as a base token from step 0.")

# ------------------------------------------------------------------------------ 6. graphemes
st.subheader("6 · What you see, code points, bytes")
st.text_input("Characters to take apart (emoji, flags, accents...)", key=pc.seeded("bbpe.graphemes", DEFAULT_GRAPHEMES),
              on_change=pc.keep, args=("bbpe.graphemes",))  # fmt: skip
sample = pc.kept("bbpe.graphemes", DEFAULT_GRAPHEMES)
try:
    sample = clean_text(sample)[:400]
except InputError as err:
    st.error(md_escape(str(err)))
    sample = ""
rows = []
for g in dict.fromkeys(x for x in pc.graphemes(sample) if not x.isspace()):
    cps = pc.code_points(g)
    cp_html = "".join(
        f"<div><span class='bpe-cp'>{esc_raw(cp)}</span> {esc_raw(name.lower())} <span style='white-space:nowrap'>"
        + "".join(f"<span class='bpe-byte'>{b:02x}</span>" for b in data)
        + "</span></div>"
        for _c, cp, name, data in cps
    )
    b_ids = byte_tok.encode_piece(g)
    c_ids = char_tok.encode_piece(g)
    rows.append(
        f"<tr><td class='bpe-glyph'>{esc(g)}</td><td>{cp_html}</td><td class='num'>{len(g.encode('utf-8'))}</td>"
        f"<td>{pc.tokens_html(char_view, c_ids, mode, present, unknown=pc.unknown_symbols(char_tok, g))}</td>"
        f"<td>{pc.tokens_html(byte_view, b_ids, mode, present)}</td></tr>"
    )
if rows:
    st.html(
        "<table class='bpe-table' id='bbpe-graphemes'><colgroup><col style='width:7%'><col style='width:36%'>"
        "<col style='width:5%'><col style='width:22%'><col style='width:30%'></colgroup><thead><tr><th>you see</th><th>code points and their UTF-8 bytes</th>"
        "<th>bytes</th><th>character-level tokens</th><th>byte-level tokens</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    st.caption(
        "One thing on screen (a grapheme cluster, split with the regex module's \\X) can be several code points: "
        "the family is three people joined by zero-width joiners (U+200D), a flag is two regional-indicator letters, "
        "a skin tone is a modifier after the hand. UTF-8 writes each code point as 1 to 4 bytes."
    )
