"""The stepper for a PickyBPE run (``?algo=picky``, threshold ``?picky=T``) or a BoundlessBPE run (``?algo=boundless``,
threshold ``?tau=T``): byte-level BPE whose steps are merges (with their parts' IoS) and removals (a token a merge
swallowed almost whole, :mod:`ui.removal_panel`), one at a time, from the step's view; and its quiz, asked on the
merge, where the IoS decides what is removed. BoundlessBPE's merges are inside a pre-token or supermerges (two
neighbouring pre-tokens joined into a superword token: badged, with no quiz, as a supermerge removes nothing).

Its runs are not BPE merge runs (a removal brings token boundaries back), so the BPE stepper's panels, charts and
class do not apply: the corpus is trained byte-level with the sidebar's pre-tokenizer, merges and minimum frequency
(ties: the largest pair, :mod:`bpe_core.algorithms.picky`).
"""

from __future__ import annotations

import dataclasses

import streamlit as st

from bpe_core.algorithms.boundless_run import PRETOKENIZERS, is_supermerge
from bpe_core.algorithms.removal import REMOVAL
from bpe_core.algorithms.seam import step_why
from bpe_core.teaching.step_view import CHOSEN, step_view
from ui import persist, removal_panel, sidebar
from ui.field_stepper import error_text, train
from ui.i18n import _, tr
from ui.removal_panel import chips
from ui.text import esc_raw

#: Word types shown with each step.
_WORDS = 6


def _config(choice):
    """The run's settings: byte-level; BoundlessBPE with a pre-tokenizer that keeps the text in order (GPT-2's when
    the sidebar's does not, said so)."""
    cfg = dataclasses.replace(choice.config, variant="byte")
    if cfg.algorithm == "boundless" and cfg.pretokenizer not in PRETOKENIZERS:
        cfg = dataclasses.replace(cfg, pretokenizer="gpt2", pattern=None)
        st.caption(
            _(
                "BoundlessBPE joins neighbouring pre-tokens, so it needs a pre-tokenizer that keeps the whole text in "
                "order, spaces included: this run cuts the text with GPT-2's pattern."
            )
        )
    return cfg


def page(choice) -> None:
    """Train ``choice``'s corpus with PickyBPE or BoundlessBPE and draw the step the slider names (a link's ``step``
    first)."""
    boundless = choice.config.algorithm == "boundless"
    if boundless:
        st.subheader(_("BoundlessBPE, step by step"))
    cfg = _config(choice)
    mode = choice.display.byte_mode
    try:
        run = train(choice.corpus.digest, cfg, choice.corpus)
    except ValueError as err:
        st.error(error_text(err))
        return
    if boundless:
        st.caption(
            _(
                "BoundlessBPE (Schmidt et al., 2025) is byte-level BPE whose merges may also join two neighbouring "
                "pre-tokens once each is one token (a supermerge, making a superword token such as “ of the”); "
                "inside a pre-token it removes a token as PickyBPE does, once its IoS reaches tau = {t:g}. A "
                "removal is a step of its own."
            ).format(t=cfg.picky_threshold)
        )
    else:
        st.subheader(_("PickyBPE, step by step"))
        st.caption(
            _(
                "PickyBPE (Chizhov et al., 2024) is byte-level BPE that removes a token once a merge takes nearly "
                "all of its occurrences: its IoS (intersection over self) reaches the threshold T = {t:g}. A "
                "removal is a step of its own."
            ).format(t=cfg.picky_threshold)
        )
    n = run.num_steps
    if not n:
        st.info(_("Training stopped before the first step: the corpus or the size leaves nothing to do."))
        return
    step = st.slider(_("Step"), 1, n, min(max(1, persist.get_step()), n), key="picky_step") if n > 1 else 1
    persist.set_step(step)
    sidebar.write_url(choice, step)  # (a link to this step, with its threshold: picky= or tau=)
    removals = sum(1 for k in range(1, step + 1) if run.snapshot(k).kind == REMOVAL)
    if boundless:
        supers = sum(1 for k in run.extras["supermerges"] if k <= step)
        st.caption(
            _("Merges so far: {merges} (supermerges: {supers}) · removals so far: {removals}").format(
                merges=step - removals, supers=supers, removals=removals
            )
        )
        _kind_line(run, step)
    else:
        st.caption(
            _("Merges so far: {merges} · removals so far: {removals}").format(merges=step - removals, removals=removals)
        )
    view = step_view(run, step, words=_WORDS)
    superword = boundless and is_supermerge(run, step)
    if st.toggle(_("Quiz: predict this step before it is shown"), key="picky_quiz"):
        if superword:
            st.info(
                _(
                    "A supermerge removes nothing, so the quiz (which parts are removed?) asks on the merges inside "
                    "a pre-token. Here is the supermerge."
                )
            )
        elif view.kind == REMOVAL:
            st.info(
                _(
                    "A removal follows from the merge just before it: the quiz asks about it on that merge (step "
                    "{step}), where the IoS decides. Here is the removal."
                ).format(step=run.snapshot(step).cause)
            )
        else:
            return _quiz(run, step, mode, boundless)
    if view.kind == REMOVAL:
        return removal_panel.draw(run, view, mode)
    left, right = view.headline.tokens
    made = chips(run, [view.headline.made], view.headline.made, mode)
    st.html(
        f'<p style="font-size:1.25rem">{chips(run, [left], None, mode)} + {chips(run, [right], None, mode)} → {made}</p>'
    )
    why = step_why(run, step, tr())
    if why is not None:
        st.markdown(why.text)  # (plain words of our own catalogs, with numbers)
    removal_panel.metrics(view.numbers)
    if superword:
        if view.changed:
            removal_panel.changed_words(run, view, mode, _("Where two pre-tokens join (before → after):"))
            removal_panel.more_words(view)
        return
    st.table(
        [
            {
                _("Part"): run.token_text(c.tokens[0], mode),
                _("IoS"): f"{c.count:.3f}",
                _("Removed next"): "✔" if c.mark == CHOSEN else "",
            }
            for c in view.candidates.rows
        ],
        hide_index=True,
    )
    if view.changed:
        removal_panel.changed_words(run, view, mode, _("Words this step changed:"))


