"""Teaching sentences on the pages, through AppTest: step 0 says a tie and the rule that picks it, and a
Chinese reader is told beside each file uploader which of its words are Streamlit's."""

from __future__ import annotations

import inspect

import pytest
from app_helpers import body_with, flat_text, new_app, no_exception, open_page

from bpe_core.i18n import translations
from ui import page as ui_page

NOTE = (
    "The English words in the box (“Drag and drop file here”, “Browse files”, “Limit … per file”) are Streamlit's "
    "own and cannot be translated: what this app reads, and its size limit, is said in this language above the box."
)


def test_step_zero_says_the_first_merge_is_a_tie_and_which_rule_picks():
    at = new_app(preset="textbook-low", step=0)
    no_exception(at)
    card = body_with(at, "id='bpe-next-merge'")
    assert "data-ties='3'" in card
    assert (
        "Next: e + s , one of 3 pairs tied as the most frequent (9 times); the tie-break rule “first-seen” picks it: "
        "the pair that appears first in the corpus wins." in flat_text(card)
    )


def test_step_zero_without_a_tie_says_most_frequent():
    at = new_app(preset="textbook-low", step=0, tie="lexical", variant="char")
    no_exception(at)
    card = body_with(at, "id='bpe-next-merge'")
    ties = int(card.split("data-ties='")[1].split("'")[0])
    text = flat_text(card)
    assert ("one of" in text) == (ties > 1)


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_the_files_page_uploaders_say_which_words_are_streamlits(lang):
    note = translations(lang).gettext(NOTE)
    assert note != NOTE
    at = open_page("files", lang=lang)
    no_exception(at)
    assert any(note in c.value for c in at.caption)


def test_the_sidebar_uploader_says_which_words_are_streamlits():
    at = new_app(lang="zh-Hans")
    at.radio(key="w.source").set_value("upload").run()
    no_exception(at)
    assert translations("zh-Hans").gettext(NOTE) in [c.value for c in at.sidebar.caption]


def test_no_note_in_english():
    at = new_app()
    at.radio(key="w.source").set_value("upload").run()
    assert not any("Streamlit's own" in c.value for c in at.sidebar.caption)


def test_every_titled_page_draws_its_title_with_the_gloss():
    """One place writes a page's title: ui.page.page_title, which adds the 词元（token） gloss in Chinese (called
    by the page itself, or through ui.page.start_run_page by the pages about the sidebar's trained model)."""
    from pathlib import Path

    pages = sorted(Path(__file__).resolve().parent.parent.glob("app_pages/*.py"))
    assert len(pages) >= 8
    for script in pages:
        source = script.read_text(encoding="utf-8")
        assert "st.title(" not in source, script.name
    assert sum(
        any(f in p.read_text(encoding="utf-8") for f in ("page_title(", "start_run_page(")) for p in pages
    ) == len(pages)
    assert "page_title(" in inspect.getsource(ui_page.start_run_page)


@pytest.mark.parametrize("lang, term", [("zh-Hans", "词元"), ("zh-Hant", "詞元")])
def test_the_first_token_on_a_page_is_glossed(lang, term):
    """In the page's own drawing order, the first text with 词元 is the gloss 词元（token）."""
    from app_texts import texts

    for name in ("how", "bbpe"):
        at = open_page(name, lang=lang)
        no_exception(at)
        first = next(t for t in texts(at.main, "") if term in t)
        assert first.startswith(f"{term}（token）"), first
