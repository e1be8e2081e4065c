"""Interface language: the one place every string a user reads passes through.

API (stable; the implementation behind it is filled in by the Chinese-interface work):

* ``_("Step {step} of {n}").format(step=s, n=n)`` -- translate one whole sentence of the current
  session's language. Always whole sentences with *named* placeholders, never glued fragments.
* ``ngettext("{n} merge", "{n} merges", n).format(n=n)`` -- a sentence with a count (never add "s").
* ``N_("...")`` -- mark a string for extraction where it is defined (tables of labels); translate
  it with ``_()`` where it is shown.
* ``tr()`` -- the current session's translations object (``gettext.NullTranslations`` interface:
  ``.gettext`` / ``.ngettext``), handed to ``bpe_core`` functions that write prose.
"""

from __future__ import annotations

import gettext as _gettext

_ENGLISH = _gettext.NullTranslations()


def tr() -> _gettext.NullTranslations:
    """The current session's translations (English until the catalogs are wired in)."""
    return _ENGLISH


def _(message: str) -> str:
    """``message`` in the session's interface language."""
    return tr().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form of a counted sentence in the session's language."""
    return tr().ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks ``message`` for extraction without translating it now."""
    return message