def _kind_line(run, step: int) -> None:
    """What BoundlessBPE's step ``step`` is: a merge inside a pre-token, a supermerge (with the badge "Superword
    token"), or a removal (its IoS against tau)."""
    snap = run.snapshot(step)
    if snap.kind == REMOVAL:
        text = _("Removal: its IoS {score:.3f} ≥ tau = {tau:g}").format(score=snap.score, tau=snap.threshold)
    elif is_supermerge(run, step):
        badge = (
            '<span class="bpe-superword" style="background:#ede9fe;border:1px solid #7c3aed;border-radius:9px;'
            "white-space:nowrap;display:inline-block;"
            f'padding:1px 8px;margin-left:6px">{esc_raw(_("Superword token"))}</span>'
        )
        st.html(f"<p><strong>{esc_raw(_('Supermerge: two pre-tokens join'))}</strong>{badge}</p>")
        return
    else:
        text = _("Merge inside a pre-token")
    st.html(f"<p><strong>{esc_raw(text)}</strong></p>")


def _quiz(run, step: int, mode: str, boundless: bool = False) -> None:
    """Merge ``step`` with its counts, and the question which of its parts PickyBPE (``boundless``: BoundlessBPE, its
    threshold tau) removes next (:func:`bpe_core.teaching.field_quiz.picky_answers`)."""
    from bpe_core.teaching import field_quiz

    snap = run.snapshot(step)
    a, b = run.token_text(snap.left, mode), run.token_text(snap.right, mode)
    st.html(
        f"<p>{chips(run, [snap.left], None, mode)} + {chips(run, [snap.right], None, mode)} → "
        f"{chips(run, [snap.token], snap.token, mode)}</p>"
    )
    counts = dict(count=f"{snap.count:,}", left=f"{snap.left_count:,}", right=f"{snap.right_count:,}", t=run.threshold)
    st.markdown(  # (our own words, with numbers)
        _(
            "The pair occurs {count} times; just before the merge the first part occurred {left} times and the "
            "second {right} times. The threshold is tau = {t:g}."
        ).format(**counts)
        if boundless
        else _(
            "The pair occurs {count} times; just before the merge the first part occurred {left} times and the "
            "second {right} times. The threshold is T = {t:g}."
        ).format(**counts)
    )
    labels = {
        "none": _("Neither"),
        "first": _("The first part, {token}").format(token=a),
        "second": _("The second part, {token}").format(token=b),
        "both": _("Both"),
    }
    pick = st.radio(
        _("Which parts does BoundlessBPE remove after this merge? (A single byte is never removed.)")
        if boundless
        else _("Which parts does PickyBPE remove after this merge? (A single byte is never removed.)"),
        field_quiz.PICKY_ANSWERS,
        format_func=labels.__getitem__,
        index=None,
        key=f"picky_quiz_{step}",
    )
    if pick is None:
        return
    ios = _("IoS: {left:.3f} and {right:.3f}.").format(left=snap.left_ios, right=snap.right_ios)
    if pick in field_quiz.picky_answers(snap):
        st.success(_("Right.") + " " + ios)
    else:
        st.error(_("Not this one.") + " " + ios)
