"""Take-aways for class: a print-ready handout of the first N merges (one HTML file, A4) and a blank worksheet
of the same merges for students (the corpus given, the pair tables to fill in), the current step as a PNG and
the first N merges as an animated GIF for slides.

Nothing is built on a rerun: each download button gets a callable that Streamlit runs only when the
button is clicked (a GIF takes seconds). The callables run outside the script thread, so the
session's translations and language are taken now and passed in.
"""

from __future__ import annotations

import streamlit as st

from bpe_core import TrainedRun
from bpe_core.teaching.handout import handout_html
from bpe_core.teaching.worksheet import worksheet_html

from . import persist
from .chips import run_rtl_note
from .fonts import FontError, find_fonts
from .i18n import _, current_language, tr

#: Merges a handout may hold (it prints about four merges per A4 page, in two columns).
HANDOUT_MAX = 200
HANDOUT_DEFAULT = 10
#: Frames of the GIF (one step each); :data:`ui.pictures.MAX_FRAMES`.
GIF_MAX = 50


def _number(label: str, name: str, default: int, top: int, help: str) -> int:
    """A number box 1..``top`` kept in the session (``top`` >= 1)."""
    value = persist.kept(name, default)
    if not 1 <= int(value) <= top:
        persist.put(name, max(1, min(top, int(value))))
    return int(
        st.number_input(
            label,
            min_value=1,
            max_value=top,
            step=1,
            key=persist.seeded(name, min(default, top)),
            on_change=persist.keep,
            args=(name,),
            help=help,
        )
    )


def downloads(run: TrainedRun, step: int, presentation: bool = False, key: str = "downloads") -> None:
    """The handout, PNG and GIF download buttons for ``run`` (the current corpus and settings) at ``step``."""
    if run.num_steps < 1:
        return
    t, lang = tr(), current_language()
    handout_col, png_col, gif_col = st.columns(3, vertical_alignment="bottom")
    with handout_col:
        n = _number(
            _("Merges in the handout"),
            f"{key}.handout_n",
            HANDOUT_DEFAULT,
            min(HANDOUT_MAX, run.num_steps),
            _(
                "The handout shows the corpus before, then for each merge the top pairs, the rule that chose "
                "one and the corpus after. Print it from the browser (A4) or save it as PDF."
            ),
        )
        st.download_button(
            _("⬇ Handout (HTML, print-ready)"),
            lambda: handout_html(run, n, tr=t, lang=lang),
            file_name=_("bpe-handout-first-{n}-merges.html").format(n=n),
            mime="text/html",
            key=f"{key}.handout",
            on_click="ignore",
        )
        st.download_button(
            _("⬇ Blank worksheet (HTML)"),
            lambda: worksheet_html(run, n, tr=t, lang=lang),
            file_name=_("bpe-worksheet-{n}-merges.html").format(n=n),
            mime="text/html",
            key=f"{key}.worksheet",
            on_click="ignore",
            help=_(
                "The same corpus for students to do the merges by hand: the pair tables are empty. "
                "The handout is its answer key."
            ),
        )
    try:
        find_fonts(lang)
    except FontError as exc:
        png_col.info(_("Pictures need a font with Chinese characters on the server: {problem}").format(problem=exc))
        return
    from .pictures import step_png, steps_gif  # Pillow only when pictures are offered

    with png_col:
        st.download_button(
            _("⬇ This step as PNG"),
            lambda: step_png(run, step, tr=t, lang=lang, presentation=presentation),
            file_name=_("bpe-step-{step}.png").format(step=step),
            mime="image/png",
            key=f"{key}.png",
            on_click="ignore",
            help=_("The merge, the pair table and the changed words as one picture for a slide."),
        )
    with gif_col:
        frames = _number(
            _("Merges in the GIF"),
            f"{key}.gif_n",
            10,
            min(GIF_MAX, run.num_steps),
            _("One frame per merge, from merge 1."),
        )
        st.download_button(
            _("⬇ First merges as GIF"),
            lambda: steps_gif(run, 1, frames, tr=t, lang=lang, presentation=presentation),
            file_name=_("bpe-first-{n}-merges.gif").format(n=frames),
            mime="image/gif",
            key=f"{key}.gif",
            on_click="ignore",
            help=_("An animated picture, one merge per frame; it takes a few seconds to make."),
        )
    note = run_rtl_note(run)
    if note:
        st.caption(note)
