"""The step control: First / Prev / Next / Last (the arrow keys press Prev and Next), the big
"Step k of n" label, a slider and a number box to jump, and autoplay. The step lives in the session
(:func:`ui.persist.get_step`), so every page with a step control shows the same step."""

from __future__ import annotations

import streamlit as st

from bpe_core import TrainedRun

from . import persist, zoom
from .i18n import _

_SPEEDS = (0.5, 1.0, 2.0, 3.0)


def _go(target: str, n: int) -> None:
    step = persist.get_step()
    new = {"first": 0, "prev": step - 1, "next": step + 1, "last": n}[target]
    persist.set_step(max(0, min(n, new)))


def _from_widget(key: str, n: int) -> None:
    persist.set_step(max(0, min(n, int(st.session_state[key]))))


def step_label_html(step: int, n: int) -> str:
    """The big "Step k of n" label (``#bpe-step-label``, ``data-step`` = k: tests wait on it)."""
    # The markup is part of the sentence: translations keep the span around "of n".
    text = _('Step {step} <span class="of">of {n}</span>').format(step=f"{int(step):,}", n=f"{int(n):,}")
    return f'<div class="bpe-step-label" id="bpe-step-label" data-step="{int(step)}">{text}</div>'


def step_controls(run: TrainedRun, presentation: bool = False, key: str = "stepper") -> int:
    """Draw the step control for ``run`` (the slider and number box hidden in presentation mode) and
    return the current step, clamped to ``0..run.num_steps`` and saved in the session. ``key``
    prefixes the widget keys (``stepper.next``...). Presentation mode adds the zoom picker
    (:func:`ui.zoom.zoom_control`) to the row."""
    n = run.num_steps
    step = max(0, min(n, persist.get_step()))
    persist.set_step(step)
    auto = f"{key}.autoplay"
    if persist.kept(auto, False) and step >= n:
        persist.put(auto, False)  # nothing left to play

    # Presentation mode draws First and Last as icons (their tooltips name them). In normal mode autoplay
    # moves to the slider's row, so the four labels stay whole in Chinese beside the sidebar at 1024 px.
    widths = [0.6, 1.5, 1.5, 0.6, 2.8, 1.3, 1.3] if presentation else [1, 1.5, 1.5, 1, 2.3]
    cols = st.columns(widths, vertical_alignment="center")
    cols[0].button("⏮" if presentation else _("⏮ First"), key=f"{key}.first", on_click=_go, args=("first", n),
                   disabled=step == 0, width="stretch", help=_("First: step 0, the starting segmentation"))  # fmt: skip
    cols[1].button(_("◀ Prev"), key=f"{key}.prev", on_click=_go, args=("prev", n), disabled=step == 0,
                   shortcut="Left", width="stretch", help=_("Previous step (← key)"))  # fmt: skip
    cols[2].button(_("Next ▶"), key=f"{key}.next", on_click=_go, args=("next", n), disabled=step >= n,
                   shortcut="Right", width="stretch", help=_("Next step (→ key)"))  # fmt: skip
    cols[3].button("⏭" if presentation else _("Last ⏭"), key=f"{key}.last", on_click=_go, args=("last", n),
                   disabled=step >= n, width="stretch", help=_("Last step"))  # fmt: skip
    with cols[4]:
        st.html(step_label_html(step, n))

    if presentation:
        with cols[5]:
            autoplay, speed = _autoplay_controls(key, step, n, presentation)
        zoom.zoom_control(cols[6])
    else:
        c1, c2, c3 = st.columns([4, 1.3, 1.7], vertical_alignment="bottom")
        if n > 0:
            slider_key, box_key = f"{key}.slider", f"{key}.box"
            st.session_state[slider_key] = step
            st.session_state[box_key] = step
            c1.slider(_("Jump to step"), 0, n, key=slider_key, on_change=_from_widget, args=(slider_key, n))
            c2.number_input(_("Step"), min_value=0, max_value=n, step=1, key=box_key, on_change=_from_widget,
                            args=(box_key, n))  # fmt: skip
        with c3:
            autoplay, speed = _autoplay_controls(key, step, n, presentation)

    if autoplay and step < n:
        _autoplay(key, n, float(speed))
    return step


def _autoplay_controls(key: str, step: int, n: int, presentation: bool) -> tuple[bool, float]:
    """The autoplay toggle and (normal mode) its speed; returns ``(on, seconds per step)``."""
    auto, speed_name = f"{key}.autoplay", f"{key}.speed"
    autoplay = st.toggle(_("Autoplay"), key=persist.seeded(auto, False), disabled=step >= n,
                         on_change=persist.keep, args=(auto,))  # fmt: skip
    speed = persist.kept(speed_name, 1.0)
    if not presentation:
        speed = st.select_slider(_("Seconds per step"), _SPEEDS, key=persist.seeded(speed_name, 1.0),
                                 label_visibility="collapsed",
                                 format_func=lambda s: _("{seconds} s / step").format(seconds=f"{s:g}"),
                                 on_change=persist.keep, args=(speed_name,))  # fmt: skip
    return autoplay, speed


def _autoplay(key: str, n: int, seconds: float) -> None:
    armed = f"{key}.tick_armed"
    st.session_state[armed] = False

    @st.fragment(run_every=seconds)
    def tick() -> None:
        # The first call happens inside the full run (arming the timer); later calls are the timer.
        if not st.session_state.get(armed):
            st.session_state[armed] = True
            return
        step = persist.get_step()
        if persist.kept(f"{key}.autoplay") and step < n:
            persist.set_step(step + 1)
            st.rerun(scope="app")

    tick()
