"""Stepping in the browser: the steps around the current one, drawn ahead of time.

A step through Streamlit is a round trip: the key press goes to the server, the step view reruns, and
the browser redraws every panel of the page (about 0.2 s at step 5,000 of a book, most of it in the
browser). The panels that say what a step did (the step label, the merge card, the pair table and, in
presentation mode, the changed words) are small, so each run of the step view also leaves the HTML of
those panels for the steps just before and after it in a hidden element (``#bpe-ahead``). The app's
script (``static/stepper.js``, part 3) swaps them in the moment ← / → or First / Prev / Next /
Last is pressed; the press still goes to the server as before, and its rerun brings the other panels
(corpus, vocabulary, charts) and the next window. The server's own render of a step is the same HTML,
so nothing changes again when it arrives: the pieces are :func:`ui.panels.step_panels`, drawn from the
step's one value (:func:`bpe_core.teaching.step_view.step_view`) and kept per step in the run's memo.

Only steps a press can reach are sent: ``n`` is the last of them, the stepper's own ``last`` (the run's end,
or a live class's limit). A live class's student never gets a step past the teacher's into the page
(:func:`ui.class_view.step_limit`): it would show the next merge before the teacher asks about it.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import streamlit as st

from . import run_cache
from .i18n import current_language
from .text import esc_raw

#: Steps drawn ahead of the current one, and behind it (Prev, First): holding → down moves this far
#: before it waits for the server.
AHEAD = 4
BEHIND = 2

#: The ids of the elements the script may swap: a step's pieces are ``{id: outer HTML}`` with these ids.
PIECE_IDS = ("bpe-step-label", "bpe-merge-card", "bpe-pair-panel", "bpe-changed")


def window(step: int, n: int) -> range:
    """The steps drawn ahead for ``step`` when ``n`` is the last step a press can reach:
    ``step - BEHIND .. step + AHEAD``, within ``0..n`` (:func:`ahead_html` adds step 0 and step ``n``, for
    First and Last)."""
    return range(max(0, step - BEHIND), min(n, step + AHEAD) + 1)


def ahead_html(key: str, step: int, n: int, pieces: Callable[[int], dict[str, str]]) -> str:
    """The hidden ``#bpe-ahead`` element for stepper ``key`` at ``step``, ``n`` the last step a press can reach
    (``data-n``: the script's Last, and its Next stops there): ``data-step`` is the
    step drawn, ``data-ids`` the ids the script swaps (:data:`PIECE_IDS`); inside, a JSON script block
    ``{"k": {element id: outer HTML}}`` for the steps of :func:`window` and for 0 and ``n``, from
    ``pieces(k)``. Every ``<`` in it is written ``\\u003c``, so the block holds no markup (and no end
    tag) for the browser to parse, whatever text the corpus has."""
    steps = sorted({0, n, *window(step, n)})
    data = json.dumps({str(k): pieces(k) for k in steps}, ensure_ascii=False, separators=(",", ":"))
    data = data.replace("<", "\\u003c")
    return (
        f'<div id="bpe-ahead" hidden data-key="{esc_raw(key)}" data-step="{int(step)}" data-n="{int(n)}" '
        f'data-ids="{" ".join(PIECE_IDS)}">'
        f'<script type="application/json">{data}</script></div>'
    )


def draw_ahead(
    key: str, step: int, n: int, pieces: Callable[[int], dict[str, str]], run=None, variant: tuple = ()
) -> None:
    """Draw :func:`ahead_html` (hidden; its container takes no room, see ``app.css``). The JSON block is
    data, not code, but it is a script element, which Streamlit keeps only with ``unsafe_allow_javascript``.

    ``run``: the run the pieces are of; then the block is kept in its memo (:func:`ui.run_cache.cached`) per step,
    ``n`` and ``variant`` (everything else ``pieces`` depends on, such as the byte mode), so the students of a
    live class, who all redraw the teacher's step, build it once."""
    if run is None:
        block = ahead_html(key, step, n, pieces)
    else:
        block = run_cache.cached_html(
            run,
            "step_ahead",
            (key, int(step), int(n), *variant, current_language()),
            lambda: ahead_html(key, step, n, pieces),
        )
    st.html(block, unsafe_allow_javascript=True)
