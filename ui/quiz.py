"""Predict the next merge: the stepper page's quiz mode (``?quiz=1`` or the toggle).

At step ``s`` the class sees the corpus after ``s`` merges and the pairs merge ``s + 1`` chooses from
(:func:`bpe_core.teaching.quiz.question`: shuffled, counts shown or hidden). A pick is a click on a pair's
button or its number key (1-9, the buttons' ``shortcut``); Reveal (or Enter) grades it, shows the
true counts, the tied pairs and the rule that chose (:func:`bpe_core.teaching.quiz.reveal_text` and the merge
explanation of :func:`ui.explain.merge_reason`); the stepper's Next (→) goes on. Grades stay in the
session, one per run and merge, so going back to an answered merge shows it answered and the score
(right, tied, wrong: :func:`bpe_core.teaching.quiz.score`) counts each merge once.

The mode lives in the session (``quiz.on``) and in the URL (``quiz=1``); its state is :mod:`ui.persist`'s and its
switch the stepper page's (drawn on every step without loading this module). :func:`ui.sidebar.write_url` rewrites
the whole query string without it, so :func:`panel` puts it back after that call (see
:func:`ui.persist.quiz_url_param` for the line that makes this unnecessary).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from bpe_core import TrainedRun
from bpe_core.teaching.quiz import Question, grade, not_asked, question, reveal_text, score, score_text

from . import persist
from .chips import MAX_CHIPS, chip_html, chips_html, token_label
from .explain import merge_reason, stop_reason_text
from .i18n import _, ngettext, tr
from .panels import merge_line_html
from .persist import keep_quiz_in_url
from .settings import Display
from .text import clip, esc, esc_raw, md_escape

K_COUNTS = "quiz.counts"
# Picks not yet revealed, and revealed grades: {(run signature, merge): option index} / (index, grade).
K_PICKS, K_ANSWERS = "quiz.picks", "quiz.answers"
_CSS = (Path(__file__).resolve().parent / "static" / "quiz.css").read_text(encoding="utf-8")


# ------------------------------------------------------------------------------------ state
def _signature(run: TrainedRun) -> tuple:
    """Identifies a run's questions across reruns (not the run object: the cache may retrain it)."""
    return (run.config, run.num_words, run.corpus_tokens(0), run.num_steps)


def _table(name: str) -> dict:
    return st.session_state.setdefault(name, {})


def _pick(key: tuple, index: int) -> None:
    if key not in _table(K_ANSWERS):  # a revealed question keeps its pick
        _table(K_PICKS)[key] = index


def _reveal(key: tuple, q: Question) -> None:
    if key not in _table(K_ANSWERS):
        pick = _table(K_PICKS).pop(key, None)
        _table(K_ANSWERS)[key] = (pick, grade(q, pick))


def session_score():
    """The session's :class:`bpe_core.teaching.quiz.Score` (every run and merge answered so far)."""
    return score(g for _, g in _table(K_ANSWERS).values())


# ------------------------------------------------------------------------------------ drawing
def corpus_html(run: TrainedRun, step: int, mode: str, presentation: bool, limit: int) -> str:
    """The corpus after ``step`` merges in its first-appearance order: word, frequency, segmentation.
    Unlike the stepper's corpus table nothing is marked: what the next merge changes is the question."""
    rows = run.corpus_view(step, limit=limit, max_tokens=MAX_CHIPS)
    body = "".join(
        f"<tr><td class='word'>{esc(clip(r.word))}</td><td class='num'>{r.freq:,}</td>"
        f"<td>{chips_html(run, r.tokens, mode, None, presentation, total=r.num_tokens)}</td></tr>"
        for r in rows
    )
    more = ""
    if run.num_words > len(rows):
        more = "<p class='bpe-muted'>{}</p>".format(
            esc_raw(
                ngettext("The first {shown} of {n} word type.", "The first {shown} of {n} word types.", run.num_words)
            ).format(shown=f"{len(rows):,}", n=f"{run.num_words:,}")
        )
    head = "<thead><tr><th>{}</th><th>{}</th><th>{}</th></tr></thead>".format(
        esc_raw(_("word")), esc_raw(_("freq")), esc_raw(_("segmentation after step {step}").format(step=f"{step:,}"))
    )
    return f"<table class='bpe-table' id='bpe-quiz-corpus'>{head}<tbody>{body}</tbody></table>{more}"


def option_marks(option, picked: bool, revealed: bool) -> tuple[list[str], list[str]]:
    """An answer row's CSS classes and badges (HTML): the pick always, and after the reveal whether ``option`` (with
    ``chosen`` and ``tied``) is the rule's answer or tied with it. Shared by every quiz table (BPE's and the
    WordPiece/Unigram class's)."""
    # Outside the f-strings below: the message extractor does not look inside them.
    your_pick, chosen, tied = esc_raw(_("your pick")), esc_raw(_("chosen")), esc_raw(_("tied"))
    classes, badges = [], []
    if picked:
        classes.append("picked")
        badges.append(f"<span class='bpe-badge pick'>{your_pick}</span>")
    if revealed and option.chosen:
        classes.append("chosen")
        badges.insert(0, f"<span class='bpe-badge chosen'>{chosen}</span>")
    elif revealed and option.tied:
        badges.insert(0, f"<span class='bpe-badge tied'>{tied}</span>")
    return classes, badges


