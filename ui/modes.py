"""The stepper page's two modes as every step sees them while they are off: the quiz switch and a live class's way
in. A plain step draws these few widgets and reads a few session keys; the modes themselves (:mod:`ui.quiz`, the
quiz's panel; :mod:`ui.class_view`, :mod:`ui.class_round` and :mod:`ui.class_join`, a live class) are imported by
the page only once one is on, so a step outside them never loads them.

* **Quiz mode** lives in the session (``quiz.on``) and in the URL (``quiz=1``): :func:`quiz_enabled`,
  :func:`quiz_switch`, :func:`quiz_url_param`.
* **A live class**: its code is in the session (:data:`K_CODE`) and in the URL (``?class=CODE``, the join link);
  :func:`class_asked` says whether this run has anything to do with a class (then the page loads
  :mod:`ui.class_view`); :func:`start_box` draws "Start a class" and the join box (the start itself is
  :func:`ui.class_view.start`, passed in by the page).
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from bpe_server.live_class import PARAM, clean_nickname

from . import persist
from .i18n import _

# ------------------------------------------------------------------------------------ quiz mode
#: The URL parameter of the quiz mode.
QUIZ_PARAM = "quiz"
K_QUIZ, K_QUIZ_WIDGET = "quiz.on", "w.quiz.on"
_TRUE = ("1", "true", "yes", "on")


def quiz_enabled() -> bool:
    """True in quiz mode: ``?quiz=1`` in the URL wins (and is remembered), else the session's toggle."""
    ss = st.session_state
    raw = st.query_params.get(QUIZ_PARAM)
    if raw is not None:
        on = raw.strip().lower() in _TRUE
        ss[K_QUIZ] = on
        return on
    return bool(ss.get(K_QUIZ, False))


def quiz_url_param() -> dict[str, str]:
    """``{"quiz": "1"}`` in quiz mode, else ``{}``: for :func:`ui.sidebar.url_params` to merge in
    (``params.update(modes.quiz_url_param())``), like the interface language."""
    return {QUIZ_PARAM: "1"} if quiz_enabled() else {}


def keep_quiz_in_url(on: bool) -> None:
    """Put ``quiz=1`` back into the URL (and into the sidebar's record of what it last wrote, so the
    next run does not read the URL as a new link) or take it out."""
    last = persist.ss().get(persist.K_URL)
    if on:
        if st.query_params.get(QUIZ_PARAM) != "1":
            st.query_params[QUIZ_PARAM] = "1"
        if isinstance(last, dict):
            last[QUIZ_PARAM] = "1"
    else:
        if QUIZ_PARAM in st.query_params:
            del st.query_params[QUIZ_PARAM]
        if isinstance(last, dict):
            last.pop(QUIZ_PARAM, None)


def _quiz_switched() -> None:
    st.session_state[K_QUIZ] = bool(st.session_state[K_QUIZ_WIDGET])
    keep_quiz_in_url(st.session_state[K_QUIZ])


def quiz_switch(container=None) -> bool:
    """Draw the quiz toggle (in ``container``, default here) and return whether quiz mode is on.
    Call it before :func:`ui.sidebar.write_url` (which drops ``quiz=1`` from the URL; :func:`ui.quiz.panel`
    puts it back)."""
    on = quiz_enabled()
    st.session_state[K_QUIZ_WIDGET] = on
    (container if container is not None else st).toggle(
        _("Quiz: predict the next merge"),
        key=K_QUIZ_WIDGET,
        on_change=_quiz_switched,
        help=_("The class sees the pairs before each merge and picks the one that merges next."),
    )
    return on


# ------------------------------------------------------------------------------------ a live class's way in
K_CODE, K_KEY, K_MSG, K_NICK, K_WHOLE = "class.code", "class.key", "class.msg", "class.nick", "class.whole_page"


def class_code() -> str | None:
    """The class this session is in, or ``None``."""
    return st.session_state.get(K_CODE)


def is_teacher() -> bool:
    """True when this session teaches its class (it holds the class's teacher key)."""
    return bool(class_code() and st.session_state.get(K_KEY))


def class_url_param() -> dict[str, str]:
    """``{"class": CODE}`` while in a class (for :func:`ui.sidebar.url_params`), else ``{}``."""
    return {PARAM: class_code()} if class_code() else {}


def class_asked() -> bool:
    """Whether this run has anything to do with a live class: ``?class=`` in the URL, a class joined or started, a
    message about one to show, or a class just left (the page reruns whole). Else the page draws no class and loads
    none of its modules."""
    ss = st.session_state
    return PARAM in st.query_params or bool(class_code()) or bool(ss.get(K_MSG)) or K_WHOLE in ss


def _join_clicked() -> None:
    raw = st.session_state.get("w.class.join.code", "")
    st.session_state[K_NICK] = clean_nickname(st.session_state.get("w.class.join.nick", ""))
    st.query_params[PARAM] = raw.strip()[:40]


def join_box(expanded: bool = False) -> None:
    """The "Join a class" box: the code and an optional nickname."""
    with st.expander(_("Join a class"), expanded=expanded):
        with st.form("class-join", border=False):
            st.text_input(_("Class code"), key="w.class.join.code", max_chars=12, placeholder="K7QX2M")
            st.text_input(
                _("Nickname (optional)"),
                key="w.class.join.nick",
                max_chars=24,
                help=_("Shown to the teacher; without one you are “Student” and a number."),
            )
            st.form_submit_button(_("Join"), on_click=_join_clicked, type="primary")


def start_box(params: dict, step: int, start: Callable[[dict, int], None], join_open: bool = False) -> None:
    """Outside a class: "Start a class" on the page's corpus, settings and step (``params``: the page's URL
    parameters; ``start(params, step)``: the button's callback, :func:`ui.class_view.start`), and the join box
    (``join_open``: drawn open, after a bad code)."""
    with st.expander(_("Live class")):
        st.caption(
            _(
                "Students follow your steps on their own screens and answer together. They join with a "
                "code, a link or a QR code."
            )
        )
        st.button(_("Start a class"), key="class-start", on_click=start, args=(params, step), type="primary")
    join_box(expanded=join_open)
