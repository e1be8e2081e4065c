"""Step through BPE: pick or paste a corpus, then step through training merge by merge.

Inputs (the sidebar) -> one cached training run (bpe_core) -> the panels of the current step.
"""

import streamlit as st

from ui import (
    charts,
    corpus_panel,
    page,
    panels,
    persist,
    sidebar,
    step_ahead,
    stepper,
    training,
)
from ui.explain import rules_html
from ui.i18n import _, ngettext
from ui.sidebar import Choice
from ui.text import md_escape

#: The algorithms other than BPE this page steps, by their papers' names (the same in every language).
OTHER_ALGORITHMS = {"wordpiece": "WordPiece", "unigram": "Unigram", "picky": "PickyBPE", "boundless": "BoundlessBPE"}


def header(choice: Choice) -> None:
    """The title and the corpus line (input messages appear under it)."""
    if not choice.display.presentation:
        page.page_title(_("BPE Explorer"))
    if choice.ok and choice.config.algorithm in OTHER_ALGORITHMS:
        name = OTHER_ALGORITHMS[choice.config.algorithm]
        st.caption(
            md_escape(_("{algorithm}, one step at a time · {corpus}").format(algorithm=name, corpus=choice.label))
        )
    elif choice.ok:
        st.caption(md_escape(_("Byte-Pair Encoding, one merge at a time · {corpus}").format(corpus=choice.label)))


def merge_and_pairs(run, step: int, mode: str, present: bool, waits: bool = False) -> None:
    """The merge, the words it changed (presentation mode: here, on the first screen) and the pair table (``waits``:
    a live class's student at the teacher's step, :func:`ui.panels.step_panels`)."""
    pieces = panels.step_panels(run, step, mode, present, waits)
    left, right = st.columns([5, 4], gap="medium")
    with left:
        st.html(pieces["bpe-merge-card"])
        if "bpe-changed" in pieces:
            st.html(pieces["bpe-changed"])
    with right:
        st.html(pieces["bpe-pair-panel"])


def step_pieces(run, mode: str, present: bool, training: bool, beat: float | None, teacher_at: int | None = None):
    """Step k's label and panels, ``{element id: HTML}``, for :mod:`ui.step_ahead` (``beat``: autoplay's seconds
    per step, or ``None``; ``teacher_at``: a live class's student's limit, the teacher's step)."""

    def pieces(k: int) -> dict[str, str]:
        label = stepper.step_label_html(k, run.num_steps, training, beat)
        waits = teacher_at is not None and k >= teacher_at
        return {"bpe-step-label": label, **panels.step_panels(run, k, mode, present, waits)}

    return pieces


def corpus_and_vocabulary(run, step: int, mode: str, present: bool) -> None:
    """The corpus table, the vocabulary with its merge tree, and the charts over all steps."""
    st.subheader(_("Corpus"))
    corpus_panel.corpus_table(run, step, mode, present)
    left, right = st.columns([3, 2], gap="medium")
    with left:
        st.subheader(_("Vocabulary"))
        corpus_panel.vocabulary(run, step, mode, present)
    with right:
        st.subheader(_("Over all steps"))
        charts.charts(run, step, present, columns=False)


def take_aways(run, step: int, present: bool) -> None:
    """The merges so far (table, Markdown, CSV), the handout and the pictures for slides."""
    title = ngettext("The merge so far ({n})", "The merges so far ({n})", step).format(n=f"{step:,}")
    box = page.lazy_expander(title, "merges.open")
    if box is not None:
        from ui import merges_view  # the table of merges loads only once the box is opened

        with box:
            merges_view.merges_so_far(run, step)
    box = page.lazy_expander(_("Handout and pictures for slides"), "downloads.open")
    if box is not None:
        from ui import downloads  # the pictures and their fonts load only once the box is opened

        with box:
            downloads.downloads(run, step, present)
    box = None if present else page.lazy_expander(_("The rules this trainer follows"), "rules.open")
    if box is not None:
        with box:
            st.html(rules_html(run))


def live_class():
    """The live class's module (:mod:`ui.class_view`) when this run has anything to do with a class
    (:func:`ui.persist.class_asked`), else ``None``: a step outside a class never loads the class's modules."""
    if not persist.class_asked():
        return None
    from ui import class_view

    return class_view


def class_round():
    """:mod:`ui.class_round`, the class's row and questions: loaded in a class only."""
    from ui import class_round

    return class_round


def field_stepper():
    """:mod:`ui.field_stepper`, the stepper of WordPiece and Unigram runs: loaded for them only."""
    from ui import field_stepper

    return field_stepper


def start_class(params: dict, step: int) -> None:
    """The callback of "Start a class": the class's modules load now (:func:`ui.class_view.start`)."""
    from ui import class_view

    persist.set_step(step)  # the field stepper's step is its slider's: the teacher's step is the class's from now on
    class_view.start(params, step)


