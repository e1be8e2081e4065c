"""The one way values survive in a session: the sidebar's canonical state, widgets that keep
their value across reruns and page switches, the URLs the app lately wrote, and the state of the stepper page's two
modes (quiz mode and a live class: their session keys and URL parameters).

Streamlit forgets a widget's value when a run does not draw it (another page, an input error), and
gives a widget on another page a new identity. So every lasting value lives under its own session
key, and the widget (key ``w.<name>``) is re-seeded from it on every run::

    key = persist.seeded("pg.bbpe.text", DEFAULT)          # the widget key, seeded
    st.text_area("Text", key=key, on_change=persist.keep, args=("pg.bbpe.text",))
    text = persist.kept("pg.bbpe.text", DEFAULT)

The sidebar's values (corpus source, preset, texts, settings, step...) are the ``K_*`` keys below.

**Old URLs a page sends again** (:func:`note`, :func:`put_back_if_old`): the query string of a message from a page
that is one run behind.

Every message a page sends to the server carries the page's URL, and Streamlit puts it into
``st.query_params`` for the run it asks for. The app writes the session's state (corpus, settings, step)
into the URL at the end of each run (:func:`ui.sidebar.write_url`), and reads a URL it did not write as a
link to follow (:func:`ui.sidebar._sync_from_url`). A page that sends a message before it has taken in the
URL of the server's last run (a press while the step before is still on its way, autoplay switched off
as a step arrives: on a busy machine, often) sends a URL the app wrote one run earlier, and the session
went back to that step. Streamlit's own rule for widgets bound to the URL is the same as the one here:
after the first run the session's state wins over the URL, except on Back and Forward in the browser
(a history navigation), where the URL the user went to wins.

So the URLs the app wrote (or followed) lately are kept in the session, and a message that brings one of
them back, other than the latest and not from Back / Forward, gets the latest put back into
``st.query_params`` before anything reads it (:func:`put_back_if_old`, first thing in ``app.py``). A URL
the app never wrote (a link typed or pasted, a benchmark's client) is still followed.

**The stepper page's two modes** as every step sees them while they are off: a plain step reads a few session keys
here, and the page draws the quiz toggle and a class's start and join boxes; the modes themselves (:mod:`ui.quiz`,
the quiz's panel; :mod:`ui.class_view`, :mod:`ui.class_round` and :mod:`ui.class_join`, a live class) are imported by
the page only once one is on, so a step outside them never loads them.

* **Quiz mode** lives in the session (:data:`K_QUIZ`) and in the URL (``quiz=1``): :func:`quiz_enabled`,
  :func:`quiz_url_param`, :func:`keep_quiz_in_url`.
* **A live class**: its code is in the session (:data:`K_CODE`) and in the URL (``?class=CODE``, the join link);
  :func:`class_asked` says whether this run has anything to do with a class (then the page loads
  :mod:`ui.class_view`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from bpe_server.live_class import PARAM

from .i18n import _

W = "w."  #: prefix of a seeded widget's key
KEEP = "keep."  #: prefix of a seeded widget's lasting value
SEEDED_ON = "seeded_on."  #: prefix of the page a seeded widget was last set on

# The sidebar's canonical values.
K_SOURCE, K_PRESET, K_PASTE, K_WORDS, K_UPLOAD = "bpe.source", "bpe.preset", "bpe.paste", "bpe.words", "bpe.upload"
K_SETTINGS, K_PRESENT, K_STEP, K_URL = "bpe.settings", "bpe.present", "bpe.step", "bpe.url_last"
K_NOTES = "bpe.notes"
# The language mix trained on the Declaration (ui.language_training.mix_spec's text), when the source is "mix".
K_MIX = "bpe.mix"
# The text box a large text is open in for editing ("paste" or "words"), or None (see ui.sidebar).
K_EDITING = "bpe.editing"
# The corpus a link named but this server no longer has: ``(message, url_param)``, or ``None``.
K_LINK_GONE = "bpe.link_gone"
# The URL parameter naming the session's own text: ``(source, digest, {"corpus": id} or {"text": packed})``.
K_LINK_CACHE = "bpe.link_cache"


def ss():
    """The session's state (``st.session_state``)."""
    return st.session_state


def seed(name: str, value) -> str:
    """Set widget ``w.<name>`` to ``value`` (a canonical value kept elsewhere); return its key."""
    key = W + name
    state = st.session_state
    # Only when it differs, or on another page (where the widget is another one, drawn anew). A value set here
    # goes to the page as "set this widget", over what the page shows: a run the server started before the
    # user's click (a step of autoplay) then undid the click when it arrived (autoplay switched off came back
    # on), and the next message sent the old value back.
    ctx = get_script_run_ctx(suppress_warning=True)
    page = ctx.page_script_hash if ctx is not None else ""
    if state.get(SEEDED_ON + name) != page or key not in state or state[key] != value:
        state[key] = value
        state[SEEDED_ON + name] = page
    return key


