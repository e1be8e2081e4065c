"""The one step control of the app: First / Prev / Next / Last (← / → press Prev and Next), a label
("Step k of n"), a slider and a number box to jump, and (on the stepper pages) autoplay. Every stepper
draws it -- the stepper page and Side by side (the training steps), the real tokenizers' replay and the
Encode page's replay (the merges that fire on a text) -- so clamping, buttons, keys, quick presses and
session state behave the same everywhere::

    step = stepper.step_controls(run.num_steps)                       # the session's step (ui.persist)
    j = stepper.step_controls(len(replay), key="rt", store=stepper.KeptStep(name),
                              label=lambda j: my_label_html(j), unit="merge", autoplay=False)

**Where the step lives.** ``store`` is any object with ``get() -> int`` and ``set(step: int)``
(:class:`StepStore`). :data:`SESSION` is the session's own step (:func:`ui.persist.get_step`: every page
with the training steps shows the same one); :class:`KeptStep` keeps a step under a name of its own. A
store may read its step from elsewhere: a live class gives a follower a store whose ``get`` returns the
teacher's step (set from outside, on every rerun) until the student presses a button, whose ``set``
then switches the student to a step of their own; "Follow the teacher" is that store switched back.
The control writes to the store only when a press, a jump or a clamp changes the step.

**How far one may step.** ``n`` is the last step there is; ``limit`` (optional) the last step a press or
a jump may reach (a live class: never past an open question). Next and Last stop there, the slider and the
number box end there, and a stored step beyond it is clamped to it. ``locked=True`` draws every control
disabled (a screen that only follows).

**Quick presses are never lost.** A press moves from the store's step, not the one drawn, so two quick
presses of → move two steps; a slider or number box value that arrives in the same message as a button
press is stale and ignored (:func:`_from_widget`).

**A step is never moved by a message about an older one.** Every message the page sends carries every
widget's value; one sent while the server was drawing a new step (a live class's poll, the timer of a run
still training, a press just after another) carried the slider and number box still at the step before,
which the server took for a jump and moved the step back there (in a live class the teacher's step went
back and forth, and every student's with it: one press of Next moved the class more than one step). So
the two widgets get new keys whenever the step they show (or their range) changes (:func:`jump_keys`), each remembering the
step it was drawn at, and the script never writes to them: a value that is still the step its widget
was drawn at is no jump (:func:`_from_widget`), whenever it arrives; a drag or a typed step is a new
value of the widget the person saw. (Streamlit keeps a widget's callback for the whole session, even once
it is gone, and calls it for such a late message: the keys cycle through :data:`KEY_CYCLE` pairs.) In the browser the app's script
(``static/stepper.js``, :func:`draw_script`, parts 1-3) turns ← / → into clicks on the buttons of the
container ``st-key-<key>-prev`` / ``-next`` of the control that has the arrow keys (``arrows``: its buttons carry
them as shortcuts), keeps a key pressed before those buttons are drawn, and, where the page
drew the steps around this one ahead (:mod:`ui.step_ahead`, stepper ``key``), shows the next step at once
and holds a press until the server has drawn the one before.

**Autoplay** (``autoplay=True``) is kept by the browser: while it is on, the step label carries the
seconds per step (``data-autoplay``) and the app's script presses Next at that beat (part 4). A timer on
the server moved on after each rerun, whose time varies, so the steps came unevenly (0.33 to 0.6 s apart
at 0.5 s per step); one in the browser holds the beat.

**Fragments.** A page draws its step control and what depends on the step inside a fragment
(:func:`step_fragment`), so a step reruns only those parts. While the run is still training the fragment
reruns every second, so that the newly trained merges can be reached. A press made as that timer fires is
counted once (:func:`ui.streamlit_patches.install_timer_presses`); ``.streamlit/config.toml`` keeps a browser's large
messages for 20 runs, so that one made as a step comes back is seldom answered with a message the page has just
forgotten.

**Phones.** The buttons sit in a container ``st-key-<key>-stepbar``: below 640 px, where Streamlit stacks
columns, ``static/app.css`` keeps the four buttons in one row (the label above them, the slider
below, the number box and autoplay side by side under it).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import streamlit as st

from . import persist
from .i18n import _

_SPEEDS = (0.5, 1.0, 2.0, 3.0)

#: Seconds between reruns of the step view while its run is still training (the newest merges and
#: the progress bar show up at this pace).
TRAINING_REFRESH_S = 1.0

#: The four buttons, in order; a button's widget key is ``<key>.<name>``.
BUTTONS = ("first", "prev", "next", "last")

_SCRIPT = (Path(__file__).resolve().parent / "static" / "stepper.js").read_text(encoding="utf-8")


def script_html() -> str:
    """The stepper's script element (``static/stepper.js``: the arrow keys, steps shown ahead, autoplay); no user
    text in it."""
    return "<script>\n" + _SCRIPT + "</script>"


def draw_script() -> None:
    """Draw :func:`script_html` (once per page run: the sidebar draws it on every page, after the text box guard;
    the script sets itself up once per browser tab and serves every stepper the tab shows)."""
    st.html(script_html(), unsafe_allow_javascript=True)


class StepStore(Protocol):
    """Where a step control's step lives: ``get()`` the step (an int, maybe beyond the run while it
    trains), ``set(step)`` a new one (already clamped by the control)."""

    def get(self) -> int: ...

    def set(self, step: int) -> None: ...


class _SessionStep:
    """The session's step (:func:`ui.persist.get_step`), shared by every page with the training steps."""

    def get(self) -> int:
        return persist.get_step()

    def set(self, step: int) -> None:
        persist.set_step(step)


