"""The glossary: BPE's terms in English, 简体中文 and 繁體中文, each with a one-line definition."""

from __future__ import annotations

import streamlit as st

from ui import glossary
from ui.i18n import _, current_language
from ui.page import page_title, start_page
from ui.sidebar import write_url


def main() -> None:
    choice = start_page(_("Glossary"), "📚")
    lang = current_language()
    page_title(_("Glossary"))
    st.markdown(
        _(
            "The terms this app uses, in English, Simplified Chinese and Traditional Chinese (Taiwan usage), "
            "each with a one-line definition in plain words. The Chinese terms are those of the Chinese NLP "
            "literature; the app's Chinese interface uses exactly these."
        )
    )
    glossary.render(lang)
    glossary.segmentation_note()
    write_url(choice)


main()
