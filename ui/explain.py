"""The merge and stop explanations of :mod:`bpe_core.teaching.explain`, worded with the app's token labels in
the session's language and memoised per run."""

from __future__ import annotations

from bpe_core import TrainedRun
from bpe_core.teaching.explain import RULES, TIE_RULES, merge_explanation, merge_text, stop_explanation, stop_text

from . import run_cache
from .chips import token_label
from .i18n import _, current_language, ngettext, pgettext, tr
from .text import esc_raw, visible

#: Characters of a word quoted in a sentence (a text without spaces is one long "word").
QUOTE_CHARS = 24


def quote_word(word: str, limit: int = QUOTE_CHARS) -> str:
    """``word`` for a sentence (plain text): whitespace made visible, and past ``limit`` characters cut
    with its length in words (``我是一个很长的词… (2,000 characters)``), the count outside the visible-
    whitespace rewrite so its own spaces stay spaces."""
    if len(word) <= limit:
        return visible(word)
    n = len(word)
    return visible(word[:limit]) + ngettext("… ({n} character)", "… ({n} characters)", n).format(n=f"{n:,}")


def why_note_html(why) -> str:
    """A :class:`~bpe_core.algorithms.seam.StepWhy` note under a merge's reason: its badge (if any), then its text."""
    badge = f"<span class='bpe-badge changed'>{esc_raw(why.badge)}</span> " if why.badge else ""
    return f"<div class='bpe-muted bpe-served'>{badge}{esc_raw(why.text)}</div>"


def merge_reason(run: TrainedRun, step: int, mode: str = "utf8", max_words: int = 3) -> str:
    """Why merge ``step`` (>= 1) was chosen, in sentences (plain text, not escaped): the pair's count,
    the words holding it, the tie and the rule that broke it."""
    key = ("reason", step, mode, max_words, current_language())  # runs are shared by sessions of any language
    table = run_cache.memo(run)
    if key not in table:
        ex = merge_explanation(run, step, max_words)
        text = merge_text(ex, lambda t: token_label(run, t, mode), quote_word, tr())
        run_cache.remember(run, key, text)
    return table[key]


def stop_reason_text(run: TrainedRun) -> str:
    """Why training stopped, in words (plain text)."""
    ex = run_cache.once(run, "stop", lambda: stop_explanation(run))
    return stop_text(ex, tr())


def tie_short(rule: str) -> str:
    """The tie-break rule in one clause (``"the pair that appears first in the corpus wins"``)."""
    tie = TIE_RULES.get(rule)
    return _(tie.short) if tie else ""


def rules_html(run: TrainedRun) -> str:
    """The trainer's rules (:data:`bpe_core.teaching.explain.RULES`) as HTML, the run's tie-break rule named."""
    rule = run.config.tie_break
    items = [
        (_("Counting"), RULES["counting"]),
        (_("Tie-break ({rule})").format(rule=rule), RULES[rule]),
        (_("Applying"), RULES["applying"]),
        (pgettext("the tokens themselves, not a count", "Tokens"), RULES["tokens"]),
        (_("Stopping"), RULES["stopping"]),
    ]
    lis = "".join(f"<li><b>{esc_raw(k)}.</b> {esc_raw(_(v))}</li>" for k, v in items)
    return f"<ul class='bpe-muted'>{lis}</ul>"
