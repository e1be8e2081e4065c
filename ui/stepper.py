"""The step control: First / Prev / Next / Last (the arrow keys press Prev and Next), the big
"Step k of n" label, a slider and a number box to jump, and autoplay. The step lives in the session
(:func:`ui.persist.get_step`), so every page with a step control shows the same step.

A page draws its step control inside a fragment (:func:`step_fragment`), so a step reruns only the
parts that change with it. While the run is still training the fragment reruns every second, so that
the newly trained merges can be reached. Autoplay is kept by the browser: while it is on, the step
label carries the seconds per step (``data-autoplay``) and the app's script presses Next at that beat
(``static/text_box_guard.js``, part 5). A timer on the server moved on after each rerun, whose time
varies, so the steps came unevenly (0.33 to 0.6 s apart at 0.5 s per step); one in the browser holds
the beat, and the press shows the step at once where the steps around it were sent ahead
(:mod:`ui.step_ahead`)."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from bpe_core import TrainedRun

from . import persist, zoom
from .i18n import _

_SPEEDS = (0.5, 1.0, 2.0, 3.0)

#: Seconds between reruns of the step view while its run is still training (the newest merges and
#: the progress bar show up at this pace).
TRAINING_REFRESH_S = 1.0


def _go(target: str, n: int) -> None:
    # From the session's step, not the one drawn: two quick presses of → move two steps. A step a link
    # asked for beyond the merges trained so far counts as the last one trained.
    step = min(persist.get_step(), n)
    new = {"first": 0, "prev": step - 1, "next": step + 1, "last": n}[target]
    persist.set_step(max(0, min(n, new)))


_BUTTONS = ("first", "prev", "next", "last")


def _from_widget(widget: str, n: int, key: str) -> None:
    # Every message the page sends carries the slider and the number box as the page has them. A press
    # made just after another can leave before the page has taken the server's new step into them: they
    # still hold the step before, and moved the step back there, so the press only redid the one before
    # it (six → pressed at once lost a step in about one try of seven). A drag or a typed step is a
    # message of its own, so when a step button came in the same message, the button wins.
    if any(st.session_state.get(f"{key}.{b}") for b in _BUTTONS):
        return
    persist.set_step(max(0, min(n, int(st.session_state[widget]))))


def timer_seconds(training: bool) -> float | None:
    """How often a step view reruns by itself: :data:`TRAINING_REFRESH_S` while its run is still
    training, else never (``None``). Autoplay needs no timer here: the browser keeps it."""
    return TRAINING_REFRESH_S if training else None


def autoplay_speed(key: str) -> float | None:
    """Seconds per step while autoplay of stepper ``key`` is on, else ``None``."""
    if persist.kept(f"{key}.autoplay", False):
        return float(persist.kept(f"{key}.speed", 1.0))
    return None


def step_fragment(body: Callable[..., None], training: bool, *args) -> None:
    """Run ``body(every, *args)`` as a fragment that reruns by itself every :func:`timer_seconds`
    (``every``). ``body`` calls :func:`check_timer` first, which reruns the page when the interval it
    needs has changed (training over)."""
    every = timer_seconds(training)
    st.fragment(body, run_every=every)(every, *args)


def check_timer(training: bool, every: float | None) -> None:
    """Rerun the whole page when the step fragment was started with another interval than it needs
    now: a fragment's interval is set when the page runs, not when the fragment does."""
    if timer_seconds(training) != every:
        st.rerun(scope="app")


def step_label_html(step: int, n: int, training: bool = False, autoplay: float | None = None) -> str:
    """The big "Step k of n" label (``#bpe-step-label``, ``data-step`` = k: tests wait on it); while
    the run is still training, "of n so far". ``autoplay``: seconds per step while autoplay is on
    (``data-autoplay``, read by the app's script, which presses Next at that beat)."""
    # The markup is part of the sentence: translations keep the span around "of n".
    if training:
        text = _('Step {step} <span class="of">of {n} so far</span>')
    else:
        text = _('Step {step} <span class="of">of {n}</span>')
    text = text.format(step=f"{int(step):,}", n=f"{int(n):,}")
    css = "bpe-step-label training" if training else "bpe-step-label"
    beat = f' data-autoplay="{float(autoplay):g}"' if autoplay else ""
    return f'<div class="{css}" id="bpe-step-label" data-step="{int(step)}"{beat}>{text}</div>'


