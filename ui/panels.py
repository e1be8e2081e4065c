"""The panels of a step: the merge card (the merge, why, what it did), one merge in a line, the pair
table, the words a merge changed (before -> after) and the corpus table. Each ``*_html`` returns
escaped HTML; the others draw it.

All take a finished :class:`bpe_core.TrainedRun` and a step (0 = the starting segmentation, k = after
merges 1..k); ``mode`` is the byte display (``"utf8"``, ``"hex"`` or ``"gpt2"``).
"""

from __future__ import annotations

import streamlit as st

from bpe_core import TrainedRun
from bpe_core.algorithms.seam import step_why
from bpe_core.explain import rule_name
from bpe_core.measures import total_words

from . import memo, persist
from .chips import chip_html, chips_html, merge_html, run_rtl_note
from .explain import merge_reason, rules_html, stop_reason_text, tie_short
from .i18n import _, current_language, ngettext, tr
from .languages import language_name
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


def _n(sentence: str, n: int) -> str:
    """A counted phrase from ``ngettext`` with its ``{n}`` written with thousands separators."""
    return sentence.format(n=f"{n:,}")


def _total_words(run: TrainedRun) -> int:
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


def _fill(template: str, **html) -> str:
    """A translated sentence escaped, then HTML fragments (already escaped chips) put into its placeholders."""
    return esc_raw(template).format(**html)


# ---------------------------------------------------------------------------------- merge card
def _start_card(run: TrainedRun, mode: str, presentation: bool) -> str:
    if run.variant.is_bytes:
        start = _("Start: every word is split into its bytes")
    else:
        start = _("Start: every word is split into its characters")
    summary = _("{word_types} ({words}), {token_count}, a vocabulary of {symbols}.").format(
        word_types=_n(ngettext("{n} word type", "{n} word types", run.num_words), run.num_words),
        words=_n(ngettext("{n} word", "{n} words", _total_words(run)), _total_words(run)),
        token_count=_n(ngettext("{n} token", "{n} tokens", run.corpus_tokens(0)), run.corpus_tokens(0)),
        symbols=_n(ngettext("{n} base symbol", "{n} base symbols", run.vocab_size_at(0)), run.vocab_size_at(0)),
    )
    lines = [
        f"<div class='bpe-merge'><span>{esc_raw(start)}</span></div>",
        f"<div class='bpe-reason'>{esc_raw(summary)}</div>",
    ]
    if run.num_steps:
        first = run.snapshot(1)
        if first.ties > 1:  # say the tie and the rule that picks, or the class thinks e + s simply won
            sentence = ngettext(
                "Next: {left} + {right}, one of {ties} pairs tied as the most frequent ({count} time); the "
                "tie-break rule “{rule}” picks it: {short}. Press Next ▶ or the → key.",
                "Next: {left} + {right}, one of {ties} pairs tied as the most frequent ({count} times); the "
                "tie-break rule “{rule}” picks it: {short}. Press Next ▶ or the → key.",
                first.count,
            )
        else:
            sentence = ngettext(
                "Next: {left} + {right} is the most frequent pair ({count} time). Press Next ▶ or the → key.",
                "Next: {left} + {right} is the most frequent pair ({count} times). Press Next ▶ or the → key.",
                first.count,
            )
        lines.append(
            f"<div class='bpe-reason' id='bpe-next-merge' data-ties='{first.ties}'>"
            + _fill(
                sentence,
                left=chip_html(run, first.left, mode, presentation),
                right=chip_html(run, first.right, mode, presentation),
                count=f"{first.count:,}",
                ties=f"{first.ties:,}",
                rule=esc_raw(rule_name(first.tie_break, tr())),
                short=esc_raw(tie_short(first.tie_break)),
            )
            + "</div>"
        )
    else:
        lines.append(f"<div class='bpe-reason'>{esc_raw(stop_reason_text(run))}</div>")
    return f"<div class='bpe-card' id='bpe-merge-card'>{''.join(lines)}</div>"


