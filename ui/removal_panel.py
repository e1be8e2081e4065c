"""A removal step (kind ``"removal"``) of any algorithm that removes tokens, drawn from its step view
(:mod:`bpe_core.teaching.removal_view`): the token removed, why (the algorithm's own sentence), its score against
the threshold, the vocabulary after, and the words where the token splits back. Only the stepper of such an
algorithm imports it (:mod:`ui.picky_stepper`)."""

from __future__ import annotations

import streamlit as st

from bpe_core.algorithms.seam import step_why
from ui.field_stepper import chips_html
from ui.i18n import _, ngettext, tr
from ui.text import esc, esc_raw


def metrics(numbers) -> None:
    """A step view's numbers as metrics, labels translated; a share (a float) with three decimals."""
    for col, number in zip(st.columns(len(numbers)), numbers):
        value = number.value
        col.metric(_(number.label), f"{value:.3f}" if isinstance(value, float) else f"{value:,}")


def changed_words(run, view, mode: str, title: str) -> None:
    """The words ``view`` changed, before → after, under ``title``."""
    st.markdown(title)
    st.html(
        "".join(
            f"<p>{esc(w.word)} ({w.freq:,}): {chips_html(run, w.before.ids, None, mode)} → "
            f"{chips_html(run, w.after.ids, w.after.new, mode)}</p>"
            for w in view.changed
        )
    )


def draw(run, view, mode: str) -> None:
    """Removal ``view.step`` of ``run``: the token, the reason, the numbers and the words where it splits back
    (byte tokens shown in ``mode``)."""
    token = view.headline.removed
    st.html(
        f'<p style="font-size:1.25rem">{esc_raw(_("Removed from the vocabulary:"))} '
        f"<s>{chips_html(run, [token], None, mode)}</s></p>"
    )
    why = step_why(run, view.step, tr())
    if why is not None:
        st.markdown(why.text)  # (plain words of our own catalogs, with numbers)
    metrics(view.numbers)
    if view.changed:
        changed_words(run, view, mode, _("Where it splits back (before → after):"))
        if view.words_changed > len(view.changed):
            more = view.words_changed - len(view.changed)
            st.caption(ngettext("…and {n} more word type.", "…and {n} more word types.", more).format(n=f"{more:,}"))
    else:
        st.info(_("No occurrence of it was left: every one had been merged into a longer token."))