#: The session's step, the default store.
SESSION: StepStore = _SessionStep()


class KeptStep:
    """A step kept in the session under ``name`` (:func:`ui.persist.kept`; ``default`` until set): a
    replay's own step, or a page's own choice of step (the Encode and Files pages' tokenizer after step k),
    which other pages do not share."""

    def __init__(self, name: str, default: int = 0):
        self.name = name
        self.default = default

    def get(self) -> int:
        return int(persist.kept(self.name, self.default))

    def set(self, step: int) -> None:
        persist.put(self.name, int(step))


def _go(target: str, last: int, store: StepStore) -> None:
    # From the store's step, not the one drawn: two quick presses of → move two steps. A step a link
    # asked for beyond the merges trained so far counts as the last one reachable.
    step = min(store.get(), last)
    new = {"first": 0, "prev": step - 1, "next": step + 1, "last": last}[target]
    store.set(max(0, min(last, new)))


def _from_widget(widget: str, last: int, key: str, store: StepStore, drawn: int) -> None:
    # Every message the page sends carries the slider and the number box as the page has them. A press
    # made just after another can leave before the page has taken the server's new step into them: they
    # still hold the step before, and moved the step back there, so the press only redid the one before
    # it (six → pressed at once lost a step in about one try of seven). A drag or a typed step is a
    # message of its own, so when a step button came in the same message, the button wins.
    if any(st.session_state.get(f"{key}.{b}") for b in BUTTONS):
        return
    # Still the step the widget was drawn at: a message sent before the page took a newer step (see "A step
    # is never moved by a message about an older one"), not a jump.
    value = st.session_state.get(widget)  # none when the key names a newer widget (see jump_keys)
    if value is None or int(value) == drawn:
        return
    store.set(max(0, min(last, int(value))))


#: The key pairs the slider and number box cycle through: a message about an older pair would have to be this
#: many steps late to reach a pair drawn again (the app's script holds presses until the step before is drawn).
KEY_CYCLE = 16


def jump_keys(key: str, step: int, last: int) -> tuple[str, str]:
    """The widget keys of stepper ``key``'s slider and number box drawn at ``step`` of ``0..last``:
    ``<key>.slider.<g>`` and ``<key>.box.<g>``, a new ``g`` (modulo :data:`KEY_CYCLE`) whenever the step drawn
    or the range changes. The range too: Streamlit gives a keyed slider a new identity when its range changes
    (a run still training grows it every second), and the callback of the old one, called for a late message,
    then read the new one's key (a KeyError on the page). Call once per run."""
    name = f"{key}.jump-keys"
    gen, drawn = st.session_state.get(name, (0, (step, last)))
    if drawn != (step, last):
        gen = (gen + 1) % KEY_CYCLE
    st.session_state[name] = (gen, (step, last))
    keys = f"{key}.slider.{gen}", f"{key}.box.{gen}"
    if drawn != (step, last):  # a pair drawn again: a value left from its last time must not stand for this step
        for k in keys:
            st.session_state.pop(k, None)
    return keys


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


