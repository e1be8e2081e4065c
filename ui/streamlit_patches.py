"""The app's patches of Streamlit's internals, one module each, each installed only on a Streamlit it was checked
on (:func:`may_install`):

* :mod:`~ui.streamlit_patches.timer_presses` -- a press is counted once, even when the step view's timer fires as
  it is made.
* :mod:`~ui.streamlit_patches.fragment_refs` -- a fragment's rerun drops the unsent elements of the run it
  replaces, cached ones (references) too.

A new patch goes here too, with its own ``CHECKED`` versions, and joins :func:`install`.

**The check every patch makes before it installs**: is this a Streamlit it was checked on?

A patch replaces a private function or method of Streamlit (nothing in Streamlit's public API can mend what it
mends), so it is only known to be right on the Streamlit versions its tests ran on. On any other version the
names it replaces may have moved or changed meaning, and a patch applied blindly could break the app in a way
nobody sees; so :func:`may_install` refuses, loudly, and says the two ways out: install a checked version (the
pins in requirements.txt), or name the patch in :data:`SKIP_VARIABLE` to run without it, accepting the bug it
mends.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

#: The environment variable that names patches to run without (their module names, separated by commas or
#: spaces), e.g. ``BPE_EXPLORER_SKIP_STREAMLIT_PATCHES=fragment_refs,timer_presses``.
SKIP_VARIABLE = "BPE_EXPLORER_SKIP_STREAMLIT_PATCHES"


def skipped(patch: str, environ: Mapping[str, str] | None = None) -> bool:
    """Whether :data:`SKIP_VARIABLE` in ``environ`` (default ``os.environ``) names ``patch`` (a module name such
    as ``"fragment_refs"``)."""
    value = (os.environ if environ is None else environ).get(SKIP_VARIABLE, "")
    return patch in value.replace(",", " ").split()


def installed_version() -> str:
    """The installed Streamlit's version (``streamlit.__version__``, e.g. ``"1.67.0"``)."""
    import streamlit

    return streamlit.__version__


def may_install(
    patch: str,
    checked: tuple[str, ...],
    mends: str,
    version: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> bool:
    """Whether patch ``patch`` may be installed on Streamlit ``version`` (default: the installed one).

    Args:
        patch: the patch's module name in :mod:`ui.streamlit_patches` (what :data:`SKIP_VARIABLE` names).
        checked: the Streamlit versions the patch was written for and checked against (``"1.67.0"``...).
        mends: the bug the patch mends, in a few words (said in the error: what running without it costs).
        version: the Streamlit version to check; ``None`` reads it from the installed Streamlit.
        environ: the environment to read :data:`SKIP_VARIABLE` from (default ``os.environ``).

    Returns ``False`` when :data:`SKIP_VARIABLE` names the patch (the app runs without it, whatever the version),
    ``True`` when ``version`` is one of ``checked``.

    Raises:
        RuntimeError: ``version`` is not one of ``checked`` and the patch is not skipped; the message names the
            installed version, the checked ones and both ways out.
    """
    if skipped(patch, environ):
        return False
    version = installed_version() if version is None else version
    if version in checked:
        return True
    raise RuntimeError(
        f"Streamlit {version} is installed, but the app's patch of Streamlit's internals "
        f"ui/streamlit_patches/{patch}.py was checked only on Streamlit {', '.join(checked)}. Install a checked "
        f"version (pip install -r requirements.txt pins one), or set {SKIP_VARIABLE}={patch} to run without "
        f"this patch, accepting the bug it mends: {mends}"
    )


def install() -> None:
    """Install every patch (once per process; ``app.py`` calls it first thing in every run). Raises
    ``RuntimeError``, saying the way out, when the installed Streamlit is not one a patch was checked on
    (:func:`may_install`)."""
    # The patches import this package's may_install: imported once it is defined.
    from . import fragment_refs, timer_presses

    timer_presses.install()
    fragment_refs.install()
