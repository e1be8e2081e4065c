"""BPE Explorer: the stepper. Pick or paste a corpus, then step through BPE training merge by merge.

Thin on purpose: sidebar input -> one cached training run -> render the current step.
Everything shared with the other pages lives in ``ui/``.
"""

import streamlit as st

from ui import render, state, training
from ui.text import md_escape

st.set_page_config(page_title="BPE Explorer", page_icon="🧩", layout="wide")

header = st.container()  # filled below, so that input messages appear under the title
sel = state.sidebar()
if sel.presentation:
    # Presentation links open with the sidebar folded: more room for the class to read.
    st.set_page_config(initial_sidebar_state="collapsed")
render.setup_page(sel)

with header:
    if not sel.presentation:
        st.title("BPE Explorer")
    if sel.ok:
        st.caption(md_escape(f"Byte-Pair Encoding, one merge at a time · {sel.label}"))

run = training.get_run(sel)
if run is None:
    st.stop()


@st.fragment
def stepper(run, sel) -> None:
    """Everything that changes with the step. A fragment: Next / Prev / the arrow keys / the slider
    rerun only this part, not the sidebar, so a step costs the server and the browser less."""
    mode = sel.byte_mode
    present = sel.presentation
    step = render.step_controls(run, presentation=present)
    state.write_url(sel, step)

    left, right = st.columns([5, 4], gap="medium")
    with left:
        render.merge_card(run, step, mode, present)
    with right:
        render.pair_table(run, step, mode, present)

    st.subheader("Corpus")
    render.corpus_table(run, step, mode, present)

    left, right = st.columns([3, 2], gap="medium")
    with left:
        st.subheader("Vocabulary")
        render.vocabulary(run, step, mode, present)
    with right:
        st.subheader("Over all steps")
        render.charts(run, step, present, columns=False)

    if not present:
        with st.expander("The rules this trainer follows"):
            st.html(render.rules_html(run))


stepper(run, sel)
