"""The panels of a step: the merge card (the merge, why, what it did), one merge in a line, the pair
table and the words a merge changed (before -> after); the corpus table is :mod:`ui.corpus_panel`.
Each ``*_html`` returns escaped HTML.

All take a finished :class:`bpe_core.TrainedRun` and a step (0 = the starting segmentation, k = after
merges 1..k); ``mode`` is the byte display (``"utf8"``, ``"hex"`` or ``"gpt2"``). What they show of a
step is :func:`bpe_core.teaching.step_view.step_view`'s value, computed once per step (:func:`view_of`):
the steps drawn ahead (:mod:`ui.step_ahead`) are these same panels. :func:`step_panels` draws a step by its
kind (:data:`_PANELS`); a kind without its own drawing is drawn from the parts every step view has.
"""

from __future__ import annotations

from bpe_core import TrainedRun
from bpe_core.algorithms.seam import step_why
from bpe_core.teaching.explain import rule_name
from bpe_core.teaching.step_view import CHOSEN, MARKED, MERGE, START, TIED, PairRows, StepView, pair_rows, step_view

from . import run_cache
from .chips import chip_html, chip_maker, chips_html, merge_html, pair_chips, run_rtl_note
from .corpus_panel import CLIP_TOKENS, ROW_TOKENS, counted, word_html
from .explain import merge_reason, rules_html, stop_reason_text, tie_short, why_note_html
from .i18n import _, current_language, ngettext, tr
from .text import esc_raw


def _fill(template: str, **html) -> str:
    """A translated sentence escaped, then HTML fragments (already escaped chips) put into its placeholders."""
    return esc_raw(template).format(**html)


def view_of(run: TrainedRun, step: int, presentation: bool = False) -> StepView:
    """Step ``step`` of ``run`` as the panels show it (:func:`bpe_core.teaching.step_view.step_view`: 6 pair
    rows in presentation mode, else 10; in presentation mode the first 3 changed word types, their
    segmentations cut at :data:`ui.corpus_panel.ROW_TOKENS`), kept in the run's memo."""
    last = step == run.num_steps and run.stop_reason is not None
    key = ("step_view", step, presentation, run.num_steps, last)
    found = run_cache.memo(run).get(key)
    if found is None:
        words = 3 if presentation and step >= 1 else 0
        found = step_view(run, step, pairs=6 if presentation else 10, words=words, max_tokens=ROW_TOKENS)
        run_cache.remember(run, key, found)
    return found


# ---------------------------------------------------------------------------------- merge card
def _start_card(run: TrainedRun, view: StepView, mode: str, presentation: bool, waits: bool = False) -> str:
    corpus = view.start
    if corpus.is_bytes:
        start = _("Start: every word is split into its bytes")
    else:
        start = _("Start: every word is split into its characters")
    summary = _("{word_types} ({words}), {token_count}, a vocabulary of {symbols}.").format(
        word_types=counted(ngettext("{n} word type", "{n} word types", corpus.word_types), corpus.word_types),
        words=counted(ngettext("{n} word", "{n} words", corpus.words), corpus.words),
        token_count=counted(ngettext("{n} token", "{n} tokens", corpus.corpus_tokens), corpus.corpus_tokens),
        symbols=counted(ngettext("{n} base symbol", "{n} base symbols", corpus.base_symbols), corpus.base_symbols),
    )
    lines = [
        f"<div class='bpe-merge'><span>{esc_raw(start)}</span></div>",
        f"<div class='bpe-reason'>{esc_raw(summary)}</div>",
    ]
    first = view.next
    if first is not None:
        if first.ties > 1:  # say the tie and the rule that picks, or the class thinks e + s simply won
            sentence = ngettext(
                "Next: {left} + {right}, one of {ties} pairs tied as the most frequent ({count} time); the "
                "tie-break rule “{rule}” picks it: {short}.",
                "Next: {left} + {right}, one of {ties} pairs tied as the most frequent ({count} times); the "
                "tie-break rule “{rule}” picks it: {short}.",
                first.count,
            )
        else:
            sentence = ngettext(
                "Next: {left} + {right} is the most frequent pair ({count} time).",
                "Next: {left} + {right} is the most frequent pair ({count} times).",
                first.count,
            )
        # A live class's student at the teacher's step (``waits``) has no Next to press.
        sentence += " " + (_("Your teacher moves the class on.") if waits else _("Press Next ▶ or the → key."))
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


