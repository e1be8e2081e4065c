"""The interface catalogs: every message in the code is translated in both Chinese catalogs, with the
same placeholders; the committed .mo files are what compiling the .po gives; language negotiation.

Messages are extracted with Babel's API and babel.cfg's method map (what ``pybabel extract`` does),
from the files under :data:`EXTRACT_PATHS` (``None``: the whole tree; it was narrower until every
module's strings are wrapped and translated).
"""

from __future__ import annotations

import gettext
import io
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from streamlit.testing.v1 import AppTest

from bpe_core.i18n import LANGUAGE_NAMES, LANGUAGES, best_language, catalog_path, format_number, translations

REPO = Path(__file__).resolve().parent.parent
#: Files or folders (relative to the repository root) whose messages must all be translated; None: all.
EXTRACT_PATHS: tuple[str, ...] | None = None
CHINESE = ("zh-Hans", "zh-Hant")
PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[diouxXeEfFgGcrsa%]")


def extracted() -> list[tuple[str, str | tuple[str, str], str | None]]:
    """``(file, message id, context)`` for every message in the code (plural ids are ``(singular, plural)``)."""
    with open(REPO / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    out = []
    for filename, _lineno, message, _comments, context in extract_from_dir(
        str(REPO), method_map, options_map, keywords=DEFAULT_KEYWORDS
    ):
        path = Path(filename).as_posix()
        if EXTRACT_PATHS is None or any(path == p or path.startswith(p.rstrip("/") + "/") for p in EXTRACT_PATHS):
            out.append((path, message, context))
    return out


def load_po(lang: str):
    with open(catalog_path(lang, ".po"), "rb") as f:
        return read_po(f)


def brace_fields(text: str) -> set[str]:
    """The named ``{placeholders}`` of a ``str.format`` string (raises ValueError on a malformed one)."""
    return {field for _lit, field, _spec, _conv in string.Formatter().parse(text) if field is not None}


def percent_fields(text: str) -> list[str]:
    return sorted(m for m in PERCENT.findall(text) if m != "%%")


def test_extraction_finds_the_messages():
    messages = extracted()
    files = {path for path, _m, _c in messages}
    # Every listed file that holds messages is seen (a broken babel.cfg would find none).
    assert {"ui/glossary.py", "app_pages/8_How_BPE_works.py", "app_pages/9_Glossary.py", "ui/i18n.py"} <= files
    ids = {m for _p, m, _c in messages}
    assert "How BPE works" in ids
    assert ("The first merge", "The first {n} merges") in ids  # ngettext
    assert "Term" in ids  # N_
    assert ", " in ids  # pgettext, context "list separator"
    contexts = {(m, c) for _p, m, c in messages if c}
    assert ("right", "quiz verdict") in contexts  # ui.i18n.pgettext
    assert ("Tokens", "the tokens themselves, not a count") in contexts  # tr.pgettext in bpe_core


def test_tr_gettext_calls_are_extracted(tmp_path):
    """bpe_core functions call tr.gettext / tr.ngettext: the default keywords must find them."""
    (tmp_path / "bpe_core").mkdir()
    (tmp_path / "bpe_core" / "x.py").write_text(
        "def f(tr, n):\n    return tr.gettext('Hello {name}'), tr.ngettext('{n} merge', '{n} merges', n)\n"
    )
    with open(REPO / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    found = [m for _f, _l, m, _c, _x in extract_from_dir(str(tmp_path), method_map, options_map)]
    assert found == ["Hello {name}", ("{n} merge", "{n} merges")]


@pytest.mark.parametrize("lang", CHINESE)
def test_every_message_is_translated_with_the_same_placeholders(lang):
    catalog = load_po(lang)
    assert catalog.plural_forms == "nplurals=1; plural=0;"
    problems = []
    for path, message, context in extracted():
        key = message[0] if isinstance(message, tuple) else message
        entry = catalog.get(key, context=context)
        where = f"{path}: {key!r}"
        if entry is None:
            problems.append(f"{where}: no entry")
            continue
        if entry.fuzzy:
            problems.append(f"{where}: fuzzy")
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if not all(forms):
            problems.append(f"{where}: empty translation")
            continue
        english = message if isinstance(message, tuple) else (message,)
        want_braces = set().union(*(brace_fields(e) for e in english))
        want_percent = percent_fields(english[-1])
        for form in forms:
            try:
                got = brace_fields(form)
            except ValueError as e:
                problems.append(f"{where}: malformed translation {form!r}: {e}")
                continue
            if got != want_braces:
                problems.append(f"{where}: placeholders {sorted(got)} instead of {sorted(want_braces)}")
            if percent_fields(form) != want_percent:
                problems.append(f"{where}: %-placeholders {percent_fields(form)} instead of {want_percent}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", CHINESE)
def test_committed_mo_is_the_compiled_po(lang):
    """Compiling the .po (as ``pybabel compile --use-fuzzy`` does) gives exactly the committed .mo."""
    buf = io.BytesIO()
    write_mo(buf, load_po(lang), use_fuzzy=True)
    assert catalog_path(lang).read_bytes() == buf.getvalue(), "run pybabel compile (see bpe_core/i18n.py)"


def test_translations_load():
    assert type(translations("en")) is gettext.NullTranslations
    assert translations("en").gettext("Glossary") == "Glossary"
    assert translations("zh-Hans").gettext("Glossary") == "术语表"
    assert translations("zh-Hant").gettext("Glossary") == "術語表"
    assert translations("zh-Hant").ngettext("The first merge", "The first {n} merges", 5) == "前 {n} 次合併"
    assert translations("zh-Hans").pgettext("list separator", ", ") == "、"
    assert translations("zh-Hans") is translations("zh-Hans")  # cached
    assert translations("zh-Hans").gettext("no such message") == "no such message"


@pytest.mark.parametrize("bad", ["fr", "zh", "zh_Hans", "", "EN"])
def test_translations_of_unknown_language_raise(bad):
    with pytest.raises(ValueError, match="unknown interface language"):
        translations(bad)


def test_language_names():
    assert LANGUAGES == ("en", "zh-Hans", "zh-Hant")
    assert [LANGUAGE_NAMES[lang] for lang in LANGUAGES] == ["English", "简体中文", "繁體中文"]


@pytest.mark.parametrize(
    "header, expected",
    [
        (None, "en"),
        ("", "en"),
        ("en-US", "en"),
        ("fr-FR,fr;q=0.9", "en"),
        ("zh-CN", "zh-Hans"),
        ("zh", "zh-Hans"),
        ("zh-SG", "zh-Hans"),
        ("zh-TW", "zh-Hant"),
        ("zh-HK", "zh-Hant"),
        ("zh-MO", "zh-Hant"),
        ("zh-Hant", "zh-Hant"),
        ("zh-Hant-CN", "zh-Hant"),
        ("zh-Hans-HK", "zh-Hans"),
        ("ZH-tw", "zh-Hant"),
        ("zh_TW.UTF-8", "zh-Hant"),
        ("zh_CN.UTF-8", "zh-Hans"),
        ("zh-TW,zh;q=0.9,en-US;q=0.8,en;q=0.7", "zh-Hant"),
        ("en-US,en;q=0.9,zh-CN;q=0.8", "en"),
        ("fr,zh-TW;q=0.5", "zh-Hant"),
        ("fr,en;q=0.8,zh;q=0.5", "en"),
        ("en;q=0.5,zh-CN;q=0.9", "zh-Hans"),  # q-values, not the written order, decide
        ("zh-CN;q=0,en", "en"),  # q=0: not acceptable
        ("zh-TW;q=0.8,zh-CN;q=0.8", "zh-Hant"),  # equal q: written order
        ("*", "en"),
        ("zh-CN;q=abc, zh-TW", "zh-Hant"),  # a malformed q is skipped, not raised
        (" , ;q=1", "en"),
    ],
)
def test_best_language(header, expected):
    assert best_language(header) == expected


def test_format_number():
    assert format_number(1234567, "en") == "1,234,567"
    assert format_number(1234567, "zh-Hans") == "1,234,567"
    assert format_number(1234.5678, "zh-Hant", decimals=2) == "1,234.57"
    assert format_number(12, "zh-Hant") == "12"
    with pytest.raises(ValueError):
        format_number(1, "de")


# ------------------------------------------------------------------------------ the session's language (AppTest)
def _page(at: AppTest, page: str, **params) -> AppTest:
    for key in list(at.query_params):
        if key not in params:
            del at.query_params[key]  # a page switch empties the URL
    for key, value in params.items():
        at.query_params[key] = value
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_language_picker_url_and_page_switch():
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
    at.run()
    at = _page(at, "app_pages/9_Glossary.py")
    assert at.title[0].value == "Glossary"  # no parameter, no choice, no browser language: English
    picker = at.sidebar.selectbox(key="w.i18n.lang")
    assert picker.options == ["English", "简体中文", "繁體中文"]
    picker.set_value("zh-Hant").run()
    assert at.title[0].value == "術語表"
    # The session keeps the language when the URL loses it (page switch), and writes it back to the URL.
    at = _page(at, "app_pages/8_How_BPE_works.py")
    assert at.title[0].value == "BPE 的工作原理"
    assert at.sidebar.selectbox(key="w.i18n.lang").value == "zh-Hant"
    # A ?lang= in the URL wins over the session's language, and is remembered.
    at = _page(at, "app_pages/9_Glossary.py", lang="zh-Hans")
    assert at.title[0].value == "术语表"
    at = _page(at, "app_pages/8_How_BPE_works.py")
    assert at.title[0].value == "BPE 的工作原理"
    at = _page(at, "app_pages/9_Glossary.py", lang="bogus")  # not a language: the session's stays
    assert at.title[0].value == "术语表"


def _picker_script():
    import streamlit as st

    from ui.i18n import _, language_picker, url_param

    lang = language_picker()
    st.title(_("Glossary"))
    st.text(f"{lang} {url_param()}")


def test_picker_writes_the_url():
    """The picker's choice goes into ?lang= (pages keep it there through ui.state's URL parameters)."""
    at = AppTest.from_function(_picker_script, default_timeout=30).run()
    assert at.text[0].value == "en {}"  # English by default: URLs stay as they were
    assert "lang" not in at.query_params
    at.sidebar.selectbox(key="w.i18n.lang").set_value("zh-Hans").run()
    assert at.title[0].value == "术语表"
    assert at.text[0].value == "zh-Hans {'lang': 'zh-Hans'}"
    assert at.query_params["lang"] in ("zh-Hans", ["zh-Hans"])
    at.sidebar.selectbox(key="w.i18n.lang").set_value("en").run()
    assert at.text[0].value == "en {'lang': 'en'}"  # chosen explicitly: kept in links too
    assert at.query_params["lang"] in ("en", ["en"])


def test_unknown_lang_parameter_is_ignored():
    at = AppTest.from_function(_picker_script, default_timeout=30)
    at.query_params["lang"] = "zh-TW"  # not one of the codes: ignored
    at.run()
    assert at.text[0].value == "en {}"


# ------------------------------------------------------------------------------ the Traditional Chinese preset
def test_traditional_preset_is_the_simplified_one_converted():
    from ui.corpus import PRESETS

    hans = PRESETS["hongloumeng-chapter"].load_text()
    hant = PRESETS["hongloumeng-chapter-hant"].load_text()
    assert len(hant) == len(hans)  # OpenCC s2tw maps character to character
    changed = [(a, b) for a, b in zip(hans, hant) if a != b]
    assert all(ord(a) > 0x2E80 and ord(b) > 0x2E80 for a, b in changed)  # only Han characters changed
    assert [i for i, c in enumerate(hans) if c in "\r\n"] == [i for i, c in enumerate(hant) if c in "\r\n"]
    assert len(changed) > 1000
    assert not set("们这红楼梦说个时书") & set(hant)  # simplified-only forms are gone
    assert "紅樓夢" in PRESETS["hongloumeng-chapter-hant"].title
    # The hand corrections (presets/README.md): 云 "to say" is not 雲 "cloud"; 乾過 "drained the cup".
    assert "作者自云" in hant and "都云作者痴" in hant and "因乾過" in hant and "雲山霧海" in hant
