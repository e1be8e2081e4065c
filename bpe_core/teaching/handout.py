"""A print-ready handout of the first merges of a run: one self-contained HTML file for A4 paper.

The file holds everything (inline CSS, no fonts, scripts or images fetched), so it can be mailed,
opened offline and printed to PDF from any browser. It shows the settings, the corpus before the
first merge (words with their counts, tokens as boxes), then one block per merge -- the top pairs
before it with the change of each count since the previous merge, the chosen pair and the rule that
chose it, the words it changed before → after -- and the merge table at the end. Page breaks fall
between blocks, never inside a merge (CSS ``break-inside: avoid``).

Every piece of user text (words, tokens) goes through ``html.escape``; every sentence goes through a
``gettext`` translations object with named placeholders. What a merge block shows is
:mod:`bpe_core.teaching.step_view`'s values, as in the app's panels and pictures; a step is drawn by its kind
(:data:`_BLOCKS`), and a kind without a block of its own from the parts every step view has.
"""

from __future__ import annotations

import gettext
from collections import defaultdict

from ..algorithms.trainer import RULES
from ..formats.merge_table import markdown_headers, merge_rows
from ..i18n import N_
from .explain import rule_summary
from .handout_parts import (
    byte_legend,
    document_start,
    esc,
    fmt,
    num,
    pair_html,
    token_box,
    tr_or_english,
    word_table,
)
from .step_view import CHOSEN, MERGE, TIED, MergeCard, StepView, changed_words, step_view, word_views

#: Messages written inside f-strings below, which the extractor cannot see there: listed once here.
_F_STRING_MESSAGES = (
    N_("Settings"),
    N_("Word"),
    N_("Count"),
    N_("The corpus before the first merge"),
    N_("Pair"),
    N_("The most frequent pairs before this merge"),
    N_("To get a PDF, print this page (Ctrl+P or ⌘P) and choose “Save as PDF”."),
    N_("Made with BPE Explorer."),
)


#: Pairs shown per merge (the run keeps ``config.top_k`` of them; 10 by default).
TOP_PAIRS = 5
#: Word types listed in a corpus block; the rest are counted ("and 1,234 more").
MAX_WORDS = 24
#: A corpus this small is shown whole after each merge (changed words marked), else only the changed words.
SMALL_CORPUS = 12


# ------------------------------------------------------------------------------------------ blocks
def settings_html(run, t) -> str:
    """The settings of ``run`` as a titled list, with the counting and tie-break rules in words (``t``: translations)."""
    cfg = run.config
    variant = {
        "char": t.gettext("Characters"),
        "eow": t.gettext("Characters with an end-of-word marker"),
        "byte": t.gettext("Bytes (byte-level BPE)"),
    }[run.variant.kind]
    if run.variant.kind == "eow":
        style = (
            t.gettext("Characters with the end-of-word marker {marker} as its own symbol")
            if run.variant.eow_style == "separate"
            else t.gettext("Characters with the end-of-word marker {marker} attached to the last character")
        )
        variant = style.format(marker=cfg.eow_marker)
    pre = {
        "whitespace": t.gettext("split at spaces"),
        "gpt2": t.gettext("GPT-2's pattern (words, numbers, punctuation; a space stays with the next word)"),
        "gpt4": t.gettext("GPT-4's pattern (cl100k)"),
        "none": t.gettext("none: the whole text is one word"),
    }.get(cfg.resolved_pretokenizer, cfg.resolved_pretokenizer)
    rule = rule_summary(cfg.tie_break, t)
    tokens0 = run.corpus_tokens(0)
    rows = [
        (t.gettext("Base symbols"), variant),
        (t.gettext("Pre-tokenization"), pre),
        (t.gettext("Tie-break rule"), rule),
        (t.gettext("Minimum frequency"), num(cfg.min_frequency)),
        (
            t.gettext("Corpus"),
            t.ngettext(
                "{words} word type, {tokens} tokens, {base} base symbols",
                "{words} word types, {tokens} tokens, {base} base symbols",
                run.num_words,
            ).format(words=num(run.num_words), tokens=num(tokens0), base=num(run.num_base)),
        ),
    ]
    items = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in rows)
    rule_text = esc(t.gettext(RULES[cfg.tie_break]))
    return (
        f"<h2>{esc(t.gettext('Settings'))}</h2><dl class='settings'>{items}</dl>"
        f"<p class='note'>{esc(t.gettext(RULES['counting']))} {rule_text}</p>"
    )


