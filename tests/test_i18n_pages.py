"""Every page of the navigation (ui.page.PAGES) in 简体 and 繁體 through AppTest: it renders, and no
English message of the catalogs appears on it (the text the user gave, the corpus words and the token
chips aside; the "For developers" part of How BPE works shows code and is left out); the language
survives page switches and stays in the URL.

A leak is reported with the file(s) whose message leaked, so the failing test names who has to translate.
"""

from __future__ import annotations

import html
import re
import string
from functools import cache
from pathlib import Path

import pytest
from app_texts import html_texts, texts
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from streamlit.testing.v1 import AppTest

from bpe_core.i18n import catalog_path, translations
from ui.page import PAGES

REPO = Path(__file__).resolve().parent.parent
APP = str(REPO / "app.py")
CHINESE = ("zh-Hans", "zh-Hant")
DEVELOPERS = "For developers: code names and the reference trainer"
# Page titles (English) drawn with st.title, by script: the check that a switched-to page is in the language.
TITLES = {
    "app_pages/1_Side_by_side.py": "Side by side",
    "app_pages/2_BPE_vs_BBPE.py": "BPE vs byte-level BPE",
    "app_pages/3_Encode_and_decode.py": "Encode and decode",
    "app_pages/4_Files.py": "Files",
    "app_pages/8_How_BPE_works.py": "How BPE works",
    "app_pages/9_Glossary.py": "Glossary",
}
# HTML classes whose text is the user's: chips, corpus words, decoded or typed text, glyphs, code points.


@cache
def message_files() -> dict[str, tuple[str, ...]]:
    """English message (singular and plural) -> the files that hold it."""
    with open(REPO / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    out: dict[str, set[str]] = {}
    for filename, _line, message, _comments, _context in extract_from_dir(
        str(REPO), method_map, options_map, keywords=DEFAULT_KEYWORDS
    ):
        for text in message if isinstance(message, tuple) else (message,):
            if text:
                out.setdefault(text, set()).add(Path(filename).as_posix())
    return {k: tuple(sorted(v)) for k, v in out.items()}


def literals(message: str) -> list[str]:
    """The text of ``message`` between its placeholders."""
    return [text for text, _field, _spec, _conv in string.Formatter().parse(message)]


def is_short(message: str) -> bool:
    """Fewer than three English words: such a message must be a whole text to count as a leak (so that
    "step" or "new" inside a longer text is none)."""
    return len(re.findall(r"[A-Za-z]{2,}", "".join(literals(message)))) < 3


def pattern(message: str) -> re.Pattern | None:
    """A regular expression finding ``message`` with its placeholders filled in (in a short message a
    placeholder is one run without spaces: a number, a token), or ``None`` when the message has no
    English word to find."""
    if not re.search(r"[A-Za-z]{2,}", "".join(literals(message))):
        return None
    short = is_short(message)
    parts = []
    for text, field, _spec, _conv in string.Formatter().parse(message):
        parts.append(re.escape(text))
        if field is not None:
            parts.append(r"\S+" if short else r".+?")
    return re.compile("".join(parts))


@cache
def english_messages(lang: str) -> tuple[tuple[str, re.Pattern, bool, str], ...]:
    """``(message, pattern, whole, longest literal)`` for every message of the code shown in English in
    ``lang``: untranslated (or missing from the catalog) or translated differently from the English.
    ``whole``: the pattern must match a whole text; the longest literal filters texts before the regex."""
    with open(catalog_path(lang, ".po"), "rb") as f:
        catalog = read_po(f)
    same = set()
    for m in catalog:
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        same.update(i for i in ids if i and i in strings)  # e.g. "{left} + {right}": English and Chinese alike
    out = []
    for message in message_files():
        if message in same or message == DEVELOPERS:
            continue
        p = pattern(message)
        if p is not None:
            out.append((message, p, is_short(message), max(literals(message), key=len)))
    return tuple(out)


def leaks(at: AppTest, lang: str) -> list[str]:
    """The English messages on the page, each with the files holding it and where it was seen."""
    developers = translations(lang).gettext(DEVELOPERS)
    # Markdown escapes (md_escape's \\( \\: ...) removed, entities decoded, runs of spaces made one.
    shown = [" ".join(re.sub(r"\\(.)", r"\1", html.unescape(t)).split()) for t in texts(at._tree, developers)]
    found = []
    for message, regex, whole, longest in english_messages(lang):
        for text in shown:
            if longest not in text:
                continue
            if (regex.fullmatch(text) if whole else regex.search(text)) is not None:
                files = ", ".join(message_files()[message])
                found.append(f"{message!r} ({files}) in {text[:90]!r}")
                break
    return found


def open_in(lang: str, script: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    if script != PAGES[0].script:
        at.switch_page(script).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("script", [spec.script for spec in PAGES])
def test_page_renders_in_chinese_without_english_messages(script, lang):
    at = open_in(lang, script)
    assert not at.error, [e.value for e in at.error]
    assert at.query_params.get("lang") == lang
    if script in TITLES:
        assert at.title[0].value == translations(lang).gettext(TITLES[script])
    found = leaks(at, lang)
    assert not found, f"{len(found)} English message(s) on {script} in {lang}:\n" + "\n".join(found)


def test_leak_finder_finds_english_and_not_user_text():
    """The checker itself: an English page is full of leaks; chips and corpus words are not leaks."""
    at = open_in("en", "app_pages/8_How_BPE_works.py")
    assert len(leaks(at, "zh-Hans")) > 20
    assert html_texts("<p>Step <span class='bpe-chip'>new</span><td class='word'>tokens</td>ok</p>") == [
        "Step",
        "ok",
        "Step ok",
    ]
    regex = pattern("Merge {n}")
    assert regex.fullmatch("Merge 3") and not regex.fullmatch("第 3 次合并 Merge 3 x")
    assert not pattern("{part} of {total}").fullmatch("Gage (1994). A New Algorithm of Data Compression")
    assert pattern("{left} + {right}") is None
    assert pattern("Not available for this model: {problem}").search("x Not available for this model: y")


@pytest.mark.parametrize("lang", CHINESE)
def test_language_survives_page_switches_and_is_written_to_the_url(lang):
    tr = translations(lang)
    at = open_in(lang, PAGES[0].script)
    for spec in (*PAGES[1:], PAGES[0]):
        for key in list(at.query_params):
            del at.query_params[key]  # a page switch empties the URL
        at.switch_page(spec.script).run()
        assert not at.exception, (spec.script, [e.value for e in at.exception])
        assert at.query_params.get("lang") == lang, spec.script
        assert at.sidebar.selectbox(key="w.i18n.lang").value == lang
        assert at.sidebar.selectbox(key="w.i18n.lang").label == "🌐 " + tr.gettext("Language")
        if spec.script in TITLES:
            assert at.title[0].value == tr.gettext(TITLES[spec.script]), spec.script
