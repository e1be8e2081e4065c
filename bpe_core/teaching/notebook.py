"""Small HTML tables for notebooks: what ``_repr_html_`` of a run and of a merge step shows.

Jupyter calls ``_repr_html_`` and inserts the result into the page as it is, so every value that can
come from the user's text (tokens, settings) is escaped with :func:`html.escape`.
"""

from __future__ import annotations

import gettext
from html import escape

_STYLE = "border-collapse:collapse;font-variant-numeric:tabular-nums"


def _table(caption: str, header: list[str] | None, rows: list[list]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header) if header else ""
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    thead = f"<thead><tr>{head}</tr></thead>" if head else ""
    return f'<table style="{_STYLE}"><caption>{escape(caption)}</caption>{thead}<tbody>{body}</tbody></table>'


def step_html(step, tr: gettext.NullTranslations | None = None) -> str:
    """An HTML table of one :class:`~bpe_core.algorithms.trainer.MergeStep`: its fields, token ids as they are
    (a step does not know its run; ask the run for token text)."""
    tr = tr or gettext.NullTranslations()
    _ = tr.gettext
    rows = [
        [_("merged pair (token ids)"), f"{step.left} + {step.right} → {step.token}"],
        [_("count"), step.count],
        [_("pairs with that count"), step.ties],
        [_("tie-break rule"), step.tie_break],
        [_("new vocabulary entry"), _("yes") if step.is_new else _("no")],
        [_("vocabulary size"), step.vocab_size],
        [_("tokens in the corpus"), step.corpus_tokens],
        [_("occurrences merged"), step.occurrences],
        [_("word types changed"), step.words_changed],
    ]
    if step.stop_reason is not None:
        rows.append([_("stopped"), step.stop_reason])
    return _table(_("Merge {step}").format(step=step.step), None, rows)


def run_html(run, limit: int = 10, tr: gettext.NullTranslations | None = None) -> str:
    """An HTML summary of a :class:`~bpe_core.algorithms.run.TrainedRun`: its settings and totals, then its first
    ``limit`` merges with token text (byte-level tokens shown as UTF-8 where they decode)."""
    tr = tr or gettext.NullTranslations()
    _ = tr.gettext
    cfg = run.config
    n = run.num_steps
    summary = [
        [_("variant"), cfg.variant + (f" ({cfg.eow_style} {cfg.eow_marker})" if cfg.variant == "eow" else "")],
        [_("pre-tokenizer"), cfg.resolved_pretokenizer],
        [_("tie-break rule"), cfg.tie_break],
        [_("word types"), run.num_words],
        [_("merges"), n],
        [_("vocabulary size"), run.vocab_size],
        [_("tokens in the corpus"), f"{run.corpus_tokens(0)} → {run.corpus_tokens(n)}"],
        [_("stopped"), run.stop_reason or "—"],
    ]
    text = run.token_text
    merges = [[s.step, text(s.left), text(s.right), text(s.token), s.count] for s in run.snapshots[:limit]]
    out = _table(_("BPE run"), None, summary)
    if merges:
        header = [_("step"), _("left"), _("right"), _("new token"), _("count")]
        caption = tr.ngettext("The first merge", "The first {n} merges", len(merges)).format(n=len(merges))
        out += _table(caption, header, merges)
    return f"<div>{out}</div>"