def corpus_before_html(run, t, max_words: int) -> str:
    """The corpus before the first merge: at most ``max_words`` word types, their counts and tokens, titled."""
    shown = min(run.num_words, max_words)
    rows = word_views(run, 0, range(shown))
    out = f"<h2>{esc(t.gettext('The corpus before the first merge'))}</h2>" + word_table(run, rows, t)
    rest = run.num_words - shown
    if rest > 0:
        more = t.ngettext(
            "…and {n} more word type (the first {shown} are shown, in order of first appearance).",
            "…and {n} more word types (the first {shown} are shown, in order of first appearance).",
            rest,
        ).format(n=num(rest), shown=num(shown))
        out += f"<p class='more'>{esc(more)}</p>"
    return out


class _Segments:
    """Segmentations of word types, each computed once: a handout asks for a changed word at two or three
    steps, and a text without pre-tokenization is one word type of half a million symbols. Kept as tuples,
    which :mod:`~bpe_core.teaching.step_view`'s chips hold as they are (a list would be copied)."""

    def __init__(self, run):
        self.run = run
        self.memo: dict = {}

    def __call__(self, index: int, step: int) -> tuple[int, ...]:
        seg = self.memo.get((index, step))
        if seg is None:
            seg = self.memo[(index, step)] = tuple(self.run.segmentation(index, step))
        return seg

    def changed(self, step: int, limit: int | None = None):
        """:func:`~bpe_core.teaching.step_view.changed_words` of ``step``, from the segmentations kept."""
        return changed_words(self.run, step, limit, segment=self)

    def forget_before(self, step: int) -> None:
        self.memo = {k: v for k, v in self.memo.items() if k[1] >= step}


def _count_changes(segs: _Segments, step: int) -> dict:
    """How merge ``step`` changed each pair's count: ``{(left, right): delta}`` (weighted by frequency),
    read from the words it rewrote only."""
    delta: dict = defaultdict(int)
    if step < 1:
        return delta
    run = segs.run
    for i in run.changed_word_indices(step):
        before, after, freq = segs(i, step - 1), segs(i, step), run.freqs[i]
        for a, b in zip(before, before[1:]):
            delta[(a, b)] -= freq
        for a, b in zip(after, after[1:]):
            delta[(a, b)] += freq
    return delta


def _change_cell(count: int, change: int | None, t) -> str:
    if change is None:
        return ""
    if change == count:
        return esc(t.gettext("new"))
    if change > 0:
        return f"+{num(change)}"
    if change < 0:
        return f"−{num(-change)}"
    return "<span class='note'>±0</span>"


def _mark(row, t) -> tuple[str, str]:
    """The CSS class and the label of a candidate row's mark."""
    if row.mark == CHOSEN:
        return "chosen", t.gettext("chosen")
    if row.mark == TIED:
        return "tied", t.gettext("tied")
    return "", ""


def _pairs_table(segs: _Segments, view: StepView, t) -> str:
    run, step = segs.run, view.step
    changes = _count_changes(segs, step - 1) if step > 1 else None
    head = f"<tr><th class='num'>#</th><th>{esc(t.gettext('Pair'))}</th><th class='num'>{esc(t.gettext('Count'))}</th>"
    if changes is not None:
        since = t.gettext("Change since merge {step}").format(step=num(step - 1))
        head += f"<th class='num'>{esc(since)}</th>"
    head += "<th></th></tr>"
    body = []
    for row in view.pairs.rows:
        rank, a, b, count = row.rank, row.left, row.right, row.count
        cls, mark = _mark(row, t)
        change = f"<td class='num'>{_change_cell(count, changes.get((a, b), 0), t)}</td>" if changes is not None else ""
        body.append(
            f"<tr class='{cls}'><td class='num'>{rank}</td><td class='pair'>{pair_html(run, a, b)}</td>"
            f"<td class='num'>{num(count)}</td>{change}<td class='mark'>{esc(mark)}</td></tr>"
        )
    return f"<table class='pairs'>{head}{''.join(body)}</table>"


