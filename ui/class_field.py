"""A live class's question and reveal on a WordPiece or Unigram run (the field stepper's class: :mod:`ui.field_stepper`).

The question is :func:`bpe_core.teaching.field_class.question` (the same shuffled options on every screen, as the seed
is the step): WordPiece's "which pair does merge k join?" and Unigram's "which of these tokens does round k remove?".
The rounds, picks, tallies, the teacher's row and the summary are the BPE class's (:mod:`ui.class_round`), as is the
rule that no screen shows the numbers that answer an open question: a pair's counts only when the teacher turns them
on, its score and a token's loss increase only at the reveal.
"""

from __future__ import annotations

import streamlit as st

from bpe_core.teaching.field_class import (
    FieldQuestion,
    counts_text,
    number_text,
    option_text,
    question,
    value_text,
    verdict_text,
)
from bpe_core.teaching.quiz import grade

from . import class_round as cr
from . import class_view as cv
from .i18n import _, ngettext, tr
from .quiz import _CSS as QUIZ_CSS
from .quiz import option_marks
from .text import esc, esc_raw

#: Words of the corpus shown under an open question (a phone: fewer).
_WORDS, _PHONE_WORDS = 12, 6


def _label(run, o) -> str:
    return option_text(run, o, tr())


def _chips(run, o) -> str:
    """An option's token or pair as chips (HTML): a token's spaces are made visible, not the pair's " + "."""
    chips = [f"<code>{esc(run.token_text(t))}</code>" for t in o.tokens]
    return _("{left} + {right}").format(left=chips[0], right=chips[1]) if len(chips) == 2 else chips[0]


def _title(q: FieldQuestion) -> tuple[str, str]:
    """The question and the rule it turns on (plain text)."""
    if q.kind == "wordpiece":
        return (
            _("Which pair does merge {merge} join?").format(merge=f"{q.merge:,}"),
            _(
                "WordPiece merges the pair with the highest score: its count ÷ (its first part's count × its second part's count)."
            ),
        )
    return (
        _("Which of these tokens does round {round} remove?").format(round=f"{q.merge:,}"),
        _(
            "Unigram removes the tokens whose removal raises the corpus loss least: exactly one of these goes this "
            "round."
        ),
    )


def options_html(run, q: FieldQuestion, pick: int | None, revealed: bool, show_counts: bool) -> str:
    """The options, numbered as the buttons; each with its number (a pair's score and how it is reckoned, a token's
    loss increase) once revealed, a WordPiece pair's counts alone when ``show_counts``, else ``?``; after the reveal
    the right option, the tied ones and the pick are marked. The table's id is the quiz's (its style)."""
    body = []
    for i, o in enumerate(q.options):
        classes, badges = option_marks(o, i == pick, revealed)
        if revealed:
            value = value_text(q, o, tr())
        elif show_counts and o.counts:
            value = counts_text(o, tr())
        else:
            value = "?"
        body.append(
            f"<tr class='{' '.join(classes)}' data-option='{i + 1}'><td class='num'><kbd>{i + 1}</kbd></td>"
            f"<td class='pair' style='white-space:nowrap'>{_chips(run, o)}</td>"
            f"<td class='num count'>{esc_raw(value)}</td><td>{''.join(badges)}</td></tr>"
        )
    what, number = (_("Pair"), _("Score")) if q.kind == "wordpiece" else (_("Token"), _("Loss increase"))
    head = "".join(f"<th>{esc_raw(h)}</th>" for h in (_("key"), what, number, ""))
    return f"<table class='bpe-table' id='bpe-quiz-pairs'><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _corpus_html(run, step: int, limit: int) -> str:
    """The first ``limit`` word types after ``step`` steps, as the run splits them (nothing marked: what the next step
    changes is the question); the columns are the BPE question's (:func:`ui.quiz.corpus_html`)."""
    n = min(limit, len(run.words))
    body = "".join(
        f"<tr><td class='word'>{esc(run.words[i])}</td><td class='num'>{run.freqs[i]:,}</td><td>"
        + " ".join(f"<code>{esc(run.token_text(t))}</code>" for t in run.segmentation(i, step))
        + "</td></tr>"
        for i in range(n)
    )
    more = ""
    if len(run.words) > n:
        more = "<p class='bpe-muted'>{}</p>".format(
            esc_raw(
                ngettext("The first {shown} of {n} word type.", "The first {shown} of {n} word types.", len(run.words))
            ).format(shown=f"{n:,}", n=f"{len(run.words):,}")
        )
    head = "".join(
        f"<th>{esc_raw(h)}</th>"
        for h in (_("word"), _("freq"), _("segmentation after step {step}").format(step=f"{step:,}"))
    )
    return f"<table class='bpe-table' id='bpe-quiz-corpus'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{more}"