def step_label_html(
    step: int, n: int, training: bool = False, autoplay: float | None = None, css_id: str = "bpe-step-label"
) -> str:
    """The big "Step k of n" label (``#bpe-step-label``, ``data-step`` = k: tests wait on it); while
    the run is still training, "of n so far". ``autoplay``: seconds per step while autoplay is on
    (``data-autoplay``, read by the app's script, which presses Next at that beat). ``css_id``: another id,
    for a page's own step control (the app's script steps and plays only ``#bpe-step-label``)."""
    # The markup is part of the sentence: translations keep the span around "of n".
    if training:
        text = _('Step {step} <span class="of">of {n} so far</span>')
    else:
        text = _('Step {step} <span class="of">of {n}</span>')
    text = text.format(step=f"{int(step):,}", n=f"{int(n):,}")
    css = "bpe-step-label training" if training else "bpe-step-label"
    beat = f' data-autoplay="{float(autoplay):g}"' if autoplay else ""
    return f'<div class="{css}" id="{css_id}" data-step="{int(step)}"{beat}>{text}</div>'


def _helps(unit: str) -> dict[str, str]:
    """The buttons' tooltips; ``unit``: what one press moves, a training "step" or a "merge" replayed."""
    if unit == "merge":
        return {
            "first": _("First: no merge applied yet"),
            "prev": _("Previous merge (← key)"),
            "next": _("Next merge (→ key)"),
            "last": _("Last merge"),
        }
    return {
        "first": _("First: step 0, the starting segmentation"),
        "prev": _("Previous step (← key)"),
        "next": _("Next step (→ key)"),
        "last": _("Last step"),
    }


