"""Encode & decode: new text -> token chips with ids, a replay of the merges one at a time, rank order
(GPT-2) vs longest match (the classic tutorial) where they differ, and ids -> text. The tokenizer
is the sidebar corpus's run, after merges 1..k.

Inputs (the sidebar, k, the text, ids) -> a tokenizer and its traces (bpe_core) -> four sections.
"""

import streamlit as st

from bpe_core import InputError
from bpe_core.encoding.replay import (
    encoding_summary,
    parse_ids,
    round_trip,
    split_differences,
    unknown_symbols,
)
from ui import encode_view, page, persist, replay_view, sidebar, stepper
from ui.encoding import tokenizer_at, tokens_at
from ui.i18n import _, ngettext
from ui.settings import PRE_LABELS, VARIANT_LABELS
from ui.text import md_escape

MAX_CHARS = 20_000  # longer texts are cut (encoding is fast; drawing 20,000 chips is not)
MAX_DIFFS = 30

SAMPLES = {
    "textbook-low": "lowest newer wider",
    "textbook-lowest": "lower newest wild",
    "aaabdaaabac": "aaabdaaabac",
    "nihao": "你好啊 我走",
    "lowest-price": "the lowest price is lower than the last",
    "zh-emoji": "今天我们很开心 😀！明天去北京 🐼",
    "zh-hant-emoji": "今天我們很開心 😀！明天去動物園 🐼",
    "pg16457-chapter": "Their last farewells were said in the vast silence of space.",
    "pg16457-book": "Their last farewells were said in the vast silence of space.",
}


def pick_k(choice, run) -> int:
    """The step control choosing how many merges the tokenizer uses (its own step, not the stepper's:
    all merges until moved); the tokenizer's caption."""
    n = run.num_steps
    name = f"pg.enc.k.{persist.short_key(choice.corpus.digest, choice.config)}"
    k = 0
    if n > 0:
        st.markdown(
            _("Use merges 1 … k (the tokenizer after step k)"),
            help=_(
                "Step k of training gives a tokenizer with merges 1..k. Slide left to see text encoded by an "
                "earlier vocabulary."
            ),
        )
        # The arrow keys stay with the replay below.
        k = stepper.page_step("enc-k", n, name)
    tokenizer_caption(choice, run, k)
    return k


def tokenizer_caption(choice, run, k: int) -> None:
    """Which tokenizer encodes here: the corpus, variant, pre-tokenizer, merges 1..k and vocabulary size."""
    n, tok = run.num_steps, tokenizer_at(run, k)
    if run.variant.is_bytes:
        said = _(
            "Tokenizer: {label}, {variant}, pre-tokenizer: {pretokenizer}, merges 1–{k} of {n}, vocabulary "
            "{vocab} tokens."
        )
    else:
        said = _(
            "Tokenizer: {label}, {variant}, pre-tokenizer: {pretokenizer}, merges 1–{k} of {n}, vocabulary "
            "{vocab} tokens (+ <unk> for characters it never saw)."
        )
    pre = tok.pretokenizer
    st.caption(
        md_escape(
            said.format(
                label=choice.label,
                variant=_(VARIANT_LABELS[run.variant.kind]),
                pretokenizer=_(PRE_LABELS.get(pre, pre)),
                k=f"{k:,}",
                n=f"{n:,}",
                vocab=f"{tok.vocab_size:,}",
            )
        )
    )


def text_to_encode(choice, run, tok) -> str:
    """The text box (default: a sample for the preset, else the corpus's first words); stops the page
    when there is nothing to encode."""
    name = f"pg.enc.text.{choice.corpus.digest[:12]}"
    default = SAMPLES.get(choice.preset.id if choice.preset else "", "")
    if not default:
        default = (" " if tok.pretokenizer == "whitespace" else "").join(run.words[:12])
    return page.page_text(
        _("Text to encode"),
        name,
        default,
        height=90,
        max_chars=MAX_CHARS,
        cut=_("The text is {n} characters; only the first {limit} are encoded here."),
        empty=_("Type or paste some text above to encode it."),
    )


def tokens_section(src, summary, ids, unknown, mode, present) -> None:
    st.subheader(_("1 · Tokens and their ids"))
    st.html(encode_view.summary_html(summary, src, ids, unknown, mode, present))
    if not present:
        st.code(" ".join(str(t) for t in ids), language=None, wrap_lines=True)