def step_view(every: float | None, choice: Choice) -> None:
    """Everything that changes with the step. A fragment (:func:`ui.stepper.step_fragment`): Next / Prev /
    the arrow keys / the slider rerun only this part, not the sidebar, so a step costs the server and the
    browser less; while the run trains it also reruns by itself, to reach new merges."""
    live = training.get_live_run(choice.corpus, choice.config)
    if live is None:
        return
    try:
        draw_step(live, every, choice)
    finally:
        training.drawn(live)  # a training paused while the first view of it was drawn goes on


def draw_step(live: training.Live, every: float | None, choice: Choice) -> None:
    """:func:`step_view` once the run is there."""
    stepper.check_timer(not live.finished, every)
    run, mode, present = live.run, choice.display.byte_mode, choice.display.presentation
    class_view = live_class()
    # A live class moves the step through the stepper's hooks.
    in_class = class_view.prepare_step(run.num_steps) if class_view is not None else None
    klass = limit = None
    # A student steps with the buttons and the arrow keys: no slider, number box or autoplay.
    own = in_class is None or persist.is_teacher()
    if in_class is not None:
        klass, store = in_class
        limit = class_view.step_limit(klass)  # a student: never past the teacher's step
        class_round().bar(klass, run, min(store.get(), run.num_steps), present)
        # The class's CSS keeps a student's step row on one line on a phone.
        with st.container(key="class-stepper-teacher" if own else "class-stepper-student"):
            step = stepper.step_controls(
                run.num_steps,
                store=store,
                limit=limit,
                presentation=present,
                training=not live.finished,
                jump=own,
                autoplay=own,
            )
    else:
        step = stepper.step_controls(run.num_steps, presentation=present, training=not live.finished)
    if not present:  # one screen per step: in presentation mode the label's "so far" says it
        training.training_note(live)
    if klass is not None:
        if class_round().step_part(klass, run, step, mode, present, limit):
            sidebar.write_url(choice, step)
            return
        in_quiz = False
    else:
        in_quiz = persist.quiz_switch()  # before write_url, which rewrites the query string without ?quiz=
    sidebar.write_url(choice, step)
    if in_quiz:  # the question replaces the step's panels
        from ui import quiz  # quiz mode only: a plain step never loads it

        quiz.panel(run, step, choice.display)
        return
    teacher_at = None if own else limit  # a live class's student: the teacher's step (None once it ended)
    merge_and_pairs(run, step, mode, present, teacher_at is not None and step >= teacher_at)
    # The steps around this one that a press can reach (a student: none past the teacher's), for the browser to show
    # at once on the next press.
    training_, beat = not live.finished, stepper.autoplay_speed("stepper") if own else None
    pieces = step_pieces(run, mode, present, training_, beat, teacher_at)
    last = run.num_steps if limit is None else min(run.num_steps, limit)
    step_ahead.draw_ahead("stepper", step, last, pieces, run, (mode, present, training_, beat, teacher_at))
    corpus_and_vocabulary(run, step, mode, present)
    take_aways(run, step, present)


def main() -> None:
    """The sidebar (adopting a class's link first), the title and the class box, then the step view as a fragment."""
    class_view = live_class()
    if class_view is not None:
        class_view.enter()  # ?class=CODE: the class's corpus and settings become the URL the sidebar adopts
    top = st.container()  # filled after the sidebar, so that input messages appear under the title
    choice = page.start_page(None, "🧩")
    # WordPiece and Unigram have their own stepper (with the same class: ui.class_field asks their questions).
    field = choice.ok and training.merge_config(choice.config) is not choice.config
    with top:
        header(choice)
        bad_code = class_view.messages() if class_view is not None else False
        # Outside the step view (a fragment): starting or joining a class reruns the whole page, which then polls.
        # On the projector (presentation mode) the closed boxes would push the step below the first screen: a class
        # is started before presenting, and a bad code still opens the join box.
        removals = field and choice.config.algorithm in ("picky", "boundless")  # no class: stepped alone
        startable = choice.ok and not removals and (not field or field_stepper().can_train(choice))
        if removals and not choice.display.presentation:
            st.caption(_("A live class runs on BPE, WordPiece and Unigram; PickyBPE and BoundlessBPE step here alone."))
        if startable and not persist.class_code() and (bad_code or not choice.display.presentation):
            at = st.session_state.get("field_step", 0) if field else persist.get_step()  # the field stepper's slider
            persist.start_box(sidebar.url_params(choice), at, start_class, join_open=bad_code)
    # Waits only for merge 1 (or the step a link asks for): the rest trains behind the page, which steps
    # through what is trained so far.
    if removals:  # merges and removals: their own stepper
        from ui import picky_stepper

        return picky_stepper.page(choice)
    if field:  # not merge runs: their own stepper
        field_stepper().page(choice, class_view)
        if class_view is not None:
            class_view.poll()
        return
    live = training.get_live_run(choice.corpus, choice.config, want=persist.get_step())
    if live is None:
        return
    stepper.step_fragment(step_view, not live.finished, choice)
    if class_view is not None:
        class_view.poll()  # in a live class: the fragment that polls its version


main()