def step_controls(
    n: int,
    *,
    key: str = "stepper",
    store: StepStore = SESSION,
    label: Callable[[int], str] | None = None,
    unit: str = "step",
    presentation: bool = False,
    training: bool = False,
    autoplay: bool = True,
    limit: int | None = None,
    locked: bool = False,
    jump: bool = True,
    arrows: bool = True,
) -> int:
    """Draw the step control over steps ``0..n`` and return the current step (clamped).

    Args:
        n: the last step (the run's merges so far; a replay's merges).
        key: prefix of the widget keys (``stepper.next``, ``rt.slider``...) and of the CSS class the app's
            script finds the buttons by; one per page.
        store: where the step lives (:class:`StepStore`; default the session's step, :data:`SESSION`).
        label: the HTML of the label for step k (default :func:`step_label_html`, which tests and the
            app's script read as ``#bpe-step-label``).
        unit: ``"step"`` (training steps) or ``"merge"`` (a replay): the buttons' tooltips.
        presentation: First and Last as icons, no slider or number box (one screen per step); with
            ``autoplay``, the autoplay toggle and the zoom picker (:func:`ui.zoom.zoom_control`) join the row.
        training: ``n`` is the end of a run still training. A step asked for beyond it (a link to step
            5,000) is then kept in the store, and shown once trained, and autoplay waits for more merges
            instead of stopping at the last one.
        autoplay: draw the autoplay toggle and its speed (the stepper pages).
        limit: the last step a press or a jump may reach (``None``: ``n``); a stored step beyond it is
            clamped to it.
        locked: draw every control disabled (the step is set from outside).
        jump: draw the slider and the number box. A live class's students step with the buttons and the arrow
            keys: the teacher's every step reruns every student's step view, so each widget left out is server
            time saved once per student.
        arrows: ← / → press this control's Prev / Next. A page with a second step control (the Encode
            page: its tokenizer's step above its replay) gives the arrow keys to one of them only.
    """
    last = n if limit is None else max(0, min(n, int(limit)))
    asked = store.get()
    step = max(0, min(last, asked))
    # A step asked for beyond the merges trained so far (a link; a live class ahead of a run still training
    # here) is kept in the store and shown once trained; a clamp by the limit or the end is written.
    if asked != step and not (training and asked > n and (limit is None or asked <= limit)):
        store.set(step)
    auto = f"{key}.autoplay"
    if autoplay and persist.kept(auto, False) and ((step >= last and not training) or locked):
        persist.put(auto, False)  # nothing left to play

    # Presentation mode draws First and Last as icons (their tooltips name them). In normal mode autoplay
    # moves to the slider's row, so the four labels stay whole in Chinese beside the sidebar at 1024 px.
    with_row = presentation and autoplay
    widths = [0.6, 1.5, 1.5, 0.6, 2.8, 1.3, 1.3] if with_row else [1, 1.5, 1.5, 1, 2.3]
    helps = _helps(unit)
    texts = {"first": _("⏮ First"), "prev": _("◀ Prev"), "next": _("Next ▶"), "last": _("Last ⏭")}
    if presentation:
        texts.update(first="⏮", last="⏭")
    off = {"first": step <= 0, "prev": step <= 0, "next": step >= last, "last": step >= last}
    keys = {"prev": "Left", "next": "Right"} if arrows else {}
    if not arrows:  # their tooltips name the arrow keys
        helps = {**helps, "prev": None, "next": None}
    with st.container(key=f"{key}.stepbar"):
        cols = st.columns(widths, vertical_alignment="center")
        for col, which in zip(cols, BUTTONS):
            col.button(
                texts[which],
                key=f"{key}.{which}",
                on_click=_go,
                args=(which, last, store),
                disabled=locked or off[which],
                shortcut=keys.get(which),
                width="stretch",
                help=helps[which],
            )
        beat = autoplay_speed(key) if autoplay else None
        cols[4].html(label(step) if label else step_label_html(step, n, training, beat))
        if with_row:
            with cols[5]:
                _autoplay_controls(key, step, last, presentation, training, locked)
            from . import zoom  # presentation mode only: a plain step never loads it

            zoom.zoom_control(cols[6])
    if presentation or not (jump or autoplay):
        return step
    with st.container(key=f"{key}.stepjump"):
        cols = st.columns([4, 1.3, 1.7] if autoplay else [4, 1.3], vertical_alignment="bottom")
        if last > 0 and jump:
            slider_key, box_key = jump_keys(key, step, last)
            # A replay counts steps too ("Step 1 of 24"): "merge 1" would clash with the tokenizer's own merge numbers.
            jump = _("Jump to step")
            cols[0].slider(
                jump,
                0,
                last,
                value=step,
                key=slider_key,
                on_change=_from_widget,
                args=(slider_key, last, key, store, step),
                disabled=locked,
            )
            cols[1].number_input(
                _("Step"),
                min_value=0,
                max_value=last,
                value=step,
                step=1,
                key=box_key,
                on_change=_from_widget,
                args=(box_key, last, key, store, step),
                disabled=locked,
            )
        if autoplay:
            with cols[2]:
                _autoplay_controls(key, step, last, presentation, training, locked)
    return step


def _autoplay_controls(key: str, step: int, last: int, presentation: bool, training: bool, locked: bool) -> None:
    """The autoplay toggle and (normal mode) its speed, kept in the session (:func:`autoplay_speed`
    reads them)."""
    auto, speed_name = f"{key}.autoplay", f"{key}.speed"
    st.toggle(
        _("Autoplay"),
        key=persist.seeded(auto, False),
        disabled=locked or (step >= last and not training),
        on_change=persist.keep,
        args=(auto,),
    )
    if not presentation:
        st.select_slider(
            _("Seconds per step"),
            _SPEEDS,
            key=persist.seeded(speed_name, 1.0),
            label_visibility="collapsed",
            format_func=lambda s: _("{seconds} s / step").format(seconds=f"{s:g}"),
            on_change=persist.keep,
            args=(speed_name,),
        )


def page_step(key: str, n: int, kept: str) -> int:
    """A page's own step over ``0..n`` (the Encode and Files pages' tokenizer after step k), kept in the session
    under ``kept`` (all ``n`` until moved): the step control without autoplay or the arrow keys, which stay with a
    replay on the same page. ``key``: the control's widget keys and its label's CSS id (``<key>-label``)."""
    return step_controls(
        n,
        key=key,
        store=KeptStep(kept, n),
        label=lambda k: step_label_html(k, n, css_id=f"{key}-label"),
        autoplay=False,
        arrows=False,
    )
