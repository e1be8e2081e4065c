"""A live class on the stepper page: start, join, follow the teacher.

The rules (who may do what, rounds, picks, expiry) are :mod:`bpe_server.live_class`; this module draws them. The
teacher's controls and the questions are :mod:`ui.class_round`'s, the join link and its QR code
:mod:`ui.class_join`'s.

* **Who is who.** The class code travels in the URL (``?class=CODE``: the join link). The teacher key and a
  student's id are kept by the browser in cookies (``st.context.cookies`` reads them when a tab opens), so a reload
  finds the class as it was; the key is never in the URL or on the page. A "teacher link" (code + key) is drawn
  only on request, to resume on another device.
* **Following.** The class moves the step through the stepper's own hooks (:class:`ClassStep`, the ``store`` of
  :func:`ui.stepper.step_controls`; ``limit`` (:func:`step_limit`): nobody's step passes an unrevealed question,
  :attr:`bpe_server.class_state.ClassState.limit`, and no student's passes the teacher's). The teacher's presses
  move the class; a student's step is the class's while "following", a press of the stepper's buttons (back: ahead
  of the teacher there is nothing to press) stops following, "Follow the teacher" starts it again.
* **Polling** (Streamlit cannot push). The app's class script (``static/live_class.js``) asks the class's version
  about twice a second from a small HTTP endpoint (:mod:`bpe_server.class_poll`: one primary-key read, no script
  run), compares it with the version the step view was drawn at and, when the class is newer, presses the step
  view's hidden "sync" button: only the step view reruns, not the page. Served without that endpoint (``streamlit
  run app.py``, ``AppTest``), a small fragment reruns every :data:`POLL_S` seconds instead and draws the same
  answer. Presses that go unanswered (a tab whose websocket reconnected to a new session, after a replica restart)
  make the script press the page's hidden "resync" button (a whole-page rerun) instead; a screen whose step view is
  still not redrawn after 12 s reloads, at most once a minute: the code in the address and the cookies bring it
  back to the class as it is.
* **The store unreachable.** The step view then draws its marker at ``unreachable`` (:func:`view_marker`), so the
  store's first answer is news to the class script and the step view reruns on its own; the teacher's screen keeps
  the class's last state meanwhile (a press the class cannot take is refused with :func:`not_taken_message`), and a
  tab asked to open a class keeps the code in the address (:data:`ui.persist.K_PENDING`) until it gets in.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import streamlit as st

from bpe_server import class_poll, cookie_route, corpus_store
from bpe_server.live_class import (
    PARAM,
    ClassError,
    Classes,
    ClassState,
    NotTeacher,
    UnknownClass,
    default_classes,
    is_student_id,
    new_student_id,
    normalize_code,
)
from bpe_server.live_class import signature as class_signature
from bpe_server.store_db import StoreUnavailable

from . import persist
from .class_cookie import cookie_script
from .class_join import TEACHER_PARAM
from .i18n import _
from .links import unavailable_message
from .persist import K_CODE, K_KEY, K_MSG, K_NICK, K_PENDING, K_WHOLE, is_teacher
from .persist import class_code as code
from .persist import class_url_param as url_param
from .text import esc_raw, md_escape

#: Seconds between two runs of the fallback polling fragment (without :mod:`bpe_server.class_poll`'s endpoint).
POLL_S = 0.75
STUDENT_COOKIE, _KEY_COOKIE = cookie_route.STUDENT_COOKIE, cookie_route.KEY_COOKIE  # the key's: + the class code
#: The message key (:data:`K_MSG`) of "the shared store is unreachable".
STORE_DOWN = "store-unreachable"
#: URL parameters of the teacher's page that are not the class's corpus and settings.
_NOT_CLASS = ("step", "lang", "quiz", "present", PARAM, TEACHER_PARAM)

K_SID, K_FOLLOW, K_COOKIE = "class.sid", "class.follow", "class.cookie"
#: The class's state as last read, and whether the step view shows it while the store is unreachable.
K_LAST, K_STALE = "class.last_state", "class.stale"
_JS = (Path(__file__).resolve().parent / "static" / "live_class.js").read_text(encoding="utf-8")
_CSS = (Path(__file__).resolve().parent / "static" / "live_class.css").read_text(encoding="utf-8")


def classes() -> Classes:
    """This server's classes (:func:`bpe_server.live_class.default_classes`, the poll endpoint's too)."""
    return default_classes()


def ss():
    return st.session_state


def _keep_in_url() -> None:
    # As ui.quiz does: the URL and the sidebar's record of what it last wrote both carry the code.
    last = persist.ss().get(persist.K_URL)
    want = url_param()
    for where in (st.query_params, last if isinstance(last, dict) else {}):
        if want:
            if where.get(PARAM) != want[PARAM]:
                where[PARAM] = want[PARAM]
        elif PARAM in where:
            del where[PARAM]


# ------------------------------------------------------------------------------------ entering a class
def enter() -> None:
    """Before the sidebar: act on ``?class=CODE`` (and a teacher link's ``teacher=KEY``). A new class's corpus and
    settings become the URL the sidebar adopts; a bad code leaves a message (:func:`messages`) and no class."""
    raw = st.query_params.get(PARAM)
    key = st.query_params.get(TEACHER_PARAM)
    if raw is None:
        if code():  # the URL lost the code (a page switch): the session stays in its class
            return
        return
    wanted = normalize_code(raw)
    if wanted is not None and wanted == code() and key is None:
        return
    try:
        state = classes().state(wanted) if wanted else None
    except StoreUnavailable:  # the code stays in the URL; the class script tries again when the store is back
        ss()[K_MSG], ss()[K_PENDING] = STORE_DOWN, wanted
        return
    except (UnknownClass, sqlite3.Error, OSError):
        state = None
    ss().pop(K_PENDING, None)
    if state is None:
        ss()[K_MSG] = raw[:40]
        for p in (PARAM, TEACHER_PARAM):
            if p in st.query_params:
                del st.query_params[p]
        return
    ss()[K_MSG] = None
    ss()[K_CODE], ss()[K_KEY], ss()[K_FOLLOW] = wanted, None, True
    key = key or st.context.cookies.get(_KEY_COOKIE + wanted)
    try:
        if key and classes().is_teacher(wanted, key):
            ss()[K_KEY] = key
            ss()[K_COOKIE] = (_KEY_COOKIE + wanted, key)
        else:
            if key and st.query_params.get(TEACHER_PARAM):
                ss()[K_MSG] = "teacher"
            _join_as_student(wanted)
    except StoreUnavailable:
        ss()[K_CODE] = ss()[K_KEY] = None
        ss()[K_MSG], ss()[K_PENDING] = STORE_DOWN, wanted
        return
    params = {k: v for k, v in state.params.items() if k not in _NOT_CLASS}
    # The tab's own language and presentation mode stay (a projector reconnecting after a server restart stays in
    # presentation mode); the class's step too: a teacher resuming from a teacher link must not send the class
    # back to step 0.
    own = {p: st.query_params[p] for p in ("lang", "present") if st.query_params.get(p)}
    extra = {"step": str(state.step), PARAM: wanted, **own}
    st.query_params.from_dict({**params, **extra})


def _join_as_student(wanted: str) -> None:
    sid = ss().get(K_SID) or st.context.cookies.get(STUDENT_COOKIE)
    if not is_student_id(sid):
        sid = new_student_id()
    ss()[K_SID] = sid
    ss()[K_COOKIE] = (STUDENT_COOKIE, sid)
    classes().join(wanted, sid, ss().pop(K_NICK, None))


def messages() -> bool:
    """After the title: why a class link did not open, or why a teacher link was refused. True after a bad code
    (the page then draws the code box open: the stepper page's ``start_box``)."""
    msg = ss().get(K_MSG)
    if not msg:
        return False
    ss()[K_MSG] = None
    if msg == STORE_DOWN:
        st.error(unavailable_message())
        return False
    if msg == "teacher":
        st.warning(_("This teacher link is not valid for this class: you joined as a student."))
        return False
    st.error(
        md_escape(
            _(
                "There is no class {code} on this server: the code is mistyped, or the class has ended "
                "or expired. Check the code and type it again."
            ).format(code=msg)
        )
    )
    return True


# ------------------------------------------------------------------------------------ starting and ending
def start(params: dict, step: int) -> None:
    """The callback of "Start a class" (the stepper page's ``start_box``): a class on ``params`` (the page's URL
    parameters) at ``step``, taught by this session."""
    params = {k: v for k, v in params.items() if k not in _NOT_CLASS}
    cid = params.get("corpus") if corpus_store.is_corpus_id(params.get("corpus", "")) else None
    try:
        new_code, key = classes().start(params, step, cid)
    except StoreUnavailable:
        ss()[K_MSG] = STORE_DOWN
        return
    ss()[K_CODE], ss()[K_KEY], ss()[K_FOLLOW] = new_code, key, True
    ss()[K_COOKIE] = (_KEY_COOKIE + new_code, key)
    _keep_in_url()


def _end() -> None:
    _teacher_do(lambda c, k: classes().end(c, k))


def _leave() -> None:
    ss()[K_CODE] = ss()[K_KEY] = ss()[K_PENDING] = None
    ss()[K_WHOLE] = True
    _keep_in_url()


# ------------------------------------------------------------------------------------ teacher actions
def refused_message() -> str:
    """What a person reads when the class did not take an action (its state changed meanwhile)."""
    return _("The class did not take this: it changed in the meantime (a question closed, the class ended).")


def _teacher_do(action):
    """Run a teacher action with the session's key and return what it returns; the server refuses one without it
    (shown, nothing changed; ``None`` returned)."""
    try:
        return action(code(), ss().get(K_KEY) or "")
    except NotTeacher:
        ss()[K_MSG] = "teacher"
    except (ClassError, ValueError):
        st.toast(refused_message())
    except StoreUnavailable:
        st.toast(not_taken_message())


def not_taken_message() -> str:
    """What the teacher reads when an action could not reach the class (the store is unreachable)."""
    return _(
        "The class did not take this: the shared store is unreachable. Your screen shows where the class is; "
        "try again once the store is back."
    )


def set_display(flag: str) -> None:
    value = bool(ss()[f"w.class.{flag}"])
    _teacher_do(lambda c, k: classes().set_display(c, k, **{flag: value}))


# ------------------------------------------------------------------------------------ following
class ClassStep:
    """The step store of a class tab (:class:`ui.stepper.StepStore`): the stepper's hooks are how a class sets the
    step, so there is one place that moves it.

    The teacher: the session's step, and every change is the class's step (the server clamps it to an unrevealed
    question; :meth:`bpe_server.live_class.Classes.set_step`). A student: the class's step (``state.step``, read on
    every run of the step view) while following; a press, a jump or a clamp switches to a step of their own (the
    session's step), and "Follow the teacher" (:func:`_follow`) switches back."""

    def __init__(self, state: ClassState):
        self.class_step = state.shown_step  # a clamp by the stepper would count as the student's own step

    def get(self) -> int:
        if following():
            return self.class_step
        return persist.get_step()

    def set(self, step: int) -> None:
        if is_teacher():
            got = _teacher_do(lambda c, k: classes().set_step(c, k, step))
            if got is None:  # refused (shown): the teacher's screen stays at the class's step
                return
            step = got
        else:
            ss()[K_FOLLOW] = False
        persist.set_step(step)


def prepare_step(num_steps: int) -> tuple[ClassState, ClassStep] | None:
    """At the start of the step view: the class's state and its step store (:class:`ClassStep`, for
    :func:`ui.stepper.step_controls` with ``limit=state.limit``). The teacher's session step moved elsewhere (the
    Side by side page shares it) moves the class. ``None`` outside a class, or when the class is gone (the session
    leaves it and says so)."""
    if ss().pop(K_WHOLE, False):
        st.rerun(scope="app")
    c = code()
    if not c:
        return None
    try:
        state = classes().state(c, None if is_teacher() else ss().get(K_SID))
    except StoreUnavailable:  # the session stays in its class; the class script reruns this when the store is back
        st.error(unavailable_message())
        ss()[K_STALE] = True
        last = ss().get(K_LAST)
        if is_teacher() and last is not None and last.code == c:
            # The teacher's screen stays at the class's step: a press the class cannot take is refused and said so.
            return last, ClassStep(last)
        _unreachable_marker()  # a student steps on their own meanwhile
        return None
    except UnknownClass:
        ss()[K_CODE] = ss()[K_KEY] = None
        ss()[K_MSG] = c
        _keep_in_url()
        return None
    ss()[K_LAST], ss()[K_STALE] = state, False
    store = ClassStep(state)
    if is_teacher() and not state.ended:
        step = persist.get_step()  # a class step beyond the merges trained here (a fresh server) is kept
        if step != state.step and min(step, num_steps) != state.step:
            store.set(min(step, num_steps))
            state = classes().state(c)
            store.class_step = state.shown_step
        persist.set_step(state.shown_step)
    elif following():
        persist.set_step(state.shown_step)  # the session's step (the URL, the other pages) is the one shown
    return state, store


def step_limit(state: ClassState) -> int | None:
    """The last step this screen may reach (``limit`` of :func:`ui.stepper.step_controls`; ``None``: the run's end).
    The teacher: never past an unrevealed question (:attr:`~bpe_server.class_state.ClassState.limit`). A student,
    following or not, until the class ends: never past the teacher's step (its
    :attr:`~bpe_server.class_state.ClassState.shown_step`), whose next merge the teacher may still ask about: their
    Next and Last stop there, and the steps sent ahead (:mod:`ui.step_ahead`) stop there too."""
    if is_teacher() or state.ended:
        return state.limit
    return state.shown_step


def signature(state: ClassState) -> str:
    """What a screen was drawn at: the version (the teacher's also counts picks and joins)."""
    return class_signature(state.version, state.activity, is_teacher())


def _follow() -> None:
    ss()[K_FOLLOW] = True


def _sync() -> None:
    """The hidden button the class script presses: its rerun of the step view is the update."""


def following() -> bool:
    """A student whose screen follows the teacher's step (not stepping on their own)."""
    return bool(code()) and not is_teacher() and ss().get(K_FOLLOW, True)


def view_marker(state: ClassState) -> None:
    """The step view's hidden marker (the version it shows; ``data-follow`` on a following student's screen, whose
    script may then show the teacher's new step from the steps sent ahead before the rerun brings the rest) and its
    hidden sync button."""
    follow = " data-follow='1'" if following() else ""
    sig = class_poll.UNREACHABLE if ss().get(K_STALE) else signature(state)  # any answer of the store is news
    st.html(f"<div id='bpe-class-view' data-sig='{sig}' data-step='{state.step}'{follow}></div>")
    st.button("sync", key="class-sync", on_click=_sync)


def _unreachable_marker() -> None:
    # The step view drawn without the class: the class script presses "sync" (here a rerun of the step view, or of
    # the page outside it) at the store's first answer.
    st.html(f"<div id='bpe-class-view' data-sig='{class_poll.UNREACHABLE}'></div>")
    st.button("sync", key="class-sync", on_click=_sync)


@st.fragment(run_every=POLL_S)
def _poll_fragment() -> None:
    """The fallback poll: the endpoint's answer (:func:`bpe_server.class_poll.answer`) drawn by a script run."""
    # "unreachable" too: the step view reruns and says so
    sig = class_poll.answer(code() or ss().get(K_PENDING), is_teacher())[1]["sig"]
    st.html(f"<div id='bpe-class-poll' data-sig='{sig}'></div>")


def poll() -> None:
    """The class script and what it polls, at the end of a class page (nothing outside a class): the endpoint's
    address (:func:`bpe_server.class_poll.poll_url`; never the teacher key) or, without the endpoint, the polling
    fragment."""
    c = code() or ss().get(K_PENDING)
    if not c:
        return
    st.html(f"<style>{_CSS}</style>")
    st.html(f"<script>{_JS}</script>", unsafe_allow_javascript=True)
    cookie = ss().pop(K_COOKIE, None)
    if cookie:
        cookie_script(cookie[0], cookie[1])
    url = class_poll.poll_url(c, is_teacher())
    if url is None:
        _poll_fragment()
    else:
        st.html(f"<div id='bpe-class-poll' data-url='{esc_raw(url)}'></div>")
    if not code():  # opened while the store was unreachable: the page reruns (and joins) at its first answer
        _unreachable_marker()
    st.button("resync", key="class-resync", on_click=_sync)  # the whole page's rerun (see static/live_class.js)