def _why(run, snap: MergeCard, t) -> str:
    pair = pair_html(run, snap.left, snap.right, note=False)  # the headline above names their characters
    count = num(snap.count)
    if snap.ties > 1:
        rule = esc(rule_summary(snap.tie_break, t))
        text = fmt(
            t.ngettext(
                "{ties} pair has the highest count, {count}: a tie. The tie-break rule {rule} chose {pair}.",
                "{ties} pairs have the highest count, {count}: a tie. The tie-break rule {rule} chose {pair}.",
                snap.ties,
            ),
            ties=num(snap.ties),
            count=count,
            rule=f"<b>{rule}</b>",
            pair=pair,
        )
    else:
        text = fmt(
            t.gettext("{pair} has the highest count, {count}; no other pair has as many."), pair=pair, count=count
        )
    if not snap.is_new:
        text += " " + fmt(
            t.gettext("{token} is already in the vocabulary (made at merge {made}), so the vocabulary does not grow."),
            token=token_box(run, snap.token, t, note=False),
            made=num(snap.made_at),
        )
    return f"<p>{text}</p>"


def _corpus_after(segs: _Segments, snap: MergeCard, t, max_words: int) -> str:
    run, step = segs.run, snap.step
    if run.num_words <= SMALL_CORPUS:
        # A small corpus is whole in the block before: the words this merge changed, after it, are enough.
        changed = run.changed_word_indices(step)
        rows = word_views(run, step, changed, set(changed), segment=segs)
        title = t.ngettext(
            "The {n} word type this merge changed, after it",
            "The {n} word types this merge changed, after it",
            len(rows),
        ).format(n=num(len(rows)))
        return f"<h3>{esc(title)}</h3>" + word_table(run, rows, t, before_after=False)
    rows = segs.changed(step, limit=max_words)
    title = t.ngettext(
        "The {n} word type this merge changed, before → after",
        "The {n} word types this merge changed, before → after",
        snap.words_changed,
    ).format(n=num(snap.words_changed))
    out = f"<h3>{esc(title)}</h3>" + word_table(run, rows, t)
    rest = snap.words_changed - len(rows)
    if rest > 0:
        more = t.ngettext("…and {n} more changed word type.", "…and {n} more changed word types.", rest)
        out += f"<p class='more'>{esc(more.format(n=num(rest)))}</p>"
    return out


def _merge_block(segs: _Segments, view: StepView, t, top: int, max_words: int) -> str:
    run, step = segs.run, view.step
    snap = view.merge
    heading = t.gettext("Merge {step}").format(step=num(step))
    headline = fmt(
        t.ngettext("{pair} → {token} ({count} time)", "{pair} → {token} ({count} times)", snap.count),
        pair=pair_html(run, snap.left, snap.right),
        token=token_box(run, snap.token, t, new=True),
        count=num(snap.count),
    )
    sizes = t.gettext("Vocabulary: {vocab} tokens · corpus: {tokens} tokens after this merge.").format(
        vocab=num(snap.vocab_size), tokens=num(snap.corpus_tokens)
    )
    return (
        f"<section class='merge'><h2>{esc(heading)}</h2><p class='headline'>{headline}</p>"
        f"<p class='note'>{esc(sizes)}</p>"
        f"<h3>{esc(t.gettext('The most frequent pairs before this merge'))}</h3>{_pairs_table(segs, view, t)}"
        f"{_why(run, snap, t)}{_corpus_after(segs, snap, t, max_words)}</section>"
    )


def _event_block(segs: _Segments, view: StepView, t, top: int, max_words: int) -> str:
    """A step of a kind with no block of its own, from the parts every step view has: its number, its headline
    (the tokens involved → the token made, − the token removed), its numbers, the candidates and the words changed."""
    run, head = segs.run, view.headline
    line = '<span class="arrow">+</span>'.join([token_box(run, tid, t) for tid in head.tokens])
    for op, tid in (("→", head.made), ("−", head.removed)):
        if tid is not None:
            line += f'<span class="arrow">{op}</span>{token_box(run, tid, t, new=tid == head.made)}'
    numbers = " · ".join(f"{t.gettext(n.label)} {num(n.value)}" for n in view.numbers)
    heading = t.gettext("Step {step} of {n}").format(step=num(view.step), n=num(view.num_steps))
    out = f"<section class='merge'><h2>{esc(heading)}</h2><p class='headline'>{line}</p><p class='note'>{esc(numbers)}</p>"
    body = []
    for row in view.candidates.rows[:top] if view.candidates is not None else ():
        cls, mark = _mark(row, t)
        tokens = '<span class="arrow">+</span>'.join([token_box(run, tid, t) for tid in row.tokens])
        body.append(
            f"<tr class='{cls}'><td class='num'>{row.rank or ''}</td><td>{tokens}</td>"
            f"<td class='num'>{num(row.count)}</td><td>{esc(mark)}</td></tr>"
        )
    if body:
        out += f"<table class='pairs'>{''.join(body)}</table>"
    if view.words_changed:
        changed = step_view(run, view.step, top, words=max_words).changed
        title = t.ngettext(
            "The word type this step changed", "The {n} word types this step changed", view.words_changed
        )
        out += f"<h3>{esc(title.format(n=num(view.words_changed)))}</h3>" + word_table(run, changed, t)
    return out + "</section>"


