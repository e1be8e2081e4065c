"""The glossary: BPE's terms in English, 简体中文 and 繁體中文, each with a one-line definition."""

from __future__ import annotations

import streamlit as st

from ui import glossary, state
from ui import pages_common as pc
from ui.i18n import _, language_picker


def main() -> None:
    sel = pc.start_page(_("Glossary"), "📚")
    lang = language_picker()
    st.title(_("Glossary"))
    st.markdown(
        _(
            "The terms this app uses, in English, Simplified Chinese and Traditional Chinese (Taiwan usage), "
            "each with a one-line definition in plain words. The Chinese terms are those of the Chinese NLP "
            "literature; the app's Chinese interface uses exactly these."
        )
    )
    glossary.render(lang)
    state.write_url(sel)


main()