def merge_card_html(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False) -> str:
    """The chosen merge of ``step`` (left + right → token, count), its plain-language reason, what it
    rewrote and the tie-break rule in use. Step 0 describes the starting segmentation and names the
    next merge. In presentation mode the card is short (one screen holds it, the changed words and
    the pair table): the reason quotes fewer words and the rules line is left out."""
    if step == 0:
        return _start_card(run, mode, presentation)
    snap = run.snapshot(step)
    label = _("Merge {number}:").format(number=f"{step:,}")
    head = _merge_head(run, snap, step, mode, presentation, label, f"id='bpe-merge' data-count='{snap.count}'")
    why = step_why(run, step, tr(), _language_name)
    by_rule = why is not None and why.kind == "rule"
    if by_rule:  # the algorithm's rule is the reason, not "the highest count"
        reason_html = f"<div class='bpe-reason bpe-served'>{esc_raw(why.text)}</div>"
    else:
        reason = merge_reason(run, step, mode, max_words=2 if presentation else 3)
        reason_html = f"<div class='bpe-reason'>{esc_raw(reason)}</div>"
        if why is not None:
            reason_html += f"<div class='bpe-muted bpe-served'>{esc_raw(why.text)}</div>"
    stats = _(
        "Rewrote {places} in {word_types}; the corpus now has {token_count} (was {before}); vocabulary {vocab}."
    ).format(
        places=_n(ngettext("{n} place", "{n} places", snap.occurrences), snap.occurrences),
        word_types=_n(ngettext("{n} word type", "{n} word types", snap.words_changed), snap.words_changed),
        token_count=_n(ngettext("{n} token", "{n} tokens", snap.corpus_tokens), snap.corpus_tokens),
        before=f"{run.corpus_tokens(step - 1):,}",
        vocab=f"{snap.vocab_size:,}",
    )
    stats_html = f"<div class='bpe-muted'>{esc_raw(stats)}</div>"
    rule = ""
    if not presentation and not by_rule:
        all_rules = _("All the rules")
        rule = (
            "<div class='bpe-rule'>"
            + _(
                "<b>Rules:</b> the highest count wins; overlapping windows all count; ties: <b>{rule}</b>, {what}."
            ).format(rule=esc_raw(rule_name(snap.tie_break, tr())), what=esc_raw(tie_short(snap.tie_break)))
            + f"<details><summary>{esc_raw(all_rules)}</summary>{rules_html(run)}</details></div>"
        )
    stop = ""
    if step == run.num_steps and run.stop_reason:
        last = _("Last merge.")
        stop = f"<div class='bpe-reason'><b>{esc_raw(last)}</b> {esc_raw(stop_reason_text(run))}</div>"
    return f"<div class='bpe-card' id='bpe-merge-card'>{head}{reason_html}{stats_html}{stop}{rule}</div>"


def _language_name(key: str) -> str:
    """A Declaration language's name in the interface language (for what an algorithm says about a step)."""
    return language_name(key, current_language())


def _merge_head(run: TrainedRun, snap, step: int, mode: str, presentation: bool, label: str, attrs: str) -> str:
    """``label left + right → token  count n`` (:func:`ui.chips.merge_html`) of merge ``snap``; at step 0 the
    new token is not marked yet."""
    new_css = ("new" if snap.is_new else "part") if step >= 1 else ""
    count = _("count {count}").format(count=f"{snap.count:,}")
    return merge_html(run, snap.left, snap.right, snap.token, mode, presentation, label=label, badge=count,
                      new_css=new_css, attrs=attrs)  # fmt: skip


def merge_line_html(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False,
                    numbered: bool = True) -> str:  # fmt: skip
    """The chosen merge of ``step`` in one line of chips (``e + s → es  count 9``); at step 0 the
    merge that comes next; past the run's end, why it stopped."""
    n = run.num_steps
    if n == 0:
        return f"<div class='bpe-reason'>{esc_raw(stop_reason_text(run))}</div>"
    if step > n:
        stopped = esc_raw(_("Stopped after merge {n}.").format(n=f"{n:,}"))
        return f"<div class='bpe-reason'><b>{stopped}</b> {esc_raw(stop_reason_text(run))}</div>"
    snap = run.snapshot(max(1, step))
    label = (_("Merge {number}:").format(number=f"{step:,}") if numbered else "") if step >= 1 else _("Next:")
    return _merge_head(run, snap, step, mode, presentation, label, f"data-step='{step}' data-count='{snap.count}'")


