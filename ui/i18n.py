"""Interface language: the one place every string a user reads passes through.

API (stable):

* ``_("Step {step} of {n}").format(step=s, n=n)`` -- translate one whole sentence of the current
  session's language. Always whole sentences with *named* placeholders, never glued fragments.
* ``ngettext("{n} merge", "{n} merges", n).format(n=n)`` -- a sentence with a count (never add "s").
* ``pgettext("quiz verdict", "right")`` -- a word with two senses, told apart by a context (the verdict
  *right* is 正确, the right side of a pair 右); ``npgettext(context, singular, plural, n)`` with a count.
* ``N_("...")`` -- mark a string for extraction where it is defined (tables of labels); translate
  it with ``_()`` where it is shown.
* ``tr()`` -- the current session's translations object (``gettext.NullTranslations`` interface:
  ``.gettext`` / ``.ngettext`` / ``.pgettext`` / ``.npgettext``), handed to ``bpe_core`` functions that write prose.
* ``current_language()`` -- ``"en"``, ``"zh-Hans"`` or ``"zh-Hant"`` for this session.
* ``language_picker(container=None)`` -- the sidebar's language selectbox.
* ``url_param()`` -- ``{"lang": ...}`` (or ``{}``) for the page's URL parameters.

The session's language: ``?lang=en|zh-Hans|zh-Hant`` in the URL wins (and is remembered in the
session, so a page switch, which empties the URL, keeps it); else the language kept in the session
(from the URL or the picker); else the browser's preferred language (its ``Accept-Language`` header,
else ``st.context.locale``); else English. Outside a Streamlit run (plain imports, unit tests) it
is English.
"""

from __future__ import annotations

import gettext as _gettext

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from bpe_core.i18n import LANGUAGE_NAMES, LANGUAGES, best_language, parse_language, translations
from bpe_core.i18n import N_ as N_  # re-exported: the one extraction marker, for ui and pages

#: The URL parameter holding the interface language.
LANG_PARAM = "lang"
# Session keys: the language chosen (by URL or picker), and the picker widget's own key.
K_LANG = "i18n.lang"
K_WIDGET = "w.i18n.lang"
# The browser's language, read from its request headers once per session (hundreds of strings are
# translated per run, and reading the headers each time cost tens of milliseconds per step).
K_BROWSER = "i18n.browser"


def browser_language() -> str:
    """The interface language the browser prefers (English when it says nothing we know)."""
    headers = st.context.headers
    header = headers.get("Accept-Language") if headers is not None else None
    return best_language(header or st.context.locale)


#: The language the last script run resolved. Outside a run (no script context) that is the answer: a
#: widget's ``format_func`` called after the run that drew it (Streamlit's AppTest does so, from its own
#: thread, to read a widget's value) must label the options as that run did. The app itself translates
#: only inside runs (download callbacks capture their translations first), so no session reads another's.
_last = {"lang": "en"}


def current_language() -> str:
    """This session's interface language, one of :data:`bpe_core.i18n.LANGUAGES` (see the module doc)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None:
        return _last["lang"]
    # Resolved once per run (the picker's callback runs before the script, so a run has one language):
    # a step translates hundreds of strings, and each lookup through st.query_params and
    # st.session_state costs tens of microseconds. A run starts with a new ``ctx.cursors`` dict.
    cached = getattr(ctx, "_bpe_language", None)
    if cached is not None and cached[0] is ctx.cursors:
        return cached[1]
    _last["lang"] = lang = _session_language()
    ctx._bpe_language = (ctx.cursors, lang)
    return lang


def _session_language() -> str:
    ss = st.session_state
    from_url = parse_language(st.query_params.get(LANG_PARAM))
    if from_url is not None:
        if ss.get(K_LANG) != from_url:
            ss[K_LANG] = from_url
        return from_url
    kept = ss.get(K_LANG)
    if kept in LANGUAGES:
        return kept
    browser = ss.get(K_BROWSER)
    if browser is None:
        browser = ss[K_BROWSER] = browser_language()
    return browser


def tr() -> _gettext.NullTranslations:
    """The current session's translations (``.gettext`` / ``.ngettext`` / ``.pgettext`` / ``.npgettext``)."""
    return translations(current_language())


def _(message: str) -> str:
    """``message`` in the session's interface language."""
    return tr().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form of a counted sentence in the session's language."""
    return tr().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the session's language, in the sense ``context`` names (a msgctxt of the catalogs)."""
    return tr().pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` for a counted sentence whose words need a ``context`` (see :func:`pgettext`)."""
    return tr().npgettext(context, singular, plural, n)


def url_param() -> dict[str, str]:
    """The language's URL parameter, to merge into a page's URL parameters.

    ``{"lang": code}`` when the session has a language from the URL or the picker, or a Chinese
    one from the browser (so a shared link opens in it); ``{}`` for plain English by default, so
    links of English sessions stay as they were.
    """
    lang = current_language()
    if lang != "en" or get_script_run_ctx(suppress_warning=True) is not None and K_LANG in st.session_state:
        return {LANG_PARAM: lang}
    return {}


def _picked() -> None:
    """``on_change`` of the picker: remember the choice and put it in the URL."""
    lang = st.session_state[K_WIDGET]
    st.session_state[K_LANG] = lang
    st.query_params[LANG_PARAM] = lang


def language_picker(container=None) -> str:
    """Draw the language selectbox (in ``container``, default the sidebar); returns the language.

    The choice goes to the session and to the URL (``?lang=``), so it survives a page switch and is
    part of shared links. Call it before anything else is drawn in the sidebar, so that every
    string of the run is in the new language.
    """
    lang = current_language()
    st.session_state[K_WIDGET] = lang
    (container if container is not None else st.sidebar).selectbox(
        "🌐 " + _("Language"),
        LANGUAGES,
        format_func=LANGUAGE_NAMES.__getitem__,
        key=K_WIDGET,
        on_change=_picked,
    )
    param = url_param()
    if param and st.query_params.get(LANG_PARAM) != param[LANG_PARAM]:
        st.query_params[LANG_PARAM] = param[LANG_PARAM]
    return lang


def join_list(items) -> str:
    """``items`` (strings) joined as a list in the session's language: ``a, b`` / ``a、b``."""
    return tr().pgettext("list separator", ", ").join(items)