def options_html(
    run: TrainedRun, q: Question, pick: int | None, revealed: bool, show_counts: bool, mode: str, presentation: bool
) -> str:
    """The pairs offered, numbered 1-9 as the keys that pick them. Counts are ``?`` until the reveal
    unless ``show_counts``. After the reveal the rule's pair, the tied ones and the pick are marked."""
    body = []
    for i, o in enumerate(q.options):
        classes, badges = option_marks(o, i == pick, revealed)
        count = f"{o.count:,}" if revealed or show_counts else "?"
        body.append(
            f"<tr class='{' '.join(classes)}' data-option='{i + 1}'><td class='num'><kbd>{i + 1}</kbd></td>"
            f"<td class='pair'>{chip_html(run, o.left, mode, presentation)} + "
            f"{chip_html(run, o.right, mode, presentation)}</td>"
            f"<td class='num count'>{count}</td><td>{''.join(badges)}</td></tr>"
        )
    head = "<thead><tr><th>{}</th><th>{}</th><th>{}</th><th></th></tr></thead>".format(
        esc_raw(_("key")), esc_raw(_("pair")), esc_raw(_("count"))
    )
    return f"<table class='bpe-table' id='bpe-quiz-pairs'>{head}<tbody>{''.join(body)}</tbody></table>"


def verdict_html(
    run: TrainedRun, q: Question, pick: int | None, mode: str, presentation: bool, go_on: str | None = None
) -> str:
    """The reveal: right / tied / wrong in a sentence, the merge in chips, and why the merge was chosen
    (its count, the words holding it, the tie and the rule that broke it), then how to go on: ``go_on`` (plain
    text; a live class's student at the teacher's step has no Next to press), by default press Next."""
    g = grade(q, pick)
    label = lambda t: token_label(run, t, mode)  # noqa: E731
    verdict = esc_raw(reveal_text(q, pick, label, tr()))
    reason = esc_raw(merge_reason(run, q.merge, mode))
    go_on = esc_raw(go_on or _("Press Next ▶ or the → key for the next merge."))
    if q.merge >= run.num_steps:
        go_on = esc_raw(_("This was the last merge of the run."))
    return (
        f"<div class='bpe-card bpe-quiz-verdict {g}' id='bpe-quiz-verdict' data-grade='{g}'>"
        f"<div class='verdict'>{verdict}</div>{merge_line_html(run, q.merge, mode, presentation)}"
        f"<div class='bpe-reason'>{reason}</div><div class='bpe-muted'>{go_on}</div></div>"
    )


def _score_html() -> str:
    s = session_score()
    return (
        f"<div class='bpe-quiz-score' id='bpe-quiz-score' data-right='{s.right}' data-tied='{s.tied}' "
        f"data-wrong='{s.wrong}' data-asked='{s.asked}'>{esc_raw(score_text(s, tr()))}</div>"
    )


def panel(run: TrainedRun, step: int, display: Display) -> None:
    """The quiz at ``step``: which pair does merge ``step + 1`` join? Draws the question, the pick
    buttons (number keys 1-9), Reveal (Enter), the verdict and the session's score."""
    mode, present = display.byte_mode, display.presentation
    keep_quiz_in_url(True)
    st.html(f"<style>{_CSS}</style>")
    merge = step + 1
    top = st.columns([4.4, 2.6, 2.2, 2.6], vertical_alignment="center")
    with top[3]:
        show_counts = st.toggle(
            _("Show counts"),
            key=persist.seeded(K_COUNTS, False),
            on_change=persist.keep,
            args=(K_COUNTS,),
            help=_("Hidden counts make the question harder."),
        )
    with top[1]:
        st.html(_score_html())
    if merge > run.num_steps:
        with top[0]:
            done = esc_raw(_("No merge left to guess."))
            st.html(f"<div class='bpe-quiz-q'>{done}</div>")
        st.html(f"<div class='bpe-reason'>{esc_raw(stop_reason_text(run))}</div>")
        return
    q = question(run, merge)
    if q is None:  # the next step's kind has no question (not a merge), or asking would be unfair: nothing is asked
        why = not_asked(run, merge, tr())
        if why:  # (full width, as the reason no merge is left: a sentence, not a question's title)
            st.html(f"<div class='bpe-reason' id='bpe-quiz-not-asked'>{esc_raw(why)}</div>")
        return
    with top[0]:
        title = _("Which pair does merge {merge} join?").format(merge=f"{merge:,}")
        st.html(f"<div class='bpe-quiz-q' id='bpe-quiz-question' data-merge='{merge}'>{esc_raw(title)}</div>")

    key = (_signature(run), merge)
    answer = _table(K_ANSWERS).get(key)
    revealed = answer is not None
    pick = answer[0] if revealed else _table(K_PICKS).get(key)

    with top[2]:
        st.button(
            _("Reveal"),
            key="quiz-reveal",
            shortcut="Enter",
            on_click=_reveal,
            args=(key, q),
            type="primary",
            disabled=revealed,
            help=_("Show the answer (Enter key)"),
        )

    left, right = st.columns([9, 8], gap="medium")
    with right:
        with st.container(horizontal=True, gap="xxsmall", key="quiz-keys"):
            for i, o in enumerate(q.options):
                pair = _("{left} + {right}").format(
                    left=token_label(run, o.left, mode), right=token_label(run, o.right, mode)
                )
                st.button(
                    str(i + 1),
                    key=f"quiz-pick-{i + 1}",
                    shortcut=str(i + 1),
                    on_click=_pick,
                    args=(key, i),
                    disabled=revealed,
                    type="primary" if i == pick else "secondary",
                    help=md_escape(_("Pick {pair} (key {key})").format(pair=pair, key=i + 1)),
                )
        st.html(options_html(run, q, pick, revealed, show_counts, mode, present))
        if not revealed and pick is None:
            st.caption(_("Pick a pair with its button or number key, then Reveal (Enter)."))
    with left:
        if revealed:
            st.html(verdict_html(run, q, pick, mode, present))
        st.html(corpus_html(run, step, mode, present, 6 if present else 25))
