"""A live class's question, its live histogram, the reveal and the end-of-class summary (drawn on the step page).

The question is the quiz's (:func:`bpe_core.teaching.quiz.question`: the same shuffled pairs on every screen, as the seed is
the merge); the picks and tallies are the class's (:mod:`bpe_server.live_class`). Students pick with large buttons (at
least 44 px tall, every pair the question offers, none behind an expander: a pair tied at the top hidden there could
not be picked on a phone); the projector shows how many answered and, when the teacher chooses, a bar per pair.
While the question is open no screen shows the pairs' counts (the largest would be the answer) unless the teacher
turns them on (Display: "Show pair counts", kept with the class); the reveal shows them.
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from bpe_core import TrainedRun
from bpe_core.teaching import field_class
from bpe_core.teaching.class_results import ranking
from bpe_core.teaching.quiz import not_asked, question
from bpe_server.live_class import RIGHT, TIED, WRONG, ClassError, ClassState, Tally, option_grades
from bpe_server.store_db import StoreUnavailable

from . import class_join
from . import class_view as cv
from .chips import token_label
from .explain import merge_reason
from .i18n import _, join_list, ngettext, pgettext, tr
from .links import unavailable_message
from .panels import merge_line_html
from .quiz import corpus_html, options_html, verdict_html
from .text import esc_raw


def _pair(run: TrainedRun, o, mode: str) -> str:
    return _("{left} + {right}").format(left=token_label(run, o.left, mode), right=token_label(run, o.right, mode))


# ------------------------------------------------------------------------------------ teacher
def _ask(run: TrainedRun, step: int) -> None:
    q = (field_class.question if field_class.is_field_run(run) else question)(run, step + 1)
    if q is None:  # the next step's kind has no question (not a merge): nothing is asked
        return
    grades = option_grades(q)
    cv._teacher_do(lambda c, k: cv.classes().ask(c, k, grades))


def teacher_controls(state: ClassState, run: TrainedRun, step: int, present: bool) -> None:
    """The teacher's row: join code and QR, students and answers, Ask / Close / Reveal, display choices, End."""
    st.html(f"<style>{cv._CSS}</style>")
    pending = state.open_round
    with st.expander(_("Join: code, link and QR code"), expanded=pending is None and step == 0):
        st.html(class_join.join_html(state.code, big=present))
    cols = st.columns([2.2, 1.6, 1.6, 1.6, 1.4], vertical_alignment="center")
    joined = ngettext("{n} student joined", "{n} students joined", state.students).format(n=f"{state.students:,}")
    cols[0].html(
        f"<div class='bpe-class-status' id='bpe-class-status' data-students='{state.students}'>"
        f"<b>{esc_raw(state.code)}</b> · {esc_raw(joined)}</div>"
    )
    if state.ended:
        return
    why = not_asked(run, step + 1, tr()) if pending is None and step < run.num_steps else None
    if pending is None:
        cols[1].button(
            _("Ask the class"),
            key="class-ask",
            on_click=_ask,
            args=(run, step),
            type="primary",
            disabled=step >= run.num_steps or why is not None,
            help=_("Open a question on the next round: no screen shows it until you reveal.")
            if getattr(run.config, "algorithm", "bpe") == "unigram"
            else _("Open a question on the next merge: no screen shows it until you reveal."),
        )
    elif pending.state == "open":
        cols[1].button(
            _("Close answers"),
            key="class-close",
            on_click=lambda: cv._teacher_do(lambda c, k: cv.classes().close(c, k)),
        )
    else:
        cols[1].button(
            _("Reopen answers"),
            key="class-reopen",
            on_click=lambda: cv._teacher_do(lambda c, k: cv.classes().reopen(c, k)),
        )
    if why:  # (a merge SuperBPE's stage 2 replays: asking would be unfair)
        st.caption(why)
    cols[2].button(
        _("Reveal"),
        key="class-reveal",
        disabled=pending is None,
        type="primary",
        on_click=lambda: cv._teacher_do(lambda c, k: cv.classes().reveal(c, k)),
    )
    with cols[3].popover(_("Display")):
        for flag, label in (
            ("show_counts", _("Show pair counts")),
            ("show_histogram", _("Show live answers")),
            ("show_ranking", _("Public ranking at the end")),
            ("show_names", _("Nicknames in the ranking")),
        ):
            st.session_state[f"w.class.{flag}"] = getattr(state, flag)
            st.toggle(label, key=f"w.class.{flag}", on_change=cv.set_display, args=(flag,))
    with cols[4].popover(_("More")):
        st.warning(_("The teacher link lets anyone who has it run this class. Do not project it or share it."))
        if st.toggle(_("Show the teacher link"), key="class-show-key"):
            st.code(class_join.teacher_url(state.code, st.session_state.get(cv.K_KEY) or ""), language=None)
        st.button(_("End the class"), key="class-end", on_click=cv._end)


