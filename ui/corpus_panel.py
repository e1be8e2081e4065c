"""The corpus table of a step: word, frequency and segmentation (chips) of a page of word types, the words
the step changed first with their previous segmentation faded below, and a line of totals. Also how a long
word is quoted in a table cell (:func:`word_html`), which the changed words of :mod:`ui.panels` share.

``mode`` is the byte display (``"utf8"``, ``"hex"`` or ``"gpt2"``).
"""

from __future__ import annotations

import streamlit as st

from bpe_core import TrainedRun
from bpe_core.measures import total_words

from . import memo, persist
from .chips import chips_html, run_rtl_note
from .i18n import _, current_language, ngettext
from .text import CLIP_CHARS, esc, esc_raw

#: Tokens of a word's segmentation shown before the rest is folded away (opened on demand).
CLIP_TOKENS = 24
#: Tokens of a word drawn in the corpus table and the changed words (the first CLIP_TOKENS, the rest in a
#: fold): a page of 25 long words drawn whole would be tens of thousands of chips, hundreds of
#: milliseconds and megabytes of HTML for every step.
ROW_TOKENS = 96
#: Characters of a word quoted beside the merge in presentation mode (a text without spaces is one long
#: "word"); the corpus table shows :data:`ui.text.CLIP_CHARS` of it, wrapped.
WORD_CHARS = 24


def counted(sentence: str, n: int) -> str:
    """A counted phrase from ``ngettext`` with its ``{n}`` written with thousands separators."""
    return sentence.format(n=f"{n:,}")


def total_words_of(run: TrainedRun) -> int:
    """Words in the corpus of ``run`` (:func:`bpe_core.measures.total_words`), kept in the run's memo."""
    return memo.once(run, "total_words", lambda: total_words(run))


#: Characters of a long word a reader can unfold (the rest is only counted).
WORD_MORE = 400


def word_html(word: str, limit: int = WORD_CHARS) -> str:
    """A word for a table cell (escaped): whole up to ``limit`` characters; longer, its first ``limit``
    characters and a ``<details>`` whose summary gives the length and which unfolds the next
    :data:`WORD_MORE` characters on demand."""
    if len(word) <= limit:
        return esc(word)
    n = len(word)
    summary = ngettext("… ({n} character)", "… ({n} characters)", n).format(n=f"{n:,}")
    rest = word[limit : limit + WORD_MORE]
    tail = "…" if n > limit + WORD_MORE else ""
    return (
        f"{esc(word[:limit])}<details class='bpe-more'><summary>{esc_raw(summary)}</summary>{esc(rest)}{tail}</details>"
    )


def corpus_table_html(
    run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, limit: int = 25, offset: int = 0
) -> str:
    """Word, frequency and segmentation (chips) of ``limit`` word types at ``step``; the words this
    merge changed come first, marked, with their previous segmentation faded below. A long word is
    quoted clipped and its segmentation folded after :data:`CLIP_TOKENS` tokens."""
    snap_token = run.snapshot(step).token if step >= 1 else None
    changed_label = esc_raw(_("changed"))
    body = []
    # Only the chips drawn are segmented (a word without spaces can be a whole book); counts are whole.
    for row in run.corpus_view(step, offset=offset, limit=limit, changed_first=True, max_tokens=ROW_TOKENS):
        new = snap_token if row.changed else None
        seg = chips_html(
            run, row.tokens, mode, new, presentation, clip_at=CLIP_TOKENS, max_chips=ROW_TOKENS, total=row.num_tokens
        )
        badge = f"<span class='bpe-badge changed'>{changed_label}</span>" if row.changed else ""
        before = ""
        if row.changed and row.before is not None:
            faded = chips_html(
                run,
                row.before,
                mode,
                None,
                presentation,
                css="before",
                clip_at=CLIP_TOKENS,
                max_chips=ROW_TOKENS,
                total=row.num_before,
            )
            before = f"<div>{faded}</div>"
        body.append(
            f"<tr class='{'changed' if row.changed else ''}'><td class='word' dir='auto'>{word_html(row.word, CLIP_CHARS)}{badge}</td>"
            f"<td class='num'>{row.freq:,}</td><td class='seg'>{seg}{before}</td><td class='num'>{row.num_tokens:,}</td></tr>"
        )
    heads = (_("word"), _("freq"), _("segmentation after step {step}").format(step=f"{step:,}"), _("tokens"))
    th = "".join(f"<th>{esc_raw(h)}</th>" for h in heads)
    return (
        f"<table class='bpe-table' id='bpe-corpus'><thead><tr>{th}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def corpus_table(
    run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, key: str = "corpus"
) -> None:
    """Draw the corpus table with a line of totals; for large corpora, a rows-shown picker (hidden in
    presentation mode)."""
    n_words = run.num_words
    limit = 12 if presentation else 25
    if n_words > limit and not presentation:
        name = f"{key}.rows"
        options = [x for x in (25, 50, 100, 250) if x < n_words] + [min(n_words, 1000)]
        if persist.kept(name, options[0]) not in options:
            persist.put(name, options[0])
        limit = st.selectbox(
            _("Word types shown"), options, key=persist.seeded(name, options[0]), on_change=persist.keep, args=(name,)
        )
    # Kept in the run's memo for the last few steps asked (it can be large): every student of a live class redraws
    # the same step after each of the teacher's presses, and this table is the costliest piece of the page to build.
    key = (step, mode, presentation, current_language(), int(limit))
    st.html(
        memo.cached_html(run, "corpus_table", key, lambda: _corpus_table_block(run, step, mode, presentation, limit))
    )


def _corpus_table_block(run: TrainedRun, step: int, mode: str, presentation: bool, limit: int) -> str:
    """The line of totals and the corpus table (:func:`corpus_table_html`) of ``limit`` rows, as one HTML block."""
    n_words = run.num_words
    parts = [
        _("{word_types}, {words}; {token_count} now (was {before} at step 0).").format(
            word_types=counted(ngettext("{n} word type", "{n} word types", n_words), n_words),
            words=counted(ngettext("{n} word", "{n} words", total_words_of(run)), total_words_of(run)),
            token_count=counted(ngettext("{n} token", "{n} tokens", run.corpus_tokens(step)), run.corpus_tokens(step)),
            before=f"{run.corpus_tokens(0):,}",
        )
    ]
    if step >= 1:
        changed = run.snapshot(step).words_changed
        if n_words > 1:
            parts.append(
                counted(
                    ngettext(
                        "This merge changed {n} word type (listed first).",
                        "This merge changed {n} word types (listed first).",
                        changed,
                    ),
                    changed,
                )
            )
        else:
            parts.append(
                counted(
                    ngettext("This merge changed {n} word type.", "This merge changed {n} word types.", changed),
                    changed,
                )
            )
    if n_words > limit:
        parts.append(_("Showing {shown} of {n}.").format(shown=f"{limit:,}", n=f"{n_words:,}"))
    note = run_rtl_note(run)
    if note:
        parts.append(note)
    head = " ".join(parts)
    return f"<p class='bpe-muted'>{esc_raw(head)}</p>" + corpus_table_html(run, step, mode, presentation, limit)
