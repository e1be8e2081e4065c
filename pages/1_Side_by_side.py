"""Side by side: characters, characters + end-of-word marker and bytes, trained on the sidebar's
corpus with the sidebar's settings, stepped together by one step control."""

import streamlit as st

from ui import pages_common as pc
from ui import render, state
from ui.text import clip, esc, esc_raw, md_escape

VARIANTS = ("char", "eow", "byte")

sel = pc.start_page("Side by side", "🆚")
if not sel.presentation:
    st.title("Side by side")
if not sel.ok:
    st.stop()

mode = sel.byte_mode
present = sel.presentation
cfg = sel.config
limit = f"up to {cfg.num_merges:,} merges" if cfg.vocab_size is None else f"vocabulary up to {cfg.vocab_size:,}"
if present:
    st.caption(md_escape(f"{sel.label} · {limit}"))
else:
    st.caption(
        md_escape(
            f"Characters, characters + end-of-word marker and bytes, one step at a time. {sel.label} · the same "
            f"words for all three (pre-tokenizer {cfg.resolved_pretokenizer}), min frequency {cfg.min_frequency}, "
            f"tie-break {cfg.tie_break}, {limit}. Change them in the sidebar."
        )
    )

selections = [pc.with_variant(sel, v) for v in VARIANTS]
runs = pc.get_runs(selections)
if any(r is None for r in runs):
    st.stop()

# One step control for all three: it counts to the longest run; a shorter one shows why it stopped.
longest = max(runs, key=lambda r: r.num_steps)
step = render.step_controls(longest, presentation=present, key="sbs")
state.write_url(sel, step)

cols = st.columns(3, gap="medium")
for col, variant, run in zip(cols, VARIANTS, runs):
    with col:
        shown = min(step, run.num_steps)
        title = pc.variant_title(variant, run.config)
        vocab, tokens = run.vocab_size_at(shown), run.corpus_tokens(shown)
        d_vocab = vocab - run.vocab_size_at(shown - 1) if 1 <= step <= run.num_steps else None
        d_tokens = tokens - run.corpus_tokens(shown - 1) if 1 <= step <= run.num_steps else None

        def delta(d):
            return f"<span class='bpe-delta'>({d:+,})</span>" if d is not None else ""

        st.html(
            f"<div class='bpe-card bpe-col' id='sbs-{variant}' data-variant='{variant}'>"
            f"<div class='bpe-col-title'>{esc_raw(title)}</div>"
            f"{pc.merge_line_html(run, step, mode, present, numbered=False)}"
            f"<div class='bpe-stats'>"
            f"<div><div class='bpe-big' data-vocab='{vocab}'>{vocab:,}{delta(d_vocab)}</div>"
            f"<div class='bpe-big-label'>vocabulary size</div></div>"
            f"<div><div class='bpe-big' data-tokens='{tokens}'>{tokens:,}{delta(d_tokens)}</div>"
            f"<div class='bpe-big-label'>corpus tokens</div></div></div></div>"
        )
        st.html(render.pair_table_html(run, min(max(step, 0), run.num_steps), mode, present, limit=5))

# The same words under each tokenizer at this step.
st.subheader("The same words, three ways")
words_name = f"sbs.words.{sel.digest[:12]}"
chosen = list(pc.kept(words_name, pc.top_words(runs[0], 6)))
options = pc.top_words(runs[0], 300, min_chars=1)
options += [w for w in chosen if w not in options]
st.multiselect(
    "Words to compare: pick corpus words, or type any word and press Enter",
    options,
    key=pc.seeded(words_name, chosen),
    on_change=pc.keep,
    args=(words_name,),
    accept_new_options=True,
    max_selections=12,
    format_func=lambda w: w.replace(" ", "␣"),
)
chosen = [w for w in pc.kept(words_name, chosen) if w]

head = "".join(f"<th>{esc_raw(pc.variant_title(v, r.config))}</th>" for v, r in zip(VARIANTS, runs))
rows = []
for word in chosen:
    cells = []
    seen = True
    freq = 0
    for run in runs:
        shown = min(step, run.num_steps)
        new_token = run.snapshot(shown).token if 1 <= step <= run.num_steps else None
        index = run.find_word(word)
        if index is not None:
            ids = run.segmentation(index, shown)
            freq = run.freqs[index]
            cells.append(f"<td>{render.chips_html(run, ids, mode, new_token, present)}</td>")
        else:
            seen = False
            view = pc.view_of(run, shown)
            ids = view.tok.encode(word)
            unknown = pc.unknown_symbols(view.tok, word)
            cells.append(
                f"<td>{pc.tokens_html(view, ids, mode, present, with_ids=False, unknown=unknown, new_token=new_token)}</td>"
            )
    note = f"{freq:,}" if seen else "<span class='bpe-muted'>not in corpus</span>"
    rows.append(f"<tr><td class='word'>{esc(clip(word))}</td><td class='num'>{note}</td>{''.join(cells)}</tr>")
if rows:
    st.html(
        "<table class='bpe-table' id='sbs-words'><thead><tr><th>word</th><th>freq</th>"
        f"{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
else:
    st.info("Pick a few words above to see how each tokenizer splits them.")

# Corpus length of the three over all steps, the current step marked.
st.subheader("Corpus length over the merges")
char_series, byte_series = runs[0].series()["corpus_tokens"], runs[2].series()["corpus_tokens"]
chars, data = pc.corpus_size(runs[0])
if char_series == byte_series and chars == data:
    st.caption(
        "The Characters and Bytes lines coincide: every character of this corpus is one byte (ASCII), "
        "so both variants start from the same symbols and count the same pairs."
    )
st.vega_lite_chart(
    pc.lines_chart(
        {pc.variant_title(v, r.config): r.series()["corpus_tokens"] for v, r in zip(VARIANTS, runs)},
        "corpus tokens",
        step,
        present,
    ),
    width="stretch",
)