# ------------------------------------------------------------------------------------ students
def _pick(merge: int, option: int) -> None:
    try:
        cv.classes().pick(cv.code(), st.session_state.get(cv.K_SID) or "", merge, option)
    except (ClassError, ValueError):
        st.toast(cv.refused_message())
    except StoreUnavailable:
        st.toast(unavailable_message())


def student_bar(state: ClassState, step: int) -> None:
    """Who the student is in the class, and "Follow the teacher" when stepping on their own."""
    st.html(f"<style>{cv._CSS}</style>")
    me = state.me  # read with the class's state (:func:`ui.class_view.prepare_step`)
    name = (me[1] or _("Student {n}").format(n=me[0])) if me else ""
    text = _("Class {code} · you are {name}").format(code=state.code, name=name)
    cols = st.columns([3, 2], vertical_alignment="center")
    cols[0].html(f"<div class='bpe-class-status' id='bpe-class-status'>{esc_raw(text)}</div>")
    following = cv.following()
    if not following and not state.ended:
        cols[1].button(_("Follow the teacher"), key="class-follow", on_click=cv._follow, type="primary")
    elif not state.ended:
        cols[1].caption(_("Following the teacher"))


# ------------------------------------------------------------------------------------ the question
def histogram(
    run: TrainedRun, q, tally: Tally, mode: str, revealed: bool, present: bool = False, labels: list | None = None
) -> None:
    """A bar per option (its picks), in the order shown; after the reveal the bars are coloured by grade. ``present``:
    labels large and dark enough for the back of a room. ``labels``: the bars' names (default: a BPE question's
    numbered pairs, with their counts once revealed)."""
    size = 22 if present else 16
    # The counts only once revealed: while the question is open they would be its answer.
    labels = labels or [
        f"{i + 1}. {_pair(run, o, mode)}" + (f" · {o.count:,}" if revealed else "") for i, o in enumerate(q.options)
    ]
    names = {RIGHT: pgettext("quiz verdict", "right"), TIED: _("tied"), WRONG: _("wrong")}
    frame = pd.DataFrame(
        {"pair": labels, "picks": list(tally.counts), "grade": [names[g] if revealed else "" for g in tally.grades]}
    )
    colour = (
        alt.Color(
            "grade:N", title=None, scale=alt.Scale(domain=list(names.values()), range=["#228833", "#ccbb44", "#ee6677"])
        )
        if revealed
        else alt.value("#4477aa")
    )
    chart = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            y=alt.Y(
                "pair:N", sort=labels, title=None, axis=alt.Axis(labelFontSize=size, labelLimit=400, labelColor="#222")
            ),
            x=alt.X(
                "picks:Q",
                title=_("picks"),
                axis=alt.Axis(format="d", tickMinStep=1, labelFontSize=size, titleFontSize=size, labelColor="#222"),
            ),
            color=colour,
            tooltip=["pair", "picks"],
        )
        .properties(height=(44 if present else 36) * len(labels))
    )
    st.altair_chart(chart, width="stretch")


def _answered_html(tally: Tally, students: int) -> str:
    text = _("{n} of {m} answered").format(n=f"{tally.answered:,}", m=f"{students:,}")
    counts = ",".join(map(str, tally.counts))
    return (
        f"<div class='bpe-class-answered' id='bpe-class-answered' data-answered='{tally.answered}' "
        f"data-counts='{counts}'>{esc_raw(text)}</div>"
    )


