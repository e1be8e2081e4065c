"""The app's patches of Streamlit's internals, one module each, each installed only on a Streamlit it was checked
on (:mod:`ui.streamlit_patches.guard`):

* :mod:`~ui.streamlit_patches.timer_presses` -- a press is counted once, even when the step view's timer fires as
  it is made.
* :mod:`~ui.streamlit_patches.fragment_refs` -- a fragment's rerun drops the unsent elements of the run it
  replaces, cached ones (references) too.

A new patch goes here too, with its own ``CHECKED`` versions, and joins :func:`install`.
"""

from __future__ import annotations

from . import fragment_refs, timer_presses


def install() -> None:
    """Install every patch (once per process; ``app.py`` calls it first thing in every run). Raises
    ``RuntimeError``, saying the way out, when the installed Streamlit is not one a patch was checked on
    (:func:`ui.streamlit_patches.guard.may_install`)."""
    timer_presses.install()
    fragment_refs.install()
