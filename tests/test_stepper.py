"""ui.stepper: the one step control, driven through AppTest (no browser). A small script draws it over
ten steps with the hooks a live class needs (a step set from outside, a limit, a locked control); the
app's three steppers are checked to be that control."""

from __future__ import annotations

from app_helpers import TIMEOUT, body_with, jump_widget, new_app, no_exception, open_page
from streamlit.testing.v1 import AppTest


def _script():
    # Runs as its own Streamlit script (AppTest.from_function): the imports are its own.
    import streamlit as st

    from ui import stepper

    state = st.session_state

    class Follow:
        """A follower's store: the teacher's step (set from outside) until the student steps on their own."""

        def get(self) -> int:
            return state["own"] if "own" in state else state.get("teacher", 0)

        def set(self, step: int) -> None:
            state["own"] = step

    store = Follow() if state.get("follow") else stepper.KeptStep("t.step")
    step = stepper.step_controls(state.get("n", 10), key="t", store=store, limit=state.get("limit"), locked=state.get("locked", False),
                                 unit="merge", autoplay=False)  # fmt: skip
    st.html(f"<p id='shown' data-step='{step}'>{step}</p>")


def _app(**state) -> AppTest:
    at = AppTest.from_function(_script, default_timeout=TIMEOUT)
    for name, value in state.items():
        at.session_state[name] = value
    return at.run()


def shown(at: AppTest) -> int:
    body = body_with(at, "id='shown'")
    return int(body.split("data-step='", 1)[1].split("'", 1)[0])


def disabled(at: AppTest) -> dict[str, bool]:
    return {b: at.button(key=f"t.{b}").disabled for b in ("first", "prev", "next", "last")}


def test_buttons_slider_and_box_move_one_clamped_step():
    at = _app()
    no_exception(at)
    assert shown(at) == 0 and disabled(at) == {"first": True, "prev": True, "next": False, "last": False}
    at.button(key="t.next").click().run()
    at.button(key="t.next").click().run()
    assert shown(at) == 2
    at.button(key="t.last").click().run()
    assert shown(at) == 10 and disabled(at) == {"first": False, "prev": False, "next": True, "last": True}
    jump_widget(at, "slider", "t").set_value(4).run()
    assert shown(at) == 4 and jump_widget(at, "box", "t").value == 4
    jump_widget(at, "box", "t").set_value(7).run()
    assert shown(at) == 7 and jump_widget(at, "slider", "t").value == 7
    at.button(key="t.prev").click().run()
    at.button(key="t.first").click().run()
    assert shown(at) == 0


def test_a_press_beats_the_stale_slider_and_box_sent_with_it():
    # A quick press can reach the server with the slider and number box still at the step before: the
    # press wins, the step is not moved back.
    at = _app()
    at.button(key="t.next").click().run()
    jump_widget(at, "slider", "t").set_value(0)
    jump_widget(at, "box", "t").set_value(0)
    at.button(key="t.next").click().run()
    assert shown(at) == 2


def test_a_run_still_training_gives_the_slider_and_box_new_keys_as_its_range_grows():
    # Streamlit gives a keyed slider a new identity when its range changes; a late message about the old one
    # then called its callback, which read the new one's key: a KeyError on the page while a book trained.
    at = _app()
    before = jump_widget(at, "slider", "t").key
    at.session_state["n"] = 12
    at.run()
    no_exception(at)
    assert jump_widget(at, "slider", "t").key != before and jump_widget(at, "slider", "t").max == 12
    jump_widget(at, "slider", "t").set_value(11).run()
    assert shown(at) == 11 and jump_widget(at, "box", "t").value == 11


def test_a_step_set_from_outside_is_followed_until_the_student_steps():
    at = _app(follow=True, teacher=4)
    assert shown(at) == 4
    at.session_state["teacher"] = 6
    at.run()
    assert shown(at) == 6
    at.button(key="t.next").click().run()  # on their own now, from the teacher's step
    assert shown(at) == 7 and at.session_state["own"] == 7
    at.session_state["teacher"] = 2
    at.run()
    assert shown(at) == 7
    del at.session_state["own"]  # "Follow the teacher"
    at.run()
    assert shown(at) == 2


def test_a_limit_stops_presses_and_jumps_and_clamps_a_step_beyond_it():
    at = _app(limit=3)
    at.button(key="t.last").click().run()
    assert shown(at) == 3 and disabled(at)["next"] and disabled(at)["last"]
    assert jump_widget(at, "slider", "t").max == 3 and jump_widget(at, "box", "t").max == 3
    # A step set beyond the limit (the teacher went on, a question is open at 3) is shown at the limit.
    follower = _app(follow=True, teacher=8, limit=3)
    assert shown(follower) == 3
    follower.session_state["limit"] = None
    follower.run()
    assert shown(follower) == 3  # the clamp was written to the store: the student's own step


def test_a_locked_control_draws_every_control_disabled():
    at = _app(follow=True, teacher=5, locked=True)
    assert shown(at) == 5
    assert all(disabled(at).values())
    assert jump_widget(at, "slider", "t").disabled and jump_widget(at, "box", "t").disabled


def test_the_three_steppers_are_the_one_control():
    # The stepper page, the Encode page's replay and the GPT tokenizers' replay draw the same widgets.
    pages = {"stepper": open_page("stepper", preset="textbook-low"), "enc": open_page("encode", preset="textbook-low")}
    pages["rt"] = new_app(preset="zh-emoji").switch_page("app_pages/5_Real_tokenizers.py").run()
    for key, page in pages.items():
        no_exception(page)
        for which in ("first", "prev", "next", "last"):
            assert page.button(key=f"{key}.{which}").label, (key, which)
        assert jump_widget(page, "slider", key).value == 0 and jump_widget(page, "box", key).value == 0
        page.button(key=f"{key}.next").click().run()
        assert jump_widget(page, "slider", key).value == 1, key
