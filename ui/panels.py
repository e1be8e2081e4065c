"""The panels of a step: the merge card (the merge, why, what it did), one merge in a line, the pair
table and the corpus table. Each ``*_html`` returns escaped HTML; the others draw it.

All take a finished :class:`bpe_core.TrainedRun` and a step (0 = the starting segmentation, k = after
merges 1..k); ``mode`` is the byte display (``"utf8"``, ``"hex"`` or ``"gpt2"``).
"""

from __future__ import annotations

import streamlit as st

from bpe_core import TrainedRun
from bpe_core.measures import total_words

from . import memo, persist
from .chips import chip_html, chips_html
from .explain import merge_reason, rules_html, stop_reason_text, tie_short
from .i18n import ngettext
from .text import clip, esc, esc_raw


def _count(n: int, one: str, many: str) -> str:
    return ngettext(one, many, n).format(n=f"{n:,}")


def _total_words(run: TrainedRun) -> int:
    return memo.once(run, "total_words", lambda: total_words(run))


# ---------------------------------------------------------------------------------- merge card
def _start_card(run: TrainedRun, mode: str, presentation: bool) -> str:
    unit = "bytes" if run.variant.is_bytes else "characters"
    summary = ", ".join(
        [
            _count(run.num_words, "{n} word type", "{n} word types")
            + f" ({_count(_total_words(run), '{n} word', '{n} words')})",
            _count(run.corpus_tokens(0), "{n} token", "{n} tokens"),
            "a vocabulary of " + _count(run.vocab_size_at(0), "{n} base symbol", "{n} base symbols"),
        ]
    )
    lines = [
        f"<div class='bpe-merge'><span>Start: every word is split into its {unit}</span></div>",
        f"<div class='bpe-reason'>{summary}.</div>",
    ]
    if run.num_steps:
        first = run.snapshot(1)
        lines.append(
            f"<div class='bpe-reason'>Next: {chip_html(run, first.left, mode, presentation)} + "
            f"{chip_html(run, first.right, mode, presentation)} is the most frequent pair "
            f"({first.count:,} times). Press Next ▶ or the → key.</div>"
        )
    else:
        lines.append(f"<div class='bpe-reason'>{esc_raw(stop_reason_text(run))}</div>")
    return f"<div class='bpe-card' id='bpe-merge-card'>{''.join(lines)}</div>"


def merge_card_html(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False) -> str:
    """The chosen merge of ``step`` (left + right → token, count), its plain-language reason, what it
    rewrote and the tie-break rule in use. Step 0 describes the starting segmentation and names the
    next merge."""
    if step == 0:
        return _start_card(run, mode, presentation)
    snap = run.snapshot(step)
    head = (
        f"<div class='bpe-merge' id='bpe-merge' data-count='{snap.count}'>"
        f"<span class='op'>Merge {step:,}:</span>{_merge_chips(run, snap, step, mode, presentation)}</div>"
    )
    reason = f"<div class='bpe-reason'>{esc_raw(merge_reason(run, step, mode))}</div>"
    stats = (
        f"<div class='bpe-muted'>Rewrote {_count(snap.occurrences, '{n} place', '{n} places')} in "
        f"{_count(snap.words_changed, '{n} word type', '{n} word types')}; the corpus now has "
        f"{snap.corpus_tokens:,} tokens (was {run.corpus_tokens(step - 1):,}); vocabulary {snap.vocab_size:,}.</div>"
    )
    rule = (
        f"<div class='bpe-rule'><b>Rules:</b> the highest count wins; overlapping windows all count; "
        f"ties: <b>{esc_raw(snap.tie_break)}</b>, {esc_raw(tie_short(snap.tie_break))}."
        + ("" if presentation else f"<details><summary>All the rules</summary>{rules_html(run)}</details>")
        + "</div>"
    )
    stop = ""
    if step == run.num_steps and run.stop_reason:
        stop = f"<div class='bpe-reason'><b>Last merge.</b> {esc_raw(stop_reason_text(run))}</div>"
    return f"<div class='bpe-card' id='bpe-merge-card'>{head}{reason}{stats}{stop}{rule}</div>"


def merge_card(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False) -> None:
    """Draw :func:`merge_card_html`."""
    st.html(merge_card_html(run, step, mode, presentation))


def _merge_chips(run: TrainedRun, snap, step: int, mode: str, presentation: bool) -> str:
    """``left + right → token`` and the count badge: the head of every merge display."""
    new_css = ("new" if snap.is_new else "part") if step >= 1 else ""
    return (
        f"{chip_html(run, snap.left, mode, presentation)}<span class='op'>+</span>"
        f"{chip_html(run, snap.right, mode, presentation)}<span class='op'>→</span>"
        f"{chip_html(run, snap.token, mode, presentation, new_css)}"
        f"<span class='bpe-badge chosen'>count {snap.count:,}</span>"
    )


def merge_line_html(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False,
                    numbered: bool = True) -> str:  # fmt: skip
    """The chosen merge of ``step`` in one line of chips (``e + s → es  count 9``); at step 0 the
    merge that comes next; past the run's end, why it stopped."""
    n = run.num_steps
    if n == 0:
        return f"<div class='bpe-reason'>{esc_raw(stop_reason_text(run))}</div>"
    if step > n:
        return f"<div class='bpe-reason'><b>Stopped after merge {n:,}.</b> {esc_raw(stop_reason_text(run))}</div>"
    snap = run.snapshot(max(1, step))
    label = (f"Merge {step:,}:" if numbered else "") if step >= 1 else "Next:"
    head = f"<span class='op'>{label}</span>" if label else ""
    return (
        f"<div class='bpe-merge' data-step='{step}' data-count='{snap.count}'>{head}"
        f"{_merge_chips(run, snap, step, mode, presentation)}</div>"
    )