# ---------------------------------------------------------------------------------- pair table
def pair_table_html(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, limit: int = 10,
                    marks: dict | None = None) -> str:  # fmt: skip
    """Top pairs with counts and a bar, the chosen pair and the tied ones marked. For step k >= 1 the
    counts just before merge k (what it chose from); for step 0 those the first merge chooses from.

    ``marks`` (``{(left_id, right_id): (css, label)}``) marks rows of the full table before merge ``step``
    instead of the chosen one (the checker marks the reference's pair and a student's): a marked pair
    beyond ``limit`` is added with its rank, one not in the table with count 0 and no rank."""
    if run.num_steps == 0 and not marks:
        return f"<p class='bpe-muted'>{esc_raw(stop_reason_text(run))}</p>"
    if marks:
        table = run.pair_table(max(0, step - 1))
        ranked = [(rank, (a, b, c)) for rank, (a, b, c) in enumerate(table, start=1)]
        rows = ranked[:limit] + [r for r in ranked[limit:] if (r[1][0], r[1][1]) in marks]
        known = {(a, b) for _r, (a, b, _c) in ranked}
        rows += [(None, (a, b, 0)) for a, b in marks if (a, b) not in known]
        best = table[0][2] if table else 0
        ties = sum(1 for row in table if row[2] == best)
    else:
        snap = run.snapshot(max(1, step))
        rows = list(enumerate(snap.top_pairs[:limit], start=1))
        best, ties = snap.count, snap.ties
    top = max((r[1][2] for r in rows), default=1) or 1
    chosen_label = esc_raw(_("chosen") if step >= 1 else _("next"))
    tied_label = esc_raw(_("tied"))
    body = []
    for rank, (left, right, c) in rows:
        css = ""
        if marks and (left, right) in marks:
            css, label = marks[(left, right)]
            badge = f"<span class='bpe-badge {css}'>{esc_raw(label)}</span>"
        elif not marks and rank == 1:
            css, badge = "chosen", f"<span class='bpe-badge chosen'>{chosen_label}</span>"
        elif c == best:
            badge = f"<span class='bpe-badge tied'>{tied_label}</span>"
        else:
            badge = ""
        width = max(1.0, 100.0 * c / top)
        body.append(
            f"<tr class='{css}'><td class='num'>{'' if rank is None else rank}</td>"
            f"<td class='pair'>{chip_html(run, left, mode, presentation)} + {chip_html(run, right, mode, presentation)}</td>"
            f"<td class='num'>{c:,}</td><td class='barcell'><div class='bpe-bar' style='width:{width:.1f}%'></div></td>"
            f"<td>{badge}</td></tr>"
        )
    extra = ties - sum(1 for _rank, row in rows if row[2] == best)
    note = ""
    if extra > 0:
        more = ngettext("… and {n} more pair tied at {count}.", "… and {n} more pairs tied at {count}.", extra)
        note = f"<p class='bpe-muted'>{esc_raw(more.format(n=f'{extra:,}', count=f'{best:,}'))}</p>"
    pair_head, count_head = _("pair"), _("count")
    if step >= 1:
        when = _("Pair counts before merge {number}").format(number=f"{step:,}")
    else:
        when = _("Pair counts now (merge 1 takes the top one)")
    return (
        f"<div class='bpe-pairs-wrap' id='bpe-pair-panel'><p class='bpe-muted'>{esc_raw(when)}</p>"
        f"<table class='bpe-table' id='bpe-pairs'><thead><tr><th>#</th><th>{esc_raw(pair_head)}</th>"
        f"<th>{esc_raw(count_head)}</th><th class='barcell'></th><th></th></tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>{note}</div>"
    )


