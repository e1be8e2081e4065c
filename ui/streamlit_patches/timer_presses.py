"""A press is counted once, even when a fragment's timer fires as it is made.

While a run still trains, the step view is a fragment that reruns itself every second (``st.fragment(run_every=...)``,
:func:`ui.stepper.step_fragment`). Streamlit's frontend (1.67) sends a press in two steps: the click marks the
button's trigger, and a task scheduled right after (``setTimeout(..., 0)``) sends the page's widget states and then
clears the trigger. A fragment's timer sends the widget states too, all of them: when it fires between those two
steps, its message carries the press as well, and the server counted one press of Next twice (step 1 to step 3,
about one press in 200 made while the book trains; seen in the suite and reproduced by pressing Next and Prev while
a run trained).

A timer's message never needs a press: the press's own message, sent a moment later, carries it. So the server takes
every press out of a message its timer sent (``is_auto_rerun``) before the message is handled. :func:`install` puts
that in front of ``AppSession.request_rerun``, once per process; ``app.py`` calls it, on a Streamlit of
:data:`CHECKED` only (:func:`ui.streamlit_patches.may_install`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import may_install

if TYPE_CHECKING:
    from streamlit.proto.WidgetStates_pb2 import WidgetStates

#: The Streamlit versions this patch was written for and checked against (tests/test_timer_presses.py passes there).
CHECKED = ("1.65.0", "1.67.0")
#: What running without it costs (said when the installed Streamlit is not checked).
MENDS = "a press of Next made as the step view's timer fires (while a run trains) can count twice"

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


def install() -> None:
    """Make the server drop the presses in every message a fragment's timer sends (see the module doc). Calling it
    again does nothing.

    Raises ``RuntimeError`` on a Streamlit not in :data:`CHECKED` (:func:`ui.streamlit_patches.may_install`:
    the message says the ways out); does nothing when the environment skips this patch."""
    if not may_install("timer_presses", CHECKED, MENDS):
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
