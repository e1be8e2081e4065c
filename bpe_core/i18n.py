"""Interface languages and their gettext catalogs (standard library ``gettext`` only).

Three languages: English (the messages in the code are the English text), 简体中文 (``zh-Hans``) and
繁體中文 (``zh-Hant``, Taiwan usage). The catalogs are gettext files, one per Chinese language:
``bpe_core/locales/<zh_Hans|zh_Hant>/LC_MESSAGES/bpe_explorer.po`` (the source, edited by translators)
and the compiled ``bpe_explorer.mo`` beside it (committed; ``tests/test_i18n.py`` checks that it is
what compiling the ``.po`` gives, and that every message in the code has a translation).

Functions in ``bpe_core`` that write prose for users take ``tr: gettext.NullTranslations | None``
(``None`` = English) and call ``tr.gettext("...")`` / ``tr.ngettext("...", "...", n)`` with the
English text literally, so that the extractor finds it. A word with two senses gets a context:
``tr.pgettext("quiz verdict", "right")`` (正确 / 正確) is not ``tr.gettext("right")``, the right side of a pair
(右); ``tr.npgettext(context, singular, plural, n)`` counts. Babel's default keywords extract all four,
but not a call written inside an f-string (on Python 3.11 an f-string is one token to its extractor): write
``_("... {x}").format(x=...)``, never ``f"{_('...')}"``. ``tests/test_catalog_sites.py`` finds every call site
with :mod:`ast`, f-strings included, and checks that both catalogs hold it.

Updating the catalogs (also in README.md, Development > Translations; Babel is a development
dependency, see requirements-dev.txt; run from the repository root)::

    pybabel extract -F babel.cfg -o bpe_core/locales/bpe_explorer.pot --no-location --sort-output .
    pybabel update -i bpe_core/locales/bpe_explorer.pot -d bpe_core/locales -D bpe_explorer -l zh_Hans
    pybabel update -i bpe_core/locales/bpe_explorer.pot -d bpe_core/locales -D bpe_explorer -l zh_Hant
    # translate the new or fuzzy entries in both .po files (review against ui/glossary.py), then:
    pybabel compile -d bpe_core/locales -D bpe_explorer --use-fuzzy --statistics

(``--use-fuzzy`` only makes ``compile`` byte-identical to what the test compiles; the test fails on
any fuzzy entry, so none is left in a committed catalog.)
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

#: Interface languages as BCP 47 tags; the first is the language of the messages in the code.
LANGUAGES = ("en", "zh-Hans", "zh-Hant")

#: Each language's name in itself (what the language picker shows).
LANGUAGE_NAMES = {"en": "English", "zh-Hans": "简体中文", "zh-Hant": "繁體中文"}

DOMAIN = "bpe_explorer"
LOCALES_DIR = Path(__file__).resolve().parent / "locales"

# gettext directory names (a hyphen is not usual in a locale directory name).
_CATALOG_DIRS = {"zh-Hans": "zh_Hans", "zh-Hant": "zh_Hant"}

# Regions whose written Chinese is Traditional (Taiwan, Hong Kong, Macau).
_HANT_REGIONS = {"tw", "hk", "mo"}


def catalog_path(lang: str, suffix: str = ".mo") -> Path:
    """The catalog file of a Chinese language (``suffix`` ``".mo"`` or ``".po"``).

    Raises ``ValueError`` for English (it has no catalog) or an unknown language.
    """
    if lang not in _CATALOG_DIRS:
        raise ValueError(f"no catalog for language {lang!r}; catalogs exist for {sorted(_CATALOG_DIRS)}")
    return LOCALES_DIR / _CATALOG_DIRS[lang] / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The translations of ``lang`` (one of :data:`LANGUAGES`), loaded once per process.

    English gives a ``gettext.NullTranslations`` (messages come back unchanged); Chinese a
    ``gettext.GNUTranslations`` read from the compiled catalog. Raises ``ValueError`` for a language
    not in :data:`LANGUAGES`, ``OSError`` when a Chinese catalog file is missing (a broken install).
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown interface language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    if lang == "en":
        return gettext.NullTranslations()
    with open(catalog_path(lang), "rb") as f:
        return gettext.GNUTranslations(f)


def parse_language(value: str | None) -> str | None:
    """The interface language named exactly by ``value`` (``"zh-hant"``, ``"zh_Hans"``, ``"EN"``), else ``None``.

    For the ``?lang=`` URL parameter: only the three codes of :data:`LANGUAGES`, any case, ``_`` or
    ``-``; a browser tag such as ``zh-TW`` is :func:`best_language`'s job.
    """
    if not value:
        return None
    key = value.strip().replace("_", "-").lower()
    return next((lang for lang in LANGUAGES if lang.lower() == key), None)


def _match(tag: str) -> str | None:
    """The interface language for one language tag (``zh-Hant-TW``, ``zh_CN.UTF-8``), or ``None``."""
    tag = tag.split(".")[0].split("@")[0].replace("_", "-").strip().lower()
    parts = [p for p in tag.split("-") if p]
    if not parts:
        return None
    if parts[0] == "en":
        return "en"
    if parts[0] != "zh":
        return None
    rest = parts[1:]
    # A script subtag decides (zh-Hans-HK is Simplified); else the region; Traditional only for TW/HK/MO.
    if "hant" in rest:
        return "zh-Hant"
    if "hans" in rest:
        return "zh-Hans"
    return "zh-Hant" if _HANT_REGIONS.intersection(rest) else "zh-Hans"


def best_language(accept_language: str | None) -> str:
    """The interface language for a browser's ``Accept-Language`` header or a single locale.

    ``accept_language``: an HTTP header value (``"zh-TW,zh;q=0.9,en;q=0.8"``, RFC 9110 §12.5.4: tags
    tried in order of decreasing ``q``, equal ``q`` in the order written, ``q=0`` meaning "not
    acceptable"), a browser locale (``"zh-CN"``) or a POSIX locale (``"zh_TW.UTF-8"``).
    Chinese for Taiwan, Hong Kong or Macau, or with the ``Hant`` script, gives ``"zh-Hant"``; other
    Chinese ``"zh-Hans"``; the first tag that is English or Chinese decides; else ``"en"``.
    Malformed parts are skipped, never raised.
    """
    if not accept_language:
        return "en"
    ranked = []
    for order, item in enumerate(accept_language.split(",")):
        tag, *params = item.split(";")
        q = 1.0
        try:
            for param in params:
                key, _eq, value = param.partition("=")
                if key.strip().lower() == "q":
                    q = float(value)
        except ValueError:
            continue
        if q > 0 and tag.strip() and tag.strip() != "*":
            ranked.append((-q, order, tag))
    for _q, _order, tag in sorted(ranked):
        lang = _match(tag)
        if lang is not None:
            return lang
    return "en"


def format_number(n: int | float, lang: str = "en", decimals: int | None = None) -> str:
    """``n`` with digit grouping for the interface language ``lang``: ``12,345`` / ``0.25``.

    ``decimals``: digits after the decimal point (``None``: an int as is, a float with Python's
    shortest repr). English, zh-Hans and zh-Hant share the same number format in CLDR (group
    separator ``,`` every three digits, decimal point ``.``; Chinese large-number units such as 万
    are for prose, not for tables), so the language only gets validated. Raises ``ValueError`` for
    an unknown language.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown interface language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    if decimals is not None:
        return f"{n:,.{decimals}f}"
    return f"{n:,}"


def N_(message: str) -> str:
    """Marks ``message`` for extraction where it is defined (a table of labels, a string written inside an
    f-string); it is translated with ``gettext`` where it is shown."""
    return message