#: How the handout draws a step of each kind; any other kind: :func:`_event_block`.
_BLOCKS = {MERGE: _merge_block}


def _summary(run, n: int, t) -> str:
    heads = markdown_headers(t)
    head = "".join(f"<th{' class=num' if i in (0, 3, 4, 5) else ''}>{esc(h)}</th>" for i, h in enumerate(heads))
    body = "".join(
        f"<tr><td class='num'>{r.merge_number}</td><td class='pair'>{pair_html(run, r.left_id, r.right_id)}</td>"
        f"<td>{token_box(run, r.token_id, t)}</td><td class='num'>{num(r.count)}</td>"
        f"<td class='num'>{num(r.vocab_size)}</td><td class='num'>{num(r.corpus_tokens)}</td></tr>"
        for r in merge_rows(run, n)
    )
    title = esc(t.gettext("The merges so far"))
    return f"<section class='summary'><h2>{title}</h2><table><tr>{head}</tr>{body}</table></section>"


def handout_html(
    run,
    merges: int,
    tr: gettext.NullTranslations | None = None,
    lang: str = "en",
    *,
    top: int = TOP_PAIRS,
    max_words: int = MAX_WORDS,
) -> str:
    """A print-ready handout (one self-contained HTML document, A4) of merges 1..``merges`` of ``run``.

    Args:
        run: a :class:`~bpe_core.algorithms.run.TrainedRun` with at least the merges wanted (fewer: the handout
            shows the merges there are and says why training stopped, if it did).
        merges: how many merges to show (clamped to ``0..run.num_steps``).
        tr: translations for every sentence (``None``: English).
        lang: BCP 47 tag for ``<html lang>`` (``en``, ``zh-Hans``, ``zh-Hant``); it also picks the
            Chinese font tried first.
        top: pairs listed per merge (at most the run's ``config.top_k``).
        max_words: word types listed per corpus block; the rest are counted.

    Returns the document as a string (UTF-8 when written). Raises nothing for any run.
    """
    t = tr_or_english(tr)
    n = max(0, min(int(merges), run.num_steps))
    title = t.gettext("Byte-pair encoding, one merge at a time")
    sub = t.ngettext(
        "The first merge of this corpus, step by step.", "The first {n} merges of this corpus, step by step.", n
    )
    parts = [
        document_start(title, lang),
        f"<h1>{esc(title)}</h1><p class='sub'>{esc(sub.format(n=num(n)))}</p>",
        f"<p class='screen-only'>{esc(t.gettext('To get a PDF, print this page (Ctrl+P or ⌘P) and choose “Save as PDF”.'))}</p>",
        settings_html(run, t),
        byte_legend(run, t),
        corpus_before_html(run, t, max_words),
        "<div class='merges'>",
    ]
    segs = _Segments(run)
    for k in range(1, n + 1):
        view = step_view(run, k, top)
        parts.append(_BLOCKS.get(view.kind, _event_block)(segs, view, t, top, max_words))
        segs.forget_before(k - 1)
    if n < merges and run.stop_reason:
        parts.append(f"<p class='more'>{esc(_stopped(run, t))}</p>")
    if n:
        parts.append(_summary(run, n, t))
    parts.append("</div>")
    parts.append(f"<footer>{esc(t.gettext('Made with BPE Explorer.'))}</footer></body></html>")
    return "\n".join(parts)


def _stopped(run, t) -> str:
    n = num(run.num_steps)
    return {
        "no_pairs": t.gettext("Training stopped after merge {n}: no adjacent pair is left."),
        "min_frequency": t.gettext(
            "Training stopped after merge {n}: the most frequent pair left occurs fewer times than the minimum frequency."
        ),
        "vocab_size": t.gettext("Training stopped after merge {n}: the vocabulary reached the size asked for."),
    }.get(run.stop_reason, t.gettext("Training stopped after merge {n}.")).format(n=n)
