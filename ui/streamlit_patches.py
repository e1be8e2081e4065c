"""The app's patches of Streamlit's internals, each installed only on a Streamlit it was checked on
(:func:`may_install`). This module's one job: mend Streamlit where its public API cannot, guarded. One section each:

* timer presses (:func:`install_timer_presses`) -- a press is counted once, even when the step view's timer fires as
  it is made.
* fragment references (:func:`install_fragment_refs`) -- a fragment's rerun drops the unsent elements of the run it
  replaces, cached ones (references) too.

A new patch goes here too, as its own section with its own ``<NAME>_CHECKED`` versions and ``<NAME>_MENDS`` text,
and its install function joins :func:`install`.

**The check every patch makes before it installs**: is this a Streamlit it was checked on?

A patch replaces a private function or method of Streamlit (nothing in Streamlit's public API can mend what it
mends), so it is only known to be right on the Streamlit versions its tests ran on. On any other version the
names it replaces may have moved or changed meaning, and a patch applied blindly could break the app in a way
nobody sees; so :func:`may_install` refuses, loudly, and says the two ways out: install a checked version (the
pins in requirements.txt), or name the patch in :data:`SKIP_VARIABLE` to run without it, accepting the bug it
mends.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from streamlit.proto.WidgetStates_pb2 import WidgetStates

#: The environment variable that names patches to run without (their names, separated by commas or spaces), e.g.
#: ``BPE_EXPLORER_SKIP_STREAMLIT_PATCHES=fragment_refs,timer_presses``.
SKIP_VARIABLE = "BPE_EXPLORER_SKIP_STREAMLIT_PATCHES"


def skipped(patch: str, environ: Mapping[str, str] | None = None) -> bool:
    """Whether :data:`SKIP_VARIABLE` in ``environ`` (default ``os.environ``) names ``patch`` (a patch name such
    as ``"fragment_refs"``)."""
    value = (os.environ if environ is None else environ).get(SKIP_VARIABLE, "")
    return patch in value.replace(",", " ").split()


def installed_version() -> str:
    """The installed Streamlit's version (``streamlit.__version__``, e.g. ``"1.67.0"``)."""
    import streamlit

    return streamlit.__version__


