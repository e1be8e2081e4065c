"""ui.streamlit_patches.timer_presses: a message a fragment's timer sends carries no press (the press's own message does)."""

from __future__ import annotations

from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.runtime.app_session import AppSession

from ui.streamlit_patches import timer_presses


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
    assert timer_presses.drop_presses(states) == 2
    assert [(w.id, w.WhichOneof("value")) for w in states.widgets] == [("$$ID-stepper.box.3", "int_value")]
    assert timer_presses.drop_presses(states) == 0


def test_install_wraps_request_rerun_once():
    timer_presses.install()
    wrapped = AppSession.request_rerun
    assert wrapped.drops_timer_presses
    timer_presses.install()
    assert AppSession.request_rerun is wrapped
