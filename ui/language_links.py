"""The Languages page's own URL parameters: ``article`` (``all``, ``preamble`` or 1-30) and ``language`` (a
Declaration key such as ``cmn_hans`` or ``arb``), written beside the sidebar's so a shared link opens the same
article and the same language read as chips.

A link's value is adopted only when it is new to the session (opened from outside, not the one the page itself
wrote last), so the learner's later picks are not overwritten by the URL. A bad value gives a clear message and the
default, never a traceback.
"""

from __future__ import annotations

from bpe_core.languages import declaration as decl

from .i18n import _, current_language
from .text import md_escape

ARTICLE_PARAM = "article"
LANGUAGE_PARAM = "language"


def default_language() -> str:
    """The language read as chips when the link names none: the Chinese of the interface's script
    (``cmn_hant`` in the 繁體 interface, else ``cmn_hans``)."""
    return decl.chinese_key(current_language())


_ALL, _PREAMBLE = "all", "preamble"


def article_param(choice: int | None) -> str:
    """The URL value of an article choice: ``all`` (``None``), ``preamble`` (0) or the article's number."""
    if choice is None:
        return _ALL
    return _PREAMBLE if choice == 0 else str(choice)


def parse_article(raw: str) -> tuple[int | None, bool]:
    """``(choice, ok)`` for a URL value: ``all`` -> ``None``, ``preamble`` or ``0`` -> 0, ``1``..``30`` -> that
    article; anything else -> ``(None, False)`` (the whole Declaration)."""
    value = raw.strip().lower()
    if value == _ALL:
        return None, True
    if value == _PREAMBLE:
        return 0, True
    if value.isascii() and value.isdigit() and int(value) <= decl.ARTICLES:
        return int(value), True
    return None, False


def parse_language(raw: str) -> tuple[str, bool]:
    """``(key, ok)`` for a URL value: a Declaration key (case ignored) -> itself; else the default, ``False``."""
    value = raw.strip().lower()
    return (value, True) if value in decl.KEYS else (default_language(), False)


def url_values(article: int | None, language: str) -> dict[str, str]:
    """The page's parameters for the URL."""
    return {ARTICLE_PARAM: article_param(article), LANGUAGE_PARAM: language}


def adopt(params: dict[str, str], last: dict | None, state, keys: tuple[str, str], names) -> list[str]:
    """Set the widgets' values (``state[keys[0]]``: the article, ``state[keys[1]]``: the language) from ``params``
    where a value is new (differs from ``last``, what the page last wrote into the URL); return the messages for
    bad values (Markdown, the value escaped), each naming the default shown instead (``names(key)``: a
    language's name in the interface language)."""
    last = last or {}
    article_key, language_key = keys
    notes = []
    raw = params.get(ARTICLE_PARAM)
    if raw is not None and raw != last.get(ARTICLE_PARAM):
        choice, ok = parse_article(raw)
        state[article_key] = choice
        if not ok:
            notes.append(
                _(
                    "The link's article={value} is not a part of the Declaration (use all, preamble or 1-30); "
                    "showing the whole Declaration."
                ).format(value=md_escape(repr(raw[:40])))
            )
    raw = params.get(LANGUAGE_PARAM)
    if raw is not None and raw != last.get(LANGUAGE_PARAM):
        key, ok = parse_language(raw)
        state[language_key] = key
        if not ok:
            notes.append(
                _("The link's language={value} is not one of the Declaration's languages ({keys}); showing {name}.")
                .format(value=md_escape(repr(raw[:40])), keys=", ".join(decl.KEYS), name=names(default_language()))
            )  # fmt: skip
    return notes