def merge_card_html(
    run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, waits: bool = False
) -> str:
    """The chosen merge of ``step`` (left + right → token, count), its plain-language reason, what it
    rewrote and the tie-break rule in use. Step 0 describes the starting segmentation and names the
    next merge and says to press Next (``waits``: a live class's student at the teacher's step, whose Next is
    off: that the teacher moves on). In presentation mode the card is short (one screen holds it, the changed
    words and the pair table): the reason quotes fewer words and the rules line is left out."""
    return _card(run, view_of(run, step, presentation), mode, presentation, waits)


def _card(run: TrainedRun, view: StepView, mode: str, presentation: bool, waits: bool = False) -> str:
    """:func:`merge_card_html` of ``view``."""
    step = view.step
    if step == 0:
        return _start_card(run, view, mode, presentation, waits)
    snap = view.merge
    label = _("Merge {number}:").format(number=f"{step:,}")
    head = _merge_head(run, snap, step, mode, presentation, label, f"id='bpe-merge' data-count='{snap.count}'")
    why = step_why(run, step, tr(), _language_name)
    by_rule = why is not None and why.kind == "rule"
    if by_rule:  # the algorithm's rule is the reason, not "the highest count"
        reason_html = f"<div class='bpe-reason bpe-served'>{esc_raw(why.text)}</div>"
    else:
        reason = merge_reason(run, step, mode, max_words=2 if presentation else 3)
        reason_html = f"<div class='bpe-reason'>{esc_raw(reason)}</div>"
        reason_html += why_note_html(why) if why is not None else ""
    stats = _(
        "Rewrote {places} in {word_types}; the corpus now has {token_count} (was {before}); vocabulary {vocab}."
    ).format(
        places=counted(ngettext("{n} place", "{n} places", snap.occurrences), snap.occurrences),
        word_types=counted(ngettext("{n} word type", "{n} word types", snap.words_changed), snap.words_changed),
        token_count=counted(ngettext("{n} token", "{n} tokens", snap.corpus_tokens), snap.corpus_tokens),
        before=f"{snap.corpus_tokens_before:,}",
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
    if view.stop_reason:
        last = _("Last merge.")
        stop = f"<div class='bpe-reason'><b>{esc_raw(last)}</b> {esc_raw(stop_reason_text(run))}</div>"
    return f"<div class='bpe-card' id='bpe-merge-card'>{head}{reason_html}{stats_html}{stop}{rule}</div>"


def _language_name(key: str) -> str:
    """A Declaration language's name in the interface language (for what an algorithm says about a step)."""
    from .languages import language_name  # only a language mix's run names languages: a plain step never loads them

    return language_name(key, current_language())


def _merge_head(run: TrainedRun, merge, step: int, mode: str, presentation: bool, label: str, attrs: str) -> str:
    """``label left + right → token  count n`` (:func:`ui.chips.merge_html`) of ``merge`` (a
    :class:`~bpe_core.teaching.step_view.MergeCard`); at step 0 the new token is not marked yet."""
    new_css = ("new" if merge.is_new else "part") if step >= 1 else ""
    count = _("count {count}").format(count=f"{merge.count:,}")
    return merge_html(
        run,
        merge.left,
        merge.right,
        merge.token,
        mode,
        presentation,
        label=label,
        badge=count,
        new_css=new_css,
        attrs=attrs,
    )


def merge_line_html(
    run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, numbered: bool = True
) -> str:
    """The chosen merge of ``step`` in one line of chips (``e + s → es  count 9``); at step 0 the
    merge that comes next; past the run's end, why it stopped."""
    n = run.num_steps
    if n == 0:
        return f"<div class='bpe-reason'>{esc_raw(stop_reason_text(run))}</div>"
    if step > n:
        stopped = esc_raw(_("Stopped after merge {n}.").format(n=f"{n:,}"))
        return f"<div class='bpe-reason'><b>{stopped}</b> {esc_raw(stop_reason_text(run))}</div>"
    view = view_of(run, max(0, step), presentation)
    merge = view.merge or view.next
    label = (_("Merge {number}:").format(number=f"{step:,}") if numbered else "") if step >= 1 else _("Next:")
    return _merge_head(run, merge, step, mode, presentation, label, f"data-step='{step}' data-count='{merge.count}'")


# ---------------------------------------------------------------------------------- pair table
def pair_table_html(
    run: TrainedRun,
    step: int,
    mode: str = "utf8",
    presentation: bool = False,
    limit: int = 10,
    marks: dict | None = None,
) -> str:
    """Top pairs with counts and a bar, the chosen pair and the tied ones marked. For step k >= 1 the
    counts just before merge k (what it chose from); for step 0 those the first merge chooses from.

    ``marks`` (``{(left_id, right_id): (css, label)}``) marks rows of the full table before merge ``step``
    instead of the chosen one (the checker marks the reference's pair and a student's): a marked pair
    beyond ``limit`` is added with its rank, one not in the table with count 0 and no rank."""
    if run.num_steps == 0 and not marks:
        return f"<p class='bpe-muted'>{esc_raw(stop_reason_text(run))}</p>"
    return _pair_table(run, pair_rows(run, step, limit, marks or {}), step, mode, presentation, marks or {})


def _pair_table(run: TrainedRun, pairs: PairRows, step: int, mode: str, presentation: bool, marks: dict) -> str:
    """:func:`pair_table_html` of the rows ``pairs``."""
    chosen = _("chosen") if step >= 1 else _("next")
    if step >= 1:
        when = _("Pair counts before merge {number}").format(number=f"{step:,}")
    else:
        when = _("Pair counts now (merge 1 takes the top one)")
    return _rows_table(run, pairs, mode, presentation, marks, chosen, when, _("pair"))


def _rows_table(
    run: TrainedRun, pairs: PairRows, mode: str, presentation: bool, marks: dict, chosen: str, when: str, head: str
) -> str:
    """A table of candidate rows (pairs, or the :class:`~bpe_core.teaching.step_view.Candidate` rows of another
    kind of step): each row's tokens as chips joined by ``+``, its count with a bar and its mark; ``chosen``
    labels the chosen row, ``when`` (may be empty) says when the counts are from, ``head`` names the tokens."""
    chip = chip_maker(run, mode, presentation)
    chosen_label = esc_raw(chosen)
    tied_label = esc_raw(_("tied"))
    body = []
    for row in pairs.rows:
        c = row.count
        css = ""
        if row.mark == MARKED:
            css, label = marks[row.tokens]
            badge = f"<span class='bpe-badge {css}'>{esc_raw(label)}</span>"
        elif row.mark == CHOSEN:
            css, badge = "chosen", f"<span class='bpe-badge chosen'>{chosen_label}</span>"
        elif row.mark == TIED:
            badge = f"<span class='bpe-badge tied'>{tied_label}</span>"
        else:
            badge = ""
        width = max(1.0, 100.0 * c / pairs.scale)
        pair = " + ".join(pair_chips(chip, run, row.tokens))  # each names its character where the pair occurs
        body.append(
            f"<tr class='{css}'><td class='num'>{'' if row.rank is None else row.rank}</td>"
            f"<td class='pair'>{pair}</td>"
            f"<td class='num'>{c:,}</td><td class='barcell'><div class='bpe-bar' style='width:{width:.1f}%'></div></td>"
            f"<td>{badge}</td></tr>"
        )
    extra = pairs.more_tied
    note = ""
    if extra > 0:
        more = ngettext("… and {n} more pair tied at {count}.", "… and {n} more pairs tied at {count}.", extra)
        note = f"<p class='bpe-muted'>{esc_raw(more.format(n=f'{extra:,}', count=f'{pairs.best:,}'))}</p>"
    when_html = f"<p class='bpe-muted'>{esc_raw(when)}</p>" if when else ""
    count_head = _("count")
    return (
        f"<div class='bpe-pairs-wrap' id='bpe-pair-panel'>{when_html}"
        f"<table class='bpe-table' id='bpe-pairs'><thead><tr><th>#</th><th>{esc_raw(head)}</th>"
        f"<th>{esc_raw(count_head)}</th><th class='barcell'></th><th></th></tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>{note}</div>"
    )


# ------------------------------------------------------------------------------- changed words
def changed_words_html(
    run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, limit: int = 3
) -> str:
    """The first ``limit`` word types merge ``step`` changed, each ``word: before → after`` (chips, the
    new token highlighted, long segmentations clipped), then how many more it changed
    (``#bpe-changed``, rows ``.bpe-changed-row``). Empty at step 0."""
    if step < 1:
        return ""
    if limit == 3:  # the presentation mode's view, which the step's panels keep
        view = view_of(run, step, presentation=True)
    else:
        view = step_view(run, step, pairs=1, words=limit, max_tokens=ROW_TOKENS)
    return _changed_words(run, view, mode, presentation)


def _changed_words(run: TrainedRun, view: StepView, mode: str, presentation: bool, title: str | None = None) -> str:
    """:func:`changed_words_html` of ``view``; ``title``: the heading (``{n}``: the word types changed), by default
    the one of a merge."""
    items = []
    for row in view.changed:
        before = chips_html(
            run,
            row.before.ids,
            mode,
            None,
            presentation,
            css="before",
            clip_at=CLIP_TOKENS // 2,
            max_chips=ROW_TOKENS,
            total=row.before.total,
        )
        after = chips_html(
            run,
            row.after.ids,
            mode,
            row.after.new,
            presentation,
            clip_at=CLIP_TOKENS // 2,
            max_chips=ROW_TOKENS,
            total=row.after.total,
        )
        items.append(
            f"<div class='bpe-changed-row'><span class='word' dir='auto'>{word_html(row.word)}</span>"
            f"<span class='freq'>×{row.freq:,}</span>{before}<span class='op'>→</span>{after}</div>"
        )
    rest = view.words_changed - len(view.changed)
    more = ""
    if rest > 0:
        text = ngettext("… and {n} more word type", "… and {n} more word types", rest).format(n=f"{rest:,}")
        more = f"<div class='bpe-muted'>{esc_raw(text)}</div>"
    note = run_rtl_note(run)
    if note:
        more += f"<div class='bpe-muted'>{esc_raw(note)}</div>"
    if title is None:
        title = ngettext(
            "The word type this merge changed", "The {n} word types this merge changed", view.words_changed
        )
    return (
        f"<div class='bpe-changed' id='bpe-changed'><div class='bpe-changed-title'>"
        f"{esc_raw(title.format(n=f'{view.words_changed:,}'))}</div>{''.join(items)}{more}</div>"
    )


def step_panels(
    run: TrainedRun, step: int, mode: str = "utf8", presentation: bool = False, waits: bool = False
) -> dict[str, str]:
    """What ``step`` did, as ``{element id: HTML}``: the merge card (``bpe-merge-card``), the pair table
    (``bpe-pair-panel``, 6 rows in presentation mode, else 10) and, in presentation mode from step 1, the
    changed words (``bpe-changed``), all drawn from the one :func:`view_of` of the step, by its kind
    (:data:`_PANELS`). ``waits``: drawn for a live class's student at the teacher's step (the card does not
    say to press Next: :func:`merge_card_html`). Kept per step in the run's memo: the step page draws these
    and also sends them for the steps around it (:mod:`ui.step_ahead`)."""
    # The card of the last step says why training stopped, which a view still training does not know yet.
    last = step == run.num_steps and run.stop_reason is not None
    waits = waits and step == 0  # only step 0's card tells the reader what to press
    key = ("step_panels", step, mode, presentation, current_language(), last, waits)
    found = run_cache.memo(run).get(key)
    if found is not None:
        return found
    view = view_of(run, step, presentation)
    draw = _PANELS.get(view.kind, _event_panels)
    return run_cache.remember(run, key, draw(run, view, mode, presentation, waits))


def _merge_panels(run: TrainedRun, view: StepView, mode: str, presentation: bool, waits: bool) -> dict[str, str]:
    """:func:`step_panels` of a merge or of step 0."""
    step = view.step
    if view.pairs is None:
        pairs = f"<p class='bpe-muted'>{esc_raw(stop_reason_text(run))}</p>"
    else:
        pairs = _pair_table(run, view.pairs, step, mode, presentation, {})
    out = {"bpe-merge-card": _card(run, view, mode, presentation, waits), "bpe-pair-panel": pairs}
    if presentation and step >= 1:
        out["bpe-changed"] = _changed_words(run, view, mode, presentation)
    return out


def _event_panels(run: TrainedRun, view: StepView, mode: str, presentation: bool, waits: bool) -> dict[str, str]:
    """:func:`step_panels` of a step of a kind with no drawing of its own, from the parts every step view has: the
    step's number, its headline (the tokens involved → the token made, − the token removed), its numbers, why
    (:func:`~bpe_core.algorithms.seam.step_why`), the candidates and, in presentation mode, the words changed."""
    chip = chip_maker(run, mode, presentation)
    head = view.headline
    line = "<span class='op'>+</span>".join([chip(tid) for tid in head.tokens])
    if head.made is not None:
        line += f"<span class='op'>→</span>{chip(head.made, 'new')}"
    if head.removed is not None:
        line += f"<span class='op'>−</span>{chip(head.removed)}"
    label = _("Step {step} of {n}").format(step=f"{view.step:,}", n=f"{view.num_steps:,}")
    numbers = " · ".join(f"{esc_raw(_(number.label))} {number.value:,}" for number in view.numbers)
    card = f"<div class='bpe-merge' data-kind='{esc_raw(view.kind)}'><span>{esc_raw(label)}</span>{line}</div>"
    card += f"<div class='bpe-muted'>{numbers}</div>" if numbers else ""
    why = step_why(run, view.step, tr(), _language_name)
    card += f"<div class='bpe-reason'>{esc_raw(why.text)}</div>" if why is not None else ""
    card += f"<div class='bpe-reason'>{esc_raw(stop_reason_text(run))}</div>" if view.stop_reason else ""
    out = {"bpe-merge-card": f"<div class='bpe-card' id='bpe-merge-card'>{card}</div>"}
    if view.candidates is None:
        out["bpe-pair-panel"] = "<div class='bpe-pairs-wrap' id='bpe-pair-panel'></div>"
    else:
        out["bpe-pair-panel"] = _rows_table(run, view.candidates, mode, presentation, {}, _("chosen"), "", "")
    if presentation:
        title = ngettext("The word type this step changed", "The {n} word types this step changed", view.words_changed)
        out["bpe-changed"] = _changed_words(run, view, mode, presentation, title)
    return out


#: How :func:`step_panels` draws a step of each kind; any other kind: :func:`_event_panels`.
_PANELS = {START: _merge_panels, MERGE: _merge_panels}
