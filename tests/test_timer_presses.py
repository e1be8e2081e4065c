"""ui.streamlit_patches, the timer presses patch: a message a fragment's timer sends carries no press (the press's own message does)."""

from __future__ import annotations

from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.runtime.app_session import AppSession

from ui import streamlit_patches


def _states() -> WidgetStates:
    states = WidgetStates()
    pressed = states.widgets.add(id="$$ID-stepper.next")
    pressed.trigger_value = True
    typed = states.widgets.add(id="$$ID-stepper.box.3")
    typed.int_value = 3
    chat = states.widgets.add(id="$$ID-chat")
    chat.string_trigger_value.data = "hi"
    return states


def test_drop_presses_keeps_every_value_but_the_presses():
    states = _states()
    assert streamlit_patches.drop_presses(states) == 2
    assert [(w.id, w.WhichOneof("value")) for w in states.widgets] == [("$$ID-stepper.box.3", "int_value")]
    assert streamlit_patches.drop_presses(states) == 0


def test_install_wraps_request_rerun_once():
    streamlit_patches.install_timer_presses()
    wrapped = AppSession.request_rerun
    assert wrapped.drops_timer_presses
    streamlit_patches.install_timer_presses()
    assert AppSession.request_rerun is wrapped