def shares_html(tally: Tally) -> str:
    """Right / tied / wrong shares of a revealed round, in words (with ``data-`` counts for tests)."""
    text = _("Right {right} · tied {tied} · wrong {wrong} (of {n})").format(
        **{g: f"{tally.share(g):.0%}" for g in (RIGHT, TIED, WRONG)}, n=f"{tally.answered:,}"
    )
    data = " ".join(f"data-{g}='{tally.graded(g)}'" for g in (RIGHT, TIED, WRONG))
    return f"<div class='bpe-class-shares' id='bpe-class-shares' {data}>{esc_raw(text)}</div>"


def question_view(state: ClassState, run: TrainedRun, step: int, mode: str, present: bool) -> None:
    """The open (or closed, unrevealed) question on merge ``step + 1``: the student's pair buttons, the projector's
    answers and histogram. Replaces the merge card (which would give the answer away)."""
    tally = state.open_round
    q = question(run, tally.merge)
    title = _("Which pair does merge {merge} join?").format(merge=f"{tally.merge:,}")
    st.html(
        f"<div class='bpe-quiz-q' id='bpe-class-question' data-merge='{tally.merge}' data-state='{tally.state}'>"
        f"{esc_raw(title)}</div>"
    )
    if cv.is_teacher():
        st.html(_answered_html(tally, state.students))
        left, right = st.columns([1, 1], gap="medium")
        with left:
            st.html(options_html(run, q, None, False, state.show_counts, mode, present))
        with right:
            if state.show_histogram:
                histogram(run, q, tally, mode, False, present)
        st.html(corpus_html(run, step, mode, present, 6 if present else 20))
        return
    mine = cv.classes().my_picks(state.code, st.session_state.get(cv.K_SID) or "").get(tally.merge)
    closed = tally.state != "open"
    if closed:
        st.info(_("Answers are closed: wait for the reveal."))

    def button(i, o):
        count = f" · {o.count:,}" if state.show_counts else ""
        st.button(
            f"{i + 1}. {_pair(run, o, mode)}{count}",
            key=f"class-pick-{i}",
            on_click=_pick,
            args=(tally.merge, i),
            type="primary" if i == mine else "secondary",
            disabled=closed,
            width="stretch",
        )

    with st.container(key="class-opts"):  # two columns on a phone (live_class.css): all of them on its first screen
        for i, o in enumerate(q.options):
            button(i, o)
    if mine is not None:
        st.caption(
            _("Your pick: {pair}. You may change it until the teacher closes the answers.").format(
                pair=_pair(run, q.options[mine], mode)
            )
        )
    st.html(corpus_html(run, step, mode, present, 6))


def reveal_view(state: ClassState, run: TrainedRun, tally: Tally, mode: str, present: bool, waits: bool) -> None:
    """A revealed question the class has not stepped past: the shares, the bars by grade, and (a student) their
    own verdict and the pairs with their counts, or (the teacher) the merge and why. ``waits``: the student is at
    the teacher's step (no Next to press: the verdict says the teacher moves on)."""
    q = question(run, tally.merge)
    st.html(shares_html(tally))
    if cv.is_teacher():
        left, right = st.columns([1, 1], gap="medium")
        with left:
            reason = esc_raw(merge_reason(run, tally.merge, mode))
            st.html(
                f"<div class='bpe-card'>{merge_line_html(run, tally.merge, mode, present)}"
                f"<div class='bpe-reason'>{reason}</div></div>"
            )
        with right:
            histogram(run, q, tally, mode, True, present)
        return
    mine = cv.classes().my_picks(state.code, st.session_state.get(cv.K_SID) or "").get(tally.merge)
    st.html(verdict_html(run, q, mine, mode, present, _("Your teacher moves the class on.") if waits else None))
    st.html(options_html(run, q, mine, True, True, mode, present))