# ------------------------------------------------------------------------------- changed words
def changed_words_html(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False,
                       limit: int = 3) -> str:  # fmt: skip
    """The first ``limit`` word types merge ``step`` changed, each ``word: before → after`` (chips, the
    new token highlighted, long segmentations clipped), then how many more it changed
    (``#bpe-changed``, rows ``.bpe-changed-row``). Empty at step 0."""
    if step < 1:
        return ""
    snap = run.snapshot(step)
    rows = [r for r in run.corpus_view(step, limit=limit, changed_first=True, max_tokens=ROW_TOKENS) if r.changed]
    items = []
    for row in rows:
        before = chips_html(run, row.before or [], mode, None, presentation, css="before", clip_at=CLIP_TOKENS // 2,
                            max_chips=ROW_TOKENS, total=row.num_before)  # fmt: skip
        after = chips_html(run, row.tokens, mode, snap.token, presentation, clip_at=CLIP_TOKENS // 2,
                           max_chips=ROW_TOKENS, total=row.num_tokens)  # fmt: skip
        items.append(
            f"<div class='bpe-changed-row'><span class='word' dir='auto'>{word_html(row.word)}</span>"
            f"<span class='freq'>×{row.freq:,}</span>{before}<span class='op'>→</span>{after}</div>"
        )
    rest = snap.words_changed - len(rows)
    more = ""
    if rest > 0:
        text = ngettext("… and {n} more word type", "… and {n} more word types", rest).format(n=f"{rest:,}")
        more = f"<div class='bpe-muted'>{esc_raw(text)}</div>"
    note = run_rtl_note(run)
    if note:
        more += f"<div class='bpe-muted'>{esc_raw(note)}</div>"
    title = ngettext("The word type this merge changed", "The {n} word types this merge changed", snap.words_changed)
    return (
        f"<div class='bpe-changed' id='bpe-changed'><div class='bpe-changed-title'>"
        f"{esc_raw(title.format(n=f'{snap.words_changed:,}'))}</div>{''.join(items)}{more}</div>"
    )


def step_panels(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False) -> dict[str, str]:
    """What ``step`` did, as ``{element id: HTML}``: the merge card (``bpe-merge-card``), the pair table
    (``bpe-pair-panel``, 6 rows in presentation mode, else 10) and, in presentation mode from step 1, the
    changed words (``bpe-changed``). Kept per step in the run's memo: the step page draws these and
    also sends them for the steps around it (:mod:`ui.step_ahead`)."""
    # The card of the last step says why training stopped, which a view still training does not know yet.
    last = step == run.num_steps and run.stop_reason is not None
    key = ("step_panels", step, mode, presentation, current_language(), last)
    found = memo.memo(run).get(key)
    if found is not None:
        return found
    out = {
        "bpe-merge-card": merge_card_html(run, step, mode, presentation),
        "bpe-pair-panel": pair_table_html(run, step, mode, presentation, limit=6 if presentation else 10),
    }
    if presentation and step >= 1:
        out["bpe-changed"] = changed_words_html(run, step, mode, presentation)
    return memo.remember(run, key, out)


# ------------------------------------------------------------------------------------- corpus
def corpus_table_html(run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, limit: int = 25,
                      offset: int = 0) -> str:  # fmt: skip
    """Word, frequency and segmentation (chips) of ``limit`` word types at ``step``; the words this
    merge changed come first, marked, with their previous segmentation faded below. A long word is
    quoted clipped and its segmentation folded after :data:`CLIP_TOKENS` tokens."""
    snap_token = run.snapshot(step).token if step >= 1 else None
    changed_label = esc_raw(_("changed"))
    body = []
    # Only the chips drawn are segmented (a word without spaces can be a whole book); counts are whole.
    for row in run.corpus_view(step, offset=offset, limit=limit, changed_first=True, max_tokens=ROW_TOKENS):
        new = snap_token if row.changed else None
        seg = chips_html(run, row.tokens, mode, new, presentation, clip_at=CLIP_TOKENS, max_chips=ROW_TOKENS,
                         total=row.num_tokens)  # fmt: skip
        badge = f"<span class='bpe-badge changed'>{changed_label}</span>" if row.changed else ""
        before = ""
        if row.changed and row.before is not None:
            faded = chips_html(run, row.before, mode, None, presentation, css="before", clip_at=CLIP_TOKENS,
                               max_chips=ROW_TOKENS,
                               total=row.num_before)  # fmt: skip
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
        limit = st.selectbox(_("Word types shown"), options, key=persist.seeded(name, options[0]),
                             on_change=persist.keep, args=(name,))  # fmt: skip
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
            word_types=_n(ngettext("{n} word type", "{n} word types", n_words), n_words),
            words=_n(ngettext("{n} word", "{n} words", _total_words(run)), _total_words(run)),
            token_count=_n(ngettext("{n} token", "{n} tokens", run.corpus_tokens(step)), run.corpus_tokens(step)),
            before=f"{run.corpus_tokens(0):,}",
        )
    ]
    if step >= 1:
        changed = run.snapshot(step).words_changed
        if n_words > 1:
            parts.append(
                _n(
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
                _n(
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