def replay_section(run, src, replay, unknown, k, text, run_key, mode, present) -> None:
    """The merges that fire on the text, one at a time (:func:`ui.replay_view.replay_steps`), and their list."""
    st.subheader(_("2 · Replay the merges, one at a time"))
    if not len(replay):
        if run.variant.is_bytes:
            said = _("No merge applies to this text: every word stays split into its bytes.")
        else:
            said = _("No merge applies to this text: every word stays split into its characters.")
        st.info(said + (" " + _("Use more merges (the slider above).") if k < run.num_steps else ""))
        return
    if run.variant.is_bytes:
        start = _(
            "Start: every word split into its bytes. The encoder now repeats: find the adjacent pair with "
            "the lowest merge rank (learned earliest), merge all its occurrences, until no pair has a rank."
        )
    else:
        start = _(
            "Start: every word split into its characters. The encoder now repeats: find the adjacent pair "
            "with the lowest merge rank (learned earliest), merge all its occurrences, until no pair has a "
            "rank."
        )

    def note(number: int) -> str:
        return _("The pair learned earliest that is left in the text: training learned it as merge {number}.").format(
            number=f"{number:,}"
        )

    name = f"pg.enc.replay.{persist.short_key(run_key, k, text)}"
    j = replay_view.replay_steps(
        replay,
        src,
        key="enc",
        name=name,
        start=start,
        unknown=unknown,
        mode=mode,
        present=present,
        note=note,
        merge_label=lambda number: _("Merge {number}:").format(number=f"{number:,}"),
    )
    if not present:
        plan_table(src, replay, j, mode)


def plan_table(src, replay, j: int, mode: str) -> None:
    """Every merge the text uses, in rank order, the one of step ``j`` marked."""
    title = ngettext(
        "The {n} merge this text uses, in rank order", "All {n} merges this text uses, in rank order", len(replay)
    )
    with st.expander(title.format(n=f"{len(replay):,}")):
        st.html(encode_view.plan_table_html(src, replay, j, mode))


def methods_section(tok, src, text, mode, present) -> None:
    st.subheader(_("3 · Merge rank vs longest match"))
    diffs = split_differences(tok, text)
    st.html(encode_view.diffs_html(tok, src, diffs, MAX_DIFFS, mode, present))
    st.caption(
        _(
            "By rank replays training: the earliest-learned pair is merged first, so a word seen in training gets "
            "its training split. Longest match ignores the order: it takes the longest vocabulary token found in "
            "the word (more frequent first among equals), then splits the rest the same way. On a larger corpus "
            "(try All Around the Moon, chapter I, with 'Their last farewells') they often disagree."
        )
    )


def decode_section(tok, src, text, ids, k, run_key, mode, present) -> None:
    st.subheader(_("4 · Ids → text"))
    name = f"pg.enc.ids.{persist.short_key(run_key, k, text)}"
    default = " ".join(str(t) for t in ids[:2000])
    st.text_input(
        _("Token ids (separated by spaces or commas)"),
        key=persist.seeded(name, default),
        on_change=persist.keep,
        args=(name,),
    )
    try:
        wanted = parse_ids(persist.kept(name, default))
        back = round_trip(tok, text, ids, wanted)
    except (InputError, ValueError) as err:
        st.error(
            _("{problem} Valid ids go from 0 to {last}.").format(
                problem=md_escape(str(err)), last=f"{max(tok.values):,}"
            )
        )
        return
    if not wanted:
        st.info(_("Type some token ids above."))
        return
    st.html(encode_view.decoded_html(src, wanted, back, mode, present))


def main() -> None:
    """The sidebar's run, the tokenizer after step k and the text, then the four sections."""
    choice, run = page.start_run_page(_("Encode and decode"), "🔁", _("Encode and decode"))
    mode, present = choice.display.byte_mode, choice.display.presentation
    sidebar.write_url(choice)
    run_key = persist.short_key(choice.corpus.digest, choice.config)
    k = pick_k(choice, run)
    tok, src = tokenizer_at(run, k), tokens_at(run, k)
    text = text_to_encode(choice, run, tok)
    ids = tok.encode(text)
    unknown = unknown_symbols(tok, text)
    tokens_section(src, encoding_summary(tok, text, ids), ids, unknown, mode, present)
    replay_section(run, src, tok.replay(text), unknown, k, text, run_key, mode, present)
    methods_section(tok, src, text, mode, present)
    decode_section(tok, src, text, ids, k, run_key, mode, present)


main()
