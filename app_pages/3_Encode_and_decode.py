"""Encode & decode: new text -> token chips with ids, a replay of the merges one at a time, rank order
(GPT-2) vs longest match (the classic tutorial) where they differ, and ids -> text. The tokenizer
is the sidebar corpus's run, after merges 1..k.

Inputs (the sidebar, k, the text, ids) -> a tokenizer and its traces (bpe_core) -> four sections.
"""

import streamlit as st

from bpe_core import InputError
from bpe_core.replay import (
    UNK_LOST,
    WHITESPACE_DROPPED,
    WHITESPACE_ONE_SPACE,
    encoding_summary,
    parse_ids,
    round_trip,
    split_differences,
    unknown_symbols,
)
from ui import page, persist, replay_view, sidebar
from ui.chips import chip_html, tokens_html
from ui.encoding import tokenizer_at, tokens_at
from ui.i18n import N_, _, ngettext
from ui.settings import PRE_LABELS, VARIANT_LABELS
from ui.text import esc, esc_raw, md_escape

MAX_CHARS = 20_000  # longer texts are cut (encoding is fast; drawing 20,000 chips is not)
MAX_DIFFS = 30

SAMPLES = {
    "textbook-low": "lowest newer wider",
    "textbook-lowest": "lower newest wild",
    "aaabdaaabac": "aaabdaaabac",
    "nihao": "你好啊 我走",
    "lowest-price": "the lowest price is lower than the last",
    "zh-emoji": "今天我们很开心 😀！明天去北京 🐼",
    "pg16457-chapter": "Their last farewells were said in the vast silence of space.",
    "pg16457-book": "Their last farewells were said in the vast silence of space.",
}


def pick_k(choice, run) -> int:
    """The slider choosing how many merges the tokenizer uses; the tokenizer's caption."""
    n = run.num_steps
    name = f"pg.enc.k.{persist.short_key(choice.corpus.digest, choice.config)}"
    if n > 0:
        st.slider(
            _("Use merges 1 … k (the tokenizer after step k)"),
            0,
            n,
            key=persist.seeded(name, n),
            on_change=persist.keep,
            args=(name,),
            help=_(
                "Step k of training gives a tokenizer with merges 1..k. Slide left to see text encoded by an "
                "earlier vocabulary."
            ),
        )
    k = max(0, min(n, int(persist.kept(name, n))))
    tok = tokenizer_at(run, k)
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
    return k


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
    numbers = dict(
        chars=f"{summary.chars:,}",
        tokens=f"{summary.tokens:,}",
        ratio=f"{summary.chars_per_token:.2f}",
        unk=f"{summary.unknown:,}",
    )
    if summary.unknown:
        said = _(
            "{chars} characters → {tokens} tokens ({ratio} characters per token); {unk} unknown (<unk>: "
            "characters the training corpus never had)."
        )
    else:
        said = _("{chars} characters → {tokens} tokens ({ratio} characters per token).")
    st.html(
        f"<p class='bpe-note' id='enc-summary' data-tokens='{summary.tokens}' data-unk='{summary.unknown}'>"
        f"{esc_raw(said.format(**numbers))}</p>"
        + tokens_html(src, ids, mode, present, unknown=unknown, css_id="enc-tokens")
    )
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
    rows = []
    for i, step in enumerate(replay.steps, start=1):
        rows.append(
            f"<tr class='{'chosen' if i == j else ''}'><td class='num'>{i}</td><td class='num'>{step.merge_number:,}</td>"
            f"<td class='pair'>{chip_html(src, step.left, mode)} + {chip_html(src, step.right, mode)} → "
            f"{chip_html(src, step.token, mode)}</td><td class='num'>{step.count}</td></tr>"
        )
    title = ngettext(
        "The {n} merge this text uses, in rank order", "All {n} merges this text uses, in rank order", len(replay)
    )
    with st.expander(title.format(n=f"{len(replay):,}")):
        st.html(
            "<table class='bpe-table' id='enc-plan'><thead><tr><th>#</th>"
            + "".join(f"<th>{esc_raw(h)}</th>" for h in (_("rank"), _("merge"), _("places")))
            + "</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
        )


def methods_section(tok, src, text, mode, present) -> None:
    st.subheader(_("3 · Merge rank vs longest match"))
    diffs = split_differences(tok, text)
    if diffs:
        rows = []
        for piece, by_rank, longest in diffs[:MAX_DIFFS]:
            unknown = unknown_symbols(tok, piece)
            rows.append(
                f"<tr><td class='word'>{esc(piece)}</td>"
                f"<td>{tokens_html(src, by_rank, mode, present, with_ids=False, unknown=unknown)}</td>"
                f"<td>{tokens_html(src, longest, mode, present, with_ids=False)}</td></tr>"
            )
        if len(diffs) > MAX_DIFFS:
            said = ngettext(
                "{n} word of this text is split differently (the first {shown} shown):",
                "{n} words of this text are split differently (the first {shown} shown):",
                len(diffs),
            )
        else:
            said = ngettext(
                "{n} word of this text is split differently:",
                "{n} words of this text are split differently:",
                len(diffs),
            )
        head = (
            _("word"),
            _("by merge rank (GPT-2, what training did)"),
            _("longest match first (the classic tutorial)"),
        )
        st.html(
            f"<p class='bpe-note'>{esc_raw(said.format(n=f'{len(diffs):,}', shown=MAX_DIFFS))}</p>"
            "<table class='bpe-table' id='enc-diffs'><thead><tr>"
            + "".join(f"<th>{esc_raw(h)}</th>" for h in head)
            + f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        )
    else:
        same = _("Both methods split every word of this text the same way.")
        st.html(f"<p class='bpe-note' id='enc-diffs-none'>{esc_raw(same)}</p>")
    st.caption(
        _(
            "By rank replays training: the earliest-learned pair is merged first, so a word seen in training gets "
            "its training split. Longest match ignores the order: it takes the longest vocabulary token found in "
            "the word (more frequent first among equals), then splits the rest the same way. On a larger corpus "
            "(try All Around the Moon, chapter I, with 'Their last farewells') they often disagree."
        )
    )


#: Why a text's own ids may decode to another text (:data:`bpe_core.replay.RoundTrip.reasons`).
REASONS = {
    WHITESPACE_ONE_SPACE: N_(
        "the whitespace pre-tokenizer drops whitespace (the end-of-word marker brings back one space between words)"
    ),
    WHITESPACE_DROPPED: N_("the whitespace pre-tokenizer drops whitespace"),
    UNK_LOST: N_("<unk> cannot be turned back into the character it replaced"),
}


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
    if back.exact:
        exact = _("Exactly the text above.")
        verdict = f"<span class='bpe-ok'>{esc_raw(exact)}</span>"
    elif back.same_ids and back.reasons:
        reasons = _("; ").join(_(REASONS[r]) for r in back.reasons)
        verdict = esc_raw(_("Not exactly the text above: {reasons}.").format(reasons=reasons))
    elif back.same_ids:
        verdict = esc_raw(_("Not exactly the text above."))
    else:
        verdict = ""
    decoded_as = ngettext("Decoded ({n} id):", "Decoded ({n} ids):", len(wanted)).format(n=f"{len(wanted):,}")
    st.html(
        tokens_html(src, wanted, mode, present, css_id="enc-decode-tokens")
        + f"<p class='bpe-muted'>{esc_raw(decoded_as)} {verdict}</p>"
        + f"<div class='bpe-text' id='enc-decoded'>{esc_raw(back.decoded)}</div>"
    )


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
