"""A removal step (kind ``"removal"``) of any algorithm that removes tokens, drawn from its step view
(:mod:`bpe_core.teaching.removal_view`): the token removed, why (the algorithm's own sentence), its score against
the threshold, the vocabulary after, and the words where the token splits back. Only the stepper of such an
algorithm imports it (:mod:`ui.picky_stepper`)."""

from __future__ import annotations

import streamlit as st

from bpe_core.algorithms.seam import step_why
from ui.i18n import _, ngettext, tr
from ui.text import esc, esc_raw

#: The highlight of the token a step made (a merge) and of the one it removed.
MADE, REMOVED = "#fde68a", "#fee2e2"


def chips(run, ids, mark=None, mode: str = "utf8", colour: str = MADE) -> str:
    """The token ids ``ids`` of ``run`` as outlined chips, so that each token's edges show (byte tokens in
    ``mode``); ``mark`` (an id) with the background ``colour``."""
    return " ".join(
        f'<code style="border:1px solid #9ca3af;{f"background:{colour};" if t == mark else ""}padding:1px 4px">'
        f"{esc(run.token_text(t, mode))}</code>"
        for t in ids
    )


def metrics(numbers) -> None:
    """A step view's numbers as metrics, labels translated; a share (a float) with three decimals."""
    for col, number in zip(st.columns(len(numbers)), numbers):
        value = number.value
        col.metric(_(number.label), f"{value:.3f}" if isinstance(value, float) else f"{value:,}")


def changed_words(run, view, mode: str, title: str, removed: int | None = None) -> None:
    """The words ``view`` changed, before → after, under ``title``: the token made marked after, or the token
    ``removed`` marked before."""
    st.markdown(title)
    st.html(
        "".join(
            # (A long word, e.g. BoundlessBPE's runs of pre-tokens, has no breakable space once esc shows them.)
            f'<p style="overflow-wrap:anywhere">{esc(w.word)} ({w.freq:,}): '
            f"{chips(run, w.before.ids, removed, mode, REMOVED)} → "
            f"{chips(run, w.after.ids, w.after.new, mode)}</p>"
            for w in view.changed
        )
    )


def more_words(view) -> None:
    """How many word types ``view`` changed beyond those it shows (a caption; nothing when it shows them all)."""
    if view.words_changed > len(view.changed):
        more = view.words_changed - len(view.changed)
        st.caption(ngettext("…and {n} more word type.", "…and {n} more word types.", more).format(n=f"{more:,}"))


def draw(run, view, mode: str) -> None:
    """Removal ``view.step`` of ``run``: the token, the reason, the numbers and the words where it splits back
    (byte tokens shown in ``mode``)."""
    token = view.headline.removed
    # The token as a chip of its own, large and outlined in red (the words say it went; the colour only marks it).
    chip = (
        f'<code class="bpe-removed" style="background:{REMOVED};border:2px solid #dc2626;padding:2px 8px;'
        f'font-size:1.5rem">{esc(run.token_text(token, mode))}</code>'
    )
    st.html(f'<p style="font-size:1.25rem">{esc_raw(_("Removed from the vocabulary:"))} {chip}</p>')
    why = step_why(run, view.step, tr())
    if why is not None:
        st.markdown(why.text)  # (plain words of our own catalogs, with numbers)
    metrics(view.numbers)
    if view.changed:
        changed_words(run, view, mode, _("Where it splits back (before → after):"), token)
        more_words(view)
    else:
        st.info(_("No occurrence of it was left: every one had been merged into a longer token."))