# ---------------------------------------------------------------------------------- pair table
def pair_table_html(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, limit: int = 10) -> str:
    """Top pairs with counts and a bar, the chosen pair and the tied ones marked. For step k >= 1 the
    counts just before merge k (what it chose from); for step 0 those the first merge chooses from."""
    if run.num_steps == 0:
        return f"<p class='bpe-muted'>{esc_raw(stop_reason_text(run))}</p>"
    snap = run.snapshot(max(1, step))
    rows = snap.top_pairs[:limit]
    top = rows[0][2] if rows else 1
    body = []
    for rank, (left, right, c) in enumerate(rows, start=1):
        chosen = rank == 1
        if chosen:
            badge = f"<span class='bpe-badge chosen'>{'chosen' if step >= 1 else 'next'}</span>"
        elif c == snap.count:
            badge = "<span class='bpe-badge tied'>tied</span>"
        else:
            badge = ""
        width = max(1.0, 100.0 * c / top)
        body.append(
            f"<tr class='{'chosen' if chosen else ''}'><td class='num'>{rank}</td>"
            f"<td class='pair'>{chip_html(run, left, mode, presentation)} + {chip_html(run, right, mode, presentation)}</td>"
            f"<td class='num'>{c:,}</td><td class='barcell'><div class='bpe-bar' style='width:{width:.1f}%'></div></td>"
            f"<td>{badge}</td></tr>"
        )
    extra = snap.ties - sum(1 for _, _, c in rows if c == snap.count)
    note = ""
    if extra > 0:
        more = ngettext("… and {n} more pair tied at {count}.", "… and {n} more pairs tied at {count}.", extra)
        note = f"<p class='bpe-muted'>{esc_raw(more.format(n=f'{extra:,}', count=f'{snap.count:,}'))}</p>"
    when = f"before merge {step:,}" if step >= 1 else "now (merge 1 takes the top one)"
    return (
        f"<div class='bpe-pairs-wrap'><p class='bpe-muted'>Pair counts {when}</p>"
        f"<table class='bpe-table' id='bpe-pairs'><thead><tr><th>#</th><th>pair</th>"
        f"<th>count</th><th class='barcell'></th><th></th></tr></thead><tbody>{''.join(body)}</tbody></table>{note}</div>"
    )


def pair_table(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, limit: int = 10) -> None:
    """Draw :func:`pair_table_html`."""
    st.html(pair_table_html(run, step, mode, presentation, limit))


# ------------------------------------------------------------------------------------- corpus
def corpus_table_html(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, limit: int = 25,
                      offset: int = 0) -> str:  # fmt: skip
    """Word, frequency and segmentation (chips) of ``limit`` word types at ``step``; the words this
    merge changed come first, marked, with their previous segmentation faded below."""
    snap_token = run.snapshot(step).token if step >= 1 else None
    body = []
    for row in run.corpus_view(step, offset=offset, limit=limit, changed_first=True):
        seg = chips_html(run, row.tokens, mode, snap_token if row.changed else None, presentation)
        badge = "<span class='bpe-badge changed'>changed</span>" if row.changed else ""
        before = ""
        if row.changed and row.before is not None:
            before = f"<div>{chips_html(run, row.before, mode, None, presentation, css='before')}</div>"
        body.append(
            f"<tr class='{'changed' if row.changed else ''}'><td class='word'>{esc(clip(row.word))}{badge}</td>"
            f"<td class='num'>{row.freq:,}</td><td>{seg}{before}</td><td class='num'>{len(row.tokens)}</td></tr>"
        )
    return (
        "<table class='bpe-table' id='bpe-corpus'><thead><tr><th>word</th><th>freq</th>"
        f"<th>segmentation after step {step:,}</th><th>tokens</th></tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def corpus_table(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False,
                 key: str = "corpus") -> None:  # fmt: skip
    """Draw the corpus table with a line of totals; for large corpora, a rows-shown picker (hidden in
    presentation mode)."""
    n_words = run.num_words
    limit = 12 if presentation else 25
    if n_words > limit and not presentation:
        name = f"{key}.rows"
        options = [x for x in (25, 50, 100, 250) if x < n_words] + [min(n_words, 1000)]
        if persist.kept(name, options[0]) not in options:
            persist.put(name, options[0])
        limit = st.selectbox("Word types shown", options, key=persist.seeded(name, options[0]),
                             on_change=persist.keep, args=(name,))  # fmt: skip
    head = (
        f"{_count(n_words, '{n} word type', '{n} word types')}, {_count(_total_words(run), '{n} word', '{n} words')}; "
        f"{_count(run.corpus_tokens(step), '{n} token', '{n} tokens')} now (was {run.corpus_tokens(0):,} at step 0)."
    )
    if step >= 1:
        changed = run.snapshot(step).words_changed
        head += " " + _count(changed, "This merge changed {n} word type", "This merge changed {n} word types")
        head += " (listed first)." if n_words > 1 else "."
    if n_words > limit:
        head += f" Showing {limit:,} of {n_words:,}."
    st.html(f"<p class='bpe-muted'>{esc_raw(head)}</p>" + corpus_table_html(run, step, mode, presentation, limit))