def question_view(state, run, step: int, mode: str, present: bool) -> None:
    """The open (or closed, unrevealed) question on step ``step + 1``: the student's option buttons, the projector's
    answers, options and histogram. Replaces the step's view (which would give the answer away)."""
    tally = state.open_round
    q = question(run, tally.merge)
    title, rule = _title(q)
    st.html(f"<style>{cv._CSS}{QUIZ_CSS}</style>")
    st.html(
        f"<div class='bpe-quiz-q' id='bpe-class-question' data-merge='{tally.merge}' data-state='{tally.state}'>"
        f"{esc_raw(title)}</div><div class='bpe-muted'>{esc_raw(rule)}</div>"
    )
    labels = [f"{i + 1}. {_label(run, o)}" for i, o in enumerate(q.options)]
    if cv.is_teacher():
        st.html(cr._answered_html(tally, state.students))
        left, right = st.columns([1, 1], gap="medium")
        with left:
            st.html(options_html(run, q, None, False, state.show_counts))
        with right:
            if state.show_histogram:
                cr.histogram(run, q, tally, mode, False, present, labels)
        st.html(_corpus_html(run, step, _WORDS))
        return
    mine = cv.classes().my_picks(state.code, st.session_state.get(cv.K_SID) or "").get(tally.merge)
    closed = tally.state != "open"
    if closed:
        st.info(_("Answers are closed: wait for the reveal."))
    with st.container(key="class-opts"):  # two columns on a phone (live_class.css): all of them on its first screen
        for i, o in enumerate(q.options):
            counts = ""
            if state.show_counts and o.counts:
                counts = " · " + counts_text(o, tr())
            st.button(
                labels[i] + counts,
                key=f"class-pick-{i}",
                on_click=cr._pick,
                args=(tally.merge, i),
                type="primary" if i == mine else "secondary",
                disabled=closed,
                width="stretch",
            )
    if mine is not None:
        st.caption(
            _("Your pick: {pair}. You may change it until the teacher closes the answers.").format(
                pair=_label(run, q.options[mine])
            )
        )
    st.html(_corpus_html(run, step, _PHONE_WORDS))


def answer_text(run, q: FieldQuestion) -> str:
    """The answer as the teacher's reveal states it (plain text)."""
    chosen = q.options[q.answer]
    if q.kind == "wordpiece":
        return _("Merge {merge} joins {pair}: score {score}, the highest.").format(
            merge=f"{q.merge:,}", pair=_label(run, chosen), score=value_text(q, chosen, tr())
        )
    return ngettext(
        "Round {round} removes {n} token, {token}: without it the loss grows by {increase}, the least.",
        "Round {round} removes {n} tokens, {token} among them: without it the loss grows by {increase}.",
        q.removed,
    ).format(round=f"{q.merge:,}", n=f"{q.removed:,}", token=_label(run, chosen), increase=f"{chosen.value:.4g}")


def reveal_view(state, run, tally, mode: str, present: bool, waits: bool) -> None:
    """A revealed question the class has not stepped past: the shares, the options with their numbers, the bars by
    grade (the teacher) or the student's own verdict. ``waits``: the student is at the teacher's step."""
    q = question(run, tally.merge)
    st.html(f"<style>{cv._CSS}{QUIZ_CSS}</style>")
    st.html(cr.shares_html(tally))
    labels = [f"{i + 1}. {_label(run, o)} · {number_text(q, o)}" for i, o in enumerate(q.options)]
    if cv.is_teacher():
        left, right = st.columns([1, 1], gap="medium")
        with left:
            st.html(f"<div class='bpe-card'><div class='verdict'>{esc_raw(answer_text(run, q))}</div></div>")
            st.html(options_html(run, q, None, True, True))
        with right:
            cr.histogram(run, q, tally, mode, True, present, labels)
        return
    mine = cv.classes().my_picks(state.code, st.session_state.get(cv.K_SID) or "").get(tally.merge)
    g = grade(q, mine)
    go_on = _("Your teacher moves the class on.") if waits else _("Press Next ▶ or the → key for the next step.")
    st.html(
        f"<div class='bpe-card bpe-quiz-verdict {g}' id='bpe-quiz-verdict' data-grade='{g}'>"
        f"<div class='verdict'>{esc_raw(verdict_text(run, q, mine, lambda o: _label(run, o), tr()))}</div>"
        f"<div class='bpe-muted'>{esc_raw(go_on)}</div></div>"
    )
    st.html(options_html(run, q, mine, True, True))