# ------------------------------------------------------------------------------------ the summary
def summary_view(state: ClassState, run: TrainedRun, mode: str) -> None:
    """The end of the class: per merge (a Unigram class: per round) the shares right / tied / wrong, the hardest
    ones, the student's own score (a student), and the CSV and (when turned on) the ranking (the teacher's screen)."""
    got = cv.classes().summary(state.code)
    rounds = getattr(run.config, "algorithm", "bpe") == "unigram"  # its steps are pruning rounds, not merges
    st.subheader(_("The class is over: summary"))
    if not got.rounds:
        st.caption(_("No question was asked."))
    else:
        rows = [
            {
                (_("round") if rounds else _("merge")): t.merge,
                _("answered"): t.answered,
                pgettext("quiz verdict", "right"): f"{t.share(RIGHT):.0%}",
                _("tied"): f"{t.share(TIED):.0%}",
                _("wrong"): f"{t.share(WRONG):.0%}",
            }
            for t in got.rounds
        ]
        st.dataframe(pd.DataFrame(rows), hide_index=True)
        hard = join_list(str(t.merge) for t in got.hardest)
        if hard:
            if rounds:
                text = _("Hardest rounds: {rounds}").format(rounds=hard)
            else:
                text = _("Hardest merges: {merges}").format(merges=hard)
            st.html(f"<div id='bpe-class-hardest'>{esc_raw(text)}</div>")
    sid = st.session_state.get(cv.K_SID)
    if not cv.is_teacher() and sid:
        me = cv.classes().my_score(state.code, sid)
        if me is not None:
            text = _("Your score: {right} of {asked} right ({tied} tied)").format(
                right=me.right, asked=me.answered, tied=me.tied
            )
            st.html(
                f"<div class='bpe-quiz-score' id='bpe-class-score' data-right='{me.right}' "
                f"data-asked='{me.answered}'>{esc_raw(text)}</div>"
            )
    if cv.is_teacher() or state.show_ranking:
        if cv.is_teacher():
            st.download_button(
                _("Download the tallies (CSV)"),
                cv.classes().csv_text(state.code),
                file_name=f"class-{state.code}.csv",
                mime="text/csv",
            )
        if state.show_ranking and got.students:
            ranked = ranking(got.students)
            st.dataframe(
                pd.DataFrame(
                    [
                        {
                            _("student"): (
                                s.nickname if state.show_names and s.nickname else _("Student {n}").format(n=s.number)
                            ),
                            pgettext("quiz verdict", "right"): s.right,
                            _("answered"): s.answered,
                        }
                        for s in ranked
                    ]
                ),
                hide_index=True,
            )
    if not cv.is_teacher():
        st.button(_("Leave the class"), key="class-leave", on_click=cv._leave)


# ------------------------------------------------------------------------------------ the stepper page's class parts
def bar(klass, run, step: int, present: bool) -> None:
    """A live class's row above the step control: the teacher's controls, or who the student is."""
    cv.view_marker(klass)
    try:
        if cv.is_teacher():
            teacher_controls(klass, run, step, present)
        else:
            student_bar(klass, step)
    except StoreUnavailable:  # it went down since the class was read: say so, keep stepping
        st.error(unavailable_message())


def step_part(klass, run, step: int, mode: str, present: bool, limit: int | None = None, views=None) -> bool:
    """A live class's part of the step: the summary once it ended, an unrevealed question instead of the step's
    panels (returns True: nothing else is drawn, the merge would give the answer away), a revealed one above them.
    ``limit``: the last step this screen may reach (:func:`ui.class_view.step_limit`). ``views``: the module that
    draws the question and the reveal (``question_view``, ``reveal_view``), default this one's (a BPE run's; a
    WordPiece or Unigram run's is :mod:`ui.class_field`)."""
    ask, show = (views.question_view, views.reveal_view) if views is not None else (question_view, reveal_view)
    try:
        if klass.ended:
            summary_view(klass, run, mode)
            return False
        if klass.open_round is not None:
            ask(klass, run, step, mode, present)
            return True
        # Read only when merge step + 1 was revealed: most steps had no question.
        revealed = cv.classes().tally(klass.code, step + 1) if step + 1 in klass.revealed else None
        if revealed is not None and revealed.state == "revealed":
            waits = not cv.is_teacher() and limit is not None and step >= limit
            show(klass, run, revealed, mode, present, waits)
    except StoreUnavailable:  # it went down since the class was read: say so (an unrevealed merge stays hidden)
        st.error(unavailable_message())
        return True
    return False