def step_controls(run: TrainedRun, presentation: bool = False, key: str = "stepper", training: bool = False) -> int:
    """Draw the step control for ``run`` (the slider and number box hidden in presentation mode) and
    return the current step, clamped to ``0..run.num_steps``. ``key`` prefixes the widget keys
    (``stepper.next``...). Presentation mode adds the zoom picker (:func:`ui.zoom.zoom_control`) to
    the row.

    ``training``: ``run`` is a view of a run still training. A step asked for beyond it (a link to
    step 5,000) is then kept in the session, and shown once trained, and autoplay waits for
    more merges instead of stopping at the last one (the browser presses Next, see the module's
    docstring; here autoplay only switches off at the end)."""
    n = run.num_steps
    asked = persist.get_step()
    step = max(0, min(n, asked))
    if not training or asked <= n:
        persist.set_step(step)
    auto = f"{key}.autoplay"
    if persist.kept(auto, False) and step >= n and not training:
        persist.put(auto, False)  # nothing left to play

    # Presentation mode draws First and Last as icons (their tooltips name them). In normal mode autoplay
    # moves to the slider's row, so the four labels stay whole in Chinese beside the sidebar at 1024 px.
    widths = [0.6, 1.5, 1.5, 0.6, 2.8, 1.3, 1.3] if presentation else [1, 1.5, 1.5, 1, 2.3]
    cols = st.columns(widths, vertical_alignment="center")
    go = {t: (t, n) for t in _BUTTONS}
    cols[0].button("⏮" if presentation else _("⏮ First"), key=f"{key}.first", on_click=_go, args=go["first"],
                   disabled=step == 0, width="stretch", help=_("First: step 0, the starting segmentation"))  # fmt: skip
    cols[1].button(_("◀ Prev"), key=f"{key}.prev", on_click=_go, args=go["prev"], disabled=step == 0,
                   shortcut="Left", width="stretch", help=_("Previous step (← key)"))  # fmt: skip
    cols[2].button(_("Next ▶"), key=f"{key}.next", on_click=_go, args=go["next"], disabled=step >= n,
                   shortcut="Right", width="stretch", help=_("Next step (→ key)"))  # fmt: skip
    cols[3].button("⏭" if presentation else _("Last ⏭"), key=f"{key}.last", on_click=_go, args=go["last"],
                   disabled=step >= n, width="stretch", help=_("Last step"))  # fmt: skip
    with cols[4]:
        st.html(step_label_html(step, n, training, autoplay_speed(key)))

    if presentation:
        with cols[5]:
            _autoplay_controls(key, step, n, presentation, training)
        zoom.zoom_control(cols[6])
    else:
        c1, c2, c3 = st.columns([4, 1.3, 1.7], vertical_alignment="bottom")
        if n > 0:
            slider_key, box_key = f"{key}.slider", f"{key}.box"
            st.session_state[slider_key] = step
            st.session_state[box_key] = step
            c1.slider(_("Jump to step"), 0, n, key=slider_key, on_change=_from_widget, args=(slider_key, n, key))
            c2.number_input(_("Step"), min_value=0, max_value=n, step=1, key=box_key, on_change=_from_widget,
                            args=(box_key, n, key))  # fmt: skip
        with c3:
            _autoplay_controls(key, step, n, presentation, training)
    return step


def _autoplay_controls(key: str, step: int, n: int, presentation: bool, training: bool) -> None:
    """The autoplay toggle and (normal mode) its speed, kept in the session (:func:`autoplay_speed`
    reads them)."""
    auto, speed_name = f"{key}.autoplay", f"{key}.speed"
    st.toggle(_("Autoplay"), key=persist.seeded(auto, False), disabled=step >= n and not training,
              on_change=persist.keep, args=(auto,))  # fmt: skip
    if not presentation:
        st.select_slider(_("Seconds per step"), _SPEEDS, key=persist.seeded(speed_name, 1.0),
                         label_visibility="collapsed",
                         format_func=lambda s: _("{seconds} s / step").format(seconds=f"{s:g}"),
                         on_change=persist.keep, args=(speed_name,))  # fmt: skip