def may_install(
    patch: str,
    checked: tuple[str, ...],
    mends: str,
    version: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> bool:
    """Whether patch ``patch`` may be installed on Streamlit ``version`` (default: the installed one).

    Args:
        patch: the patch's name (``"timer_presses"``, ``"fragment_refs"``: what :data:`SKIP_VARIABLE` names).
        checked: the Streamlit versions the patch was written for and checked against (``"1.67.0"``...).
        mends: the bug the patch mends, in a few words (said in the error: what running without it costs).
        version: the Streamlit version to check; ``None`` reads it from the installed Streamlit.
        environ: the environment to read :data:`SKIP_VARIABLE` from (default ``os.environ``).

    Returns ``False`` when :data:`SKIP_VARIABLE` names the patch (the app runs without it, whatever the version),
    ``True`` when ``version`` is one of ``checked``.

    Raises:
        RuntimeError: ``version`` is not one of ``checked`` and the patch is not skipped; the message names the
            installed version, the file and the patch, the checked versions and both ways out.
    """
    if skipped(patch, environ):
        return False
    version = installed_version() if version is None else version
    if version in checked:
        return True
    raise RuntimeError(
        f"Streamlit {version} is installed, but the app's patch {patch} of Streamlit's internals "
        f"(ui/streamlit_patches.py) was checked only on Streamlit {', '.join(checked)}. Install a checked "
        f"version (pip install -r requirements.txt pins one), or set {SKIP_VARIABLE}={patch} to run without "
        f"this patch, accepting the bug it mends: {mends}"
    )


def install() -> None:
    """Install every patch (once per process; ``app.py`` calls it first thing in every run). Raises
    ``RuntimeError``, saying the way out, when the installed Streamlit is not one a patch was checked on
    (:func:`may_install`)."""
    install_timer_presses()
    install_fragment_refs()


# --- Timer presses -----------------------------------------------------------------------------------------------
#
# A press is counted once, even when a fragment's timer fires as it is made.
#
# While a run still trains, the step view is a fragment that reruns itself every second
# (``st.fragment(run_every=...)``, :func:`ui.stepper.step_fragment`). Streamlit's frontend (1.67) sends a press in
# two steps: the click marks the button's trigger, and a task scheduled right after (``setTimeout(..., 0)``) sends
# the page's widget states and then clears the trigger. A fragment's timer sends the widget states too, all of them:
# when it fires between those two steps, its message carries the press as well, and the server counted one press of
# Next twice (step 1 to step 3, about one press in 200 made while the book trains; seen in the suite and reproduced
# by pressing Next and Prev while a run trained).
#
# A timer's message never needs a press: the press's own message, sent a moment later, carries it. So the server
# takes every press out of a message its timer sent (``is_auto_rerun``) before the message is handled.

#: The Streamlit versions the timer-presses patch was written for and checked against (tests/test_timer_presses.py
#: passes there).
TIMER_PRESSES_CHECKED = ("1.65.0", "1.67.0")
#: What running without it costs (said when the installed Streamlit is not checked).
TIMER_PRESSES_MENDS = "a press of Next made as the step view's timer fires (while a run trains) can count twice"

#: The kinds of widget value that are presses (a trigger is set for one run, then cleared), as the protobuf names them.
TRIGGERS = frozenset({"trigger_value", "string_trigger_value", "json_trigger_value", "chat_input_value"})


def drop_presses(states: WidgetStates) -> int:
    """Remove from ``states`` (a ``WidgetStates`` protobuf, changed in place) every widget state that is a press (a
    trigger, :data:`TRIGGERS`); the server then keeps that widget as it was, not pressed. Returns how many."""
    kept = [w for w in states.widgets if w.WhichOneof("value") not in TRIGGERS]
    dropped = len(states.widgets) - len(kept)
    if dropped:
        del states.widgets[:]
        states.widgets.extend(kept)
    return dropped


def install_timer_presses() -> None:
    """Make the server drop the presses in every message a fragment's timer sends (see the section's comment): put
    :func:`drop_presses` in front of ``AppSession.request_rerun``. Calling it again does nothing.

    Raises ``RuntimeError`` on a Streamlit not in :data:`TIMER_PRESSES_CHECKED` (:func:`may_install`: the message
    says the ways out); does nothing when the environment skips this patch."""
    if not may_install("timer_presses", TIMER_PRESSES_CHECKED, TIMER_PRESSES_MENDS):
        return
    # Imported once the version is known to have it: an unchecked Streamlit gets the guard's message instead.
    from streamlit.runtime.app_session import AppSession

    original = AppSession.request_rerun
    if getattr(original, "drops_timer_presses", False):
        return

    def request_rerun(self, client_state):
        if client_state is not None and client_state.is_auto_rerun:
            drop_presses(client_state.widget_states)
        return original(self, client_state)

    request_rerun.drops_timer_presses = True
    request_rerun.__doc__ = original.__doc__
    AppSession.request_rerun = request_rerun


# --- Fragment references -----------------------------------------------------------------------------------------
#
# A fragment's rerun drops what the run it replaces had not sent yet, its cached elements included.
#
# Streamlit keeps a browser's large elements (10 kB or more) and sends such an element again only as a reference to
# its hash (a ``ref_hash`` message). When a new run of a fragment starts before the server has sent everything the
# last one drew, the session's outgoing queue drops that run's unsent elements (``ForwardMsgQueue.clear`` with the
# fragment's id). Streamlit 1.67 finds them by ``delta.fragment_id``, but a reference message has no delta, so it
# stays: the browser gets element 11 of the step view without elements 9 and 10, and stops with "Bad delta path
# index 11 (should be between [0, 9])". The page is blank from then on.
#
# That is what happened to students' screens in a live class under load: the class script pressed "sync" for the
# teacher's next step while the step view still ran for the step before (recorded in the class benchmark, every
# message a tab received: the reference to element 11 came right after the interrupted run's last sent element, 8).
#
# So the server notes which fragment each reference message belongs to as it is made (in the script's thread, which
# knows the fragment), and the queue drops a noted reference with the rest of its fragment's elements.

#: The Streamlit versions the fragment-references patch was written for and checked against
#: (tests/test_fragment_refs.py passes there).
FRAGMENT_REFS_CHECKED = ("1.65.0", "1.67.0")
#: What running without it costs (said when the installed Streamlit is not checked).
FRAGMENT_REFS_MENDS = (
    "a fragment's rerun keeps the unsent references of the run it replaces, and a busy page can go blank "
    '("Bad delta path index")'
)

# A reference message, from when the script's thread makes it until the session's queue takes it (on the server's
# event loop): id(message) -> (message, fragment id). The message is held, so its id stays its own meanwhile.
_MADE: dict[int, tuple[ForwardMsg, str]] = {}
_MADE_LOCK = threading.Lock()
#: More references waiting than this means a queue never took them (a session closed meanwhile): start again.
_MAX_WAITING = 10_000


def fragment_of(ref: ForwardMsg) -> str | None:
    """The fragment whose run made reference message ``ref`` (taken out of the notes), or ``None`` (not a reference,
    or made outside a fragment)."""
    with _MADE_LOCK:
        held = _MADE.pop(id(ref), None)
    return held[1] if held is not None and held[0] is ref else None


def install_fragment_refs() -> None:
    """Note the fragment of every reference message, and make a fragment's rerun drop the references of its unsent
    elements with the elements (see the section's comment). Calling it again does nothing.

    Raises ``RuntimeError`` on a Streamlit not in :data:`FRAGMENT_REFS_CHECKED` (:func:`may_install`: the message
    says the ways out); does nothing when the environment skips this patch."""
    if not may_install("fragment_refs", FRAGMENT_REFS_CHECKED, FRAGMENT_REFS_MENDS):
        return
    # Imported once the version is known to have them: an unchecked Streamlit gets the guard's message, not an
    # ImportError.
    from streamlit.runtime import forward_msg_queue
    from streamlit.runtime.scriptrunner_utils import script_run_context

    Queue = forward_msg_queue.ForwardMsgQueue
    if getattr(Queue.clear, "drops_fragment_refs", False):
        return
    make_ref, enqueue, clear = script_run_context.create_reference_msg, Queue.enqueue, Queue.clear

    def create_reference_msg(msg: ForwardMsg) -> ForwardMsg:
        ref = make_ref(msg)
        if ref is not msg and msg.delta.fragment_id:
            with _MADE_LOCK:
                if len(_MADE) >= _MAX_WAITING:
                    _MADE.clear()
                _MADE[id(ref)] = (ref, msg.delta.fragment_id)
        return ref

    def queue_enqueue(self, msg: ForwardMsg) -> None:
        fragment = fragment_of(msg) if msg.HasField("ref_hash") else None
        enqueue(self, msg)
        if fragment is not None:
            # Held while the message waits in this queue (a clear or flush keeps the notes of those it keeps), so an
            # id here is this message's.
            self.__dict__.setdefault("_fragment_refs", {})[id(msg)] = (msg, fragment)

    def queue_clear(self, retain_lifecycle_msgs: bool = False, fragment_ids_this_run: list[str] | None = None) -> None:
        refs = self.__dict__.pop("_fragment_refs", None)
        if refs and retain_lifecycle_msgs and fragment_ids_this_run is not None:
            rerun = set(fragment_ids_this_run)

            def dropped(msg: ForwardMsg) -> bool:
                held = refs.get(id(msg))
                return held is not None and held[0] is msg and held[1] in rerun

            self._queue = [msg for msg in self._queue if not dropped(msg)]
        clear(self, retain_lifecycle_msgs, fragment_ids_this_run)
        if refs and self._queue:  # another fragment's references still waiting keep their notes for its rerun
            kept = {id(msg): refs[id(msg)] for msg in self._queue if refs.get(id(msg), (None,))[0] is msg}
            if kept:
                self.__dict__["_fragment_refs"] = kept

    queue_clear.drops_fragment_refs = True
    queue_clear.__doc__ = clear.__doc__
    script_run_context.create_reference_msg = create_reference_msg
    Queue.enqueue = queue_enqueue
    Queue.clear = queue_clear