def seeded(name: str, default) -> str:
    """The key of widget ``w.<name>``, seeded from its lasting value (``default`` on first use).
    Pass ``on_change=keep, args=(name,)`` to the widget."""
    state = st.session_state
    if KEEP + name not in state:
        state[KEEP + name] = default
    return seed(name, state[KEEP + name])


def keep(name: str) -> None:
    """``on_change`` of a :func:`seeded` widget: copy the widget's value to its lasting key."""
    st.session_state[KEEP + name] = st.session_state[W + name]


def kept(name: str, default=None):
    """The lasting value of a :func:`seeded` widget (``default`` before it was ever drawn)."""
    return st.session_state.get(KEEP + name, default)


def put(name: str, value) -> None:
    """Set the lasting value of a :func:`seeded` widget (it shows it the next time it is drawn)."""
    st.session_state[KEEP + name] = value


def get_step() -> int:
    """The step the session is at (0 = starting segmentation); not yet clamped to a run."""
    return int(st.session_state.get(K_STEP, 0))


def set_step(step: int) -> None:
    """Set the session's step (callers clamp it to ``0..run.num_steps``)."""
    st.session_state[K_STEP] = max(0, int(step))


def short_key(*parts) -> str:
    """A short stable hex key for widget names that depend on an input (digest, config...)."""
    return hashlib.sha1(repr(parts).encode("utf-8")).hexdigest()[:12]


# ------------------------------------------------------------------------------------ old URLs sent again
#: The session key of the URLs lately written or followed, oldest first (query parameter dicts).
K_WRITTEN = "bpe.url_written"
#: How many are kept: a page is a run or two behind at most (presses wait for the step before).
KEPT = 8


def note(params: dict[str, str]) -> None:
    """Remember ``params`` (a query parameter dict) as a URL the app wrote or followed: the latest one."""
    state = st.session_state
    written = list(state.get(K_WRITTEN) or [])
    if not written or written[-1] != params:
        written = [*written, dict(params)][-KEPT:]
    state[K_WRITTEN] = written


def put_back_if_old() -> None:
    """If this run's URL is one the app wrote before the latest (see the module doc), put the latest
    (``K_URL``, what the app last wrote) back into ``st.query_params``."""
    state = st.session_state
    latest, written = state.get(K_URL), state.get(K_WRITTEN)
    if not latest or not written:
        return
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None or ctx.is_history_navigation:
        return
    try:
        params = {k: st.query_params[k] for k in st.query_params}
    except Exception:  # a malformed query string is the sidebar's to report
        return
    if params != latest and params in written:
        st.query_params.from_dict(latest)


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
    (``params.update(persist.quiz_url_param())``), like the interface language."""
    return {QUIZ_PARAM: "1"} if quiz_enabled() else {}


def keep_quiz_in_url(on: bool) -> None:
    """Put ``quiz=1`` back into the URL (and into the sidebar's record of what it last wrote, so the
    next run does not read the URL as a new link) or take it out."""
    last = ss().get(K_URL)
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


# ------------------------------------------------------------------------------------ a live class's way in
K_CODE, K_KEY, K_MSG, K_NICK, K_WHOLE = "class.code", "class.key", "class.msg", "class.nick", "class.whole_page"
#: The class a tab was asked to open while the store was unreachable: it stays in the URL until the tab gets in.
K_PENDING = "class.pending"


def class_code() -> str | None:
    """The class this session is in, or ``None``."""
    return st.session_state.get(K_CODE)


def is_teacher() -> bool:
    """True when this session teaches its class (it holds the class's teacher key)."""
    return bool(class_code() and st.session_state.get(K_KEY))


def class_url_param() -> dict[str, str]:
    """``{"class": CODE}`` while in a class or waiting for the store to open one (for :func:`ui.sidebar.url_params`),
    else ``{}``."""
    code = class_code() or st.session_state.get(K_PENDING)
    return {PARAM: code} if code else {}


def class_asked() -> bool:
    """Whether this run has anything to do with a live class: ``?class=`` in the URL, a class joined or started, a
    message about one to show, or a class just left (the page reruns whole). Else the page draws no class and loads
    none of its modules."""
    ss = st.session_state
    return PARAM in st.query_params or bool(class_code()) or bool(ss.get(K_MSG)) or K_WHOLE in ss


# ------------------------------------------------------------------------------------ the modes' switches
# Drawn by the stepper page on every plain step: kept here, beside the state they set, so the page script (which
# Streamlit compiles again at every full rerun) stays short and a step loads no mode's module.
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


def _join_clicked() -> None:
    from bpe_server.live_class import clean_nickname  # a name typed to join: the class's rules

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
    parameters; ``start(params, step)``: the button's callback, :func:`start_class`), and the join box
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
